/* The report's text (80 columns) and JSON output. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/attribute.h"
#include "hitmap/layout.h"
#include "heat/heat-lib.h"
#include "attr/attribute-lib.h"
#include "base/json.h"
#include "base/opts.h"
#include "base/util.h"

#define FIELD_COL 26	/* width of the field path column */

enum data_kind { DK_HITM, DK_WATCH, DK_ADDR };

static enum data_kind data_kind(const hm_report_stats *st)
{
	return st->datasrc_samples ? DK_HITM : st->watch_samples ? DK_WATCH : DK_ADDR;
}

static uint64_t metric_of(const hm_heat_counts *c, enum hm_heat_metric m, enum data_kind dk)
{
	if (dk == DK_WATCH)
		return c->transfers;
	if (dk == DK_ADDR)
		return c->samples;
	switch (m) {
	case HM_METRIC_LCL_HITM:
		return c->lcl_hitm;
	case HM_METRIC_RMT_HITM:
		return c->rmt_hitm;
	case HM_METRIC_PEER:
		return c->lcl_peer + c->rmt_peer;
	case HM_METRIC_TRANSFERS:
		return c->transfers;
	case HM_METRIC_SAMPLES:
		return c->samples;
	default:
		return c->lcl_hitm + c->rmt_hitm;
	}
}

static const char *metric_name(enum hm_heat_metric m, enum data_kind dk)
{
	static const char *const names[] = { "total HITM", "local HITM", "remote HITM",
					     "peer", "transfers", "samples" };

	if (dk == DK_WATCH)
		return "estimated line transfers";
	if (dk == DK_ADDR)
		return "samples";
	return names[m];
}

struct sort_ctx {
	enum hm_heat_metric m;
	enum data_kind dk;
};

static int cmp_counts(const hm_heat_counts *a, uint64_t aaddr, const hm_heat_counts *b,
		      uint64_t baddr, void *arg)
{
	const struct sort_ctx *sc = arg;
	uint64_t ma = metric_of(a, sc->m, sc->dk), mb = metric_of(b, sc->m, sc->dk);

	if (ma != mb)
		return ma > mb ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return aaddr < baddr ? -1 : aaddr > baddr;
}

static int cmp_lines(const void *pa, const void *pb, void *arg)
{
	const struct heat_line *a = *(const struct heat_line *const *)pa;
	const struct heat_line *b = *(const struct heat_line *const *)pb;

	return cmp_counts(hmi_heat_line_counts(a), hmi_heat_line_addr(a),
			  hmi_heat_line_counts(b), hmi_heat_line_addr(b), arg);
}

/* Heap helpers for select_top(): a heap of lines, the worst at its root. */
static void top_sift(const struct heat_line **v, size_t n, size_t i, struct sort_ctx *sc)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		const struct heat_line *t;

		if (l < n && cmp_lines(&v[l], &v[m], sc) > 0)
			m = l;
		if (r < n && cmp_lines(&v[r], &v[m], sc) > 0)
			m = r;
		if (m == i)
			return;
		t = v[i];
		v[i] = v[m];
		v[m] = t;
		i = m;
	}
}

/* The best `top` of v[0..k) into v[0..top), in no order: sorting all k
 * lines (tens of thousands on a page-fault recording) to print ten cost
 * more than counting them.  cmp_lines() is a total order (line addresses
 * differ), so the top are the sorted array's first, whatever the method. */
static void select_top(const struct heat_line **v, size_t k, size_t top, struct sort_ctx *sc)
{
	size_t i;

	for (i = top / 2; i-- > 0;)
		top_sift(v, top, i, sc);
	for (i = top; i < k; i++)
		if (cmp_lines(&v[i], &v[0], sc) < 0) {
			v[0] = v[i];
			top_sift(v, top, 0, sc);
		}
}

/* The lines to show, best first (caller frees): the lines kept as counts
 * only take part through the best `top` of them. */
static const struct heat_line **ranked(const hm_heat *h, const hm_report_stats *st,
				       const struct hm_report_opts *o, size_t *n)
{
	size_t i, k = 0, top = o->top ? o->top : 10, nl = hmi_heat_nr_lines(h);
	size_t nc = hmi_heat_nr_compact(h);
	const struct heat_line **v;
	struct sort_ctx sc = { o->metric, data_kind(st) };
	long c;

	nc = top < nc ? top : nc;
	v = calloc(nl + nc + 1, sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < nl; i++)
		if (hmi_heat_line_counts(hmi_heat_line_at(h, i))->samples)
			v[k++] = hmi_heat_line_at(h, i);
	c = hmi_heat_compact_top(h, top, cmp_counts, &sc, v + k);
	if (c < 0) {
		free(v);
		return NULL;
	}
	k += (size_t)c;
	if (top < k)
		select_top(v, k, top, &sc);
	qsort_r(v, k < top ? k : top, sizeof(*v), cmp_lines, &sc);
	*n = k < top ? k : top;
	return v;
}

/* "0-3,7" into buf (truncated with "..."). */
static void cpu_list(const struct heat_cpuset *s, char *buf, size_t len)
{
	uint32_t cpus[256];
	size_t n = 0, i, j, o = 0;

	for (int64_t c = hmi_heat_cpus_next(s, -1); c >= 0 && n < 256; c = hmi_heat_cpus_next(s, c))
		cpus[n++] = (uint32_t)c;

	buf[0] = 0;
	for (i = 0; i < n; i = j) {
		int w;

		for (j = i + 1; j < n && cpus[j] == cpus[j - 1] + 1; j++)
			;
		if (j - i > 2)
			w = snprintf(buf + o, len - o, "%s%u-%u", o ? "," : "", cpus[i], cpus[j - 1]);
		else
			w = snprintf(buf + o, len - o, "%s%u", o ? "," : "", cpus[i]), j = i + 1;
		if (w < 0 || (size_t)w >= len - o) {
			if (len > 4)
				strcpy(buf + len - 4, "...");
			return;
		}
		o += (size_t)w;
	}
}

/* The objects on a line: "g_stats" or "g_a, g_b". */
static void line_objects(const struct heat_line *l, char *buf, size_t len)
{
	const struct heat_row *r, *q;
	size_t o = 0;

	buf[0] = 0;
	for (r = hmi_heat_line_rows(l); r; r = hmi_heat_row_next(r)) {
		const char *name = hmi_heat_row_object(r) ? hmi_heat_row_object(r) : "(unattributed)";
		int w;

		for (q = hmi_heat_line_rows(l); q != r; q = hmi_heat_row_next(q))
			if ((hmi_heat_row_object(q) ? hmi_heat_row_object(q) : "(unattributed)") == name ||
			    !strcmp(hmi_heat_row_object(q) ? hmi_heat_row_object(q) : "(unattributed)", name))
				break;
		if (q != r)
			continue;
		if (hmi_heat_row_object(r) && hmi_heat_row_kind(r) == HM_PROFILE_STRUCT && hmi_heat_row_type(r))
			w = snprintf(buf + o, len - o, "%s%s (struct %s)", o ? ", " : "", name,
				     hmi_heat_row_type(r));
		else
			w = snprintf(buf + o, len - o, "%s%s", o ? ", " : "", name);
		if (w < 0 || (size_t)w >= len - o)
			return;
		o += (size_t)w;
	}
}

static const char *row_name(const struct heat_row *r, char *buf, size_t len)
{
	const char *object = hmi_heat_row_object(r), *path = hmi_heat_row_path(r);

	if (!hmi_heat_row_type(r))
		snprintf(buf, len, "(unattributed)");
	else if (hmi_heat_row_kind(r) == HM_PROFILE_VARIABLE)
		snprintf(buf, len, "%s%s%s", object, path[0] && path[0] != '[' ? "." : "", path);
	else
		snprintf(buf, len, "%s%s%s%s", object, path[0] ? "." : "", path,
			 hmi_heat_row_container_unknown(r) ? " in an unknown container" : "");
	return buf;
}

/* The verdict as printed: "insufficient evidence (3 transfers)". */
static const char *verdict_label(const struct heat_line *l, char *buf, size_t len)
{
	enum heat_verdict v = hmi_heat_line_verdict(l);
	struct heat_evidence e;

	if (v != HEAT_INSUFFICIENT)
		return hmi_heat_verdict_name(v);
	hmi_heat_line_evidence(l, &e);
	if (e.kind == HEAT_EV_REGS)
		snprintf(buf, len, "%s (%" PRIu64 " shared %s)", hmi_heat_verdict_name(v),
			 e.transfers, e.transfers == 1 ? "window" : "windows");
	else
		snprintf(buf, len, "%s (%" PRIu64 " %s)", hmi_heat_verdict_name(v),
			 e.transfers, e.transfers == 1 ? "transfer" : "transfers");
	return buf;
}

static const char *const rule_ids[] = { "no-kind", "one-actor", "no-writes", "below-rate",
					"few-transfers", "no-part", "parts", "unseen-writer",
					"no-overlap", "few-windows", "no-part-windows",
					"parts-windows", "sparse-windows" };
static const char *const ev_kinds[] = { "hitm", "watchpoints", "sampled-registers" };

/* Who the verdict's actors are: threads for watchpoints, else CPUs (or the
 * threads standing in for them). */
static const char *actor_name(const hm_report_stats *st, int plural)
{
	if (data_kind(st) == DK_WATCH || st->cpu_from_tid)
		return plural ? "threads" : "thread";
	return plural ? "CPUs" : "CPU";
}

/* The names of a part's fields ("g.a, g.b") into buf. */
static void part_names(const struct heat_line *l, int ts, char *buf, size_t len)
{
	const struct heat_row *r;
	size_t o = 0;

	buf[0] = 0;
	for (r = hmi_heat_line_rows(l); r; r = hmi_heat_row_next(r)) {
		char nm[160];
		int w;

		if (!(ts ? hmi_heat_row_in_part(r, 1) : hmi_heat_row_in_part(r, 0)))
			continue;
		w = snprintf(buf + o, len - o, "%s%s", o ? ", " : "", row_name(r, nm, sizeof(nm)));
		if (w < 0 || (size_t)w >= len - o)
			break;
		o += (size_t)w;
	}
}

/* Sampled registers: shared windows, the parts, and the cost per CPU. */
static void evidence_regs(const struct heat_line *l, char *buf, size_t len)
{
	struct heat_evidence e;

	hmi_heat_line_evidence(l, &e);
	char names[300];
	size_t o;
	uint32_t i;
	int w;

	w = snprintf(buf, len, "sampled registers: %" PRIu64 " shared %u ms windows in %" PRIu64
		     " accesses; %u %s in %u %s", e.transfers, HEAT_WINDOW_NS / 1000000,
		     e.accesses, e.actors, e.actors == 1 ? "thread" : "threads", e.groups,
		     e.groups == 1 ? "group" : "groups");
	if (w < 0 || (size_t)w >= len)
		return;
	o = (size_t)w;
	for (i = 0; i < 2; i++) {
		if (!(i ? hmi_heat_line_verdict(l) == HEAT_TRUE_SHARING || hmi_heat_line_verdict(l) == HEAT_MIXED
			: hmi_heat_line_verdict(l) == HEAT_FALSE_SHARING || hmi_heat_line_verdict(l) == HEAT_MIXED))
			continue;
		part_names(l, (int)i, names, sizeof(names));
		w = snprintf(buf + o, len - o, "; %s sharing (%" PRIu64 " windows): %s",
			     i ? "true" : "false", i ? e.ts_transfers : e.fs_transfers, names);
		if (w < 0 || (size_t)w >= len - o)
			return;
		o += (size_t)w;
	}
	for (i = 0; i < e.ncost; i++) {
		uint32_t cpu;
		uint64_t line, all;

		hmi_heat_line_cost(l, i, &cpu, &line, &all);
		w = snprintf(buf + o, len - o, "%sCPU %u %.3g %%", i ? ", " : "; cost: ", cpu,
			     all ? 100.0 * (double)line / (double)all : 0.0);
		if (w < 0 || (size_t)w >= len - o)
			return;
		o += (size_t)w;
	}
}

static void evidence(const struct heat_line *l, const hm_report_stats *st, char *buf,
		     size_t len)
{
	struct heat_evidence e;

	hmi_heat_line_evidence(l, &e);
	const char *unit = data_kind(st) == DK_WATCH ? "transfers" : "HITM transfers";
	char cpus[64], names[300];
	size_t o;
	int w;

	cpu_list(hmi_heat_line_cpus(l), cpus, sizeof(cpus));
	if (hmi_heat_line_verdict(l) == HEAT_UNKNOWN) {
		snprintf(buf, len, "samples carry no load/store kind; %s %s",
			 st->cpu_from_tid ? "threads" : "CPUs", cpus);
		return;
	}
	if (e.kind == HEAT_EV_REGS) {
		evidence_regs(l, buf, len);
		return;
	}
	w = snprintf(buf, len, "%" PRIu64 " %s in %" PRIu64 " accesses (%.3g %%, 95 %% bounds "
		     "%.3g-%.3g %%); %u %s in %u %s", e.transfers, unit, e.accesses,
		     e.accesses ? 100.0 * (double)e.transfers / (double)e.accesses : 0.0,
		     100 * e.lo, 100 * e.hi, e.actors, actor_name(st, e.actors != 1),
		     e.groups, e.groups == 1 ? "group" : "groups");
	if (w < 0 || (size_t)w >= len)
		return;
	o = (size_t)w;
	if (hmi_heat_line_verdict(l) == HEAT_FALSE_SHARING || hmi_heat_line_verdict(l) == HEAT_MIXED) {
		part_names(l, 0, names, sizeof(names));
		w = snprintf(buf + o, len - o, "; false sharing (%" PRIu64 " %s): %s",
			     e.fs_transfers, unit, names);
		if (w < 0 || (size_t)w >= len - o)
			return;
		o += (size_t)w;
	}
	if (hmi_heat_line_verdict(l) == HEAT_TRUE_SHARING || hmi_heat_line_verdict(l) == HEAT_MIXED) {
		part_names(l, 1, names, sizeof(names));
		snprintf(buf + o, len - o, "; true sharing (%" PRIu64 " %s): %s",
			 e.ts_transfers, unit, names);
	}
}

/* Instances: the distinct objects of a struct type with samples, "outer@0x..."
 * once however many fields and lines it has.  Two instances of one type are
 * two objects: their lines are judged apart.  A recording can reach tens of
 * thousands of objects, so they are told apart by a hash table, not by
 * sorting them by name: only the few types are sorted.  Names are compared
 * by their bytes: one name can come as two pointers. */
/* One a row or key that names an instance: 24 bytes, as a page-fault
 * report has tens of thousands (the type's hash and the name's length are
 * worked out when it is counted). */
struct inst_key {
	const char *sname, *object;
	uint64_t hash;		/* of type and object */
};

struct inst_count {
	const char *sname;
	long n;
	uint64_t hash;
};

/* A hash of name s of n bytes, eight bytes a step: tens of thousands of
 * names of some twenty bytes, where a byte a step would cost more than the
 * table. */
static uint64_t name_hash(const char *s, size_t n, uint64_t h)
{
	size_t i;
	uint64_t w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 32;
	}
	for (w = n, i = 0; i < n; i++)
		w = w << 8 | (unsigned char)s[i];
	h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	return h ^ h >> 29;
}

/* Equal names are mostly one pointer: that decides first. */
static int same_name(const char *a, const char *b)
{
	return a == b || !strcmp(a, b);
}

/* The few type names come again and again: their hashes are kept by
 * pointer. */
#define TYPE_HCACHE 64

struct type_hcache {
	const char *p;
	uint64_t h;
};

static uint64_t type_hash(struct type_hcache *tc, const char *sname)
{
	struct type_hcache *c = &tc[hm_hash_u64((uintptr_t)sname) & (TYPE_HCACHE - 1)];

	if (c->p != sname) {
		c->p = sname;
		c->h = name_hash(sname, strlen(sname), 0x243f6a8885a308d3ULL);
	}
	return c->h;
}

/* "TYPE@?" is a field of an instance not known (attribute-insn.c): no
 * instance to count. */
static int is_instance(const char *type, const char *object, enum hm_profile_kind kind)
{
	size_t n;

	if (!type || !object || kind != HM_PROFILE_STRUCT)
		return 0;
	n = strlen(object);
	return n < 2 || object[n - 2] != '@' || object[n - 1] != '?';
}

/* Add (type, object) to x[k] if an instance.  0 or -1 out of memory. */
static int inst_add(struct inst_key **x, size_t *k, size_t *cap, const char *type,
		    const char *object, enum hm_profile_kind kind)
{
	if (!is_instance(type, object, kind))
		return 0;
	if (*k == *cap) {
		struct inst_key *g;

		*cap = *cap ? *cap * 2 : 64;
		g = realloc(*x, *cap * sizeof(**x));
		if (!g)
			return -1;
		*x = g;
	}
	(*x)[(*k)++] = (struct inst_key){ type, object, 0 };
	return 0;
}

static int cmp_type_name(const void *pa, const void *pb)
{
	const struct inst_count *a = pa, *b = pb;

	return strcmp(a->sname, b->sname);
}

/* The smallest power of two >= 2n (16 at least): a table at most half full. */
static size_t table_size(size_t n)
{
	size_t s = 16;

	while (s < 2 * n)
		s *= 2;
	return s;
}

/* Count x, a new instance, under its type (hash th) in c[0..*nc) (tab:
 * indexes + 1 into c by type hash, *tcap slots).  0 or -1 out of
 * memory. */
static int type_count(const struct inst_key *x, uint64_t th, struct inst_count **c,
		      size_t *nc, size_t *ccap, uint32_t **tab, size_t *tcap)
{
	size_t s, i;

	for (s = th & (*tcap - 1); (*tab)[s]; s = (s + 1) & (*tcap - 1)) {
		struct inst_count *e = &(*c)[(*tab)[s] - 1];

		if (e->hash == th && same_name(e->sname, x->sname)) {
			e->n++;
			return 0;
		}
	}
	if (*nc == *ccap) {
		struct inst_count *g;

		*ccap = *ccap ? *ccap * 2 : 16;
		g = realloc(*c, *ccap * sizeof(**c));
		if (!g)
			return -1;
		*c = g;
	}
	(*c)[*nc] = (struct inst_count){ x->sname, 1, th };
	(*tab)[s] = (uint32_t)++*nc;
	if (2 * *nc > *tcap) {
		/* past half full: a table twice as big, filled again */
		size_t ncap = *tcap * 2;
		uint32_t *t = calloc(ncap, sizeof(*t));

		if (!t)
			return -1;
		for (i = 0; i < *nc; i++) {
			for (s = (*c)[i].hash & (ncap - 1); t[s]; s = (s + 1) & (ncap - 1))
				;
			t[s] = (uint32_t)(i + 1);
		}
		free(*tab);
		*tab = t;
		*tcap = ncap;
	}
	return 0;
}

/* The types of the instances x[0..k), each with its number of distinct
 * instances, sorted by name, into *out (the caller frees): their number, or
 * -1 out of memory. */
static long inst_types(struct inst_key *x, size_t k, struct inst_count **out)
{
	size_t pcap, tcap = 16, nc = 0, ccap = 0, i, s;
	uint32_t *pt, *tt;
	struct type_hcache tc[TYPE_HCACHE] = { { NULL, 0 } };
	struct inst_count *c = NULL;
	long r = -1;

	if (k > UINT32_MAX - 1)
		return -1;	/* the tables hold 32-bit indexes */
	pcap = table_size(k);
	pt = calloc(pcap, sizeof(*pt));
	tt = calloc(tcap, sizeof(*tt));
	if (!pt || !tt)
		goto out;
	for (i = 0; i < k; i++) {
		struct inst_key *e = &x[i];
		uint64_t th = type_hash(tc, e->sname);

		e->hash = name_hash(e->object, strlen(e->object), th);
		for (s = e->hash & (pcap - 1); pt[s]; s = (s + 1) & (pcap - 1)) {
			const struct inst_key *o = &x[pt[s] - 1];

			if (o->hash == e->hash && same_name(o->object, e->object) &&
			    same_name(o->sname, e->sname))
				break;
		}
		if (pt[s])
			continue;
		pt[s] = (uint32_t)(i + 1);
		if (type_count(e, th, &c, &nc, &ccap, &tt, &tcap))
			goto out;
	}
	if (nc)
		qsort(c, nc, sizeof(*c), cmp_type_name);
	*out = c;
	c = NULL;
	r = (long)nc;
out:
	free(pt);
	free(tt);
	free(c);
	return r;
}

/* Every line of h, for instances(); NULL out of memory. */
static const struct heat_line **all_lines(const hm_heat *h)
{
	size_t i, n = hmi_heat_nr_lines(h);
	const struct heat_line **v = calloc(n + 1, sizeof(*v));

	for (i = 0; v && i < n; i++)
		v[i] = hmi_heat_line_at(h, i);
	return v;
}

/* The types of the distinct instances of lines v[0..n), and of h's lines kept
 * as counts only (h NULL: none), as inst_types(). */
static long instances(const struct heat_line *const *v, size_t n, const hm_heat *h,
		      struct inst_count **out)
{
	size_t k = 0, cap = 0, i, nk = h ? hmi_heat_nr_keys(h) : 0;
	struct inst_key *x = NULL;
	long got;

	*out = NULL;
	/* Room for a row a line and every key at once: grown by doubling,
	 * tens of thousands of keys were copied and their pages touched
	 * again at each step. */
	if (n + nk > 64) {
		cap = n + nk;
		if (!(x = malloc(cap * sizeof(*x))))
			return -1;
	}
	for (i = 0; i < n; i++)
		for (const struct heat_row *r = hmi_heat_line_rows(v[i]); r; r = hmi_heat_row_next(r))
			if (inst_add(&x, &k, &cap, hmi_heat_row_type(r), hmi_heat_row_object(r),
				     hmi_heat_row_kind(r))) {
				free(x);
				return -1;
			}
	for (i = 0; i < nk; i++) {
		const char *type, *object;
		enum hm_profile_kind kind;

		hmi_heat_key(h, i, &type, &object, &kind);
		if (inst_add(&x, &k, &cap, type, object, kind)) {
			free(x);
			return -1;
		}
	}
	got = k ? inst_types(x, k, out) : 0;
	free(x);
	return got;
}

static size_t line_instances(const struct heat_line *l)
{
	struct inst_count *c = NULL;
	long n = instances(&l, 1, NULL, &c), i;
	size_t sum = 0;

	for (i = 0; i < n; i++)
		sum += (size_t)c[i].n;
	free(c);
	return sum;
}

/* The header names this many types at most: a kernel recording's samples
 * reach objects of hundreds of types, and a header of hundreds of lines
 * would push the shared lines, which are what the report is for, off the
 * screen. */
#define INSTANCES_SHOWN 12

static int cmp_inst_count(const void *pa, const void *pb)
{
	const struct inst_count *a = pa, *b = pb;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return strcmp(a->sname, b->sname);
}

/* "instances: pair 4, flow 2" over every line with samples: the types with
 * more than one object, the most first, INSTANCES_SHOWN of them and how
 * many more (JSON counts every type). */
static int print_instances(FILE *out, const hm_heat *h)
{
	struct inst_count *c = NULL;
	const struct heat_line **all = all_lines(h);
	long n = all ? instances(all, hmi_heat_nr_lines(h), h, &c) : -1, i, nc = 0;
	int col = 0;

	free(all);
	if (n < 0)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (c[i].n >= 2)
			c[nc++] = c[i];
	if (nc)
		qsort(c, (size_t)nc, sizeof(*c), cmp_inst_count);
	/* the types shown, then how many more: one item each, wrapped */
	for (i = 0; i < nc && i <= INSTANCES_SHOWN; i++) {
		char item[200];

		if (i < INSTANCES_SHOWN)
			snprintf(item, sizeof(item), "%s %ld", c[i].sname, c[i].n);
		else
			snprintf(item, sizeof(item), "and %ld more type%s", nc - INSTANCES_SHOWN,
				 nc - INSTANCES_SHOWN > 1 ? "s" : "");
		if (!i)
			col = fprintf(out, "instances: %s", item);
		else if (col + 2 + strlen(item) > 78)
			col = fprintf(out, ",\n  %s", item) - 2;
		else
			col += fprintf(out, ", %s", item);
	}
	if (nc)
		fputc('\n', out);
	free(c);
	return 0;
}

static void json_instances(hm_json *j, const hm_heat *h)
{
	struct inst_count *c = NULL;
	const struct heat_line **all = all_lines(h);
	long n = all ? instances(all, hmi_heat_nr_lines(h), h, &c) : -1, i;

	free(all);
	hm_json_key(j, "instances");
	hm_json_begin_object(j);
	for (i = 0; i < n; i++)
		hm_json_kuint(j, c[i].sname, (uint64_t)c[i].n);
	hm_json_end_object(j);
	free(c);
}

static void print_header(FILE *out, const hm_report_stats *st, const struct hm_report_opts *o)
{
	uint64_t attributed = 0;
	static const char *const kinds[] = { "memory samples with data source (HITM data)",
					     "watchpoint samples", "address samples" };
	int i, first = 1, col = 0;

	for (i = 0; i < HM_NR_BUCKETS; i++)
		if (hm_attr_bucket_attributed(i))
			attributed += st->buckets[i];
	fprintf(out, "hitmap report: %s\n", o->input ? o->input : "-");
	fprintf(out, "%" PRIu64 " %s\n", st->samples, kinds[data_kind(st)]);
	fprintf(out, "attributed: %" PRIu64 " (global %" PRIu64 ", object %" PRIu64,
		attributed, st->buckets[HM_ATTR_GLOBAL], st->buckets[HM_ATTR_OBJECT]);
	if (st->buckets[HM_ATTR_INSN])
		fprintf(out, ", instruction %" PRIu64, st->buckets[HM_ATTR_INSN]);
	if (st->buckets[HM_ATTR_TLS])
		fprintf(out, ", tls %" PRIu64, st->buckets[HM_ATTR_TLS]);
	if (st->buckets[HM_ATTR_PERCPU])
		fprintf(out, ", per-cpu %" PRIu64, st->buckets[HM_ATTR_PERCPU]);
	if (st->buckets[HM_ATTR_KMEM])
		fprintf(out, ", kmem-cache %" PRIu64, st->buckets[HM_ATTR_KMEM]);
	fputs(")\n", out);
	for (i = HM_UNATTR_NO_ADDR; i < HM_NR_BUCKETS; i++) {
		char item[64];

		if (!st->buckets[i] || hm_attr_bucket_attributed(i))
			continue;
		snprintf(item, sizeof(item), "%s %" PRIu64, hmi_attr_bucket_name(i), st->buckets[i]);
		if (first) {
			col = fprintf(out, "unattributed: %s", item);
		} else if (col + 2 + strlen(item) > 78) {
			col = fprintf(out, ",\n  %s", item) - 2;
		} else {
			col += fprintf(out, ", %s", item);
		}
		first = 0;
	}
	if (!first)
		fputc('\n', out);
	if (st->lost)
		fprintf(out, "lost: %" PRIu64 " samples\n", st->lost);
	if (st->cpu_from_tid)
		fputs("note: samples carry no CPU: threads stand in for CPUs\n", out);
	if (st->assumed_writes)
		fputs("note: rw watchpoints alone cannot tell reads from writes: accesses\n"
		      "      are counted as writes (add a :w watchpoint on the same address)\n", out);
	/* A plain `perf record` (cpu-clock, cycles) says where code ran, not
	 * what it touched: say how to record data addresses rather than report
	 * nothing attributed as if nothing were shared. */
	if (st->samples && st->buckets[HM_UNATTR_NO_ADDR] == st->samples)
		fputs("note: no sample carries a data address (PERF_SAMPLE_ADDR): record\n"
		      "      memory samples with 'perf record -d', 'perf c2c record' or\n"
		      "      'hitmap record', or watch a variable with 'hitmap record --watch'\n",
		      out);
}

static void print_table(FILE *out, const struct heat_line **v, size_t n, const hm_report_stats *st,
			const struct hm_report_opts *o)
{
	enum data_kind dk = data_kind(st);
	size_t i;

	fprintf(out, "\nShared cachelines, by %s:\n", metric_name(o->metric, dk));
	if (dk == DK_HITM)
		fputs("  # line address       lclHITM rmtHITM  peer   loads  stL1h  stL1m cpu thr\n",
		      out);
	else if (dk == DK_WATCH)
		fputs("  # line address       transfers    reads   writes  samples cpu thr\n", out);
	else
		fputs("  # line address         samples cpu thr\n", out);
	for (i = 0; i < n; i++) {
		const struct heat_line *l = v[i];
		const hm_heat_counts *c = hmi_heat_line_counts(l);
		char objs[200], vl[64];

		fprintf(out, "%3zu 0x%016" PRIx64, i + 1, hmi_heat_line_addr(l));
		if (dk == DK_HITM)
			fprintf(out, " %7" PRIu64 " %7" PRIu64 " %5" PRIu64 " %7" PRIu64 " %6" PRIu64
				" %6" PRIu64, c->lcl_hitm, c->rmt_hitm, c->lcl_peer + c->rmt_peer,
				c->loads, c->st_l1hit, c->st_l1miss);
		else if (dk == DK_WATCH)
			fprintf(out, " %9" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64,
				c->transfers, c->reads, c->writes, c->samples);
		else
			fprintf(out, " %9" PRIu64, c->samples);
		fprintf(out, " %3u %3u\n", hmi_heat_cpus_count(hmi_heat_line_cpus(l)),
			hmi_heat_line_nr_threads(l));
		line_objects(l, objs, sizeof(objs));
		fprintf(out, "    %.72s\n", objs);
		if (line_instances(l) > 1)
			fprintf(out, "    %zu instances\n", line_instances(l));
		fprintf(out, "    %s\n", verdict_label(l, vl, sizeof(vl)));
	}
}

static int cmp_ips(const void *pa, const void *pb)
{
	const struct hmi_heat_ip *a = pa, *b = pb;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return a->ip < b->ip ? -1 : a->ip > b->ip;
}

static void print_locations(FILE *out, hm_attr *a, const struct heat_row *r)
{
	struct hmi_heat_ip ips[HEAT_IPS];
	uint32_t i, nips = hmi_heat_row_ips(r, ips);

	qsort(ips, nips, sizeof(*ips), cmp_ips);
	for (i = 0; i < nips && i < 3; i++) {
		char label[400];

		hmi_attr_code_label(a, ips[i].bin, ips[i].link, ips[i].ip, label, sizeof(label));
		fprintf(out, "        %7" PRIu64 "  %.60s\n", ips[i].n, label);
	}
	if (nips > 3 || hmi_heat_row_ip_other(r))
		fputs("            ...  more locations\n", out);
}

/* The heap block an object is in, after its last row on a line: its
 * allocation site, and its bounds when they are the object's evidence. */
static void print_alloc(FILE *out, hm_attr *a, const struct heat_row *r)
{
	hm_alloc_info al;
	char site[400];

	if (!hmi_heat_row_type(r) || hmi_attr_alloc_at(a, hmi_heat_row_object_base(r), &al))
		return;
	if (al.ambiguous) {
		fprintf(out, "    in %u heap blocks of different sites or sizes (the address "
			"was reused): allocation site unattributed\n", al.nr);
		return;
	}
	hmi_attr_code_label(a, al.site_bin, al.site_link, al.site, site, sizeof(site));
	fprintf(out, "    allocated at %s by %s%s%s, %" PRIu64 " bytes at 0x%" PRIx64 "%s%s\n",
		site, al.function, al.cache ? " from " : "", al.cache ? al.cache : "", al.size,
		al.base, al.site_var ? ", typed by the call site's variable " : "",
		al.site_var ? al.site_var : "");
}

static void json_alloc(hm_json *j, hm_attr *a, const struct heat_row *r)
{
	hm_alloc_info al;
	char site[400];

	if (!hmi_heat_row_type(r) || hmi_attr_alloc_at(a, hmi_heat_row_object_base(r), &al))
		return;
	hm_json_key(j, "allocation");
	hm_json_begin_object(j);
	hm_json_kuint(j, "blocks", al.nr);
	if (!al.ambiguous) {
		hmi_attr_code_label(a, al.site_bin, al.site_link, al.site, site, sizeof(site));
		hm_json_kstr(j, "site", site);
		hm_json_kuint(j, "site_address", al.site);
		hm_json_kstr(j, "function", al.function);
		if (al.cache)
			hm_json_kstr(j, "cache", al.cache);
		if (al.site_var)
			hm_json_kstr(j, "site_variable", al.site_var);
		hm_json_kuint(j, "base", al.base);
		hm_json_kuint(j, "size", al.size);
	}
	hm_json_end_object(j);
}

static void print_row(FILE *out, hm_attr *a, const struct heat_row *r, enum data_kind dk,
		      uint64_t line)
{
	const hm_heat_counts *c = hmi_heat_row_counts(r);
	char name[200], cpus[40];
	uint64_t at = hmi_heat_row_object_base(r) + hmi_heat_row_offset(r);

	row_name(r, name, sizeof(name));
	cpu_list(hmi_heat_row_cpus(r), cpus, sizeof(cpus));
	if (strlen(name) > FIELD_COL)
		fprintf(out, "  %s\n  %*s", name, FIELD_COL + 5, "");
	else
		fprintf(out, "  %-*s", FIELD_COL, name);
	fprintf(out, " %s%-3" PRIu64, at >= line ? "+" : "-", at >= line ? at - line : line - at);
	if (dk == DK_HITM)
		fprintf(out, " %6" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64, c->lcl_hitm,
			c->rmt_hitm, c->loads, c->stores);
	else if (dk == DK_WATCH)
		fprintf(out, " %6" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64, c->transfers,
			c->reads, c->writes, c->samples);
	else
		fprintf(out, " %6" PRIu64, c->samples);
	fprintf(out, " %.12s\n", cpus);
	print_locations(out, a, r);
}

/* prefix + text, wrapped at spaces to fit 80 columns (a word longer than a
 * line is printed whole). */
static void print_wrapped(FILE *out, const char *prefix, const char *text)
{
	size_t indent = strlen(prefix), col = indent;
	const char *p = text;

	fputs(prefix, out);
	while (*p) {
		size_t w = strcspn(p, " ");

		if (col > indent && col + 1 + w > 79) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, w, out);
		col += w;
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

static void print_detail(FILE *out, hm_attr *a, const struct heat_line **v, size_t n,
			 const hm_report_stats *st)
{
	enum data_kind dk = data_kind(st);
	size_t i;

	for (i = 0; i < n; i++) {
		const struct heat_line *l = v[i];
		const struct heat_row *r;
		char ev[1000], vl[64];

		struct heat_evidence e;

		hmi_heat_line_evidence(l, &e);
		evidence(l, st, ev, sizeof(ev));
		fprintf(out, "\nLine %zu: 0x%" PRIx64 ": %s\n", i + 1, hmi_heat_line_addr(l),
			verdict_label(l, vl, sizeof(vl)));
		print_wrapped(out, "  evidence: ", ev);
		if (hmi_heat_line_verdict(l) != HEAT_UNKNOWN)
			print_wrapped(out, "  rule: ", hmi_heat_rule_text(e.rule));
		if (dk == DK_HITM)
			fprintf(out, "  %-*s  off lclHIT rmtHIT  loads stores cpus\n", FIELD_COL, "field");
		else if (dk == DK_WATCH)
			fprintf(out, "  %-*s  off  xfers  reads writes sampls cpus\n", FIELD_COL, "field");
		else
			fprintf(out, "  %-*s  off sampls cpus\n", FIELD_COL, "field");
		for (r = hmi_heat_line_rows(l); r; r = hmi_heat_row_next(r)) {
			print_row(out, a, r, dk, hmi_heat_line_addr(l));
			const struct heat_row *next = hmi_heat_row_next(r);

			if (!next || !hmi_heat_row_object(r) || !hmi_heat_row_object(next) ||
			    strcmp(hmi_heat_row_object(r), hmi_heat_row_object(next)))
				print_alloc(out, a, r);
		}
	}
}

int hm_report_print(FILE *out, hm_attr *a, const hm_heat *h, const hm_report_stats *st,
		    const struct hm_report_opts *uo)
{
	struct hm_report_opts oc;
	const struct hm_report_opts *o;
	const struct heat_line **v;
	size_t n = 0;

	if (!HM_OPTS_VALID(uo, hm_report_opts))
		return -EINVAL;
	o = HM_OPTS_COPY(&oc, uo, hm_report_opts);
	print_header(out, st, o);
	if (print_instances(out, h))
		return -ENOMEM;
	v = ranked(h, st, o, &n);
	if (!v)
		return -ENOMEM;
	if (!n)
		fputs("\nno attributed samples on any cacheline\n", out);
	else {
		print_table(out, v, n, st, o);
		print_detail(out, a, v, n, st);
	}
	free(v);
	return ferror(out) ? -EIO : 0;
}

/* ---- JSON ---- */

static void json_counts(hm_json *j, const hm_heat_counts *c)
{
	hm_json_key(j, "counts");
	hm_json_begin_object(j);
	hmi_profile_json_counts(j, c);
	hm_json_end_object(j);
}

static void json_c2c(hm_json *j, const hm_c2c_stats *s)
{
	hm_json_key(j, "c2c");
	hm_json_begin_object(j);
#define C(n) hm_json_kuint(j, #n, s->n)
	C(load); C(store); C(lcl_hitm); C(rmt_hitm); C(tot_hitm); C(lcl_peer); C(rmt_peer);
	C(tot_peer); C(st_l1hit); C(st_l1miss); C(st_na); C(st_uncache); C(ld_l1hit);
	C(ld_l2hit); C(ld_llchit); C(ld_fbhit); C(ld_uncache); C(ld_io); C(ld_miss);
	C(lcl_dram); C(rmt_dram); C(rmt_hit); C(ld_excl); C(ld_shared); C(nomap); C(noparse);
	C(locks);
#undef C
	hm_json_end_object(j);
}

static void json_cpus(hm_json *j, const struct heat_cpuset *s)
{
	hm_json_key(j, "cpus");
	hm_json_begin_array(j);
	for (int64_t c = hmi_heat_cpus_next(s, -1); c >= 0; c = hmi_heat_cpus_next(s, c))
		hm_json_uint(j, (uint64_t)c);
	hm_json_end_array(j);
}

/* The verdict's numbers and the rule that decided it. */
static void json_verdict(hm_json *j, const struct heat_line *l, const hm_report_stats *st)
{
	struct heat_evidence e;

	hmi_heat_line_evidence(l, &e);
	int part;

	hm_json_key(j, "rule");
	hm_json_begin_object(j);
	hm_json_kstr(j, "id", rule_ids[e.rule]);
	hm_json_kstr(j, "text", hmi_heat_rule_text(e.rule));
	hm_json_kuint(j, "min_transfers", HEAT_MIN_TRANSFERS);
	hm_json_key(j, "min_rate");
	hm_json_double(j, HEAT_MIN_RATE);
	hm_json_key(j, "min_part");
	hm_json_double(j, HEAT_MIN_PART);
	hm_json_end_object(j);
	hm_json_kstr(j, "evidence_kind", ev_kinds[e.kind]);
	hm_json_key(j, "verdict_evidence");
	hm_json_begin_object(j);
	hm_json_kstr(j, "unit", e.kind == HEAT_EV_REGS ? "windows"
				: data_kind(st) == DK_WATCH ? "transfers" : "hitm+peer");
	if (e.kind == HEAT_EV_REGS) {
		uint32_t i;

		hm_json_kuint(j, "window_ns", HEAT_WINDOW_NS);
		hm_json_key(j, "cost");
		hm_json_begin_array(j);
		for (i = 0; i < e.ncost; i++) {
			uint32_t cpu;
			uint64_t line, all;

			hmi_heat_line_cost(l, i, &cpu, &line, &all);
			hm_json_begin_object(j);
			hm_json_kuint(j, "cpu", cpu);
			hm_json_kuint(j, "line_samples", line);
			hm_json_kuint(j, "cpu_samples", all);
			hm_json_end_object(j);
		}
		hm_json_end_array(j);
	}
	hm_json_kuint(j, "transfers", e.transfers);
	hm_json_kuint(j, "accesses", e.accesses);
	hm_json_key(j, "rate_low");
	hm_json_double(j, e.lo);
	hm_json_key(j, "rate_high");
	hm_json_double(j, e.hi);
	hm_json_kstr(j, "actor", e.kind == HEAT_EV_REGS ? "thread" : actor_name(st, 0));
	hm_json_kuint(j, "actors", e.actors);
	hm_json_kuint(j, "groups", e.groups);
	for (part = 0; part < 2; part++) {
		const struct heat_row *r;
		char nm[160];

		hm_json_key(j, part ? "true_sharing" : "false_sharing");
		hm_json_begin_object(j);
		hm_json_kuint(j, "transfers", part ? e.ts_transfers : e.fs_transfers);
		hm_json_key(j, "fields");
		hm_json_begin_array(j);
		for (r = hmi_heat_line_rows(l); r; r = hmi_heat_row_next(r))
			if (part ? hmi_heat_row_in_part(r, 1) : hmi_heat_row_in_part(r, 0))
				hm_json_string(j, row_name(r, nm, sizeof(nm)));
		hm_json_end_array(j);
		hm_json_end_object(j);
	}
	hm_json_end_object(j);
}

static void json_row(hm_json *j, hm_attr *a, const struct heat_row *r, uint64_t line)
{
	struct hmi_heat_ip ips[HEAT_IPS];
	uint32_t i, nips = hmi_heat_row_ips(r, ips);
	int fs, ts;

	hm_json_begin_object(j);
	hm_json_kstr(j, "object", hmi_heat_row_object(r));
	hm_json_kstr(j, "struct", hmi_heat_row_kind(r) == HM_PROFILE_STRUCT ? hmi_heat_row_type(r) : NULL);
	hm_json_kstr(j, "path", hmi_heat_row_type(r) ? hmi_heat_row_path(r) : NULL);
	hm_json_kstr(j, "container", hmi_heat_row_container_unknown(r) ? "unknown" : NULL);
	hm_json_kstr(j, "strategy", hmi_heat_row_type(r) ? hmi_heat_row_strategy(r) : NULL);
	hm_json_kuint(j, "address", hmi_heat_row_object_base(r) + hmi_heat_row_offset(r));
	hm_json_kuint(j, "offset", hmi_heat_row_offset(r));
	hm_json_kint(j, "line_offset",
		     (int64_t)(hmi_heat_row_object_base(r) + hmi_heat_row_offset(r) - line));
	hm_json_kuint(j, "size", hmi_heat_row_size(r));
	json_counts(j, hmi_heat_row_counts(r));
	json_cpus(j, hmi_heat_row_cpus(r));
	hm_json_kuint(j, "threads", hmi_heat_row_nr_threads(r));
	hm_json_kbool(j, "written", hmi_heat_row_written(r));
	hm_json_kuint(j, "group", hmi_heat_row_group(r));
	json_alloc(j, a, r);
	fs = hmi_heat_row_in_part(r, 0);
	ts = hmi_heat_row_in_part(r, 1);
	hm_json_kstr(j, "part", fs && ts ? "both" : fs ? "false sharing" : ts ? "true sharing" : NULL);
	hm_json_key(j, "locations");
	hm_json_begin_array(j);
	qsort(ips, nips, sizeof(*ips), cmp_ips);
	for (i = 0; i < nips; i++) {
		char label[400];

		hmi_attr_code_label(a, ips[i].bin, ips[i].link, ips[i].ip, label, sizeof(label));
		hm_json_begin_object(j);
		hm_json_kstr(j, "location", label);
		hm_json_kuint(j, "ip", ips[i].ip);
		hm_json_kuint(j, "samples", ips[i].n);
		hm_json_end_object(j);
	}
	hm_json_end_array(j);
	hm_json_end_object(j);
}

int hm_report_print_json(FILE *out, hm_attr *a, const hm_heat *h, const hm_report_stats *st,
			 const struct hm_report_opts *uo)
{
	struct hm_report_opts oc;
	const struct hm_report_opts *o;
	const struct heat_line **v;
	size_t n = 0, i;
	hm_json j;
	int b;

	if (!HM_OPTS_VALID(uo, hm_report_opts))
		return -EINVAL;
	o = HM_OPTS_COPY(&oc, uo, hm_report_opts);
	v = ranked(h, st, o, &n);
	if (!v)
		return -ENOMEM;
	hm_json_init(&j, out, 1);
	hm_json_begin_object(&j);
	hm_json_kstr(&j, "schema", "hitmap/1");
	hm_json_kstr(&j, "command", "report");
	hm_json_kstr(&j, "input", o->input);
	hm_json_kstr(&j, "kind", hm_report_kind(st));
	hm_json_kstr(&j, "sort", metric_name(o->metric, data_kind(st)));
	hm_json_kuint(&j, "samples", st->samples);
	hm_json_kuint(&j, "lost", st->lost);
	hm_json_kbool(&j, "cpu_from_tid", st->cpu_from_tid);
	hm_json_kbool(&j, "assumed_writes", st->assumed_writes);
	if (st->truncated) {
		hm_json_key(&j, "truncated");
		hmi_profile_json_truncation(&j, st->truncated);
	}
	hm_json_key(&j, "buckets");
	hm_json_begin_object(&j);
	for (b = 0; b < HM_NR_BUCKETS; b++)
		hm_json_kuint(&j, hmi_attr_bucket_name(b), st->buckets[b]);
	hm_json_end_object(&j);
	hm_json_key(&j, "attributed_buckets");
	hm_json_begin_array(&j);
	for (b = 0; b < HM_NR_BUCKETS; b++)
		if (hm_attr_bucket_attributed(b))
			hm_json_string(&j, hmi_attr_bucket_name(b));
	hm_json_end_array(&j);
	json_instances(&j, h);
	hm_json_key(&j, "lines");
	hm_json_begin_array(&j);
	for (i = 0; i < n; i++) {
		const struct heat_line *l = v[i];
		const struct heat_row *r;
		char ev[1000];

		evidence(l, st, ev, sizeof(ev));
		hm_json_begin_object(&j);
		hm_json_kuint(&j, "address", hmi_heat_line_addr(l));
		hm_json_kstr(&j, "verdict", hmi_heat_verdict_name(hmi_heat_line_verdict(l)));
		hm_json_kstr(&j, "evidence", ev);
		json_verdict(&j, l, st);
		json_counts(&j, hmi_heat_line_counts(l));
		json_c2c(&j, hmi_heat_line_c2c(l));
		json_cpus(&j, hmi_heat_line_cpus(l));
		hm_json_kuint(&j, "threads", hmi_heat_line_nr_threads(l));
		hm_json_kuint(&j, "instances", line_instances(l));
		hm_json_key(&j, "fields");
		hm_json_begin_array(&j);
		for (r = hmi_heat_line_rows(l); r; r = hmi_heat_row_next(r))
			json_row(&j, a, r, hmi_heat_line_addr(l));
		hm_json_end_array(&j);
		hm_json_end_object(&j);
	}
	hm_json_end_array(&j);
	hm_json_end_object(&j);
	hm_json_finish(&j);
	free(v);
	return ferror(out) ? -EIO : 0;
}

/* ---- heat beside a layout ---- */

int hm_heat_print_struct(FILE *out, const struct hm_types *t, uint32_t type_id,
			 const hm_profile_struct *ps, unsigned cacheline_size)
{
	HM_OPTS(hm_layout_opts, lo, .cacheline_size = cacheline_size, .expand = 1);
	hm_layout *l = hm_layout_new(t, type_id, &lo);
	const hm_field *f;
	size_t n, i, j;
	char label[64];

	if (!l)
		return -errno;
	f = hm_layout_fields(l, &n);
	fprintf(out, "/* hitmap heat: %s */\n", ps->name);
	for (i = 0; i < n; i++) {
		if (!hm_heat_field_label(ps, f[i].path, label, sizeof(label)))
			continue;
		fprintf(out, "  %5llu  %-40.40s %s\n", (unsigned long long)f[i].offset, f[i].path,
			label);
	}
	for (j = 0; j < ps->nr_fields; j++) {
		const char *p = ps->fields[j].path;

		if (!p[0] || p[0] == '(' || hm_layout_find(l, p) || strchr(p, '['))
			continue;
		fprintf(out, "  (gone) %.40s: %llu samples\n", p,
			(unsigned long long)ps->fields[j].c.samples);
	}
	hm_layout_free(l);
	return ferror(out) ? -EIO : 0;
}
