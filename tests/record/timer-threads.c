/* Timer-mode fixture: two threads, each adding to its own counter through a
 * pointer held in a register, and printing what a recording of it must show:
 *   text START END      the program's text at run time
 *   thread TID ADDR     a worker's thread id and its counter's address
 * Usage: timer-threads [ITERATIONS]   (per thread, default 200000000) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

extern char __executable_start[], etext[];

static struct { long a; char pad[120]; long b; } counters;
static unsigned long iterations;
static pthread_mutex_t out = PTHREAD_MUTEX_INITIALIZER;

/* noinline: the counter's address arrives in %rdi and stays there */
__attribute__((noinline)) static void add(volatile long *p, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		__atomic_fetch_add(p, 1, __ATOMIC_RELAXED);
}

static void *worker(void *arg)
{
	pthread_mutex_lock(&out);
	printf("thread %ld %#lx\n", (long)syscall(SYS_gettid), (unsigned long)arg);
	fflush(stdout);
	pthread_mutex_unlock(&out);
	add(arg, iterations);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t1, t2;

	iterations = argc > 1 ? strtoul(argv[1], NULL, 0) : 200000000UL;
	printf("text %#lx %#lx\n", (unsigned long)__executable_start, (unsigned long)etext);
	fflush(stdout);
	pthread_create(&t1, NULL, worker, &counters.a);
	pthread_create(&t2, NULL, worker, &counters.b);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return counters.a == (long)iterations && counters.b == (long)iterations ? 0 : 1;
}
