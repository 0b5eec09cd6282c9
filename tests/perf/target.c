/* Fixture for the perf.data tests: two threads write two fields of one
 * global struct (false sharing), then the main thread touches fresh pages
 * (page faults with data addresses).  Loop counts come from argv so tests
 * know how many writes to expect. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct pair {
	volatile long a;	/* written by thread 1 */
	volatile long b;	/* written by thread 2 */
} shared_pair;

static long loops = 1000;

static void *writer_a(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < loops; i++)
		shared_pair.a = i;
	return NULL;
}

static void *writer_b(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < loops; i++)
		shared_pair.b = i;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t1, t2;
	size_t pages = 64, n;
	char *p;

	if (argc > 1)
		loops = atol(argv[1]);
	if (argc > 2)
		pages = (size_t)atol(argv[2]);
	pthread_create(&t1, NULL, writer_a, NULL);
	pthread_create(&t2, NULL, writer_b, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	n = pages * 4096;
	p = malloc(n);
	if (!p)
		return 1;
	memset(p, 1, n);
	return p[n / 2] != 1;
}
