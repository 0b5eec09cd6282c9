/* True sharing of a group of fields: two threads take one spinlock and,
 * holding it, update the two counters it guards, long enough for a timer
 * to sample the counters as often as the lock.  The lock and its data are
 * meant to share a line: no layout removes these transfers.  It prints the
 * object's address and each field's offset and size, the truth the test
 * compares with, and runs until the threads have met in 20 distinct
 * milliseconds (at least argv[1] ms, at most 3 s). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../lib/pin.h"

struct guarded {
	int lock;
	int pad;
	long data;
	long count;
	long spare[5];
};

static volatile int stop;
static _Alignas(64) volatile long seen[2][8];
static _Alignas(64) long met;

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static __attribute__((noinline)) void tick(int which)
{
	long ms = now_ms();

	if (seen[which][0] != ms) {
		seen[which][0] = ms;
		if (seen[!which][0] == ms)
			__atomic_fetch_add(&met, 1, __ATOMIC_RELAXED);
	}
}

static __attribute__((noinline)) struct guarded *make_guarded(void)
{
	struct guarded *p = aligned_alloc(64, sizeof(*p));

	if (!p)
		exit(1);
	memset(p, 0, sizeof(*p));
	return p;
}

static __attribute__((noinline)) void guarded_work(struct guarded *g, int which)
{
	volatile long *data = &g->data, *count = &g->count;

	do {
		for (int i = 0; i < 64; i++) {
			while (__atomic_exchange_n(&g->lock, 1, __ATOMIC_ACQUIRE))
				;
			for (int k = 0; k < 16; k++) {
				*data += k;
				*count += 1;
			}
			__atomic_store_n(&g->lock, 0, __ATOMIC_RELEASE);
		}
		tick(which);
	} while (!stop);
}

static struct guarded *object;

static void *worker(void *arg)
{
	long which = (long)arg;

	pin((int)which);
	guarded_work(object, (int)which);
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec step = { 0, 10 * 1000 * 1000 };
	long start, min = argc > 1 ? atol(argv[1]) : 300;
	pthread_t t[2];
	int i;

	object = make_guarded();
	printf("object guarded %p %zu\n", (void *)object, sizeof(*object));
	printf("field lock %zu %zu\n", offsetof(struct guarded, lock), sizeof(int));
	printf("field data %zu %zu\n", offsetof(struct guarded, data), sizeof(long));
	printf("field count %zu %zu\n", offsetof(struct guarded, count), sizeof(long));
	fflush(stdout);
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)i);
	start = now_ms();
	while (now_ms() - start < 3000 &&
	       (now_ms() - start < min || __atomic_load_n(&met, __ATOMIC_RELAXED) < 20))
		nanosleep(&step, NULL);
	stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("met %ld\n", met);
	return 0;
}
