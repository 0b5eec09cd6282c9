/* hitmap report: perf.data memory samples named by struct field. */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/attribute.h"
#include "hitmap/heat.h"
#include "hitmap/perfdata.h"
#include "cli.h"

struct report_args {
	const char *input, *vmlinux, *save, *sysroot;
	const char **binaries, **objects;
	size_t nbin, nobj;
	int json, no_cache;
	struct hm_report_opts ro;
};

static int parse_metric(const char *s, enum hm_heat_metric *m)
{
	static const struct { const char *name; enum hm_heat_metric m; } map[] = {
		{ "tot", HM_METRIC_TOT_HITM }, { "lcl", HM_METRIC_LCL_HITM },
		{ "rmt", HM_METRIC_RMT_HITM }, { "peer", HM_METRIC_PEER },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(s, map[i].name)) {
			*m = map[i].m;
			return 0;
		}
	return -1;
}

static int parse_args(int argc, char **argv, struct report_args *ra)
{
	enum { O_BINARY = 256, O_VMLINUX, O_OBJECT, O_JSON, O_SAVE, O_TOP, O_NO_CACHE, O_SYSROOT };
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "binary", required_argument, NULL, O_BINARY },
		{ "vmlinux", required_argument, NULL, O_VMLINUX },
		{ "sysroot", required_argument, NULL, O_SYSROOT },
		{ "object", required_argument, NULL, O_OBJECT },
		{ "display", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, O_JSON },
		{ "save-profile", required_argument, NULL, O_SAVE },
		{ "top", required_argument, NULL, O_TOP },
		{ "no-cache", no_argument, NULL, O_NO_CACHE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t top;
	int c;

	ra->input = "perf.data";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			ra->input = optarg;
			break;
		case O_BINARY:
			if (cli_push(&ra->binaries, &ra->nbin, optarg))
				return -ENOMEM;
			break;
		case O_VMLINUX:
			ra->vmlinux = optarg;
			break;
		case O_SYSROOT:
			ra->sysroot = optarg;
			break;
		case O_OBJECT:
			if (cli_push(&ra->objects, &ra->nobj, optarg))
				return -ENOMEM;
			break;
		case 'd':
			if (parse_metric(optarg, &ra->ro.metric))
				return cli_usage_error(&hm_cmd_report,
						       "-d: expected lcl, rmt, tot or peer, not '%s'", optarg);
			break;
		case O_NO_CACHE:
			/* the attribution loads the binaries' types */
			ra->no_cache = 1;
			break;
		case O_JSON:
			ra->json = 1;
			break;
		case O_SAVE:
			ra->save = optarg;
			break;
		case O_TOP:
			if (cli_parse_u64(optarg, 1, 100000, &top))
				return cli_usage_error(&hm_cmd_report, "--top: expected 1..100000, not '%s'",
						       optarg);
			ra->ro.top = (unsigned)top;
			break;
		case 'h':
			cli_help(&hm_cmd_report);
			return 1;
		case ':':
			return cli_usage_error(&hm_cmd_report, "option '%s' needs an argument",
					       argv[optind - 1]);
		default:
			return cli_usage_error(&hm_cmd_report, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error(&hm_cmd_report, "unexpected argument '%s'", argv[optind]);
	ra->ro.input = ra->input;
	return 0;
}

static int setup(hm_attr *a, const struct report_args *ra)
{
	struct hm_load_opts lo;
	size_t i;
	int err;

	cli_load_opts(&lo, ra->no_cache);
	if (hm_attr_set_load_opts(a, &lo))
		return HM_EXIT_INPUT;
	/* A missing or unreadable binary is bad input (3), not a usage error. */
	for (i = 0; i < ra->nbin; i++)
		if (hm_attr_add_binary(a, ra->binaries[i]))
			return HM_EXIT_INPUT;
	if (ra->vmlinux && hm_attr_set_vmlinux(a, ra->vmlinux))
		return HM_EXIT_INPUT;
	if (ra->sysroot && hm_attr_set_sysroot(a, ra->sysroot))
		return HM_EXIT_INPUT;
	for (i = 0; i < ra->nobj; i++) {
		err = hm_attr_add_object(a, ra->objects[i]);
		if (err == -EINVAL || err == -ENOENT)
			return HM_EXIT_USAGE;
		if (err)
			return cli_exit_for(err);
	}
	return 0;
}

static int output(hm_attr *a, hm_heat *h, const hm_report_stats *st,
		  const struct report_args *ra)
{
	hm_profile *p;
	int err;

	if (ra->save) {
		uint64_t att = st->buckets[HM_ATTR_GLOBAL] + st->buckets[HM_ATTR_OBJECT];

		p = hm_heat_profile(h, ra->input, hm_report_kind(st), st->samples, att);
		if (!p)
			return HM_EXIT_INPUT;
		err = hm_profile_save(p, ra->save);
		hm_profile_free(p);
		if (err)
			return HM_EXIT_INPUT;
	}
	err = ra->json ? hm_report_json(stdout, a, h, st, &ra->ro)
		       : hm_report_print(stdout, a, h, st, &ra->ro);
	if (fflush(stdout) || err) {
		cli_error("cannot write the report");
		return HM_EXIT_INPUT;
	}
	return HM_EXIT_OK;
}

static int run(int argc, char **argv)
{
	struct report_args ra = { 0 };
	hm_report_stats st;
	hm_perf_reader *r = NULL;
	hm_attr *a = NULL;
	hm_heat *h = NULL;
	int rc, err;

	rc = parse_args(argc, argv, &ra);
	if (rc) {
		rc = rc == 1 ? HM_EXIT_OK : rc < 0 ? HM_EXIT_INPUT : rc;
		goto out;
	}
	a = hm_attr_new();
	if (!a) {
		rc = HM_EXIT_INPUT;
		goto out;
	}
	if ((rc = setup(a, &ra)))
		goto out;
	r = hm_perf_reader_open(ra.input);
	if (!r) {
		rc = HM_EXIT_INPUT;
		goto out;
	}
	h = hm_heat_new(hm_attr_line_size(a));
	if (!h) {
		rc = HM_EXIT_INPUT;
		goto out;
	}
	err = hm_attr_run(a, r, h, &st);
	if (err) {
		rc = HM_EXIT_INPUT;
		goto out;
	}
	rc = output(a, h, &st, &ra);
out:
	hm_heat_free(h);
	hm_perf_reader_close(r);
	hm_attr_free(a);
	free(ra.binaries);
	free(ra.objects);
	return rc;
}

const struct hm_cmd hm_cmd_report = {
	.name = "report",
	.summary = "name the struct fields behind perf.data memory samples",
	.usage =
	"usage: hitmap report [-i FILE] [--binary FILE]... [--vmlinux FILE]\n"
	"                     [--object TYPE@ADDR]... [-d lcl|rmt|tot|peer] [--top N]\n"
	"                     [--sysroot DIR] [--json] [--save-profile OUT] [--no-cache]\n"
	"\n"
	"Attribute the memory samples of a perf.data file (perf c2c / perf mem\n"
	"recordings, hardware watchpoints, page faults with -d) to struct fields,\n"
	"rank the shared cachelines, and say per line whether it is false sharing,\n"
	"true sharing, read-shared or private.\n"
	"\n"
	"options:\n"
	"  -i, --input FILE      perf.data to read; '-' reads a pipe (default perf.data)\n"
	"  --binary FILE         an ELF file with DWARF for mappings of the same build-id\n"
	"                        or file name (repeatable); files named by the recording\n"
	"                        are used when they exist and their build-id matches\n"
	"  --vmlinux FILE        the kernel image with DWARF (kernel addresses)\n"
	"  --sysroot DIR         look for the files named by the recording under DIR\n"
	"                        (a recording from another machine, or one you do not\n"
	"                        trust); names with '..' are then never opened\n"
	"  --object TYPE@ADDR    an object of struct TYPE at runtime address ADDR\n"
	"                        (repeatable)\n"
	"  -d, --display METRIC  sort lines by lcl, rmt or tot HITM, or peer (default\n"
	"                        tot); watchpoint data sorts by estimated transfers\n"
	"  --top N               show the N hottest lines (default 10)\n"
	"  --json                JSON output (\"schema\": \"hitmap/1\")\n"
	"  --save-profile OUT    write the per-field heat as a profile for check and\n"
	"                        suggest (\"schema\": \"hitmap-profile/1\")\n"
	"  --no-cache            neither read nor write the type cache of the binaries\n"
	"                        ($XDG_CACHE_HOME/hitmap; HITMAP_NO_CACHE=1 too)\n"
	"  -h, --help            this text\n"
	"\n"
	"exit status: 0 ok, 2 usage error (unknown TYPE), 3 unreadable or malformed\n"
	"input; see hitmap-report(1)\n",
	.run = run,
};
