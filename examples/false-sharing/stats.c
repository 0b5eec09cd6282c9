/* Per-thread statistics in one malloc'd array, the way Phoenix's
 * linear_regression keeps them: each thread sums into its own element, but
 * the elements are smaller than a cacheline, so neighbours share lines and
 * every store steals the line from the other core.
 * Build: gcc -g -O2 -pthread stats.c -o stats
 * (-DPADDED aligns each element to a line and allocates with aligned_alloc) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef PADDED
#define LINE_ALIGNED __attribute__((aligned(64)))
#else
#define LINE_ALIGNED
#endif

#define NTHREADS 2

struct lreg_stats {
	pthread_t tid;			/* read-mostly */
	const int *points;		/* read-mostly */
	int num_elems;			/* read-mostly */
	long long sx;			/* the sums: written by the owning thread */
	long long sy;
	long long sxx;
	long long syy;
	long long sxy;
} LINE_ALIGNED;

static volatile unsigned long iterations = 150000000UL;

static void *sum(void *arg)
{
	struct lreg_stats *s = arg;

	for (unsigned long i = 0; i < iterations; i++) {
		long long x = s->points[i % s->num_elems], y = x * 3 + 1;

		/* volatile stores: each one reaches memory, as in the original
		 * where the compiler cannot keep the sums in registers */
		*(volatile long long *)&s->sx += x;
		*(volatile long long *)&s->sy += y;
		*(volatile long long *)&s->sxx += x * x;
		*(volatile long long *)&s->syy += y * y;
		*(volatile long long *)&s->sxy += x * y;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static const int points[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct lreg_stats *st;
	size_t bytes = NTHREADS * sizeof(*st);

	if (argc > 1)
		iterations = strtoul(argv[1], NULL, 0);
#ifdef PADDED
	st = aligned_alloc(64, bytes);
#else
	st = malloc(bytes);
#endif
	if (!st)
		return 1;
	for (int i = 0; i < NTHREADS; i++)
		st[i] = (struct lreg_stats){ .points = points, .num_elems = 8 };
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&st[i].tid, NULL, sum, &st[i]);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(st[i].tid, NULL);
	printf("sizeof(struct lreg_stats)=%zu sx=%lld %lld\n", sizeof(*st), st[0].sx, st[1].sx);
	free(st);
	return 0;
}
