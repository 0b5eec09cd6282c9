/* Fixture for tests/types/scopes.sh: struct pointers in registers, locals,
 * a lexical block, an inlined static function (with a static local, which
 * its inlined instances may not repeat), a loop over an array of structs,
 * a pointer computed into a register. */
struct conn {
	long rx_bytes, tx_bytes;
	int state;
	struct conn *next;
};

union word {
	long l;
	char c[8];
};

typedef struct conn conn_t;

struct conn conns[16];
volatile long sink;

static inline long conn_total(const struct conn *c)
{
	static long totals;

	totals++;
	return c->rx_bytes + c->tx_bytes;
}

__attribute__((noinline)) long count_rx(struct conn *c, long n)
{
	long *p = &c->rx_bytes;	/* a pointer computed into a register */

	*p += n;
	return conn_total(c);
}

__attribute__((noinline)) long walk(conn_t *head)
{
	long sum = 0;

	for (struct conn *c = head; c; c = c->next) {
		int st = c->state;

		if (st > 1) {
			long t = conn_total(c);

			sum += t * st;
		}
	}
	return sum;
}

__attribute__((noinline)) long sum_array(struct conn *arr, int n)
{
	long total = 0;

	for (int i = 0; i < n; i++)
		total += arr[i].rx_bytes - arr[i].tx_bytes;
	return total;
}

__attribute__((noinline)) long word_len(union word *w, const conn_t *const *pc)
{
	static long calls;

	calls++;
	return w->l + (*pc)->state + calls;
}

int main(int argc, char **argv)
{
	union word w = { .l = argc };
	const conn_t *pc = &conns[1];

	(void)argv;
	for (int i = 0; i < 16; i++) {
		conns[i].state = i;
		conns[i].next = i < 15 ? &conns[i + 1] : 0;
	}
	sink = count_rx(&conns[argc], 3);
	sink = walk(conns);
	sink = sum_array(conns, 16);
	sink = word_len(&w, &pc);
	return 0;
}
