/* check, lint, diff: turning layouts into findings.
 *
 * - hm_check(): rule files (rules.h), the implicit kernel cacheline-group rules,
 *   profile pairs, and optionally lint.
 * - hm_lint(): contention-prone members (locks, atomics, refcounts and their
 *   typedefs, also inside struct-typed members) sharing a line with each other
 *   or with read-mostly neighbours, ranked, as warnings.
 * - hm_diff(): layout A against layout B per struct name.
 *
 * Cacheline truth (docs/design.md): unless opts.assume_aligned, a struct whose
 * alignment does not guarantee a line-aligned start is judged by the worst
 * case over every start its alignment allows — "may share" is true when some
 * start puts both on one line, "aligned" and "together" must hold for every
 * start.  hm_diff() compares the line maps as pahole prints them (from offset
 * 0), because a reviewer compares those; it says so in its output.
 *
 * Ownership: the functions append to a caller-owned hm_findings and keep no
 * pointer to their inputs after returning.
 */
#ifndef HITMAP_CHECK_H
#define HITMAP_CHECK_H
#include <stdbool.h>
#include <stddef.h>
#include "hitmap/hitmap.h"
#include <stdint.h>
#include "hitmap/binary.h"
#include "hitmap/types.h"
#include "hitmap/findings.h"
#include "hitmap/heat.h"
#include "hitmap/rules.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Measured contention, as a profile records it (keyed by names so it survives
 * a rebuild).  A false pair: two fields of one line, at least one written,
 * from several CPUs.  A hot field: accessed from several CPUs; `true_shared`
 * when it alone is written by many CPUs. */
struct hm_check_pair {
	const char *object;	/* struct name */
	const char *a, *b;	/* field paths */
	uint64_t weight;	/* HITMs (or samples) behind the verdict */
};
struct hm_check_hot {
	const char *object;
	const char *path;
	uint64_t weight;
	unsigned true_shared : 1;
};

/* The pairs and hot fields a profile gives check, for opts.pairs and
 * opts.hot: every contending pair of a struct entry, weighing its HITMs,
 * else its line transfers, else its samples; every truly shared field
 * (HITMs, else samples; true_shared set); every field with samples or
 * watchpoint accesses (its samples).  Variable entries have no layout and
 * give nothing.  The arrays (freed by the caller with free(); at least one
 * element allocated each) point into p.  0 or -ENOMEM. */
int hm_check_profile_inputs(const hm_profile *p, struct hm_check_pair **pairs,
			    size_t *nr_pairs, struct hm_check_hot **hot, size_t *nr_hot);

/* Rule outcomes of one hm_check() (filled when opts.stats is set). */
struct hm_check_stats {
	size_t rules;		/* directives evaluated, counting each global once */
	size_t passed, failed;
	size_t skipped;		/* struct, member or symbol absent */
};

struct hm_check_opts {
	size_t sz;			/* sizeof(struct hm_check_opts): declare with HM_OPTS */
	unsigned cacheline_size;	/* 0 = the table's (hm_types_cacheline_size()):
					 * the loaded binary's machine's */
	bool pair_lines;	/* lines 2N and 2N+1 count as one (adjacent-line prefetch) */
	bool assume_aligned;	/* every object starts on a line boundary */
	bool lint;		/* hm_check() also lints */
	bool no_groups;		/* skip the implicit cacheline-group rules */
	bool verbose;		/* also report each passing rule, as a note */
	bool no_lint;		/* diff: contention-prone pairs are not errors */
	bool strict;		/* a rule naming an absent struct, member or
					 * global is an error, close name or not */
	bool explain;		/* lint: each finding lists its members and pairs */
	const hm_ruleset *rules;	/* may be NULL */
	const char *const *structs;	/* lint/diff: only these (NULL-terminated); NULL = all */
	const char *const *contended_types;	/* extra type names for lint, NULL-terminated */
	const struct hm_check_pair *pairs;
	size_t nr_pairs;
	const struct hm_check_hot *hot;
	size_t nr_hot;
	struct hm_check_stats *stats;	/* out, may be NULL */
	const char *old_label, *new_label;	/* diff: column titles ("old", "new") */
};

/* Evaluate rules, groups, profile pairs (and lint when opts->lint) on the
 * types of one binary.  bin is needed for `global` rules (symbol addresses);
 * may be NULL, then global rules yield a note.  Returns 0, -ENOENT (with
 * opts->lint, a struct in opts->structs is absent; reported) or -ENOMEM.  A
 * rule naming an absent struct or member is a note finding, not a failure
 * (kernel configurations differ); a warning when a present name is close to
 * it (a typo: the rule would check nothing), with that name; an error when
 * the block says `require` or opts->strict. */
int hm_check(hm_binary *bin, const hm_types *t, const struct hm_check_opts *opts,
	     hm_findings *out);

/* Lint the structs opts->structs names (all structs when NULL; NULL opts
 * are the defaults).  Returns 0, -ENOENT when a named struct is absent
 * (reported), -EINVAL for opts this library does not know, -ENOMEM. */
int hm_lint(const hm_types *t, const struct hm_check_opts *opts, hm_findings *out);

/* Compare every struct present in both tables (or those opts->structs names):
 * size, line count, member offsets and lines, pairs that newly share a line
 * or no longer do, straddling, alignment, group spans.  A change that breaks a
 * rule in opts->rules, a profile pair, or puts two lint-hot members on one
 * line is an error; the rest are notes.  A rule naming what the new table
 * lacks is reported as hm_check() would when that is a warning or an error
 * (a close name, `require`, opts->strict).  Returns 0, -ENOENT when a named
 * struct is in neither (reported), -ENOMEM. */
int hm_diff(const hm_types *old_t, const hm_types *new_t, const struct hm_check_opts *opts,
	    hm_findings *out);

#ifdef __cplusplus
}
#endif
#endif
