/* hitmap check: rule files, kernel cacheline groups, profile pairs and
 * (optionally) lint, as a CI gate. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include "check-cli.h"

static int run(int argc, char **argv)
{
	struct ccli a = { .cmd = &hm_cmd_check, .accept = CCLI_RULES | CCLI_PROFILE |
			  CCLI_LINT | CCLI_NAMES | CCLI_VERBOSE | CCLI_GROUPS };
	struct hm_check_stats st = { 0 };
	struct hm_check_opts o;
	hm_findings *f = NULL;
	hm_binary *bin = NULL;
	hm_types *t = NULL;
	int rc, err;

	rc = ccli_parse(&a, argc, argv, 1);
	if (rc)
		return rc < 0 ? HM_EXIT_OK : rc;
	/* Without lint only the named structs are needed: much faster on a kernel. */
	rc = ccli_load_inputs(&a, a.lint && !a.nnames);
	if (!rc)
		rc = ccli_open(&a, a.files[0], &bin, &t);
	if (rc)
		goto out;
	ccli_opts(&a, &o);
	o.stats = &st;
	if (!(f = hm_findings_new())) {
		rc = HM_EXIT_INPUT;
		goto out;
	}
	err = hm_check(bin, t, &o, f);
	if (err) {
		rc = err == -ENOENT ? HM_EXIT_USAGE : HM_EXIT_INPUT;
		goto out;
	}
	rc = ccli_finish(&a, f, &st);
out:
	hm_findings_free(f);
	hm_types_free(t);
	hm_binary_close(bin);
	ccli_free(&a);
	return rc;
}

const struct hm_cmd hm_cmd_check = {
	.name = "check",
	.summary = "check layouts against rule files, groups and a profile (CI gate)",
	.usage =
	"usage: hitmap check [--rules FILE]... [--profile P] [--lint] [-C NAME[,NAME...]]\n"
	"                    [--fail-on error|warn] [--json|--sarif] [-c N]\n"
	"                    [--pair-lines] [--assume-aligned] [--contended-type T]...\n"
	"                    [--no-groups] [--no-cache] [-v] BINARY\n"
	"\n"
	"Check the struct layouts of BINARY against rule files (see hitmap-rules(5)),\n"
	"the kernel's __cacheline_group_begin/end markers (members inside, aligned\n"
	"groups starting a line; the spans are reported as notes) and, with --profile,\n"
	"the field pairs a measured profile shows contending.\n"
	"\n"
	"  --rules FILE        a rule file (repeatable)\n"
	"  --profile P         a profile from 'hitmap report --save-profile': falsely\n"
	"                      shared pairs must not share a line, a truly shared field\n"
	"                      must not share its line with another hot field\n"
	"  --lint              also run 'hitmap lint' (loads every struct)\n"
	"  -C, --class_name N  limit --lint and the group checks to these structs\n"
	"  --fail-on LEVEL     exit 1 on findings at or above error (default) or warn\n"
	"  --json              JSON ({\"schema\":\"hitmap/1\",...}) instead of text\n"
	"  --sarif             SARIF 2.1.0, located at each struct's declaration\n"
	"  -c, --cacheline-size N  line size (default: from the binary's machine)\n"
	"  --pair-lines        lines 2N and 2N+1 count as one (adjacent-line prefetch)\n"
	"  --assume-aligned    objects start on a line boundary whatever their\n"
	"                      alignment says (slab caches with SLAB_HWCACHE_ALIGN)\n"
	"  --contended-type T  one more contention-prone type for --lint (repeatable)\n"
	"  --no-groups         skip the cacheline-group checks\n"
	"  -v, --verbose       report each passing rule as a note\n"
	"  --no-cache          neither read nor write the type cache\n"
	"                      ($XDG_CACHE_HOME/hitmap; HITMAP_NO_CACHE=1 too)\n"
	"\n"
	"A struct whose alignment does not fix its position on the lines is judged by\n"
	"the worst case over every start its alignment allows, unless\n"
	"--assume-aligned.  A struct or member a rule names that the binary lacks is a\n"
	"note (an error in a block that says 'require').\n"
	"\n"
	"exit status: 0 nothing at or above --fail-on, 1 findings, 2 usage error,\n"
	"3 unreadable or malformed input (binary, rule file, profile)\n",
	.run = run,
};
