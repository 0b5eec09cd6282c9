/* btfcmp: load a file's types from DWARF and from BTF and compare the two
 * tables struct by struct, member by member — the type-table half of the
 * btfdiff idea.
 *
 *   btfcmp [--btf | --raw] FILE [NAME...]   print the structs of one table
 *   btfcmp --count [--btf | --raw] FILE      load, print the type count
 *   btfcmp --sizes [--btf | --raw] FILE      every struct as pahole --sizes
 *        prints it: "NAME<TAB>SIZE<TAB>HOLES", holes from hm_layout
 *   btfcmp --vars [--btf | --raw] FILE NAME...  load with variables: print
 *        "NAME ADDRESS TYPE" for each (ADDRESS "-" when unknown)
 *   btfcmp --offsets [--btf | --raw] FILE NAME...  "NAME SIZE", then per
 *        direct member "OFFSET SIZE" ("OFFSET:BIT UNIT" for bitfields), the
 *        numbers pahole prints in its member comments
 *   btfcmp --diff FILE [NAME...]            DWARF vs the .BTF of FILE
 *   btfcmp --raw --base BASE FILE [NAME...]  split BTF on top of BASE
 *   btfcmp --mutate FILE                    load a raw BTF file with every
 *        byte in turn set to 0x00, 0xff and flipped: each load must succeed
 *        or fail with -EBADMSG and a message, never crash
 *
 * --diff prints one line per difference, tagged with its class, then a
 * count per class.  Classes BTF cannot avoid (tests/btf/diff.sh shows
 * each on the fixture):
 *   flat-array   pahole -J writes int a[2][3] as int a[6]
 *   flexible     BTF cannot tell x[0] from x[]; a trailing one reads as x[]
 *   natural-alignment  an alignment attribute that changes nothing
 *                (aligned(8) on a struct whose alignment is 8 anyway)
 *   alignment    other alignment attributes: inferred, not recorded
 *   atomic       pahole 1.24 encodes an _Atomic member as void
 *   duplicate-name  DWARF's first struct of a name is not BTF's first
 *                (a different definition with that name matches)
 *   missing      a struct DWARF has and BTF lacks
 * Differences that matter are classes "size" (struct sizes differ), "holes"
 * (hm_layout finds other holes or padding) and "other" (any other member
 * difference); any of them makes the exit status 1.
 */
#include "config.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/hitmap.h"
#include "hitmap/binary.h"
#include "hitmap/layout.h"
#include "hitmap/types.h"
#include "btf/btf.h"
#include "types/types-lib.h"

enum { C_FLAT, C_FLEX, C_NATURAL, C_ALIGN, C_ATOMIC, C_DUP, C_MISSING, C_SIZE, C_HOLES,
       C_OTHER, C_N };
static const char *const class_names[C_N] = {
	"flat-array", "flexible", "natural-alignment", "alignment", "atomic", "duplicate-name",
	"missing", "size", "holes", "other",
};
static unsigned long counts[C_N];
static int quiet, count_only, offsets_only, mutating, vars, sizes;
static const char *base_path;

static void on_diag(void *ctx, enum hm_diag_level level, const char *msg)
{
	(void)ctx;
	if (level <= HM_DIAG_WARNING && !mutating)
		fprintf(stderr, "btfcmp: %s\n", msg);
}

static void report(int cls, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void report(int cls, const char *where, const char *fmt, ...)
{
	va_list ap;

	counts[cls]++;
	if (quiet && cls != C_OTHER && cls != C_SIZE && cls != C_HOLES)
		return;
	printf("%s: %s: ", class_names[cls], where);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void decl(const hm_types *t, hm_type_id id, const char *name, char *buf, size_t len)
{
	if (hm_types_declare(t, id, name ? name : "", buf, len) < 0)
		snprintf(buf, len, "<error>");
}

/* ---- dump ---- */

static const char *kw(enum hm_type_kind k)
{
	return k == HM_KIND_UNION ? "union" : k == HM_KIND_CLASS ? "class" : "struct";
}

static void dump_struct(const hm_types *t, hm_type_id id, int indent)
{
	const hm_type *ty = hm_types_get(t, id);
	const hm_member *m = hm_types_members(t, ty);
	char buf[512];

	printf("%*s%s %s size=%llu align=%u alignof=%u members=%u\n", indent, "",
	       kw(ty->kind), ty->name ? ty->name : "{anon}", (unsigned long long)ty->size,
	       ty->alignment, hm_types_alignof(t, id), ty->nr);
	for (uint32_t i = 0; i < ty->nr; i++) {
		const hm_type *mt = hm_types_get(t, hm_types_resolve(t, m[i].type));

		decl(t, m[i].type, m[i].name, buf, sizeof(buf));
		printf("%*s  %s off=%llu", indent, "", buf, (unsigned long long)m[i].offset);
		if (m[i].flags & HM_MEMBER_BITFIELD)
			printf(" bits=%u@%u/%u", m[i].bit_size, m[i].bit_offset, m[i].byte_size);
		if (m[i].alignment)
			printf(" align=%u", m[i].alignment);
		if (m[i].flags & ~HM_MEMBER_BITFIELD)
			printf(" flags=%#x", m[i].flags);
		putchar('\n');
		if (mt && !mt->name && (mt->kind == HM_KIND_STRUCT || mt->kind == HM_KIND_UNION))
			dump_struct(t, hm_types_resolve(t, m[i].type), indent + 4);
	}
}

static void offsets_struct(const hm_types *t, hm_type_id id)
{
	const hm_type *ty = hm_types_get(t, id);
	const hm_member *m = hm_types_members(t, ty);

	printf("%s %llu\n", ty->name, (unsigned long long)ty->size);
	for (uint32_t i = 0; i < ty->nr; i++) {
		if (m[i].flags & HM_MEMBER_BITFIELD)
			printf("%llu:%u %u\n", (unsigned long long)m[i].offset, m[i].bit_offset,
			       m[i].byte_size);
		else
			printf("%llu %llu\n", (unsigned long long)m[i].offset,
			       (unsigned long long)hm_types_sizeof(t, m[i].type));
	}
}

static int dump(const hm_types *t, char **names, int n)
{
	const hm_type_id *ids;
	size_t nr = hm_types_structs(t, &ids);

	if (n) {
		for (int i = 0; i < n; i++) {
			hm_type_id id = hm_types_find_struct(t, names[i]);

			if (!id) {
				fprintf(stderr, "btfcmp: no struct %s\n", names[i]);
				return 2;
			}
			if (offsets_only)
				offsets_struct(t, id);
			else
				dump_struct(t, id, 0);
		}
		return 0;
	}
	for (size_t i = 0; i < nr; i++)
		dump_struct(t, ids[i], 0);
	return 0;
}

/* ---- diff ---- */

/* "int a[2][3]" and "int a[6]": the same bytes, dims multiplied out. */
static int same_flattened(const hm_types *a, hm_type_id x, const hm_types *b, hm_type_id y)
{
	const hm_type *ta = hm_types_get(a, x), *tb = hm_types_get(b, y);
	char sa[512], sb[512];

	if (!ta || !tb || ta->kind != HM_KIND_ARRAY || tb->kind != HM_KIND_ARRAY)
		return 0;
	if (hm_types_sizeof(a, x) != hm_types_sizeof(b, y))
		return 0;
	decl(a, ta->target, NULL, sa, sizeof(sa));
	decl(b, tb->target, NULL, sb, sizeof(sb));
	if (ta->nr > 1 && !strcmp(sa, sb))
		return 1;
	/* int a[2][3] may also flatten into an array of int[3]'s element */
	return hm_types_get(a, ta->target)->kind == HM_KIND_ARRAY &&
	       same_flattened(a, ta->target, b, tb->target);
}

static int has_dim(const hm_types *t, hm_type_id id, uint64_t want)
{
	const hm_type *ty = hm_types_get(t, id);

	return ty && ty->kind == HM_KIND_ARRAY && ty->nr &&
	       hmi_types_dims(t, ty)[0] == want;
}

static void diff_struct(const hm_types *d, hm_type_id di, const hm_types *b, hm_type_id bi,
			const char *where);

static void diff_member(const hm_types *d, const hm_member *dm, const hm_types *b,
			const hm_member *bm, int last, const char *where)
{
	char sd[512], sb[512], at[600];
	const hm_type *dt, *bt;

	decl(d, dm->type, dm->name, sd, sizeof(sd));
	decl(b, bm->type, bm->name, sb, sizeof(sb));
	snprintf(at, sizeof(at), "%s.%s", where, dm->name ? dm->name : "{anon}");
	if (dm->offset != bm->offset || dm->bit_offset != bm->bit_offset ||
	    dm->bit_size != bm->bit_size || dm->byte_size != bm->byte_size ||
	    dm->flags != bm->flags)
		report(C_OTHER, at, "offset %llu bits %u@%u/%u flags %#x vs %llu bits %u@%u/%u flags %#x",
		       (unsigned long long)dm->offset, dm->bit_size, dm->bit_offset, dm->byte_size,
		       dm->flags, (unsigned long long)bm->offset, bm->bit_size, bm->bit_offset,
		       bm->byte_size, bm->flags);
	if (dm->alignment != bm->alignment) {
		uint32_t da = hm_types_alignof(d, dm->type), ba = hm_types_alignof(b, bm->type);
		int natural = da == ba && (!dm->alignment || dm->alignment == da) &&
			      (!bm->alignment || bm->alignment == ba);

		report(natural ? C_NATURAL : C_ALIGN, at, "member alignment %u vs %u",
		       dm->alignment, bm->alignment);
	}
	dt = hm_types_get(d, hm_types_resolve(d, dm->type));
	bt = hm_types_get(b, hm_types_resolve(b, bm->type));
	if (!strcmp(sd, sb)) {
		/* same spelling: an anonymous record is compared inside */
		if (dt && bt && !dt->name && !bt->name &&
		    (dt->kind == HM_KIND_STRUCT || dt->kind == HM_KIND_UNION))
			diff_struct(d, hm_types_resolve(d, dm->type), b,
				    hm_types_resolve(b, bm->type), at);
		return;
	}
	if (strstr(sd, "_Atomic") && bt && bt->kind == HM_KIND_VOID)
		report(C_ATOMIC, at, "'%s' vs '%s'", sd, sb);
	else if (same_flattened(d, dm->type, b, bm->type))
		report(C_FLAT, at, "'%s' vs '%s'", sd, sb);
	else if (last && has_dim(d, dm->type, 0) && has_dim(b, bm->type, HM_DIM_FLEXIBLE))
		report(C_FLEX, at, "'%s' vs '%s'", sd, sb);
	else
		report(C_OTHER, at, "'%s' vs '%s'", sd, sb);
}

static void diff_struct(const hm_types *d, hm_type_id di, const hm_types *b, hm_type_id bi,
			const char *where)
{
	const hm_type *dt = hm_types_get(d, di), *bt = hm_types_get(b, bi);
	const hm_member *dm = hm_types_members(d, dt), *bm = hm_types_members(b, bt);
	uint32_t dal = hm_types_alignof(d, di), bal = hm_types_alignof(b, bi);

	if (dt->kind != bt->kind || dt->size != bt->size || dt->nr != bt->nr) {
		report(C_OTHER, where, "%s size %llu members %u vs %s size %llu members %u",
		       kw(dt->kind), (unsigned long long)dt->size, dt->nr, kw(bt->kind),
		       (unsigned long long)bt->size, bt->nr);
		return;
	}
	if (dt->alignment != bt->alignment && dal == bal &&
	    (!dt->alignment || dt->alignment == dal) && (!bt->alignment || bt->alignment == bal))
		report(C_NATURAL, where, "alignment attribute %u vs %u (alignof %u)",
		       dt->alignment, bt->alignment, dal);
	else if (dt->alignment != bt->alignment || dal != bal)
		report(C_ALIGN, where, "alignment attribute %u (alignof %u) vs %u (alignof %u)",
		       dt->alignment, dal, bt->alignment, bal);
	for (uint32_t i = 0; i < dt->nr; i++)
		diff_member(d, &dm[i], b, &bm[i], i == dt->nr - 1, where);
}

/* What pahole's summary says about holes and padding, from hm_layout. */
static void diff_holes(const hm_types *d, hm_type_id di, const hm_types *b, hm_type_id bi,
		       const char *where)
{
	hm_layout *ld = hm_layout_new(d, di, NULL), *lb = hm_layout_new(b, bi, NULL);

	if (ld && lb) {
		const struct hm_layout_summary *sd = hm_layout_summary(ld);
		const struct hm_layout_summary *sb = hm_layout_summary(lb);

		if (sd->holes != sb->holes || sd->sum_holes != sb->sum_holes ||
		    sd->padding != sb->padding || sd->bit_holes != sb->bit_holes ||
		    sd->sum_bit_holes != sb->sum_bit_holes)
			report(C_HOLES, where,
			       "holes %u/%llu bit holes %u/%llu padding %llu vs "
			       "holes %u/%llu bit holes %u/%llu padding %llu",
			       sd->holes, (unsigned long long)sd->sum_holes, sd->bit_holes,
			       (unsigned long long)sd->sum_bit_holes, (unsigned long long)sd->padding,
			       sb->holes, (unsigned long long)sb->sum_holes, sb->bit_holes,
			       (unsigned long long)sb->sum_bit_holes, (unsigned long long)sb->padding);
	}
	hm_layout_free(ld);
	hm_layout_free(lb);
}

/* Whether two definitions are the same struct by size, member count and
 * member names.  Names matter: the kernel has two struct getdents_callback
 * (fs/readdir.c, fs/exportfs/expfs.c) of 40 bytes and 5 members each. */
static int same_shape(const hm_types *d, const hm_type *dt, const hm_types *b,
		      const hm_type *bt)
{
	const hm_member *dm, *bm;

	if (bt->kind != dt->kind || bt->size != dt->size || bt->nr != dt->nr)
		return 0;
	dm = hm_types_members(d, dt);
	bm = hm_types_members(b, bt);
	for (uint32_t k = 0; k < dt->nr; k++)
		if ((dm[k].name == NULL) != (bm[k].name == NULL) ||
		    (dm[k].name && strcmp(dm[k].name, bm[k].name)))
			return 0;
	return 1;
}

/* Another complete definition of the same name in BTF of DWARF's shape, or 0. */
static hm_type_id other_definition(const hm_types *d, hm_type_id di, const hm_types *b,
				   hm_type_id first)
{
	const hm_type *dt = hm_types_get(d, di);

	for (hm_type_id i = 1; i < hm_types_count(b); i++) {
		const hm_type *bt = hm_types_get(b, i);

		if (i != first && bt->name && !bt->declaration && !strcmp(bt->name, dt->name) &&
		    same_shape(d, dt, b, bt))
			return i;
	}
	return 0;
}

static int diff(const hm_types *d, const hm_types *b, char **names, int n)
{
	const hm_type_id *ids;
	size_t nr = hm_types_structs(d, &ids), compared = 0;
	int rc = 0;

	for (size_t i = 0; i < (n ? (size_t)n : nr); i++) {
		hm_type_id di = n ? hm_types_find_struct(d, names[i]) : ids[i];
		const char *name = n ? names[i] : hm_types_get(d, di)->name;
		hm_type_id bi = hm_types_find_struct(b, name);

		if (!di) {
			fprintf(stderr, "btfcmp: no struct %s in DWARF\n", name);
			return 2;
		}
		if (!bi) {
			report(C_MISSING, name, "not in BTF");
			continue;
		}
		compared++;
		if (!same_shape(d, hm_types_get(d, di), b, hm_types_get(b, bi))) {
			hm_type_id other = other_definition(d, di, b, bi);

			if (other) {
				report(C_DUP, name, "BTF's first definition differs, another matches");
				bi = other;
			}
		}
		if (hm_types_get(d, di)->size != hm_types_get(b, bi)->size)
			report(C_SIZE, name, "size %llu vs %llu",
			       (unsigned long long)hm_types_get(d, di)->size,
			       (unsigned long long)hm_types_get(b, bi)->size);
		else
			diff_holes(d, di, b, bi, name);
		diff_struct(d, di, b, bi, name);
	}
	printf("compared %zu structs\n", compared);
	for (int c = 0; c < C_N; c++) {
		if (counts[c])
			printf("%s %lu\n", class_names[c], counts[c]);
	}
	if (counts[C_OTHER] || counts[C_SIZE] || counts[C_HOLES])
		rc = 1;
	return rc;
}

/* ---- robustness ---- */

static int capture_count;

static void count_diag(void *ctx, enum hm_diag_level level, const char *msg)
{
	(void)ctx;
	(void)msg;
	if (level == HM_DIAG_ERROR)
		capture_count++;
}

static unsigned char *slurp_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long sz;

	if (f && !fseek(f, 0, SEEK_END) && (sz = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
	    (buf = malloc(sz ? (size_t)sz : 1)) && fread(buf, 1, (size_t)sz, f) == (size_t)sz) {
		*len = (size_t)sz;
		fclose(f);
		return buf;
	}
	perror(path);
	free(buf);
	if (f)
		fclose(f);
	return NULL;
}

static int mutate(const char *path)
{
	static const int how[] = { 0x00, 0xff, -1 };
	unsigned long ok = 0, rejected = 0;
	unsigned char *buf, *copy, *base = NULL;
	size_t len = 0, base_len = 0;

	if (!(buf = slurp_file(path, &len)) || (base_path && !(base = slurp_file(base_path, &base_len))))
		return 2;
	if (!(copy = malloc(len ? len : 1)))
		return 2;
	hm_set_diag(count_diag, NULL);
	for (size_t i = 0; i < len; i++) {
		for (size_t k = 0; k < sizeof(how) / sizeof(how[0]); k++) {
			hm_types *t = hm_types_new();
			int rc;

			memcpy(copy, buf, len);
			copy[i] = how[k] < 0 ? copy[i] ^ 0x80 : (unsigned char)how[k];
			capture_count = 0;
			rc = base ? hm_btf_load_split_raw(base, base_len, base_path, copy, len, path,
							  t, NULL) :
				    hm_btf_load_raw(copy, len, path, t, NULL);
			hm_types_free(t);
			if (rc == 0) {
				ok++;
			} else if (rc == -EBADMSG && capture_count == 1) {
				rejected++;
			} else {
				fprintf(stderr, "btfcmp: byte %zu set to %d: rc %d with %d messages\n",
					i, how[k], rc, capture_count);
				return 1;
			}
		}
	}
	printf("mutations %lu loaded %lu rejected %lu\n", ok + rejected, ok, rejected);
	free(base);
	free(buf);
	free(copy);
	return 0;
}

/* ---- main ---- */

static int load(const char *path, int how, hm_types **out)
{
	struct hm_load_opts o = { .sz = sizeof(o), .variables = vars };
	hm_binary *bin;
	hm_types *t;
	int err;

	if (how == 'r') {
		if (!(t = hm_types_new()))
			return -ENOMEM;
		err = base_path ? hm_btf_load_split_path(base_path, path, t, &o) :
				  hm_btf_load_path(path, t, &o);
		if (err) {
			hm_types_free(t);
			return err;
		}
		*out = t;
		return 0;
	}
	if (!(bin = hm_binary_open(path)))
		return -errno;
	if (how == 'b') {
		if (!(t = hm_types_new())) {
			hm_binary_close(bin);
			return -ENOMEM;
		}
		err = hm_btf_load_elf(bin, t, &o);
		if (err)
			hm_types_free(t);
		else
			*out = t;
	} else {
		err = hm_types_load(bin, &o, out);
	}
	hm_binary_close(bin);
	return err;
}

int main(int argc, char **argv)
{
	hm_types *a = NULL, *b = NULL;
	int how = 'd', rc;

	hm_set_diag(on_diag, NULL);
	for (; argc > 1 && argv[1][0] == '-' && argv[1][1] == '-'; argc--, argv++) {
		if (!strcmp(argv[1], "--btf"))
			how = 'b';
		else if (!strcmp(argv[1], "--raw"))
			how = 'r';
		else if (!strcmp(argv[1], "--diff"))
			how = 'D';
		else if (!strcmp(argv[1], "--quiet"))
			quiet = 1;
		else if (!strcmp(argv[1], "--count"))
			count_only = 1;
		else if (!strcmp(argv[1], "--base") && argc > 2) {
			base_path = argv[2];
			argc--;
			argv++;
		} else if (!strcmp(argv[1], "--sizes"))
			sizes = 1;
		else if (!strcmp(argv[1], "--vars"))
			vars = 1;
		else if (!strcmp(argv[1], "--mutate"))
			how = 'm';
		else if (!strcmp(argv[1], "--offsets"))
			offsets_only = 1;
		else
			break;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: btfcmp [--count|--offsets|--sizes|--vars]\n"
			"              [--btf|--raw [--base BASE]|--diff [--quiet]|--mutate]\n"
			"              FILE [NAME...]\n");
		return 2;
	}
	if (how == 'm')
		return mutate(argv[1]);
	if (how != 'D') {
		if ((rc = load(argv[1], how, &a)))
			return rc == -EBADMSG || rc == -ENODATA ? 3 : 4;
		if (vars) {
			rc = 0;
			for (int i = 2; i < argc; i++) {
				const hm_variable *v = hmi_types_find_variable(a, argv[i]);
				char buf[512];

				if (!v) {
					fprintf(stderr, "btfcmp: no variable %s\n", argv[i]);
					rc = 2;
					continue;
				}
				decl(a, v->type, NULL, buf, sizeof(buf));
				if (v->has_addr)
					printf("%s %#llx %s\n", v->name, (unsigned long long)v->addr, buf);
				else
					printf("%s - %s\n", v->name, buf);
			}
		} else if (sizes) {
			const hm_type_id *ids;
			size_t nr = hm_types_structs(a, &ids);

			rc = 0;
			for (size_t i = 0; i < nr && !rc; i++) {
				hm_layout *l = hm_layout_new(a, ids[i], NULL);

				if (!l) {
					fprintf(stderr, "btfcmp: cannot lay out %s\n",
						hm_types_get(a, ids[i])->name);
					rc = 1;
					break;
				}
				printf("%s\t%llu\t%u\n", hm_types_get(a, ids[i])->name,
				       (unsigned long long)hm_types_get(a, ids[i])->size,
				       hm_layout_summary(l)->holes);
				hm_layout_free(l);
			}
		} else if (count_only) {
			const hm_type_id *ids;

			printf("types %zu structs %zu\n", hm_types_count(a),
			       hm_types_structs(a, &ids));
			rc = 0;
		} else {
			rc = dump(a, argv + 2, argc - 2);
		}
		hm_types_free(a);
		return rc;
	}
	if ((rc = load(argv[1], 'd', &a)) || (rc = load(argv[1], 'b', &b))) {
		hm_types_free(a);
		return 3;
	}
	rc = diff(a, b, argv + 2, argc - 2);
	hm_types_free(a);
	hm_types_free(b);
	return rc;
}
