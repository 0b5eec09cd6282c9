/* Heap structs written through helper functions, and 16-byte stores that
 * cover two fields (rx_bytes and tx_bytes zeroed together, which gcc and
 * clang -O2 merge into one SSE store).  A flow is placed so that a chosen
 * field starts a fresh page: a wide store across that page boundary faults
 * twice, on its first field and on its second.  Truth: the printout
 * (tests/attr/fixture.h). */
#include "fixture.h"

struct flow {
	unsigned long rx_packets;
	unsigned long tx_packets;
	int state;
	unsigned long rx_bytes;
	unsigned long tx_bytes;
	char name[16];
	unsigned long drops;
};

#define ROUNDS 300

__attribute__((noinline)) static struct flow *new_flow(size_t off)
{
	struct flow *f = place(sizeof(*f), off);

	print_object("flow", f);
	return f;
}

__attribute__((noinline)) static void set_state(struct flow *f, int s)
{
	f->state = s;
}

__attribute__((noinline)) static void bump(struct flow *f)
{
	f->rx_bytes++;
}

__attribute__((noinline)) static void add_tx(struct flow *f, unsigned long n)
{
	f->tx_bytes += n;
	f->tx_packets++;
}

/* the field's address computed into a register, then used */
__attribute__((noinline)) static void count_drop(struct flow *f)
{
	unsigned long *p = &f->drops;

	__atomic_fetch_add(p, 1, __ATOMIC_RELAXED);
}

/* one 16-byte store over rx_bytes and tx_bytes */
__attribute__((noinline)) static void clear_bytes(struct flow *f)
{
	f->rx_bytes = 0;
	f->tx_bytes = 0;
}

static void *worker(void *arg)
{
	static const size_t starts[] = {
		offsetof(struct flow, rx_packets), offsetof(struct flow, tx_packets),
		offsetof(struct flow, state), offsetof(struct flow, rx_bytes),
		offsetof(struct flow, tx_bytes), offsetof(struct flow, drops),
	};
	long i;

	(void)arg;
	for (i = 0; i < ROUNDS; i++) {
		struct flow *f = new_flow(starts[i % 6]);
		struct flow *g = new_flow(offsetof(struct flow, tx_bytes));

		/* f: the field starting the second page faults there */
		set_state(f, 1);
		bump(f);
		add_tx(f, 3);
		count_drop(f);
		clear_bytes(f);
		/* g: the wide store faults on rx_bytes, then on tx_bytes */
		clear_bytes(g);
		count_drop(g);
	}
	return NULL;
}

int main(void)
{
	arena_init(2 * 2 * 2 * ROUNDS + 16);
	FIELD(flow, rx_packets); FIELD(flow, tx_packets); FIELD(flow, state);
	FIELD(flow, rx_bytes); FIELD(flow, tx_bytes); FIELD(flow, name); FIELD(flow, drops);
	SIZE(flow);
	run_two(worker);
	return 0;
}
