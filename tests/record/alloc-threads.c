/* Allocation tracking for threads created after the recording starts: main
 * waits, then starts one thread per allocator (malloc, calloc,
 * posix_memalign, aligned_alloc), one after the other; each allocates its
 * own struct obj in its own function and prints where (address, size, the
 * source line of the call, the allocator), then all write their object's
 * `hits` N times.  The next thread starts only once the previous one has
 * printed, so that glibc hands out the same arenas in the same order in
 * every run: under setarch -R a first run tells the test what to watch in
 * the second. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct obj {
	long hits;
	long pad[7];
};

#define NT 4
static long n;
static sem_t made;
static pthread_barrier_t go;

static void show(int i, struct obj *o, int line, const char *how)
{
	if (!o)
		exit(1);
	memset(o, 0, sizeof(*o));
	printf("obj %d %p size %zu line %d by %s\n", i, (void *)o, sizeof(*o), line, how);
}

__attribute__((noinline)) static struct obj *new_by_malloc(void)
{
	struct obj *o = malloc(sizeof(*o)); int line = __LINE__;

	show(0, o, line, "malloc");
	return o;
}

__attribute__((noinline)) static struct obj *new_by_calloc(void)
{
	struct obj *o = calloc(1, sizeof(*o)); int line = __LINE__;

	show(1, o, line, "calloc");
	return o;
}

__attribute__((noinline)) static struct obj *new_by_posix_memalign(void)
{
	void *p = NULL;
	int rc = posix_memalign(&p, 64, sizeof(struct obj)); int line = __LINE__;

	show(2, rc ? NULL : p, line, "posix_memalign");
	return p;
}

__attribute__((noinline)) static struct obj *new_by_aligned_alloc(void)
{
	struct obj *o = aligned_alloc(64, sizeof(*o)); int line = __LINE__;

	show(3, o, line, "aligned_alloc");
	return o;
}

static void *worker(void *arg)
{
	int i = (int)(long)arg;
	volatile struct obj *o;
	long k;

	o = i == 0 ? new_by_malloc() : i == 1 ? new_by_calloc() :
	    i == 2 ? new_by_posix_memalign() : new_by_aligned_alloc();
	sem_post(&made);
	pthread_barrier_wait(&go);
	for (k = 0; k < n; k++)
		o->hits++;
	free((void *)o);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[NT];
	long i;

	n = argc > 1 ? atol(argv[1]) : 1000;
	setvbuf(stdout, NULL, _IONBF, 0);
	sem_init(&made, 0, 0);
	pthread_barrier_init(&go, NULL, NT);
	usleep(100 * 1000);	/* well after the recording has started */
	for (i = 0; i < NT; i++) {
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			return 1;
		sem_wait(&made);
	}
	for (i = 0; i < NT; i++)
		pthread_join(t[i], NULL);
	return 0;
}
