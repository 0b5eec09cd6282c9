/* Two threads, each incrementing its own counter — but both counters share a
 * cacheline, so every increment steals the line from the other core.
 * Build: gcc -g -O2 -pthread counters.c -o counters  (-DPADDED separates them) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef PADDED
#define LINE_ALIGNED __attribute__((aligned(64)))
#else
#define LINE_ALIGNED
#endif

struct counters {
	unsigned long hits;		/* written by thread 0 */
	unsigned long misses LINE_ALIGNED;	/* written by thread 1 */
	const char *name;		/* read-mostly */
	int shift;			/* read-mostly */
};

struct counters g_counters = { .name = "demo", .shift = 1 };

static volatile unsigned long iterations = 100000000UL;
/* both threads start counting together, so they really do run at once */
static pthread_barrier_t start;

/* Run on the nth CPU the process may use: two threads on one CPU take
 * turns and never steal the line from each other. */
static void pin(int nth)
{
	cpu_set_t allowed, one;
	int cpu, seen = 0;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) || CPU_COUNT(&allowed) < 2)
		return;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &allowed) && seen++ == nth) {
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
			return;
		}
}

static void *bump_hits(void *arg)
{
	(void)arg;
	pin(0);
	pthread_barrier_wait(&start);
	for (unsigned long i = 0; i < iterations; i++)
		__atomic_fetch_add(&g_counters.hits, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void *bump_misses(void *arg)
{
	(void)arg;
	pin(1);
	pthread_barrier_wait(&start);
	for (unsigned long i = 0; i < iterations; i++)
		__atomic_fetch_add(&g_counters.misses, 1, __ATOMIC_RELAXED);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;

	if (argc > 1)
		iterations = strtoul(argv[1], NULL, 0);
	pthread_barrier_init(&start, NULL, 2);
	pthread_create(&a, NULL, bump_hits, NULL);
	pthread_create(&b, NULL, bump_misses, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%s: hits=%lu misses=%lu\n", g_counters.name, g_counters.hits, g_counters.misses);
	return 0;
}
