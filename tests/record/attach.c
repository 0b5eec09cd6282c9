/* Fixture for record -p: a running process with a thread that exists before
 * hitmap attaches and one it starts after.  Neither touches g until the file
 * GO exists; then the first does N atomic increments of g.a and the second,
 * started only then, N of g.b.  A watchpoint on each field therefore sees
 * exactly N writes, if it reaches both threads.
 * Usage: attach N GO */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct pair {
	long a;
	long b;
} g;

static long n;
static const char *go;

static void wait_go(void)
{
	while (access(go, F_OK))
		usleep(10000);
}

static void *early(void *arg)
{
	(void)arg;
	wait_go();
	for (long i = 0; i < n; i++)
		__atomic_fetch_add(&g.a, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void *late(void *arg)
{
	(void)arg;
	for (long i = 0; i < n; i++)
		__atomic_fetch_add(&g.b, 1, __ATOMIC_RELAXED);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t1, t2;

	if (argc != 3)
		return 2;
	n = atol(argv[1]);
	go = argv[2];
	if (pthread_create(&t1, NULL, early, NULL))
		return 1;
	wait_go();
	if (pthread_create(&t2, NULL, late, NULL))
		return 1;
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return g.a == n && g.b == n ? 0 : 1;
}
