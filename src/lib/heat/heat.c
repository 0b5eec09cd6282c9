/* Heat: counting attributed accesses per field row and per cacheline, the
 * watchpoint coherence model, and the conversion to a profile. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include "base/diag.h"
#include "heat/heat-int.h"
#include "heat/profile-int.h"
#include "elf/binary-lib.h"

/* ---- small sets ---- */

/* Members from 64 on (the inline word holds the others). */
static uint32_t cpuset_nx(const struct heat_cpuset *s)
{
	return s->count - (uint32_t)__builtin_popcountll(s->inl);
}

/* Where cpu is, or would go, in s->x. */
static uint32_t cpuset_pos(const struct heat_cpuset *s, uint32_t cpu)
{
	uint32_t lo = 0, hi = cpuset_nx(s);

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (s->x[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int heat_cpuset_grow_add(struct heat_cpuset *s, uint32_t cpu)
{
	uint32_t n, at;

	if (cpu < 64)
		return heat_cpuset_add(s, cpu);
	n = cpuset_nx(s);
	at = cpuset_pos(s, cpu);
	if (at < n && s->x[at] == cpu)
		return 0;
	if (!(n & (n - 1))) {	/* full: n is its room, a power of two (or 0) */
		uint32_t *v = realloc(s->x, (n ? 2 * n : 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->x = v;
	}
	memmove(s->x + at + 1, s->x + at, (n - at) * sizeof(*s->x));
	s->x[at] = cpu;
	s->count++;
	if (cpu / 64 + 1 > s->nw)
		s->nw = cpu / 64 + 1;
	return 0;
}

int heat_cpuset_has(const struct heat_cpuset *s, uint32_t cpu)
{
	uint32_t at;

	if (cpu < 64)
		return (s->inl >> cpu) & 1;
	at = cpuset_pos(s, cpu);
	return at < cpuset_nx(s) && s->x[at] == cpu;
}

int heat_cpuset_union(struct heat_cpuset *d, const struct heat_cpuset *s)
{
	uint64_t w;
	uint32_t i, n = cpuset_nx(s);

	for (w = s->inl; w; w &= w - 1)	/* each set bit, lowest first */
		if (heat_cpuset_add(d, (uint32_t)__builtin_ctzll(w)))
			return -ENOMEM;
	for (i = 0; i < n; i++)
		if (heat_cpuset_add(d, s->x[i]))
			return -ENOMEM;
	return 0;
}

/* Emptied; the array stays allocated (the next member from 64 on resizes
 * it, in place). */
void heat_cpuset_clear(struct heat_cpuset *s)
{
	s->inl = 0;
	s->count = 0;
}

void heat_cpuset_free(struct heat_cpuset *s)
{
	free(s->x);
	s->x = NULL;
}

size_t heat_cpuset_list(const struct heat_cpuset *s, uint32_t *out, size_t max)
{
	size_t n = 0;
	uint32_t i, nx = cpuset_nx(s);
	uint64_t w;

	for (w = s->inl; w; w &= w - 1, n++)
		if (n < max)
			out[n] = (uint32_t)__builtin_ctzll(w);
	for (i = 0; i < nx; i++, n++)
		if (n < max)
			out[n] = s->x[i];
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
					     "false sharing", "unknown", "insufficient evidence",
					     "false and true sharing" };

	return names[v];
}

/* ---- construction ---- */

hm_heat *hm_heat_new(unsigned line_size)
{
	hm_heat *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->line_size = line_size ? line_size : hmi_arch_cacheline_size(NULL);
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

static void rows_free(hm_heat *h);

static void row_free(struct heat_row *r)
{
	free(r->rw);
	heat_cpuset_free(&r->cpus);
	free(r->tids.v);
	if (!r->acts.inl)
		free(r->acts.v);
}

static void line_free(struct heat_line *l)
{
	struct heat_row *r;

	for (r = l->rows; r; r = r->next)
		row_free(r);
	heat_cpuset_free(&l->cpus);
	free(l->tids.v);
	heat_cpuset_free(&l->holders);
	free(l->xp);
	free(l->ev.cost);
}

void hm_heat_free(hm_heat *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->nlines; i++)
		line_free(h->lines[i]);
	for (i = 0; i < h->nmat; i++)
		line_free(h->mat[i]);
	free(h->mat);
	heat_compact_free(h);
	free(h->cpu_samples);
	free(h->lines);
	free(h->rtab);
	free(h->ltab);
	free(h->front);
	free(h->wtid);
	rows_free(h);
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

static struct heat_line *find_line(const hm_heat *h, uint64_t addr)
{
	size_t b = hm_hash_u64(addr) & (h->ltab_size - 1);
	struct heat_line *l;

	for (l = h->ltab[b]; l; l = l->hnext)
		if (l->addr == addr)
			return l;
	return NULL;
}

/* A new line: one of h->lines (listed), or, made for the output after the
 * end, one of h->mat. */
struct heat_line *heat_line_new(hm_heat *h, uint64_t addr, uint32_t seq, int listed)
{
	struct heat_line *l;
	size_t b;

	if (listed) {
		if (h->nlines >= h->ltab_size && grow_ltab(h))
			return NULL;
		if (hm_grow((void **)&h->lines, &h->lines_cap, h->nlines + 1, sizeof(*h->lines)))
			return NULL;
	} else if (hm_grow((void **)&h->mat, &h->mat_cap, h->nmat + 1, sizeof(*h->mat))) {
		return NULL;
	}
	l = hm_arena_alloc(&h->arena, sizeof(*l));
	if (!l)
		return NULL;
	l->addr = addr;
	l->seq = seq;
	l->last_writer = -1;
	if (!listed) {
		h->mat[h->nmat++] = l;
		return l;
	}
	b = hm_hash_u64(addr) & (h->ltab_size - 1);
	l->hnext = h->ltab[b];
	h->ltab[b] = l;
	h->lines[h->nlines++] = l;
	return l;
}

static struct heat_line *get_line(hm_heat *h, uint64_t addr)
{
	struct heat_line *l = find_line(h, addr);

	return l ? l : heat_line_new(h, addr, h->nseq++, 1);
}

const char *heat_intern(hm_heat *h, const char *s)
{
	struct heat_icache *c;
	const char *copy;

	if (!s)
		return NULL;
	/* The pointer alone is not trusted (a caller may reuse a buffer):
	 * comparing the bytes with the copy still costs less than hashing
	 * them and probing the table.  A caller whose strings stay as they
	 * are (heat_borrow_objects()) is taken at its word. */
	c = &h->icache[hm_hash_u64((uintptr_t)s) & (HEAT_ICACHE - 1)];
	if (c->src == s && (h->borrow_objects || !strcmp(c->copy, s)))
		return c->copy;
	copy = hm_strtab_intern(&h->strs, s);
	if (copy) {
		c->src = s;
		c->copy = copy;
	}
	return copy;
}

const char *heat_intern_object(hm_heat *h, const char *s)
{
	return h->borrow_objects ? s : heat_intern(h, s);
}

void heat_borrow_objects(hm_heat *h)
{
	h->borrow_objects = 1;
}

#define intern heat_intern

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Link a new row into its line.  Rows are put in address order only by
 * hm_heat_finish() (line_sort()): a line can have many rows, and walking
 * them on every insertion costs a cache miss per row. */
static void line_insert(struct heat_line *l, struct heat_row *r)
{
	r->next = l->rows;
	l->rows = r;
	l->nrows++;
}

static uint64_t row_addr(const struct heat_row *r)
{
	return r->obj_base + r->foff;
}

/* Merge two address-ordered lists; on equal addresses a's rows first. */
static struct heat_row *rows_merge(struct heat_row *a, struct heat_row *b)
{
	struct heat_row *head = NULL, **t = &head;

	while (a && b) {
		if (row_addr(b) < row_addr(a)) {
			*t = b;
			b = b->next;
		} else {
			*t = a;
			a = a->next;
		}
		t = &(*t)->next;
	}
	*t = a ? a : b;
	return head;
}

/* Sort a list of n rows by address, stably. */
static struct heat_row *rows_sort(struct heat_row *r, uint32_t n)
{
	struct heat_row *b, **cut = &r;
	uint32_t i;

	if (n < 2)
		return r;
	for (i = 0; i < n / 2; i++)
		cut = &(*cut)->next;
	b = *cut;
	*cut = NULL;
	return rows_merge(rows_sort(r, n / 2), rows_sort(b, n - n / 2));
}

/* The line's rows by address, those of one address in creation order.  They
 * were linked newest first: reversed, then sorted stably. */
static void line_sort(struct heat_line *l)
{
	struct heat_row *r = l->rows, *prev = NULL, *next;

	for (; r; r = next) {
		next = r->next;
		r->next = prev;
		prev = r;
	}
	l->rows = rows_sort(prev, l->nrows);
}

/* Rows are carved from blocks of their own: a sample touches its row at
 * random among all of them, so past the first block they are on huge pages
 * (hm_huge_alloc()). */
struct heat_rows {
	struct heat_rows *next;
	size_t size;		/* of the block, this header included */
};

#define HEAT_ROWS_FIRST (256u << 10)
#define HEAT_ROWS_BLOCK (2u << 20)
#define HEAT_ROW_SIZE \
	((sizeof(struct heat_row) + HEAT_ACTS_INL * sizeof(struct heat_actor) + 63) & ~(size_t)63)

static void rows_free(hm_heat *h)
{
	struct heat_rows *b, *next;

	for (b = h->rows; b; b = next) {
		next = b->next;
		hm_huge_free(b, b->size);
	}
	h->rows = NULL;
}

/* A zeroed row on a cacheline boundary, with room for its first actors
 * after it. */
static struct heat_row *row_alloc(hm_heat *h)
{
	struct heat_row *r;

	if (!h->rows || h->rows_used + HEAT_ROW_SIZE > h->rows->size) {
		size_t size = h->rows ? HEAT_ROWS_BLOCK : HEAT_ROWS_FIRST;
		struct heat_rows *b = hm_huge_alloc(size);

		if (!b)
			return NULL;
		b->size = size;
		b->next = h->rows;
		h->rows = b;
		h->rows_used = 64;	/* the header's line */
	}
	r = (struct heat_row *)((char *)h->rows + h->rows_used);
	h->rows_used += HEAT_ROW_SIZE;
	r->acts.v = (struct heat_actor *)(r + 1);
	r->acts.cap = HEAT_ACTS_INL;
	r->acts.inl = 1;
	return r;
}

/* A new row of line l for the access a (a->sname NULL: the line's
 * unattributed row). */
static struct heat_row *new_row(hm_heat *h, struct heat_line *l, const hm_heat_access *a)
{
	uint64_t line = l->addr;
	uint64_t faddr = a->sname ? a->obj_base + a->foff : line;
	const char *path = a->sname ? a->path : "?";
	struct heat_row *r;
	size_t b;

	if (h->nrows >= h->rtab_size && grow_rtab(h))
		return NULL;
	r = row_alloc(h);
	if (!r)
		return NULL;
	r->line = l;
	r->sname = intern(h, a->sname);
	r->object = heat_intern_object(h, a->object);
	r->path = intern(h, path);
	if ((a->sname && !r->sname) || (a->object && !r->object) || !r->path)
		return NULL;
	r->kind = a->kind;
	r->strategy = a->strategy;
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

struct heat_row *heat_row_new(hm_heat *h, struct heat_line *l, const hm_heat_access *a)
{
	return new_row(h, l, a);
}

struct heat_row *heat_row_unattributed(hm_heat *h, struct heat_line *l)
{
	hm_heat_access a = { .addr = l->addr };

	return new_row(h, l, &a);
}

/* The row of an access, or the tagged handle of its compact line. */
static struct heat_row *get_row(hm_heat *h, const hm_heat_access *a)
{
	uint64_t line = a->addr & ~(uint64_t)(h->line_size - 1);
	uint64_t faddr = a->sname ? a->obj_base + a->foff : line;
	size_t b = row_hash(line, faddr) & (h->rtab_size - 1);
	const char *path = a->sname ? a->path : "?";
	struct heat_row *r;
	struct heat_line *l;
	struct heat_compact *c = NULL;
	size_t slot = 0;

	for (r = h->rtab[b]; r; r = r->hnext)
		if (r->faddr == faddr && r->laddr == line &&
		    same_str(r->path, path) && same_str(r->sname, a->sname))
			return r;
	l = find_line(h, line);
	if (!l && !(c = heat_compact_lookup(h, line, &slot)) && slot == SIZE_MAX)
		return NULL;
	if (!l && !c) {
		long key = heat_ckey_of(h, a);

		if (key < -1)
			return NULL;
		if (key >= 0) {
			if (!(c = heat_compact_add(h, slot, line)))
				return NULL;
			c->key = (uint32_t)key;
			return (struct heat_row *)((uintptr_t)c | 1);
		}
	} else if (!l && c->state == HEAT_COMPACT) {
		if (heat_compact_same(h, c, a))
			return (struct heat_row *)((uintptr_t)c | 1);
		/* a second row on a compact line: the line's first row
		 * comes first */
		r = heat_compact_promote(h, c);
		if (!r)
			return NULL;
		l = r->line;
	}
	if (!l && !(l = get_line(h, line)))
		return NULL;
	return new_row(h, l, a);
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

static int watch_add(hm_heat *h, struct heat_row *r, const hm_heat_access *a);

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

int heat_cpu_sample(hm_heat *h, uint32_t cpu)
{
	if (cpu >= h->ncpu_samples) {
		uint32_t n = cpu < 64 ? 64 : cpu + 1;
		uint64_t *v;

		if (cpu >= 1u << 20)	/* no machine has that many: no cost */
			return 0;
		v = realloc(h->cpu_samples, n * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memset(v + h->ncpu_samples, 0, (n - h->ncpu_samples) * sizeof(*v));
		h->cpu_samples = v;
		h->ncpu_samples = n;
	}
	h->cpu_samples[cpu]++;
	return 0;
}

/* A sampled-register access: its kind, its thread as the actor, and its
 * time window (consecutive accesses of one window, CPU, thread and kind
 * are one entry). */
static int regs_add(hm_heat *h, struct heat_row *r, const hm_heat_access *a)
{
	uint64_t win = a->time / HEAT_WINDOW_NS;
	struct heat_rwin *x = r->nrw ? &r->rw[r->nrw - 1] : NULL;

	h->seen_regs = 1;
	if (a->regs_w)
		r->c.writes++;
	else
		r->c.reads++;
	if (heat_actors_add(&r->acts, a->tid, a->regs_w))
		return -ENOMEM;
	if (x && x->win == win && x->cpu == a->cpu && x->tid == a->tid && x->w == a->regs_w) {
		x->n++;
		return 0;
	}
	if (r->nrw == r->crw) {
		uint32_t c = r->crw ? 2 * r->crw : 16;
		struct heat_rwin *v = realloc(r->rw, c * sizeof(*v));

		if (!v)
			return -ENOMEM;
		r->rw = v;
		r->crw = c;
	}
	r->rw[r->nrw++] = (struct heat_rwin){ win, a->cpu, a->tid, 1, a->regs_w };
	return 0;
}

int heat_count(hm_heat *h, struct heat_row *r, const hm_heat_access *a)
{
	if (heat_row_compact(r)) {
		struct heat_compact *c = (struct heat_compact *)((uintptr_t)r & ~(uintptr_t)1);
		int err;

		if (c->state == HEAT_COMPACT) {
			err = heat_compact_count(h, c, a);
			if (err <= 0)
				return err;
			if (!heat_compact_promote(h, c))
				return -ENOMEM;
		}
		r = c->u.row;
	}
	if (heat_cpuset_add(&r->cpus, a->cpu))
		return -ENOMEM;
	/* The common repeats (same thread, same code location) without a call. */
	if (!(r->tids.n && r->tids.last == a->tid) && heat_tidset_add(&r->tids, a->tid))
		return -ENOMEM;
	if (a->bp_w || a->bp_rw) {
		h->seen_watch = 1;
		return watch_add(h, r, a);
	}
	if (a->regs && regs_add(h, r, a))
		return -ENOMEM;
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
	{
		uint32_t ld = r->st.load, st = r->st.store;

		hm_c2c_count(&r->st, a->data_src, a->addr, a->mapped);
		/* The verdict's actors are CPUs here: HITMs move lines
		 * between caches, whichever task runs there. */
		if ((r->st.load != ld || r->st.store != st) &&
		    heat_actors_add(&r->acts, a->cpu, r->st.store != st))
			return -ENOMEM;
	}
	return 0;
}

/* ---- the watchpoint coherence model ----
 *
 * Accesses arrive in time order (attribute-order.c) and are modelled per
 * line as they come, so only the ones still waiting are kept.  A write seen
 * by both a W and an RW breakpoint on the same field produces two samples
 * from one instruction, a few microseconds apart: the RW sample next to a
 * W sample in its thread's order (same field, same IP) is that write and is
 * dropped; the RW samples left are the reads.  A W sample takes the RW
 * sample before it if it can, else the one after it, so an RW sample waits
 * (pending) until its thread's next access.  Fields no W breakpoint fired on
 * cannot tell reads from writes: their accesses are taken as writes (the
 * worst case); an RW access to a field a W breakpoint covers but which has
 * not fired yet waits until it does (a read) or the end (a write).  A sample
 * that arrives late is modelled where it arrives. */

void heat_watch_events(hm_heat *h, const hm_perf_info *info)
{
	h->winfo = info;
	heat_compact_events(h, info);
}

/* Whether a W sample can still come for the row; without the events, yes. */
static int row_may_see_w(const hm_heat *h, const struct heat_row *r)
{
	size_t i;

	if (!h->winfo)
		return 1;
	for (i = 0; i < h->winfo->nr_events; i++) {
		const hm_perf_event *e = &h->winfo->events[i];
		uint64_t end = e->bp_addr + (e->bp_len ? e->bp_len : 1);

		if (e->type != PERF_TYPE_BREAKPOINT || e->bp_type != HW_BREAKPOINT_W)
			continue;
		/* A field of unknown size: any W breakpoint on its line. */
		if (!r->fsize ? (e->bp_addr & ~(uint64_t)(h->line_size - 1)) == r->laddr
			      : end > r->faddr && e->bp_addr < r->faddr + r->fsize)
			return 1;
	}
	return 0;
}

static struct heat_wtid *wtid_slot(struct heat_wtid *t, size_t size, uint32_t tid)
{
	size_t i = hm_hash_u64(tid) & (size - 1);

	while (t[i].used && t[i].tid != tid)
		i = (i + 1) & (size - 1);
	return &t[i];
}

static struct heat_wtid *wtid_get(hm_heat *h, uint32_t tid)
{
	struct heat_wtid *t;
	size_t i;

	if (4 * (h->wtid_n + 1) > 3 * h->wtid_size) {
		size_t n = h->wtid_size ? 2 * h->wtid_size : 64;
		struct heat_wtid *v = calloc(n, sizeof(*v));

		if (!v)
			return NULL;
		for (i = 0; i < h->wtid_size; i++)
			if (h->wtid[i].used)
				*wtid_slot(v, n, h->wtid[i].tid) = h->wtid[i];
		free(h->wtid);
		h->wtid = v;
		h->wtid_size = n;
	}
	t = wtid_slot(h->wtid, h->wtid_size, tid);
	if (!t->used) {
		*t = (struct heat_wtid){ .tid = tid, .used = 1 };
		h->wtid_n++;
	}
	return t;
}

static int model_access(struct heat_line *l, int is_write, uint32_t cpu)
{
	int transfer;

	if (is_write) {
		transfer = l->last_writer >= 0 && l->last_writer != cpu;
		l->last_writer = cpu;
		heat_cpuset_clear(&l->holders);
		return heat_cpuset_add(&l->holders, cpu) ? -ENOMEM : transfer;
	}
	transfer = l->last_writer >= 0 && l->last_writer != cpu &&
		   !heat_cpuset_has(&l->holders, cpu);
	return heat_cpuset_add(&l->holders, cpu) ? -ENOMEM : transfer;
}

/* Count a transfer by its cause (a line holds a few watched fields: a
 * linear search). */
static int xpair_add(struct heat_line *l, struct heat_row *src, struct heat_row *dst)
{
	uint32_t i;

	for (i = 0; i < l->nxp; i++)
		if (l->xp[i].src == src && l->xp[i].dst == dst) {
			l->xp[i].n++;
			return 0;
		}
	if (l->nxp == l->xp_cap) {
		uint32_t cap = l->xp_cap ? 2 * l->xp_cap : 4;
		struct heat_xpair *n = realloc(l->xp, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		l->xp = n;
		l->xp_cap = cap;
	}
	l->xp[l->nxp++] = (struct heat_xpair){ src, dst, 1 };
	return 0;
}

/* Model the line's waiting accesses up to the first that is not decided
 * yet; at the end (`end`), every one is. */
static int line_drain(hm_heat *h, struct heat_line *l, int end)
{
	struct heat_watch *w;
	struct heat_row *src;
	int err;

	while ((w = l->wq)) {
		struct heat_row *r = w->row;
		int is_write = w->w, t;

		if (w->pending && !end)
			return 0;
		if (!w->drop && !is_write && !r->has_w_bp) {
			if (!end && row_may_see_w(h, r))
				return 0;
			is_write = 1;
			h->assumed_writes = 1;
		}
		l->wq = w->next;
		if (!l->wq)
			l->wq_tail = NULL;
		w->next = h->wfree;
		h->wfree = w;
		if (w->drop)
			continue;
		r->c.samples++;
		if (is_write)
			r->c.writes++;
		else
			r->c.reads++;
		count_ip(r, w->bin, w->link, w->ip);
		/* Threads are the verdict's actors: a thread that moves
		 * between CPUs shares nothing with itself. */
		if (heat_actors_add(&r->acts, w->tid, is_write))
			return -ENOMEM;
		src = l->last_wrow;
		t = model_access(l, is_write, w->cpu);
		if (t < 0)
			return t;
		if (is_write)
			l->last_wrow = r;
		if (t && (err = xpair_add(l, src, r)))
			return err;
		r->c.transfers += (uint64_t)t;
	}
	return 0;
}

/* Pair the access with its thread's previous one (see above). */
static void watch_pair(const hm_heat *h, struct heat_wtid *t, struct heat_watch *w)
{
	struct heat_watch *p = t->pend;

	if (p)
		p->pending = 0;
	if (w->w) {
		t->claimed = p && p->row == w->row && p->ip == w->ip;
		if (t->claimed)
			p->drop = 1;
		t->pend = NULL;
	} else if (t->used > 1 && t->w && !t->claimed && t->row == w->row && t->ip == w->ip) {
		w->drop = 1;
		t->pend = NULL;
	} else if (!row_may_see_w(h, w->row)) {
		t->pend = NULL;	/* no W sample can take it */
	} else {
		w->pending = 1;
		t->pend = w;
	}
	t->w = w->w;
	t->row = w->row;
	t->ip = w->ip;
	t->used = 2;	/* 2: has a last access */
}

static int watch_add(hm_heat *h, struct heat_row *r, const hm_heat_access *a)
{
	struct heat_wtid *t = wtid_get(h, a->tid);
	struct heat_watch *w = h->wfree, *p;
	struct heat_line *l = r->line;
	int err;

	if (!t)
		return -ENOMEM;
	if (w)
		h->wfree = w->next;
	else if (!(w = hm_arena_alloc(&h->arena, sizeof(*w))))
		return -ENOMEM;
	*w = (struct heat_watch){ .ip = a->ip, .link = a->ip_link, .bin = a->ip_bin, .row = r,
				  .cpu = a->cpu, .tid = a->tid, .w = a->bp_w };
	if (a->bp_w)
		r->has_w_bp = 1;
	else
		r->has_rw_bp = 1;
	p = t->pend;
	watch_pair(h, t, w);
	if (l->wq_tail)
		l->wq_tail->next = w;
	else
		l->wq = w;
	l->wq_tail = w;
	if (p && p->row->line != l && (err = line_drain(h, p->row->line, 0)))
		return err;
	return line_drain(h, l, 0);
}

static int run_watch_model(hm_heat *h)
{
	size_t i;
	int err;

	for (i = 0; i < h->wtid_size; i++)
		if (h->wtid[i].used && h->wtid[i].pend)
			h->wtid[i].pend->pending = 0;
	for (i = 0; i < h->nlines; i++)
		if ((err = line_drain(h, h->lines[i], 1)))
			return err;
	return 0;
}

/* ---- finishing: counters, per-line totals, verdicts ---- */

void heat_stats_to_counts(const hm_c2c_stats *st, hm_heat_counts *c)
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

/* ---- one row per field ----
 *
 * attr_lift_containers() renames the row of an embedded instance by its
 * container, so a field seen through the inner type at one IP and through
 * the outer one at another (a lock taken by a helper that gets only the
 * lock's pointer, released through the struct) ends up with two rows of
 * one name: the second is folded into the first, after the watch model
 * has counted every access (its transfer pairs and last writer move to the
 * row kept) and before the line's totals and verdict. */

static int same_field(const struct heat_row *a, const struct heat_row *b)
{
	return a->sname && b->sname && row_addr(a) == row_addr(b) && a->fsize == b->fsize &&
	       same_str(a->sname, b->sname) && same_str(a->object, b->object) &&
	       same_str(a->path, b->path);
}

static void rtab_unlink(hm_heat *h, struct heat_row *r)
{
	struct heat_row **p = &h->rtab[row_hash(r->laddr, r->faddr) & (h->rtab_size - 1)];
	size_t i;

	for (; *p; p = &(*p)->hnext)
		if (*p == r) {
			*p = r->hnext;
			h->nrows--;
			break;
		}
	for (i = 0; h->front && i < HEAT_FRONT; i++)
		if (h->front[i].row == r)
			h->front[i].row = NULL;
}

static int row_fold(hm_heat *h, struct heat_line *l, struct heat_row *d, struct heat_row *s)
{
	uint32_t i, j;

	if (heat_cpuset_union(&d->cpus, &s->cpus))
		return -ENOMEM;
	for (i = 0; i < s->tids.n; i++)
		if (heat_tidset_add(&d->tids, s->tids.v[i]))
			return -ENOMEM;
	for (i = 0; i < s->acts.n; i++) {
		const struct heat_actor *a = &s->acts.v[i];

		if (heat_actors_add(&d->acts, a->id, 0))
			return -ENOMEM;
		d->acts.v[d->acts.last].n += a->n - 1;
		d->acts.v[d->acts.last].w += a->w;
	}
	for (i = 0; i < s->nips; i++) {
		for (j = 0; j < d->nips; j++)
			if (d->ips[j].ip == s->ips[i].ip && d->ips[j].bin == s->ips[i].bin)
				break;
		if (j < d->nips)
			d->ips[j].n += s->ips[i].n;
		else if (d->nips < HEAT_IPS)
			d->ips[d->nips++] = s->ips[i];
		else
			d->ip_other += s->ips[i].n;
	}
	d->ip_other += s->ip_other;
	d->nsamples += s->nsamples;
	hm_c2c_add(&d->st, &s->st);
	heat_counts_add(&d->c, &s->c);
	d->has_w_bp |= s->has_w_bp;
	d->has_rw_bp |= s->has_rw_bp;
	d->container_unknown &= s->container_unknown;
	/* The transfers by cause: s's become d's, pairs that now coincide
	 * summed. */
	for (i = 0; i < l->nxp; i++) {
		if (l->xp[i].src == s)
			l->xp[i].src = d;
		if (l->xp[i].dst == s)
			l->xp[i].dst = d;
	}
	for (i = 0; i < l->nxp; i++)
		for (j = i + 1; j < l->nxp;)
			if (l->xp[j].src == l->xp[i].src && l->xp[j].dst == l->xp[i].dst) {
				l->xp[i].n += l->xp[j].n;
				l->xp[j] = l->xp[--l->nxp];
			} else {
				j++;
			}
	if (s->nrw) {
		struct heat_rwin *v = realloc(d->rw, (d->nrw + s->nrw) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		memcpy(v + d->nrw, s->rw, s->nrw * sizeof(*v));
		d->rw = v;
		d->nrw += s->nrw;
		d->crw = d->nrw;
	}
	if (l->last_wrow == s)
		l->last_wrow = d;
	rtab_unlink(h, s);
	row_free(s);
	return 0;
}

/* The line's rows are sorted by address: a field's rows are in one run. */
static int fold_line(hm_heat *h, struct heat_line *l)
{
	struct heat_row *r, *q, **pq;
	int err;

	for (r = l->rows; r; r = r->next)
		for (pq = &r->next; (q = *pq) && row_addr(q) == row_addr(r);) {
			if (!same_field(r, q)) {
				pq = &q->next;
				continue;
			}
			*pq = q->next;
			l->nrows--;
			if ((err = row_fold(h, l, r, q)))
				return err;
		}
	return 0;
}

int heat_line_finish(hm_heat *h, struct heat_line *l)
{
	struct heat_row *r;
	uint32_t i;
	int know_writes = h->seen_datasrc || h->seen_watch || h->seen_regs;

	for (r = l->rows; r; r = r->next) {
		r->c.samples += r->nsamples;
		heat_stats_to_counts(&r->st, &r->c);
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
	if (!know_writes) {
		l->verdict = HEAT_UNKNOWN;
		l->ev.rule = HEAT_RULE_NO_KIND;
		return 0;
	}
	if (!h->seen_datasrc && !h->seen_watch)
		return heat_line_verdict_regs(l, h);
	return heat_line_verdict(l, !h->seen_datasrc);
}

static int by_seq(const void *pa, const void *pb)
{
	const struct heat_line *a = *(struct heat_line *const *)pa;
	const struct heat_line *b = *(struct heat_line *const *)pb;

	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int hm_heat_finish(hm_heat *h)
{
	size_t i;
	int err;

	if (h->finished)
		return 0;
	h->finished = 1;
	/* A promoted compact line joined h->lines late: back to its place. */
	if (h->promoted)
		qsort(h->lines, h->nlines, sizeof(*h->lines), by_seq);
	for (i = 0; i < h->nlines; i++)
		line_sort(h->lines[i]);
	if (h->seen_watch && (err = run_watch_model(h)))
		return err;
	for (i = 0; i < h->nlines; i++)
		if ((err = fold_line(h, h->lines[i])) || (err = heat_line_finish(h, h->lines[i])))
			return err;
	return 0;
}
