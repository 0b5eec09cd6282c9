/* Pointers loaded from memory: a chain through struct fields
 * (w->cur->ctr->hits), a global pointer (g_cfg->scale), a .bss pointer to
 * an array indexed by a register (slots[i].hits), an element of a global
 * pointer array (ptrs[k]->misses).  Every counted field starts a fresh
 * page, so its first access is the page's fault.  Truth: the printout
 * (tests/attr/fixture.h). */
#include "fixture.h"

struct ctr {
	long id;
	long pad[3];
	long hits;
	long misses;
};

struct cur {
	long gen;
	struct ctr *ctr;
	long seq;
};

struct work {
	long flags;
	struct cur *cur;
	long done;
};

struct cfg {
	long version;
	long pad[5];
	long scale;
	long limit;
};

struct slot {
	long key;
	long val;
	long hits;
	long pad;
};

#define ROUNDS 250
#define NPTR 512
#define SLOTS_PER_PAGE (PAGE / sizeof(struct slot))

struct cfg *g_cfg;
struct slot *slots;
struct ctr *ptrs[NPTR];
volatile long sink;

__attribute__((noinline)) static void step(struct work *w)
{
	w->cur->ctr->hits++;
}

__attribute__((noinline)) static long read_scale(void)
{
	return g_cfg->scale;
}

__attribute__((noinline)) static void set_limit(long v)
{
	g_cfg->limit = v;
}

__attribute__((noinline)) static void hit_slot(long i)
{
	slots[i].hits++;
}

__attribute__((noinline)) static void miss(long k)
{
	ptrs[k]->misses++;
}

static void *worker(void *arg)
{
	long me = (long)arg, i;

	for (i = 0; i < ROUNDS; i++) {
		struct work *w = place(sizeof(*w), offsetof(struct work, cur));
		struct cur *c = place(sizeof(*c), offsetof(struct cur, ctr));
		struct ctr *t = place(sizeof(*t), offsetof(struct ctr, hits));
		long k = me * ROUNDS + i;

		print_object("work", w);
		print_object("cur", c);
		print_object("ctr", t);
		w->cur = c;
		c->ctr = t;
		step(w);
		/* slot k's page is fresh: its element in the page at k's place */
		hit_slot(k * SLOTS_PER_PAGE + k % SLOTS_PER_PAGE);
		ptrs[k] = place(sizeof(struct ctr), offsetof(struct ctr, misses));
		print_object("ctr", ptrs[k]);
		miss(k);
	}
	return NULL;
}

int main(void)
{
	long i;

	arena_init(10 * 2 * ROUNDS + 2 * ROUNDS + 3 * ROUNDS + 16);
	FIELD(ctr, id); FIELD(ctr, pad); FIELD(ctr, hits); FIELD(ctr, misses);
	FIELD(cur, gen); FIELD(cur, ctr); FIELD(cur, seq);
	FIELD(work, flags); FIELD(work, cur); FIELD(work, done);
	FIELD(cfg, version); FIELD(cfg, pad); FIELD(cfg, scale); FIELD(cfg, limit);
	FIELD(slot, key); FIELD(slot, val); FIELD(slot, hits); FIELD(slot, pad);
	SIZE(ctr); SIZE(cur); SIZE(work); SIZE(cfg); SIZE(slot);
	slots = (struct slot *)pages(2 * ROUNDS);
	print_array("slot", slots, 2 * ROUNDS * SLOTS_PER_PAGE);
	/* the global pointer, by the main thread before the workers */
	for (i = 0; i < ROUNDS; i++) {
		g_cfg = place(sizeof(struct cfg), offsetof(struct cfg, scale));
		print_object("cfg", g_cfg);
		sink = read_scale();
		set_limit(i);
	}
	run_two(worker);
	return 0;
}
