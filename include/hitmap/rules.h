/* rules: the rule-file language (see rules/README.md and hitmap-rules(5)).
 *
 *   # comment
 *   struct mm_struct {
 *       require                              # absent struct/member is an error
 *       apart     mmap_lock page_table_lock
 *       warn alone mm_count
 *       max-size  1216
 *       placement line-aligned               # objects start a cacheline
 *   }
 *   global blocked_lock_lock alone
 *   contended-type my_lock_t
 *
 * Parsing a rule file yields one hm_rule per directive.  Errors are reported
 * through the diagnostics callback as "FILE:LINE:COL: error: MESSAGE", one per
 * problem found (parsing goes on to report them all), and the parse fails.
 *
 * Ownership: hm_ruleset_new() returns a set the caller frees with
 * hm_ruleset_free().  Every pointer handed out is owned by the set.
 */
#ifndef HITMAP_RULES_H
#define HITMAP_RULES_H
#include <stddef.h>
#include <stdint.h>
#include "hitmap/findings.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hm_rule_kind {
	HM_RULE_APART,		/* no two of the members share a line */
	HM_RULE_ALONE,		/* nothing else on the member's line(s) */
	HM_RULE_ALIGNED,	/* the member starts a line */
	HM_RULE_TOGETHER,	/* all the members on one line */
	HM_RULE_NO_STRADDLE,	/* the member does not cross a line boundary */
	HM_RULE_MAX_SIZE,	/* sizeof(struct) <= value */
	HM_RULE_MAX_LINES,	/* cachelines (counted from offset 0) <= value */
};

typedef struct hm_rule {
	enum hm_rule_kind kind;
	enum hm_severity severity;	/* HM_SEV_ERROR unless prefixed `warn` */
	const char *object;		/* struct name, or the global's name */
	unsigned global : 1;		/* `global NAME ...` */
	unsigned require : 1;		/* the block said `require` */
	unsigned nr_args;
	const char *const *args;	/* member paths (none for max-*, globals) */
	uint64_t value;			/* max-size / max-lines */
	const char *file;		/* rule file name as given */
	uint32_t line, col;		/* where the directive starts */
	const char *reason;		/* the comment block above it, lines joined by
					 * '\n' without their '#'; NULL if none */
} hm_rule;

typedef struct hm_ruleset hm_ruleset;

hm_ruleset *hm_ruleset_new(void);
void hm_ruleset_free(hm_ruleset *rs);

/* Parse rule text; `name` is used in messages.  Rules accumulate across calls.
 * Returns 0, -EBADMSG after reporting every error, or -ENOMEM. */
int hm_ruleset_parse(hm_ruleset *rs, const char *name, const char *text, size_t len);

/* Read and parse a file.  -errno when it cannot be read (reported as
 * "FILE: strerror"), otherwise as hm_ruleset_parse(). */
int hm_ruleset_load(hm_ruleset *rs, const char *path);

size_t hm_ruleset_count(const hm_ruleset *rs);
const hm_rule *hm_ruleset_rule(const hm_ruleset *rs, size_t i);

/* Distinct struct names the rules mention, NULL-terminated, in first-use
 * order: what a loader needs (struct hm_load_opts.only). */
const char *const *hm_ruleset_structs(const hm_ruleset *rs);

/* Extra contention-prone type names added with `contended-type`,
 * NULL-terminated. */
const char *const *hm_ruleset_contended_types(const hm_ruleset *rs);

/* Whether the block of struct `name` says `placement line-aligned`: its
 * objects start on a line boundary (a SLAB_HWCACHE_ALIGN cache), whatever
 * its alignment says. */
int hm_ruleset_line_aligned(const hm_ruleset *rs, const char *name);

/* Whether any rule names a global variable (the loader then needs them). */
int hm_ruleset_has_globals(const hm_ruleset *rs);

/* The directive's spelling: "apart", "no-straddle", ... */
const char *hm_rule_kind_name(enum hm_rule_kind kind);

#ifdef __cplusplus
}
#endif
#endif
