/* Sampled-register fixture for __thread variables: two threads each count
 * into their own copy of one __thread struct, `hits` straight through a
 * %fs-relative operand (local-exec: addq $1,%fs:-N), `misses` through the
 * pointer a helper returns (it loads %fs:0, the thread pointer, and adds
 * the variable's offset).  It prints each thread's id and the address of
 * its copy, and each field's offset and size: the truth the test compares
 * with.  argv[1]: how long the threads run, in ms (default 300). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "../lib/pin.h"

struct tcount {
	long hits;
	long misses;
	long spare[6];
};

static __thread struct tcount tc;
static volatile int stop;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

/* the thread's copy, from the thread pointer; the empty asm makes the
 * call no pure function's (neither compiler hoists or folds it), so the
 * load of %fs:0 runs as often as the loop */
static __attribute__((noinline)) struct tcount *mine(void)
{
	struct tcount *p = &tc;

	__asm__ volatile("" : "+r"(p));
	return p;
}

/* A load of the thread pointer, as code taking a __thread variable's
 * address makes, here from a line just flushed: the load is slow, so timer
 * samples land right after it with either compiler (clang's mine() above
 * runs too fast to be sampled). */
static inline void thread_pointer(void)
{
	void *tp;

	__asm__ volatile("clflush %%fs:0\n\tmov %%fs:0, %0" : "=r"(tp) : : "memory");
}

static __attribute__((noinline)) void count(void)
{
	unsigned j = 0;

	do {
		if (!(j++ & 63))
			thread_pointer();
		for (int i = 0; i < 16; i++) {
			tc.hits++;
			__asm__ volatile("" ::: "memory");
		}
		mine()->misses++;
		__asm__ volatile("" ::: "memory");
	} while (!stop);
}

static void *worker(void *arg)
{
	long which = (long)arg;

	pin((int)which);
	pthread_mutex_lock(&out_lock);
	printf("thread %ld %ld %p %zu\n", which, (long)syscall(SYS_gettid), (void *)&tc,
	       sizeof(tc));
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
	count();
	return NULL;
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 300;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000 * 1000 };
	pthread_t t[2];
	int i;

	printf("field hits %zu %zu\n", offsetof(struct tcount, hits), sizeof(long));
	printf("field misses %zu %zu\n", offsetof(struct tcount, misses), sizeof(long));
	fflush(stdout);
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)i);
	nanosleep(&ts, NULL);
	stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
