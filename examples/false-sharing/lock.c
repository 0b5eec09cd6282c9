/* A lock beside the data it protects: one thread updates the table under the
 * lock, another thread only reads the table's read-mostly fields — yet every
 * lock acquisition dirties the line the reader needs.
 * Build: gcc -g -O2 -pthread lock.c -o lock
 * (-DPADDED puts the lock and what it guards on a line of their own) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef PADDED
#define LINE_ALIGNED __attribute__((aligned(64)))
#else
#define LINE_ALIGNED
#endif

struct table {
	const long *slots;		/* read-mostly: readers index it */
	unsigned long mask;		/* read-mostly */
	pthread_spinlock_t lock LINE_ALIGNED;	/* taken by the writer */
	unsigned long updates;		/* written under lock */
};

static struct table g_table;
static volatile unsigned long iterations = 20000000UL;
static volatile int done;

static void *writer(void *arg)
{
	(void)arg;
	for (unsigned long i = 0; i < iterations; i++) {
		pthread_spin_lock(&g_table.lock);
		g_table.updates++;
		pthread_spin_unlock(&g_table.lock);
	}
	done = 1;
	return NULL;
}

static void *reader(void *arg)
{
	unsigned long sum = 0, n = 0;

	(void)arg;
	while (!done) {
		const long *slots = *(const long *volatile *)&g_table.slots;
		unsigned long mask = *(volatile unsigned long *)&g_table.mask;

		sum += slots[n++ & mask];
	}
	*(unsigned long *)arg = sum + n;
	return NULL;
}

int main(int argc, char **argv)
{
	static const long slots[16] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	unsigned long result = 0;
	pthread_t w, r;

	if (argc > 1)
		iterations = strtoul(argv[1], NULL, 0);
	g_table.slots = slots;
	g_table.mask = 15;
	pthread_spin_init(&g_table.lock, PTHREAD_PROCESS_PRIVATE);
	pthread_create(&r, NULL, reader, &result);
	pthread_create(&w, NULL, writer, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	printf("updates=%lu reads=%s\n", g_table.updates, result ? "yes" : "no");
	return 0;
}
