/* hitmap diff: one build's struct layouts against another's, as a review
 * comment and a CI gate. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include "hitmap/output.h"
#include "check-cli.h"

struct html_ctx {
	const hm_types *const *t;
	const struct ccli *a;
	const hm_findings *f;
	const struct hm_check_opts *o;
};

static int write_html(FILE *out, void *ctx)
{
	const struct html_ctx *x = ctx;
	HM_OPTS(hm_html_opts, ho, .cacheline_size = x->o->cacheline_size);

	return hm_diff_print_html(out, x->t[0], x->t[1], (const char *const *)x->a->names,
			    x->a->nnames, x->f, x->o->old_label, x->o->new_label, &ho);
}

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
	if (!rc)
		rc = ccli_names_in_either(&a, t);
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
	if (a.html) {
		struct html_ctx x = { (const hm_types *const *)t, &a, f, &o };

		if ((rc = cli_write_html(a.html, write_html, &x)))
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
	OPT_HTML(CCLI_A(html)),
	CCLI_OPT_CACHELINE_SIZE,
	CCLI_OPT_PAIR_LINES,
	OPT_BOOL(0, "assume-aligned", CCLI_A(assume_aligned),
		 "accepted as check and lint do; diff counts lines from offset 0 anyway"),
	CCLI_OPT_CONTENDED_TYPE,
	CCLI_OPT_STRICT,
	CCLI_OPT_LIMIT,
	OPT_FLAG(0, "all", CCLI_A(all),
		 "print every finding: past 100 findings the text shows only the summary "
		 "and 40 errors, tables under the first three"),
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
	"kernel; either may be raw BTF) (or those -C names).  First a summary: structs\n"
	"compared, changed, only in one build, and the root causes -- types whose own\n"
	"change moved other structs, ranked by how many.  Then the findings, errors\n"
	"first: a change that breaks a rule (--rules), a profile pair (--profile) or\n"
	"puts two contention-prone members (see hitmap lint) on one line is an error,\n"
	"shown with the affected lines of both layouts side by side, once at the\n"
	"struct that declares the two; the rest are notes: size and cacheline count,\n"
	"member sizes, members moved, added or removed, pairs that newly share a line\n"
	"or no longer do, straddling, alignment, cacheline-group spans.\n"
	"Lines are counted from offset 0 in both builds, as pahole prints them.\n"
	"Errors are ranked: rule regressions first, then contention-prone pairs by\n"
	"how many members point to their struct (mm_struct before a driver's), by\n"
	"the profile's evidence when one is given.  Past 100 findings (a whole\n"
	"kernel), the text shows the summary and the first 40 errors, tables under\n"
	"the first three; --all, --limit or --json give the rest.\n",
	.options = options,
	.epilog =
	"exit status: 0 nothing at or above --fail-on, 1 findings, 2 usage error or\n"
	"a -C struct in neither binary, 3 unreadable or malformed input\n",
	.run = run,
};
