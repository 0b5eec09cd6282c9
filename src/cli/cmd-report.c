/* hitmap report: perf.data memory samples named by struct field. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "hitmap/attribute.h"
#include "hitmap/debuginfo.h"
#include "hitmap/heat.h"
#include "hitmap/perfdata.h"
#include "cli.h"
#include "options.h"

struct report_args {
	const char *input, *vmlinux, *save, *sysroot, *explain, *html, *regs_log;
	const char **binaries, **objects;
	size_t nbin, nobj;
	const char *cache_types[32];	/* --type-of-cache CACHE=TYPE */
	size_t ncache_types;
	int json, no_cache, verbose;
	unsigned jobs;
	struct hm_report_opts ro;
	struct cli_debuginfo dbg;
	struct hm_debuginfo_opts dio;	/* from dbg, for as long as the attribution */
	char *kernel;		/* the running kernel's vmlinux, when it was recorded */
};

static int parse_args(int argc, char **argv, struct report_args *ra)
{
	int rc, n;

	ra->input = "perf.data";
	rc = cli_parse_options(&hm_cmd_report, argc, argv, ra, 0, &n);
	if (rc == CLI_HELP) {
		cli_help(&hm_cmd_report);
		return 1;
	}
	if (rc)
		return rc == HM_EXIT_INPUT ? -ENOMEM : rc;
	if (n)
		return cli_usage_error(&hm_cmd_report, "unexpected argument '%s'", argv[1]);
	if (ra->explain && ra->html)
		return cli_usage_error(&hm_cmd_report, "--explain reads no perf.data: there is "
				       "no report to write with --html");
	ra->ro.sz = sizeof(ra->ro);
	ra->ro.input = ra->input;
	cli_verbose = ra->verbose;
	return 0;
}

static int setup(hm_attr *a, struct report_args *ra)
{
	struct hm_load_opts lo;
	size_t i;
	int err;

	cli_load_opts(&lo, ra->no_cache);
	lo.threads = ra->jobs;
	cli_debuginfo_opts(&ra->dbg, &ra->dio);
	lo.debuginfo = &ra->dio;
	if (hm_attr_set_load_opts(a, &lo))
		return HM_EXIT_INPUT;
	/* A missing or unreadable binary is bad input (3), not a usage error. */
	for (i = 0; i < ra->nbin; i++)
		if (hm_attr_add_binary(a, ra->binaries[i]))
			return HM_EXIT_INPUT;
	/* A raw BTF file (/sys/kernel/btf/vmlinux) gives the kernel's types
	 * alone: enough for the kmem caches' objects. */
	if (ra->vmlinux && (hm_types_is_btf_file(ra->vmlinux) == 1
			    ? hm_attr_set_kernel_btf(a, ra->vmlinux)
			    : hm_attr_set_vmlinux(a, ra->vmlinux)))
		return HM_EXIT_INPUT;
	/* a perf.data directory of perf record --kcore: the text that ran */
	if (strcmp(ra->input, "-") && hm_attr_set_kcore(a, ra->input) < 0)
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

/* Without --vmlinux: the running kernel's vmlinux with DWARF, when the
 * recording's kernel (its build-id in the perf.data) is the running one —
 * never another kernel's file, whose addresses would name the wrong
 * fields. */
static int default_vmlinux(hm_attr *a, hm_perf_reader *r, struct report_args *ra)
{
	const hm_perf_build_id *ids;
	size_t n = hm_perf_reader_build_ids(r, &ids);
	char rec[41], *run = NULL, *path = NULL;
	int is_btf = 0, rc = 0;

	for (size_t i = 0; i < n; i++) {
		if (!ids[i].filename || strcmp(ids[i].filename, "[kernel.kallsyms]") ||
		    !ids[i].size)
			continue;
		for (unsigned k = 0; k < ids[i].size && k < 20; k++)
			sprintf(rec + 2 * k, "%02x", ids[i].build_id[k]);
		if (!(run = hm_kernel_build_id(NULL)) || strncmp(rec, run, strlen(run)))
			break;
		if (!hm_kernel_find(NULL, &ra->dio, &path, &is_btf) && !is_btf) {
			fprintf(stderr, "hitmap: --vmlinux: the running kernel's, %s\n", path);
			rc = hm_attr_set_vmlinux(a, path) ? HM_EXIT_INPUT : 0;
			ra->kernel = path;
			path = NULL;
		}
		break;
	}
	free(run);
	free(path);
	return rc;
}

struct html_ctx {
	hm_attr *a;
	hm_heat *h;
	const hm_report_stats *st;
	const struct hm_report_opts *ro;
};

static int write_html(FILE *f, void *ctx)
{
	const struct html_ctx *x = ctx;

	return hm_report_print_html(f, x->a, x->h, x->st, x->ro);
}

/* perf's build-id table as the profile's builds: what `hitmap profile
 * merge` compares to refuse summing different builds. */
static int profile_builds(hm_profile *p, hm_perf_reader *r)
{
	const hm_perf_build_id *ids;
	size_t n = hm_perf_reader_build_ids(r, &ids), i, k = 0;
	hm_profile_build *b = calloc(n + 1, sizeof(*b));
	char (*hex)[41] = calloc(n + 1, sizeof(*hex));
	int err = 0;

	if (!b || !hex)
		err = -ENOMEM;
	for (i = 0; !err && i < n; i++) {
		if (!ids[i].filename || !ids[i].size)
			continue;
		for (unsigned j = 0; j < ids[i].size && j < 20; j++)
			sprintf(hex[k] + 2 * j, "%02x", ids[i].build_id[j]);
		b[k].file = ids[i].filename;
		b[k].build_id = hex[k];
		k++;
	}
	if (!err)
		err = hm_profile_set_builds(p, b, k);
	free(b);
	free(hex);
	return err;
}

/* A cut recording is reported as far as it goes: the output says where the
 * cut was (the "truncated" object), and the exit status is 3. */
static const hm_profile_truncation *truncation(hm_perf_reader *r, const hm_report_stats *st,
					       hm_profile_truncation *t, char *lost, size_t n)
{
	const hm_perf_info *in = hm_perf_reader_info(r);

	memset(t, 0, sizeof(*t));
	t->samples_kept = st->samples;
	if (in->truncated) {
		t->what = "data section";
		t->offset = in->truncated_at;
	} else if (in->features_cut_at) {
		t->what = "feature section";
		t->offset = in->features_cut_at;
		hm_perf_feature_names(in->features_lost, lost, n);
		t->features_lost = lost;
	} else {
		return NULL;
	}
	return t;
}

static int output(hm_attr *a, hm_heat *h, const hm_report_stats *st,
		  const struct report_args *ra, hm_perf_reader *r)
{
	hm_profile *p;
	int err;

	if (ra->save) {
		uint64_t att = 0;

		for (int b = 0; b < HM_NR_BUCKETS; b++)
			if (hm_attr_bucket_attributed(b))
				att += st->buckets[b];

		p = hm_heat_profile(h, ra->input, hm_report_kind(st), st->samples, att);
		if (!p)
			return HM_EXIT_INPUT;
		err = profile_builds(p, r) ?: hm_profile_set_truncated(p, st->truncated) ?:
		      hm_profile_save(p, ra->save);
		hm_profile_free(p);
		if (err)
			return HM_EXIT_INPUT;
	}
	if (ra->html) {
		struct html_ctx x = { a, h, st, &ra->ro };

		if ((err = cli_write_html(ra->html, write_html, &x)))
			return err;
	}
	err = ra->json ? hm_report_print_json(stdout, a, h, st, &ra->ro)
		       : hm_report_print(stdout, a, h, st, &ra->ro);
	if (fflush(stdout) || err) {
		cli_error("cannot write the report");
		return HM_EXIT_INPUT;
	}
	return HM_EXIT_OK;
}

/* Watchpoints that never fired look like a program without sharing: on
 * some virtual machines the breakpoint events open and count nothing. */
static void warn_silent_watch(hm_perf_reader *r, const hm_report_stats *st, const char *input)
{
	const hm_perf_info *info = hm_perf_reader_info(r);
	size_t i, bp = 0;

	for (i = 0; i < info->nr_events; i++)
		bp += info->events[i].type == PERF_TYPE_BREAKPOINT;
	if (!bp || st->watch_samples)
		return;
	fflush(stdout);
	fprintf(stderr, "warning: %s: its %zu watchpoint%s counted no access: the watched "
		"bytes were not accessed, or hardware watchpoints do not fire where it was "
		"recorded (a hypervisor that does not deliver debug exceptions); record "
		"without --watch for timer samples with registers\n", input, bp,
		bp == 1 ? "" : "s");
}

/* --regs-log: one line per sample asked of its registers */
static void log_regs(void *ctx, const hm_regs_note *n)
{
	fprintf(ctx, "%" PRIu64 " %" PRIu32 " %" PRIu32 " %#" PRIx64 " %s %#" PRIx64 " %#" PRIx64 "\n",
		n->time, n->cpu, n->tid, n->ip, n->rule, n->pc, n->addr);
}

static int run(int argc, char **argv)
{
	struct report_args ra = { 0 };
	hm_report_stats st;
	hm_perf_reader *r = NULL;
	hm_attr *a = NULL;
	hm_heat *h = NULL;
	FILE *regs_log = NULL;
	hm_profile_truncation cut;
	char lost[1024];
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
	if (ra.explain) {
		err = hm_attr_explain(stdout, a, ra.explain);
		if (fflush(stdout) && !err)
			err = -EIO;
		rc = err == -EINVAL || err == -ENOENT ? HM_EXIT_USAGE : err ? HM_EXIT_INPUT
								: HM_EXIT_OK;
		goto out;
	}
	/* a cut recording: report what was read, warn, exit 3 */
	HM_OPTS(hm_perf_reader_opts, ro, .keep_truncated = 1);
	r = hm_perf_reader_open_opts(ra.input, &ro);
	if (!r) {
		rc = HM_EXIT_INPUT;
		goto out;
	}
	if (!ra.vmlinux && (rc = default_vmlinux(a, r, &ra)))
		goto out;
	for (size_t i = 0; i < ra.ncache_types; i++) {
		err = hm_attr_set_cache_type(a, ra.cache_types[i]);
		if (err == -ENODATA)
			cli_error("--type-of-cache needs the kernel's types: give --vmlinux "
				  "(a vmlinux, or /sys/kernel/btf/vmlinux)");
		if (err) {
			rc = err == -ENOMEM ? HM_EXIT_INPUT : HM_EXIT_USAGE;
			goto out;
		}
	}
	hm_attr_set_recording_arch(a, hm_perf_reader_info(r)->arch);
	h = hm_heat_new(hm_attr_line_size(a));
	if (!h) {
		rc = HM_EXIT_INPUT;
		goto out;
	}
	if (ra.regs_log && !(regs_log = fopen(ra.regs_log, "w"))) {
		cli_error("cannot write '%s': %s", ra.regs_log, strerror(errno));
		rc = HM_EXIT_INPUT;
		goto out;
	}
	if (regs_log)
		hm_attr_set_regs_notes(a, log_regs, regs_log);
	err = hm_attr_run(a, r, h, &st);
	if (regs_log) {
		int bad = ferror(regs_log);

		bad |= fclose(regs_log);
		regs_log = NULL;
		if (bad && !err) {
			cli_error("cannot write '%s'", ra.regs_log);
			rc = HM_EXIT_INPUT;
			goto out;
		}
	}
	if (err) {
		rc = HM_EXIT_INPUT;
		goto out;
	}
	warn_silent_watch(r, &st, ra.input);
	st.truncated = truncation(r, &st, &cut, lost, sizeof(lost));
	rc = output(a, h, &st, &ra, r);
	if (!rc && st.truncated)
		rc = HM_EXIT_INPUT;
out:
	if (regs_log)
		fclose(regs_log);
	hm_heat_free(h);
	hm_perf_reader_close(r);
	hm_attr_free(a);
	free(ra.binaries);
	free(ra.objects);
	free(ra.dbg.dirs);
	free(ra.kernel);
	return rc;
}

static const struct cli_choice metrics[] = {
	{ "tot", HM_METRIC_TOT_HITM }, { "lcl", HM_METRIC_LCL_HITM },
	{ "rmt", HM_METRIC_RMT_HITM }, { "peer", HM_METRIC_PEER }, { NULL, 0 },
};

#define A(m) CLI_FIELD(struct report_args, m)
#define N(m) CLI_OFF(struct report_args, m)
static const struct cli_option options[] = {
	OPT_STRING('i', "input", A(input), "FILE",
		   "perf.data to read: a file, or a directory of perf record --kcore or "
		   "--threads (its data.N streams read in time order); '-' reads a pipe "
		   "(default perf.data)"),
	OPT_BINARIES(A(binaries), N(nbin), 0),
	OPT_VMLINUX(A(vmlinux)),
	OPT_SYSROOT(A(sysroot)),
	OPT_OBJECTS(A(objects), N(nobj), 0),
	OPT_LIST(0, "type-of-cache", A(cache_types), N(ncache_types), 32, "CACHE=TYPE",
		 "objects of the kernel slab cache CACHE are struct TYPE (for caches "
		 "whose name is no type; the kmem tracepoints of the recording give "
		 "the objects); repeatable"),
	OPT_CHOICE('d', "display", A(ro.metric), metrics, "METRIC",
		   "sort lines by lcl, rmt or tot HITM, or peer (default tot); "
		   "watchpoint data sorts by estimated transfers"),
	OPT_UINT(0, "top", A(ro.top), "N", 1, 100000, "show the N hottest lines (default 10)"),
	OPT_JSON(A(json)),
	OPT_HTML(A(html)),
	OPT_STRING(0, "save-profile", A(save), "OUT",
		   "write the per-field heat as a profile for check and suggest "
		   "(\"schema\": \"hitmap-profile/1\")"),
	OPT_STRING(0, "regs-log", A(regs_log), "FILE",
		   "write one line per sample whose data address comes from its "
		   "registers: TIME CPU TID IP RULE PC ADDR (RULE previous or at-ip, PC "
		   "the instruction chosen, a link address; else the bucket, PC and "
		   "ADDR 0)"),
	OPT_STRING(0, "explain", A(explain), "IP",
		   "show how the instruction at IP (hex link address or FUNC+OFF in the "
		   "first --binary) is attributed, and read no perf.data"),
	OPT_NO_CACHE(A(no_cache)),
	OPT_JOBS(A(jobs)),
	OPT_DEBUGINFO(struct report_args, dbg),
	OPT_VERBOSE_DEBUG(A(verbose)),
	OPT_END(),
};
#undef A
#undef N

const struct hm_cmd hm_cmd_report = {
	.name = "report",
	.summary = "name the struct fields behind perf.data memory samples",
	.usage = (const char *const[]){ "[options]", NULL },
	.description =
	"Attribute the memory samples of a perf.data file (perf c2c / perf mem\n"
	"recordings, hardware watchpoints, page faults with -d) to struct fields,\n"
	"rank the shared cachelines, and say per line whether it is false sharing,\n"
	"true sharing (or both, with the fields of each), read-shared, private or\n"
	"short of evidence (fewer than 5 transfers or a rate not above 1 %).\n",
	.options = options,
	.epilog =
	"exit status: 0 ok, 2 usage error (unknown TYPE), 3 unreadable or malformed\n"
	"input; see hitmap-report(1)\n",
	.run = run,
};
