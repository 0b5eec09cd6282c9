/* hitmap suggest: placement proposals for contended struct members. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/attribute.h"
#include "hitmap/binary.h"
#include "hitmap/check.h"
#include "hitmap/debuginfo.h"
#include "hitmap/heat.h"
#include "hitmap/output.h"
#include "hitmap/perfdata.h"
#include "hitmap/rules.h"
#include "hitmap/suggest.h"
#include "hitmap/types.h"
#include "cli.h"
#include "options.h"

#define MAX_FILES 64

struct sopts {
	const char **names;	/* NULL-terminated, grown by add_name() */
	size_t nnames, capnames;
	int names_given;	/* from -C, not from the evidence */
	const char *profile, *input, *vmlinux;
	const char *rules[MAX_FILES], *binaries[MAX_FILES], *objects[MAX_FILES];
	size_t nrules, nbinaries, nobjects;
	int lint, json, patch, layout_only, no_cache;
	int allow_partial;	/* --allow-partial: a truncated profile is used */
	unsigned jobs;
	const char *source_root;
	size_t proposal;
	struct hm_suggest_opts so;
	const char *binary;
	char *kernel;		/* BINARY found for the running kernel */
	struct cli_debuginfo dbg;
	const char *btf_base;
	const char *html;	/* --html FILE */
	/* as parsed, before they go into names and so */
	const char **cnames;
	size_t ncnames;
	int style, keep_size, assume_aligned;
};

/* Everything one run holds, freed in one place. */
struct srun {
	struct sopts o;
	hm_binary *bin;
	hm_types *types;
	hm_profile *prof;
	hm_ruleset *rules;
	/* a kernel's shipped rules (rules/linux, installed): which members
	 * no proposal may leave on one line, which structs start a line */
	hm_ruleset *krules;
	hm_findings *lint;
	hm_evidence **ev;	/* one per name */
	hm_suggestion **sg;
	size_t n;
};

/* Add a struct name unless it is there already.  0 or -ENOMEM. */
static int add_name(struct sopts *o, const char *name)
{
	for (size_t k = 0; k < o->nnames; k++)
		if (!strcmp(o->names[k], name))
			return 0;
	if (cli_grow((void **)&o->names, &o->capnames, o->nnames + 2, sizeof(*o->names)))
		return -ENOMEM;
	o->names[o->nnames++] = name;
	o->names[o->nnames] = NULL;
	return 0;
}

static int parse(int argc, char **argv, struct sopts *o)
{
	const struct hm_cmd *cmd = &hm_cmd_suggest;
	int rc, n;

	o->so.sz = sizeof(o->so);
	o->so.max_growth = UINT64_MAX;
	o->style = -1;
	rc = cli_parse_options(cmd, argc, argv, o, 0, &n);
	for (size_t i = 0; !rc && i < o->ncnames; i++)
		if (add_name(o, o->cnames[i]))
			rc = cli_usage_error(cmd, "out of memory");
	free(o->cnames);
	if (rc)
		return rc;
	if (o->style >= 0)
		o->so.style = (enum hm_suggest_style)o->style;
	o->so.keep_size = !!o->keep_size;
	o->so.assume_aligned = !!o->assume_aligned;
	o->names_given = o->nnames > 0;
	if (n > 1)
		return cli_usage_error(cmd, "one BINARY only");
	o->binary = n ? argv[1] : NULL;		/* NULL: the running kernel */
	if (!o->profile && !o->input && !o->nrules && !o->lint)
		return cli_usage_error(cmd, "no evidence: give --profile, -i, --rules or --lint");
	if (!!o->profile + !!o->input > 1)
		return cli_usage_error(cmd, "--profile and -i: give one of them");
	if (o->patch && !o->source_root)
		return cli_usage_error(cmd, "--patch needs --source-root DIR");
	if (o->patch && o->json)
		return cli_usage_error(cmd, "--patch and --json: give one of them");
	return 0;
}

/* -i: attribute a perf.data the way `report` does, into a profile. */
static int profile_from_perf(struct srun *r)
{
	struct sopts *o = &r->o;
	const char *bins[MAX_FILES + 1];
	struct hm_load_opts lo;
	struct hm_profile_source src = {
		.perf_data = o->input, .binaries = bins, .nr_binaries = o->nbinaries + 1,
		.vmlinux = o->vmlinux, .objects = o->objects, .nr_objects = o->nobjects,
		.load = &lo,
	};
	int err;

	/* BINARY, whose structs are proposed for, is the first of them */
	bins[0] = o->binary;
	for (size_t i = 0; i < o->nbinaries; i++)
		bins[i + 1] = o->binaries[i];
	cli_load_opts(&lo, o->no_cache);
	lo.threads = o->jobs;
	err = hm_profile_from_perf(&src, &r->prof);
	if (err == -ENOMEM)
		cli_error("%s: out of memory attributing its samples", o->input);
	return err;
}

static int load_evidence_files(struct srun *r)
{
	struct sopts *o = &r->o;
	int err;

	if (o->profile && (err = hm_profile_load(o->profile, &r->prof)))
		return err;
	if (o->profile && r->prof->truncated && !o->allow_partial)
		return cli_refuse_partial(o->profile, r->prof) ? -EBADMSG : 0;
	if (o->input && (err = profile_from_perf(r)))
		return err;
	if (o->nrules) {
		if (!(r->rules = hm_ruleset_new()))
			return -ENOMEM;
		for (size_t i = 0; i < o->nrules; i++)
			if ((err = cli_rules_load(r->rules, o->rules[i])))
				return err;
	}
	return 0;
}

/* Without -C: every struct the evidence talks about. */
static int names_from_evidence(struct srun *r)
{
	struct sopts *o = &r->o;

	if (r->prof)
		for (size_t i = 0; i < r->prof->nr_structs; i++)
			if (r->prof->structs[i].kind == HM_PROFILE_STRUCT &&
			    add_name(o, r->prof->structs[i].name))
				return -ENOMEM;
	if (r->rules)
		for (const char *const *n = hm_ruleset_structs(r->rules); n && *n; n++)
			if (add_name(o, *n))
				return -ENOMEM;
	return 0;
}

static int load_types(struct srun *r)
{
	struct sopts *o = &r->o;
	struct hm_debuginfo_opts dio;
	struct hm_load_opts lo;
	int err;

	cli_load_opts(&lo, o->no_cache);
	lo.threads = o->jobs;
	cli_debuginfo_opts(&o->dbg, &dio);
	lo.debuginfo = &dio;
	lo.only = o->nnames ? o->names : NULL;
	lo.btf_base = o->btf_base;
	if ((err = cli_open_types(o->binary, &lo, &r->bin, &r->types)))
		return err;
	/* what the options leave open, the binary decides */
	return hm_suggest_opts_defaults(r->types, r->bin, &o->so);
}

static int lint_all(struct srun *r)
{
	HM_OPTS(hm_check_opts, co, .cacheline_size = r->o.so.cacheline_size,
				    .assume_aligned = r->o.so.assume_aligned,
				    .structs = r->o.nnames ? r->o.names : NULL);
	struct sopts *o = &r->o;
	int collect = !o->nnames;	/* no -C: every struct lint names */
	int err;

	if (!(r->lint = hm_findings_new()))
		return -ENOMEM;
	if (r->rules)
		co.contended_types = hm_ruleset_contended_types(r->rules);

	if ((err = hm_lint(r->types, &co, r->lint)))
		return err;
	for (size_t i = 0; collect && i < hm_findings_count(r->lint); i++) {
		const hm_finding *f = hm_findings_get(r->lint, i);

		if (!f->global && f->object && add_name(o, f->object))
			return -ENOMEM;
	}
	return 0;
}

/* The strongest evidence about one struct (the library's precedence). */
static int evidence_for(struct srun *r, const char *name, hm_evidence **ev)
{
	struct sopts *o = &r->o;
	char psrc[512], rsrc[512];
	struct hm_evidence_inputs in = {
		.sz = sizeof(in), .profile = r->prof, .profile_source = psrc,
		.rules = r->rules, .rules_source = rsrc,
		.lint = r->lint, .lint_source = "lint (hitmap lint's heuristics)",
	};

	snprintf(psrc, sizeof(psrc), "profile %s", o->profile ? o->profile : o->input);
	snprintf(rsrc, sizeof(rsrc), "rules %s%s", o->nrules ? o->rules[0] : "",
		 o->nrules > 1 ? " ..." : "");
	return hm_evidence_pick(name, &in, ev);
}

static int unknown_struct(struct srun *r, const char *name)
{
	return cli_unknown_struct(r->o.binary, r->types, name);
}

/* -C names must exist (a usage error otherwise); names the evidence brings
 * may not (kernel configs differ): a note, and they are skipped. */
static int check_names(struct srun *r)
{
	struct sopts *o = &r->o;
	size_t n = 0;

	for (size_t i = 0; i < o->nnames; i++) {
		int rc = o->names_given ? cli_ambiguous_struct(o->binary, r->types, o->names[i]) : 0;

		if (rc)
			return rc;
		if (hm_types_find_struct(r->types, o->names[i])) {
			o->names[n++] = o->names[i];
			continue;
		}
		if (o->names_given)
			return unknown_struct(r, o->names[i]);
		fprintf(stderr, "note: %s: no struct %s, skipped\n", o->binary, o->names[i]);
	}
	if (o->names)
		o->names[n] = NULL;
	o->nnames = n;
	return 0;
}

/* A kernel (the style says so) is judged with the shipped rules/linux as
 * constraints too, when they are installed: `placement line-aligned`
 * (SLAB_HWCACHE_ALIGN caches) and the `apart` pairs upstream asks for,
 * such as mmap_lock's count and owner.  Not found: nothing is added. */
static int load_kernel_rules(struct srun *r)
{
	char *dir;
	struct stat st;
	int err = 0;

	if (r->o.so.style != HM_STYLE_KERNEL || !(dir = cli_rules_find("linux")))
		return 0;
	if (dir[0] == '/' && !stat(dir, &st) && S_ISDIR(st.st_mode)) {
		if (!(r->krules = hm_ruleset_new()))
			err = -ENOMEM;
		else
			err = cli_rules_load(r->krules, dir);
	}
	free(dir);
	return err;
}

/* The `apart` pairs of both rule sets for struct `name`, flattened. */
static const char **apart_pairs(const struct srun *r, const char *name, size_t *n)
{
	/* hard constraints for a kernel, whose rules quote upstream; for
	 * another program a rule's pair weighs as evidence only */
	const hm_ruleset *sets[2] = { r->o.so.style == HM_STYLE_KERNEL ? r->rules : NULL,
				      r->krules };
	const char **v = NULL;
	size_t cap = 0;

	*n = 0;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; sets[k] && i < hm_ruleset_count(sets[k]); i++) {
			const hm_rule *ru = hm_ruleset_rule(sets[k], i);

			if (ru->kind != HM_RULE_APART || ru->global || !ru->object ||
			    strcmp(ru->object, name))
				continue;
			for (unsigned a = 0; a < ru->nr_args; a++)
				for (unsigned b = a + 1; b < ru->nr_args; b++) {
					if (2 * (*n + 1) > cap) {
						const char **nv;

						cap = cap ? 2 * cap : 16;
						if (!(nv = realloc(v, cap * sizeof(*v)))) {
							free(v);
							*n = 0;
							return NULL;
						}
						v = nv;
					}
					v[2 * *n] = ru->args[a];
					v[2 * *n + 1] = ru->args[b];
					(*n)++;
				}
		}
	return v;
}

static int has_pair(const hm_evidence *ev, const char *a, const char *b)
{
	size_t n;
	const hm_ev_pair *p = hm_evidence_pairs(ev, &n);

	for (size_t i = 0; i < n; i++)
		if ((!strcmp(p[i].a, a) && !strcmp(p[i].b, b)) ||
		    (!strcmp(p[i].a, b) && !strcmp(p[i].b, a)))
			return 1;
	return 0;
}

static int suggest_all(struct srun *r)
{
	struct sopts *o = &r->o;
	int err;

	r->ev = calloc(o->nnames + 1, sizeof(*r->ev));
	r->sg = calloc(o->nnames + 1, sizeof(*r->sg));
	if (!r->ev || !r->sg)
		return HM_EXIT_INPUT;

	for (size_t i = 0; i < o->nnames; i++) {
		hm_type_id id = hm_types_find_struct(r->types, o->names[i]);

		if (!id)
			continue;
		if ((err = evidence_for(r, o->names[i], &r->ev[r->n])))
			return cli_exit_for(err);
		/* `placement line-aligned` in a rule file: --assume-aligned for it */
		struct hm_suggest_opts so = o->so;

		so.assume_aligned |= hm_ruleset_line_aligned(r->rules, o->names[i]) ||
				     hm_ruleset_line_aligned(r->krules, o->names[i]);
		so.apart = apart_pairs(r, o->names[i], &so.nr_apart);
		/* what the rules keep apart is contention to remove as well, so
		 * that the proposals (and their combinations) aim at it */
		for (size_t k = 0; k < so.nr_apart && !err; k++)
			if (!has_pair(r->ev[r->n], so.apart[2 * k], so.apart[2 * k + 1]))
				err = hm_evidence_add_pair(r->ev[r->n], so.apart[2 * k],
							   so.apart[2 * k + 1], 1);
		if (err) {
			free((void *)so.apart);
			return cli_exit_for(err);
		}
		err = hm_suggest(r->types, id, r->ev[r->n], &so, &r->sg[r->n]);
		free((void *)so.apart);
		if (err) {
			hm_evidence_free(r->ev[r->n]);
			r->ev[r->n] = NULL;
			if (err == -EINVAL)
				continue;	/* reported: a struct the model refuses */
			return cli_exit_for(err);
		}
		r->n++;
	}
	return 0;
}

static int print_patches(struct srun *r)
{
	struct sopts *o = &r->o;
	size_t pick = o->proposal ? o->proposal - 1 : 0;

	for (size_t i = 0; i < r->n; i++) {
		const hm_proposal *p = hm_suggestion_get(r->sg[i], pick);
		char *diff = NULL;
		int err;

		if (!p) {
			fprintf(stderr, "struct %s: no proposal #%zu: %s\n",
				hm_types_get(r->types, hm_suggestion_type(r->sg[i]))->name,
				pick + 1, hm_suggestion_why(r->sg[i]) ? hm_suggestion_why(r->sg[i]) :
				"fewer proposals");
			continue;
		}
		err = hm_suggest_patch(r->types, p->edit_type, p, o->so.style,
				       o->so.cacheline_size, o->source_root, &diff);
		if (err == -ENOMEM)
			return err;
		if (err) {
			cli_warn("no patch for '%s': printing its layout only", p->title);
			hm_suggest_print_text(stdout, r->sg[i], r->types, &o->so, pick + 1);
			continue;
		}
		fputs(diff, stdout);
		free(diff);
	}
	return 0;
}

/* A --proposal past the last one is a mistake on the command line: say how
 * many there are rather than print a header and exit 0.  A struct with no
 * proposal at all is left to the printers, which say why. */
static int check_proposal(struct srun *r)
{
	size_t k = r->o.proposal;

	for (size_t i = 0; k && i < r->n; i++) {
		size_t n = hm_suggestion_count(r->sg[i]);

		if (!n || k <= n)
			continue;
		return cli_usage_error(&hm_cmd_suggest, "%s%s%s--proposal %zu: there %s %zu proposal%s",
				       r->n > 1 ? "struct " : "",
				       r->n > 1 ? hm_types_get(r->types,
							       hm_suggestion_type(r->sg[i]))->name : "",
				       r->n > 1 ? ": " : "", k, n == 1 ? "is" : "are", n,
				       n == 1 ? "" : "s");
	}
	return 0;
}

static int write_html(FILE *f, void *ctx)
{
	struct srun *r = ctx;
	/* raw BTF (the running kernel) has no ELF file */
	struct hm_json_binary jb = { .path = r->o.binary,
				     .build_id = r->bin ? hm_binary_build_id(r->bin) : NULL,
				     .arch = r->bin ? hm_binary_arch(r->bin) : NULL,
				     .cacheline_size = r->o.so.cacheline_size };

	return hm_suggest_print_html(f, &jb, (const hm_suggestion *const *)r->sg, r->n, r->types,
			       &r->o.so);
}

static int output(struct srun *r)
{
	struct sopts *o = &r->o;

	/* the page first: its failure is an exit status of its own, said */
	if (o->html && cli_write_html(o->html, write_html, r))
		return -EIO;
	if (o->patch)
		return print_patches(r);
	if (o->json) {
		struct hm_json_binary jb = { .path = o->binary,
					     .build_id = r->bin ? hm_binary_build_id(r->bin) : NULL,
					     .arch = r->bin ? hm_binary_arch(r->bin) : NULL,
					     .cacheline_size = o->so.cacheline_size };

		return hm_suggest_print_json(stdout, &jb, (const hm_suggestion *const *)r->sg,
					     r->n, r->types, &o->so);
	}
	if (o->layout_only) {
		for (size_t i = 0; i < r->n; i++) {
			int err = hm_suggest_print_layout(stdout, r->sg[i], r->types, &o->so,
							  o->proposal ? o->proposal - 1 : 0);

			if (err == -EINVAL)
				fprintf(stderr, "no such proposal\n");
			if (err)
				return err;
		}
		return 0;
	}
	if (!r->n)
		printf("nothing to do: the evidence names no struct of %s\n", o->binary);
	for (size_t i = 0; i < r->n; i++) {
		if (i)
			putchar('\n');
		hm_suggest_print_text(stdout, r->sg[i], r->types, &o->so, o->proposal);
	}
	return 0;
}

static void srun_free(struct srun *r)
{
	for (size_t i = 0; i < r->n; i++) {
		hm_suggestion_free(r->sg[i]);
		hm_evidence_free(r->ev[i]);
	}
	free(r->ev);
	free(r->sg);
	free(r->o.names);
	hm_findings_free(r->lint);
	hm_ruleset_free(r->rules);
	hm_ruleset_free(r->krules);
	hm_profile_free(r->prof);
	hm_types_free(r->types);
	hm_binary_close(r->bin);
	free(r->o.kernel);
	free(r->o.dbg.dirs);
}

static int run(int argc, char **argv)
{
	static struct srun r;
	int rc, err;

	memset(&r, 0, sizeof(r));
	rc = parse(argc, argv, &r.o);
	if (rc)
		return rc < 0 ? cli_help(&hm_cmd_suggest) : rc;
	if (!r.o.binary) {
		struct hm_debuginfo_opts dio;

		cli_debuginfo_opts(&r.o.dbg, &dio);
		if (!(r.o.binary = r.o.kernel = cli_running_kernel(&dio))) {
			rc = HM_EXIT_INPUT;
			goto out;
		}
	}
	/* unreadable or malformed evidence or binary: 3 (reported already) */
	rc = HM_EXIT_INPUT;
	if (load_evidence_files(&r))
		goto out;
	if (!r.o.nnames && names_from_evidence(&r))
		goto out;
	if (load_types(&r))
		goto out;
	if (load_kernel_rules(&r))
		goto out;
	if ((rc = check_names(&r)))
		goto out;
	rc = HM_EXIT_INPUT;
	if (r.o.lint && (err = lint_all(&r))) {
		/* lint reports a -C name it cannot find: a usage error */
		rc = err == -ENOENT ? HM_EXIT_USAGE : HM_EXIT_INPUT;
		goto out;
	}
	if ((rc = suggest_all(&r)))
		goto out;
	if ((rc = check_proposal(&r)))
		goto out;
	rc = output(&r) ? HM_EXIT_INPUT : HM_EXIT_OK;
out:
	srun_free(&r);
	return rc;
}

static const struct cli_choice styles[] = {
	{ "kernel", HM_STYLE_KERNEL }, { "gnu", HM_STYLE_GNU }, { "c11", HM_STYLE_C11 },
	{ "cxx", HM_STYLE_CXX }, { NULL, 0 },
};

#define A(m) CLI_FIELD(struct sopts, m)
#define N(m) CLI_OFF(struct sopts, m)
static const struct cli_option options[] = {
	OPT_GROUP("evidence (one or more; the strongest available is used per struct):\n"),
	OPT_STRING(0, "profile", A(profile), "P", "a profile from `hitmap report --save-profile`"),
	OPT_FLAG(0, "allow-partial", A(allow_partial),
		 "use a profile made from a truncated recording (its \"truncated\" "
		 "object): refused otherwise"),
	OPT_STRING('i', "input", A(input), "FILE",
		   "a perf.data, attributed as `hitmap report` does with BINARY and the "
		   "three options below"),
	OPT_BINARIES(A(binaries), N(nbinaries), MAX_FILES),
	OPT_VMLINUX(A(vmlinux)),
	OPT_OBJECTS(A(objects), N(nobjects), MAX_FILES),
	OPT_LIST(0, "rules", A(rules), N(nrules), MAX_FILES, "FILE",
		 "rule files: `apart` gives pairs, `alone` groups (repeatable)"),
	OPT_BOOL(0, "lint", A(lint), "lint's static heuristics (weakest evidence)"),
	OPT_GROUP("options:\n"),
	OPT_CLASS_NAME(A(cnames), N(ncnames), 0),
	OPT_CHOICE(0, "style", A(style), styles, "S",
		   "how alignment is spelled: kernel ____cacheline_aligned_in_smp "
		   "(vmlinux default), gnu __attribute__((aligned(N))) (default otherwise), "
		   "c11 _Alignas(N), cxx alignas(N)"),
	OPT_UINT(0, "max-growth", A(so.max_growth), "N", 0, UINT32_MAX,
		 "drop proposals that grow sizeof by more than N bytes (default: two "
		 "cachelines)"),
	OPT_BOOL(0, "keep-size", A(keep_size), "only proposals that keep sizeof unchanged"),
	OPT_BOOL(0, "assume-aligned", A(assume_aligned),
		 "objects start on a line boundary (slab caches with SLAB_HWCACHE_ALIGN); "
		 "otherwise contention is averaged over every start the struct's "
		 "alignment allows"),
	OPT_CACHELINE_SIZE(A(so.cacheline_size)),
	OPT_UINT(0, "proposal", A(proposal), "K", 1, 1000,
		 "show (or patch) proposal K only (default for --patch: 1)"),
	OPT_FLAG(0, "layout-only", A(layout_only),
		 "print only the proposed layout of proposal K (1)"),
	OPT_FLAG(0, "patch", A(patch),
		 "print a unified diff for proposal K (`patch -p1` in the source root); "
		 "when the source cannot be edited safely, say so and print the proposal "
		 "with its layout"),
	OPT_STRING(0, "source-root", A(source_root), "DIR",
		   "where the declaring sources are (needed by --patch)"),
	OPT_JSON(A(json)),
	OPT_HTML(A(html)),
	OPT_NO_CACHE(A(no_cache)),
	OPT_JOBS(A(jobs)),
	OPT_DEBUGINFO(struct sopts, dbg),
	OPT_BTF_BASE(A(btf_base)),
	OPT_END(),
};
#undef A
#undef N

const struct hm_cmd hm_cmd_suggest = {
	.name = "suggest",
	.summary = "propose where contended members should go, with cost and patch",
	.usage = (const char *const[]){ "[-C NAME...] EVIDENCE [options] [BINARY]", NULL },
	.description =
	"Propose placements for struct members that contend for a cacheline: line\n"
	"alignment of a hot member (and of the one after it), moves to the top, into\n"
	"a hole or next to what a member is read with, one line per written member.\n"
	"Proposals are ranked by contention removed per byte added and kept within\n"
	"two cachelines of growth (--max-growth).  The list gives each one's byte\n"
	"cost, cacheline count, holes and the contention it leaves (the evidence\n"
	"re-mapped onto the new layout); --proposal K adds the pairs it separates,\n"
	"its edits and the new layout as `hitmap layout` prints it.  Without -C:\n"
	"the structs the evidence names.\n",
	.options = options,
	.epilog =
	"exit status: 0 ok (also when there is nothing to do), 2 usage error or\n"
	"unknown struct, 3 unreadable or malformed input\n",
	.run = run,
};
