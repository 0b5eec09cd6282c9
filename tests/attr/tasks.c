/* An intrusive list walked with container_of (the node is not the first
 * member), and an array of 16-byte buckets indexed by a register
 * (t->hist[k & 7]): 16 is also sizeof(struct list_head), a coincidence that
 * is no evidence of a list_head.  Each counted field starts a fresh page.
 * Truth: the printout (tests/attr/fixture.h). */
#include "fixture.h"

struct list_head {
	struct list_head *next, *prev;
};

struct bucket {
	long n;
	long sum;
};

struct task {
	long id;
	int state;
	int prio;
	struct list_head node;
	long runtime;
	long nr_switches;
	struct bucket hist[8];
};

#define ROUNDS 300
#define container_of(p, T, m) ((T *)((char *)(p) - offsetof(T, m)))

static void list_add_tail(struct list_head *n, struct list_head *head)
{
	n->prev = head->prev;
	n->next = head;
	head->prev->next = n;
	head->prev = n;
}

/* container_of from the list node */
__attribute__((noinline)) static void account(struct list_head *head, long d)
{
	struct list_head *pos;

	for (pos = head->next; pos != head; pos = pos->next) {
		struct task *t = container_of(pos, struct task, node);

		t->runtime += d;
	}
}

__attribute__((noinline)) static void record(struct task *t, unsigned long k, long v)
{
	t->hist[k & 7].n++;
	t->hist[k & 7].sum += v;
}

__attribute__((noinline)) static void set_prio(struct task *t, int p)
{
	t->prio = p;
}

static void *worker(void *arg)
{
	struct list_head head = { &head, &head };
	long me = (long)arg, i;

	for (i = 0; i < ROUNDS; i++) {
		/* runtime starts a fresh page: the walk faults there */
		struct task *t = place(sizeof(*t), offsetof(struct task, runtime));
		/* hist[k & 7] starts a fresh page */
		unsigned long k = i * 5 + me;
		struct task *h = place(sizeof(*h), offsetof(struct task, hist) +
				       (k & 7) * sizeof(struct bucket));

		print_object("task", t);
		print_object("task", h);
		t->id = i;
		list_add_tail(&t->node, &head);
		set_prio(h, 3);
		record(h, k, i);
	}
	account(&head, 7);
	return NULL;
}

int main(void)
{
	int j;

	arena_init(2 * 2 * 2 * ROUNDS + 16);
	FIELD(task, id); FIELD(task, state); FIELD(task, prio);
	FIELD(task, node.next); FIELD(task, node.prev);
	FIELD(task, runtime); FIELD(task, nr_switches);
	for (j = 0; j < 8; j++) {
		printf("field task.hist[%d].n %zu 8\n", j,
		       offsetof(struct task, hist) + j * sizeof(struct bucket));
		printf("field task.hist[%d].sum %zu 8\n", j,
		       offsetof(struct task, hist) + j * sizeof(struct bucket) + 8);
	}
	/* a member that is a struct: its own type's name is right too */
	printf("embed task.node list_head\n");
	for (j = 0; j < 8; j++)
		printf("embed task.hist[%d] bucket\n", j);
	SIZE(task);
	run_two(worker);
	return 0;
}
