/* Two threads, each writing its own copy of one __thread struct: the
 * per-thread identity case of attribution by instruction.  Each copy is a
 * private object; nothing is shared.  Prints offsetof/sizeof of the watched
 * field and every thread's address of it ("thread K ADDR"), once both
 * threads exist (the test's oracle, under setarch -R the same in the next
 * run); then each thread writes its copy N times (argv[1]). */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct stats {
	long hits;
	long misses;
};

__thread struct stats st;
static pthread_barrier_t ready;
static long iterations = 1000;

static void *worker(void *arg)
{
	long k = (long)arg;

	printf("thread %ld %p\n", k, (void *)&st.hits);
	fflush(stdout);
	pthread_barrier_wait(&ready);
	for (long i = 0; i < iterations; i++) {
		st.hits += i;
		__asm__ volatile("" ::: "memory");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];

	if (argc > 1)
		iterations = atol(argv[1]);
	printf("field stats.hits %zu %zu\n", offsetof(struct stats, hits),
	       sizeof(((struct stats *)0)->hits));
	fflush(stdout);
	pthread_barrier_init(&ready, NULL, 2);
	for (long k = 0; k < 2; k++)
		if (pthread_create(&t[k], NULL, worker, (void *)k))
			return 1;
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	return 0;
}
