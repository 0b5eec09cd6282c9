/* PMU-mode fixture: two threads (main and one more) burning CPU.
 * Usage: spin [ITERATIONS]   (per thread, default 100000000) */
#include <pthread.h>
#include <stdlib.h>

static volatile unsigned long sink;

static void *spin(void *arg)
{
	unsigned long i, n = (unsigned long)arg;

	for (i = 0; i < n; i++)
		sink += i;
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000000UL;
	pthread_t t;

	pthread_create(&t, NULL, spin, (void *)n);
	spin((void *)n);
	pthread_join(t, NULL);
	return 0;
}
