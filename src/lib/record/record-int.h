/* Internal pieces of the recorder shared by record*.c. */
#ifndef HM_RECORD_INT_H
#define HM_RECORD_INT_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>
#include "hitmap/perfwrite.h"
#include "hitmap/record.h"

/* One kernel ring buffer (a perf_event mmap). */
struct hm_ring {
	int fd;
	void *base;		/* control page followed by the data pages */
	size_t data_size;	/* a power of two */
	size_t map_size;
	unsigned char *scratch;	/* a record that wraps around the end, made whole */
	size_t scratch_cap;
};

/* Map fd's ring buffer with `pages` data pages (a power of two). */
int hm_ring_open(struct hm_ring *r, int fd, unsigned pages);
/* Hand every complete record to fn (valid only during the call) and release
 * the space.  Stops at fn's first non-zero return and returns it. */
int hm_ring_drain(struct hm_ring *r,
		  int (*fn)(void *ctx, const struct perf_event_header *h), void *ctx);
void hm_ring_close(struct hm_ring *r);

/* Records from several rings, written in time order: a record is held until
 * every ring has been read past its time (perf's rule: at the end of a round,
 * what is older than the newest record of the previous round is safe). */
struct hm_order {
	struct hm_order_rec *recs;
	size_t nr, cap;
	uint64_t seq;
	uint64_t limit;		/* newest time seen up to the previous round */
	uint64_t newest;	/* newest time seen so far */
};
int hm_order_add(struct hm_order *q, const void *rec, size_t len, uint64_t time);
/* End of a round: write what is safe.  all = write everything. */
int hm_order_flush(struct hm_order *q, hm_perf_writer *w, int all);
void hm_order_free(struct hm_order *q);

/* The command: fork, PTRACE_TRACEME, exec; returns with the child stopped
 * right after exec (its image mapped, nothing run).  -errno of a failed exec. */
int hm_proc_launch(char *const *argv, pid_t *pid);
/* Let a child stopped by hm_proc_launch run. */
int hm_proc_release(pid_t pid);
/* Write COMM and MMAP2 records describing process pid's current state. */
int hm_proc_synthesize(hm_perf_writer *w, pid_t pid, const char *build_id_path,
		       const unsigned char *build_id, size_t build_id_len);
/* The kernel's map (perf's "[kernel.kallsyms]_text"), from /proc/kallsyms;
 * nothing when its addresses are hidden. */
int hm_proc_synthesize_kernel(hm_perf_writer *w);
/* Thread ids of pid (from /proc/PID/task); *tids is malloc'd. */
int hm_proc_threads(pid_t pid, pid_t **tids, size_t *nr);
/* Online CPUs; *cpus is malloc'd. */
int hm_proc_cpus(int **cpus, size_t *nr);
/* The features perf c2c report wants, from uname, /proc and sysfs. */
int hm_proc_features(hm_perf_writer *w, char *const *argv, uint64_t first, uint64_t last);
/* kernel.perf_event_paranoid, or 2 if unreadable. */
int hm_proc_paranoid(void);

/* Allocation tracking (record-alloc.c): events named GROUP:FUNC,
 * GROUP:FUNC__return and GROUP:posix_memalign__store, sampling %rax, %rdx,
 * %rsi and %rdi (bits AX, DX, SI, DI of perf_regs.h, in that order in the
 * sample); the __store event, at the instruction of posix_memalign that
 * stores the block through its first argument, samples only the register
 * stored. */
#define HM_ALLOC_GROUP "hitmap_alloc"
#define HM_ALLOC_REGS ((1ull << 0) | (1ull << 3) | (1ull << 4) | (1ull << 5))
/* Append uprobes on malloc, calloc, realloc, aligned_alloc, posix_memalign
 * (entry and return; posix_memalign also its store) and free of `libc`
 * (NULL: the libc.so this process runs with) to plan, after its other
 * events, whose sample_type they extend.  They are described as the uprobe
 * PMU takes them (its type, config1 = path, config2 = file offset, the
 * retprobe bit in config); path (len bytes) receives the file's real path,
 * which the events point at: it must outlive them.  -ENODEV without the
 * uprobe PMU.  *no_store is set when posix_memalign's store was not found
 * (that function is then not probed). */
int hm_record_plan_alloc(const char *libc, hm_record_plan *plan, char *path, size_t len,
			 int *no_store);

/* The same probes registered in tracefs for this session (record-tracefs.c),
 * so that they can be opened as inherited tracepoint events. */
struct hm_tracefs_probes {
	char dir[64];			/* the tracefs mount */
	char group[48];			/* hitmap_alloc_PID: this recorder's */
	int nr;				/* probes registered */
	char event[HM_RECORD_MAX_EVENTS][48];
	uint64_t id[HM_RECORD_MAX_EVENTS];	/* by plan event: tracepoint id, 0 = none */
};
/* Register every GROUP: event of plan as a probe on path; 0, or -errno with
 * nothing left registered (-ENOENT: no writable uprobe_events). */
int hm_tracefs_probes_add(struct hm_tracefs_probes *tp, const hm_record_plan *plan,
			  const char *path);
/* Remove them; the events opened on them must be closed first. */
void hm_tracefs_probes_remove(struct hm_tracefs_probes *tp);

/* Kernel allocation tracking (record-kmem.c; hm_record_plan_kmem() in
 * record.h). */
#define HM_KMEM_GROUP "kmem"
/* The TRACING_DATA feature describing those events, added to w. */
int hm_record_kmem_tracing_data(hm_perf_writer *w, const char *tracefs);

/* Load bias of `bin` in process pid from /proc/PID/maps: 0 for ET_EXEC, else
 * the mapping of the same file (device and inode) minus its link address.
 * -ENOENT when the process does not map the file. */
int hmi_record_load_bias(pid_t pid, hm_binary *bin, uint64_t *bias);

#endif
