/* hitmap check: rule files, kernel cacheline groups, profile pairs and
 * (optionally) lint, as a CI gate. */
#include "config.h"
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check-cli.h"

/* --rules-dir: where `--rules NAME` looks after the name itself, and what is
 * there (one folder level: rules/linux/mm.rules). */
static int list_rules(void)
{
	const char *dir = cli_rules_dir();
	struct dirent **sub;
	int n;

	printf("%s\n", dir);
	n = scandir(dir, &sub, NULL, alphasort);
	if (n < 0) {
		cli_error("%s: %s (make install puts the rule files there)", dir,
			  strerror(errno));
		return HM_EXIT_INPUT;
	}
	for (int i = 0; i < n; i++) {
		struct dirent **ents;
		char path[4096];
		int m;

		if (sub[i]->d_name[0] != '.' &&
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, sub[i]->d_name) < sizeof(path) &&
		    (m = scandir(path, &ents, NULL, alphasort)) >= 0) {
			for (int k = 0; k < m; k++) {
				size_t len = strlen(ents[k]->d_name);

				if (len > 6 && !strcmp(ents[k]->d_name + len - 6, ".rules"))
					printf("  %s/%s\n", sub[i]->d_name, ents[k]->d_name);
				free(ents[k]);
			}
			free(ents);
		}
		free(sub[i]);
	}
	free(sub);
	return HM_EXIT_OK;
}

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
	if (a.rules_dir) {
		ccli_free(&a);
		return list_rules();
	}
	/* Without lint only the named structs are needed: much faster on a kernel. */
	rc = ccli_load_inputs(&a, a.lint && !a.nnames);
	if (!rc && a.prof && a.prof->truncated && !a.allow_partial)
		rc = cli_refuse_partial(a.profile, a.prof);
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

static const struct cli_option options[] = {
	OPT_LIST(0, "rules", CCLI_A(rules), CCLI_N(nrules), CCLI_MAX, "FILE",
		 "a rule file, or a folder of them (repeatable); a name not found as given "
		 "is looked for among the installed rules (see --rules-dir)"),
	CCLI_OPT_PROFILE,
	OPT_FLAG(0, "allow-partial", CCLI_A(allow_partial),
		 "use a profile made from a truncated recording (its \"truncated\" "
		 "object): refused otherwise"),
	OPT_BOOL(0, "lint", CCLI_A(lint), "also run 'hitmap lint' (loads every struct)"),
	CCLI_OPT_CLASS_NAME,
	CCLI_OPT_OUTPUT,
	CCLI_OPT_CACHELINE_SIZE,
	CCLI_OPT_PAIR_LINES,
	CCLI_OPT_ASSUME_ALIGNED,
	CCLI_OPT_CONTENDED_TYPE,
	OPT_FLAG(0, "no-groups", CCLI_A(no_groups), "skip the cacheline-group checks"),
	CCLI_OPT_STRICT,
	OPT_BOOL('v', "verbose", CCLI_A(verbose), "report each passing rule as a note"),
	CCLI_OPT_NO_CACHE,
	CCLI_OPT_JOBS,
	CCLI_OPT_DEBUGINFO,
	OPT_FLAG(0, "rules-dir", CCLI_A(rules_dir),
		 "print the folder of the installed rule files (`--rules linux/mm.rules` "
		 "and `--rules linux` look there) and list them"),
	OPT_END(),
};

const struct hm_cmd hm_cmd_check = {
	.name = "check",
	.summary = "check layouts against rule files, groups and a profile (CI gate)",
	.usage = (const char *const[]){ "[options] [--rules FILE]... [--profile P] [BINARY]", NULL },
	.description =
	"Check the struct layouts of BINARY against rule files (see hitmap-rules(5)),\n"
	"the kernel's __cacheline_group_begin/end markers (members inside, aligned\n"
	"groups starting a line; the spans are reported as notes) and, with --profile,\n"
	"the field pairs a measured profile shows contending.  -C limits --lint and\n"
	"the group checks to the structs it names.  BINARY is an ELF file (its DWARF,\n"
	"a separate debug file's, or its .BTF) or a raw BTF file; without it, the\n"
	"running kernel.\n",
	.options = options,
	.epilog =
	"A struct whose alignment does not fix its position on the lines is judged by\n"
	"the worst case over every start its alignment allows, unless\n"
	"--assume-aligned.  A struct or member a rule names that the binary lacks is a\n"
	"note (an error in a block that says 'require').\n"
	"\n"
	"exit status: 0 nothing at or above --fail-on, 1 findings, 2 usage error,\n"
	"3 unreadable or malformed input (binary, rule file, profile)\n",
	.run = run,
};
