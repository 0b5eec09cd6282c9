/* Shared command-line plumbing of hitmap check, lint and diff. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/hitmap.h"
#include "hitmap/debuginfo.h"
#include "check-cli.h"

/* Rule-file errors arrive already spelt "FILE:LINE:COL: error: ..." (the
 * form editors jump to); everything else gets the usual level prefix. */
static void diag(void *ctx, enum hm_diag_level level, const char *msg)
{
	static const char *const names[] = { "error", "warning", "note", "debug" };

	(void)ctx;
	if (level == HM_DIAG_DEBUG)
		return;
	fflush(stdout);
	if (level == HM_DIAG_ERROR && strstr(msg, ": error: "))
		fprintf(stderr, "%s\n", msg);
	else
		fprintf(stderr, "%s: %s\n", names[level], msg);
}

static int is_rules_name(const char *s)
{
	size_t n = strlen(s);

	return n > 6 && !strcmp(s + n - 6, ".rules");
}

int ccli_parse(struct ccli *a, int argc, char **argv, int nfiles)
{
	const struct hm_cmd *cmd = a->cmd;
	int rc, n, k = 0, c;

	hm_set_diag(diag, NULL);
	a->fail_on = HM_SEV_ERROR;
	rc = cli_parse_options(cmd, argc, argv, a, 0, &n);
	if (rc == CLI_HELP) {
		cli_help(cmd);
		return -1;
	}
	if (rc)
		return rc;
	/* `--rules a.rules b.rules [BINARY]`: a shell glob after --rules leaves
	 * the further rule files as leading operands, told from the binary by
	 * their name (the binary may be left out: the running kernel). */
	while (a->nrules && (a->accept & CCLI_RULES) && k < n && is_rules_name(argv[1 + k])) {
		if (a->nrules == CCLI_MAX)
			return cli_usage_error(cmd, "too many --rules files");
		a->rules[a->nrules++] = argv[1 + k++];
	}
	if (n - k != nfiles && n - k != nfiles - 1)
		return cli_usage_error(cmd, nfiles == 1 ? "expected one BINARY" :
				       "expected two binaries, OLD and NEW");
	for (c = 0; c < n - k; c++)
		a->files[c] = argv[1 + k + c];
	a->nfiles = nfiles;
	return 0;
}

/* A NULL-terminated union of name lists, without duplicates. */
static int add_unique(const char ***list, size_t *n, size_t *cap, const char *s)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*list)[i], s))
			return 0;
	if (cli_grow((void **)list, cap, *n + 2, sizeof(char *)))
		return -1;
	(*list)[(*n)++] = s;
	(*list)[*n] = NULL;
	return 0;
}

static int load_profile(struct ccli *a)
{
	if (hm_profile_load(a->profile, &a->prof))
		return HM_EXIT_INPUT;	/* the loader said why */
	if (hm_check_profile_inputs(a->prof, &a->pairs, &a->npairs, &a->hot, &a->nhot)) {
		cli_error("%s: out of memory", a->profile);
		return HM_EXIT_INPUT;
	}
	return 0;
}

int ccli_load_inputs(struct ccli *a, int need_all)
{
	const char **only = NULL, **ct = NULL;
	size_t n = 0, cap = 0, nct = 0, capct = 0, i;
	const char *const *p;
	int err, bad = 0;

	if (a->nrules) {
		if (!(a->rs = hm_ruleset_new()))
			return HM_EXIT_INPUT;
		for (i = 0; i < a->nrules; i++) {
			err = cli_rules_load(a->rs, a->rules[i]);
			if (err == -ENOMEM)
				return HM_EXIT_INPUT;
			bad |= err != 0;
		}
		if (bad)
			return HM_EXIT_INPUT;
	}
	if (a->profile && (err = load_profile(a)))
		return err;
	for (i = 0; i < a->nctypes; i++)
		if (add_unique(&ct, &nct, &capct, a->ctypes[i]))
			return HM_EXIT_INPUT;
	for (p = a->rs ? hm_ruleset_contended_types(a->rs) : NULL; p && *p; p++)
		if (add_unique(&ct, &nct, &capct, *p))
			return HM_EXIT_INPUT;
	a->all_ctypes = ct;
	if (need_all)
		return 0;
	/* Load only what is named: the rules' structs, the profile's, -C. */
	for (p = a->rs ? hm_ruleset_structs(a->rs) : NULL; p && *p; p++)
		if (add_unique(&only, &n, &cap, *p))
			return HM_EXIT_INPUT;
	for (i = 0; i < a->npairs; i++)
		if (add_unique(&only, &n, &cap, a->pairs[i].object))
			return HM_EXIT_INPUT;
	for (i = 0; i < a->nhot; i++)
		if (add_unique(&only, &n, &cap, a->hot[i].object))
			return HM_EXIT_INPUT;
	for (i = 0; i < a->nnames; i++)
		if (add_unique(&only, &n, &cap, a->names[i]))
			return HM_EXIT_INPUT;
	if (!n && !(a->rs && hm_ruleset_has_globals(a->rs))) {
		free(only);
		return 0;	/* nothing named: everything */
	}
	if (!only && !(only = calloc(2, sizeof(*only))))
		return HM_EXIT_INPUT;
	a->only = only;
	return 0;
}

int ccli_open(struct ccli *a, const char *file, hm_binary **bin, hm_types **t)
{
	struct hm_debuginfo_opts dio;
	struct hm_load_opts lo;
	int err;

	cli_load_opts(&lo, a->no_cache);
	lo.threads = a->jobs;
	cli_debuginfo_opts(&a->dbg, &dio);
	lo.debuginfo = &dio;
	lo.only = a->only;
	lo.btf_base = a->btf_base;
	*t = NULL;
	*bin = NULL;
	if (!file) {
		if (!a->kernel && !(a->kernel = cli_running_kernel(&dio)))
			return HM_EXIT_INPUT;
		file = a->kernel;
	}
	/* Only globals named: the symbol table is all that is needed. */
	if (a->only && !a->only[0] && !hm_types_is_btf_file(file)) {
		if (!(*bin = hm_binary_open(file)))
			return HM_EXIT_INPUT;	/* the library said why */
		if (!(*t = hm_types_new())) {
			hm_binary_close(*bin);
			*bin = NULL;
			return HM_EXIT_INPUT;
		}
	} else if ((err = cli_open_types(file, &lo, bin, t))) {
		return err;
	}
	if (!a->line)	/* raw BTF names no machine: x86-64's */
		a->line = *bin ? hm_binary_cacheline_size(*bin) : hm_types_cacheline_size(*t, 0);
	/* one build: a -C name it lacks, or a plain C++ name several scopes
	 * define, is a mistake, said as layout says it (diff, with two
	 * builds, asks whether either has it) */
	for (size_t i = 0; a->nfiles == 1 && i < a->nnames; i++) {
		int rc = cli_ambiguous_struct(file, *t, a->names[i]);

		if (!rc && hm_types_find_struct(*t, a->names[i]) == HM_TYPE_NONE &&
		    hm_types_find_typedef(*t, a->names[i]) == HM_TYPE_NONE)
			rc = cli_unknown_struct(file, *t, a->names[i]);
		if (rc) {
			hm_types_free(*t);
			hm_binary_close(*bin);
			*t = NULL;
			*bin = NULL;
			return rc;
		}
	}
	return 0;
}

int ccli_names_in_either(struct ccli *a, hm_types *const t[2])
{
	for (size_t i = 0; i < a->nnames; i++) {
		int k;
		char both[8192];

		for (k = 0; k < 2; k++)
			if (hm_types_find_struct(t[k], a->names[i]) != HM_TYPE_NONE ||
			    hm_types_find_typedef(t[k], a->names[i]) != HM_TYPE_NONE)
				break;
		if (k < 2)
			continue;
		snprintf(both, sizeof(both), "%s and %s", a->files[0],
			 a->kernel ? a->kernel : a->files[1]);
		return cli_unknown_struct(both, t[1], a->names[i]);
	}
	return 0;
}

void ccli_opts(struct ccli *a, struct hm_check_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sz = sizeof(*o);
	o->cacheline_size = a->line;
	o->pair_lines = !!a->pair_lines;
	o->assume_aligned = !!a->assume_aligned;
	o->lint = !!a->lint;
	o->verbose = !!a->verbose;
	o->no_groups = !!a->no_groups;
	o->no_lint = !!a->no_lint;
	o->strict = !!a->strict;
	o->explain = !!a->explain;
	o->rules = a->rs;
	o->structs = a->nnames ? (const char *const *)a->names : NULL;
	o->contended_types = a->all_ctypes;
	o->pairs = a->pairs;
	o->nr_pairs = a->npairs;
	o->hot = a->hot;
	o->nr_hot = a->nhot;
}

int ccli_finish(struct ccli *a, hm_findings *f, const struct hm_check_stats *st)
{
	const char *last = a->kernel ? a->kernel : a->files[a->nfiles - 1];
	const char *inputs[3] = { a->nfiles > 1 ? a->files[0] : last,
				  a->nfiles > 1 ? last : NULL, NULL };
	struct hm_findings_meta m = {
		.command = a->cmd->name, .inputs = inputs,
		.fail_on = hm_severity_name(a->fail_on),
		.source_root = a->source_root,
		/* diff's default text when it is long (a whole kernel): the
		 * summary and the errors */
		.brief = !strcmp(a->cmd->name, "diff") && !a->all && !a->limit &&
			 a->fmt == HM_FINDINGS_TEXT && hm_findings_count(f) > 100,
		/* lint of every struct: the highest scores */
		.limit = !strcmp(a->cmd->name, "lint") && !a->nnames && !a->all && !a->limit &&
			 a->fmt == HM_FINDINGS_TEXT && hm_findings_count(f) > 40 ? 40 : a->limit,
	};

	if (st && a->rs) {
		m.has_rules = 1;
		m.rules = st->rules;
		m.rules_passed = st->passed;
		m.rules_failed = st->failed;
		m.rules_skipped = st->skipped;
	}
	hm_findings_sort(f);
	if (hm_findings_print(stdout, f, a->fmt, &m) || fflush(stdout)) {
		cli_error("cannot write the findings: %s", strerror(errno));
		return HM_EXIT_INPUT;
	}
	return hm_findings_count_at_least(f, a->fail_on) ? HM_EXIT_FINDINGS : HM_EXIT_OK;
}

void ccli_free(struct ccli *a)
{
	hm_ruleset_free(a->rs);
	hm_profile_free(a->prof);
	free(a->pairs);
	free(a->hot);
	free(a->only);
	free(a->all_ctypes);
	free(a->dbg.dirs);
	free(a->kernel);
}
