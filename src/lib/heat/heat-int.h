/* Internal to heat/: the heat accumulator's rows and lines, which heat.c
 * fills and heat-iter.c hands out through heat-lib.h's accessors. */
#ifndef HM_HEAT_INT_H
#define HM_HEAT_INT_H
#include <stdint.h>
#include "hitmap/datasrc.h"
#include "hitmap/heat.h"
#include "hitmap/perfdata.h"
#include "base/util.h"
#include "heat/heat-lib.h"

/* A set of CPU numbers: CPUs 0-63 as an inline bitmap (no pointer to chase
 * on the per-sample path), the rest as a sorted array.  Without a CPU in
 * the samples, thread ids stand in for CPUs: a bitmap up to a tid of 30000
 * would take 4 KB per field and per line, for one member. */
struct heat_cpuset {
	uint64_t inl;
	uint32_t *x;		/* members from 64 on, sorted; its room is the
				 * power of two at or above their number */
	uint32_t nw;		/* 64-bit words a bitmap of the members would
				 * take (0 = empty) */
	uint32_t count;
};

/* Word i of the set as a bitmap (members 64 i to 64 i + 63). */
static inline uint64_t heat_cpuset_word(const struct heat_cpuset *s, uint32_t i)
{
	uint32_t n, lo = 0, hi, base = i * 64;
	uint64_t w = 0;

	if (i == 0)
		return s->inl;
	if (i >= s->nw)
		return 0;
	n = s->count - (uint32_t)__builtin_popcountll(s->inl);
	hi = n;
	while (lo < hi) {	/* the first member >= base */
		uint32_t mid = (lo + hi) / 2;

		if (s->x[mid] < base)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && s->x[lo] - base < 64; lo++)
		w |= 1ULL << (s->x[lo] - base);
	return w;
}

/* A sorted set of thread ids; `last` (the latest added, always a member)
 * answers the common repeat without touching v[]. */
struct heat_tidset {
	uint32_t *v;
	uint32_t n, cap;
	uint32_t last;
};

struct heat_ip {
	const void *bin;	/* hm_binary, or NULL */
	uint64_t link;		/* link-time address in bin */
	uint64_t ip;		/* runtime address */
	uint64_t n;
};

/* Per field, per actor (a thread for watchpoint data, a CPU for memory
 * samples with a data source): its accesses and writes, sorted by id. */
struct heat_actor {
	uint32_t id;
	uint64_t n, w;
};

struct heat_actors {
	struct heat_actor *v;
	uint32_t n, cap, last;	/* last: index of the latest actor counted */
	uint32_t inl;		/* v is the row's own room (not malloc'd) */
};

/* Actors a row has room for right after it: a sample counts into its row
 * and its actor, and the two are then on adjacent lines, not on two pages
 * (most fields have a few actors; more move to the heap). */
#define HEAT_ACTS_INL 4

/* A sampled-register access, by time window (HEAT_WINDOW_NS). */
struct heat_rwin {
	uint64_t win;
	uint32_t cpu, tid;
	uint32_t n;		/* accesses of that window, cpu, tid and kind */
	uint8_t w;
};

/* A transfer's cause in watch mode: the row whose write made the line
 * another CPU's (src) and the row accessed (dst). */
struct heat_xpair {
	struct heat_row *src, *dst;
	uint64_t n;
};

struct heat_line;

/* One field of one object on one cacheline.  Rows are 64-byte aligned and
 * the fields every sample updates come first: a sample touches the first
 * cacheline of its row, the perf c2c counters after it and the first code
 * locations — four adjacent lines, which the hardware prefetches together. */
struct heat_row {
	struct heat_cpuset cpus;
	struct heat_tidset tids;
	uint32_t nips;
	uint64_t nsamples;	/* samples counted so far; added to c.samples by
				 * hm_heat_finish() */
	hm_c2c_stats st;	/* perf c2c's counters for samples with data_src */
	struct heat_ip ips[HEAT_IPS];
	uint64_t ip_other;
	hm_heat_counts c;
	/* The hash key, together: a lookup reads one line of the row. */
	uint64_t laddr, faddr;	/* line->addr, obj_base + foff */
	struct heat_row *hnext;	/* hash chain */
	struct heat_line *line;
	const char *sname;	/* NULL: address not attributed */
	const char *object;	/* variable name or "TYPE@0xADDR"; NULL if unattributed */
	const char *path;
	const char *strategy;	/* hm_heat_access.strategy */
	enum hm_profile_kind kind;
	uint64_t ssize, obj_base, foff, fsize;
	struct heat_row *next;	/* next row of the same line, by offset */
	struct heat_actors acts;
	uint32_t group;		/* verdict: its group of fields on the line, 0 = none */
	unsigned has_w_bp : 1, has_rw_bp : 1;
	unsigned in_fs : 1, in_ts : 1;	/* verdict: in the false / true sharing part */
	unsigned container_unknown : 1;	/* its instance lies inside another one
					 * whose layout does not embed its type */
	struct heat_rwin *rw;	/* sampled-register accesses by window */
	uint32_t nrw, crw;
};

struct heat_watch;
struct heat_rows;


struct heat_line {
	uint64_t addr;
	struct heat_row *rows;
	uint32_t nrows;
	uint32_t seq;		/* its place among the lines, by first access */
	struct heat_line *hnext;
	/* filled by hm_heat_finish() */
	hm_c2c_stats st;
	hm_heat_counts c;
	struct heat_cpuset cpus;
	struct heat_tidset tids;
	uint32_t nfields, nwritten;
	enum heat_verdict verdict;
	struct heat_evidence ev;
	/* watch model state */
	int64_t last_writer;
	struct heat_row *last_wrow;	/* the row of the last write */
	struct heat_xpair *xp;		/* transfers by cause */
	uint32_t nxp, xp_cap;
	struct heat_cpuset holders;
	struct heat_watch *wq, *wq_tail;	/* accesses not yet modelled */
};

/* A breakpoint access waiting for the model: until its pairing is known
 * (pending), or, for a read/write one on a field whose write breakpoint has
 * not fired yet, whether it is a read. */
struct heat_watch {
	struct heat_watch *next;	/* in its line's queue, or free */
	uint64_t ip, link;
	const void *bin;
	struct heat_row *row;
	uint32_t cpu, tid;
	unsigned w : 1, drop : 1, pending : 1;
};

/* Per thread: its last breakpoint access, for the pairing. */
struct heat_wtid {
	uint32_t tid, used;
	struct heat_watch *pend;	/* last access: rw, not dropped */
	struct heat_row *row;
	uint64_t ip;
	unsigned w : 1, claimed : 1;	/* last was w; it dropped the one before */
};

/* What an attributed compact line's row would say of its field: the
 * first access's names and place, a key per line (a page-fault recording
 * names one instance per line: 32 bytes, where a row and a line take
 * 1.3 KB; a field of an instance is on one line, so a key would hardly
 * ever be another line's).  What does not
 * name the instance (the struct, the field, the path) is shared by every
 * instance's key, in a struct heat_cfield interned once (compared by
 * address).  Lifting to a container (attr/) rewrites the key as it does a
 * row (heat_ckey_relabel()). */
struct heat_cfield {
	const char *sname, *path, *strategy;	/* interned, as a row's */
	uint64_t ssize, foff;
	uint32_t fsize;		/* larger: no key, a row */
	enum hm_profile_kind kind : 8;
};

struct heat_ckey {
	const struct heat_cfield *f;
	const char *object;	/* interned, as a row's */
	uint64_t obj_base;
	unsigned container_unknown : 1;
};

#define HEAT_CKBLK 4096	/* keys a block */

static inline struct heat_ckey *heat_ckey_at(const hm_heat *h, size_t i);

/* A line whose accesses so far are to one field (or unattributed), from
 * one CPU and one thread, at one code location, with data sources or
 * addresses only (heat-compact.c): counts only, one cacheline, until an
 * access that needs a row (another CPU, thread or location, a counter past
 * 255, a watchpoint or sampled-register access, an access to another field
 * of the line) promotes it.  The handle heat_row_of() gives for it is its
 * address with bit 0 set. */
struct heat_compact {
	uint64_t laddr;
	union {
		struct {
			uint32_t ip;	/* index in hm_heat.cips */
			uint32_t cpu, tid;
			uint32_t seq;	/* as heat_line.seq */
		} k;
		struct heat_row *row;	/* promoted */
	} u;
	uint32_t key;		/* index + 1 of its heat_ckey; 0: unattributed */
	uint8_t state;		/* enum heat_compact_state */
	uint8_t n;		/* samples */
	/* Last: a heat whose events carry no data source keeps records of
	 * half a cacheline, without them (hm_heat.cnarrow). */
	uint8_t st[sizeof(hm_c2c_stats) / sizeof(uint32_t)];	/* hm_c2c_stats's */
};

enum heat_compact_state {
	HEAT_COMPACT = 0,
	HEAT_PROMOTED,		/* a row and line of h->lines */
	HEAT_MATERIALIZED,	/* after hm_heat_finish(): a line of its own */
};

#define HEAT_CBLK 4096

static inline int heat_row_compact(const struct heat_row *r)
{
	return (uintptr_t)r & 1;
}

#define HEAT_FRONT 8192	/* direct-mapped (address, path) → row cache */

struct heat_front {
	uint64_t addr;
	const char *path, *sname;	/* the caller's pointers, compared as such */
	struct heat_row *row;
};

#define HEAT_ICACHE 256	/* direct-mapped caller's string → strs copy */

struct heat_icache {
	const char *src;	/* the caller's pointer */
	const char *copy;	/* its copy in strs */
};

struct hm_heat {
	unsigned line_size;
	struct heat_front *front;
	hm_arena arena;
	hm_strtab strs;
	/* Callers name a field with the same pointers sample after sample:
	 * their last copies, found by pointer before hashing the bytes. */
	struct heat_icache icache[HEAT_ICACHE];
	struct heat_row **rtab;
	size_t rtab_size, nrows;
	struct heat_line **ltab;
	size_t ltab_size;
	struct heat_rows *rows;		/* where rows are carved from, newest first */
	size_t rows_used;		/* of rows' block */
	struct heat_line **lines;	/* every line, in creation order */
	size_t nlines, lines_cap;
	struct heat_watch *wfree;	/* recycled queue entries */
	struct heat_wtid *wtid;
	size_t wtid_n, wtid_size;
	const hm_perf_info *winfo;	/* events, to know which fields can see w */
	unsigned seen_datasrc : 1, seen_watch : 1, seen_addr : 1, assumed_writes : 1;
	unsigned seen_regs : 1;
	/* lines kept as counts only (heat-compact.c) */
	uint32_t *ctab;			/* index + 1 in cblk, open addressing
					 * by line address */
	uint8_t *ctag;			/* each slot's tag, 0: free
					 * (heat-compact.c) */
	size_t ctab_size, ncompact;
	struct heat_compact **cblk;	/* the records, HEAT_CBLK a block */
	size_t ncblk;
	/* The records are half a cacheline, without st[] (their size is 1 <<
	 * crec_shift): no event of the recording carries a data source, so
	 * no counter can be counted, and a page-fault recording's tens of
	 * thousands of lines take half the memory.  A data source that comes
	 * after all (a second recording) makes its line a row. */
	unsigned cnarrow : 1;
	uint8_t crec_shift;
	struct heat_ip *cips;		/* their code locations, distinct */
	uint32_t *ciptab;		/* index + 1 in cips, by hash */
	size_t ncips, cips_cap, ciptab_size;
	struct heat_ckey **ckblk;	/* attributed compact lines' fields,
					 * HEAT_CKBLK a block */
	size_t nckeys;
	struct heat_cfield **cftab;	/* the keys' fields, by hash */
	size_t ncfields, cftab_size;
	hm_arena cfarena;		/* where they are */
	struct heat_line **mat;		/* lines made for the output after the end */
	size_t nmat, mat_cap;
	uint32_t nseq;			/* lines begun so far */
	unsigned promoted : 1;		/* some line was begun before promotion */
	uint64_t *cpu_samples;		/* every sample by CPU, for the cost */
	uint32_t ncpu_samples;
	unsigned finished : 1;
	unsigned borrow_objects : 1;	/* heat_borrow_objects() */
};

static inline struct heat_ckey *heat_ckey_at(const hm_heat *h, size_t i)
{
	return &h->ckblk[i / HEAT_CKBLK][i % HEAT_CKBLK];
}

int heat_cpuset_grow_add(struct heat_cpuset *s, uint32_t cpu);
/* Add a CPU; the common case (already there) costs one bit test. */
static inline int heat_cpuset_add(struct heat_cpuset *s, uint32_t cpu)
{
	if (cpu < 64) {
		if (!((s->inl >> cpu) & 1)) {
			s->inl |= 1ULL << cpu;
			s->count++;
			if (!s->nw)
				s->nw = 1;
		}
		return 0;
	}
	return heat_cpuset_grow_add(s, cpu);
}
int heat_cpuset_has(const struct heat_cpuset *s, uint32_t cpu);
int heat_cpuset_union(struct heat_cpuset *d, const struct heat_cpuset *s);
void heat_cpuset_clear(struct heat_cpuset *s);
void heat_cpuset_free(struct heat_cpuset *s);
/* Members in increasing order into out[] (at most max); returns the count. */
size_t heat_cpuset_list(const struct heat_cpuset *s, uint32_t *out, size_t max);
int heat_tidset_add(struct heat_tidset *s, uint32_t tid);

/* Whether the row was written (stores, or watch-mode writes). */
static inline int heat_row_written(const struct heat_row *r)
{
	return r->c.stores || r->c.writes;
}

const char *heat_verdict_name(enum heat_verdict v);
const char *heat_rule_text(enum heat_rule r);
/* Count an access by actor id into a field's actors.  0 or -ENOMEM. */
int heat_actors_add(struct heat_actors *s, uint32_t id, int write);
/* The line's verdict, its evidence and its parts, from its finished rows
 * (heat-verdict.c).  watch: the counts are watchpoint data.  0 or -ENOMEM. */
int heat_line_verdict(struct heat_line *l, int watch);
/* The same from sampled-register accesses (HEAT_EV_REGS). */
int heat_line_verdict_regs(struct heat_line *l, const hm_heat *h);
/* Count a sample of cpu for the cost shown with sampled-register
 * verdicts.  0 or -ENOMEM. */
int heat_cpu_sample(hm_heat *h, uint32_t cpu);
void heat_counts_add(hm_heat_counts *d, const hm_heat_counts *s);

/* hm_heat_add() in two steps, so a caller that has already seen an address
 * can keep its row: the row of an access (NULL on ENOMEM), and counting one
 * access into a row (only the per-sample fields of `a` are read). */
struct heat_row *heat_row_of(hm_heat *h, const hm_heat_access *a);
int heat_count(hm_heat *h, struct heat_row *r, const hm_heat_access *a);
/* The events of the file being counted (kept, not copied; NULL: unknown):
 * a read/write access to a field no write breakpoint covers is a write at
 * once, without waiting for the end. */
void heat_watch_events(hm_heat *h, const hm_perf_info *info);

/* Lines kept as counts only (heat-compact.c): the record of laddr, or
 * NULL and in *slot where a new one goes (SIZE_MAX: out of memory), which
 * stays so until the next record is added; adding it (NULL on ENOMEM). */
/* The records' size, from the events of the recording to come (info), while
 * there is none yet. */
void heat_compact_events(hm_heat *h, const hm_perf_info *info);
struct heat_compact *heat_compact_lookup(hm_heat *h, uint64_t laddr, size_t *slot);
struct heat_compact *heat_compact_add(hm_heat *h, size_t slot, uint64_t laddr);
/* The key a new compact line of access a takes: 0 when a is unattributed,
 * -1 when it cannot be compact (named, but no field), -ENOMEM. */
long heat_ckey_of(hm_heat *h, const hm_heat_access *a);
/* k names (sname, object, path, ssize, obj_base, foff) from now on, its
 * strategy, kind and field size unchanged: 0, or -ENOMEM. */
int heat_ckey_relabel(hm_heat *h, struct heat_ckey *k, const char *sname, const char *object,
		      const char *path, uint64_t ssize, uint64_t obj_base, uint64_t foff);
/* Whether a counts into c's row (the same field, or both unattributed). */
int heat_compact_same(const hm_heat *h, const struct heat_compact *c, const hm_heat_access *a);
/* Every line with a row, in the order of their first access, the
 * attributed compact ones made lines of their own (for the profile; caller
 * frees the array): their number, or -ENOMEM. */
long heat_lines_all(hm_heat *h, struct heat_line ***out);
/* Count an access into a compact line: 0, 1 when it needs the line's row
 * (promote, then count it there), or -ENOMEM. */
int heat_compact_count(hm_heat *h, struct heat_compact *c, const hm_heat_access *a);
/* The line's row, with its counts so far: a line of h->lines.  NULL on
 * ENOMEM. */
struct heat_row *heat_compact_promote(hm_heat *h, struct heat_compact *c);
void heat_compact_free(hm_heat *h);

/* heat.c's pieces heat-compact.c builds rows with. */
struct heat_line *heat_line_new(hm_heat *h, uint64_t addr, uint32_t seq, int listed);
struct heat_row *heat_row_unattributed(hm_heat *h, struct heat_line *l);
/* A new row of line l for access a's field. */
struct heat_row *heat_row_new(hm_heat *h, struct heat_line *l, const hm_heat_access *a);
const char *heat_intern(hm_heat *h, const char *s);
/* An object name as a row keeps it: the caller's own after
 * heat_borrow_objects(), else heat_intern()'s copy. */
const char *heat_intern_object(hm_heat *h, const char *s);
/* From now on the caller's object names are kept as they are, not copied:
 * they outlive h, and no string it passes is rewritten while h lives (a
 * name seen before is known by its pointer alone).  Equal object names
 * may be two pointers: rows and compact lines are told apart by the
 * names' bytes, and a pointer compared only shares a key (struct
 * heat_ckey) between the lines that name the same.  A page-fault
 * recording names an instance per line: copying and hashing each name
 * again cost as much as naming it. */
void heat_borrow_objects(hm_heat *h);
int heat_line_finish(hm_heat *h, struct heat_line *l);
void heat_stats_to_counts(const hm_c2c_stats *st, hm_heat_counts *c);

/* Finish counting: runs the watchpoint coherence model over the buffered
 * breakpoint accesses.  Call once, after the last access.  (Its public-looking
 * name stays until its callers in attr/ are renamed.) */
int hm_heat_finish(hm_heat *h);

#endif
