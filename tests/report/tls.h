/* The struct of tests/report/tls.c and tls-lib.c. */
struct stats {
	long hits;
	long misses;
	int state;
	long bytes[4];
	struct {
		long lo, hi;
	} range;
};

extern __thread struct stats libst;
void lib_touch(long n);
struct stats *lib_priv(void);
