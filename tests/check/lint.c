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
 * Expected warnings, ranked (two locks, a lock and an atomic, two atomics,
 * then read-mostly neighbours): arr+m (locks, line 2), a_lock+a_counter,
 * st.lock+refs (lock and atomic), then a_lock and a_counter each beside ops.
 * struct P has no lock at all: no warning. */
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
