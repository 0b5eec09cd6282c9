/* Second unit for tests/types/scopes-order.sh, linked with fx-scopes.c: its
 * own struct, a function of its own with a pointer parameter, and an
 * inlined static function with a static local, so that a lookup in it puts
 * its own notes in the index between two of fx-scopes.c. */
struct meter {
	long hits, misses;
	struct meter *up;
};

static inline long meter_sum(const struct meter *m)
{
	static long calls;

	calls++;
	return m->hits + m->misses;
}

__attribute__((noinline)) long meter_hit(struct meter *m, long n)
{
	long total = 0;

	for (; m; m = m->up) {
		m->hits += n;
		total += meter_sum(m);
	}
	return total;
}
