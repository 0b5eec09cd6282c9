/* The head of Linux 6.1's mm_struct with its comments and conditionals:
 * kerneldoc above membarrier_state (alone in #ifdef CONFIG_MEMBARRIER),
 * mm_users and mm_count; pgtables_bytes and map_count in one #ifdef;
 * page_table_lock's comment running on past its line; the comment above
 * mmap_lock; lru_gen, a struct member alone in #ifdef CONFIG_LRU_GEN.
 * On LP64: mmap_base 0, task_size 8, pgd 16, membarrier_state 24,
 * mm_users 28, mm_count 32, pgtables_bytes 40, map_count 48,
 * page_table_lock 52..55, mmap_lock 56..95, mmlist 96, lru_gen 112..135;
 * sizeof 136.  page_table_lock and mmap_lock share line 0. */
#define CONFIG_MEMBARRIER 1
#define CONFIG_MMU 1
#define CONFIG_LRU_GEN 1

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
		unsigned long mmap_base;	/* base of mmap area */
		unsigned long task_size;	/* size of task vm space */
		void *pgd;

#ifdef CONFIG_MEMBARRIER
		/**
		 * @membarrier_state: Flags controlling membarrier behavior.
		 *
		 * This field is close to @pgd to hopefully fit in the same
		 * cache-line, which needs to be touched by switch_mm().
		 */
		atomic_t membarrier_state;
#endif

		/**
		 * @mm_users: The number of users including userspace.
		 */
		atomic_t mm_users;

		/**
		 * @mm_count: The number of references to &struct mm_struct
		 * (@mm_users count as 1).
		 */
		atomic_t mm_count;

#ifdef CONFIG_MMU
		atomic_long_t pgtables_bytes;	/* PTE page table pages */
		int map_count;			/* number of VMAs */
#endif

		spinlock_t page_table_lock; /* Protects page tables and some
					     * counters
					     */
		/*
		 * So please be careful with adding new fields before
		 * mmap_lock, which can easily push the 2 fields into one
		 * cacheline.
		 */
		struct rw_semaphore mmap_lock;

		struct list_head mmlist; /* List of maybe swapped mm's.	These
					  * are globally strung together
					  */
#ifdef CONFIG_LRU_GEN
		struct {
			/* this mm_struct is on lru_gen_mm_list */
			struct list_head list;
			unsigned long bitmap;
		} lru_gen;
#endif /* CONFIG_LRU_GEN */
	};
	unsigned long cpu_bitmap[];
};

struct mm_struct init_mm;

int main(void)
{
	return init_mm.mm_count.counter;
}
