/* A kernel-like header for the CI example: the head of mm_struct as Linux
 * 5.x had it.  The patch in ../remove-has_pinned.patch deletes has_pinned,
 * which pulls page_table_lock onto mmap_lock's cacheline. */
#ifndef MM_H
#define MM_H

typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;
typedef struct { volatile unsigned int slock; } spinlock_t;
struct list_head { struct list_head *next, *prev; };

struct rw_semaphore {
	atomic_long_t count;
	atomic_long_t owner;
	atomic_t osq;
	spinlock_t wait_lock;
	struct list_head wait_list;
};

struct mm_struct {
	void *mmap;
	void *mm_rb;
	unsigned long vmacache_seqnum;
	unsigned long (*get_unmapped_area)(void);
	void *pgd;
	atomic_t mm_users;
	atomic_t mm_count;
	atomic_t has_pinned;
	int map_count;
	spinlock_t page_table_lock;
	struct rw_semaphore mmap_lock;
	struct list_head mmlist;
	unsigned long hiwater_rss;
	unsigned long total_vm;
};

#endif
