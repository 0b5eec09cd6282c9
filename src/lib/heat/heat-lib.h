/* Internal to libhitmap, shared between its folders: what the printers in
 * output/ read of heat/ beyond hitmap/heat.h — a member's heat from a
 * profile (heat-member.c), the JSON spelling of counters (profile.c), and
 * the finished accumulator's lines and rows (heat-iter.c) — through
 * accessors, so that heat's storage stays its own. */
#ifndef HM_HEAT_LIB_H
#define HM_HEAT_LIB_H
#include <stddef.h>
#include <stdint.h>
#include "hitmap/datasrc.h"
#include "hitmap/heat.h"

struct hm_json;

/* One field's counters as members of the JSON object being written: the
 * profile, the report and the layout's JSON spell them alike. */
void hmi_profile_json_counts(struct hm_json *j, const hm_heat_counts *c);
/* The "truncated" object (its key written by the caller): the profile and
 * the report's JSON spell it alike. */
void hmi_profile_json_truncation(struct hm_json *j, const hm_profile_truncation *t);

/* The heat of one member: the counters of the profile fields inside it
 * summed, their CPUs as a set.  NULL on ENOMEM. */
struct hmi_member_heat;
struct hmi_member_heat *hmi_member_heat_new(void);
void hmi_member_heat_free(struct hmi_member_heat *h);
/* Add every field of ps that is `path` or inside it ("" is the whole
 * object); ps may be NULL. */
void hmi_member_heat_add_path(struct hmi_member_heat *h, const hm_profile_struct *ps,
			      const char *path);
const hm_heat_counts *hmi_member_heat_counts(const struct hmi_member_heat *h);
/* The CPUs in increasing order, each once; returns how many. */
size_t hmi_member_heat_cpus(struct hmi_member_heat *h, const uint32_t **cpus);
/* Whether an allocation failed (the CPUs are then incomplete). */
int hmi_member_heat_failed(const struct hmi_member_heat *h);

/* ---- the finished accumulator, line by line (heat-iter.c) ---- */

#define HEAT_IPS 8	/* code locations kept per row; the rest are summed */

enum heat_verdict {
	HEAT_PRIVATE = 0,
	HEAT_READ_SHARED,
	HEAT_TRUE_SHARING,
	HEAT_FALSE_SHARING,
	HEAT_UNKNOWN,		/* samples carry no load/store information */
	HEAT_INSUFFICIENT,	/* transfers, but below the evidence floor */
	HEAT_MIXED,		/* false and true sharing on one line */
};

/* The verdict's rule (heat-verdict.c; hitmap-report(1) states each). */
enum heat_rule {
	HEAT_RULE_NO_KIND = 0,	/* no load/store kind: unknown */
	HEAT_RULE_ONE_ACTOR,	/* one actor accesses the line */
	HEAT_RULE_NO_WRITES,	/* nobody writes it */
	HEAT_RULE_BELOW_RATE,	/* transfer rate confidently below the floor */
	HEAT_RULE_FEW,		/* too few transfers, or a rate not above the floor */
	HEAT_RULE_NO_PART,	/* above the floor, but no part has enough transfers */
	HEAT_RULE_PARTS,	/* above the floor, with a false and/or true part */
	HEAT_RULE_UNSEEN_WRITER,	/* HITMs above the floor, writers not sampled */
	/* sampled registers (heat_line_verdict_regs()) */
	HEAT_RULE_NO_OVERLAP,	/* no window in which two threads on two CPUs meet */
	HEAT_RULE_FEW_WINDOWS,	/* fewer shared windows than the floor */
	HEAT_RULE_NO_PART_WINDOWS,	/* no false or true part with enough windows */
	HEAT_RULE_PARTS_WINDOWS,	/* a false and/or true part above the floor */
	HEAT_RULE_SPARSE_WINDOWS,	/* too few accesses for the threads to be seen meeting */
};

/* What a line's verdict rests on. */
enum heat_ev_kind { HEAT_EV_HITM = 0, HEAT_EV_WATCH, HEAT_EV_REGS };


#define HEAT_WINDOW_NS 1000000	/* sampled registers: accesses meet in 1 ms windows */
/* Evidence floors (hitmap-report(1), VERDICTS). */
#define HEAT_MIN_TRANSFERS 5	/* transfers for any sharing verdict */
/* Random meetings the written windows of a line's threads must promise
 * before no shared window at all is taken as proof they never meet
 * (private, no-overlap): four times the sharing floor, as the random
 * model assumes threads that run all the time, and threads that run in
 * turns (a loaded host, an emulator's vCPUs) meet far less. */
#define HEAT_NO_OVERLAP_MEETINGS (4 * HEAT_MIN_TRANSFERS)
#define HEAT_MIN_RATE 0.01	/* transfers per access, 95 % lower bound */
#define HEAT_MIN_PART 0.10	/* a part's share of the line's transfers */

struct heat_line;
struct heat_row;
struct heat_cpuset;

/* The lines, in creation order; call after hm_heat_finish(). */
size_t hmi_heat_nr_lines(const hm_heat *h);
const struct heat_line *hmi_heat_line_at(const hm_heat *h, size_t i);

/* The lines kept as counts only (heat-compact.c): their number, and the
 * `top` of them ranked first by cmp (on their counts and addresses), made
 * finished lines of their own, best first, into out[]: their number, or
 * -ENOMEM. */
typedef int (*heat_rank_fn)(const hm_heat_counts *a, uint64_t aaddr, const hm_heat_counts *b,
			    uint64_t baddr, void *arg);
size_t hmi_heat_nr_compact(const hm_heat *h);
long hmi_heat_compact_top(const hm_heat *h, size_t top, heat_rank_fn cmp, void *arg,
			  const struct heat_line **out);

/* The fields of the attributed lines kept as counts only, each once (some
 * may also be rows of lines): their number, and the struct, object and
 * kind of the i-th. */
size_t hmi_heat_nr_keys(const hm_heat *h);
void hmi_heat_key(const hm_heat *h, size_t i, const char **type, const char **object,
		  enum hm_profile_kind *kind);

uint64_t hmi_heat_line_addr(const struct heat_line *l);
const hm_heat_counts *hmi_heat_line_counts(const struct heat_line *l);
/* perf c2c's counters over the line's samples with a data source. */
const hm_c2c_stats *hmi_heat_line_c2c(const struct heat_line *l);
const struct heat_cpuset *hmi_heat_line_cpus(const struct heat_line *l);
uint32_t hmi_heat_line_nr_threads(const struct heat_line *l);
enum heat_verdict hmi_heat_line_verdict(const struct heat_line *l);

/* Evidence behind a line's verdict (heat-verdict.c); the printers read a
 * copy (cost: through hmi_heat_line_cost()). */
struct heat_evidence {
	uint64_t transfers, accesses;	/* the line's: watch transfers, or HITM + peer */
	double lo, hi;			/* 95 % Wilson bounds of transfers / accesses */
	uint64_t fs_transfers, ts_transfers;
	uint32_t actors;		/* significant actors on the line */
	uint32_t groups;		/* groups of fields with the same actors */
	enum heat_rule rule;
	enum heat_ev_kind kind;
	/* HEAT_EV_REGS: transfers, fs_ and ts_transfers count shared
	 * windows; the cost, per CPU of the line's accesses: its samples on
	 * the line, of all its samples */
	uint32_t ncost;
	struct heat_cost { uint32_t cpu; uint64_t line, all; } *cost;
};
void hmi_heat_line_evidence(const struct heat_line *l, struct heat_evidence *out);
/* HEAT_EV_REGS: CPU i's samples on the line and all its samples. */
void hmi_heat_line_cost(const struct heat_line *l, uint32_t i, uint32_t *cpu, uint64_t *line,
			uint64_t *all);

const char *hmi_heat_verdict_name(enum heat_verdict v);
const char *hmi_heat_rule_text(enum heat_rule r);

/* The rows of a line (one field of one object each), by offset. */
const struct heat_row *hmi_heat_line_rows(const struct heat_line *l);
const struct heat_row *hmi_heat_row_next(const struct heat_row *r);

/* The row's struct or variable type name; NULL: address not attributed. */
const char *hmi_heat_row_type(const struct heat_row *r);
/* Variable name or "TYPE@0xADDR"; NULL if unattributed. */
const char *hmi_heat_row_object(const struct heat_row *r);
const char *hmi_heat_row_path(const struct heat_row *r);
const char *hmi_heat_row_strategy(const struct heat_row *r);
enum hm_profile_kind hmi_heat_row_kind(const struct heat_row *r);
uint64_t hmi_heat_row_object_base(const struct heat_row *r);
uint64_t hmi_heat_row_offset(const struct heat_row *r);
uint64_t hmi_heat_row_size(const struct heat_row *r);
/* Its instance lies inside another one whose layout does not embed its type. */
int hmi_heat_row_container_unknown(const struct heat_row *r);
const hm_heat_counts *hmi_heat_row_counts(const struct heat_row *r);
const struct heat_cpuset *hmi_heat_row_cpus(const struct heat_row *r);
uint32_t hmi_heat_row_nr_threads(const struct heat_row *r);
/* Whether the row was written (stores, or watch-mode writes). */
int hmi_heat_row_written(const struct heat_row *r);
/* The verdict's group of fields on the line (0: none), and whether the row
 * is in the false (0) or true (1) sharing part. */
uint32_t hmi_heat_row_group(const struct heat_row *r);
int hmi_heat_row_in_part(const struct heat_row *r, int true_sharing);

/* A code location that accessed a row. */
struct hmi_heat_ip {
	const void *bin;	/* hm_binary, or NULL */
	uint64_t link;		/* link-time address in bin */
	uint64_t ip;		/* runtime address */
	uint64_t n;		/* its accesses */
};
/* The row's code locations (at most HEAT_IPS) into out; returns how many. */
uint32_t hmi_heat_row_ips(const struct heat_row *r, struct hmi_heat_ip out[HEAT_IPS]);
/* Accesses from locations past the first HEAT_IPS. */
uint64_t hmi_heat_row_ip_other(const struct heat_row *r);

/* A set of CPUs: how many, and the next one above `after` (-1: the first),
 * or -1 past the last. */
uint32_t hmi_heat_cpus_count(const struct heat_cpuset *s);
int64_t hmi_heat_cpus_next(const struct heat_cpuset *s, int64_t after);

#endif
