/* hitmap diff: one build's struct layouts against another's, as a review
 * comment and a CI gate. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include "check-cli.h"

static int run(int argc, char **argv)
{
	struct ccli a = { .cmd = &hm_cmd_diff, .accept = CCLI_NAMES | CCLI_RULES | CCLI_PROFILE |
			  CCLI_NO_LINT };
	struct hm_check_opts o;
	hm_findings *f = NULL;
	hm_binary *bin[2] = { NULL, NULL };
	hm_types *t[2] = { NULL, NULL };
	int rc, err;

	rc = ccli_parse(&a, argc, argv, 2);
	if (rc)
		return rc < 0 ? HM_EXIT_OK : rc;
	rc = ccli_load_inputs(&a, !a.nnames);
	if (!rc)
		rc = ccli_open(&a, a.files[0], &bin[0], &t[0]);
	if (!rc)
		rc = ccli_open(&a, a.files[1], &bin[1], &t[1]);
	if (rc)
		goto out;
	ccli_opts(&a, &o);
	o.old_label = a.files[0];
	o.new_label = a.files[1] ? a.files[1] : a.kernel;
	if (!(f = hm_findings_new())) {
		rc = HM_EXIT_INPUT;
		goto out;
	}
	err = hm_diff(t[0], t[1], &o, f);
	if (err) {
		rc = err == -ENOENT ? HM_EXIT_USAGE : HM_EXIT_INPUT;
		goto out;
	}
	rc = ccli_finish(&a, f, NULL);
out:
	hm_findings_free(f);
	hm_types_free(t[0]);
	hm_types_free(t[1]);
	hm_binary_close(bin[0]);
	hm_binary_close(bin[1]);
	ccli_free(&a);
	return rc;
}

static const struct cli_option options[] = {
	CCLI_OPT_CLASS_NAME,
	OPT_LIST(0, "rules", CCLI_A(rules), CCLI_N(nrules), CCLI_MAX, "FILE",
		 "rule files evaluated on both sides (repeatable)"),
	CCLI_OPT_PROFILE,
	CCLI_OPT_OUTPUT,
	CCLI_OPT_CACHELINE_SIZE,
	CCLI_OPT_PAIR_LINES,
	OPT_BOOL(0, "assume-aligned", CCLI_A(assume_aligned),
		 "accepted as check and lint do; diff counts lines from offset 0 anyway"),
	CCLI_OPT_CONTENDED_TYPE,
	CCLI_OPT_STRICT,
	OPT_FLAG(0, "no-lint", CCLI_A(no_lint),
		 "contention-prone members newly sharing a line are not errors (only "
		 "rules and the profile are)"),
	CCLI_OPT_NO_CACHE,
	CCLI_OPT_JOBS,
	CCLI_OPT_DEBUGINFO,
	OPT_END(),
};

const struct hm_cmd hm_cmd_diff = {
	.name = "diff",
	.summary = "compare struct layouts of two builds; fail on regressions",
	.usage = (const char *const[]){ "[options] OLD [NEW]", NULL },
	.description =
	"Compare every struct present in both OLD and NEW (NEW left out: the running\n"
	"kernel; either may be raw BTF) (or those -C names): size and\n"
	"cacheline count, members whose offset or line changed, members added or\n"
	"removed, member pairs that newly share a line or no longer do, members that\n"
	"newly straddle a line, alignment lost or gained, cacheline-group spans.\n"
	"A change that breaks a rule (--rules), a profile pair (--profile) or puts two\n"
	"contention-prone members (see hitmap lint) on one line is an error, shown with\n"
	"the affected lines of both layouts side by side; the rest are notes.\n"
	"Lines are counted from offset 0 in both builds, as pahole prints them.\n",
	.options = options,
	.epilog =
	"exit status: 0 nothing at or above --fail-on, 1 findings, 2 usage error or\n"
	"a -C struct in neither binary, 3 unreadable or malformed input\n",
	.run = run,
};
