/* The address path: a data address → an explicit object, a kernel module,
 * a kmem object, the kernel image or a process's mapped binary (load bias,
 * KASLR) → the global variable there (DWARF) → its field; one shared,
 * interned copy of each attribution, cached by (binary, link address). */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "attr/attribute-int.h"
#include "base/diag.h"

static void resolve_link(hm_attr *a, struct binent *b, uint64_t x, struct cached *c)
{
	const struct var_ref *v;
	unsigned long said;

	if (b->status == BIN_MISMATCH) {
		c->bucket = HM_UNATTR_BUILD_ID;
		return;
	}
	if (b->status != BIN_OK) {
		c->bucket = HM_UNATTR_NO_BINARY;
		return;
	}
	/* an earlier run's answer: no types loaded for it */
	if (attr_answers_link(a, b, x, c))
		return;
	said = hm_diag_said();
	if (attr_binent_types(b)) {
		if (!b->warned_types) {
			b->warned_types = 1;
			hm_diag(HM_DIAG_NOTE, "%s: no debug info: its samples are "
				"unattributed", b->path);
		}
		c->bucket = hm_binary_object_at(b->bin, x) ? HM_UNATTR_NO_TYPE : HM_UNATTR_NO_SYMBOL;
		return;
	}
	v = attr_var_at(b, x);
	if (!v)
		c->bucket = hm_binary_object_at(b->bin, x) ? HM_UNATTR_NO_TYPE : HM_UNATTR_NO_SYMBOL;
	else
		attr_describe_var(a, b, v->var, x, c);
	if (hm_diag_said() == said)
		attr_answers_note_link(a, b, x, c);
}

static uint64_t rec_hash(const struct cached *c)
{
	return hm_hash_u64(c->obj_base * 31 + c->foff * 7 + (uintptr_t)c->path + c->bucket +
			   (uintptr_t)c->bin);
}

static int rec_same(const struct cached *x, const struct cached *y)
{
	return x->bucket == y->bucket && x->bin == y->bin && x->obj_base == y->obj_base &&
	       x->foff == y->foff && x->fsize == y->fsize && x->path == y->path &&
	       x->object == y->object && x->sname == y->sname && x->kind == y->kind &&
	       x->ssize == y->ssize;
}

static int recs_grow(hm_attr *a)
{
	size_t n = a->memo.nrecs_slots ? a->memo.nrecs_slots * 2 : 1024, i, j;
	const struct cached **t = calloc(n, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (i = 0; i < a->memo.nrecs_slots; i++) {
		if (!a->memo.recs[i])
			continue;
		for (j = rec_hash(a->memo.recs[i]) & (n - 1); t[j]; j = (j + 1) & (n - 1))
			;
		t[j] = a->memo.recs[i];
	}
	free(a->memo.recs);
	a->memo.recs = t;
	a->memo.nrecs_slots = n;
	return 0;
}

/* One shared copy of each distinct attribution. */
static const struct cached *rec_intern(hm_attr *a, const struct cached *c)
{
	struct cached *n;
	size_t j;

	if (2 * (a->memo.nrecs + 1) > a->memo.nrecs_slots && recs_grow(a))
		return NULL;
	for (j = rec_hash(c) & (a->memo.nrecs_slots - 1); a->memo.recs[j];
	     j = (j + 1) & (a->memo.nrecs_slots - 1))
		if (rec_same(a->memo.recs[j], c))
			return a->memo.recs[j];
	n = hm_arena_alloc(&a->memo.rec_arena, sizeof(*n));
	if (!n)
		return NULL;
	*n = *c;
	a->memo.recs[j] = n;
	a->memo.nrecs++;
	return n;
}

static const struct cached oom_rec = { .bucket = HM_NR_BUCKETS };

/* Cached attribution of (binary, link address). */
static const struct cached *lookup_link(hm_attr *a, struct binent *b, uint64_t x)
{
	size_t slot = hm_hash_u64(x ^ (uintptr_t)b) & (ATTR_CACHE - 1);
	struct cache_slot *cs = &a->memo.cache[slot];
	struct cached c = { 0 };

	if (cs->rec && cs->bin == b && cs->link == x)
		return cs->rec;
	resolve_link(a, b, x, &c);
	c.bin = b;	/* records are per binary; the address is not part of them */
	cs->rec = rec_intern(a, &c);
	if (!cs->rec)
		return &oom_rec;
	cs->bin = b;
	cs->link = x;
	return cs->rec;
}

/* Whether link address x is in the kernel image: its segments at kernel
 * addresses.  The per-CPU segment is linked at 0 (offsets from %gs), so the
 * image's lowest to highest address would cover the direct map, vmalloc and
 * every slab object. */
static int in_kernel_image(const struct binent *b, uint64_t x)
{
	size_t i;

	for (i = 0; i < b->nloads; i++)
		if (attr_is_kernel_addr(b->loads[i].vaddr) && x - b->loads[i].vaddr < b->loads[i].memsz)
			return 1;
	return 0;
}

int hmi_attr_resolve(hm_attr *a, const hm_sample *s, uint64_t addr, hm_attribution *out)
{
	const struct xobject *o;
	const struct kmod *k;
	const struct image *im;
	struct proc *p;

	memset(out, 0, sizeof(*out));
	if (!addr) {
		out->bucket = HM_UNATTR_NO_ADDR;
		return 0;
	}
	if ((o = attr_object_at(a, addr)))
		return attr_object_resolve(a, o, addr, out);
	if (attr_is_kernel_addr(addr) && (k = attr_kmod_at(a, addr)))
		return attr_cached_fill(lookup_link(a, k->b, addr - k->start), k->start, out);
	if (attr_is_kernel_addr(addr))
		a->kern.kaddr_resolved = 1;
	if (attr_is_kernel_addr(addr) && a->strat.kmem &&
	    (!a->bin.vmlinux || !in_kernel_image(a->bin.vmlinux, addr - a->kern.kaslr))) {
		int r;

		if (s->has & HM_HAS_TIME)
			a->memo.answer_timed = 1;
		r = attr_kmem_resolve(a, s, addr, out);

		if (r != -ENOENT)
			return r;
	}
	if (attr_is_kernel_addr(addr)) {
		if (!a->bin.vmlinux) {
			out->bucket = HM_UNATTR_KERNEL_NO_VMLINUX;
			return 0;
		}
		if (!a->kern.kaslr_known && !a->kern.warned_kaslr) {
			a->kern.warned_kaslr = 1;
			hm_diag(HM_DIAG_WARNING, "%s: no kernel map in the recording: assuming "
				"no KASLR offset", a->bin.vmlinux->path);
		}
		if (!in_kernel_image(a->bin.vmlinux, addr - a->kern.kaslr)) {
			out->bucket = HM_UNATTR_HEAP;
			return 0;
		}
		return attr_cached_fill(lookup_link(a, a->bin.vmlinux, addr - a->kern.kaslr),
					a->kern.kaslr, out);
	}
	p = attr_proc(a, s->pid, 0);
	im = p ? proc_image_at(p, addr, s->has & HM_HAS_TIME ? s->time : UINT64_MAX) : NULL;
	if (im)
		return attr_cached_fill(lookup_link(a, im->bin, addr - im->bias), im->bias, out);
	out->bucket = p ? proc_anon_bucket(p, addr) : HM_UNATTR_NO_MAP;
	return 0;
}
