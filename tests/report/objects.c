/* Instances and containers, for report's per-object verdicts.
 *
 *   objects lock   a struct embedding a pthread_mutex_t; two threads (CPUs
 *                  0 and 1) take strict turns under the lock, each bumping
 *                  the counters it guards: glibc's pthread_mutex_lock() writes
 *                  the lock through a `pthread_mutex_t *`, turn() writes
 *                  the counters through a `struct outer *`.
 *   objects many   NOBJ objects of one type, one per cacheline, object i
 *                  written by thread i alone (on CPU i % 2), half of them
 *                  at .x, half at .y: by type, x and y are written by two
 *                  CPUs 8 bytes apart; by object, nothing is shared.
 *   objects helper a struct embedding a spinlock of the fixture's own: two
 *                  threads take it in strict turns through spin_take(), which
 *                  gets only a `struct spin *`, and release it directly
 *                  through the `struct guarded *` with the counter it guards:
 *                  one field, lk.word, seen through the inner and the outer
 *                  type.
 *   objects pun    a struct box written through a `struct box *`, and a
 *                  `struct pair *` made to point 8 bytes into it: box has
 *                  no pair member there, so the pair is in an unknown
 *                  container.
 *
 * Prints each object's address and each field's offset and size (the
 * compiler's offsetof and sizeof: the test's oracle). */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/pin.h"

#define ROUNDS 500
#define NOBJ 4

struct outer {
	pthread_mutex_t lock;
	long turn;
	long hits;
};

struct spin {
	int word;
	int spare;
};

struct guarded {
	long turn;
	struct spin lk;
	long count;
};

struct pair {
	long x;
	long y;
};

struct box {
	long a;
	long b;
	long c;
};

static struct outer *o;
static struct guarded *g;
static struct pair *objs[NOBJ];

/* Wait for its turn (reading, which a write watchpoint does not see), then
 * bump the guarded counter and pass the turn on under the lock: every round
 * moves the line to the other thread's CPU. */
__attribute__((noinline)) static void turn(struct outer *p, long me)
{
	while (__atomic_load_n(&p->turn, __ATOMIC_ACQUIRE) != me)
		sched_yield();
	pthread_mutex_lock(&p->lock);
	p->hits++;
	p->turn = !me;
	pthread_mutex_unlock(&p->lock);
}

static void *locker(void *arg)
{
	long me = (long)arg;

	pin((int)me);
	for (int i = 0; i < ROUNDS; i++)
		turn(o, me);
	return NULL;
}

__attribute__((noinline)) static void spin_take(struct spin *l)
{
	while (__atomic_exchange_n(&l->word, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

/* Bump the counter, pass the turn and release the lock, all through the
 * outer pointer. */
__attribute__((noinline)) static void guarded_bump(struct guarded *p, long me)
{
	p->count++;
	p->turn = !me;
	__atomic_store_n(&p->lk.word, 0, __ATOMIC_RELEASE);
}

static void *helper(void *arg)
{
	long me = (long)arg;

	pin((int)me);
	for (int i = 0; i < ROUNDS; i++) {
		while (__atomic_load_n(&g->turn, __ATOMIC_ACQUIRE) != me)
			sched_yield();
		spin_take(&g->lk);
		guarded_bump(g, me);
	}
	return NULL;
}

__attribute__((noinline)) static void set_x(struct pair *p, long v) { p->x = v; }
__attribute__((noinline)) static void set_y(struct pair *p, long v) { p->y = v; }

__attribute__((noinline)) static void set_a(struct box *p, long v) { p->a = v; }

static void *writer(void *arg)
{
	long i = (long)arg;

	pin((int)(i % 2));
	for (long k = 0; k < ROUNDS; k++) {
		if (i % 2)
			set_y(objs[i], k);
		else
			set_x(objs[i], k);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[NOBJ];
	long i, n;

	if (argc != 2 || (strcmp(argv[1], "lock") && strcmp(argv[1], "many") &&
			  strcmp(argv[1], "pun") && strcmp(argv[1], "helper"))) {
		fprintf(stderr, "usage: objects lock|many|pun|helper\n");
		return 2;
	}
	if (!strcmp(argv[1], "pun")) {
		struct box *bx = aligned_alloc(64, 64);

		if (!bx)
			return 1;
		printf("object box %p %zu\n", (void *)bx, sizeof(*bx));
		printf("field a %zu %zu\n", offsetof(struct box, a), sizeof(bx->a));
		printf("field y %zu %zu\n", offsetof(struct pair, y), sizeof(((struct pair *)0)->y));
		printf("pun 8\n");
		fflush(stdout);
		for (long k = 0; k < ROUNDS; k++) {
			set_a(bx, k);
			set_y((struct pair *)((char *)bx + 8), k);
		}
		return 0;
	}
	if (!strcmp(argv[1], "helper")) {
		g = aligned_alloc(64, 64);
		if (!g)
			return 1;
		memset(g, 0, 64);
		printf("object guarded %p %zu\n", (void *)g, sizeof(*g));
		printf("field lk.word %zu %zu\n", offsetof(struct guarded, lk.word),
		       sizeof(g->lk.word));
		printf("field count %zu %zu\n", offsetof(struct guarded, count), sizeof(g->count));
		fflush(stdout);
		for (i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, helper, (void *)i);
		for (i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		return 0;
	}
	if (!strcmp(argv[1], "lock")) {
		o = aligned_alloc(64, 64);
		if (!o)
			return 1;
		pthread_mutex_init(&o->lock, NULL);
		o->turn = 0;
		o->hits = 0;
		printf("object outer %p %zu\n", (void *)o, sizeof(*o));
		printf("field lock %zu %zu\n", offsetof(struct outer, lock), sizeof(o->lock));
		printf("field lock.__data.__lock %zu %zu\n",
		       offsetof(struct outer, lock.__data.__lock), sizeof(o->lock.__data.__lock));
		printf("field turn %zu %zu\n", offsetof(struct outer, turn), sizeof(o->turn));
		printf("field hits %zu %zu\n", offsetof(struct outer, hits), sizeof(o->hits));
		n = 2;
	} else {
		for (i = 0; i < NOBJ; i++) {
			objs[i] = aligned_alloc(64, 64);
			if (!objs[i])
				return 1;
			memset(objs[i], 0, 64);
			printf("object pair %p %zu\n", (void *)objs[i], sizeof(*objs[i]));
		}
		printf("field x %zu %zu\n", offsetof(struct pair, x), sizeof(objs[0]->x));
		printf("field y %zu %zu\n", offsetof(struct pair, y), sizeof(objs[0]->y));
		n = NOBJ;
	}
	fflush(stdout);
	for (i = 0; i < n; i++)
		pthread_create(&t[i], NULL, !strcmp(argv[1], "lock") ? locker : writer, (void *)i);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
