/* Allocations from a recording's allocator events (`hitmap record --alloc`,
 * record.h): each call's entry gives the size, its return the pointer and,
 * as the sample IP, the return address in the caller — the allocation site
 * (posix_memalign's block comes from its __store event in between).
 * Kept as a table of allocations (base, size, site, lifetime) that the
 * report and instance building look addresses up in. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "attr/attribute-int.h"
#include "insn/insn.h"

#define ALLOC_PREFIX "hitmap_alloc:"

enum afunc { AF_MALLOC, AF_CALLOC, AF_REALLOC, AF_ALIGNED, AF_POSIX, AF_FREE, AF_NR };
static const char *const fnames[AF_NR] = { "malloc", "calloc", "realloc", "aligned_alloc",
					   "posix_memalign", "free" };

/* perf_regs.h (x86): the registers record samples. */
enum { REG_AX = 0, REG_DX = 3, REG_SI = 4, REG_DI = 5 };

struct alloc_ent {
	uint64_t base, size, time, freed_at;	/* freed_at 0: live at the end */
	uint64_t site;		/* runtime address of the call */
	struct binent *bin;	/* site's binary, or NULL */
	uint64_t link;		/* site as a link address of bin */
	uint32_t pid;
	uint8_t func;
	unsigned freed : 1;
};

struct alloc_call {		/* an entry waiting for its return */
	uint8_t func, size_known, stored;
	uint64_t size, old;
	uint64_t ptr;		/* posix_memalign: the block its store wrote */
};

/* A thread's calls in progress, innermost last: the allocator calls itself
 * (realloc(NULL, n) is malloc's exported entry), and such an inner call's
 * block is the outer call's, returned to the outer caller, its site. */
#define CALL_DEPTH 4
struct alloc_thread {
	uint32_t tid;
	unsigned depth;
	struct alloc_call st[CALL_DEPTH];
};

struct attr_allocs {
	struct alloc_ent *v;
	size_t n, cap;
	struct alloc_thread *calls;
	size_t ncalls, calls_cap;
	uint64_t samples;
	uint64_t max_size;	/* of any block: how far back a lookup looks */
	int sorted;		/* v by base; after the run, for lookups */
};

int attr_alloc_event(const hm_perf_event *ev)
{
	return ev && ev->name && ev->type >= PERF_TYPE_MAX &&
	       strncmp(ev->name, ALLOC_PREFIX, sizeof(ALLOC_PREFIX) - 1) == 0;
}

void attr_allocs_free(struct attr_allocs *t)
{
	if (!t)
		return;
	free(t->v);
	free(t->calls);
	free(t);
}

/* Register `reg` of the sample, by its bit in the event's mask. */
static int reg(const hm_perf_event *ev, const hm_sample *s, unsigned r, uint64_t *out)
{
	uint64_t mask = ev->sample_regs_user;
	unsigned i;

	if (!(s->has & HM_HAS_REGS_USER) || !(mask & (1ull << r)))
		return -ENOENT;
	i = (unsigned)__builtin_popcountll(mask & ((1ull << r) - 1));
	if (i >= s->nr_regs_user)
		return -ENOENT;
	*out = s->regs_user[i];
	return 0;
}

static struct alloc_thread *thread_of(struct attr_allocs *t, uint32_t tid)
{
	size_t i;

	for (i = 0; i < t->ncalls; i++)
		if (t->calls[i].tid == tid)
			return &t->calls[i];
	if (t->ncalls == t->calls_cap) {
		size_t cap = t->calls_cap ? 2 * t->calls_cap : 16;
		struct alloc_thread *n = realloc(t->calls, cap * sizeof(*n));

		if (!n)
			return NULL;
		t->calls = n;
		t->calls_cap = cap;
	}
	memset(&t->calls[t->ncalls], 0, sizeof(t->calls[0]));
	t->calls[t->ncalls].tid = tid;
	return &t->calls[t->ncalls++];
}

static void mark_freed(struct attr_allocs *t, uint32_t pid, uint64_t base, uint64_t time)
{
	size_t i;

	for (i = t->n; i-- > 0;)
		if (t->v[i].base == base && t->v[i].pid == pid && !t->v[i].freed) {
			t->v[i].freed = 1;
			t->v[i].freed_at = time;
			return;
		}
}

/* The call instruction before the return address; its start is the site. */
static void resolve_site(hm_attr *a, const hm_sample *s, struct alloc_ent *e)
{
	hm_sample at = *s;
	const void *vb;
	struct binent *b;
	struct hm_insn insn;
	uint64_t link;

	e->site = s->ip;
	if (hmi_attr_ip(a, &at, &vb, &link))
		return;
	b = (struct binent *)vb;
	e->bin = b;
	e->link = link;
	if (!b->insn && !b->insn_err) {
		attr_binent_types(b);
		b->insn = hm_insn_ctx_new(b->bin, attr_binent_dwarf(b));
		if (!b->insn)
			b->insn_err = errno ? -errno : -EIO;
	}
	if (b->insn && !hm_insn_prev(b->insn, link, &insn) && insn.pc < link) {
		e->site = s->ip - (link - insn.pc);
		e->link = insn.pc;
	}
}

static int add_alloc(hm_attr *a, struct attr_allocs *t, const hm_sample *s,
		     const struct alloc_call *c, uint64_t ptr)
{
	struct alloc_ent *e;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct alloc_ent *n = realloc(t->v, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->v = n;
		t->cap = cap;
	}
	e = &t->v[t->n++];
	memset(e, 0, sizeof(*e));
	e->base = ptr;
	e->size = c->size;
	e->time = s->time;
	e->pid = s->pid;
	e->func = c->func;
	if (e->size > t->max_size)
		t->max_size = e->size;
	t->sorted = 0;
	resolve_site(a, s, e);
	return 0;
}

int attr_alloc_sample(hm_attr *a, const hm_perf_event *ev, const hm_sample *s)
{
	const char *name = ev->name + sizeof(ALLOC_PREFIX) - 1;
	const char *suffix = strstr(name, "__");
	size_t n = suffix ? (size_t)(suffix - name) : strlen(name), k;
	struct attr_allocs *t = a->strat.allocs;
	struct alloc_thread *th;
	struct alloc_call *c;
	uint64_t di = 0, si = 0, dx = 0, ax = 0;
	int ret = suffix && strcmp(suffix, "__return") == 0, f = -1;

	if (!t && !(t = a->strat.allocs = calloc(1, sizeof(*t))))
		return -ENOMEM;
	t->samples++;
	for (k = 0; k < AF_NR; k++)
		if (strlen(fnames[k]) == n && strncmp(name, fnames[k], n) == 0)
			f = (int)k;
	if (f < 0 || (suffix && !ret && (f != AF_POSIX || strcmp(suffix, "__store"))))
		return 0;	/* a function of a later recorder: not ours to guess */
	if (!(th = thread_of(t, s->tid)))
		return -ENOMEM;
	if (suffix && !ret) {
		/* posix_memalign's store of the block: the one register sampled. */
		if (th->depth && th->st[th->depth - 1].func == f && ev->sample_regs_user &&
		    !(ev->sample_regs_user & (ev->sample_regs_user - 1)) &&
		    !reg(ev, s, (unsigned)__builtin_ctzll(ev->sample_regs_user), &ax)) {
			th->st[th->depth - 1].ptr = ax;
			th->st[th->depth - 1].stored = 1;
		}
		return 0;
	}
	if (!ret) {
		int okd = !reg(ev, s, REG_DI, &di), oks = !reg(ev, s, REG_SI, &si);

		if (f == AF_FREE) {
			if (okd && di)
				mark_freed(t, s->pid, di, s->time);
			return 0;
		}
		if (th->depth == CALL_DEPTH)
			th->depth = 0;	/* returns were lost: start again */
		c = &th->st[th->depth++];
		c->func = (uint8_t)f;
		c->stored = 0;
		c->ptr = 0;
		if (f == AF_POSIX) {	/* (void **memptr, alignment, size) */
			c->old = 0;
			c->size_known = !reg(ev, s, REG_DX, &dx);
			c->size = dx;
			return 0;
		}
		c->old = f == AF_REALLOC && okd ? di : 0;
		c->size_known = f == AF_MALLOC ? okd : oks;
		c->size = f == AF_MALLOC ? di : f == AF_CALLOC ? 0 : si;
		if (f == AF_CALLOC)
			c->size_known = okd && oks && !__builtin_mul_overflow(di, si, &c->size);
		return 0;
	}
	/* A return without its entry (recording started inside the call), or
	 * of another function: no size to give the pointer, and the calls in
	 * progress no longer pair up. */
	if (!th->depth || th->st[th->depth - 1].func != f) {
		th->depth = 0;
		return 0;
	}
	c = &th->st[--th->depth];
	if (th->depth || !c->size_known || reg(ev, s, REG_AX, &ax))
		return 0;	/* an inner call: the outer one returns the block */
	if (f == AF_POSIX)	/* 0 and the block stored, or an error number */
		return !ax && c->stored && c->ptr ? add_alloc(a, t, s, c, c->ptr) : 0;
	if (c->old)
		mark_freed(t, s->pid, c->old, s->time);
	return ax ? add_alloc(a, t, s, c, ax) : 0;
}

static int cmp_base(const void *pa, const void *pb)
{
	const struct alloc_ent *x = pa, *y = pb;

	if (x->base != y->base)
		return x->base < y->base ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

int hmi_attr_alloc_at(hm_attr *a, uint64_t addr, hm_alloc_info *out)
{
	struct attr_allocs *t = a->strat.allocs;
	const struct alloc_ent *hit = NULL;
	size_t lo = 0, hi, i;

	memset(out, 0, sizeof(*out));
	if (addr >> 63)		/* a kernel address: the kmem tracepoints' objects */
		return attr_kmem_alloc_at(a, addr, out);
	if (!t || !t->n)
		return -ENOENT;
	if (!t->sorted) {
		qsort(t->v, t->n, sizeof(*t->v), cmp_base);
		t->sorted = 1;
	}
	/* The blocks starting at or below addr, back to max_size below it;
	 * in time order at one base, so the first one found is the oldest. */
	for (hi = t->n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].base <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i-- > 0 && addr - t->v[i].base < t->max_size;) {
		const struct alloc_ent *e = &t->v[i];

		if (addr - e->base >= e->size)
			continue;
		out->nr++;
		if (!hit || e->base < hit->base || (e->base == hit->base && e->time < hit->time)) {
			if (hit && (e->site != hit->site || e->size != hit->size))
				out->ambiguous = 1;
			hit = e;
		} else if (e->site != hit->site || e->size != hit->size) {
			out->ambiguous = 1;
		}
	}
	if (!hit)
		return -ENOENT;
	out->base = hit->base;
	out->size = hit->size;
	out->site = hit->site;
	out->site_bin = hit->bin;
	out->site_link = hit->link;
	out->function = fnames[hit->func];
	out->pid = hit->pid;
	return 0;
}
