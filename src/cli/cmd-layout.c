/* hitmap layout: struct layouts on cachelines, pahole-compatible. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hitmap/attribute.h"
#include "hitmap/binary.h"
#include "hitmap/heat.h"
#include "hitmap/output.h"
#include "hitmap/types.h"
#include "hitmap/debuginfo.h"
#include "cli.h"
#include "options.h"

#define MAX_NAMES 4096

struct layout_args {
	char *names[MAX_NAMES + 1];
	size_t nnames;
	unsigned line;
	int expand, list, json, btf, no_cache;
	unsigned jobs;
	const char *file;
	char *kernel;		/* FILE found for the running kernel, or NULL */
	/* heat: --profile P, or --heat perf.data with report's attribution options */
	const char *profile, *heat, *vmlinux;
	const char **binaries, **objects;
	size_t nbin, nobj;
	struct cli_debuginfo dbg;	/* where a stripped FILE's debug info is */
	const char *btf_base;
	int verbose;
	const char *html;	/* --html FILE */
};

/* The heat options make sense together only in some ways. */
static int check_heat_args(const struct layout_args *a)
{
	if (a->profile && a->heat)
		return cli_usage_error(&hm_cmd_layout, "--profile and --heat exclude each other");
	if (!a->heat && (a->nbin || a->nobj || a->vmlinux))
		return cli_usage_error(&hm_cmd_layout,
				       "--binary, --vmlinux and --object need --heat PERF.DATA");
	if (a->list && (a->profile || a->heat))
		return cli_usage_error(&hm_cmd_layout,
				       "--list has no heat columns: drop --profile/--heat");
	return 0;
}

static int parse(int argc, char **argv, struct layout_args *a)
{
	int rc, n;

	rc = cli_parse_options(&hm_cmd_layout, argc, argv, a, 0, &n);
	if (rc == CLI_HELP)
		return cli_help(&hm_cmd_layout) ? HM_EXIT_USAGE : -1;
	if (rc)
		return rc;
	if (n > 1)
		return cli_usage_error(&hm_cmd_layout, "one FILE expected, got %d", n);
	a->file = n ? argv[1] : NULL;	/* NULL: the running kernel */
	cli_verbose = a->verbose;
	return check_heat_args(a);
}

/* Resolve every -C name before printing anything: all or nothing. */
static int resolve(const hm_types *t, const struct layout_args *a, hm_type_id *ids)
{
	for (size_t i = 0; i < a->nnames; i++) {
		int rc = cli_ambiguous_struct(a->file, t, a->names[i]);

		if (rc)
			return rc;
		ids[i] = hm_types_find_struct(t, a->names[i]);
		if (ids[i])
			continue;
		/* like pahole, -C also takes a typedef name */
		ids[i] = hm_types_find_typedef(t, a->names[i]);
		if (ids[i] && (a->list || a->json || a->html)) {
			hm_type_id s = hm_types_resolve(t, ids[i]);
			const hm_type *ty = s ? hm_types_get(t, s) : NULL;

			if (!ty || !hm_kind_is_record(ty->kind) || ty->declaration) {
				cli_error("%s: typedef '%s' does not name a struct, union or class",
					  a->file, a->names[i]);
				return HM_EXIT_USAGE;
			}
		}
		if (ids[i])
			continue;
		return cli_unknown_struct(a->file, t, a->names[i]);
	}
	return 0;
}

struct html_ctx {
	const struct hm_json_binary *bin;
	const hm_types *t;
	const hm_type_id *ids;
	size_t n;
	struct hm_html_opts ho;
};

static int write_html(FILE *f, void *ctx)
{
	const struct html_ctx *x = ctx;

	return hm_layouts_print_html(f, x->bin, x->t, x->ids, x->n, &x->ho);
}

static int print_all(const hm_types *t, const struct layout_args *a, const hm_type_id *ids,
		     size_t n, hm_binary *bin, const hm_profile *prof)
{
	struct hm_heat_print_opts ho = {
		.sz = sizeof(ho), .profile = prof,
		.source = a->profile ? a->profile : a->heat && strcmp(a->heat, "-") ? a->heat : "stdin",
	};
	HM_OPTS(hm_print_opts, po, .cacheline_size = a->line, .expand = !!a->expand, .annotate = 1);
	struct hm_json_binary jb = {
		.path = a->file, .build_id = bin ? hm_binary_build_id(bin) : NULL,
		.arch = bin ? hm_binary_arch(bin) : NULL, .cacheline_size = a->line,
	};
	int err = 0;

	if (a->html) {
		struct html_ctx x = { &jb, t, ids, n, { .sz = sizeof(x.ho) } };
		int rc;

		x.ho.cacheline_size = a->line;
		x.ho.expand = !!a->expand;
		x.ho.profile = prof;
		x.ho.source = ho.source;
		if ((rc = cli_write_html(a->html, write_html, &x)))
			return rc;
	}
	if (a->json) {
		if (prof)
			err = hm_layouts_print_json_heat(stdout, &jb, t, ids, n, a->expand, &ho);
		else
			err = hm_layouts_print_json(stdout, &jb, t, ids, n, a->expand, a->list);
	} else {
		size_t i;

		for (i = 0; i < n && !err; i++) {
			const hm_type *ty = hm_types_get(t, ids[i]);

			if (a->list)
				err = hm_layout_print_list_line(stdout, t, ids[i], a->line);
			else if (prof)
				err = hm_layout_print_heat(stdout, t, ids[i], &po, &ho);
			else if (ty && ty->kind == HM_KIND_TYPEDEF)
				err = hm_layout_print_typedef(stdout, t, ids[i], &po);
			else
				err = hm_layout_print(stdout, t, ids[i], &po);
		}
	}
	if (!err && fflush(stdout))
		err = -EIO;
	if (err) {
		/* Types printed before the failure are on stdout already: say so,
		 * so nobody takes them for the whole file. */
		fflush(stdout);
		cli_error("%s: cannot print layout: %s%s", a->file, strerror(-err),
			  n > 1 ? " (the output above is incomplete)" : "");
		return HM_EXIT_INPUT;
	}
	return HM_EXIT_OK;
}

static int readable(const char *path)
{
	return !strcmp(path, "-") || access(path, R_OK) == 0;
}

/* --heat: the perf.data through report's attribution into a profile.  FILE
 * is the program whose layout is printed, so it is one of the binaries. */
static int heat_profile(struct layout_args *a, int raw_btf, hm_profile **p)
{
	struct hm_profile_source src = { 0 };
	struct hm_load_opts lo;
	int mine = !raw_btf && (!a->vmlinux || strcmp(a->vmlinux, a->file));
	int err;

	for (size_t i = 0; mine && i < a->nbin; i++)
		mine = strcmp(a->binaries[i], a->file) != 0;
	if (mine && cli_push(&a->binaries, &a->nbin, a->file))
		return HM_EXIT_INPUT;
	cli_load_opts(&lo, a->no_cache);
	lo.threads = a->jobs;
	src = (struct hm_profile_source){
		.perf_data = a->heat, .binaries = a->binaries, .nr_binaries = a->nbin,
		.vmlinux = a->vmlinux, .objects = a->objects, .nr_objects = a->nobj,
		.load = &lo,
	};
	err = hm_profile_from_perf(&src, p);
	if (!err)
		return 0;
	/* with every file readable, these can only be a bad --object (as in report) */
	if ((err == -EINVAL || err == -ENOENT) && a->nobj && readable(a->heat) &&
	    (!a->vmlinux || readable(a->vmlinux))) {
		int all = 1;

		for (size_t i = 0; i < a->nbin; i++)
			all &= readable(a->binaries[i]);
		if (all)
			return HM_EXIT_USAGE;
	}
	return HM_EXIT_INPUT;	/* the library said why */
}

/* Without -C, a profile picks the structs: those it has samples for. */
static int names_from_profile(struct layout_args *a, const hm_profile *p)
{
	for (size_t i = 0; i < p->nr_structs && a->nnames < MAX_NAMES; i++)
		if (p->structs[i].kind == HM_PROFILE_STRUCT)
			a->names[a->nnames++] = (char *)p->structs[i].name;
	if (a->nnames)
		return 0;
	cli_error("%s: no struct has samples in it", a->profile ? a->profile : a->heat);
	return HM_EXIT_INPUT;
}

/* Profile structs FILE does not define are left out, with a warning. */
static size_t keep_found(const hm_types *t, struct layout_args *a)
{
	size_t k = 0;

	for (size_t i = 0; i < a->nnames; i++) {
		if (hm_types_find_struct(t, a->names[i]))
			a->names[k++] = a->names[i];
		else
			cli_warn("%s: struct %s (in %s) is not defined here", a->file,
				 a->names[i], a->profile ? a->profile : a->heat);
	}
	a->nnames = k;
	a->names[k] = NULL;
	return k;
}

static int load_types(struct layout_args *a, hm_binary **bin, hm_types **t)
{
	struct hm_debuginfo_opts dio;
	struct hm_load_opts lo;
	int err;

	cli_load_opts(&lo, a->no_cache);
	lo.threads = a->jobs;
	cli_debuginfo_opts(&a->dbg, &dio);
	lo.debuginfo = &dio;
	if (a->nnames)
		lo.only = (const char *const *)a->names;
	lo.btf = !!a->btf;
	lo.btf_base = a->btf_base;
	if ((err = cli_open_types(a->file, &lo, bin, t)))
		return err;
	a->line = hm_types_cacheline_size(*t, a->line);
	return 0;
}

static int run(int argc, char **argv)
{
	struct layout_args a = { 0 };
	const hm_type_id *all = NULL;
	hm_type_id *ids = NULL;
	hm_binary *bin = NULL;
	hm_types *t = NULL;
	hm_profile *prof = NULL;
	int rc, from_profile = 0;
	size_t n;

	rc = parse(argc, argv, &a);
	if (rc) {
		rc = rc < 0 ? HM_EXIT_OK : rc;
		goto out;
	}
	if (!a.file) {
		struct hm_debuginfo_opts dio;

		cli_debuginfo_opts(&a.dbg, &dio);
		if (!(a.file = a.kernel = cli_running_kernel(&dio))) {
			rc = HM_EXIT_INPUT;
			goto out;
		}
	}
	if (a.profile && hm_profile_load(a.profile, &prof)) {
		rc = HM_EXIT_INPUT;	/* the loader said why */
		goto out;
	}
	if (a.heat && (rc = heat_profile(&a, hm_types_is_btf_file(a.file), &prof)))
		goto out;
	if (prof && !a.nnames) {
		if ((rc = names_from_profile(&a, prof)))
			goto out;
		from_profile = 1;
	}
	if ((rc = load_types(&a, &bin, &t)))
		goto out;
	if (from_profile && !keep_found(t, &a)) {
		cli_error("%s: none of the structs in %s is defined here", a.file,
			  a.profile ? a.profile : a.heat);
		rc = HM_EXIT_USAGE;
		goto out;
	}
	if (a.nnames) {
		ids = calloc(a.nnames, sizeof(*ids));
		rc = ids ? resolve(t, &a, ids) : HM_EXIT_INPUT;
		n = a.nnames;
	} else {
		n = hm_types_structs(t, &all);
		rc = 0;
	}
	if (!rc)
		rc = print_all(t, &a, ids ? ids : all, n, bin, prof);
out:
	free(ids);
	hm_types_free(t);
	hm_binary_close(bin);
	hm_profile_free(prof);
	free(a.binaries);
	free(a.objects);
	free(a.dbg.dirs);
	free(a.kernel);
	return rc;
}

#define A(m) CLI_FIELD(struct layout_args, m)
#define N(m) CLI_OFF(struct layout_args, m)
static const struct cli_option options[] = {
	OPT_CLASS_NAME(A(names), N(nnames), MAX_NAMES),
	OPT_CACHELINE_SIZE(A(line)),
	OPT_BOOL('E', "expand", A(expand),
		 "expand named struct and union members inline (pahole -E)"),
	OPT_FLAG(0, "list", A(list), "one line per type: name, size, holes, cachelines "
		 "(tab-separated: pahole --sizes, then cachelines)"),
	OPT_JSON(A(json)),
	OPT_HTML(A(html)),
	OPT_BTF(A(btf)),
	OPT_BTF_BASE(A(btf_base)),
	OPT_NO_CACHE(A(no_cache)),
	OPT_JOBS(A(jobs)),
	OPT_DEBUGINFO(struct layout_args, dbg),
	OPT_VERBOSE_DEBUG(A(verbose)),
	OPT_GROUP("heat:\n"),
	OPT_STRING(0, "profile", A(profile), "P",
		   "add per-member heat from a profile written by `hitmap report "
		   "--save-profile`"),
	OPT_STRING(0, "heat", A(heat), "PERF.DATA",
		   "the same, from a recording attributed as `hitmap report` does ('-' "
		   "reads a pipe); FILE is one of the binaries"),
	OPT_BINARIES(A(binaries), N(nbin), 0),
	OPT_VMLINUX(A(vmlinux)),
	OPT_OBJECTS(A(objects), N(nobj), 0),
	OPT_END(),
};
#undef A
#undef N

const struct hm_cmd hm_cmd_layout = {
	.name = "layout",
	.summary = "print struct layouts on cachelines (pahole-compatible)",
	.usage = (const char *const[]){
		"[options] [FILE]",
		"[options] --profile P [FILE]",
		"[options] --heat PERF.DATA [--binary F]... [--vmlinux F] [--object TYPE@ADDR]... [FILE]",
		NULL },
	.description =
	"Print where each member of a struct, union or class sits: offset, size,\n"
	"holes, padding and cacheline boundaries, in the format of\n"
	"`pahole -M --suppress_force_paddings` (dwarves 1.24), with pahole's known\n"
	"errors corrected.  Lines starting with '/* hitmap: ' are hitmap's own: members\n"
	"that straddle a cacheline, kernel __cacheline_group_begin/end groups, and\n"
	"heat; without them the text is pahole's.\n"
	"\n"
	"Without FILE, the running kernel: its vmlinux with DWARF when installed\n"
	"(linux-image-RELEASE-dbg), else /sys/kernel/btf/vmlinux.  A stripped FILE's\n"
	"debug info is looked for by build-id, .gnu_debuglink, in perf's build-id\n"
	"cache and through debuginfod (DEBUGINFOD_URLS).\n"
	"\n"
	"Without -C: every struct, union and class (with --profile or --heat: every\n"
	"struct that has samples); a typedef name works with -C as with pahole.\n"
	"--json writes schema \"hitmap/1\" (see hitmap-layout(1)); with --list, the\n"
	"list form.  Heat is a line '/* hitmap: heat PATH: LABEL */' after each member\n"
	"with samples (LABEL: 'hitm N st N cpus N' for HITM data, 'xfer N wr N cpus N'\n"
	"for watchpoints, else 'samples N cpus N'); with --json a \"heat\" object per\n"
	"member and struct.  --binary, --vmlinux and --object go with --heat.\n",
	.options = options,
	.epilog =
	"exit status: 0 ok, 2 usage error, unknown -C name or --object TYPE, 3 FILE,\n"
	"profile or perf.data unreadable or malformed, FILE not ELF, or without\n"
	"DWARF (or BTF) debug info\n",
	.run = run,
};
