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

#define CCLI_MAX 256

/* Which options a command accepts. */
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
	int pair_lines, assume_aligned, lint, verbose, no_groups, no_lint, no_cache;
	enum hm_severity fail_on;
	enum hm_findings_format fmt;
	const char *files[2];
	int nfiles;
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

/* Parse argv for a command taking `nfiles` files.  Returns 0 to go on, or an
 * exit status (HM_EXIT_OK after --help). */
int ccli_parse(struct ccli *a, int argc, char **argv, int nfiles);

/* Load --rules and --profile, and work out what the loader needs.  0 or an
 * exit status. */
int ccli_load_inputs(struct ccli *a, int need_all);

/* Open a binary and load its types (only a->only unless NULL).  0 or an exit
 * status. */
int ccli_open(struct ccli *a, const char *file, hm_binary **bin, hm_types **t);

/* Fill the library options from the command line. */
void ccli_opts(struct ccli *a, struct hm_check_opts *o);

/* Sort, print, and map to an exit status by --fail-on. */
int ccli_finish(struct ccli *a, hm_findings *f, const struct hm_check_stats *st);

void ccli_free(struct ccli *a);

#endif
