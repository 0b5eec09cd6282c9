/* Compact lines: most cachelines of a large c2c recording are touched by
 * one CPU and one thread, at one place in the code, and never printed; so
 * are the lines of a page-fault recording, one instance each.  A row and a
 * line take 1.3 KB; such a line keeps counts only, in one cacheline
 * (struct heat_compact) and, when its accesses name a field, a key of its
 * own (struct heat_ckey: the instance, and the field's part that every
 * line naming that field shares, struct heat_cfield), until an access needs
 * more: it is then promoted to a row counted as if it had been one from
 * the start.  After the end, the lines the output prints are made from
 * their counts. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <linux/perf_event.h>
#include "heat/heat-int.h"

#define NST (sizeof(hm_c2c_stats) / sizeof(uint32_t))
#define COMPACT_MAX 255	/* a counter's limit (uint8_t) */

_Static_assert(sizeof(struct heat_compact) == 64, "a compact line is one cacheline");
_Static_assert(offsetof(struct heat_compact, st) <= 32, "a narrow one is half of it");
_Static_assert(sizeof(struct heat_ckey) == 32, "two keys a cacheline");

#define CREC_WIDE 6	/* log2 of a record's size: 64 */
#define CREC_NARROW 5	/* without st[]: 32 */

/* A record's size; before the first, the heat's events decide it
 * (heat_compact_events()). */
static unsigned crec_shift(const hm_heat *h)
{
	return h->crec_shift ? h->crec_shift : CREC_WIDE;
}

static struct heat_compact *crec(const hm_heat *h, uint32_t i)
{
	return (struct heat_compact *)((char *)h->cblk[i / HEAT_CBLK] +
				       ((size_t)(i % HEAT_CBLK) << h->crec_shift));
}

/* Whether samples of event e may carry a data source that names a load or
 * a store: a memory PMU's (PEBS, IBS, SPE).  perf record -d asks for the
 * field on any event, but the kernel fills it only for those: a software
 * event (page faults, cpu-clock), a tracepoint or a breakpoint says "not
 * available". */
static int event_has_datasrc(const hm_perf_event *e)
{
	return (e->sample_type & PERF_SAMPLE_DATA_SRC) && e->type != PERF_TYPE_SOFTWARE &&
	       e->type != PERF_TYPE_TRACEPOINT && e->type != PERF_TYPE_BREAKPOINT;
}

void heat_compact_events(hm_heat *h, const hm_perf_info *info)
{
	size_t i;

	if (!info || h->ncompact)
		return;
	h->cnarrow = 1;
	for (i = 0; i < info->nr_events; i++)
		if (event_has_datasrc(&info->events[i]))
			h->cnarrow = 0;
	h->crec_shift = h->cnarrow ? CREC_NARROW : CREC_WIDE;
}

void heat_compact_free(hm_heat *h)
{
	size_t i;

	for (i = 0; i < h->ncblk; i++)
		free(h->cblk[i]);
	free(h->cblk);
	free(h->ctab);
	free(h->ctag);
	free(h->cips);
	free(h->ciptab);
	for (i = 0; i < (h->nckeys + HEAT_CKBLK - 1) / HEAT_CKBLK; i++)
		free(h->ckblk[i]);
	free(h->ckblk);
	free(h->cftab);
	hm_arena_free(&h->cfarena);
	h->cftab = NULL;
	h->ncfields = h->cftab_size = 0;
	h->ckblk = NULL;
	h->nckeys = 0;
	h->cblk = NULL;
	h->ctab = NULL;
	h->ctag = NULL;
	h->cips = NULL;
	h->ciptab = NULL;
}

/* The slot of laddr in t: its record's, or the free one it would take. */
/* A line address's tag in ctag: its hash's top bits, never 0 (0: a free
 * slot). */
static uint8_t ctab_tag(uint64_t hash)
{
	return (uint8_t)(hash >> 56) | 1;
}

/* The slot of laddr: its record's, or the free one it would take.  A
 * probe reads the tags (a byte a slot) and a record only when the tag
 * agrees: a new line, most of a page-fault recording's, would pay a cache
 * miss in the records for every slot its probe passed. */
static size_t ctab_slot(const hm_heat *h, uint64_t laddr)
{
	uint64_t hash = hm_hash_u64(laddr);
	uint8_t tag = ctab_tag(hash);
	size_t i = hash & (h->ctab_size - 1);

	for (; h->ctag[i]; i = (i + 1) & (h->ctab_size - 1))
		if (h->ctag[i] == tag && crec(h, h->ctab[i] - 1)->laddr == laddr)
			break;
	return i;
}

/* The table at most half full.  Slots are 32-bit indices, not pointers,
 * and 8-bit tags: the table is a fifth of a compact line's memory. */
static int ctab_grow(hm_heat *h)
{
	size_t n = h->ctab_size ? 2 * h->ctab_size : 1024, i;
	uint32_t *t = malloc(n * sizeof(*t));
	uint8_t *g = calloc(n, sizeof(*g));

	if (!t || !g) {
		free(t);
		free(g);
		return -ENOMEM;
	}
	/* Every record is in the table, each address once: taken in their
	 * order (read one after the other, not one cache miss each in the
	 * old table's) into the first free slot, with nothing to compare. */
	for (i = 0; i < h->ncompact; i++) {
		uint64_t hash = hm_hash_u64(crec(h, (uint32_t)i)->laddr);
		size_t j = hash & (n - 1);

		while (g[j])
			j = (j + 1) & (n - 1);
		t[j] = (uint32_t)i + 1;
		g[j] = ctab_tag(hash);
	}
	free(h->ctab);
	free(h->ctag);
	h->ctab = t;
	h->ctag = g;
	h->ctab_size = n;
	return 0;
}

struct heat_compact *heat_compact_lookup(hm_heat *h, uint64_t laddr, size_t *slot)
{
	size_t i;

	/* room for one more first: the slot stays the one to fill */
	if (2 * (h->ncompact + 1) > h->ctab_size && ctab_grow(h)) {
		*slot = SIZE_MAX;
		return NULL;
	}
	i = ctab_slot(h, laddr);
	*slot = i;
	return h->ctag[i] ? crec(h, h->ctab[i] - 1) : NULL;
}

struct heat_compact *heat_compact_add(hm_heat *h, size_t slot, uint64_t laddr)
{
	struct heat_compact *c;

	if (h->ncompact >= UINT32_MAX - 1)
		return NULL;
	if (h->ncompact % HEAT_CBLK == 0) {
		struct heat_compact **v = realloc(h->cblk, (h->ncblk + 1) * sizeof(*v));

		if (!v)
			return NULL;
		h->cblk = v;
		/* aligned: bit 0 of a record's address tags its handle */
		h->crec_shift = (uint8_t)crec_shift(h);
		v[h->ncblk] = aligned_alloc(64, (size_t)HEAT_CBLK << h->crec_shift);
		if (!v[h->ncblk])
			return NULL;
		h->ncblk++;
	}
	c = crec(h, (uint32_t)h->ncompact);
	memset(c, 0, (size_t)1 << h->crec_shift);
	c->laddr = laddr;
	c->u.k.seq = h->nseq++;
	h->ctab[slot] = (uint32_t)++h->ncompact;
	h->ctag[slot] = ctab_tag(hm_hash_u64(laddr));
	return c;
}

static int cfield_eq(const struct heat_cfield *f, const struct heat_cfield *x)
{
	return f->sname == x->sname && f->path == x->path && f->strategy == x->strategy &&
	       f->kind == x->kind && f->ssize == x->ssize && f->foff == x->foff &&
	       f->fsize == x->fsize;
}

static size_t cfield_hash(const struct heat_cfield *f)
{
	return hm_hash_u64(f->foff ^ ((uintptr_t)f->sname << 8) ^ ((uintptr_t)f->path << 16) ^
			   (uintptr_t)f->strategy ^ (f->ssize << 32) ^ f->fsize);
}

/* The interned copy of f, added if new; NULL on ENOMEM. */
static const struct heat_cfield *cfield_of(hm_heat *h, const struct heat_cfield *f)
{
	struct heat_cfield *x;
	size_t i, mask;

	if (2 * (h->ncfields + 1) > h->cftab_size) {
		size_t n = h->cftab_size ? 2 * h->cftab_size : 64;
		struct heat_cfield **t = calloc(n, sizeof(*t));

		if (!t)
			return NULL;
		for (i = 0; i < h->cftab_size; i++) {
			size_t j;

			if (!h->cftab[i])
				continue;
			for (j = cfield_hash(h->cftab[i]) & (n - 1); t[j]; j = (j + 1) & (n - 1))
				;
			t[j] = h->cftab[i];
		}
		free(h->cftab);
		h->cftab = t;
		h->cftab_size = n;
	}
	mask = h->cftab_size - 1;
	for (i = cfield_hash(f) & mask; h->cftab[i]; i = (i + 1) & mask)
		if (cfield_eq(h->cftab[i], f))
			return h->cftab[i];
	if (!(x = hm_arena_alloc(&h->cfarena, sizeof(*x))))
		return NULL;
	*x = *f;
	h->cftab[i] = x;
	h->ncfields++;
	return x;
}

/* A key a new compact line: the key holds the instance (object, base),
 * and a field of an instance lies on one line (two when it straddles
 * them), so looking keys up to share them found next to nothing, while
 * its table was a quarter of a page-fault report's memory. */
long heat_ckey_of(hm_heat *h, const hm_heat_access *a)
{
	struct heat_cfield f;
	struct heat_ckey k;

	if (!a->sname && !a->object && !a->strategy && !a->kind && !a->ssize)
		return 0;
	if (!a->sname || a->fsize > UINT32_MAX)
		return -1;
	f = (struct heat_cfield){ heat_intern(h, a->sname), heat_intern(h, a->path), a->strategy,
				  a->ssize, a->foff, (uint32_t)a->fsize, a->kind };
	k = (struct heat_ckey){ NULL, heat_intern_object(h, a->object), a->obj_base, 0 };
	if (!f.sname || (a->object && !k.object) || (a->path && !f.path) ||
	    !(k.f = cfield_of(h, &f)))
		return -ENOMEM;
	if (h->nckeys >= UINT32_MAX - 1)
		return -ENOMEM;
	if (h->nckeys % HEAT_CKBLK == 0) {
		size_t b = h->nckeys / HEAT_CKBLK;
		struct heat_ckey **v = realloc(h->ckblk, (b + 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		h->ckblk = v;
		if (!(v[b] = malloc(HEAT_CKBLK * sizeof(**v))))
			return -ENOMEM;
	}
	*heat_ckey_at(h, h->nckeys) = k;
	return (long)++h->nckeys;
}

int heat_ckey_relabel(hm_heat *h, struct heat_ckey *k, const char *sname, const char *object,
		      const char *path, uint64_t ssize, uint64_t obj_base, uint64_t foff)
{
	struct heat_cfield f = *k->f;
	const struct heat_cfield *x;

	f.sname = sname;
	f.path = path;
	f.ssize = ssize;
	f.foff = foff;
	if (!(x = cfield_of(h, &f)))
		return -ENOMEM;
	k->f = x;
	k->object = object;
	k->obj_base = obj_base;
	return 0;
}

/* As get_row() tells rows apart: by field address, path and struct. */
int heat_compact_same(const hm_heat *h, const struct heat_compact *c, const hm_heat_access *a)
{
	const struct heat_ckey *k;
	const struct heat_cfield *f;

	if (!c->key)
		return !a->sname && !a->object && !a->strategy && !a->kind && !a->ssize;
	k = heat_ckey_at(h, c->key - 1);
	f = k->f;
	return a->sname && k->obj_base + f->foff == a->obj_base + a->foff &&
	       (f->path == a->path || (f->path && a->path && !strcmp(f->path, a->path))) &&
	       (f->sname == a->sname || !strcmp(f->sname, a->sname));
}

/* The index of a code location in h->cips, added if new; -1 on ENOMEM. */
static long cip_index(hm_heat *h, const void *bin, uint64_t link, uint64_t ip)
{
	size_t i, mask;

	if (2 * (h->ncips + 1) > h->ciptab_size) {
		size_t n = h->ciptab_size ? 2 * h->ciptab_size : 64;
		uint32_t *t = calloc(n, sizeof(*t));

		if (!t)
			return -1;
		for (i = 0; i < h->ncips; i++) {
			size_t j = hm_hash_u64(h->cips[i].ip ^ (uintptr_t)h->cips[i].bin) & (n - 1);

			while (t[j])
				j = (j + 1) & (n - 1);
			t[j] = (uint32_t)i + 1;
		}
		free(h->ciptab);
		h->ciptab = t;
		h->ciptab_size = n;
	}
	mask = h->ciptab_size - 1;
	for (i = hm_hash_u64(ip ^ (uintptr_t)bin) & mask; h->ciptab[i]; i = (i + 1) & mask) {
		const struct heat_ip *x = &h->cips[h->ciptab[i] - 1];

		if (x->ip == ip && x->bin == bin && x->link == link)
			return h->ciptab[i] - 1;
	}
	if (h->ncips >= UINT32_MAX - 1 ||
	    hm_grow((void **)&h->cips, &h->cips_cap, h->ncips + 1, sizeof(*h->cips)))
		return -1;
	h->cips[h->ncips] = (struct heat_ip){ bin, link, ip, 0 };
	h->ciptab[i] = (uint32_t)++h->ncips;
	return (long)h->ncips - 1;
}

int heat_compact_count(hm_heat *h, struct heat_compact *c, const hm_heat_access *a)
{
	hm_c2c_stats d = { 0 };
	const uint32_t *dv = (const uint32_t *)&d;
	size_t i;

	if (a->bp_w || a->bp_rw || a->regs || c->n == COMPACT_MAX)
		return 1;
	if (!c->n) {
		long ip = cip_index(h, a->ip_bin, a->ip_link, a->ip);

		if (ip < 0)
			return -ENOMEM;
		c->u.k.ip = (uint32_t)ip;
		c->u.k.cpu = a->cpu;
		c->u.k.tid = a->tid;
	} else {
		const struct heat_ip *x = &h->cips[c->u.k.ip];

		if (c->u.k.cpu != a->cpu || c->u.k.tid != a->tid || x->ip != a->ip ||
		    x->bin != a->ip_bin)
			return 1;
	}
	if (a->has_data_src && h->cnarrow)
		return 1;	/* no counters here: a row counts it */
	if (a->has_data_src) {
		hm_c2c_count(&d, a->data_src, a->addr, a->mapped);
		for (i = 0; i < NST; i++)
			if (dv[i] && c->st[i] + dv[i] > COMPACT_MAX)
				return 1;
		for (i = 0; i < NST; i++)
			c->st[i] += (uint8_t)dv[i];
		h->seen_datasrc = 1;
	} else {
		h->seen_addr = 1;
	}
	c->n++;
	return 0;
}

static void compact_stats(const hm_heat *h, const struct heat_compact *c, hm_c2c_stats *st)
{
	uint32_t *v = (uint32_t *)st;
	size_t i;

	for (i = 0; i < NST; i++)
		v[i] = h->cnarrow ? 0 : c->st[i];	/* narrow: no st[] */
}

/* The row of c's counts on line l, as heat_count() would have made it. */
static struct heat_row *compact_row(hm_heat *h, struct heat_compact *c, struct heat_line *l)
{
	struct heat_row *r;
	uint32_t acts;

	if (c->key) {
		const struct heat_ckey *k = heat_ckey_at(h, c->key - 1);
		const struct heat_cfield *f = k->f;
		hm_heat_access a = { .sname = f->sname, .kind = f->kind, .ssize = f->ssize,
				     .object = k->object, .obj_base = k->obj_base,
				     .path = f->path, .foff = f->foff, .fsize = f->fsize,
				     .addr = l->addr, .strategy = f->strategy };

		r = heat_row_new(h, l, &a);
		if (!r)
			return NULL;
		/* lifted to a container, the key names it by attr/'s strings,
		 * as the lifted rows do */
		r->sname = f->sname;
		r->object = k->object;
		r->path = f->path;
		r->container_unknown = k->container_unknown;
	} else {
		r = heat_row_unattributed(h, l);
	}
	if (!r)
		return NULL;
	if (!c->n)
		return r;
	if (heat_cpuset_add(&r->cpus, c->u.k.cpu) || heat_tidset_add(&r->tids, c->u.k.tid))
		return NULL;
	r->nsamples = c->n;
	r->ips[0] = h->cips[c->u.k.ip];
	r->ips[0].n = c->n;
	r->nips = 1;
	compact_stats(h, c, &r->st);
	/* each load or store counted its CPU as an actor */
	acts = r->st.load + r->st.store;
	if (acts) {
		if (heat_actors_add(&r->acts, c->u.k.cpu, 0))
			return NULL;
		r->acts.v[r->acts.last].n += acts - 1;
		r->acts.v[r->acts.last].w += r->st.store;
	}
	return r;
}

struct heat_row *heat_compact_promote(hm_heat *h, struct heat_compact *c)
{
	struct heat_line *l = heat_line_new(h, c->laddr, c->u.k.seq, 1);
	struct heat_row *r;

	if (!l || !(r = compact_row(h, c, l)))
		return NULL;
	c->u.row = r;
	c->state = HEAT_PROMOTED;
	h->promoted = 1;
	return r;
}

/* A finished line of its own for c (kept in h->mat). */
static struct heat_line *materialize(hm_heat *h, struct heat_compact *c)
{
	struct heat_line *l;
	struct heat_row *r;

	if (c->state == HEAT_MATERIALIZED)
		return c->u.row->line;
	l = heat_line_new(h, c->laddr, c->u.k.seq, 0);
	if (!l || !(r = compact_row(h, c, l)) || heat_line_finish(h, l))
		return NULL;
	c->u.row = r;
	c->state = HEAT_MATERIALIZED;
	return l;
}

static const uint8_t zero_st[NST];

/* The counts a finished line of c would have. */
static void compact_counts(const hm_heat *h, const struct heat_compact *c, hm_heat_counts *out)
{
	hm_c2c_stats st;

	if (c->state == HEAT_MATERIALIZED) {
		*out = c->u.row->line->c;
		return;
	}
	memset(out, 0, sizeof(*out));
	out->samples = c->n;
	/* without data sources (addresses only, a page-fault recording's)
	 * the counters are zero: nothing to convert */
	if (h->cnarrow || !memcmp(c->st, zero_st, sizeof(c->st)))
		return;
	compact_stats(h, c, &st);
	heat_stats_to_counts(&st, out);
}

/* A bounded heap of the best candidates, the worst at its root. */
struct cand {
	hm_heat_counts c;
	struct heat_compact *x;
};

struct heap {
	struct cand *v;
	size_t n;
	heat_rank_fn cmp;
	void *arg;
};

/* Whether a ranks after b (is worse). */
static int worse(const struct heap *q, const struct cand *a, const struct cand *b)
{
	return q->cmp(&a->c, a->x->laddr, &b->c, b->x->laddr, q->arg) > 0;
}

static void sift_down(struct heap *q, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct cand t;

		if (l < q->n && worse(q, &q->v[l], &q->v[m]))
			m = l;
		if (r < q->n && worse(q, &q->v[r], &q->v[m]))
			m = r;
		if (m == i)
			return;
		t = q->v[i];
		q->v[i] = q->v[m];
		q->v[m] = t;
		i = m;
	}
}

static void sift_up(struct heap *q, size_t i)
{
	while (i) {
		size_t p = (i - 1) / 2;
		struct cand t;

		if (!worse(q, &q->v[i], &q->v[p]))
			return;
		t = q->v[i];
		q->v[i] = q->v[p];
		q->v[p] = t;
		i = p;
	}
}

size_t hmi_heat_nr_compact(const hm_heat *h)
{
	return h->ncompact;
}

long hmi_heat_compact_top(const hm_heat *ch, size_t top, heat_rank_fn cmp, void *arg,
			  const struct heat_line **out)
{
	/* Making a line of a compact one only caches what it stands for. */
	hm_heat *h = (hm_heat *)ch;
	struct heap q = { NULL, 0, cmp, arg };
	size_t i, k;
	long n;

	if (!top || !h->ncompact)
		return 0;
	q.v = malloc((top < h->ncompact ? top : h->ncompact) * sizeof(*q.v));
	if (!q.v)
		return -ENOMEM;
	for (i = 0; i < h->ncompact; i++) {
		struct heat_compact *c = crec(h, (uint32_t)i);
		struct cand x;

		if (!c || c->state == HEAT_PROMOTED || !c->n)
			continue;
		compact_counts(h, c, &x.c);
		x.x = c;
		if (q.n < top) {
			q.v[q.n++] = x;
			sift_up(&q, q.n - 1);
		} else if (worse(&q, &q.v[0], &x)) {
			q.v[0] = x;
			sift_down(&q, 0);
		}
	}
	/* worst first out of the heap: filled from the end */
	n = (long)q.n;
	for (k = q.n; k > 0; k--) {
		out[k - 1] = materialize(h, q.v[0].x);
		if (!out[k - 1]) {
			free(q.v);
			return -ENOMEM;
		}
		q.v[0] = q.v[--q.n];
		sift_down(&q, 0);
	}
	free(q.v);
	return n;
}

static int line_by_seq(const void *pa, const void *pb)
{
	const struct heat_line *a = *(struct heat_line *const *)pa;
	const struct heat_line *b = *(struct heat_line *const *)pb;

	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

long heat_lines_all(hm_heat *h, struct heat_line ***out)
{
	size_t i, n = h->nlines;
	struct heat_line **v;

	for (i = 0; i < h->ncompact; i++) {
		const struct heat_compact *c = crec(h, (uint32_t)i);

		n += c->key && c->state != HEAT_PROMOTED;
	}
	v = malloc((n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (h->nlines)
		memcpy(v, h->lines, h->nlines * sizeof(*v));
	n = h->nlines;
	for (i = 0; i < h->ncompact; i++) {
		struct heat_compact *c = crec(h, (uint32_t)i);

		if (!c->key || c->state == HEAT_PROMOTED)
			continue;
		if (!(v[n++] = materialize(h, c))) {
			free(v);
			return -ENOMEM;
		}
	}
	if (n > h->nlines)
		qsort(v, n, sizeof(*v), line_by_seq);
	*out = v;
	return (long)n;
}
