/* findings: one record for every problem check, lint and diff report, and the
 * three ways to print them (text, JSON, SARIF 2.1.0).
 *
 * A finding names a struct (or a global variable), the members involved, the
 * cachelines they sit on, a one-line message, where the rule that produced it
 * was written (rule file:line:col, when a rule did) and where the struct is
 * declared (decl_file:decl_line, for code-scanning annotations).
 *
 * Ownership: hm_findings_new() returns a list the caller frees with
 * hm_findings_free().  hm_check(), hm_lint() and hm_diff() fill it, copying
 * every string into the list; every pointer handed out by the accessors is
 * owned by the list and valid until it is freed.
 */
#ifndef HITMAP_FINDINGS_H
#define HITMAP_FINDINGS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Ordered: a finding is "at or above" a level when its value is >= it. */
enum hm_severity {
	HM_SEV_NOTE = 0,	/* information: group spans, absent structs, diff facts */
	HM_SEV_WARNING = 1,	/* lint, `warn` rules */
	HM_SEV_ERROR = 2,	/* a broken rule, a regression */
};

#define HM_FINDING_MAX_MEMBERS 8

typedef struct hm_finding {
	enum hm_severity severity;
	const char *kind;	/* stable id: "apart", "lint-shared", "diff-newly-shared" ... */
	const char *object;	/* struct name, or the global variable's name */
	unsigned global : 1;	/* object is a global variable, not a struct */
	unsigned summary : 1;	/* about the whole run (diff's root causes and
				 * struct counts): sorted and printed first */
	unsigned nr_members;
	const char *members[HM_FINDING_MAX_MEMBERS];	/* dotted paths */
	uint32_t line_first, line_last;	/* cachelines involved; UINT32_MAX = none */
	const char *message;	/* one line, no object prefix, no full stop */
	const char *detail;	/* optional multi-line text (diff side-by-side); NULL */
	const char *rule_file;	/* where the rule was written; NULL if implicit */
	uint32_t rule_line, rule_col;
	const char *decl_file;	/* where the object is declared; NULL if unknown */
	uint32_t decl_line;
	double score;		/* ranking: larger is worse; 0 unless ranked */
	const char *reason;	/* why the rule exists (its comment block, '\n'
				 * between lines); NULL if none */
} hm_finding;

typedef struct hm_findings hm_findings;

hm_findings *hm_findings_new(void);
void hm_findings_free(hm_findings *f);

size_t hm_findings_count(const hm_findings *f);
const hm_finding *hm_findings_get(const hm_findings *f, size_t i);

/* How many findings have severity >= sev, summary findings aside. */
size_t hm_findings_count_at_least(const hm_findings *f, enum hm_severity sev);

/* Stable sort: summary findings first, then severity (errors first), then
 * score (higher first), then the order they were added. */
void hm_findings_sort(hm_findings *f);

const char *hm_severity_name(enum hm_severity sev);	/* "error", "warning", "note" */

enum hm_findings_format {
	HM_FINDINGS_TEXT,
	HM_FINDINGS_JSON,	/* {"schema":"hitmap/1","command":...,"findings":[...]} */
	HM_FINDINGS_SARIF,	/* SARIF 2.1.0, one run, tool "hitmap" */
};

/* What the output says about the run itself. */
struct hm_findings_meta {
	const char *command;		/* "check", "lint", "diff" */
	const char *const *inputs;	/* analysed files, NULL-terminated */
	const char *fail_on;		/* text shown in the summary; NULL = "error" */
	unsigned has_rules : 1;		/* the counts below are meaningful */
	/* text: what a reviewer reads first -- the summary, the errors and
	 * warnings (at most `limit`, 40 if 0), side-by-side tables under the
	 * first three only, no notes; the counts stay whole */
	unsigned brief : 1;
	size_t rules, rules_passed, rules_failed, rules_skipped;
	size_t limit;			/* print at most this many findings besides the
					 * summary ones (0: all); counts stay whole */
	/* SARIF: a declaration's path is given relative to this folder (the
	 * longest tail of it found there, as `suggest --patch` does), under
	 * uriBaseId SRCROOT; NULL: as the debug info spells it */
	const char *source_root;
};

/* Print the findings to out in the given format.  Text is one or two lines per
 * finding (plus its detail) and a closing count line, within 80 columns where
 * names allow.  Returns 0, or -EIO when writing fails. */
int hm_findings_print(FILE *out, const hm_findings *f, enum hm_findings_format fmt,
		      const struct hm_findings_meta *meta);

#ifdef __cplusplus
}
#endif
#endif
