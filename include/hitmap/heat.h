/* heat: access counters per struct field and per cacheline instance, built
 * from attributed samples, and the profile — their saved, rebuild-proof form.
 *
 * A profile is keyed by names, not addresses: struct name → field path.  It
 * survives a rebuild that moves offsets (offsets are kept for information).
 * hm_heat_profile() makes one from a heat accumulator and hm_profile_save()
 * writes it; hm_profile_load() reads it back for hm_check() and hm_suggest().
 *
 * Profile file (JSON, UTF-8).  Unknown keys are ignored so later versions of
 * schema 1 can add counters; a different "schema" is refused.
 *
 *   { "schema": "hitmap-profile/1",
 *     "source": { "input": "perf.data", "kind": "hitm" | "watch" | "regs" | "addr",
 *                 "samples": N, "attributed": N,
 *                 "builds": [{ "file": "/usr/bin/x", "build_id": "ab12..." }] },
 *     "cacheline_size": 64,
 *     "structs": [
 *       { "name": "mm_struct", "kind": "struct" | "variable", "size": 1024,
 *         "objects": ["init_mm"],
 *         "fields": [
 *           { "path": "mmap_lock.count", "offset": 112, "size": 8,
 *             "samples": 0, "loads": 0, "stores": 0, "lcl_hitm": 0,
 *             "rmt_hitm": 0, "lcl_peer": 0, "rmt_peer": 0, "st_l1hit": 0,
 *             "st_l1miss": 0, "reads": 0, "writes": 0, "transfers": 0,
 *             "cpus": [0, 3], "threads": [4711, 4712] } ],
 *         "pairs": [
 *           { "a": "mmap_lock.count", "b": "page_table_lock", "samples": 0,
 *             "hitm": 0, "transfers": 0, "lines": 1, "cpus": [0, 3] } ],
 *         "true_shared": [
 *           { "field": "count", "samples": 0, "hitm": 0, "transfers": 0,
 *             "lines": 1, "cpus": [0, 3] } ] } ] }
 *
 * "kind": "struct" entries name a struct/union/class type (what check and
 * suggest look up in the binary); "variable" entries are globals whose type is
 * not a struct (an `int counter`, an array of longs): "name" is the variable and
 * paths are inside its type ("" for the scalar itself, "[3]" for an element).
 * A global of struct type (`spinlock_t blocked_lock_lock`) is filed under its
 * struct ("spinlock") with the variable listed in "objects".
 *
 * Pairs and true sharing come from the verdicts of cacheline instances (one
 * line of one object; hitmap-report(1), VERDICTS): on a line with a false
 * sharing part, every two fields of different groups (accessed by different
 * threads or CPUs), at least one written, at least one in that part, are a
 * contending pair; on a line with a true sharing part, each field of it (a
 * field, or fields such as a lock and what it guards, written and accessed
 * by the same threads or CPUs) is truly shared.  Lines below the evidence
 * floor give neither.  Counts add up over all lines and objects of the
 * struct.
 *
 * Ownership: hm_profile_load() / hm_heat_profile() return a profile freed with
 * hm_profile_free(); every pointer reachable from it is owned by it.  hm_heat
 * objects are freed with hm_heat_free().
 */
#ifndef HITMAP_HEAT_H
#define HITMAP_HEAT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Counters of one field (or of one line, summed).  Names follow perf c2c
 * (datasrc.h); reads/writes/transfers come from watchpoint data. */
typedef struct hm_heat_counts {
	uint64_t samples;	/* every attributed sample on it */
	uint64_t loads, stores;
	uint64_t lcl_hitm, rmt_hitm;
	uint64_t lcl_peer, rmt_peer;
	uint64_t st_l1hit, st_l1miss;
	uint64_t reads, writes;	/* watch mode: accesses by kind */
	uint64_t transfers;	/* watch mode: estimated cross-CPU line transfers */
} hm_heat_counts;

typedef struct hm_profile_field {
	const char *path;	/* "mmap_lock.count", "slots[3].hits", "" = whole scalar */
	uint64_t offset, size;	/* in the struct, at recording time */
	hm_heat_counts c;
	size_t nr_cpus;
	const uint32_t *cpus;	/* sorted, distinct */
	size_t nr_threads;
	const uint32_t *threads;	/* tids, sorted, distinct */
} hm_profile_field;

/* Two fields of one struct seen contending on a shared line. */
typedef struct hm_profile_pair {
	const char *a, *b;	/* field paths, a < b by offset */
	uint64_t samples;	/* samples on a and b on the lines where they contended */
	uint64_t hitm;		/* of those, lcl_hitm + rmt_hitm */
	uint64_t transfers;	/* of those, watch-mode transfers */
	uint32_t lines;		/* line instances where they contended */
	size_t nr_cpus;
	const uint32_t *cpus;
} hm_profile_pair;

/* A field of a line's true sharing part. */
typedef struct hm_profile_shared {
	const char *field;
	uint64_t samples, hitm, transfers;
	uint32_t lines;
	size_t nr_cpus;
	const uint32_t *cpus;
} hm_profile_shared;

/* The fields of one struct in the true sharing part of one line, together:
 * a lock and what it guards, written from several CPUs.  Separating them
 * removes nothing; keeping others off their line does.  Summed over the
 * lines where the same set was truly shared. */
typedef struct hm_profile_shared_group {
	size_t nr_fields;
	const char *const *fields;	/* paths, sorted by name, distinct */
	uint64_t samples, hitm, transfers;
	uint32_t lines;
	size_t nr_cpus;
	const uint32_t *cpus;
} hm_profile_shared_group;

enum hm_profile_kind { HM_PROFILE_STRUCT = 0, HM_PROFILE_VARIABLE = 1 };

typedef struct hm_profile_struct {
	const char *name;
	enum hm_profile_kind kind;
	uint64_t size;
	size_t nr_objects;
	const char *const *objects;	/* global variable names seen, may be 0 */
	size_t nr_fields;
	const hm_profile_field *fields;	/* by offset, then path */
	size_t nr_pairs;
	const hm_profile_pair *pairs;	/* most samples (then HITM) first */
	size_t nr_shared;
	const hm_profile_shared *shared;	/* most samples (then HITM) first */
	/* "true_shared_groups"; none in a profile written before them (its
	 * truly shared fields are then each a group of one) */
	size_t nr_shared_groups;
	const hm_profile_shared_group *shared_groups;	/* most samples first */
} hm_profile_struct;

/* One binary of the recording: perf's build-id table (its file name as
 * recorded, the build-id in hex). */
typedef struct hm_profile_build {
	const char *file;
	const char *build_id;
} hm_profile_build;

/* A profile made from a cut input ("truncated" in the JSON): its counts
 * are those of the samples read before the cut, a part of the recording. */
typedef struct hm_profile_truncation {
	const char *what;	/* "data section", "feature section" */
	uint64_t offset;	/* the file offset of the cut */
	uint64_t samples_kept;	/* the samples read (all of them when the cut
				 * is after the data section) */
	const char *features_lost;	/* "BUILD_ID, CACHE", or NULL */
} hm_profile_truncation;

typedef struct hm_profile {
	const char *input;	/* recorded source file name, may be NULL */
	const char *kind;	/* "hitm", "watch", "regs", "addr" */
	uint64_t samples, attributed;
	uint32_t cacheline_size;
	size_t nr_structs;
	const hm_profile_struct *structs;	/* most samples first */
	size_t nr_builds;
	const hm_profile_build *builds;	/* by file name; "source": {"builds": [...]} */
	/* NULL, or where the input it was made from was cut: the counts
	 * cover only what came before; a caller decides whether to use it */
	const hm_profile_truncation *truncated;
} hm_profile;

/* Read a profile.  0, or -ENOENT/-EACCES (cannot open), -EBADMSG (malformed:
 * the diagnostic is "FILE:LINE:COL: what"), -ENOMEM.  *out set only on success. */
int hm_profile_load(const char *path, hm_profile **out);
/* Same from memory (fuzzing, tests); name is used in messages. */
int hm_profile_load_mem(const char *buf, size_t len, const char *name, hm_profile **out);

/* Write a profile as JSON ("-" = stdout).  0 or a negative errno. */
int hm_profile_save(const hm_profile *p, const char *path);

void hm_profile_free(hm_profile *p);

/* Record the binaries the samples came from (copied; replaces any).  0 or
 * -ENOMEM. */
int hm_profile_set_builds(hm_profile *p, const hm_profile_build *b, size_t n);
/* Mark the profile as made from a cut input (t copied; NULL clears).  0 or
 * -ENOMEM. */
int hm_profile_set_truncated(hm_profile *p, const hm_profile_truncation *t);

/* Profiles from many hosts or runs, summed into one: counters (fields,
 * pairs, truly shared fields, the source's samples) add up keyed by struct
 * and field path, CPU and thread sets and object names are unions, builds
 * the union of the inputs'.  The inputs must agree — same data kind, line
 * size, builds (a file recorded in two of them with two build-ids) and, per
 * struct, size and each field's offset and size — else -EINVAL after a
 * message naming both inputs and what differs, unless opts.force: then
 * counters of differing builds are summed by name, as check and suggest
 * read them.  names[i] names in[i] in messages.  *out (hm_profile_free())
 * set on success; 0, -EINVAL or -ENOMEM. */
struct hm_profile_merge_opts {
	size_t sz;
	bool force;
};
int hm_profile_merge(const hm_profile *const *in, const char *const *names, size_t n,
		     const struct hm_profile_merge_opts *opts, hm_profile **out);

/* Lookups: NULL if absent. */
const hm_profile_struct *hm_profile_find_struct(const hm_profile *p, const char *name);
const hm_profile_field *hm_profile_find_field(const hm_profile_struct *s, const char *path);

/* Sum of the counters of every field of s whose path is `path` or starts with
 * `path.` / `path[` — the heat of a member including its sub-fields.  Returns
 * the number of fields summed. */
size_t hm_profile_member_counts(const hm_profile_struct *s, const char *path,
				hm_heat_counts *out);

/* ---- Building heat (used by report; consumers of profiles need not care) ---- */

typedef struct hm_heat hm_heat;

/* Which counter a ranking uses (hm_report_opts.metric). */
enum hm_heat_metric {
	HM_METRIC_TOT_HITM = 0, HM_METRIC_LCL_HITM, HM_METRIC_RMT_HITM,
	HM_METRIC_PEER, HM_METRIC_TRANSFERS, HM_METRIC_SAMPLES,
};

/* One attributed access to be counted. */
typedef struct hm_heat_access {
	const char *sname;	/* profile key: struct name, or variable name */
	enum hm_profile_kind kind;
	uint64_t ssize;		/* sizeof the struct / variable */
	const char *object;	/* the object: "g_stats", "slots[2]", "TYPE@0xADDR" */
	uint64_t obj_base;	/* runtime address of the object */
	const char *path;	/* field path; "" for a scalar */
	uint64_t foff, fsize;	/* field offset in the object, size */
	uint64_t addr;		/* data address */
	uint64_t ip;		/* runtime IP */
	const void *ip_bin;	/* hm_binary the IP is in (for code locations), or NULL */
	uint64_t ip_link;	/* the IP as a link-time address of ip_bin */
	uint64_t time;
	uint64_t data_src;	/* 0 when the sample has none */
	uint32_t cpu, tid;
	unsigned has_data_src : 1;
	/* Watchpoint samples: which breakpoint fired.  bp_w: a write-only
	 * breakpoint; bp_rw: a read/write one (see hitmap-report(1) for how the
	 * two are combined).  Neither: an address-only sample (page faults). */
	unsigned bp_w : 1;
	unsigned bp_rw : 1;
	unsigned mapped : 1;	/* perf would find a map for addr (c2c's nomap) */
	/* An address from a timer sample's registers (hitmap(1), SAMPLED
	 * REGISTERS); regs_w: the instruction writes it. */
	unsigned regs : 1, regs_w : 1;
	/* How the object was found ("global", "object", "instruction": the
	 * attribution bucket's name), a static string kept as is; NULL:
	 * not said.  Taken from the access that creates the row. */
	const char *strategy;
} hm_heat_access;

/* line_size: a power of two (0 = 64). */
hm_heat *hm_heat_new(unsigned line_size);
void hm_heat_free(hm_heat *h);
/* Snapshot as a profile (caller frees).  NULL + errno. */
hm_profile *hm_heat_profile(const hm_heat *h, const char *input, const char *kind,
			    uint64_t samples, uint64_t attributed);

/* A short heat label for one member of a layout printout, at most `len` bytes
 * including the NUL, e.g. "hitm 812 st 40 cpus 4", or "" when the member has no
 * samples.  Counts the member and its sub-fields.  Returns the length written. */
int hm_heat_field_label(const hm_profile_struct *s, const char *path, char *buf,
			size_t len);

/* A heat table for one struct, to print after its layout (hm_layout_print()):
 * one line per member (any depth) that has samples — offset,
 * path, hm_heat_field_label() — in layout order, under a header naming the
 * profile's data kind.  Members the profile has but the struct has not (a
 * rebuild removed them) are listed at the end.  Fits 80 columns.  0 or a
 * negative errno. */
struct hm_types;
int hm_heat_print_struct(FILE *out, const struct hm_types *t, uint32_t type_id,
			 const hm_profile_struct *ps, unsigned cacheline_size);

#ifdef __cplusplus
}
#endif
#endif
