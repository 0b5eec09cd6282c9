/* record-watch: --watch expressions → hardware breakpoint events.
 *
 * An expression names bytes of a global object (DWARF variables and types,
 * else ELF symbols); they are split into naturally aligned 1/2/4/8-byte slots,
 * the only shapes x86 debug registers take, and each slot becomes one
 * breakpoint (writes) or two (a W and an RW breakpoint, to tell reads from
 * writes without decoding instructions). */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <elf.h>
#include <linux/hw_breakpoint.h>
#include "hitmap/record.h"
#include "base/diag.h"
#include "base/util.h"
#include "elf/binary-lib.h"
#include "record/record-int.h"
#include "types/types-lib.h"

/* No PERF_SAMPLE_PERIOD: with it, the kernel's software-event path (which
 * breakpoints take) samples every hit and ignores sample_period. */
#define WATCH_SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			   PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_CPU)

static int parse_num(const char *s, size_t n, uint64_t *out)
{
	char buf[32], *end;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	*out = strtoull(buf, &end, 0);
	return errno || *end ? -1 : 0;
}

/* Suggest up to three global names close to `name`. */
static void suggest(const char *name, hm_binary *bin, const hm_types *t)
{
	const char *best[3] = { 0 };
	unsigned dist[3] = { ~0u, ~0u, ~0u };
	size_t i, n = t ? hm_types_nr_variables(t) : 0;

	(void)bin;
	for (i = 0; i < n; i++) {
		const hm_variable *v = hm_types_variable(t, i);
		unsigned d;
		int k;

		if (!v->name || !v->has_addr)
			continue;
		d = hm_edit_distance(name, v->name, 3);
		if (d > 3)
			continue;
		for (k = 2; k >= 0 && d < dist[k]; k--) {
			if (k < 2) {
				dist[k + 1] = dist[k];
				best[k + 1] = best[k];
			}
			dist[k] = d;
			best[k] = v->name;
		}
	}
	if (best[0])
		hm_diag(HM_DIAG_NOTE, "did you mean %s%s%s%s%s?", best[0],
			best[1] ? ", " : "", best[1] ? best[1] : "",
			best[2] ? ", " : "", best[2] ? best[2] : "");
}

/* Member `name` of record type id, looking through anonymous members as C
 * does; adds its offset to *off and returns its type, or HM_TYPE_NONE. */
static hm_type_id member_of(const hm_types *t, hm_type_id id, const char *name, size_t n,
			    uint64_t *off, uint64_t *size)
{
	const hm_type *ty = hm_types_get(t, hm_types_resolve(t, id));
	const hm_member *m;
	uint32_t i;

	if (!ty || !hm_kind_is_record(ty->kind))
		return HM_TYPE_NONE;
	m = hm_types_members(t, ty);
	for (i = 0; i < ty->nr; i++) {
		uint64_t sub = m[i].offset;
		hm_type_id found;

		if (m[i].flags & HM_MEMBER_STATIC)
			continue;
		if (m[i].name && strlen(m[i].name) == n && !strncmp(m[i].name, name, n)) {
			*off += m[i].offset;
			*size = m[i].bit_size ? m[i].byte_size : hm_types_sizeof(t, m[i].type);
			return m[i].type;
		}
		if (!m[i].name) {
			found = member_of(t, m[i].type, name, n, &sub, size);
			if (found) {
				*off += sub;
				return found;
			}
		}
	}
	return HM_TYPE_NONE;
}

/* The index of `[N]` at *p (just past the '['), moving *p past the ']'. */
static int parse_index(const char **p, uint64_t *idx)
{
	size_t n = strcspn(*p, "]");

	if ((*p)[n] != ']' || !isdigit((unsigned char)**p) || parse_num(*p, n, idx))
		return -1;
	*p += n + 1;
	return 0;
}

/* Offset and size of `path` inside the variable's type: fields after '.',
 * array elements as `[N]` (one per dimension, as report prints them:
 * `.cnt[0].n`, `[1][2]`), each index checked against its dimension.  `path`
 * starts with '.' or '['; col is the 1-based column of its first character
 * in expr, for the errors an index can make. */
static int field_of(const hm_types *t, const hm_variable *v, const char *path, size_t col,
		    const char *expr, uint64_t *off, uint64_t *size)
{
	hm_type_id id = v->type;
	const hm_type *arr = NULL;	/* the array whose dimension `dim` is next */
	uint32_t dim = 0;
	const char *p = path;

	*off = 0;
	*size = hm_types_sizeof(t, id);
	while (*p) {
		const hm_type *rt;
		size_t n;

		if (*p == '[') {
			const char *at = p++;
			const uint64_t *dims;
			uint64_t idx, stride;

			if (!arr) {
				rt = hm_types_get(t, hm_types_resolve(t, id));
				if (!rt || rt->kind != HM_KIND_ARRAY || !rt->nr)
					return hm_fail(EINVAL, "%s: column %zu: %s%.*s is not an array",
						       expr, col + (size_t)(at - path), v->name,
						       (int)(at - path), path);
				arr = rt;
				dim = 0;
			}
			if (parse_index(&p, &idx))
				return hm_fail(EINVAL, "%s: column %zu: expected an index and ']'",
					       expr, col + (size_t)(at - path) + 1);
			dims = hmi_types_dims(t, arr);
			if (dims[dim] == HM_DIM_FLEXIBLE || idx >= dims[dim])
				return hm_fail(EINVAL, "%s: column %zu: index %" PRIu64 " is out of "
					       "bounds for %s%.*s (%s%" PRIu64 " elements)", expr,
					       col + (size_t)(at - path) + 1, idx, v->name,
					       (int)(at - path), path,
					       dims[dim] == HM_DIM_FLEXIBLE ? "flexible: " : "",
					       dims[dim] == HM_DIM_FLEXIBLE ? 0 : dims[dim]);
			stride = hm_types_sizeof(t, arr->target);
			for (uint32_t d = dim + 1; d < arr->nr; d++)
				stride *= dims[d] == HM_DIM_FLEXIBLE ? 0 : dims[d];
			*off += idx * stride;
			*size = stride;
			if (++dim == arr->nr) {
				id = arr->target;
				arr = NULL;
			}
			continue;
		}
		if (*p != '.')
			return hm_fail(EINVAL, "%s: column %zu: unexpected '%c'", expr,
				       col + (size_t)(p - path), *p);
		n = strcspn(++p, ".[");
		rt = arr ? arr : hm_types_get(t, hm_types_resolve(t, id));
		if (!rt || !hm_kind_is_record(rt->kind)) {
			if (p == path + 1)
				return hm_fail(EINVAL, "%s: %s is not a struct or union", expr,
					       v->name);
			return hm_fail(EINVAL, "%s: %s.%.*s is not a struct or union", expr,
				       v->name, (int)(p - path - 2), path + 1);
		}
		id = member_of(t, id, p, n, off, size);
		if (!id)
			return hm_fail(ENOENT, "%s: %s has no field %.*s", expr, v->name,
				       (int)(p - path - 1 + n), path + 1);
		p += n;
	}
	return 0;
}

/* Where `name` is: a DWARF global with an address, else an ELF symbol. */
static int find_object(const char *name, hm_binary *bin, const hm_types *t,
		       const hm_variable **var, uint64_t *addr, uint64_t *size)
{
	const hm_variable *v = t ? hmi_types_find_variable(t, name) : NULL;
	const hm_symbol *s;

	*var = NULL;
	if (v && v->has_addr) {
		*var = v;
		*addr = v->addr;
		*size = hm_types_sizeof(t, v->type);
		return 0;
	}
	s = bin ? hm_binary_symbol(bin, name) : NULL;
	if (s && s->addr) {
		*addr = s->addr;
		*size = s->size;
		return 0;
	}
	return -ENOENT;
}

static int parse_mode(char *e, enum hm_watch_mode *mode)
{
	char *colon = strrchr(e, ':');

	*mode = HM_WATCH_AUTO;
	if (!colon)
		return 0;
	if (!strcmp(colon, ":w"))
		*mode = HM_WATCH_W;
	else if (!strcmp(colon, ":rw"))
		*mode = HM_WATCH_RW;
	else
		return -1;
	*colon = 0;
	return 0;
}

/* The pieces of `NAME[.PATH|[N]...][+OFF][/LEN]`; path keeps its leading
 * '.' or '[', which starts at column path_col of the expression. */
struct parsed {
	char name[160], path[160];
	size_t path_col;
	uint64_t off, len;
	int has_off, has_len;
};

static int split_expr(const char *e, const char *expr, struct parsed *x)
{
	const char *p = e;
	size_t n;

	memset(x, 0, sizeof(*x));
	if (!isalpha((unsigned char)*p) && *p != '_')
		return hm_fail(EINVAL, "%s: expected a variable or symbol name", expr);
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	memcpy(x->name, e, p - e);
	if (*p == '.' || *p == '[') {
		n = strcspn(p, "+/");
		memcpy(x->path, p, n);
		x->path_col = (size_t)(p - e) + 1;
		p += n;
	}
	if (*p == '+') {
		n = strcspn(p + 1, "/");
		if (parse_num(p + 1, n, &x->off))
			return hm_fail(EINVAL, "%s: bad offset", expr);
		x->has_off = 1;
		p += 1 + n;
	}
	if (*p == '/') {
		if (parse_num(p + 1, strlen(p + 1), &x->len) || !x->len)
			return hm_fail(EINVAL, "%s: bad length", expr);
		x->has_len = 1;
		p += strlen(p);
	}
	if (*p)
		return hm_fail(EINVAL, "%s: unexpected '%s'", expr, p);
	return 0;
}

/* Address and size of NAME[.PATH] at link time. */
static int resolve(const struct parsed *x, const char *expr, hm_binary *bin,
		   const hm_types *types, uint64_t *base, uint64_t *size)
{
	const hm_variable *var;
	uint64_t foff, fsize;
	int rc;

	if (find_object(x->name, bin, types, &var, base, size)) {
		hm_fail(ENOENT, "%s: no global variable or symbol %s in %s", expr, x->name,
			bin ? hmi_binary_path(bin) : "the binary");
		suggest(x->name, bin, types);
		return -ENOENT;
	}
	if (!*x->path)
		return 0;
	if (!var)
		return hm_fail(EINVAL, "%s: %s has no DWARF type (build with -g)", expr, x->name);
	rc = field_of(types, var, x->path, x->path_col, expr, &foff, &fsize);
	if (rc)
		return rc;
	*base += foff;
	*size = fsize;
	return 0;
}

int hm_watch_parse(const char *expr, hm_binary *bin, const hm_types *types, hm_watch *out)
{
	char e[sizeof(out->expr)];
	uint64_t base, size, len;
	struct parsed x;
	int rc;

	memset(out, 0, sizeof(*out));
	if (strlen(expr) >= sizeof(e))
		return hm_fail(EINVAL, "%s: watch expression too long", expr);
	strcpy(e, expr);
	if (parse_mode(e, &out->mode))
		return hm_fail(EINVAL, "%s: unknown access suffix (use :w or :rw)", expr);
	snprintf(out->expr, sizeof(out->expr), "%s", e);
	if (isdigit((unsigned char)*e)) {
		/* 0xADDR/LEN: an absolute runtime address. */
		const char *slash = strchr(e, '/');

		if (!slash || parse_num(e, slash - e, &out->addr) ||
		    parse_num(slash + 1, strlen(slash + 1), &out->len) || !out->len)
			return hm_fail(EINVAL, "%s: expected ADDRESS/LENGTH", expr);
		return 0;
	}
	rc = split_expr(e, expr, &x);
	if (!rc)
		rc = resolve(&x, expr, bin, types, &base, &size);
	if (rc)
		return rc;
	if (x.has_off && x.off >= size && !x.has_len)
		return hm_fail(EINVAL, "%s: offset %#" PRIx64 " is past the end (%" PRIu64
			       " bytes)", expr, x.off, size);
	len = x.has_len ? x.len : size - x.off;
	if (!len)
		return hm_fail(EINVAL, "%s: the object has size 0; give /LENGTH", expr);
	out->addr = base + x.off;
	out->len = len;
	out->relative = 1;
	return 0;
}

/* Largest aligned slot that starts at addr and fits in len. */
static uint64_t slot_len(uint64_t addr, uint64_t len)
{
	uint64_t n;

	for (n = 8; n > 1; n >>= 1)
		if (addr % n == 0 && n <= len)
			return n;
	return 1;
}

static size_t count_slots(uint64_t addr, uint64_t len)
{
	size_t n = 0;

	while (len) {
		uint64_t s = slot_len(addr, len);

		addr += s;
		len -= s;
		n++;
	}
	return n;
}

static void add_bp(hm_record_plan *plan, uint64_t addr, uint64_t len, int type,
		   uint64_t period)
{
	hm_record_event *ev = &plan->ev[plan->nr++];
	struct perf_event_attr *a = &ev->attr;

	memset(ev, 0, sizeof(*ev));
	ev->leader = -1;
	a->size = sizeof(*a);
	a->type = PERF_TYPE_BREAKPOINT;
	a->bp_addr = addr;
	a->bp_len = len;
	a->bp_type = type;
	a->sample_period = period;
	a->sample_type = WATCH_SAMPLE_TYPE;
	a->sample_id_all = 1;
	a->disabled = 1;
	/* User-space accesses only: a kernel copy_to_user would count too
	 * otherwise, and needs more privilege. */
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	snprintf(ev->name, sizeof(ev->name), "mem:%#" PRIx64 "/%" PRIu64 ":%s", addr, len,
		 type == HW_BREAKPOINT_W ? "w" : "rw");
}

static int too_many(const hm_watch *w, const int *rw, size_t n, uint64_t bias, size_t need)
{
	size_t i;

	hm_fail(E2BIG, "watch: %zu breakpoints needed, the CPU has %d per thread", need,
		HM_WATCH_MAX_BREAKPOINTS);
	for (i = 0; i < n; i++) {
		size_t s = count_slots(w[i].addr + (w[i].relative ? bias : 0), w[i].len);

		hm_diag(HM_DIAG_NOTE, "%s: %" PRIu64 " bytes = %zu aligned slot%s x %s", w[i].expr,
			w[i].len, s, s > 1 ? "s" : "",
			rw[i] ? "2 breakpoints (reads and writes)" : "1 breakpoint (writes)");
	}
	hm_diag(HM_DIAG_NOTE, "split the watches over several runs: at most 4 slots per run "
		"watching writes (:w), 2 watching reads and writes (:rw)");
	return -E2BIG;
}

int hm_record_plan_watch(const hm_watch *w, size_t n, uint64_t bias, uint64_t period,
			 hm_record_plan *plan)
{
	size_t i, need = 0, need_auto = 0;
	int rw[HM_RECORD_MAX_EVENTS];

	if (!period)
		period = 1;
	memset(plan, 0, sizeof(*plan));
	plan->source = HM_SOURCE_WATCH;
	snprintf(plan->pmu, sizeof(plan->pmu), "breakpoint");
	snprintf(plan->pmu_desc, sizeof(plan->pmu_desc), "hardware breakpoints");
	if (n > HM_RECORD_MAX_EVENTS)
		return hm_fail(E2BIG, "watch: too many expressions (%zu)", n);
	for (i = 0; i < n; i++) {
		size_t s = count_slots(w[i].addr + (w[i].relative ? bias : 0), w[i].len);
		size_t j;

		/* The same byte twice would pair the wrong W and RW samples. */
		for (j = 0; j < i; j++)
			if (w[i].relative == w[j].relative && w[i].addr < w[j].addr + w[j].len &&
			    w[j].addr < w[i].addr + w[i].len)
				return hm_fail(EINVAL, "%s overlaps %s: watch each byte once",
					       w[i].expr, w[j].expr);
		if (w[i].mode == HM_WATCH_RW && period > 1)
			return hm_fail(EINVAL, "%s: :rw needs a period of 1 (with a longer period "
				       "the W and RW breakpoints count different accesses); use :w", w[i].expr);
		need_auto += w[i].mode == HM_WATCH_W ? s : 2 * s;
	}
	/* AUTO watches also tell reads apart when everything then still fits. */
	for (i = 0; i < n; i++) {
		size_t s = count_slots(w[i].addr + (w[i].relative ? bias : 0), w[i].len);

		rw[i] = w[i].mode == HM_WATCH_RW ||
			(w[i].mode == HM_WATCH_AUTO && period == 1 &&
			 need_auto <= HM_WATCH_MAX_BREAKPOINTS);
		need += rw[i] ? 2 * s : s;
	}
	if (need > HM_WATCH_MAX_BREAKPOINTS)
		return too_many(w, rw, n, bias, need);
	for (i = 0; i < n; i++)
		if (w[i].mode == HM_WATCH_AUTO && !rw[i])
			hm_diag(HM_DIAG_NOTE, "%s: watching writes only (%s)", w[i].expr,
				period > 1 ? "-c N > 1" :
				"reads too would need more than 4 breakpoints");
	for (i = 0; i < n; i++) {
		uint64_t a = w[i].addr + (w[i].relative ? bias : 0), len = w[i].len;

		while (len) {
			uint64_t s = slot_len(a, len);

			add_bp(plan, a, s, HW_BREAKPOINT_W, period);
			if (rw[i])
				add_bp(plan, a, s, HW_BREAKPOINT_RW, period);
			a += s;
			len -= s;
		}
	}
	plan->ev[0].attr.mmap = 1;
	plan->ev[0].attr.mmap2 = 1;
	plan->ev[0].attr.comm = 1;
	plan->ev[0].attr.comm_exec = 1;
	plan->ev[0].attr.task = 1;
	return 0;
}

/* /proc/PID/maps: "start-end perms offset maj:min inode path". */
int hmi_record_load_bias(pid_t pid, hm_binary *bin, uint64_t *bias)
{
	uint64_t vaddr = 0, offset = 0, page = (uint64_t)sysconf(_SC_PAGESIZE);
	char path[64], line[4096];
	struct stat sb;
	FILE *f;
	int rc = -ENOENT;

	*bias = 0;
	if (hmi_binary_elf_type(bin) == ET_EXEC)
		return 0;
	if (stat(hmi_binary_path(bin), &sb))
		return hm_fail(errno, "%s: %s", hmi_binary_path(bin), strerror(errno));
	if (hmi_binary_first_load(bin, &vaddr, &offset))
		return hm_fail(ENOEXEC, "%s: no PT_LOAD segment", hmi_binary_path(bin));
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return hm_fail(errno, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff, ino;
		unsigned maj, min;

		if (sscanf(line, "%llx-%llx %*s %llx %x:%x %llu", &start, &end, &pgoff, &maj, &min,
			   &ino) != 6)
			continue;
		if (ino != sb.st_ino || makedev(maj, min) != sb.st_dev)
			continue;
		if (pgoff != (offset & ~(page - 1)))
			continue;
		*bias = start - (vaddr & ~(page - 1));
		rc = 0;
		break;
	}
	fclose(f);
	if (rc)
		return hm_fail(ENOENT, "%s: not mapped by process %d (is the command a script? "
			       "run the binary itself, or name the binary the process runs)",
			       hmi_binary_path(bin), (int)pid);
	return 0;
}
