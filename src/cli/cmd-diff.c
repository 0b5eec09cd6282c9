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
	o.new_label = a.files[1];
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

const struct hm_cmd hm_cmd_diff = {
	.name = "diff",
	.summary = "compare struct layouts of two builds; fail on regressions",
	.usage =
	"usage: hitmap diff [-C NAME[,NAME...]] [--rules FILE]... [--profile P]\n"
	"                   [--fail-on error|warn] [--json|--sarif] [-c N] [--pair-lines]\n"
	"                   [--contended-type T]... [--no-lint] [--no-cache] OLD NEW\n"
	"\n"
	"Compare every struct present in both OLD and NEW (or those -C names): size and\n"
	"cacheline count, members whose offset or line changed, members added or\n"
	"removed, member pairs that newly share a line or no longer do, members that\n"
	"newly straddle a line, alignment lost or gained, cacheline-group spans.\n"
	"A change that breaks a rule (--rules), a profile pair (--profile) or puts two\n"
	"contention-prone members (see hitmap lint) on one line is an error, shown with\n"
	"the affected lines of both layouts side by side; the rest are notes.\n"
	"Lines are counted from offset 0 in both builds, as pahole prints them.\n"
	"\n"
	"  -C, --class_name N  only these structs\n"
	"  --rules FILE        rule files evaluated on both sides (repeatable)\n"
	"  --profile P         a profile from 'hitmap report --save-profile'\n"
	"  --fail-on LEVEL     exit 1 on findings at or above error (default) or warn\n"
	"  --json, --sarif     JSON (hitmap/1) or SARIF 2.1.0 instead of text\n"
	"  -c, --cacheline-size N  line size (default: from the binary's machine)\n"
	"  --pair-lines        lines 2N and 2N+1 count as one (adjacent-line prefetch)\n"
	"  --contended-type T  one more contention-prone type (repeatable)\n"
	"  --no-lint           contention-prone members newly sharing a line are not\n"
	"                      errors (only rules and the profile are)\n"
	"  --no-cache          neither read nor write the type cache\n"
	"                      ($XDG_CACHE_HOME/hitmap; HITMAP_NO_CACHE=1 too)\n"
	"\n"
	"exit status: 0 nothing at or above --fail-on, 1 findings, 2 usage error or\n"
	"a -C struct in neither binary, 3 unreadable or malformed input\n",
	.run = run,
};
