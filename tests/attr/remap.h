/* The record the library tests/attr/remaplib.c writes into. */
struct rec {
	long a;
	long b;
	long c;
};

void touch(struct rec *r, long v);
