/* layout-api: hm_layout_find / field_at / path_at / may_share / groups on the
 * shared fixtures.  Expected offsets come from the table in
 * tests/fixtures/mm_common.h and the header of tests/fixtures/groups.c (both
 * checked against pahole by diff-pahole.sh) and from fx-nest.c.
 * Options structs carry their size (HM_OPTS): older, newer and unset sizes.
 * usage: layout-api MM_V1 MM_V2 GROUPS NEST
 *        layout-api --lines FILE LINE: a library caller that sets no line
 *        size gets FILE's machine's, LINE, in every consumer (mm_struct's
 *        296 bytes, tests/fixtures/mm_common.h, on LINE-byte lines). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/binary.h"
#include "hitmap/layout.h"
#include "hitmap/output.h"
#include "hitmap/types.h"

static int failures;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
		failures++; \
	} \
} while (0)

static hm_layout *open_layout(const char *path, const char *name, int expand, int aligned,
			      hm_binary **bin, hm_types **t)
{
	HM_OPTS(hm_layout_opts, o, .cacheline_size = 64, .expand = expand,
				    .assume_aligned = aligned);
	hm_layout *l;

	*bin = hm_binary_open(path);
	if (!*bin || hm_types_load(*bin, NULL, t)) {
		fprintf(stderr, "cannot load %s\n", path);
		exit(1);
	}
	l = hm_layout_new(*t, hm_types_find_struct(*t, name), &o);
	if (!l) {
		fprintf(stderr, "cannot lay out %s\n", name);
		exit(1);
	}
	return l;
}

static void done(hm_layout *l, hm_binary *bin, hm_types *t)
{
	hm_layout_free(l);
	hm_types_free(t);
	hm_binary_close(bin);
}

static void path_is(const hm_layout *l, uint64_t off, const char *want)
{
	char buf[256];
	int n = hm_layout_path_at(l, off, buf, sizeof(buf));

	if (!want)
		CHECK(n == -ENOENT, "path_at(%llu) = %s, want none", (unsigned long long)off,
		      n >= 0 ? buf : "error");
	else
		CHECK(n >= 0 && !strcmp(buf, want), "path_at(%llu) = '%s', want '%s'",
		      (unsigned long long)off, n >= 0 ? buf : "error", want);
}

static void mm_v1(const char *path)
{
	hm_binary *bin;
	hm_types *t;
	hm_layout *l = open_layout(path, "mm_struct", 0, 0, &bin, &t);
	const struct hm_layout_summary *s = hm_layout_summary(l);
	const hm_field *ptl = hm_layout_find(l, "page_table_lock");
	const hm_field *ml = hm_layout_find(l, "mmap_lock");
	size_t nh;
	const hm_hole *h = hm_layout_holes(l, &nh);

	CHECK(s->size == 296 && s->cachelines == 5 && s->members == 34, "v1 summary");
	CHECK(s->holes == 2 && s->sum_holes == 8 && !s->base_known && s->alignment == 8,
	      "v1 holes");
	CHECK(ptl && ptl->offset == 56 && ptl->size == 4 && ptl->line_first == 0, "v1 ptl");
	CHECK(ml && ml->offset == 64 && ml->size == 40 && ml->line_first == 1 && !ml->straddles,
	      "v1 mmap_lock");
	CHECK(!hm_layout_find(l, "mmap_lock.count"), "not expanded: no mmap_lock.count");
	CHECK(nh == 2 && h[0].offset == 60 && h[0].size == 4 &&
	      !strcmp(hm_layout_fields(l, NULL)[h[0].after].name, "page_table_lock"), "v1 hole");
	CHECK(hm_layout_field_at(l, 56) == ptl && hm_layout_field_at(l, 59) == ptl, "field_at ptl");
	CHECK(hm_layout_field_at(l, 60) == NULL, "field_at in the hole");
	path_is(l, 60, NULL);
	path_is(l, 70, "mmap_lock.count.counter");	/* below the listed field */
	path_is(l, 88, "mmap_lock.wait_list.next");
	path_is(l, 8, "mm_rb.rb_node");
	/* alignment 8 < 64: the base is unknown, 4 bytes apart may share a line */
	CHECK(hm_layout_may_share(l, 56, 4, 64, 40), "v1 may share (unknown base)");
	CHECK(!hm_layout_may_share(l, 0, 8, 200, 8), "far apart never share");
	done(l, bin, t);

	l = open_layout(path, "mm_struct", 1, 1, &bin, &t);
	CHECK(hm_layout_summary(l)->base_known, "assume_aligned");
	CHECK(!hm_layout_may_share(l, 56, 4, 64, 40), "v1 aligned: locks apart");
	ml = hm_layout_find(l, "mmap_lock.count");
	CHECK(ml && ml->offset == 64 && ml->depth == 1, "expanded mmap_lock.count");
	ml = hm_layout_find(l, "mmap_lock.wait_list.prev");
	CHECK(ml && ml->offset == 96 && ml->depth == 2, "expanded mmap_lock.wait_list.prev");
	CHECK(hm_layout_field_at(l, 70) == hm_layout_find(l, "mmap_lock.count.counter"),
	      "deepest field at 70");
	done(l, bin, t);
}

static void mm_v2(const char *path)
{
	hm_binary *bin;
	hm_types *t;
	hm_layout *l = open_layout(path, "mm_struct", 0, 1, &bin, &t);
	const hm_field *ptl = hm_layout_find(l, "page_table_lock");
	const hm_field *ml = hm_layout_find(l, "mmap_lock");

	CHECK(hm_layout_summary(l)->size == 288 && hm_layout_summary(l)->holes == 1, "v2 summary");
	CHECK(ptl && ptl->offset == 52, "v2 ptl");
	CHECK(ml && ml->offset == 56 && ml->straddles && ml->line_first == 0 && ml->line_last == 1,
	      "v2 mmap_lock straddles 0-1");
	CHECK(hm_layout_may_share(l, ptl->offset, ptl->size, ml->offset, ml->size),
	      "v2: the locks share line 0");
	done(l, bin, t);
}

static void groups(const char *path)
{
	hm_binary *bin;
	hm_types *t;
	hm_layout *l = open_layout(path, "netdev_like", 0, 0, &bin, &t);
	size_t n;
	const hm_group *g = hm_layout_groups(l, &n);
	const hm_field *f = hm_layout_fields(l, NULL);

	CHECK(n == 3, "3 groups, got %zu", n);
	if (n == 3) {
		CHECK(!strcmp(g[0].name, "read_tx") && g[0].offset == 0 && g[0].size == 18 &&
		      !g[0].aligned && !strcmp(f[g[0].first].name, "priv_flags") &&
		      !strcmp(f[g[0].last].name, "hard_header_len"), "read_tx");
		CHECK(!strcmp(g[1].name, "write_rx") && g[1].offset == 64 && g[1].size == 12 &&
		      g[1].aligned, "write_rx");
		CHECK(!strcmp(g[2].name, "read_rx") && g[2].offset == 76 && g[2].size == 4, "read_rx");
	}
	CHECK(hm_layout_summary(l)->base_known, "aligned(64) struct: base known");
	done(l, bin, t);
	l = open_layout(path, "sock_like", 0, 0, &bin, &t);
	g = hm_layout_groups(l, &n);
	CHECK(n == 2 && g[1].unterminated && g[1].offset == 20 && g[1].size == 20,
	      "sock_read_tx has no end: spans to the end (20..39)");
	done(l, bin, t);
}

static void nest(const char *path)
{
	hm_binary *bin;
	hm_types *t;
	hm_layout *l = open_layout(path, "embeds", 0, 0, &bin, &t);

	/* struct inner { char c; int i; } arr[2] at 40: arr[1].i at 52 */
	path_is(l, 52, "arr[1].i");
	path_is(l, 40, "arr[0].c");
	path_is(l, 41, "arr[0]");	/* the hole inside an element */
	path_is(l, 58, "u.i");		/* union top at 56: first member holding byte 2 */
	done(l, bin, t);
	l = open_layout(path, "anon", 0, 0, &bin, &t);
	/* anonymous members are flattened: lo at 8, a at 16 */
	CHECK(hm_layout_find(l, "lo") && hm_layout_find(l, "lo")->offset == 8, "anon lo");
	CHECK(hm_layout_find(l, "a") && hm_layout_find(l, "a")->depth == 1, "anon a");
	path_is(l, 12, "l");
	done(l, bin, t);
}

static char last_diag[256];

static void keep_diag(void *ctx, enum hm_diag_level level, const char *msg)
{
	snprintf(last_diag, sizeof(last_diag), "%s", msg);
}

/* The library reads a caller's first sz bytes, takes what follows as 0, and
 * refuses set bytes past the last field it knows, and a struct without sz. */
static void opts_sz(const char *path)
{
	struct { struct hm_layout_opts o; unsigned char later[8]; } big;
	struct hm_layout_opts o;
	HM_OPTS(hm_print_opts, po, .cacheline_size = 64);
	char want[256];
	hm_binary *bin;
	hm_types *t;
	hm_layout *l = open_layout(path, "mm_struct", 0, 0, &bin, &t);
	hm_type_id id = hm_layout_type(l);
	FILE *null = fopen("/dev/null", "w");
	/* The library knows the struct up to its last field, not its padding. */
	const size_t known = offsetof(struct hm_layout_opts, assume_aligned) + sizeof(o.assume_aligned);

	hm_set_diag(keep_diag, NULL);
	CHECK(po.sz == sizeof(po) && !po.expand && !po.annotate, "HM_OPTS sets sz, zeroes the rest");

	/* No sz: declared without HM_OPTS. */
	memset(&o, 0, sizeof(o));
	o.cacheline_size = 64;
	errno = 0;
	CHECK(!hm_layout_new(t, id, &o) && errno == EINVAL, "sz 0 refused");
	CHECK(!strcmp(last_diag, "struct hm_layout_opts: sz 0 is too small (declare it with HM_OPTS)"),
	      "sz 0 message: %s", last_diag);
	po.sz = 0;
	CHECK(hm_layout_print(null, t, id, &po) == -EINVAL, "hm_layout_print: sz 0 refused");
	po.sz = sizeof(po);
	CHECK(hm_layout_print(null, t, id, &po) == 0, "hm_layout_print: HM_OPTS accepted");

	/* An older caller, whose struct ends after cacheline_size: the expand bit
	 * past its sz is not its own and must be ignored. */
	memset(&o, 0, sizeof(o));
	o.sz = offsetof(struct hm_layout_opts, cacheline_size) + sizeof(o.cacheline_size);
	o.cacheline_size = 128;
	o.expand = 1;
	hm_layout_free(l);
	l = hm_layout_new(t, id, &o);
	CHECK(l && hm_layout_cacheline_size(l) == 128, "older sz: its fields read");
	CHECK(l && !hm_layout_find(l, "mmap_lock.count"), "older sz: later fields are 0");
	hm_layout_free(l);

	/* A newer caller: a longer struct is fine while the bytes past ours are 0. */
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	big.o.cacheline_size = 64;
	big.o.expand = 1;
	l = hm_layout_new(t, id, &big.o);
	CHECK(l && hm_layout_find(l, "mmap_lock.count"), "newer sz, zero tail: accepted");
	hm_layout_free(l);
	big.later[3] = 1;
	errno = 0;
	l = hm_layout_new(t, id, &big.o);
	CHECK(!l && errno == EINVAL, "newer sz, set tail: refused");
	snprintf(want, sizeof(want), "struct hm_layout_opts: byte %zu is set, past the %zu bytes this libhitmap knows",
		 offsetof(__typeof__(big), later) + 3, known);
	CHECK(!strcmp(last_diag, want), "set tail message: %s", last_diag);

	/* A flag a newer header adds where this one has padding (after
	 * assume_aligned, inside sizeof): still a byte past the last field this
	 * library knows, so refused, not ignored. */
	if (known < sizeof(o)) {
		memset(&o, 0, sizeof(o));
		o.sz = sizeof(o);
		((unsigned char *)&o)[known] = 1;
		errno = 0;
		l = hm_layout_new(t, id, &o);
		CHECK(!l && errno == EINVAL, "a set byte in the padding past the last field: refused");
		snprintf(want, sizeof(want), "struct hm_layout_opts: byte %zu is set, past the %zu bytes this libhitmap knows",
			 known, known);
		CHECK(!strcmp(last_diag, want), "padding byte message: %s", last_diag);
	}

	hm_set_diag(NULL, NULL);
	fclose(null);
	hm_layout_free(l);
	hm_types_free(t);
	hm_binary_close(bin);
}

/* Every consumer of a line size left 0 resolves it the same way: the
 * table's machine's (hm_types_cacheline_size()), never 64 by itself. */
static void machine_lines(const char *path, unsigned line)
{
	HM_OPTS(hm_layout_opts, lo, .expand = 0);
	HM_OPTS(hm_print_opts, po, .annotate = 0);
	unsigned n = (296 + line - 1) / line;
	char want[64], buf[8192];
	hm_binary *bin = hm_binary_open(path);
	hm_types *t = NULL;
	hm_type_id id;
	hm_layout *l;
	FILE *f;
	size_t got;

	if (!bin || hm_types_load(bin, NULL, &t)) {
		fprintf(stderr, "cannot load %s\n", path);
		exit(1);
	}
	id = hm_types_find_struct(t, "mm_struct");
	CHECK(hm_types_cacheline_size(t, 0) == line, "%s: table's line %u, want %u", path,
	      hm_types_cacheline_size(t, 0), line);
	CHECK(hm_types_cacheline_size(t, 32) == 32, "%s: an asked size wins", path);
	l = hm_layout_new(t, id, &lo);
	CHECK(l && hm_layout_cacheline_size(l) == line, "%s: hm_layout_new with 0", path);
	CHECK(l && hm_layout_summary(l)->cachelines == n, "%s: %u cachelines", path, n);
	hm_layout_free(l);
	l = hm_layout_new(t, id, NULL);
	CHECK(l && hm_layout_cacheline_size(l) == line, "%s: hm_layout_new with NULL", path);
	hm_layout_free(l);
	/* the printers: pahole's summary line and the --list line */
	f = tmpfile();
	CHECK(f && !hm_layout_print(f, t, id, &po) && !hm_layout_print_list_line(f, t, id, 0),
	      "%s: printers", path);
	got = f ? (rewind(f), fread(buf, 1, sizeof(buf) - 1, f)) : 0;
	buf[got] = 0;
	snprintf(want, sizeof(want), "size: 296, cachelines: %u,", n);
	CHECK(strstr(buf, want), "%s: hm_layout_print with 0: no '%s'", path, want);
	/* name, size, holes (pahole --sizes' columns), then the cachelines */
	{
		const char *ln = strstr(buf, "mm_struct\t296\t");
		unsigned holes, lines = 0;

		CHECK(ln && sscanf(ln + 14, "%u\t%u\n", &holes, &lines) == 2 && lines == n,
		      "%s: hm_layout_print_list_line with 0: %u cachelines, not %u", path, lines, n);
	}
	if (f)
		fclose(f);
	hm_types_free(t);
	hm_binary_close(bin);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--lines")) {
		machine_lines(argv[2], (unsigned)strtoul(argv[3], NULL, 10));
		return failures ? 1 : 0;
	}
	if (argc != 5) {
		fprintf(stderr, "usage: layout-api MM_V1 MM_V2 GROUPS NEST\n");
		return 2;
	}
	mm_v1(argv[1]);
	mm_v2(argv[2]);
	groups(argv[3]);
	nest(argv[4]);
	opts_sz(argv[1]);
	if (!failures)
		printf("layout-api: ok\n");
	return failures ? 1 : 0;
}
