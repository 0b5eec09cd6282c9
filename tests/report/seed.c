/* Seed scenarios for hitmap report, compiled at test time.
 *
 *   seed false N   two threads, pinned to CPUs 0 and 1, in lock step (below),
 *                  each increment their own counter of one global struct
 *                  (g_stats.hits, g_stats.misses): two fields of one
 *                  cacheline written from two CPUs — false sharing.
 *                  g_stats.limit is only read.
 *   seed true N    two threads, in lock step, take and release one global lock
 *                  (blocked_lock_lock, alone on its line): one field written
 *                  from two CPUs — true sharing.
 *   seed touch     writes g_big.a, g_big.b and g_big.c once each; g_big is
 *                  page-aligned and they lie 8200 bytes apart, on three pages
 *                  nothing else touches, so each write faults exactly once.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

struct stats {
	long hits;
	long misses;
	long limit;
};

struct stats g_stats = { .limit = 1 };

typedef struct {
	volatile int locked;
} spinlock_t;

spinlock_t blocked_lock_lock __attribute__((aligned(64)));
long g_locked_work __attribute__((aligned(64)));

struct big {
	long a;
	char pad0[8192];
	long b;
	char pad1[8192];
	long c;
};

struct big g_big __attribute__((aligned(4096)));

static long iterations;

/* Each worker's iterations so far, on lines of their own that no test
 * watches.  The workers go in lock step (neither more than one iteration
 * ahead), so their accesses interleave however a loaded machine schedules
 * them, and every count stays exact. */
static long progress[2][8] __attribute__((aligned(64)));

static void step(long id, long i)
{
	while (__atomic_load_n(&progress[!id][0], __ATOMIC_ACQUIRE) < i - 1)
		sched_yield();
}

static void stepped(long id, long i)
{
	__atomic_store_n(&progress[id][0], i, __ATOMIC_RELEASE);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *false_worker(void *arg)
{
	long id = (long)arg, i;
	volatile long *mine = id ? &g_stats.misses : &g_stats.hits;

	pin((int)id);
	for (i = 0; i < iterations; i++) {
		step(id, i);
		*mine += *(volatile long *)&g_stats.limit;
		stepped(id, i + 1);
	}
	return NULL;
}

static void *true_worker(void *arg)
{
	long id = (long)arg, i;

	pin((int)id);
	for (i = 0; i < iterations; i++) {
		step(id, i);
		while (__atomic_exchange_n(&blocked_lock_lock.locked, 1, __ATOMIC_ACQUIRE))
			;
		g_locked_work++;
		__atomic_store_n(&blocked_lock_lock.locked, 0, __ATOMIC_RELEASE);
		stepped(id, i + 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*fn)(void *) = NULL;
	pthread_t t[2];
	long i;

	if (argc > 1 && !strcmp(argv[1], "touch")) {
		((volatile struct big *)&g_big)->a = 1;
		((volatile struct big *)&g_big)->b = 2;
		((volatile struct big *)&g_big)->c = 3;
		return 0;
	}
	if (argc < 3)
		return 2;
	fn = !strcmp(argv[1], "false") ? false_worker : true_worker;
	iterations = atol(argv[2]);
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, fn, (void *)i);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
