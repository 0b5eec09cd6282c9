/* mm_struct the way Linux 6.1 declares it: every member inside an anonymous
 * struct (`struct { ... } __randomize_layout;`), then the flexible cpu_bitmap.
 * On LP64: mmap 0, task_size 8, mm_users 16, mm_count 20, map_count 24,
 * page_table_lock 28..31, mmap_lock 32..71 (40 bytes), mmlist 72..87,
 * hiwater_rss 88, flags 96; the anonymous struct is 104 bytes, cpu_bitmap
 * starts at 104, sizeof 104.  Both locks sit on line 0. */
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
	struct {
		void *mmap;
		unsigned long task_size;
		atomic_t mm_users;
		atomic_t mm_count;
		int map_count;
		spinlock_t page_table_lock;
		struct rw_semaphore mmap_lock;
		struct list_head mmlist;
		unsigned long hiwater_rss;
		unsigned long flags;
	};
	unsigned long cpu_bitmap[];
};

struct mm_struct init_mm;

int main(void)
{
	return init_mm.map_count;
}
