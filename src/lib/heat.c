/* Heat: counting attributed accesses per field row and per cacheline, the
 * watchpoint coherence model, and the conversion to a profile. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "heat-int.h"
#include "profile-int.h"

/* ---- small sets ---- */

int heat_cpuset_grow_add(struct heat_cpuset *s, uint32_t cpu)
{
	uint32_t w = cpu / 64;
	uint64_t *word;

	if (w == 0)
		return heat_cpuset_add(s, cpu);
	if (w >= s->nw) {
		uint32_t nw = w + 1 > 2 * s->nw ? w + 1 : 2 * s->nw;
		uint64_t *n = realloc(s->w, (nw - 1) * sizeof(*n));
		uint32_t have = s->nw ? s->nw - 1 : 0;

		if (!n)
			return -ENOMEM;
		memset(n + have, 0, (nw - 1 - have) * sizeof(*n));
		s->w = n;
		s->nw = nw;
	}
	word = &s->w[w - 1];
	if (!(*word & (1ULL << (cpu % 64)))) {
		*word |= 1ULL << (cpu % 64);
		s->count++;
	}
	return 0;
}

int heat_cpuset_has(const struct heat_cpuset *s, uint32_t cpu)
{
	return (heat_cpuset_word(s, cpu / 64) >> (cpu % 64)) & 1;
}

int heat_cpuset_union(struct heat_cpuset *d, const struct heat_cpuset *s)
{
	uint32_t i;
	int b;

	for (i = 0; i < s->nw; i++) {
		uint64_t w = heat_cpuset_word(s, i);

		for (b = 0; b < 64 && w >> b; b++)
			if ((w >> b) & 1 && heat_cpuset_add(d, i * 64 + b))
				return -ENOMEM;
	}
	return 0;
}

void heat_cpuset_clear(struct heat_cpuset *s)
{
	s->inl = 0;
	if (s->w && s->nw > 1)
		memset(s->w, 0, (s->nw - 1) * sizeof(*s->w));
	s->count = 0;
}

size_t heat_cpuset_list(const struct heat_cpuset *s, uint32_t *out, size_t max)
{
	size_t n = 0;
	uint32_t i;
	int b;

	for (i = 0; i < s->nw; i++) {
		uint64_t w = heat_cpuset_word(s, i);

		for (b = 0; b < 64; b++)
			if ((w >> b) & 1) {
				if (n < max)
					out[n] = i * 64 + b;
				n++;
			}
	}
	return n < max ? n : max;
}

int heat_tidset_add(struct heat_tidset *s, uint32_t tid)
{
	uint32_t lo = 0, hi = s->n;

	if (s->n && s->last == tid)
		return 0;
	s->last = tid;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (s->v[mid] == tid)
			return 0;
		if (s->v[mid] < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (s->n == s->cap) {
		uint32_t cap = s->cap ? s->cap * 2 : 4;
		uint32_t *n = realloc(s->v, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->v = n;
		s->cap = cap;
	}
	memmove(s->v + lo + 1, s->v + lo, (s->n - lo) * sizeof(*s->v));
	s->v[lo] = tid;
	s->n++;
	return 0;
}

const char *heat_verdict_name(enum heat_verdict v)
{
	static const char *const names[] = { "private", "read-shared", "true sharing",
					     "false sharing", "unknown" };

	return names[v];
}

/* ---- construction ---- */

hm_heat *hm_heat_new(unsigned line_size)
{
	hm_heat *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->line_size = line_size ? line_size : 64;
	h->rtab_size = 1024;
	h->ltab_size = 1024;
	h->rtab = calloc(h->rtab_size, sizeof(*h->rtab));
	h->ltab = calloc(h->ltab_size, sizeof(*h->ltab));
	h->front = calloc(HEAT_FRONT, sizeof(*h->front));
	if (!h->rtab || !h->ltab || !h->front) {
		hm_heat_free(h);
		errno = ENOMEM;
		return NULL;
	}
	return h;
}

static void row_free(struct heat_row *r)
{
	free(r->cpus.w);
	free(r->tids.v);
}

void hm_heat_free(hm_heat *h)
{
	size_t i;
	struct heat_row *r;

	if (!h)
		return;
	for (i = 0; i < h->nlines; i++) {
		for (r = h->lines[i]->rows; r; r = r->next)
			row_free(r);
		free(h->lines[i]->cpus.w);
		free(h->lines[i]->tids.v);
		free(h->lines[i]->holders.w);
	}
	free(h->lines);
	free(h->rtab);
	free(h->ltab);
	free(h->front);
	free(h->watch);
	hm_strtab_free(&h->strs);
	hm_arena_free(&h->arena);
	free(h);
}

static size_t row_hash(uint64_t line, uint64_t faddr)
{
	return (size_t)hm_hash_u64(line * 31 + faddr);
}

static int grow_rtab(hm_heat *h)
{
	size_t n = h->rtab_size * 2, i;
	struct heat_row **t = calloc(n, sizeof(*t)), *r, *next;

	if (!t)
		return -ENOMEM;
	for (i = 0; i < h->rtab_size; i++)
		for (r = h->rtab[i]; r; r = next) {
			size_t b = row_hash(r->laddr, r->faddr) & (n - 1);

			next = r->hnext;
			r->hnext = t[b];
			t[b] = r;
		}
	free(h->rtab);
	h->rtab = t;
	h->rtab_size = n;
	return 0;
}

static int grow_ltab(hm_heat *h)
{
	size_t n = h->ltab_size * 2, i;
	struct heat_line **t = calloc(n, sizeof(*t)), *l, *next;

	if (!t)
		return -ENOMEM;
	for (i = 0; i < h->ltab_size; i++)
		for (l = h->ltab[i]; l; l = next) {
			size_t b = hm_hash_u64(l->addr) & (n - 1);

			next = l->hnext;
			l->hnext = t[b];
			t[b] = l;
		}
	free(h->ltab);
	h->ltab = t;
	h->ltab_size = n;
	return 0;
}

static struct heat_line *get_line(hm_heat *h, uint64_t addr)
{
	size_t b = hm_hash_u64(addr) & (h->ltab_size - 1);
	struct heat_line *l;

	for (l = h->ltab[b]; l; l = l->hnext)
		if (l->addr == addr)
			return l;
	if (h->nlines >= h->ltab_size && grow_ltab(h))
		return NULL;
	if (hm_grow((void **)&h->lines, &h->lines_cap, h->nlines + 1, sizeof(*h->lines)))
		return NULL;
	l = hm_arena_alloc(&h->arena, sizeof(*l));
	if (!l)
		return NULL;
	l->addr = addr;
	l->last_writer = -1;
	b = hm_hash_u64(addr) & (h->ltab_size - 1);
	l->hnext = h->ltab[b];
	h->ltab[b] = l;
	h->lines[h->nlines++] = l;
	return l;
}

static const char *intern(hm_heat *h, const char *s)
{
	return s ? hm_strtab_intern(&h->strs, s) : NULL;
}

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Link a new row into its line, keeping rows ordered by address. */
static void line_insert(struct heat_line *l, struct heat_row *r)
{
	struct heat_row **p = &l->rows;
	uint64_t a = r->obj_base + r->foff;

	while (*p && (*p)->obj_base + (*p)->foff <= a)
		p = &(*p)->next;
	r->next = *p;
	*p = r;
	l->nrows++;
}

/* A zeroed row on a cacheline boundary (the arena aligns to 16 bytes). */
static struct heat_row *row_alloc(hm_heat *h)
{
	char *p = hm_arena_alloc(&h->arena, sizeof(struct heat_row) + 48);

	if (!p)
		return NULL;
	return (struct heat_row *)(p + (-(uintptr_t)p & 63));
}

static struct heat_row *get_row(hm_heat *h, const hm_heat_access *a)
{
	uint64_t line = a->addr & ~(uint64_t)(h->line_size - 1);
	uint64_t faddr = a->sname ? a->obj_base + a->foff : line;
	size_t b = row_hash(line, faddr) & (h->rtab_size - 1);
	const char *path = a->sname ? a->path : "?";
	struct heat_row *r;
	struct heat_line *l;

	for (r = h->rtab[b]; r; r = r->hnext)
		if (r->faddr == faddr && r->laddr == line &&
		    same_str(r->path, path) && same_str(r->sname, a->sname))
			return r;
	l = get_line(h, line);
	if (!l)
		return NULL;
	if (h->nrows >= h->rtab_size && grow_rtab(h))
		return NULL;
	r = row_alloc(h);
	if (!r)
		return NULL;
	r->line = l;
	r->sname = intern(h, a->sname);
	r->object = intern(h, a->object);
	r->path = intern(h, path);
	if ((a->sname && !r->sname) || (a->object && !r->object) || !r->path)
		return NULL;
	r->kind = a->kind;
	r->ssize = a->ssize;
	r->obj_base = a->sname ? a->obj_base : line;
	r->foff = a->sname ? a->foff : 0;
	r->fsize = a->sname ? a->fsize : h->line_size;
	r->laddr = line;
	r->faddr = faddr;
	b = row_hash(line, faddr) & (h->rtab_size - 1);
	r->hnext = h->rtab[b];
	h->rtab[b] = r;
	h->nrows++;
	line_insert(l, r);
	return r;
}

static void count_ip(struct heat_row *r, const void *bin, uint64_t link, uint64_t ip)
{
	uint32_t i;

	for (i = 0; i < r->nips; i++)
		if (r->ips[i].ip == ip && r->ips[i].bin == bin) {
			r->ips[i].n++;
			return;
		}
	if (r->nips < HEAT_IPS) {
		r->ips[r->nips++] = (struct heat_ip){ bin, link, ip, 1 };
		return;
	}
	r->ip_other++;
}

static int buffer_watch(hm_heat *h, struct heat_row *r, const hm_heat_access *a)
{
	struct heat_watch *w;

	if (hm_grow((void **)&h->watch, &h->watch_cap, h->nwatch + 1, sizeof(*h->watch)))
		return -ENOMEM;
	w = &h->watch[h->nwatch];
	*w = (struct heat_watch){ .time = a->time, .ip = a->ip, .link = a->ip_link,
				  .bin = a->ip_bin, .row = r, .cpu = a->cpu, .tid = a->tid,
				  .seq = (uint32_t)h->nwatch, .w = a->bp_w, .rw = a->bp_rw };
	h->nwatch++;
	if (a->bp_w)
		r->has_w_bp = 1;
	else
		r->has_rw_bp = 1;
	return 0;
}

/* The row of an access: callers pass the same interned strings for the same
 * field, so (address, path pointer, struct pointer) finds it without hashing
 * strings. */
static struct heat_row *front_row(hm_heat *h, const hm_heat_access *a)
{
	size_t slot = hm_hash_u64(a->addr ^ (uintptr_t)a->path) & (HEAT_FRONT - 1);
	struct heat_front *f = &h->front[slot];

	if (f->row && f->addr == a->addr && f->path == a->path && f->sname == a->sname)
		return f->row;
	f->row = get_row(h, a);
	f->addr = a->addr;
	f->path = a->path;
	f->sname = a->sname;
	return f->row;
}

struct heat_row *heat_row_of(hm_heat *h, const hm_heat_access *a)
{
	return front_row(h, a);
}

int hm_heat_add(hm_heat *h, const hm_heat_access *a)
{
	struct heat_row *r = front_row(h, a);

	if (!r)
		return -ENOMEM;
	return heat_count(h, r, a);
}

int heat_count(hm_heat *h, struct heat_row *r, const hm_heat_access *a)
{
	if (heat_cpuset_add(&r->cpus, a->cpu))
		return -ENOMEM;
	/* The common repeats (same thread, same code location) without a call. */
	if (!(r->tids.n && r->tids.last == a->tid) && heat_tidset_add(&r->tids, a->tid))
		return -ENOMEM;
	if (a->bp_w || a->bp_rw) {
		h->seen_watch = 1;
		return buffer_watch(h, r, a);
	}
	r->nsamples++;
	if (r->nips && r->ips[0].ip == a->ip && r->ips[0].bin == a->ip_bin)
		r->ips[0].n++;
	else
		count_ip(r, a->ip_bin, a->ip_link, a->ip);
	if (!a->has_data_src) {
		h->seen_addr = 1;
		return 0;
	}
	h->seen_datasrc = 1;
	hm_c2c_count(&r->st, a->data_src, a->addr, a->mapped);
	return 0;
}

/* ---- the watchpoint coherence model ---- */

static int cmp_tid_time(const void *pa, const void *pb)
{
	const struct heat_watch *a = pa, *b = pb;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int cmp_time(const void *pa, const void *pb)
{
	const struct heat_watch *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* A write seen by both a W and an RW breakpoint on the same field produces two
 * samples from one instruction: the RW sample next to a W sample (same thread,
 * same field, same IP) is that write, and is dropped; the RW samples left are
 * the reads.  Fields watched only by RW breakpoints cannot be told apart:
 * their accesses are assumed to be writes (the worst case). */
static void classify_watch(hm_heat *h)
{
	size_t i, j;

	qsort(h->watch, h->nwatch, sizeof(*h->watch), cmp_tid_time);
	for (i = 0; i < h->nwatch; i++) {
		struct heat_watch *w = &h->watch[i];

		if (w->w) {
			w->is_write = 1;
			for (j = i ? i - 1 : i + 1; j < h->nwatch && j <= i + 1; j += (j < i) ? 2 : 1) {
				struct heat_watch *o = &h->watch[j];

				if (o->rw && !o->drop && o->tid == w->tid && o->row == w->row &&
				    o->ip == w->ip) {
					o->drop = 1;
					break;
				}
			}
		}
	}
	for (i = 0; i < h->nwatch; i++) {
		struct heat_watch *w = &h->watch[i];

		if (!w->rw)
			continue;
		if (!w->row->has_w_bp) {
			w->is_write = 1;
			h->assumed_writes = 1;
		}
	}
}

static int model_access(struct heat_line *l, struct heat_watch *w)
{
	int transfer;

	if (w->is_write) {
		transfer = l->last_writer >= 0 && l->last_writer != w->cpu;
		l->last_writer = w->cpu;
		heat_cpuset_clear(&l->holders);
		return heat_cpuset_add(&l->holders, w->cpu) ? -ENOMEM : transfer;
	}
	transfer = l->last_writer >= 0 && l->last_writer != w->cpu &&
		   !heat_cpuset_has(&l->holders, w->cpu);
	return heat_cpuset_add(&l->holders, w->cpu) ? -ENOMEM : transfer;
}

static int run_watch_model(hm_heat *h)
{
	size_t i;

	classify_watch(h);
	if (h->nwatch)
		qsort(h->watch, h->nwatch, sizeof(*h->watch), cmp_time);
	for (i = 0; i < h->nwatch; i++) {
		struct heat_watch *w = &h->watch[i];
		struct heat_row *r = w->row;
		int t;

		if (w->drop)
			continue;
		r->c.samples++;
		if (w->is_write)
			r->c.writes++;
		else
			r->c.reads++;
		count_ip(r, w->bin, w->link, w->ip);
		t = model_access(r->line, w);
		if (t < 0)
			return t;
		r->c.transfers += (uint64_t)t;
	}
	return 0;
}

/* ---- finishing: counters, per-line totals, verdicts ---- */

static void stats_to_counts(const hm_c2c_stats *st, hm_heat_counts *c)
{
	c->loads += st->load;
	c->stores += st->store;
	c->lcl_hitm += st->lcl_hitm;
	c->rmt_hitm += st->rmt_hitm;
	c->lcl_peer += st->lcl_peer;
	c->rmt_peer += st->rmt_peer;
	c->st_l1hit += st->st_l1hit;
	c->st_l1miss += st->st_l1miss;
}

void heat_counts_add(hm_heat_counts *d, const hm_heat_counts *s)
{
	d->samples += s->samples;
	d->loads += s->loads;
	d->stores += s->stores;
	d->lcl_hitm += s->lcl_hitm;
	d->rmt_hitm += s->rmt_hitm;
	d->lcl_peer += s->lcl_peer;
	d->rmt_peer += s->rmt_peer;
	d->st_l1hit += s->st_l1hit;
	d->st_l1miss += s->st_l1miss;
	d->reads += s->reads;
	d->writes += s->writes;
	d->transfers += s->transfers;
}

static int finish_line(hm_heat *h, struct heat_line *l)
{
	struct heat_row *r;
	uint32_t i;
	int know_writes = h->seen_datasrc || h->seen_watch;

	for (r = l->rows; r; r = r->next) {
		r->c.samples += r->nsamples;
		stats_to_counts(&r->st, &r->c);
		hm_c2c_add(&l->st, &r->st);
		heat_counts_add(&l->c, &r->c);
		if (heat_cpuset_union(&l->cpus, &r->cpus))
			return -ENOMEM;
		for (i = 0; i < r->tids.n; i++)
			if (heat_tidset_add(&l->tids, r->tids.v[i]))
				return -ENOMEM;
		if (!r->sname || !r->c.samples)
			continue;
		l->nfields++;
		if (heat_row_written(r))
			l->nwritten++;
	}
	if (!know_writes)
		l->verdict = HEAT_UNKNOWN;
	else if (l->cpus.count < 2)
		l->verdict = HEAT_PRIVATE;
	else if (!l->nwritten)
		l->verdict = HEAT_READ_SHARED;
	else if (l->nfields >= 2)
		l->verdict = HEAT_FALSE_SHARING;
	else
		l->verdict = HEAT_TRUE_SHARING;
	return 0;
}

int hm_heat_finish(hm_heat *h)
{
	size_t i;
	int err;

	if (h->finished)
		return 0;
	h->finished = 1;
	if (h->nwatch && (err = run_watch_model(h)))
		return err;
	for (i = 0; i < h->nlines; i++)
		if ((err = finish_line(h, h->lines[i])))
			return err;
	return 0;
}
