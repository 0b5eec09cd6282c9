/* Kernel allocations from a recording's kmem tracepoints (`hitmap record
 * --kmem`, `perf kmem record`, `perf record -e kmem:...`): each
 * kmem_cache_alloc or kmalloc gives an object (ptr, bytes_alloc, call_site,
 * and for a cache its name), each kmem_cache_free or kfree of that ptr ends
 * it.  Fields are read by the formats of the file's TRACING_DATA, never by
 * fixed offsets.
 *
 * A kernel data address inside an object live at the sample's time names
 * the object; the cache's name is the type hint: a --type-of-cache given
 * for it, else a struct of the kernel's types spelled as the cache is
 * (task_struct, mm_struct), else the cache's entry in the small table
 * below of caches Linux names otherwise.  The type must exist and fit the
 * object (sizeof <= bytes_req); the field is the one at address − object
 * start.  kmalloc objects, and caches none of these name (every cache on
 * Linux 6.1, whose event has no name), are typed by their call site's
 * variable when the vmlinux has DWARF (see site_variable()), else get no
 * type.
 *
 * Liveness is decided by time, not by file order: perf writes each CPU's
 * buffer in turn, so within a round a sample may come before the
 * allocation of the object it touched, and a free may come after a later
 * sample.  Each object is an interval [alloc time, free time) (no free:
 * open to the end), and a timed sample names the newest object whose
 * interval holds its time.  The run (attribute-run.c) holds timed samples
 * at kernel addresses in its time queue until the round that may still
 * hold their allocations and frees has been read, so by then every kmem
 * event at or before the sample's time is known; events read early (later
 * in time) are told apart by their times.  Untimed samples and events keep
 * file order: an untimed free ends the object at once.
 *
 * Objects are kept by page (a chained hash of 4 KiB pages to the objects
 * overlapping them; objects of more than 16 pages on a list of their own):
 * the stream interleaves allocations and lookups, so no sorted array.  A
 * timed free keeps the object linked until the queue has released every
 * sample before the free's time (attr_kmem_prune(), each round), then
 * unlinks it, so that a slot the kernel reuses a million times stays a few
 * entries.  The objects samples were attributed to are remembered by base
 * for their allocation line. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "attr/attribute-int.h"
#include "base/diag.h"
#include "dwarf/dwarf-scope.h"
#include "perf/perfdata-lib.h"

#define PAGE_SHIFT 12
#define BIG_PAGES 16

/* Caches whose name is not their type's, from the kernel's own
 * kmem_cache_create() calls (Linux 6.x): fs/file_table.c, net/socket.c,
 * kernel/fork.c, kernel/cred.c, fs/inode.c, net/core/skbuff.c,
 * net/ipv4/tcp_ipv4.c and udp.c (the protocols' slab names), fs/ext4,
 * fs/proc, mm/shmem.c.  Anything else needs the exact struct name or
 * --type-of-cache. */
static const struct {
	const char *cache, *type;
} known[] = {
	{ "filp", "file" },
	{ "sock_inode_cache", "socket_alloc" },
	{ "files_cache", "files_struct" },
	{ "fs_cache", "fs_struct" },
	{ "sighand_cache", "sighand_struct" },
	{ "signal_cache", "signal_struct" },
	{ "cred_jar", "cred" },
	{ "inode_cache", "inode" },
	{ "skbuff_head_cache", "sk_buff" },
	{ "skbuff_fclone_cache", "sk_buff_fclones" },
	{ "TCP", "tcp_sock" },
	{ "TCPv6", "tcp6_sock" },
	{ "UDP", "udp_sock" },
	{ "UDPv6", "udp6_sock" },
	{ "ext4_inode_cache", "ext4_inode_info" },
	{ "proc_inode_cache", "proc_inode" },
	{ "shmem_inode_cache", "shmem_inode_info" },
};

enum kev { KEV_NONE, KEV_CACHE_ALLOC, KEV_KMALLOC, KEV_CACHE_FREE, KEV_KFREE };

struct kobj {
	uint64_t base, size, req, site, time, freed_at;
	const char *cache;	/* interned; NULL for kmalloc */
	uint8_t func;		/* enum kev of the allocation */
	unsigned freed : 1, timed : 1;
};

#define NO_OBJ ((size_t)-1)

struct knode {
	uint64_t page;
	size_t obj;		/* NO_OBJ: on the free list */
	size_t next;		/* index + 1; 0 ends the chain (or the free list) */
};

struct knamed {			/* an object a sample was attributed to */
	uint64_t base;
	size_t obj;		/* index + 1; 0 = empty slot */
};

struct ktype {			/* what a cache's name resolved to */
	const char *cache;
	hm_type_id id;
	int from_user;		/* --type-of-cache */
	int done;
};

struct ktype_user {
	const char *cache, *type;
};

struct ksite {			/* what a call site's variable resolved to */
	uint64_t site;		/* runtime address; 0: empty slot */
	hm_type_id id;		/* HM_TYPE_NONE: untyped */
	const char *var;	/* the variable (interned) */
	uint64_t req;		/* the size maybe_outer() was last asked about */
	int outer;		/* and its answer; -1: not asked yet */
};

struct attr_kmem {
	struct kobj *v;
	size_t n, cap;
	struct knode *nodes;
	size_t nn, ncap;
	size_t *heads;		/* by page hash: node index + 1 */
	size_t mask;
	size_t nlive;		/* nodes in chains */
	size_t free_nodes;	/* free list: node index + 1 */
	struct knamed *named;	/* open addressing by base, nmask + 1 slots */
	size_t nnamed, nmask;
	size_t *big;		/* objects of more than BIG_PAGES pages */
	size_t nbig, bigcap;
	size_t *dead;		/* freed by time, still linked: attr_kmem_prune() */
	size_t ndead, deadcap;
	struct ktype *types;
	size_t ntypes, tcap;
	struct ktype_user *user;
	size_t nuser, ucap;
	struct ksite *sites;	/* open addressing by site, smask + 1 slots */
	size_t nsites, smask;
	hm_types *btf;		/* set_kernel_btf: the kernel's types when no vmlinux */
	uint64_t samples;
};

static struct attr_kmem *kmem_of(hm_attr *a)
{
	if (!a->strat.kmem)
		a->strat.kmem = calloc(1, sizeof(*a->strat.kmem));
	return a->strat.kmem;
}

void attr_kmem_free(hm_attr *a)
{
	struct attr_kmem *k = a->strat.kmem;

	if (!k)
		return;
	free(k->v);
	free(k->nodes);
	free(k->heads);
	free(k->named);
	free(k->big);
	free(k->dead);
	free(k->types);
	free(k->user);
	free(k->sites);
	hm_types_free(k->btf);
	free(k);
	a->strat.kmem = NULL;
}

int attr_kmem_event(const hm_perf_event *ev)
{
	static const char *const names[] = {
		[KEV_CACHE_ALLOC] = "kmem_cache_alloc", [KEV_KMALLOC] = "kmalloc",
		[KEV_CACHE_FREE] = "kmem_cache_free", [KEV_KFREE] = "kfree",
	};
	int i;

	if (!ev || ev->type != PERF_TYPE_TRACEPOINT || !ev->tp || !ev->tp->system ||
	    strcmp(ev->tp->system, "kmem"))
		return KEV_NONE;
	for (i = KEV_CACHE_ALLOC; i <= KEV_KFREE; i++)
		if (!strcmp(ev->tp->name, names[i]))
			return i;
	return KEV_NONE;
}

static size_t page_hash(uint64_t page, size_t mask)
{
	return (size_t)((page * 0x9e3779b97f4a7c15ull) >> 17) & mask;
}

static int rehash(struct attr_kmem *k)
{
	size_t slots = k->mask ? 2 * (k->mask + 1) : 1024, i;
	size_t *h = calloc(slots, sizeof(*h));

	if (!h)
		return -ENOMEM;
	free(k->heads);
	k->heads = h;
	k->mask = slots - 1;
	k->free_nodes = 0;
	for (i = 0; i < k->nn; i++) {
		size_t b = page_hash(k->nodes[i].page, k->mask);

		if (k->nodes[i].obj == NO_OBJ) {
			k->nodes[i].next = k->free_nodes;
			k->free_nodes = i + 1;
			continue;
		}
		k->nodes[i].next = h[b];
		h[b] = i + 1;
	}
	return 0;
}

static int add_node(struct attr_kmem *k, uint64_t page, size_t obj)
{
	size_t b, i;

	if (k->free_nodes) {
		i = k->free_nodes - 1;
		k->free_nodes = k->nodes[i].next;
	} else {
		if (hm_grow((void **)&k->nodes, &k->ncap, k->nn + 1, sizeof(*k->nodes)))
			return -ENOMEM;
		i = k->nn++;
	}
	k->nodes[i] = (struct knode){ .page = page, .obj = obj };
	k->nlive++;
	if (k->nlive > 2 * (k->mask + 1) || !k->heads)
		return rehash(k);	/* links the new node too */
	b = page_hash(page, k->mask);
	k->nodes[i].next = k->heads[b];
	k->heads[b] = i + 1;
	return 0;
}

/* Take object obj's nodes out of the chains (it was freed). */
static void unlink_object(struct attr_kmem *k, size_t obj)
{
	const struct kobj *o = &k->v[obj];
	uint64_t first = o->base >> PAGE_SHIFT, last = (o->base + o->size - 1) >> PAGE_SHIFT, p;
	size_t i;

	if (last - first >= BIG_PAGES) {
		for (i = 0; i < k->nbig; i++)
			if (k->big[i] == obj) {
				k->big[i] = k->big[--k->nbig];
				break;
			}
		return;
	}
	for (p = first; p <= last && k->heads; p++) {
		size_t *link = &k->heads[page_hash(p, k->mask)];

		while (*link) {
			struct knode *nd = &k->nodes[*link - 1];
			size_t self = *link;

			if (nd->page == p && nd->obj == obj) {
				*link = nd->next;
				nd->obj = NO_OBJ;
				nd->next = k->free_nodes;
				k->free_nodes = self;
				k->nlive--;
				break;
			}
			link = &nd->next;
		}
	}
}

static int add_object(struct attr_kmem *k, const struct kobj *o)
{
	uint64_t first = o->base >> PAGE_SHIFT, last = (o->base + o->size - 1) >> PAGE_SHIFT, p;
	size_t i = k->n;
	int rc;

	if (hm_grow((void **)&k->v, &k->cap, k->n + 1, sizeof(*k->v)))
		return -ENOMEM;
	k->v[k->n++] = *o;
	if (last - first >= BIG_PAGES) {
		if (hm_grow((void **)&k->big, &k->bigcap, k->nbig + 1, sizeof(*k->big)))
			return -ENOMEM;
		k->big[k->nbig++] = i;
		return 0;
	}
	for (p = first; p <= last; p++)
		if ((rc = add_node(k, p, i)))
			return rc;
	return 0;
}

/* Whether linked object o holds addr at time t (has_t: the sample has a
 * time): allocated at or before t and not freed by then, whatever order
 * the file gives the events in.  A linked freed object was freed by time;
 * an untimed sample sees it gone (file order). */
static int live_at(const struct kobj *o, uint64_t addr, int has_t, uint64_t t)
{
	if (addr - o->base >= o->size)
		return 0;
	if (!has_t || !o->timed)
		return !o->freed;
	return o->time <= t && (!o->freed || t < o->freed_at);
}

/* Whether object i was allocated after object j: by time when both have
 * one, else by the order read. */
static int newer(const struct attr_kmem *k, size_t i, size_t j)
{
	const struct kobj *x = &k->v[i], *y = &k->v[j];

	if (x->timed && y->timed && x->time != y->time)
		return x->time > y->time;
	return i > j;
}

/* The newest object holding addr at t (an older one overlapping it lost
 * its free: the newer could not have been allocated there); its index or
 * NO_OBJ.  open_at: only objects not yet freed whose base is addr (the one
 * a free or a new allocation at addr ends). */
static size_t find_any(const struct attr_kmem *k, uint64_t addr, int has_t, uint64_t t,
		       int open_at)
{
	size_t best = NO_OBJ, j, i, c;

	for (j = k->heads ? k->heads[page_hash(addr >> PAGE_SHIFT, k->mask)] : 0, i = 0;
	     j || i < k->nbig;) {
		if (j) {
			const struct knode *nd = &k->nodes[j - 1];

			j = nd->next;
			if (nd->page != addr >> PAGE_SHIFT)
				continue;
			c = nd->obj;
		} else {
			c = k->big[i++];
		}
		if (open_at ? k->v[c].base != addr || k->v[c].freed ||
				      (has_t && k->v[c].timed && k->v[c].time > t)
			    : !live_at(&k->v[c], addr, has_t, t))
			continue;
		if (best == NO_OBJ || newer(k, c, best))
			best = c;
	}
	return best;
}

static size_t find(const struct attr_kmem *k, uint64_t addr, int has_t, uint64_t t)
{
	return find_any(k, addr, has_t, t, 0);
}

/* End the newest open object at ptr allocated by time t: at t when both
 * have times (linked until attr_kmem_prune(): samples before t may still
 * come), else at once. */
static int end_object(struct attr_kmem *k, uint64_t ptr, uint64_t t, int has_t)
{
	size_t i = find_any(k, ptr, has_t, t, 1);

	if (i == NO_OBJ)
		return 0;
	k->v[i].freed = 1;
	k->v[i].freed_at = has_t ? t : 0;
	if (!has_t || !k->v[i].timed) {
		unlink_object(k, i);
		return 0;
	}
	if (hm_grow((void **)&k->dead, &k->deadcap, k->ndead + 1, sizeof(*k->dead)))
		return -ENOMEM;
	k->dead[k->ndead++] = i;
	return 0;
}

void attr_kmem_prune(hm_attr *a, uint64_t upto)
{
	struct attr_kmem *k = a->strat.kmem;
	size_t i, n = 0;

	if (!k)
		return;
	for (i = 0; i < k->ndead; i++) {
		if (k->v[k->dead[i]].freed_at <= upto)
			unlink_object(k, k->dead[i]);
		else
			k->dead[n++] = k->dead[i];
	}
	k->ndead = n;
}

static size_t named_slot(const struct attr_kmem *k, uint64_t base)
{
	size_t j = page_hash(base, k->nmask);

	while (k->named[j].obj && k->named[j].base != base)
		j = (j + 1) & k->nmask;
	return j;
}

/* Remember that a sample was attributed to object obj. */
static int note_named(struct attr_kmem *k, size_t obj)
{
	size_t j;

	if (!k->named || 4 * (k->nnamed + 1) > 3 * (k->nmask + 1)) {
		size_t slots = k->named ? 2 * (k->nmask + 1) : 256, i;
		struct knamed *old = k->named, *n = calloc(slots, sizeof(*n));
		size_t omask = k->nmask;

		if (!n)
			return -ENOMEM;
		k->named = n;
		k->nmask = slots - 1;
		for (i = 0; old && i <= omask; i++)
			if (old[i].obj)
				k->named[named_slot(k, old[i].base)] = old[i];
		free(old);
	}
	j = named_slot(k, k->v[obj].base);
	if (!k->named[j].obj)
		k->nnamed++;
	k->named[j] = (struct knamed){ .base = k->v[obj].base, .obj = obj + 1 };
	return 0;
}

static int bad(hm_attr *a, const hm_perf_event *ev, const hm_sample *s, const char *what)
{
	return hm_fail(EBADMSG, "%s: %s sample at offset 0x%" PRIx64 ": %s",
		       a->maps.reader ? hmi_perf_reader_name(a->maps.reader) : "perf.data",
		       ev->name ? ev->name : ev->tp->name, s->offset, what);
}

static int field(hm_attr *a, const hm_perf_info *info, const hm_perf_event *ev,
		 const hm_sample *s, const char *name, uint64_t *v)
{
	const hm_perf_tp_field *f = hm_perf_tp_field_find(ev->tp, name);
	char what[160];

	if (!f) {
		snprintf(what, sizeof(what), "its format has no field '%s'", name);
		return bad(a, ev, s, what);
	}
	if (hm_perf_tp_u64(info, s, f, v)) {
		snprintf(what, sizeof(what), "field '%s' (offset %u, size %u) is not in its %u "
			 "bytes of raw data", name, f->offset, f->size,
			 (s->has & HM_HAS_RAW) ? s->raw_size : 0);
		return bad(a, ev, s, what);
	}
	return 0;
}

int attr_kmem_sample(hm_attr *a, const hm_perf_info *info, const hm_perf_event *ev,
		     const hm_sample *s)
{
	struct attr_kmem *k = kmem_of(a);
	int kind = attr_kmem_event(ev), has_t = !!(s->has & HM_HAS_TIME), rc;
	struct kobj o = { 0 };
	uint64_t ptr;

	if (!k)
		return -ENOMEM;
	k->samples++;
	if ((rc = field(a, info, ev, s, "ptr", &ptr)))
		return rc;
	/* A new object or an ended one changes what kernel addresses resolve
	 * to: memoised answers are redone, when there are any. */
	if (a->kern.kaddr_resolved) {
		a->maps.gen++;
		a->kern.kaddr_resolved = 0;
	}
	if (kind == KEV_CACHE_FREE || kind == KEV_KFREE) {
		return ptr ? end_object(k, ptr, s->time, has_t) : 0;
	}
	if ((rc = field(a, info, ev, s, "call_site", &o.site)) ||
	    (rc = field(a, info, ev, s, "bytes_alloc", &o.size)) ||
	    (rc = field(a, info, ev, s, "bytes_req", &o.req)))
		return rc;
	if (kind == KEV_CACHE_ALLOC) {
		const hm_perf_tp_field *f = hm_perf_tp_field_find(ev->tp, "name");
		const char *name;
		size_t len;

		if (f && hm_perf_tp_str(info, s, f, &name, &len))
			return bad(a, ev, s, "its cache name lies outside the raw data");
		if (f && !(o.cache = hm_strtab_intern_n(&a->memo.strs, name, len)))
			return -ENOMEM;
	}
	if (!ptr || !o.size || o.req > o.size || ptr + o.size < ptr)
		return 0;	/* a failed allocation, or nothing to place */
	o.base = ptr;
	o.time = s->time;
	o.timed = has_t;
	o.func = (uint8_t)kind;
	/* An object still open at ptr allocated before this one lost its
	 * free: it ends here. */
	if ((rc = end_object(k, ptr, s->time, has_t)))
		return rc;
	return add_object(k, &o);
}

/* ---- the cache's type ---- */

static const hm_types *kernel_types(hm_attr *a)
{
	if (a->bin.vmlinux && !attr_binent_types(a->bin.vmlinux) && a->bin.vmlinux->types)
		return a->bin.vmlinux->types;
	return a->strat.kmem ? a->strat.kmem->btf : NULL;
}

static hm_type_id struct_named(const hm_types *t, const char *name)
{
	hm_type_id id = hm_types_find_struct(t, name);
	const hm_type *ty = id ? hm_types_get(t, id) : NULL;

	return ty && hm_kind_is_record(ty->kind) && hm_types_sizeof(t, id) ? id : HM_TYPE_NONE;
}

static const struct ktype *cache_type(hm_attr *a, const char *cache)
{
	struct attr_kmem *k = a->strat.kmem;
	const hm_types *t = kernel_types(a);
	struct ktype *kt;
	size_t i;

	for (i = 0; i < k->ntypes; i++)
		if (k->types[i].cache == cache)
			return &k->types[i];
	if (hm_grow((void **)&k->types, &k->tcap, k->ntypes + 1, sizeof(*k->types)))
		return NULL;
	kt = &k->types[k->ntypes++];
	memset(kt, 0, sizeof(*kt));
	kt->cache = cache;
	kt->done = 1;
	if (!t)
		return kt;
	for (i = 0; i < k->nuser; i++)
		if (!strcmp(k->user[i].cache, cache)) {
			kt->id = struct_named(t, k->user[i].type);
			kt->from_user = 1;
			return kt;
		}
	if ((kt->id = struct_named(t, cache)))
		return kt;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i].cache, cache)) {
			kt->id = struct_named(t, known[i].type);
			break;
		}
	return kt;
}

/* ---- the call site's type ----
 *
 * An allocation whose cache names no type (Linux 6.1's kmem_cache_alloc
 * event has no cache name; kmalloc has none) is typed by its caller: the
 * variable that holds the returned pointer at call_site (the return
 * address), as the vmlinux's DWARF locates it there or in a register %rax
 * is copied to in the few instructions after (mm = allocate_mm(): mm in
 * %rax at mm_alloc+0x1b; f = kmem_cache_zalloc(filp_cachep, flags): f in
 * %rbx after mov %rax,%rbx).  Only a pointer to a record whose definition
 * is unique by name and size, and only when every variable found holds
 * that one record type: anything else stays untyped, never guessed. */

/* How far after the call the returned pointer is followed: the copy to a
 * callee-saved register and the NULL test come first. */
#define SITE_INSNS 16

/* x86-64's callee-saved registers (DWARF numbers): rbx, rbp, r12-r15. */
#define CALLEE_SAVED ((1u << 3) | (1u << 6) | (1u << 12) | (1u << 13) | (1u << 14) | (1u << 15))

/* The record the variable holding the pointer returned at link address pc
 * points to: 1 with *id and *var, 0 when none or more than one type is
 * found, or -ENOMEM. */
static int site_variable(hm_attr *a, struct binent *b, uint64_t pc, hm_type_id *id,
			 const char **var)
{
	const char *rec = NULL, *name = NULL;
	uint64_t rsize = 0;
	uint32_t held = 1u << 0;	/* %rax: the return value */
	struct hm_insn in;
	int step, n, i;

	/* a return address: the instruction before it is the call */
	if (hm_insn_prev(b->insn, pc, &in) || in.op != HM_OP_CALL)
		return 0;
	for (step = 0; step < SITE_INSNS && held; step++) {
		const struct hm_scope_var *vars;

		if ((n = hm_scopes_at(b->scopes, pc, &vars)) < 0)
			return n == -ENOMEM ? -ENOMEM : 0;
		for (i = 0; i < n; i++) {
			const struct hm_scope_var *x = &vars[i];

			if (x->kind != HM_VLOC_REG || x->off || x->reg < 0 || x->reg >= HM_REG_IP ||
			    !(held & (1u << x->reg)) || x->ptr_depth != 1 || !x->record)
				continue;
			if (rec && (strcmp(rec, x->record) || rsize != x->record_size))
				return 0;	/* two types for one pointer */
			rec = x->record;
			rsize = x->record_size;
			name = x->name;
		}
		if (rec)
			break;
		if (hm_insn_decode(b->insn, pc, &in) || (in.jump && !in.cond) ||
		    in.op == HM_OP_RET)
			break;
		if (in.op == HM_OP_CALL) {
			held &= CALLEE_SAVED;
		} else {
			int copy = in.op == HM_OP_MOV_RR && in.src >= 0 && in.src < HM_REG_IP &&
				   (held & (1u << in.src)) && in.dst >= 0 && in.dst < HM_REG_IP;

			held &= ~in.regs_written;
			if (copy)
				held |= 1u << in.dst;
		}
		pc += in.len;
	}
	if (!rec || attr_find_record(b, rec, rsize, id) != HM_ATTR_INSN)
		return 0;
	if (!(*var = hm_strtab_intern(&a->memo.strs, name)))
		return -ENOMEM;
	return 1;
}

/* Whether record type id (resolved) is named `name` or holds a record so
 * named at its offset 0, through its first members and union members
 * (depth levels at most). */
static int starts_with(const hm_types *t, hm_type_id id, const char *name, int depth)
{
	const hm_type *ty = hm_types_get(t, hm_types_resolve(t, id));
	const hm_member *m;
	uint32_t i;

	if (!ty || !hm_kind_is_record(ty->kind))
		return 0;
	if (ty->name && !strcmp(ty->name, name))
		return 1;
	if (depth <= 0 || !(m = hm_types_members(t, ty)))
		return 0;
	for (i = 0; i < ty->nr; i++)
		if (!m[i].offset && !m[i].bit_size && starts_with(t, m[i].type, name, depth - 1))
			return 1;
	return 0;
}

/* Whether an object of record id could as well be another record that
 * fits in req bytes and starts with it (struct sock in a tcp_sock; a
 * maple_alloc in the union of a maple_node): the caller's variable then
 * says what the object starts with, not what it is. */
static int maybe_outer(const hm_types *t, hm_type_id id, uint64_t req)
{
	const hm_type *ty = hm_types_get(t, id), *o;
	const hm_type_id *ids;
	size_t n = hm_types_structs(t, &ids), i;
	const hm_member *m;
	uint32_t j;

	for (i = 0; i < n; i++) {
		if (ids[i] == id || !(o = hm_types_get(t, ids[i])) || !o->name ||
		    !strcmp(o->name, ty->name) || !o->nr || hm_types_sizeof(t, ids[i]) > req ||
		    !(m = hm_types_members(t, o)))
			continue;
		for (j = 0; j < o->nr; j++)
			if (!m[j].offset && !m[j].bit_size && starts_with(t, m[j].type, ty->name, 3))
				return 1;
	}
	return 0;
}

static size_t site_slot(const struct attr_kmem *k, uint64_t site)
{
	size_t j = page_hash(site, k->smask);

	while (k->sites[j].site && k->sites[j].site != site)
		j = (j + 1) & k->smask;
	return j;
}

/* The type of the objects allocated at runtime address site, by the
 * caller's variable (once per site): NULL when untyped, or when memory
 * ran out (*err -ENOMEM). */
static struct ksite *site_type(hm_attr *a, uint64_t site, int *err)
{
	struct attr_kmem *k = a->strat.kmem;
	struct binent *b = a->bin.vmlinux;
	struct ksite *ks;
	size_t j;
	int rc;

	*err = 0;
	if (!site || !b || attr_binent_types(b) || !b->types || attr_binent_insn(b) ||
	    attr_binent_scopes(b))
		return NULL;
	if (!k->sites || 4 * (k->nsites + 1) > 3 * (k->smask + 1)) {
		size_t slots = k->sites ? 2 * (k->smask + 1) : 64, i, omask = k->smask;
		struct ksite *old = k->sites, *n = calloc(slots, sizeof(*n));

		if (!n) {
			*err = -ENOMEM;
			return NULL;
		}
		k->sites = n;
		k->smask = slots - 1;
		for (i = 0; old && i <= omask; i++)
			if (old[i].site)
				k->sites[site_slot(k, old[i].site)] = old[i];
		free(old);
	}
	ks = &k->sites[j = site_slot(k, site)];
	if (!ks->site) {
		hm_type_id id = HM_TYPE_NONE;
		const char *var = NULL;

		if ((rc = site_variable(a, b, site - a->kern.kaslr, &id, &var)) < 0) {
			*err = rc;
			return NULL;
		}
		*ks = (struct ksite){ .site = site, .id = rc ? id : HM_TYPE_NONE, .var = var,
				      .outer = -1 };
		k->nsites++;
	}
	return ks->id ? ks : NULL;
}

/* Object o's type by its call site (site_type()), when it fits o: the
 * record must fit what the caller asked for (a cache's object size), and
 * no other record that fits may start with it.  NULL when o is not typed
 * so (*err -ENOMEM when memory ran out). */
static const struct ksite *site_typed(hm_attr *a, const struct kobj *o, int *err)
{
	struct ksite *ks = site_type(a, o->site, err);
	const hm_types *t;

	if (!ks)
		return NULL;
	t = a->bin.vmlinux->types;
	if (hm_types_sizeof(t, ks->id) > o->req)
		return NULL;
	/* a site allocates objects of one size, nearly always: asked once
	 * per site and size (it walks every record of the kernel's) */
	if (ks->outer < 0 || ks->req != o->req) {
		ks->req = o->req;
		ks->outer = maybe_outer(t, ks->id, o->req);
	}
	return ks->outer ? NULL : ks;
}

int attr_kmem_resolve(hm_attr *a, const hm_sample *s, uint64_t addr, hm_attribution *out)
{
	const struct kobj *o;
	size_t i;
	const struct ktype *kt = NULL;
	const struct ksite *ks;
	const hm_types *t;
	const hm_type *ty;
	hm_type_id id;
	char obj[300];
	const char *path;
	uint64_t size, foff, fsize;
	int err;

	if (!a->strat.kmem ||
	    (i = find(a->strat.kmem, addr, !!(s->has & HM_HAS_TIME), s->time)) == NO_OBJ)
		return -ENOENT;
	o = &a->strat.kmem->v[i];
	memset(out, 0, sizeof(*out));
	out->bucket = HM_UNATTR_KMEM_UNTYPED;
	if (o->cache && !(kt = cache_type(a, o->cache)))
		return -ENOMEM;
	if (o->cache && kt->id && (t = kernel_types(a))) {
		id = kt->id;
		size = hm_types_sizeof(t, id);
		/* The struct must fit what the cache hands out (the object
		 * may be larger: task_struct's cache adds the FPU state). */
		if (size > (kt->from_user ? o->size : o->req))
			return 0;
	} else if ((ks = site_typed(a, o, &err))) {
		t = a->bin.vmlinux->types;
		id = ks->id;
		size = hm_types_sizeof(t, id);
	} else {
		return err;
	}
	if (addr - o->base >= size) {
		out->bucket = HM_UNATTR_OFFSET;
		return 0;
	}
	ty = hm_types_get(t, id);
	attr_describe(t, id, addr - o->base, &foff, &fsize, &path, &a->memo.strs);
	snprintf(obj, sizeof(obj), "%s@0x%" PRIx64, ty->name, o->base);
	out->bucket = HM_ATTR_KMEM;
	out->sname = hm_strtab_intern(&a->memo.strs, ty->name);
	out->kind = HM_PROFILE_STRUCT;
	out->ssize = size;
	out->object = hm_strtab_intern(&a->memo.strs, obj);
	out->obj_base = o->base;
	out->path = path;
	out->foff = foff;
	out->fsize = fsize;
	if (!out->sname || !out->object || !out->path || note_named(a->strat.kmem, i))
		return -ENOMEM;
	return 1;
}

int attr_kmem_alloc_at(hm_attr *a, uint64_t addr, hm_alloc_info *out)
{
	struct attr_kmem *k = a->strat.kmem;
	const struct ktype *kt;
	const struct kobj *o;
	size_t i = NO_OBJ, j;
	int err = 0;

	if (!k)
		return -ENOENT;
	/* the object a row was named by (by its base), else a live one */
	if (k->named && k->named[j = named_slot(k, addr)].obj)
		i = k->named[j].obj - 1;
	if (i == NO_OBJ && (i = find(k, addr, 0, 0)) == NO_OBJ)
		return -ENOENT;
	o = &k->v[i];
	memset(out, 0, sizeof(*out));
	out->base = o->base;
	out->size = o->size;
	out->site = o->site;
	if (a->bin.vmlinux) {
		out->site_bin = a->bin.vmlinux;
		out->site_link = o->site - a->kern.kaslr;
	}
	out->function = o->func == KEV_KMALLOC ? "kmalloc" : "kmem_cache_alloc";
	out->cache = o->cache;
	/* typed by its caller's variable: when its cache's name says nothing */
	if (!o->cache || !(kt = cache_type(a, o->cache)) || !kt->id || !kernel_types(a)) {
		const struct ksite *ks = site_typed(a, o, &err);

		if (err)
			return err;
		out->site_var = ks ? ks->var : NULL;
	}
	out->pid = (uint32_t)-1;
	out->nr = 1;
	return 0;
}

/* ---- options ---- */

int hm_attr_set_kernel_btf(hm_attr *a, const char *path)
{
	struct attr_kmem *k = kmem_of(a);
	hm_types *t = NULL;
	int rc;

	if (!k)
		return -ENOMEM;
	rc = hm_types_load_btf_file(path, NULL, &t);
	if (rc)
		return rc;
	hm_types_free(k->btf);
	k->btf = t;
	return 0;
}

int hm_attr_set_cache_type(hm_attr *a, const char *spec)
{
	const char *eq = strchr(spec, '=');
	struct attr_kmem *k = kmem_of(a);
	const hm_types *t;
	const char *type;
	char name[256];
	size_t n;

	if (!k)
		return -ENOMEM;
	if (!eq || eq == spec || !eq[1])
		return hm_fail(EINVAL, "type of cache '%s': not CACHE=TYPE", spec);
	type = eq + 1;
	if (!strncmp(type, "struct ", 7))
		type += 7;
	n = strlen(type);
	if (n >= sizeof(name))
		return hm_fail(EINVAL, "type of cache '%s': type name too long", spec);
	memcpy(name, type, n + 1);
	if (!(t = kernel_types(a)))
		return hm_fail(ENODATA, "type of cache '%s': no kernel types to look %s up in",
			       spec, name);
	if (!struct_named(t, name))
		return hm_fail(ENOENT, "type of cache '%s': the kernel's types have no struct %s",
			       spec, name);
	if (hm_grow((void **)&k->user, &k->ucap, k->nuser + 1, sizeof(*k->user)))
		return -ENOMEM;
	k->user[k->nuser].cache = hm_strtab_intern_n(&a->memo.strs, spec, (size_t)(eq - spec));
	k->user[k->nuser].type = hm_strtab_intern(&a->memo.strs, name);
	if (!k->user[k->nuser].cache || !k->user[k->nuser].type)
		return -ENOMEM;
	k->nuser++;
	k->ntypes = 0;		/* resolved again with it */
	return 0;
}
