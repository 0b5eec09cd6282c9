/* The sample run: a whole perf.data through attribution into heat.  Samples
 * are read in batches and counted through per-run memo tables (a data
 * address, an IP, an address named by its instruction); samples whose time
 * order matters wait in the time queue (attribute-order.c), samples in no
 * known mapping yet wait for the end of their round. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include "attr/attribute-int.h"
#include "attr/attribute-order.h"
#include "base/diag.h"
#include "heat/heat-int.h"

/* Samples are in file order, which perf does not sort: a thread's samples on
 * one CPU's buffer can come before the MMAP records of its process on
 * another's.  A sample whose address is in no known mapping waits for the end
 * of the round (FINISHED_ROUND: everything before it is written) and is
 * resolved again then; so does one named by its instruction (an address in
 * anonymous memory or a stack) whose IP is in no known mapping yet. */
struct pending {
	hm_sample *v;
	size_t n, cap;
};

/* Per-run caches: a data address (per process) seen before goes straight to
 * its bucket and heat row, an IP to its binary; entries made before a record
 * changed the mappings (hm_attr.gen) are resolved again.
 *
 * Data addresses: open addressing with linear probing, sized to the distinct
 * addresses seen (a direct-mapped table thrashes when two hot addresses share
 * a slot, and a large one misses the CPU caches).  It stops growing at
 * FAST_MAX slots and is then emptied and refilled, so memory stays bounded
 * whatever the number of distinct addresses.  It is emptied rather than
 * grown, too, when it filled up with few hits (memo_yields()): where
 * nearly every address is new (a page-fault recording), a larger table
 * would hold megabytes of entries never asked for again. */
#define FAST_MIN 8192
#define FAST_MAX (1u << 17)
/* The by-IP memo's entries are a cacheline, twice an address entry: half
 * the slots bound it to the same 4 MB. */
#define IPX_MAX (FAST_MAX / 2)
#define IP_SLOTS 4096

/* Whether a table of `slots` slots holding n entries is full: at half, so
 * that linear probing stays short (a probe is a cache miss, once the
 * distinct addresses outgrow the CPU caches). */
static int memo_full(size_t n, size_t slots)
{
	return 2 * n > slots;
}

/* Whether a full table of `slots` slots, whose `n` entries were found
 * again `hits` times since it was last grown or emptied, is worth
 * doubling: below MEMO_LEARN slots always (small, and too few entries to
 * judge), else when there was a hit for every MEMO_YIELD entries.
 * Emptied instead, it refills at the same size: a miss costs the lookup
 * the memo saves, no more, while a doubled table costs megabytes. */
#define MEMO_LEARN 8192
#define MEMO_YIELD 4

static int memo_yields(size_t hits, size_t n, size_t slots)
{
	return slots < MEMO_LEARN || hits * MEMO_YIELD >= n;
}

/* A table emptied because it did not pay rests for MEMO_REST times its
 * slots in samples: they are resolved without it, neither probed (a cache
 * miss each) nor kept (a line written each), then it is filled and judged
 * again.  On a page-fault recording, where no address comes twice, the
 * two memos' probes and stores were a tenth of a sample's cost; a
 * recording whose addresses start to repeat loses the memo for that many
 * samples at most. */
#define MEMO_REST 4

/* A memo table's zeroed slots: a large one on huge pages (its probes land
 * anywhere in it), a small one from the heap. */
#define MEMO_HUGE (2u << 20)

static void *memo_alloc(size_t slots, size_t elem)
{
	void *p;

	if (slots * elem >= MEMO_HUGE)
		return hm_huge_alloc(slots * elem);
	p = aligned_alloc(64, slots * elem);
	if (p)
		memset(p, 0, slots * elem);
	return p;
}

static void memo_free(void *p, size_t slots, size_t elem)
{
	if (slots * elem >= MEMO_HUGE)
		hm_huge_free(p, slots * elem);
	else
		free(p);
}

struct fast_ent {
	uint64_t addr;
	uint32_t pid, gen;
	struct heat_row *row;	/* NULL: not counted in heat */
	uint8_t bucket, mapped;
	uint8_t valid;		/* in use when its table's `live` */
	uint8_t by_ip;		/* the address alone names nothing: see struct ipx_ent */
	uint8_t timed;		/* a kmem object by time: resolved again each time */
};

/* Samples whose address the address path leaves unattributed (no map,
 * stack, heap) are named by their instruction, so their memo is keyed by
 * address and IP: open addressing like fast_tab, emptied at IPX_MAX
 * slots.  The entry also keeps what hmi_attr_ip() says of its IP (a
 * function of IP, pid and hm_attr.gen, as the IP cache's entries are): a
 * sample named by its instruction reads one memo line, not two.  One entry
 * is one cacheline. */
struct ipx_ent {
	uint64_t addr, ip;
	uint32_t pid, gen;
	struct heat_row *row;
	const void *ip_bin;
	uint64_t ip_link;
	uint8_t bucket;
	uint8_t valid;		/* in use when its table's `live` */
} __attribute__((aligned(64)));

/* A table is emptied by a new `live` value, not by zeroing it: where
 * nearly every address is new (a page-fault recording), it fills and is
 * emptied every few thousand samples, and zeroing its half megabyte each
 * time was a tenth of the run.  It is zeroed once the 255 values are
 * used up. */
struct ipx_tab {
	struct ipx_ent *v;
	size_t mask, n;
	size_t hits;		/* entries found again since grown or emptied */
	size_t rest;		/* samples left to resolve without it (MEMO_REST) */
	uint32_t epoch;		/* bumped when entries move (grown, emptied) */
	uint8_t live;		/* an entry's `valid` when in use */
};

struct fast_tab {
	struct fast_ent *v;
	size_t mask, n;		/* slots − 1, slots in use */
	size_t hits;		/* entries found again since grown or emptied */
	size_t rest;		/* samples left to resolve without it (MEMO_REST) */
	uint32_t epoch;		/* bumped when entries move (grown, emptied) */
	uint8_t live;		/* an entry's `valid` when in use */
};

/* The next `live` value of a table of `size` bytes at v, zeroed when the
 * values are used up. */
static uint8_t memo_empty(void *v, size_t size, uint8_t live)
{
	if (live < UINT8_MAX)
		return (uint8_t)(live + 1);
	memset(v, 0, size);
	return 1;
}

struct ip_ent {
	uint64_t ip;
	uint32_t pid, gen;
	const void *bin;
	uint64_t link;
	uint8_t valid;
};

#define BATCH 64

struct run {
	hm_attr *a;
	hm_perf_reader *r;
	const hm_perf_info *info;	/* the reader's */
	hm_heat *h;
	hm_report_stats *st;
	struct order ord;
	struct pending later;
	struct fast_tab fast;
	struct ipx_tab ipx;
	struct ip_ent *ips;
	/* The entries of the sample being counted while a memo rests
	 * (MEMO_REST): one sample is attributed and counted at a time. */
	struct fast_ent rest_e;
	struct ipx_ent rest_x;
	/* Samples read, not yet counted, in smp[0 .. nbatch - 1]; the reader
	 * fills them in place (no copy), runs of them at a time. */
	hm_sample smp[BATCH];
	hm_perf_record rec;		/* any other record */
	size_t nr_events;		/* of the file, when `ordered` was set */
	int ordered;			/* some samples may need the time queue */
	int kmem;			/* the file has kmem tracepoints */
	uint64_t addr[BATCH];		/* their data addresses */
	size_t hash[BATCH];		/* fast_hash() of address and pid */
	size_t iph[BATCH];		/* fast_hash() of IP and pid */
	size_t xh[BATCH];		/* ipx_hash() of address, IP and pid */
	struct fast_ent *hint[BATCH];	/* their memo entries, as probed */
	struct ipx_ent *xhint[BATCH];	/* their by-IP entries, as probed */
	struct heat_row *rhint[BATCH];	/* the rows those name */
	size_t nbatch;
};

/* One sample on its way through attribution (sample()): what the batch
 * found of it, then what sample() finds. */
struct sample_ctx {
	const hm_sample *s;
	uint64_t addr;			/* its data address: sample_data_addr() */
	int may_wait;			/* it may wait for the end of its round */
	struct fast_ent *hint;		/* its memo entry as run_batch() probed it, or NULL */
	struct ipx_ent *xhint;		/* its by-IP entry, likewise */
	size_t iph;			/* fast_hash(s->ip, s->pid) */
	size_t xh;			/* ipx_hash(addr, s->ip, s->pid) */
	const hm_perf_event *ev;	/* its event (NULL for a memory sample) */
	int has_ds;			/* a memory sample: data_src names a load or store */
	int is_bp;			/* a watchpoint's */
};

/* Multiplicative (Fibonacci) hashing: it spreads addresses a stride apart
 * (fields, array elements) over the slots more evenly than a random hash,
 * so probes are short.  The pid is spread over the key by a multiply, and
 * the key's high half folded in, since a product's bits depend only on the
 * bits below them. */
static size_t fast_hash(uint64_t addr, uint32_t pid)
{
	uint64_t x = addr ^ (pid * 0x9e3779b97f4a7c15ull);

	x ^= x >> 32;
	return (size_t)((x * 0x9e3779b97f4a7c15ull) >> 32);
}

static int fast_init(struct fast_tab *t, size_t slots)
{
	t->v = memo_alloc(slots, sizeof(*t->v));
	t->mask = slots - 1;
	t->n = 0;
	t->hits = 0;
	t->rest = 0;
	t->live = 1;
	return t->v ? 0 : -ENOMEM;
}

static void fast_clear(struct fast_tab *t)
{
	t->live = memo_empty(t->v, (t->mask + 1) * sizeof(*t->v), t->live);
	t->n = 0;
	t->hits = 0;
	t->epoch++;
}

/* Double the table, or empty it once it has reached FAST_MAX slots or
 * when it did not pay (memo_yields()). */
static int fast_grow(struct fast_tab *t)
{
	struct fast_tab n;
	size_t i, j;

	if (t->mask + 1 >= FAST_MAX || !memo_yields(t->hits, t->n, t->mask + 1)) {
		if (!memo_yields(t->hits, t->n, t->mask + 1))
			t->rest = MEMO_REST * (t->mask + 1);
		fast_clear(t);
		return 0;
	}
	if (fast_init(&n, 2 * (t->mask + 1)))
		return -ENOMEM;
	for (i = 0; i <= t->mask; i++) {
		if (t->v[i].valid != t->live)
			continue;
		for (j = fast_hash(t->v[i].addr, t->v[i].pid) & n.mask; n.v[j].valid == n.live;
		     j = (j + 1) & n.mask)
			;
		n.v[j] = t->v[i];
		n.v[j].valid = n.live;
		n.n++;
	}
	memo_free(t->v, t->mask + 1, sizeof(*t->v));
	n.epoch = t->epoch + 1;
	*t = n;
	return 0;
}

/* The entry of (addr, pid) whose fast_hash() is hash: found (valid set), or
 * a free slot to fill. */
static struct fast_ent *fast_find(struct fast_tab *t, size_t hash, uint64_t addr, uint32_t pid)
{
	size_t j;

	for (j = hash & t->mask; t->v[j].valid == t->live; j = (j + 1) & t->mask)
		if (t->v[j].addr == addr && t->v[j].pid == pid)
			return &t->v[j];
	return &t->v[j];
}

static struct fast_ent *fast_slot(struct fast_tab *t, uint64_t addr, uint32_t pid)
{
	return fast_find(t, fast_hash(addr, pid), addr, pid);
}

/* The binary and link address of c's IP into acc (x: the sample's by-IP
 * entry, or NULL). */
static void sample_ip(struct run *run, const struct sample_ctx *c, const struct ipx_ent *x,
		      hm_heat_access *acc)
{
	const hm_sample *s = c->s;
	hm_attr *a = run->a;
	struct ip_ent *e;

	if (!(s->has & HM_HAS_IP))
		return;
	if (x) {
		acc->ip_bin = x->ip_bin;
		acc->ip_link = x->ip_link;
		return;
	}
	e = &run->ips[c->iph & (IP_SLOTS - 1)];
	if (!(e->valid && e->ip == s->ip && e->pid == s->pid && e->gen == a->maps.gen)) {
		e->valid = 1;
		e->ip = s->ip;
		e->pid = s->pid;
		e->gen = a->maps.gen;
		if (hmi_attr_ip(a, s, &e->bin, &e->link))
			e->bin = NULL, e->link = 0;
	}
	acc->ip_bin = e->bin;
	acc->ip_link = e->link;
}

/* The heat row key of a sample at addr: its field when at names one. */
static void access_of(hm_heat_access *acc, const hm_attribution *at, uint64_t addr)
{
	if (at) {
		acc->sname = at->sname;
		acc->kind = at->kind;
		acc->ssize = at->ssize;
		acc->object = at->object;
		acc->obj_base = at->obj_base;
		acc->path = at->path;
		acc->foff = at->foff;
		acc->fsize = at->fsize;
		acc->strategy = hmi_attr_bucket_name(at->bucket);
	}
	acc->addr = addr;
}

/* Attribute a sample at an address not seen before into its memo entry e:
 * its bucket, and its heat row when it is counted in heat.  Returns 1 when
 * the sample must wait (no mapping yet). */
static int resolve_slow(struct run *run, const struct sample_ctx *c, struct fast_ent *e)
{
	hm_attr *a = run->a;
	const hm_sample *s = c->s;
	uint64_t addr = c->addr;
	int has_data_src = c->has_ds;
	hm_heat_access acc;	/* zeroed only when used: most samples of a
				 * page-fault recording go on by their IP */
	hm_attribution at;
	int r;

	a->memo.answer_timed = 0;
	r = hmi_attr_resolve(a, s, addr, &at);
	if (r < 0)
		return r;
	e->timed = a->memo.answer_timed;
	if (c->may_wait && at.bucket == HM_UNATTR_NO_MAP)
		return 1;
	e->bucket = (uint8_t)at.bucket;
	e->row = NULL;
	e->mapped = has_data_src ? (uint8_t)hmi_attr_mapped(a, s, addr) : 1;
	e->by_ip = 0;
	if (!r && (s->has & HM_HAS_IP) &&
	    (at.bucket == HM_UNATTR_NO_MAP || at.bucket == HM_UNATTR_STACK ||
	     at.bucket == HM_UNATTR_HEAP)) {
		e->by_ip = 1;
	} else if (r || (has_data_src && addr)) {
		memset(&acc, 0, sizeof(acc));
		access_of(&acc, r ? &at : NULL, addr);
		e->row = heat_row_of(run->h, &acc);
		if (!e->row)
			return -ENOMEM;
	}
	e->addr = addr;
	e->pid = s->pid;
	e->gen = a->maps.gen;
	e->valid = run->fast.live;
	return 0;
}

static size_t ipx_hash(uint64_t addr, uint64_t ip, uint32_t pid)
{
	return fast_hash(addr ^ (ip * 0xc2b2ae3d27d4eb4full), pid);
}

static int ipx_init(struct ipx_tab *t, size_t slots)
{
	t->v = memo_alloc(slots, sizeof(*t->v));
	t->mask = slots - 1;
	t->n = 0;
	t->hits = 0;
	t->rest = 0;
	t->live = 1;
	return t->v ? 0 : -ENOMEM;
}

/* The entry of (addr, ip, pid) whose ipx_hash() is hash: found (valid
 * set), or a free slot to fill. */
static struct ipx_ent *ipx_find(struct ipx_tab *t, size_t hash, uint64_t addr, uint64_t ip,
				uint32_t pid)
{
	size_t j;

	for (j = hash & t->mask; t->v[j].valid == t->live; j = (j + 1) & t->mask)
		if (t->v[j].addr == addr && t->v[j].ip == ip && t->v[j].pid == pid)
			return &t->v[j];
	return &t->v[j];
}

/* A free or matching entry for (addr, ip, pid) (hash: their ipx_hash();
 * hint: the entry run_batch() probed, or NULL), the table grown (or, at
 * IPX_MAX slots or when it did not pay, emptied) first when it is half
 * full. */
static struct ipx_ent *ipx_slot(struct ipx_tab *t, size_t hash, uint64_t addr, uint64_t ip,
				uint32_t pid, struct ipx_ent *hint)
{
	struct ipx_ent *x = hint && hint->valid == t->live && hint->addr == addr &&
			    hint->ip == ip && hint->pid == pid ? hint
							       : ipx_find(t, hash, addr, ip, pid);
	struct ipx_tab n;
	size_t i;

	if (x->valid == t->live || !memo_full(t->n + 1, t->mask + 1))
		return x;
	if (t->mask + 1 >= IPX_MAX || !memo_yields(t->hits, t->n, t->mask + 1)) {
		if (!memo_yields(t->hits, t->n, t->mask + 1))
			t->rest = MEMO_REST * (t->mask + 1);
		t->live = memo_empty(t->v, (t->mask + 1) * sizeof(*t->v), t->live);
		t->n = 0;
		t->hits = 0;
		t->epoch++;
		return ipx_find(t, hash, addr, ip, pid);
	}
	if (ipx_init(&n, 2 * (t->mask + 1)))
		return NULL;
	for (i = 0; i <= t->mask; i++)
		if (t->v[i].valid == t->live) {
			const struct ipx_ent *o = &t->v[i];
			struct ipx_ent *d = ipx_find(&n, ipx_hash(o->addr, o->ip, o->pid), o->addr,
						     o->ip, o->pid);

			*d = *o;
			d->valid = n.live;
			n.n++;
		}
	memo_free(t->v, t->mask + 1, sizeof(*t->v));
	n.epoch = t->epoch + 1;
	*t = n;
	return ipx_find(t, hash, addr, ip, pid);
}

/* Attribute a sample by its instruction into its by-IP entry x (e: its
 * address entry, by_ip; trap: the IP is after the access; bin, link: what
 * hmi_attr_ip() says of its IP, bin NULL for nothing). */
static int resolve_ip_slow(struct run *run, const struct sample_ctx *c, int trap,
			   const struct fast_ent *e, struct ipx_ent *x, const void *bin,
			   uint64_t link)
{
	hm_attr *a = run->a;
	const hm_sample *s = c->s;
	uint64_t addr = c->addr;
	int has_data_src = c->has_ds;
	hm_heat_access acc;	/* zeroed when used */
	hm_attribution at = { .bucket = (enum hm_attr_bucket)e->bucket };
	int r;

	r = attr_resolve_insn(a, s, addr, trap, c->is_bp, bin, link, &at);
	if (r < 0)
		return r;
	x->bucket = (uint8_t)at.bucket;
	x->row = NULL;
	if (r || (has_data_src && addr)) {
		memset(&acc, 0, sizeof(acc));
		access_of(&acc, r ? &at : NULL, addr);
		x->row = heat_row_of(run->h, &acc);
		if (!x->row)
			return -ENOMEM;
	}
	/* read only when s has an IP (sample_ip()) */
	x->ip_bin = bin;
	x->ip_link = link;
	x->addr = addr;
	x->ip = s->ip;
	x->pid = s->pid;
	x->gen = a->maps.gen;
	x->valid = run->ipx.live;
	return 0;
}

/* The sample's event, or NULL. */
static const hm_perf_event *sample_event(const hm_perf_info *info, const hm_sample *s)
{
	return s->attr < info->nr_events ? &info->events[s->attr] : NULL;
}

/* The data address of a sample: its ADDR, or a breakpoint's address; 0
 * when it has none.  The one place that decides it: the batch, the samples
 * that waited and the time queue all ask here, before any strategy runs. */
static uint64_t sample_data_addr(const hm_perf_info *info, const hm_sample *s)
{
	const hm_perf_event *ev;

	if ((s->has & HM_HAS_ADDR) && s->addr)
		return s->addr;
	ev = sample_event(info, s);
	if (ev && ev->type == PERF_TYPE_BREAKPOINT)
		return ev->bp_addr;
	return 0;
}

/* s waits for the end of its round (struct pending). */
static int pend(struct run *run, const hm_sample *s)
{
	if (hm_grow((void **)&run->later.v, &run->later.cap, run->later.n + 1,
		    sizeof(*run->later.v)))
		return -ENOMEM;
	run->later.v[run->later.n++] = *s;
	return 0;
}

/* The memo entry of c's data address, resolved again when new (or made
 * before the mappings changed, or timed): 0 and *out, 1 when the sample
 * waits (pended), or a negative errno. */
static int sample_by_addr(struct run *run, const struct sample_ctx *c, struct fast_ent **out)
{
	const hm_sample *s = c->s;
	struct fast_ent *e;
	int r;

	if (run->fast.rest) {	/* resolved as if new, kept nowhere */
		run->fast.rest--;
		e = &run->rest_e;
		r = resolve_slow(run, c, e);
		if (r < 0)
			return r;
		if (r)
			return pend(run, s) ? -ENOMEM : 1;
		*out = e;
		return 0;
	}
	e = c->hint && c->hint->valid == run->fast.live && c->hint->addr == c->addr &&
		    c->hint->pid == s->pid ? c->hint : fast_slot(&run->fast, c->addr, s->pid);
	if (e->valid != run->fast.live || e->gen != run->a->maps.gen || e->timed) {
		int fresh = e->valid != run->fast.live;

		if (fresh && memo_full(run->fast.n + 1, run->fast.mask + 1)) {
			if (fast_grow(&run->fast))
				return -ENOMEM;
			e = fast_slot(&run->fast, c->addr, s->pid);
		}
		r = resolve_slow(run, c, e);
		if (r < 0)
			return r;
		if (fresh && e->valid == run->fast.live)
			run->fast.n++;
		if (r)
			return pend(run, s) ? -ENOMEM : 1;
	} else {
		run->fast.hits++;
	}
	*out = e;
	return 0;
}

/* The by-IP entry of c (its address entry e says by_ip), resolved again
 * when new or made before the mappings changed: 0 and *out, 1 when the
 * sample waits (pended), or a negative errno. */
static int sample_by_ip(struct run *run, const struct sample_ctx *c, const struct fast_ent *e,
			struct ipx_ent **out)
{
	const hm_sample *s = c->s;
	hm_attr *a = run->a;
	struct ipx_ent *x;
	int resting = run->ipx.rest != 0, r;

	if (resting) {		/* resolved as if new, kept nowhere */
		run->ipx.rest--;
		x = &run->rest_x;
	} else {
		x = ipx_slot(&run->ipx, c->xh, c->addr, s->ip, s->pid, c->xhint);
		if (!x)
			return -ENOMEM;
	}
	if (resting || x->valid != run->ipx.live || x->gen != a->maps.gen) {
		const hm_perf_event *sev = sample_event(run->info, s);
		int fresh = !resting && x->valid != run->ipx.live;
		const void *bin = NULL;
		uint64_t link = 0;
		int trap;

		/* The IP's binary, once: the strategy and the entry both
		 * need it. */
		if ((s->has & HM_HAS_IP) && hmi_attr_ip(a, s, &bin, &link))
			bin = NULL, link = 0;
		/* The instruction names the field only once its binary is
		 * mapped: an IP in no known mapping (its MMAP2 on another
		 * CPU's buffer, later in the file) waits like an address.
		 * A user IP in a binary is in a mapping (hmi_attr_ip() found
		 * it there): no second search. */
		if (c->may_wait && !(bin && !attr_is_kernel_addr(s->ip)) &&
		    !hmi_attr_mapped(a, s, s->ip))
			return pend(run, s) ? -ENOMEM : 1;
		/* Which instruction the IP is (SPECS.md): breakpoints trap
		 * after the access, and so does PEBS with precise_ip 1; page
		 * faults, precise_ip >= 2, IBS and SPE give the access
		 * itself. */
		trap = sev && (sev->type == PERF_TYPE_BREAKPOINT ||
			       (sev->precise_ip == 1 && sev->type != PERF_TYPE_SOFTWARE));

		/* An address from registers: the instruction the rule
		 * chose (attribute-regs.c). */
		if (s->regs_rule)
			trap = s->regs_rule == HM_RW_PREV;
		r = resolve_ip_slow(run, c, trap, e, x, bin, link);
		if (r < 0)
			return r;
		run->ipx.n += fresh;
	} else {
		run->ipx.hits++;
	}
	*out = x;
	return 0;
}

/* Count c in the run's statistics and, when it has a heat row, in heat
 * (e, x: its memo entries; x NULL unless named by its instruction). */
static int sample_count(struct run *run, const struct sample_ctx *c, const struct fast_ent *e,
			const struct ipx_ent *x)
{
	const hm_sample *s = c->s;
	hm_report_stats *st = run->st;
	uint8_t bucket = x ? x->bucket : e->bucket;
	struct heat_row *row = x ? x->row : e->row;
	hm_heat_access acc;	/* heat_count() reads only what is set below */

	st->samples++;
	st->buckets[bucket]++;
	if (c->has_ds)
		st->datasrc_samples++;
	else if (c->is_bp)
		st->watch_samples++;
	else
		st->addr_samples++;
	st->regs_samples += s->regs_rule != 0;
	/* Every CPU's samples: what a line's share of them is measured by. */
	if ((s->has & HM_HAS_CPU) && heat_cpu_sample(run->h, s->cpu))
		return -ENOMEM;
	if (!row)
		return 0;
	acc.addr = c->addr;
	acc.ip = s->ip;
	acc.ip_bin = NULL;
	acc.ip_link = 0;
	sample_ip(run, c, x, &acc);
	acc.time = s->time;
	acc.data_src = s->data_src;
	acc.tid = s->tid;
	if (s->has & HM_HAS_CPU) {
		acc.cpu = s->cpu;
	} else {
		acc.cpu = s->tid;
		st->cpu_from_tid = 1;
	}
	/* The flags in one go (bit-fields: one store, not four). */
	acc.has_data_src = c->has_ds;
	acc.bp_w = c->is_bp && c->ev->bp_type == HW_BREAKPOINT_W;
	acc.bp_rw = c->is_bp && c->ev->bp_type != HW_BREAKPOINT_W;
	acc.mapped = e->mapped;
	acc.regs = s->regs_rule != 0;
	acc.regs_w = (s->regs_access & HM_ACC_WRITE) != 0;
	return heat_count(run->h, row, &acc);
}

/* Attribute one sample and count it: the address path first (its memo by
 * data address), then, when the address alone names nothing, its
 * instruction (the memo by address and IP). */
static int sample(struct run *run, struct sample_ctx *c)
{
	const hm_sample *s = c->s;
	struct fast_ent *e;
	struct ipx_ent *x = NULL;
	int r;

	/* perf record -d asks for DATA_SRC on any event; only samples whose
	 * data_src names a load or a store are memory samples, and only the
	 * others need their event (watchpoints). */
	c->has_ds = (s->has & HM_HAS_DATA_SRC) &&
		    (s->data_src & (PERF_MEM_OP_LOAD | PERF_MEM_OP_STORE));
	c->ev = c->has_ds ? NULL : sample_event(run->info, s);
	c->is_bp = c->ev && c->ev->type == PERF_TYPE_BREAKPOINT;

	/* Allocator calls are not accesses: they go to the allocation table. */
	if (c->ev && !c->is_bp && attr_alloc_event(c->ev))
		return attr_alloc_sample(run->a, c->ev, s);
	if (c->ev && c->ev->tp && attr_kmem_event(c->ev))
		return attr_kmem_sample(run->a, run->info, c->ev, s);
	/* Registers whose IP is not mapped yet wait like an address. */
	if (!c->addr && c->may_wait && attr_regs_waits(run->a, s))
		return pend(run, s);
	/* Registers that gave no address: the reason's bucket. */
	if (!c->addr && s->regs_rule > HM_RW_AT_IP) {
		run->st->samples++;
		run->st->buckets[attr_regs_bucket(s->regs_rule)]++;
		return (s->has & HM_HAS_CPU) ? heat_cpu_sample(run->h, s->cpu) : 0;
	}

	r = sample_by_addr(run, c, &e);
	if (r)
		return r < 0 ? r : 0;
	if (e->by_ip) {
		r = sample_by_ip(run, c, e, &x);
		if (r)
			return r < 0 ? r : 0;
	}
	return sample_count(run, c, e, x);
}

/* Samples are counted in batches: memory latency, not arithmetic, bounds
 * the per-sample cost (one memo entry and one heat row per sample, spread
 * over tables larger than the CPU caches).  As the batch is read, each
 * sample's memo slot is prefetched; when it is full, every sample is probed
 * (the slots have arrived by then) and the heat row it names prefetched;
 * then the batch is counted in file order — the same order and result as
 * one at a time.  Nothing changes the memo between reading and counting a
 * batch. */
static void batch_probe(struct run *run, size_t i)
{
	const hm_sample *s = &run->smp[i];
	struct fast_ent *e;
	struct ipx_ent *x = NULL;
	struct heat_row *row;

	if (run->fast.rest) {	/* resolved without the memo: nothing to ask */
		run->hint[i] = NULL;
		run->xhint[i] = NULL;
		run->rhint[i] = NULL;
		return;
	}
	e = fast_find(&run->fast, run->hash[i], run->addr[i], s->pid);
	row = e->valid == run->fast.live ? e->row : NULL;
	if (e->valid == run->fast.live && e->by_ip) {
		x = ipx_find(&run->ipx, run->xh[i], run->addr[i], s->ip, s->pid);
		row = x->valid == run->ipx.live ? x->row : NULL;
	}
	run->hint[i] = e;
	run->xhint[i] = x;
	run->rhint[i] = row;
	if (row && heat_row_compact(row)) {
		/* a line kept as counts only: its record, untagged */
		__builtin_prefetch((const char *)((uintptr_t)row & ~(uintptr_t)1));
	} else if (row) {	/* likely the sample's row: only a hint */
		const char *p = (const char *)row;

		__builtin_prefetch(p);
		__builtin_prefetch(p + 64);
		__builtin_prefetch(p + 128);
		__builtin_prefetch(p + 192);
		__builtin_prefetch(&row->acts);
	}
}

/* The actor array of a probed row: once every row of the batch is asked
 * for, the first has arrived, the arrays they point to have not. */
static void batch_prefetch_actors(const struct run *run, size_t i)
{
	const struct heat_row *row = run->rhint[i];

	/* an actor may straddle two lines; a compact line has none */
	if (row && !heat_row_compact(row) && row->acts.v) {
		const struct heat_actor *x = &row->acts.v[row->acts.last];

		__builtin_prefetch(x);
		__builtin_prefetch((const char *)(x + 1) - 1);
	}
}

/* The sample just read into smp[nbatch] joins the batch. */
static void batch_add(struct run *run)
{
	size_t i = run->nbatch++;
	const hm_sample *s = &run->smp[i];

	run->addr[i] = sample_data_addr(run->info, s);
	run->hash[i] = fast_hash(run->addr[i], s->pid);
	if (!run->fast.rest)
		__builtin_prefetch(&run->fast.v[run->hash[i] & run->fast.mask]);
	run->iph[i] = fast_hash(s->ip, s->pid);
	__builtin_prefetch(&run->ips[run->iph[i] & (IP_SLOTS - 1)]);
	run->xh[i] = ipx_hash(run->addr[i], s->ip, s->pid);
	if (run->ipx.n && !run->ipx.rest)
		__builtin_prefetch(&run->ipx.v[run->xh[i] & run->ipx.mask]);
}

static int run_batch(struct run *run)
{
	size_t i, n = run->nbatch;
	uint32_t epoch = run->fast.epoch, xepoch = run->ipx.epoch;
	int err = 0;

	run->nbatch = 0;
	for (i = 0; i < n; i++)
		batch_probe(run, i);
	for (i = 0; i < n; i++)
		batch_prefetch_actors(run, i);
	/* A grown memo moved its entries: the probes are stale. */
	for (i = 0; i < n && !err; i++) {
		struct sample_ctx c = {
			.s = &run->smp[i],
			.addr = run->addr[i],
			.may_wait = 1,
			.hint = run->fast.epoch == epoch ? run->hint[i] : NULL,
			.xhint = run->ipx.epoch == xepoch ? run->xhint[i] : NULL,
			.iph = run->iph[i],
			.xh = run->xh[i],
		};

		err = sample(run, &c);
	}
	return err;
}

/* The samples that waited for the end of the round are attributed again,
 * and may not wait twice. */
static int flush_pending(struct run *run)
{
	size_t i, n = run->later.n;
	int err = 0;

	run->later.n = 0;
	for (i = 0; i < n && !err; i++) {
		hm_sample *s = &run->later.v[i];
		struct sample_ctx c = { .s = s };

		/* Registers that waited for their IP's mapping: their
		 * address now (attribute-regs.c). */
		if (!s->regs_rule && (s->nr_regs_user || s->nr_regs_intr) &&
		    (err = attr_regs_addr(run->a, run->info, s)))
			break;
		c.addr = sample_data_addr(run->info, s);
		c.iph = fast_hash(s->ip, s->pid);
		c.xh = ipx_hash(c.addr, s->ip, s->pid);
		err = sample(run, &c);
	}
	return err;
}

#define PERF_RECORD_FINISHED_ROUND_ 68

/* Count the first m samples of the sorted queue, keep the rest. */
static int order_emit(struct run *run, size_t m)
{
	struct order *q = &run->ord;
	size_t i;
	int err = 0;

	for (i = 0; i < m && !err; i++) {
		run->smp[run->nbatch] = *attr_order_nth(q, i);
		batch_add(run);
		if (run->nbatch == BATCH)
			err = run_batch(run);
	}
	if (!err)
		err = run_batch(run);
	if (err)
		return err;
	attr_order_drop(q, m);
	return 0;
}

/* The queue's samples up to time `upto` leave, in time order. */
static int order_flush(struct run *run, uint64_t upto)
{
	attr_order_sort(&run->ord);
	return order_emit(run, attr_order_upto(&run->ord, upto));
}

static int order_sample(struct run *run, const hm_sample *s)
{
	struct order *q = &run->ord;
	int err;

	/* s may point into run->smp, which order_emit() fills: push first. */
	err = attr_order_push(q, s);
	if (err || !attr_order_full(q))
		return err;
	attr_order_sort(q);
	return order_emit(run, q->n / 2);
}

/* A record that is not a sample: rounds release queued samples, the rest
 * take effect at once. */
static int run_record(struct run *run, const hm_perf_record *rec)
{
	int err;

	if (rec->kind == HM_PERF_LOST) {
		run->st->lost += rec->u.lost;
		return 0;
	}
	if (rec->type != PERF_RECORD_FINISHED_ROUND_)
		return hmi_attr_record(run->a, rec);
	err = order_flush(run, run->ord.limit);
	if (!err && run->kmem)
		attr_kmem_prune(run->a, run->ord.limit);
	run->ord.limit = run->ord.max_time;
	run->ord.rounds = 1;
	return err ? err : flush_pending(run);
}

/* Only watchpoint accesses feed an order-dependent model (line transfers,
 * heat.h), and kernel addresses of a file with kmem events name the slab
 * object live at the sample's time, which needs every allocation and free
 * up to that time read first (attribute-kmem.c): a round later, by the
 * queue.  Other samples count the same in any order, so they skip the
 * queue and its copies. */
static int needs_order(const struct run *run, const hm_sample *s)
{
	const hm_perf_info *info = run->info;

	if (!(s->has & HM_HAS_TIME) || s->attr >= info->nr_events)
		return 0;
	if (info->events[s->attr].type == PERF_TYPE_BREAKPOINT)
		return 1;
	return run->kmem && attr_is_kernel_addr(sample_data_addr(info, s));
}

/* Whether samples of the file may need the time queue: then they are read
 * one at a time, since the queue releases samples into smp[]. */
static int run_ordered(struct run *run)
{
	const hm_perf_info *info = run->info;
	size_t i;

	if (run->nr_events != info->nr_events) {
		run->nr_events = info->nr_events;
		run->ordered = run->kmem = 0;
		for (i = 0; i < info->nr_events; i++) {
			if (info->events[i].type == PERF_TYPE_BREAKPOINT)
				run->ordered = 1;
			if (attr_kmem_event(&info->events[i]))
				run->ordered = run->kmem = 1;
		}
	}
	return run->ordered;
}

/* A sample in smp[nbatch]: into the time queue, or into the batch. */
static int run_sample(struct run *run)
{
	const hm_perf_info *info = run->info;
	const hm_sample *s = &run->smp[run->nbatch];
	const hm_perf_event *ev = s->attr < info->nr_events ? &info->events[s->attr] : NULL;

	/* An allocation's raw record and registers point into the reader,
	 * valid only until the next read: taken now, after the samples
	 * before it. */
	if (ev && (attr_kmem_event(ev) || attr_alloc_event(ev))) {
		hm_sample now = *s;
		int err = run_batch(run);

		if (err)
			return err;
		return attr_kmem_event(ev) ? attr_kmem_sample(run->a, info, ev, &now)
					   : attr_alloc_sample(run->a, ev, &now);
	}
	/* Registers and no data address: the address they give, now, while
	 * the registers are the reader's (attribute-regs.c). */
	if (s->nr_regs_user || s->nr_regs_intr) {
		int err = attr_regs_addr(run->a, info, &run->smp[run->nbatch]);

		if (err)
			return err;
	}
	if (needs_order(run, &run->smp[run->nbatch]))
		return order_sample(run, &run->smp[run->nbatch]);
	/* File order, counted in place (no copy). */
	batch_add(run);
	return run->nbatch == BATCH ? run_batch(run) : 0;
}

static int run_loop(struct run *run)
{
	hm_perf_reader *r = run->r;
	hm_report_stats *st = run->st;
	hm_perf_record *rec = &run->rec;
	int rc, err, ordered;
	size_t k;

	for (;;) {
		ordered = run_ordered(run);
		k = hm_perf_reader_next_samples(r, &run->smp[run->nbatch],
						ordered ? 1 : BATCH - run->nbatch);
		st->records += k;
		if (k && ordered) {
			err = run_sample(run);
		} else if (k) {
			/* No sample of the file waits in the queue: the whole
			 * run joins the batch. */
			while (k--)
				batch_add(run);
			err = run->nbatch == BATCH ? run_batch(run) : 0;
		} else {
			rc = hm_perf_reader_next(r, rec);
			if (rc <= 0)
				return rc;
			st->records++;
			if (rec->kind == HM_PERF_SAMPLE) {
				run->smp[run->nbatch] = rec->u.sample;
				err = run_sample(run);
			} else {
				/* Untimed samples before the record are counted
				 * first. */
				err = run_batch(run);
				if (!err)
					err = run_record(run, rec);
			}
		}
		if (err)
			return err;
	}
}

int hm_attr_run(hm_attr *a, hm_perf_reader *r, hm_heat *h, hm_report_stats *st)
{
	struct run run = { .a = a, .r = r, .info = hm_perf_reader_info(r), .h = h, .st = st,
			   .ips = calloc(IP_SLOTS, sizeof(*run.ips)) };
	int err = 0;

	memset(st, 0, sizeof(*st));
	if ((err = attr_kcore_check(a))) {
		free(run.ips);
		return err;
	}
	a->maps.reader = r;
	if (fast_init(&run.fast, FAST_MIN) || ipx_init(&run.ipx, 256) || !run.ips)
		err = -ENOMEM;
	heat_watch_events(h, hm_perf_reader_info(r));
	/* Object names are a's (interned in a->memo.strs, or an instance's
	 * own), which the caller frees after h (the rows lifted to a
	 * container name a's strings too): h keeps them as they are. */
	heat_borrow_objects(h);
	/* After a read error the run fails: the samples still waiting are not
	 * counted, so no note about them follows the error line. */
	if (!err)
		err = run_loop(&run);
	if (!err)
		err = run_batch(&run);
	if (!err)
		err = order_flush(&run, UINT64_MAX);
	if (!err)
		err = flush_pending(&run);
	attr_prefetch_stop(a);
	if (!err && run.ord.late)
		hm_diag(HM_DIAG_DEBUG, "perf.data: %" PRIu64 " samples came after later ones "
			"were counted: their time order is not guaranteed", run.ord.late);
	attr_order_free(&run.ord);
	free(run.later.v);
	if (run.fast.v)
		memo_free(run.fast.v, run.fast.mask + 1, sizeof(*run.fast.v));
	if (run.ipx.v)
		memo_free(run.ipx.v, run.ipx.mask + 1, sizeof(*run.ipx.v));
	free(run.ips);
	a->maps.reader = NULL;	/* the caller closes it */
	heat_watch_events(h, NULL);
	if (!err)
		err = attr_lift_containers(a, h);
	if (err)
		return err;
	err = hm_heat_finish(h);
	st->assumed_writes = h->assumed_writes;
	return err;
}

const char *hm_report_kind(const hm_report_stats *st)
{
	if (st->datasrc_samples)
		return "hitm";
	if (st->watch_samples)
		return "watch";
	/* Addresses computed from timer samples' registers: a subset of
	 * the accesses, with time, judged by their own rule (heat-verdict.c). */
	if (st->regs_samples)
		return "regs";
	return "addr";
}
