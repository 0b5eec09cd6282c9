/* Heap objects written through pointers, for attribution by instruction:
 * one object per page, so each object's first store faults at the storing
 * instruction.  Prints each field's offset and size (the compiler's
 * offsetof and sizeof: the test's oracle) and each object's address; "raw"
 * is a page written through a char pointer, which no struct names. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

struct flow {
	unsigned long rx_packets;
	unsigned long tx_packets;
	int state;
	unsigned long rx_bytes;
	unsigned long tx_bytes;
	char name[16];
	unsigned long drops;
};

struct pair {
	long head;
	long tail;
};

/* An array of these indexed by a register: p[i].hits, i unknown. */
struct slot {
	long key;
	long val;
	long hits;
	long pad;
};

#define PAGE 4096
#define NARR 4
#define NSLOT 3

__attribute__((noinline)) static void bump(struct flow *f)
{
	f->rx_bytes++;
}

__attribute__((noinline)) static void add_tx(struct flow *f, unsigned long n)
{
	f->tx_bytes += n;
	f->tx_packets++;
}

__attribute__((noinline)) static void set_state(struct flow *f, int s)
{
	f->state = s;
}

/* The pointer is computed into a register (the field address), then used. */
__attribute__((noinline)) static void count_drop(struct flow *f)
{
	unsigned long *p = &f->drops;

	__atomic_fetch_add(p, 1, __ATOMIC_RELAXED);
}

/* An array of structs walked by pointer. */
__attribute__((noinline)) static void fill(struct pair *v, size_t n)
{
	struct pair *p;

	for (p = v; p < v + n; p++)
		p->tail = 1;
}

/* base + index * scale: which element is unknown, the field is not. */
__attribute__((noinline)) static void hit_slot(struct slot *s, long i)
{
	s[i].hits++;
}

/* Through memset: no variable of a struct type at the storing instruction. */
__attribute__((noinline)) static void wipe(void *p, size_t n)
{
	volatile char *c = p;
	size_t i;

	for (i = 0; i < n; i++)
		c[i] = 0;
}

/* A struct on the stack, deeper than anything before it ran (the dynamic
 * loader's frames reach some 40 KiB), so the first store to x, two pages
 * above the frame's bottom, faults on a fresh stack page; its address
 * escapes so the store stays. */
struct deep {
	char lo[8192];
	long x;
	char pad[256 * 1024];
};

__attribute__((noinline)) static void show(struct deep *d)
{
	printf("stack deep %p deep_write:d\n", (void *)d);
	fflush(stdout);
}

__attribute__((noinline)) static void deep_write(void)
{
	struct deep d;

	show(&d);
	d.x = 1;
	__asm__ volatile("" : : "r"(&d) : "memory");
}

/* heap-dup.c defines another struct token; this one is in the DWARF
 * through token_seen. */
struct token {
	long value;
	long extra;
};

struct token *token_seen;
void dup_touch(struct token *t);

static void *page_obj(void)
{
	void *p = NULL;

	if (posix_memalign(&p, PAGE, PAGE))
		exit(1);
	madvise(p, PAGE, MADV_NOHUGEPAGE);
	return p;
}

int main(int argc, char **argv)
{
	struct flow *a = page_obj(), *b = page_obj(), *c = page_obj(), *d;
	struct pair *arr;
	struct slot *slots;
	char *raw, *dup;
	size_t i;

	d = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (d == MAP_FAILED)
		return 1;
	/* NARR pairs, each on its own page. */
	arr = mmap(NULL, (size_t)NARR * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* NSLOT elements, each on its own page */
	slots = mmap(NULL, (size_t)(NSLOT + 1) * PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (slots == MAP_FAILED)
		return 1;
	raw = page_obj();
	dup = page_obj();
	if (arr == MAP_FAILED)
		return 1;
#define FIELD(s, f) \
	printf("field %s.%s %zu %zu\n", #s, #f, offsetof(struct s, f), sizeof(((struct s *)0)->f))
	FIELD(flow, rx_packets);
	FIELD(flow, tx_packets);
	FIELD(flow, state);
	FIELD(flow, rx_bytes);
	FIELD(flow, tx_bytes);
	FIELD(flow, name);
	FIELD(flow, drops);
	FIELD(pair, head);
	FIELD(pair, tail);
	FIELD(slot, key);
	FIELD(slot, val);
	FIELD(slot, hits);
	FIELD(slot, pad);
	FIELD(deep, lo);
	FIELD(deep, x);
	FIELD(deep, pad);
	printf("size deep %zu\n", sizeof(struct deep));
	printf("size flow %zu\n", sizeof(struct flow));
	printf("size pair %zu\n", sizeof(struct pair));
	printf("size slot %zu\n", sizeof(struct slot));
	printf("object flow %p\n", (void *)a);
	printf("object flow %p\n", (void *)b);
	printf("object flow %p\n", (void *)c);
	printf("object flow %p\n", (void *)d);
	for (i = 0; i < NARR; i++)
		printf("object pair %p\n", (void *)((char *)arr + i * PAGE));
	for (i = 0; i < NSLOT; i++)
		printf("object slot %p\n", (void *)&slots[(i * PAGE + PAGE / 2) / sizeof(*slots)]);
	printf("raw %p\n", (void *)raw);
	printf("dup %p\n", (void *)dup);
	fflush(stdout);
	bump(a);
	add_tx(b, (unsigned long)argc);
	set_state(c, 3);
	count_drop(d);
	for (i = 0; i < NARR; i++)
		fill((struct pair *)((char *)arr + i * PAGE), 1);
	for (i = 0; i < NSLOT; i++)
		hit_slot(slots, (long)((i * PAGE + PAGE / 2) / sizeof(*slots)));
	wipe(raw, 8);
	token_seen = (struct token *)dup;
	dup_touch(token_seen);
	deep_write();
	return 0;
}
