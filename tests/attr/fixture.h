/* What the attribution fixtures share: fresh anonymous pages handed out so
 * that a chosen field is the first byte its page ever sees (its access is
 * the page's fault), and the printout that is each test's truth:
 *   field STRUCT.PATH OFF SIZE   the compiler's offsetof and sizeof
 *   size STRUCT N
 *   object STRUCT ADDR           one instance
 *   array STRUCT ADDR N          N instances side by side
 *   embed STRUCT.PATH INNER      the member PATH is a struct INNER
 * Two threads run the same work on pages of their own. */
#ifndef ATTR_FIXTURE_H
#define ATTR_FIXTURE_H
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define PAGE 4096UL
#define FIELD(S, F) printf("field %s.%s %zu %zu\n", #S, #F, offsetof(struct S, F), \
			   sizeof(((struct S *)0)->F))
#define SIZE(S) printf("size %s %zu\n", #S, sizeof(struct S))

static char *arena, *arena_end;
static unsigned long arena_next;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void arena_init(unsigned long pages)
{
	arena = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	if (arena == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	/* one fault per page, never a 2 MiB one */
	madvise(arena, pages * PAGE, MADV_NOHUGEPAGE);
	arena_end = arena + pages * PAGE;
}

/* n fresh pages */
static char *pages(unsigned long n)
{
	char *p = arena + __atomic_fetch_add(&arena_next, n, __ATOMIC_RELAXED) * PAGE;

	if (p + n * PAGE > arena_end) {
		fprintf(stderr, "arena exhausted\n");
		exit(1);
	}
	return p;
}

/* An object of SIZE bytes whose byte OFF starts a fresh page: the bytes
 * before it lie at the end of the page before, also fresh. */
static void *place(size_t size, size_t off)
{
	return pages(2 + size / PAGE) + PAGE - off;
}

static void print_object(const char *s, void *p)
{
	pthread_mutex_lock(&out_lock);
	printf("object %s %p\n", s, p);
	pthread_mutex_unlock(&out_lock);
}

static void print_array(const char *s, void *p, unsigned long n)
{
	pthread_mutex_lock(&out_lock);
	printf("array %s %p %lu\n", s, p, n);
	pthread_mutex_unlock(&out_lock);
}

static void run_two(void *(*fn)(void *))
{
	pthread_t t[2];
	long i;

	fflush(stdout);
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, fn, (void *)i);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
}
#endif
