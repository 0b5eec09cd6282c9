/* Allocation tracking fixture: flow_new() callocs a struct flow and prints
 * where (address, size, the source line of the call); a thread writes its
 * field a, the main thread its field b, N times each.  Run under setarch -R
 * the block is at the same address in every run, so a first run tells the
 * test what to watch in the second.  With a second argument, "reuse",
 * the block is freed first and flow_again() mallocs the next one, which
 * glibc's tcache hands out at the same address (calloc bypasses it): two
 * sites for one address. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct flow {
	long a;
	long b;
	long pad[6];
};

static long n;

__attribute__((noinline)) static struct flow *flow_new(void)
{
	struct flow *f = calloc(1, sizeof(*f)); int line = __LINE__;

	if (!f)
		exit(1);
	printf("flow %p size %zu line %d\n", (void *)f, sizeof(*f), line);
	return f;
}

__attribute__((noinline)) static struct flow *flow_again(void)
{
	struct flow *f = malloc(sizeof(*f)); int line = __LINE__;

	if (!f)
		exit(1);
	memset(f, 0, sizeof(*f));
	printf("again %p size %zu line %d\n", (void *)f, sizeof(*f), line);
	return f;
}

static void *writer(void *p)
{
	volatile struct flow *f = p;
	long i;

	for (i = 0; i < n; i++)
		f->a++;
	return NULL;
}

int main(int argc, char **argv)
{
	volatile struct flow *f;
	pthread_t t;
	long i;

	n = argc > 1 ? atol(argv[1]) : 1000;
	setvbuf(stdout, NULL, _IONBF, 0);
	f = flow_new();
	if (argc > 2) {
		free((void *)f);
		f = flow_again();
	}
	if (pthread_create(&t, NULL, writer, (void *)f))
		return 1;
	for (i = 0; i < n; i++)
		f->b++;
	pthread_join(t, NULL);
	free((void *)f);
	return 0;
}
