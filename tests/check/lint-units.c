/* Fixture for tests/check/lint-units.sh: the head of the kernel's mm_struct
 * (LP64, 64-byte lines), with the kernel's lock types as units.
 *
 *   struct rw_semaphore holds two atomics and a raw spinlock: it is a lock,
 *   its members are no one's to rearrange, so it is never linted on its own
 *   and its members are never candidates in M.
 *   M (8-aligned, judged by its worst placement unless a rule says
 *   `placement line-aligned`):
 *     get_unmapped_area 24..31 (a pointer: read-mostly),
 *     membarrier_state 80, mm_users 84, mm_count 88 (atomic_t),
 *     page_table_lock 108 (spinlock_t), mmap_lock 112..151 (the
 *     rw_semaphore), pinned_vm 200 (atomic64_t).
 *   Line 1 (64..127) holds the three atomics, page_table_lock and the start
 *   of mmap_lock: its finding names the two locks first.  membarrier_state
 *   at 80 is on line 1 whatever other start brings it near the pointer at
 *   24, never line 0.  mmap_lock (ending at 151, line 2) and pinned_vm (200,
 *   line 3) are 48 bytes apart: only another start brings them onto one
 *   line, counted on line 2 "by placement"; line-aligned, they never share.
 *
 * Scores (hitmap-lint(1)): 8-aligned, line 1 has the atomic pairs
 * membarrier_state+mm_users (one 8-byte block: shares at every start, 2),
 * +mm_count twice (1 each), six atomic+lock pairs (2 each, 12), the two
 * locks (4), and membarrier_state and mm_users within a line of the pointer
 * (1 each): 22; line 2 mmap_lock+pinned_vm, 2.  Line-aligned, line 1's ten
 * pairs all share at the one start, doubled (6 + 24 + 8): 38, and the
 * pointer on line 0 is no neighbour. */
typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic64_t;
typedef atomic64_t atomic_long_t;
typedef struct raw_spinlock { unsigned int slock; } raw_spinlock_t;
typedef struct spinlock { struct raw_spinlock rlock; } spinlock_t;
struct list_head { struct list_head *next, *prev; };

struct rw_semaphore {
	atomic_long_t count;
	atomic_long_t owner;
	raw_spinlock_t wait_lock;
	struct list_head wait_list;
};

struct M {
	char head[24];
	unsigned long (*get_unmapped_area)(unsigned long);
	unsigned long base[6];
	atomic_t membarrier_state;
	atomic_t mm_users;
	atomic_t mm_count;
	long pgtables;
	int map_count;
	spinlock_t page_table_lock;
	struct rw_semaphore mmap_lock;
	unsigned long stats[6];
	atomic64_t pinned_vm;
	unsigned long tail[7];
};

struct M m0;
struct rw_semaphore sem0;

int main(void)
{
	return m0.mm_users.counter + (int)sem0.count.counter;
}
