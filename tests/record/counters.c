/* Watch-mode fixture: two threads, each incrementing its own counter.
 *
 * Each worker does exactly N_WRITES atomic increments of its counter (one
 * `lock add` instruction each: one write access) and then N_READS plain reads
 * of it.  main() touches the counters nowhere else, so a watchpoint on a
 * counter sees exactly N_WRITES writes and N_READS reads per worker using it.
 *
 *   default   g.a and g.b are adjacent longs: one cacheline (false sharing)
 *   -DPADDED  g.b is aligned to 64 bytes: separate lines (no sharing)
 *   -DSHARED  both workers increment g.a (true sharing)
 *
 * The workers start together (a barrier) and, where the process may use two
 * CPUs, run on different ones, so their accesses interleave across CPUs as
 * false sharing needs; the barrier and the pinning touch no counter.
 *
 * Usage: counters [N_WRITES [N_READS]]   (defaults 1000 and 10) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include "../lib/pin.h"

#ifdef PADDED
#define LINE_ALIGNED __attribute__((aligned(64)))
#else
#define LINE_ALIGNED
#endif

struct pair {
	long a;			/* written by worker 1 */
	long b LINE_ALIGNED;	/* written by worker 2 (worker 1 with -DSHARED) */
};

/* Line-aligned so that the layout above is the line layout. */
struct pair g __attribute__((aligned(64)));

static long n_writes = 1000, n_reads = 10;
static pthread_barrier_t start;

struct job {
	long *counter;
	int nth;		/* which allowed CPU to run on */
};

static void *worker(void *arg)
{
	struct job *job = arg;
	long *p = job->counter;
	volatile long *vp = p;
	long i, sum = 0;

	pin(job->nth);
	pthread_barrier_wait(&start);
	for (i = 0; i < n_writes; i++)
		__atomic_fetch_add(p, 1, __ATOMIC_RELAXED);
	for (i = 0; i < n_reads; i++)
		sum += *vp;
	return (void *)sum;
}

int main(int argc, char **argv)
{
	pthread_t t1, t2;
#ifdef SHARED
	struct job j1 = { &g.a, 0 }, j2 = { &g.a, 1 };
#else
	struct job j1 = { &g.a, 0 }, j2 = { &g.b, 1 };
#endif

	if (argc > 1)
		n_writes = atol(argv[1]);
	if (argc > 2)
		n_reads = atol(argv[2]);
	pthread_barrier_init(&start, NULL, 2);
	pthread_create(&t1, NULL, worker, &j1);
	pthread_create(&t2, NULL, worker, &j2);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return 0;
}
