/* Fixture for hitmap lint on unions (tests/check/lint.sh): the members of
 * one union never hold data at the same time, so two of its alternatives
 * do not contend, however they overlap.  struct U is aligned(64), so its
 * lines are fixed (LP64, 64-byte lines; the offsets are pahole's, which the
 * test checks):
 *
 *   line 0: an anonymous union of lock (spinlock_t) 0..3, refs (atomic_t)
 *           0..3 and ops (a pointer: read-mostly) 0..7; hits (atomic_t)
 *           8..11.  Pairs: lock and hits, refs and hits (2 * 1 + 1 * 1,
 *           doubled: 6); hits beside ops (+1): score 7.  lock, refs and
 *           ops are alternatives: no pair, no read-mostly neighbour.
 *   line 1: v 64..79, a union of v.s (v.s.lock 64..67, v.s.n 72..79) and
 *           v.t (v.t.x 64..67 and v.t.y 68..71, atomic_t).  One pair: v.t.x
 *           and v.t.y, in the same alternative (1 * 1, doubled: score 2);
 *           v.s.lock is the other alternative of both.
 *
 * union W, a lock or a counter, has no pair: no warning. */
typedef struct { volatile unsigned int slock; } spinlock_t;
typedef struct { int counter; } atomic_t;

struct ops {
	int (*f)(void);
};

union W {
	spinlock_t lock;
	atomic_t refs;
};

struct U {
	union {
		spinlock_t lock;
		atomic_t refs;
		const struct ops *ops;
	};
	atomic_t hits;
	union {
		struct {
			spinlock_t lock;
			long n;
		} s;
		struct {
			atomic_t x;
			atomic_t y;
		} t;
	} v __attribute__((aligned(64)));
} __attribute__((aligned(64)));

struct U u0;
union W w0;

int main(void)
{
	return (int)u0.hits.counter + (int)w0.refs.counter;
}
