/* record: recording memory accesses into a standard perf.data.
 *
 * Three sources:
 *  - PMU mode: the CPU's memory-sampling events (Intel PEBS load latency +
 *    all stores, AMD IBS op), encoded through libpfm4, opened with
 *    perf_event_open — what `perf c2c record` records.
 *  - Watch mode: hardware breakpoints (PERF_TYPE_BREAKPOINT) on chosen
 *    fields of global objects; they work where no memory-sampling PMU exists
 *    (virtual machines), when the hypervisor delivers debug exceptions
 *    (hm_record_watch_probe() says).
 *  - Timer mode: a software clock (cpu-clock per CPU with -a, task-clock per
 *    task) sampling the general registers, which works wherever perf does:
 *    the data address is then computed from the registers and the
 *    instruction at the sample's IP.
 *
 * Building the events ("the plan") is separate from opening them, so the
 * encodings can be checked on any machine (LIBPFM_FORCE_PMU=skx).
 *
 * How watch data is encoded in the perf.data (what `hitmap report` reads):
 * every breakpoint is one event (attr.type PERF_TYPE_BREAKPOINT, bp_addr =
 * runtime address, bp_len, bp_type).  A slot watched for writes only has one
 * HW_BREAKPOINT_W event: each of its samples is a write.  A slot watched for
 * reads and writes has two events on the same address, one HW_BREAKPOINT_W
 * and one HW_BREAKPOINT_RW; a write fires both in the same debug exception,
 * and the recorder drops the RW twin, so in the file a W sample is a write and
 * an RW sample is a read.  Every sample carries IP, TID, TIME, ADDR, ID, CPU
 * (not PERIOD: the kernel would then sample every hit); attr.sample_period is
 * the -c value, each sample standing for that many accesses.  Records are
 * written in time order.
 *
 * Allocation tracking (hm_record_opts.alloc) adds uprobe events named
 * `hitmap_alloc:FUNC` at entry and `hitmap_alloc:FUNC__return` at return,
 * FUNC one of malloc, calloc, realloc, aligned_alloc, posix_memalign (entry
 * and return) and free (entry), and `hitmap_alloc:posix_memalign__store` at
 * the instruction of posix_memalign that stores the block through its first
 * argument.  They are opened as tracepoints of probes registered in tracefs
 * for the session (inherited: threads created later are probed too), or,
 * without a writable tracefs, through the uprobe PMU (not inherited:
 * hm_record_stats.alloc_new_threads says which); in the file they are
 * declared as the uprobe PMU takes them (its type, config2 = the file
 * offset, the retprobe bit of config for returns).  Their sample_type is the
 * other events' plus CALLCHAIN (user) and REGS_USER with sample_regs_user =
 * AX|DX|SI|DI: the entry carries the arguments (%rdi, %rsi, %rdx), the
 * return %rax (the pointer; posix_memalign's error number) and, as IP, the
 * return address in the caller — the allocation site; the __store event
 * samples only the register it stores, the block.  An entry and the next
 * return of the same FUNC on the same thread are one call.
 *
 * Kernel allocation tracking (hm_record_opts.kmem) adds the tracepoints
 * kmem:kmem_cache_alloc, kmem:kmalloc, kmem:kmem_cache_free and kmem:kfree
 * (attr.type PERF_TYPE_TRACEPOINT, config = the id tracefs gives them) with
 * the other events' sample_type plus RAW, and the TRACING_DATA header
 * feature (tracefs's header files and the four format files, as perf
 * writes them), so `perf script` prints them and `hitmap report` reads
 * their fields (ptr, call_site, bytes_alloc, the cache's name) by the
 * formats.  Per task, a free the kernel does later in another context (an
 * RCU callback, a worker) is not seen; -a sees every one.
 *
 * How timer data is encoded: one PERF_TYPE_SOFTWARE event,
 * PERF_COUNT_SW_CPU_CLOCK (CPU-wide) or PERF_COUNT_SW_TASK_CLOCK (per task,
 * inherited), sample_period in nanoseconds, sample_type
 * IP|TID|TIME|ID|CPU|PERIOD|REGS_USER with sample_regs_user = HM_TIMER_REGS
 * (AX..IP and R8..R15, bits of enum perf_event_x86_regs), plus REGS_INTR
 * with the same mask when kernel samples are taken (CPU-wide, where
 * perf_event_paranoid allows; per task the kernel is excluded), and the
 * side band (MMAP2 with data mappings, COMM, FORK/EXIT) on it.  It is what
 * `perf record -e cpu-clock -c NS --sample-cpu --user-regs=... [-I]` writes.
 *
 * Ownership: plans and watches are plain structs owned by the caller.  Strings
 * passed in options must stay valid for the duration of the call.
 */
#ifndef HITMAP_RECORD_H
#define HITMAP_RECORD_H
#include <stddef.h>
#include "hitmap/hitmap.h"
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>
#include "hitmap/binary.h"
#include "hitmap/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HM_RECORD_MAX_EVENTS 16
#define HM_WATCH_MAX_BREAKPOINTS 4	/* x86 debug registers per thread */

typedef struct hm_record_event {
	struct perf_event_attr attr;
	char name[128];		/* perf-style event name, for EVENT_DESC */
	int leader;		/* index of the group leader in the plan; -1 = own group */
} hm_record_event;

enum hm_record_source { HM_SOURCE_PMU = 1, HM_SOURCE_WATCH = 2, HM_SOURCE_TIMER = 3 };

typedef struct hm_record_plan {
	enum hm_record_source source;
	char pmu[32];		/* libpfm4 PMU name ("skx", "spr"), "ibs_op", "breakpoint" */
	char pmu_desc[96];	/* human description ("Intel Skylake-X") */
	unsigned cpu_wide_only : 1;	/* the kernel opens these only per CPU (IBS on 6.1) */
	unsigned aux_group : 1;		/* loads grouped behind mem-loads-aux */
	size_t nr;
	hm_record_event ev[HM_RECORD_MAX_EVENTS];
} hm_record_plan;

struct hm_pmu_opts {
	size_t sz;			/* sizeof(struct hm_pmu_opts): declare with HM_OPTS */
	unsigned ldlat;		/* load latency threshold in cycles; 0 = 30 (perf c2c) */
	uint64_t period;	/* sample every Nth event; 0 = frequency mode */
	uint64_t freq;		/* samples per second when period is 0; 0 = 4000 */
	int user_only;		/* exclude kernel samples (perf_event_paranoid 2) */
	const char *const *events;	/* extra libpfm4 event strings (-e), NULL-terminated,
					 * or NULL; they replace the default load/store pair */
	const char *sysfs;	/* event_source devices directory; NULL = the real one */
};

/* Choose and encode the memory-sampling events for this CPU (or the one named
 * by LIBPFM_FORCE_PMU).  Pure: opens nothing.  On Intel the load event is
 * MEM_TRANS_RETIRED:LOAD_LATENCY (ldlat in config1) and the store event
 * MEM_INST_RETIRED:ALL_STORES (MEM_UOPS_RETIRED:ALL_STORES before Skylake);
 * Sapphire Rapids puts the load event in a group led by mem-loads-aux (raw
 * 0x8203) and samples WEIGHT_STRUCT.  On AMD the ibs_op PMU by its sysfs type.
 * Returns 0, or -ENODEV when the machine has no memory-sampling PMU (the
 * diagnostic says so and suggests --watch), -EINVAL for a bad -e string. */
int hm_record_plan_pmu(const struct hm_pmu_opts *o, hm_record_plan *plan);

/* Whether the PMU the plan names is actually usable on this machine (its
 * sysfs directory exists).  A forced libpfm4 PMU plans but does not open. */
int hm_record_pmu_present(const hm_record_plan *plan, const char *sysfs);

/* Timer samples with registers (see the top). */
#define HM_TIMER_DEFAULT_HZ 10000
/* AX BX CX DX SI DI BP SP IP (bits 0-8) and R8-R15 (bits 16-23). */
#define HM_TIMER_REGS 0xff01ffull
struct hm_timer_opts {
	size_t sz;		/* sizeof(struct hm_timer_opts): declare with HM_OPTS */
	uint64_t period_ns;	/* one sample per period_ns of CPU time; 0 = from freq */
	uint64_t freq;		/* samples per second when period_ns is 0;
				 * 0 = HM_TIMER_DEFAULT_HZ */
	int cpu_wide;		/* cpu-clock on every CPU, kernel samples too (with
				 * their interrupted registers) where allowed */
	int user_only;		/* no kernel samples even CPU-wide */
};

/* Encode the timer event.  Pure but for reading
 * kernel.perf_event_max_sample_rate, which caps the rate (a note says so
 * when an asked rate is above it): more would be throttled by the kernel.
 * plan->pmu is the event's name, plan->pmu_desc says the rate. */
int hm_record_plan_timer(const struct hm_timer_opts *o, hm_record_plan *plan);

enum hm_watch_mode {
	HM_WATCH_AUTO = 0,	/* reads and writes if the breakpoints suffice, else writes */
	HM_WATCH_W,		/* writes only: one breakpoint per slot */
	HM_WATCH_RW,		/* reads and writes told apart: two breakpoints per slot */
};

/* One watched range, as parsed from --watch EXPR. */
typedef struct hm_watch {
	char expr[160];		/* as given, without the :w/:rw suffix */
	uint64_t addr;		/* link-time address (relative = 1) or absolute */
	uint64_t len;		/* bytes */
	int relative;		/* addr is in the binary and moves with its load bias */
	enum hm_watch_mode mode;
} hm_watch;

/* Parse EXPR: `var`, `var.field.sub`, `var.cnt[0].n` (array elements, one
 * `[N]` per dimension, bounds-checked), `var+OFF`, `sym+0x40/8` (offset and
 * length in bytes), `0xADDR/LEN` (an absolute runtime address); an optional
 * `:w` or `:rw` suffix sets the mode.  Names are looked up in `types` (global
 * variables with DWARF types; may be NULL) and the ELF symbols of `bin`.
 * Returns 0, -ENOENT (unknown name; the diagnostic suggests close names),
 * -EINVAL (malformed). */
int hm_watch_parse(const char *expr, hm_binary *bin, const hm_types *types, hm_watch *out);

/* Turn watches into breakpoint events: split each range into naturally
 * aligned 1/2/4/8-byte slots, two breakpoints per slot for RW, one for W
 * (AUTO picks RW for all when everything fits in 4 breakpoints and period is
 * 1, else W).  bias is added to relative addresses.  -E2BIG when more than 4
 * breakpoints would be needed (the diagnostic says how to split). */
int hm_record_plan_watch(const hm_watch *w, size_t n, uint64_t bias, uint64_t period,
			 hm_record_plan *plan);

/* Append the kmem tracepoint events (kmem:kmem_cache_alloc, kmem:kmalloc,
 * kmem:kmem_cache_free, kmem:kfree; attr.type PERF_TYPE_TRACEPOINT, config
 * the id tracefs gives) to plan, with its first event's sample_type plus
 * RAW (IP|TID|TIME|ID|CPU|PERIOD|RAW when plan is empty).  tracefs: the
 * tracefs mount, NULL = /sys/kernel/tracing (else
 * /sys/kernel/debug/tracing).  hm_record_run() does this itself for
 * hm_record_opts.kmem; this is for showing the plan.  -ENOENT (and a
 * diagnostic) when tracefs or an event is missing, -E2BIG when the plan is
 * full. */
int hm_record_plan_kmem(const char *tracefs, hm_record_plan *plan);

/* Whether hardware watchpoints fire here.  Opening a breakpoint event is no
 * proof (some hypervisors let it open and never deliver the debug
 * exception): this arms one write breakpoint (8 bytes) on a variable of the
 * calling thread, writes it HM_WATCH_PROBE_WRITES times and reads the count.
 * 0 when every write was counted; -EOPNOTSUPP when not (the diagnostic says
 * how many were); the open's negative errno (-EACCES, -ENOSPC, ...) with a
 * diagnostic when the event cannot be opened.  *out is filled in all cases. */
#define HM_WATCH_PROBE_WRITES 64
struct hm_watch_probe {
	uint64_t written;	/* writes made to the watched variable */
	uint64_t counted;	/* of those, counted by the breakpoint */
	int hypervisor;		/* the CPU says it runs under a hypervisor */
};
int hm_record_watch_probe(struct hm_watch_probe *out);

#define HM_RECORD_STOP 1		/* *hm_record_opts.stop: stop, tell the command */
#define HM_RECORD_STOP_SEEN 2	/* stop; the command has had SIGINT (a terminal's Ctrl-C) */

struct hm_record_opts {
	size_t sz;			/* sizeof(struct hm_record_opts): declare with HM_OPTS */
	const char *output;		/* perf.data path */
	const hm_record_plan *plan;	/* PMU or timer mode (NULL in watch mode) */
	/* Watch mode: the watches and the binary their addresses are in; the
	 * plan is built once the command has been exec'd (or, with pid, from
	 * the running process's maps) and its load bias is known.  With pid,
	 * every thread it has gets the breakpoints, and threads they create
	 * while recording inherit them. */
	const hm_watch *watches;
	size_t nr_watches;
	hm_binary *binary;
	uint64_t watch_period;		/* -c for breakpoints; 0 = 1 */
	char *const *argv;		/* command to run, NULL-terminated, or NULL */
	pid_t pid;			/* -p: an existing process (0 = none) */
	int cpu_wide;			/* -a */
	unsigned mmap_pages;		/* ring buffer data pages per CPU (power of 2); 0 = 128 */
	volatile int *stop;		/* set (by a signal handler) to stop: HM_RECORD_STOP,
					 * or HM_RECORD_STOP_SEEN when the command has had
					 * its SIGINT already (see hm_record_run) */
	/* Called once the events are enabled (and the command released):
	 * the moment a caller may say "recording".  May be NULL. */
	void (*started)(void *ctx);
	void *started_ctx;
	/* Allocation tracking: uprobes on libc's malloc, calloc, realloc,
	 * aligned_alloc and free, added to the events (see the top). */
	int alloc;
	const char *alloc_libc;		/* the libc to probe; NULL = hitmap's own */
	/* Kernel allocation tracking: the kmem tracepoints (see the top),
	 * added to the events, or the only events when there is neither a
	 * plan nor watches. */
	int kmem;
};

struct hm_record_stats {
	uint64_t samples;		/* sample records written */
	uint64_t writes, reads;		/* watch mode: by kind */
	uint64_t dropped_twins;		/* watch mode: RW samples of writes, dropped */
	uint64_t lost;			/* samples the kernel reported lost */
	uint64_t lost_records;		/* PERF_RECORD_LOST records */
	uint64_t bytes;			/* size of the output */
	double seconds;			/* wall time of the recording */
	size_t nr_ring_buffers;
	int child_status;		/* wait status of the command, -1 if none */
	uint64_t bias;			/* watch mode: load bias of the binary */
	int nr_watch_events;
	uint64_t watch_addr[HM_RECORD_MAX_EVENTS];	/* runtime addresses, per event */
	uint32_t watch_len[HM_RECORD_MAX_EVENTS];
	uint32_t watch_type[HM_RECORD_MAX_EVENTS];	/* HW_BREAKPOINT_W / _RW */
	uint64_t per_event[HM_RECORD_MAX_EVENTS];	/* samples per event */
	uint64_t alloc_samples;		/* of those, allocator uprobe samples */
	int alloc_new_threads;		/* 1: the allocator probes follow threads created
					 * later (through tracefs); 0: only the first ones */
	int alloc_no_store;		/* 1: posix_memalign's store not found, not probed */
	uint64_t kmem_samples;		/* of those, kmem tracepoint samples */
	int stopped;			/* *stop ended the recording while the command
					 * ran: it was sent SIGINT (see hm_record_run) */
};

/* Run the recording: start the command stopped (ptrace at exec), resolve
 * watches, open one set of events per CPU (per task with inherit, or CPU-wide
 * with -a), drain the ring buffers until the command exits or *stop is set,
 * and write the perf.data (COMM/MMAP2 of the command synthesized from /proc,
 * the features perf c2c report needs).
 *
 * When *stop is set while the command runs, the command is sent SIGINT (what
 * Ctrl-C at a terminal sends it; not with HM_RECORD_STOP_SEEN, when it had
 * that one), SIGTERM one second later, and the recording ends one more
 * second later (the command is then killed); its samples until then are
 * kept, and stats->stopped says so.
 *
 * The file's header is written before the events are enabled and brought up
 * to date at each flush (every 100 ms), so a recorder killed at any point
 * leaves a perf.data that reads up to its last flush (without the header
 * features).  Over an existing regular file the recording is written as
 * OUTPUT.partial and renamed at the end, the older file kept as OUTPUT.old;
 * the file is created with mode 0600.
 *
 * Returns 0 or a negative errno; -EACCES / -EPERM with a diagnostic naming
 * the perf_event_paranoid level needed. */
int hm_record_run(const struct hm_record_opts *o, struct hm_record_stats *st);

/* Print-friendly description of one event of a plan ("type=4 config=0x1cd
 * ..."), for `hitmap record --dry-run`.  Writes at most len bytes; returns the
 * snprintf length. */
int hm_record_describe(const hm_record_plan *plan, size_t i, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
