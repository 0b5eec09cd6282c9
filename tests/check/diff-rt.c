/* One source in two configurations, as two kernel flavours: built plain and
 * with -DRT, where spinlock_t is PREEMPT_RT's rt_mutex (LP64):
 *
 *   struct spinlock   plain: rlock (4 bytes)   RT: lock, an rt_mutex_base
 *                     (wait_lock 4, hole 4, waiters 16, owner 8): 32 bytes
 *   struct mm_struct  mmap 0, mm_users 8, mm_count 12, map_count 16,
 *                     page_table_lock 20 (4 -> 32 at 24, after a hole),
 *                     hiwater_rss 24 -> 56, arg_lock 32 -> 64 (4 -> 32),
 *                     start_code 40 -> 96: 48 -> 104 bytes, 1 -> 2 lines
 *   struct wq         lock 0, head 8 -> 32: 16 -> 40 bytes
 *   struct holder     q 0 (16 -> 40), n 16 -> 40: 24 -> 48 bytes
 *
 * So the root cause is struct spinlock (rlock removed, lock added; its
 * alignment 4 -> 8), moving three structs: mm_struct and wq, which hold a
 * spinlock_t, and holder, which holds a wq.  rt_mutex_base and
 * rb_root_cached exist only in the RT build.  In the RT build mm_users and
 * mm_count still share line 0 with page_table_lock, as before; arg_lock
 * (64..95) now is alone on line 1: no contention-prone pair newly shares a
 * line, so diff reports notes only. */
typedef struct { volatile unsigned int slock; } arch_spinlock_t;
typedef struct raw_spinlock { arch_spinlock_t raw_lock; } raw_spinlock_t;
typedef struct { int counter; } atomic_t;
#ifdef RT
struct rb_root_cached { void *rb_node, *rb_leftmost; };
struct rt_mutex_base {
	raw_spinlock_t wait_lock;
	struct rb_root_cached waiters;
	void *owner;
};
typedef struct spinlock { struct rt_mutex_base lock; } spinlock_t;
#else
typedef struct spinlock { struct raw_spinlock rlock; } spinlock_t;
#endif

struct mm_struct {
	void *mmap;
	atomic_t mm_users;
	atomic_t mm_count;
	int map_count;
	spinlock_t page_table_lock;
	long hiwater_rss;
	spinlock_t arg_lock;
	long start_code;
};

struct wq {
	spinlock_t lock;
	void *head;
};

struct holder {
	struct wq q;
	long n;
};

struct mm_struct mm;
struct holder h;

int main(void)
{
	return mm.map_count + (int)h.n;
}
