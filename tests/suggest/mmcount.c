/* The head of mm_struct before "mm: move mm_count into its own cache line":
 * mm_count, written by every lazy-TLB switch, shares line 0 with
 * membarrier_state and the read-mostly members around it.  On LP64:
 * mmap_base 0, task_size 8, membarrier_state 16, mm_users 20, mm_count 24,
 * map_count 28, page_table_lock 32, mmap_lock 40..79, mmlist 80..95,
 * flags 96; sizeof 104. */
#include "cache.h"

typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;
typedef struct spinlock { volatile unsigned int slock; } spinlock_t;
struct list_head { struct list_head *next, *prev; };
struct rw_semaphore {
	atomic_long_t count;
	atomic_long_t owner;
	atomic_t osq;
	spinlock_t wait_lock;
	struct list_head wait_list;
};

struct mm_struct {
	unsigned long mmap_base;
	unsigned long task_size;
	int membarrier_state;
	atomic_t mm_users;
	atomic_t mm_count;
	int map_count;
	spinlock_t page_table_lock;
	struct rw_semaphore mmap_lock;
	struct list_head mmlist;
	unsigned long flags;
};

struct mm_struct init_mm;

int main(void)
{
	return init_mm.map_count;
}
