/* Fixture for tests/report/threads-dir.sh: four threads, each on a CPU of
 * its own where there are several, write the fields of one global struct,
 * each field on a page of its own that nothing else touches, so each write
 * is one page fault whose data address is in that field.  The threads run
 * one after another (joined in turn), so the recording is the same with and
 * without perf record --threads.  Prints the fields' addresses and sizes. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include "../lib/pin.h"

struct pages {
	long first;
	char pad0[4096];
	int second;
	char pad1[4096];
	short third[4];
	char pad2[4096];
	long fourth;
};

struct pages g_pages __attribute__((aligned(4096)));

static void *worker(void *arg)
{
	long id = (long)arg;
	volatile struct pages *p = &g_pages;

	pin((int)id);
	switch (id) {
	case 0: p->first = 1; break;
	case 1: p->second = 2; break;
	case 2: p->third[2] = 3; break;
	default: p->fourth = 4; break;
	}
	return NULL;
}

int main(void)
{
	pthread_t t;
	long i;

	printf("first %p %zu\n", (void *)&g_pages.first, sizeof(g_pages.first));
	printf("second %p %zu\n", (void *)&g_pages.second, sizeof(g_pages.second));
	printf("third[2] %p %zu\n", (void *)&g_pages.third[2], sizeof(g_pages.third[2]));
	printf("fourth %p %zu\n", (void *)&g_pages.fourth, sizeof(g_pages.fourth));
	fflush(stdout);
	for (i = 0; i < 4; i++) {
		if (pthread_create(&t, NULL, worker, (void *)i))
			return 1;
		pthread_join(t, NULL);
	}
	return 0;
}
