/* Verdict scenarios for hitmap report, compiled at test time and recorded
 * with hardware watchpoints (tests/report/verdict.sh).  Each global below is
 * 64-byte aligned, so its fields share one cacheline and no other global
 * shares it.  Two workers start together (a barrier that touches no watched
 * field), where the process may use two CPUs run on different ones, and
 * each works N times and on until the other has too (below, more()).
 *
 *   verdict padded N  each worker increments its own counter, the two
 *                     counters on separate lines: no sharing (private)
 *   verdict one N     one worker increments g_one.count; main reads it once
 *                     at the end; g_one.self points at g_one.count, so in a
 *                     PIE ld.so writes it once at start-up: private
 *   verdict lock N    both workers take g_lock.lock (a fair ticket lock:
 *                     they take turns) and increment g_lock.count under
 *                     it: true sharing of both, separating them removes no
 *                     transfer
 *   verdict fs N      worker 1 increments g_pair.a, worker 2 g_pair.b:
 *                     false sharing
 *   verdict mixed N   as lock on g_mix.lock and g_mix.count, and outside
 *                     the lock worker 1 writes g_mix.x, worker 2 g_mix.y:
 *                     both (true: lock, count; false: x, y)
 *
 *   verdict addrs     prints each field's address ("g_mix.x 0x5555...");
 *                     run under setarch -R, they are those of the runs. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/pin.h"

struct padded {
	long a;
	long b __attribute__((aligned(64)));
};

struct one {
	long *self;
	long count;
};

struct locked {
	uint64_t lock;
	long count;
};

struct pair {
	long a;
	long b;
};

struct mix {
	uint64_t lock;
	long count;
	long x;
	long y;
};

struct padded g_padded __attribute__((aligned(64)));
struct one g_one __attribute__((aligned(64))) = { &g_one.count, 0 };
struct locked g_lock __attribute__((aligned(64)));
struct pair g_pair __attribute__((aligned(64)));
struct mix g_mix __attribute__((aligned(64)));

static long iterations;
static pthread_barrier_t start;

/* A ticket lock: two counters in one word, as the kernel's ticket
 * spinlocks kept them, the next ticket (low half) and the ticket served
 * (high half).  Taking it draws a ticket (one write) and waits, reading,
 * until that ticket is served; releasing serves the next (one write).  It
 * is fair: a worker that releases and comes straight back draws a ticket
 * behind the other's, so the two take turns.  Under a test-and-set lock the
 * releasing worker could take it again while the other waited, and on a
 * slow run one worker did most iterations: the counter was then its own,
 * outside the lock's part.  Waiting yields, the machine may be shared. */
#define TICKET_SERVED (UINT64_C(1) << 32)

static void lock(uint64_t *l)
{
	uint32_t ticket = (uint32_t)__atomic_fetch_add(l, 1, __ATOMIC_ACQUIRE);

	while ((uint32_t)(__atomic_load_n(l, __ATOMIC_ACQUIRE) >> 32) != ticket)
		sched_yield();
}

static void unlock(uint64_t *l)
{
	__atomic_fetch_add(l, TICKET_SERVED, __ATOMIC_RELEASE);
}

/* Each worker's iterations so far, and whether it is done, on lines of
 * their own (not watched). */
static long progress[2][8] __attribute__((aligned(64)));
static int done[2][16] __attribute__((aligned(64)));

/* Whether worker id goes on after i iterations.  It stops once it has seen
 * the other worker progress during N of its own iterations (a loaded
 * machine may run them one after the other: those iterations do not
 * count), when the other is done, or after 50 N. */
static int more(long id, long i, long *seen, long *last)
{
	long other = __atomic_load_n(&progress[!id][0], __ATOMIC_RELAXED);

	__atomic_store_n(&progress[id][0], i, __ATOMIC_RELAXED);
	if (other != *last) {
		*last = other;
		++*seen;
	}
	if (*seen < iterations && i < 50 * iterations &&
	    !__atomic_load_n(&done[!id][0], __ATOMIC_RELAXED))
		return 1;
	__atomic_store_n(&done[id][0], 1, __ATOMIC_RELAXED);
	return 0;
}

#define FOR_EACH_ITERATION(id, i) \
	for (long seen_ = 0, last_ = -1; more(id, i, &seen_, &last_); i++)

static void *padded_worker(void *arg)
{
	long id = (long)arg, i = 0;
	volatile long *mine = id ? &g_padded.b : &g_padded.a;

	FOR_EACH_ITERATION(id, i)
		*mine += 1;
	return NULL;
}

static void *one_worker(void *arg)
{
	volatile long *p = &g_one.count;
	long i;

	if ((long)arg)
		return NULL;	/* the second worker touches nothing */
	for (i = 0; i < iterations; i++)
		*p += 1;
	return NULL;
}

static void *lock_worker(void *arg)
{
	long id = (long)arg, i = 0;

	FOR_EACH_ITERATION(id, i) {
		lock(&g_lock.lock);
		*(volatile long *)&g_lock.count += 1;
		unlock(&g_lock.lock);
	}
	return NULL;
}

static void *pair_worker(void *arg)
{
	long id = (long)arg, i = 0;
	volatile long *mine = id ? &g_pair.b : &g_pair.a;

	FOR_EACH_ITERATION(id, i)
		*mine += 1;
	return NULL;
}

static void *mix_worker(void *arg)
{
	long id = (long)arg, i = 0, j;
	volatile long *mine = id ? &g_mix.y : &g_mix.x;

	FOR_EACH_ITERATION(id, i) {
		lock(&g_mix.lock);
		*(volatile long *)&g_mix.count += 1;
		unlock(&g_mix.lock);
		for (j = 0; j < 2; j++)
			*mine += 1;
	}
	return NULL;
}

struct start_arg {
	void *(*fn)(void *);
	long id;
};

static void *run(void *p)
{
	struct start_arg *s = p;

	pin((int)s->id);
	pthread_barrier_wait(&start);
	return s->fn((void *)s->id);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void *(*fn)(void *);
	} modes[] = { { "padded", padded_worker }, { "one", one_worker },
		      { "lock", lock_worker }, { "fs", pair_worker }, { "mixed", mix_worker } };
	struct start_arg args[2];
	pthread_t t[2];
	size_t m;
	long i;

	if (argc == 2 && !strcmp(argv[1], "addrs")) {
#define P(f) printf("%s %p\n", #f, (void *)&f)
		P(g_padded.a); P(g_padded.b); P(g_one.self); P(g_one.count);
		P(g_lock.lock); P(g_lock.count); P(g_pair.a); P(g_pair.b);
		P(g_mix.lock); P(g_mix.count); P(g_mix.x); P(g_mix.y);
#undef P
		return 0;
	}
	if (argc < 3)
		return 2;
	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++)
		if (!strcmp(argv[1], modes[m].name))
			break;
	if (m == sizeof(modes) / sizeof(modes[0]))
		return 2;
	iterations = atol(argv[2]);
	pthread_barrier_init(&start, NULL, 2);
	for (i = 0; i < 2; i++) {
		args[i] = (struct start_arg){ modes[m].fn, i };
		pthread_create(&t[i], NULL, run, &args[i]);
	}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	/* The one final read of the results. */
	return *(volatile long *)&g_one.count == -1;
}
