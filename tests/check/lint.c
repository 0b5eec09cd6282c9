/* Fixture for hitmap lint.  struct L is aligned(64), so its lines are fixed
 * (LP64, 64-byte lines; offsets follow from the declarations):
 *
 *   line 0: a_lock 0..3 (lock2_t -> my_lock_t -> spinlock_t), a_counter 4..7
 *           (_Atomic int), ops 8..15 (a pointer: read-mostly), plain 16..23
 *   line 1: st 64..79 (struct stats: st.lock 64..67 is a spinlock_t),
 *           refs 80..87 (atomic_t[2]), ticket 88..91 (struct my_ticket: only
 *           contention-prone when named with --contended-type)
 *   line 2: arr 128..159 (struct stats[2]: an array of structs holding a lock),
 *           m 160..199 (pthread_mutex_t, 40 bytes, crosses into line 3)
 *
 * Expected: one warning per line, ranked by score (a pair adds wa * wb, a
 * lock weighing 2 and an atomic 1, doubled as L's lines are fixed; a member
 * beside read-mostly ones adds its weight): line 2, arr+m (2 * 2 * 2 = 8);
 * line 0, a_lock+a_counter (2 * 1 * 2 = 4) with ops beside both (+2 +1): 7;
 * line 1, st.lock+refs (2 * 1 * 2): 4.  With struct my_ticket contended
 * (weight 2), line 1 has three pairs: 4 + 8 + 4 = 16.  Under DWARF 4 (no
 * _Atomic) line 0 is a_lock beside ops: 2.  struct P has no lock at all: no
 * warning. */
#include <pthread.h>

typedef struct { volatile unsigned int slock; } spinlock_t;
typedef struct { int counter; } atomic_t;
typedef spinlock_t my_lock_t;
typedef my_lock_t lock2_t;

struct stats {
	spinlock_t lock;
	long n;
};

struct my_ticket {
	unsigned int t;
};

struct ops {
	int (*f)(void);
};

struct L {
	lock2_t a_lock;
	_Atomic int a_counter;
	const struct ops *ops;
	long plain;
	char pad[40];
	struct stats st;
	atomic_t refs[2];
	struct my_ticket ticket;
	char pad2[36];
	struct stats arr[2];
	pthread_mutex_t m;
} __attribute__((aligned(64)));

struct P {
	long a, b;
	const char *name;
};

struct L l0;
struct P p0;

int main(void)
{
	return l0.refs[0].counter + (int)p0.a;
}
