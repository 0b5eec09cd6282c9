/* hitmap layout: struct layouts on cachelines, pahole-compatible. */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hitmap/attribute.h"
#include "hitmap/binary.h"
#include "hitmap/heat.h"
#include "hitmap/output.h"
#include "hitmap/types.h"
#include "cli.h"

#define MAX_NAMES 4096

struct layout_args {
	char *names[MAX_NAMES + 1];
	size_t nnames;
	unsigned line;
	int expand, list, json, btf, no_cache;
	const char *file;
	/* heat: --profile P, or --heat perf.data with report's attribution options */
	const char *profile, *heat, *vmlinux;
	const char **binaries, **objects;
	size_t nbin, nobj;
};

static int split_names(struct layout_args *a, char *s)
{
	size_t before = a->nnames;

	for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
		if (!*tok)
			continue;
		if (a->nnames == MAX_NAMES)
			return -1;
		a->names[a->nnames++] = tok;
	}
	return a->nnames == before ? -1 : 0;
}

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
	enum { O_PROFILE = 256, O_HEAT, O_BINARY, O_VMLINUX, O_OBJECT, O_NO_CACHE };
	static const struct option opts[] = {
		{ "class_name", required_argument, NULL, 'C' },
		{ "cacheline-size", required_argument, NULL, 'c' },
		{ "expand", no_argument, NULL, 'E' },
		{ "list", no_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "btf", no_argument, NULL, 'B' },
		{ "profile", required_argument, NULL, O_PROFILE },
		{ "heat", required_argument, NULL, O_HEAT },
		{ "binary", required_argument, NULL, O_BINARY },
		{ "vmlinux", required_argument, NULL, O_VMLINUX },
		{ "object", required_argument, NULL, O_OBJECT },
		{ "no-cache", no_argument, NULL, O_NO_CACHE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":C:c:Eh", opts, NULL)) != -1) {
		switch (c) {
		case 'C':
			if (split_names(a, optarg))
				return cli_usage_error(&hm_cmd_layout, a->nnames == MAX_NAMES ?
						       "too many -C names" : "-C needs a type name");
			break;
		case 'c':
			if (cli_parse_u64(optarg, 8, 65536, &v) || (v & (v - 1)))
				return cli_usage_error(&hm_cmd_layout,
						       "-c %s: cacheline size must be a power of two "
						       "from 8 to 65536", optarg);
			a->line = (unsigned)v;
			break;
		case 'E':
			a->expand = 1;
			break;
		case 'l':
			a->list = 1;
			break;
		case 'j':
			a->json = 1;
			break;
		case 'B':
			a->btf = 1;
			break;
		case O_PROFILE:
			a->profile = optarg;
			break;
		case O_HEAT:
			a->heat = optarg;
			break;
		case O_VMLINUX:
			a->vmlinux = optarg;
			break;
		case O_NO_CACHE:
			/* every load below (FILE, --heat binaries) skips the cache */
			a->no_cache = 1;
			break;
		case O_BINARY:
		case O_OBJECT:
			if (c == O_BINARY ? cli_push(&a->binaries, &a->nbin, optarg)
					  : cli_push(&a->objects, &a->nobj, optarg)) {
				cli_error("out of memory");
				return HM_EXIT_INPUT;
			}
			break;
		case 'h':
			return cli_help(&hm_cmd_layout) ? HM_EXIT_USAGE : -1;
		case ':':
			return cli_usage_error(&hm_cmd_layout, "option '%s' needs an argument",
					       argv[optind - 1]);
		default:
			return cli_usage_error(&hm_cmd_layout, "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind + 1 != argc)
		return cli_usage_error(&hm_cmd_layout, optind == argc ? "no FILE given" :
				       "one FILE expected, got %d", argc - optind);
	a->file = argv[optind];
	return check_heat_args(a);
}

/* Resolve every -C name before printing anything: all or nothing. */
static int resolve(const hm_types *t, const struct layout_args *a, hm_type_id *ids)
{
	for (size_t i = 0; i < a->nnames; i++) {
		const char *near[3];
		size_t n;

		ids[i] = hm_types_find_struct(t, a->names[i]);
		if (ids[i])
			continue;
		/* like pahole, -C also takes a typedef name */
		ids[i] = hm_types_find_typedef(t, a->names[i]);
		if (ids[i] && (a->list || a->json)) {
			hm_type_id s = hm_types_resolve(t, ids[i]);
			const hm_type *ty = s ? hm_types_get(t, s) : NULL;

			if (!ty || (ty->kind != HM_KIND_STRUCT && ty->kind != HM_KIND_UNION &&
				    ty->kind != HM_KIND_CLASS) || ty->declaration) {
				cli_error("%s: typedef '%s' does not name a struct, union or class",
					  a->file, a->names[i]);
				return HM_EXIT_USAGE;
			}
		}
		if (ids[i])
			continue;
		n = hm_types_similar(t, a->names[i], near, 3);
		if (!n) {
			cli_error("%s: no struct, union or class named '%s'", a->file, a->names[i]);
		} else {
			char buf[512];
			size_t len = 0;

			buf[0] = 0;
			for (size_t k = 0; k < n && len < sizeof(buf); k++)
				len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s'%s'",
							k ? ", " : "", near[k]);
			cli_error("%s: no struct, union or class named '%s' (did you mean %s?)",
				  a->file, a->names[i], buf);
		}
		return HM_EXIT_USAGE;
	}
	return 0;
}

static int print_all(const hm_types *t, const struct layout_args *a, const hm_type_id *ids,
		     size_t n, hm_binary *bin, const hm_profile *prof)
{
	struct hm_heat_print_opts ho = {
		.sz = sizeof(ho), .profile = prof,
		.source = a->profile ? a->profile : a->heat && strcmp(a->heat, "-") ? a->heat : "stdin",
	};
	struct hm_print_opts po = { .cacheline_size = a->line, .expand = !!a->expand, .annotate = 1 };
	int err = 0;

	if (a->json) {
		struct hm_json_binary jb = {
			.path = a->file, .build_id = bin ? hm_binary_build_id(bin) : NULL,
			.arch = bin ? hm_binary_arch(bin) : NULL, .cacheline_size = a->line,
		};

		if (prof)
			err = hm_print_layouts_json_heat(stdout, &jb, t, ids, n, a->expand, &ho);
		else
			err = hm_print_layouts_json(stdout, &jb, t, ids, n, a->expand, a->list);
	} else {
		size_t i;

		for (i = 0; i < n && !err; i++) {
			const hm_type *ty = hm_types_get(t, ids[i]);

			if (a->list)
				err = hm_print_list_line(stdout, t, ids[i], a->line);
			else if (prof)
				err = hm_print_layout_heat(stdout, t, ids[i], &po, &ho);
			else if (ty && ty->kind == HM_KIND_TYPEDEF)
				err = hm_print_typedef(stdout, t, ids[i], &po);
			else
				err = hm_print_layout(stdout, t, ids[i], &po);
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
	struct hm_load_opts lo;
	int err;

	cli_load_opts(&lo, a->no_cache);
	if (a->nnames)
		lo.only = (const char *const *)a->names;
	lo.btf = !!a->btf;
	if (hm_types_is_btf_file(a->file)) {
		/* raw BTF (/sys/kernel/btf/vmlinux): no ELF, no arch */
		*bin = NULL;
		if (!a->line)
			a->line = 64;
		err = hm_types_load_btf_file(a->file, &lo, t);
	} else {
		*bin = hm_binary_open(a->file);
		if (!*bin)
			return HM_EXIT_INPUT;
		if (!a->line)
			a->line = hm_binary_cacheline_size(*bin);
		err = hm_types_load(*bin, &lo, t);
	}
	if (err)
		return err == -ENOMEM ? HM_EXIT_INPUT : cli_exit_for(err == -ENOENT ? -EBADMSG : err);
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
	return rc;
}

const struct hm_cmd hm_cmd_layout = {
	.name = "layout",
	.summary = "print struct layouts on cachelines (pahole-compatible)",
	.usage =
	"usage: hitmap layout [-C NAME[,NAME...]] [-c|--cacheline-size N] [-E|--expand]\n"
	"                     [--list] [--json] [--btf] [--no-cache]\n"
	"                     [--profile P | --heat PERF.DATA [--binary F]...\n"
	"                      [--vmlinux F] [--object TYPE@ADDR]...] FILE\n"
	"\n"
	"Print where each member of a struct, union or class sits: offset, size,\n"
	"holes, padding and cacheline boundaries, in the format of\n"
	"`pahole -M --suppress_force_paddings` (dwarves 1.24), with pahole's known\n"
	"errors corrected.  Lines starting with '/* hitmap: ' are hitmap's own: members\n"
	"that straddle a cacheline, kernel __cacheline_group_begin/end groups, and\n"
	"heat; without them the text is pahole's.\n"
	"\n"
	"  -C, --class_name NAME[,NAME...]\n"
	"                    only these types (repeatable; a typedef name works as\n"
	"                    with pahole); default: every struct, union and class\n"
	"                    (with --profile/--heat: every struct that has samples)\n"
	"  -c, --cacheline-size N\n"
	"                    cacheline size in bytes (default: from FILE's ELF machine:\n"
	"                    64 on x86-64 and arm64, 128 on ppc64, 256 on s390x)\n"
	"  -E, --expand      expand named struct and union members inline (pahole -E)\n"
	"      --list        one line per type: name, size, cachelines, holes\n"
	"                    (tab-separated, like pahole --sizes plus cachelines)\n"
	"      --json        JSON, schema \"hitmap/1\" (see hitmap-layout(1));\n"
	"                    with --list, the list form\n"
	"      --btf         read FILE's .BTF section instead of its DWARF (BTF is\n"
	"                    used anyway when FILE has no DWARF, and FILE may be a\n"
	"                    raw BTF file such as /sys/kernel/btf/vmlinux); BTF has\n"
	"                    no alignment attributes: they are inferred from holes\n"
	"      --no-cache    neither read nor write the type cache (types of a file\n"
	"                    with a build-id are kept in $XDG_CACHE_HOME/hitmap,\n"
	"                    default ~/.cache/hitmap; HITMAP_NO_CACHE=1 does the same)\n"
	"      --profile P   add per-member heat from a profile written by\n"
	"                    `hitmap report --save-profile`: a line\n"
	"                    '/* hitmap: heat PATH: LABEL */' after each member with\n"
	"                    samples (LABEL: 'hitm N st N cpus N' for HITM data,\n"
	"                    'xfer N wr N cpus N' for watchpoints, else\n"
	"                    'samples N cpus N'); with --json a \"heat\" object per\n"
	"                    member and struct\n"
	"      --heat PERF.DATA\n"
	"                    the same, from a recording attributed as `hitmap report`\n"
	"                    does ('-' reads a pipe); FILE is one of the binaries\n"
	"      --binary F    with --heat: another ELF file with DWARF for mappings of\n"
	"                    its build-id or file name (repeatable)\n"
	"      --vmlinux F   with --heat: the kernel image with DWARF\n"
	"      --object TYPE@ADDR\n"
	"                    with --heat: an object of struct TYPE at runtime address\n"
	"                    ADDR (repeatable)\n"
	"  -h, --help        this text\n"
	"\n"
	"exit status: 0 ok, 2 usage error, unknown -C name or --object TYPE, 3 FILE,\n"
	"profile or perf.data unreadable or malformed, FILE not ELF, or without\n"
	"DWARF (or BTF) debug info\n",
	.run = run,
};
