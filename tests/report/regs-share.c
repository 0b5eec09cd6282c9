/* Sampled-register fixture: heap objects reached through helper functions,
 * written by threads in one of four ways (argv[1]):
 *   false  two threads, two fields of one cacheline (false sharing)
 *   padded two threads, the same fields a line apart (no sharing)
 *   true   two threads, a spinlock and the data it guards (true sharing)
 *   one    one thread writes, the other sleeps (no sharing)
 * It prints each object's address and each field's offset and size, the
 * truth the test compares with.  Two threads run until they have met in
 * 20 distinct milliseconds (each notes the millisecond it runs in), so
 * that a loaded machine records as much overlap as an idle one. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../lib/pin.h"

struct pair {			/* false: a and b share a line */
	long a;
	long b;
	long spare[6];
};

struct padded {			/* padded: a and b a line apart */
	long a;
	char pad[56];
	long b;
	long spare[7];
};

struct locked {			/* true: the lock and its data */
	int lock;
	int pad;
	long data;
	long count;
	long spare[5];
};

static volatile int stop;
static const char *mode;

/* the millisecond each thread last ran in, and how many they shared */
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

static __attribute__((noinline)) void *new_object(size_t size)
{
	void *p = aligned_alloc(64, size);

	if (!p)
		exit(1);
	memset(p, 0, size);
	return p;
}

static __attribute__((noinline)) struct pair *make_pair(void)
{
	return new_object(sizeof(struct pair));
}

static __attribute__((noinline)) struct padded *make_padded(void)
{
	return new_object(sizeof(struct padded));
}

static __attribute__((noinline)) struct locked *make_locked(void)
{
	return new_object(sizeof(struct locked));
}

static __attribute__((noinline)) void bump_a(struct pair *p, int which)
{
	do {
		for (int i = 0; i < 1024; i++)
			__atomic_fetch_add(&p->a, 1, __ATOMIC_RELAXED);
		tick(which);
	} while (!stop);
}

static __attribute__((noinline)) void bump_b(struct pair *p, int which)
{
	do {
		for (int i = 0; i < 1024; i++)
			__atomic_fetch_add(&p->b, 1, __ATOMIC_RELAXED);
		tick(which);
	} while (!stop);
}

static __attribute__((noinline)) void bump_pa(struct padded *p, int which)
{
	do {
		for (int i = 0; i < 1024; i++)
			__atomic_fetch_add(&p->a, 1, __ATOMIC_RELAXED);
		tick(which);
	} while (!stop);
}

static __attribute__((noinline)) void bump_pb(struct padded *p, int which)
{
	do {
		for (int i = 0; i < 1024; i++)
			__atomic_fetch_add(&p->b, 1, __ATOMIC_RELAXED);
		tick(which);
	} while (!stop);
}

static __attribute__((noinline)) void locked_work(struct locked *l, int which)
{
	do {
		for (int i = 0; i < 256; i++) {
			while (__atomic_exchange_n(&l->lock, 1, __ATOMIC_ACQUIRE))
				;
			l->data += 3;
			l->count++;
			__atomic_store_n(&l->lock, 0, __ATOMIC_RELEASE);
		}
		tick(which);
	} while (!stop);
}

static void *object;

static void *worker(void *arg)
{
	long which = (long)arg;

	pin((int)which);
	if (!strcmp(mode, "false") || !strcmp(mode, "one"))
		(which ? bump_b : bump_a)(object, (int)which);
	else if (!strcmp(mode, "padded"))
		(which ? bump_pb : bump_pa)(object, (int)which);
	else
		locked_work(object, (int)which);
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 400 * 1000 * 1000 };
	pthread_t t[2];
	int n = 2, i;

	mode = argc > 1 ? argv[1] : "false";
	if (argc > 2)
		ts.tv_nsec = atol(argv[2]) * 1000 * 1000;
	if (!strcmp(mode, "false") || !strcmp(mode, "one")) {
		object = make_pair();
		printf("object pair %p %zu\n", object, sizeof(struct pair));
		printf("field a %zu %zu\n", offsetof(struct pair, a), sizeof(long));
		printf("field b %zu %zu\n", offsetof(struct pair, b), sizeof(long));
		n = !strcmp(mode, "one") ? 1 : 2;
	} else if (!strcmp(mode, "padded")) {
		object = make_padded();
		printf("object padded %p %zu\n", object, sizeof(struct padded));
		printf("field a %zu %zu\n", offsetof(struct padded, a), sizeof(long));
		printf("field b %zu %zu\n", offsetof(struct padded, b), sizeof(long));
	} else {
		object = make_locked();
		printf("object locked %p %zu\n", object, sizeof(struct locked));
		printf("field lock %zu %zu\n", offsetof(struct locked, lock), sizeof(int));
		printf("field data %zu %zu\n", offsetof(struct locked, data), sizeof(long));
		printf("field count %zu %zu\n", offsetof(struct locked, count), sizeof(long));
	}
	printf("global stop %p %zu\n", (void *)&stop, sizeof(stop));
	fflush(stdout);
	for (i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)i);
	/* one writer: argv[2] ms; two threads: until they met in 20
	 * milliseconds, at least argv[2] ms and at most argv[3] ms (1.5 s;
	 * bench/regs.sh runs it for as long as a large recording takes) */
	{
		long start = now_ms(), min = ts.tv_nsec / 1000000;
		long max = argc > 3 ? atol(argv[3]) : 1500;
		struct timespec step = { 0, 10 * 1000 * 1000 };

		while (now_ms() - start < max &&
		       (now_ms() - start < min ||
			(n == 2 && __atomic_load_n(&met, __ATOMIC_RELAXED) < 20)))
			nanosleep(&step, NULL);
	}
	stop = 1;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("met %ld\n", met);
	return 0;
}
