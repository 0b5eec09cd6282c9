/* What hitmap check, lint and diff share on the command line: options,
 * loading binaries, rule files and profiles, printing findings. */
#ifndef HM_CHECK_CLI_H
#define HM_CHECK_CLI_H
#include "hitmap/binary.h"
#include "hitmap/check.h"
#include "hitmap/findings.h"
#include "hitmap/heat.h"
#include "hitmap/rules.h"
#include "hitmap/types.h"
#include "cli.h"
#include "options.h"

#define CCLI_MAX 256

/* Which options a command accepts (its table says; CCLI_RULES also lets
 * operands before the binaries be more rule files). */
enum {
	CCLI_RULES = 1 << 0, CCLI_PROFILE = 1 << 1, CCLI_LINT = 1 << 2,
	CCLI_NAMES = 1 << 3, CCLI_VERBOSE = 1 << 4, CCLI_GROUPS = 1 << 5,
	CCLI_NO_LINT = 1 << 6,
};

struct ccli {
	const struct hm_cmd *cmd;
	unsigned accept;
	const char *rules[CCLI_MAX + 1];
	size_t nrules;
	const char *profile;
	char *names[CCLI_MAX + 1];	/* -C, NULL-terminated */
	size_t nnames;
	const char *ctypes[CCLI_MAX + 1];	/* --contended-type, NULL-terminated */
	size_t nctypes;
	unsigned line;
	int pair_lines, assume_aligned, lint, verbose, no_groups, no_lint, no_cache, strict;
	int explain;
	unsigned limit;
	int all;	/* diff: every finding, not the reviewer's first view */
	unsigned jobs;
	enum hm_severity fail_on;
	enum hm_findings_format fmt;
	const char *files[2];	/* NULL: the running kernel */
	int nfiles;
	struct cli_debuginfo dbg;	/* where a stripped binary's debug info is */
	char *kernel;		/* the running kernel's file, when a FILE was left out */
	int rules_dir;		/* check --rules-dir */
	const char *btf_base;
	const char *html;	/* diff --html FILE */
	const char *source_root;	/* --source-root: SARIF paths from there */
	int allow_partial;	/* check --allow-partial: a truncated profile is used */
	/* loaded */
	hm_ruleset *rs;
	hm_profile *prof;
	struct hm_check_pair *pairs;
	size_t npairs;
	struct hm_check_hot *hot;
	size_t nhot;
	const char **only;		/* NULL-terminated, or NULL = everything */
	const char **all_ctypes;	/* ctypes + the rule files' contended-type */
};

/* The options check, lint and diff have in common, declared once. */
#define CCLI_A(m) CLI_FIELD(struct ccli, m)
#define CCLI_N(m) CLI_OFF(struct ccli, m)
#define CCLI_OPT_CLASS_NAME OPT_CLASS_NAME(CCLI_A(names), CCLI_N(nnames), CCLI_MAX)
#define CCLI_OPT_CACHELINE_SIZE OPT_CACHELINE_SIZE(CCLI_A(line))
#define CCLI_OPT_NO_CACHE OPT_NO_CACHE(CCLI_A(no_cache))
#define CCLI_OPT_JOBS OPT_JOBS(CCLI_A(jobs))
#define CCLI_OPT_DEBUGINFO OPT_DEBUGINFO(struct ccli, dbg), OPT_BTF_BASE(CCLI_A(btf_base))
#define CCLI_OPT_OUTPUT \
	OPT_JSON_AS(CCLI_A(fmt), HM_FINDINGS_JSON), \
	OPT_SARIF_AS(CCLI_A(fmt), HM_FINDINGS_SARIF), \
	OPT_STRING(0, "source-root", CCLI_A(source_root), "DIR", \
		   "SARIF names each declaration relative to DIR, the source tree (the " \
		   "longest tail of its path found there; default: as the debug info " \
		   "spells it)"), \
	OPT_FAIL_ON(CCLI_A(fail_on))
#define CCLI_OPT_PROFILE \
	OPT_STRING(0, "profile", CCLI_A(profile), "P", \
		   "a profile from 'hitmap report --save-profile': falsely shared pairs " \
		   "must not share a line, a truly shared field must not share its line " \
		   "with another hot field")
#define CCLI_OPT_PAIR_LINES \
	OPT_BOOL(0, "pair-lines", CCLI_A(pair_lines), \
		 "lines 2N and 2N+1 count as one (adjacent-line prefetch)")
#define CCLI_OPT_ASSUME_ALIGNED \
	OPT_BOOL(0, "assume-aligned", CCLI_A(assume_aligned), \
		 "objects start on a line boundary whatever their alignment says " \
		 "(slab caches with SLAB_HWCACHE_ALIGN)")
#define CCLI_OPT_STRICT \
	OPT_FLAG(0, "strict", CCLI_A(strict), \
		 "a rule naming an absent struct, member or global is an error (default: " \
		 "a note, a warning when a present name is close to it)")
#define CCLI_OPT_LIMIT \
	OPT_UINT(0, "limit", CCLI_A(limit), "N", 1, 1000000000, \
		 "print the first N findings (after the summary); the counts stay whole, " \
		 "JSON and SARIF carry all")
#define CCLI_OPT_CONTENDED_TYPE \
	OPT_LIST(0, "contended-type", CCLI_A(ctypes), CCLI_N(nctypes), CCLI_MAX, "T", \
		 "one more contention-prone type, \"T\" or \"struct T\" (repeatable)")

/* Parse argv for a command taking `nfiles` files, the last of which may be
 * left out: it is then the running kernel.  Returns 0 to go on, or an exit
 * status (HM_EXIT_OK after --help). */
int ccli_parse(struct ccli *a, int argc, char **argv, int nfiles);

/* Load --rules and --profile, and work out what the loader needs.  0 or an
 * exit status. */
int ccli_load_inputs(struct ccli *a, int need_all);

/* Open a binary and load its types (only a->only unless NULL).  0 or an exit
 * status. */
int ccli_open(struct ccli *a, const char *file, hm_binary **bin, hm_types **t);

/* diff: a -C name neither build has is the usage error layout gives, said
 * of both files.  0 or HM_EXIT_USAGE after the message. */
int ccli_names_in_either(struct ccli *a, hm_types *const t[2]);

/* Fill the library options from the command line. */
void ccli_opts(struct ccli *a, struct hm_check_opts *o);

/* Sort, print, and map to an exit status by --fail-on. */
int ccli_finish(struct ccli *a, hm_findings *f, const struct hm_check_stats *st);

void ccli_free(struct ccli *a);

#endif
