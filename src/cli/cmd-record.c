/* hitmap record: memory sampling with the CPU's PMU, or hardware watchpoints. */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include "hitmap/binary.h"
#include "hitmap/record.h"
#include "hitmap/types.h"
#include "cli.h"
#include "options.h"

extern const struct hm_cmd hm_cmd_record;

#define MAX_WATCHES HM_RECORD_MAX_EVENTS
#define MAX_EVENTS HM_RECORD_MAX_EVENTS

struct args {
	const char *output, *binary;
	uint64_t ldlat, freq, period, mmap_pages, duration;
	pid_t pid;
	int cpu_wide, dry_run, quiet, user_only, alloc, kmem, timer;
	const char *events[MAX_EVENTS + 1];
	size_t nr_events;
	const char *watch[MAX_WATCHES];
	size_t nr_watch;
	char **argv;
};

static volatile int stop_flag;

/* Ctrl-C at a terminal (si_code SI_KERNEL) reaches the whole foreground
 * process group: the command has had its SIGINT, and a second one could
 * cut short the ending the first one started. */
static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (!stop_flag)
		stop_flag = sig == SIGINT && si && si->si_code == SI_KERNEL ? HM_RECORD_STOP_SEEN
									    : HM_RECORD_STOP;
}

/* One line once the events are live: a script that attaches with -p can
 * wait for it before it starts the work it wants recorded. */
static void say_started(void *ctx)
{
	(void)ctx;
	fputs("hitmap record: recording; Ctrl-C to stop\n", stderr);
}

static int parse(int argc, char **argv, struct args *a)
{
	const struct hm_cmd *cmd = &hm_cmd_record;
	int rc, n;

	memset(a, 0, sizeof(*a));
	a->output = "perf.data";
	/* the first operand is the command to run: its options are its own */
	rc = cli_parse_options(cmd, argc, argv, a, CLI_STOP_AT_OPERAND, &n);
	if (rc)
		return rc;
	if (n)
		a->argv = argv + 1;
	if (a->freq && a->period)
		return cli_usage_error(cmd, "-F and -c exclude each other");
	if (a->pid && (a->cpu_wide || a->argv))
		return cli_usage_error(cmd, "-p PID excludes -a and -- COMMAND");
	if (a->timer && (a->nr_watch || a->nr_events || a->ldlat))
		return cli_usage_error(cmd, "--timer excludes --watch, -e and --ldlat");
	if (a->nr_watch) {
		if (a->nr_events || a->ldlat || a->freq || a->cpu_wide)
			return cli_usage_error(cmd, "--watch takes only -o, -c, --binary, "
					       "--alloc, --kmem, --duration and -p PID or -- "
					       "COMMAND");
		if (!a->argv && !a->pid && !a->dry_run)
			return cli_usage_error(cmd, "--watch needs a command (-- COMMAND [ARGS]) "
					       "or a process (-p PID)");
		if (!a->argv && !a->binary && !a->pid)
			return cli_usage_error(cmd, "--watch --dry-run needs --binary or a command");
	} else if (!a->dry_run && !a->cpu_wide && !a->pid && !a->argv) {
		return cli_usage_error(cmd, "nothing to record: give -a, -p PID or -- COMMAND");
	}
	return 0;
}

/* The file execvp would run. */
static int resolve_command(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH"), *p;
	struct stat sb;

	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return 0;
	}
	for (p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		snprintf(out, len, "%.*s/%s", (int)n, n ? p : ".", name);
		if (stat(out, &sb) == 0 && S_ISREG(sb.st_mode) && access(out, X_OK) == 0)
			return 0;
		p += n;
		if (*p == ':')
			p++;
	}
	return -ENOENT;
}

static int print_plan(const hm_record_plan *plan, int kmem)
{
	hm_record_plan all = *plan;
	char buf[512];
	size_t i;

	/* the recorder adds them itself; shown here as it will */
	if (kmem && hm_record_plan_kmem(NULL, &all))
		return HM_EXIT_INPUT;
	plan = &all;

	printf("pmu: %s (%s)%s\n", plan->pmu, plan->pmu_desc,
	       plan->cpu_wide_only ? ", CPU-wide only" : "");
	for (i = 0; i < plan->nr; i++) {
		hm_record_describe(plan, i, buf, sizeof(buf));
		printf("%s\n", buf);
	}
	return HM_EXIT_OK;
}

/* The --watch expression an event's breakpoint comes from. */
static const char *expr_of(const hm_watch *w, size_t n, uint64_t bias, uint64_t addr)
{
	size_t i;

	for (i = 0; w && i < n; i++) {
		uint64_t start = w[i].addr + (w[i].relative ? bias : 0);

		if (addr >= start && addr < start + w[i].len)
			return w[i].expr;
	}
	return "";
}

static void summary(const struct args *a, const struct hm_record_stats *st, const hm_watch *w)
{
	int i;

	if (a->quiet)
		return;
	fprintf(stderr, "hitmap record: %" PRIu64 " samples", st->samples);
	if (a->nr_watch)
		fprintf(stderr, " (%" PRIu64 " writes, %" PRIu64 " reads)", st->writes, st->reads);
	fprintf(stderr, ", %" PRIu64 " lost, %zu ring buffer%s, %.2f s\n", st->lost,
		st->nr_ring_buffers, st->nr_ring_buffers == 1 ? "" : "s", st->seconds);
	for (i = 0; i < st->nr_watch_events; i++)
		fprintf(stderr, "  %10" PRIu64 " %-6s %#" PRIx64 "/%u  %s\n", st->per_event[i],
			st->watch_type[i] == HW_BREAKPOINT_W ? "writes" : "reads",
			st->watch_addr[i], st->watch_len[i],
			expr_of(w, a->nr_watch, st->bias, st->watch_addr[i]));
	if (a->alloc)
		fprintf(stderr, "  %10" PRIu64 " allocator calls and returns (libc uprobes)\n",
			st->alloc_samples);
	if (a->kmem)
		fprintf(stderr, "  %10" PRIu64 " kernel allocations and frees (kmem tracepoints)\n",
			st->kmem_samples);
	if (a->alloc && !st->alloc_new_threads)
		fprintf(stderr, "warning: allocator probes on the first threads only: tracefs "
			"(/sys/kernel/tracing/uprobe_events) is not writable, and the uprobe "
			"PMU's events cannot follow new threads\n");
	if (a->alloc && st->alloc_no_store)
		fprintf(stderr, "warning: posix_memalign not probed: no store of its result "
			"found in libc's code\n");
	if (st->lost)
		fprintf(stderr, "warning: %" PRIu64 " samples lost (ring buffer full); use a "
			"larger --mmap-pages or -c\n", st->lost);
	fprintf(stderr, "hitmap record: wrote %s (%" PRIu64 " bytes)\n", a->output, st->bytes);
	if (st->stopped) {
		fprintf(stderr, "hitmap record: stopped; the command was sent SIGINT\n");
	} else if (st->child_status > 0) {
		if (WIFEXITED(st->child_status))
			fprintf(stderr, "warning: the command exited with status %d\n",
				WEXITSTATUS(st->child_status));
		else if (WIFSIGNALED(st->child_status))
			fprintf(stderr, "warning: the command was killed by signal %d\n",
				WTERMSIG(st->child_status));
	}
}

static int load_watches(const struct args *a, hm_binary **bin, hm_types **types,
			hm_watch *w)
{
	char path[4096];
	struct hm_load_opts lo;
	size_t i;
	int rc;

	if (a->binary)
		snprintf(path, sizeof(path), "%s", a->binary);
	else if (a->pid)	/* the process's own executable */
		snprintf(path, sizeof(path), "/proc/%d/exe", (int)a->pid);
	else if (resolve_command(a->argv[0], path, sizeof(path))) {
		cli_error("%s: command not found", a->argv[0]);
		return HM_EXIT_USAGE;
	}
	*bin = hm_binary_open(path);
	if (!*bin) {
		/* the library said why, but for a failed allocation */
		if (errno == ENOMEM)
			cli_error("%s: %s", path, strerror(errno));
		return HM_EXIT_INPUT;
	}
	/* Raw addresses (0x5555555592a0/16) need no names: then a command
	 * without debug info (setarch -R, a stripped program) is no error. */
	for (i = 0; i < a->nr_watch && isdigit((unsigned char)a->watch[i][0]); i++)
		;
	if (i < a->nr_watch) {
		cli_load_opts(&lo, 0);
		lo.variables = 1;
		rc = hm_types_load(*bin, &lo, types);
		if (rc && rc != -ENODATA)
			return cli_exit_for(rc);
	}
	for (i = 0; i < a->nr_watch; i++) {
		rc = hm_watch_parse(a->watch[i], *bin, *types, &w[i]);
		if (rc)
			return rc == -ENOENT || rc == -EINVAL ? HM_EXIT_USAGE : HM_EXIT_INPUT;
	}
	return 0;
}

/* The workload's own status once the perf.data is complete, as perf record
 * returns it: a CI step that runs its tests under `hitmap record` must still
 * fail when they fail.  128 + N when signal N killed it. */
static int workload_status(const struct hm_record_stats *st)
{
	if (st->child_status == -1)
		return HM_EXIT_OK;	/* -p or -a: no command of ours */
	/* ended by the signals it was sent to stop the recording */
	if (st->stopped && WIFSIGNALED(st->child_status) &&
	    (WTERMSIG(st->child_status) == SIGINT || WTERMSIG(st->child_status) == SIGTERM ||
	     WTERMSIG(st->child_status) == SIGKILL))
		return HM_EXIT_OK;
	if (WIFEXITED(st->child_status))
		return WEXITSTATUS(st->child_status);
	if (WIFSIGNALED(st->child_status)) {
		/* said even with -q: an exit status of 133 alone does not
		 * tell a killed command from a failed recording */
		cli_warn("the command was killed by signal %d (%s)", WTERMSIG(st->child_status),
			 strsignal(WTERMSIG(st->child_status)));
		return 128 + WTERMSIG(st->child_status);
	}
	return HM_EXIT_OK;
}

/* A recording of watchpoints that never fire is 0 samples that look like
 * "no sharing": refuse it, and say what records on this machine instead. */
static int watch_check(void)
{
	struct hm_watch_probe wp;
	int rc;

	cli_diag_muted = 1;
	rc = hm_record_watch_probe(&wp);
	cli_diag_muted = 0;
	if (!rc)
		return 0;
	if (rc != -EOPNOTSUPP) {
		/* again, saying why; a failure of the moment (a debug
		 * register another process held) that is gone is no reason
		 * to refuse, and a refusal must say one */
		rc = hm_record_watch_probe(&wp);
		if (!rc)
			return 0;
		if (rc != -EOPNOTSUPP)
			return HM_EXIT_INPUT;
	}
	cli_error("hardware watchpoints do not fire on this machine (%" PRIu64 " of %" PRIu64
		  " watched writes counted; %s does not deliver debug exceptions); record "
		  "without --watch for timer samples with registers", wp.counted, wp.written,
		  wp.hypervisor ? "the hypervisor" : "the kernel");
	return HM_EXIT_INPUT;
}

static int run_watch(struct args *a)
{
	hm_watch w[MAX_WATCHES];
	hm_binary *bin = NULL;
	hm_types *types = NULL;
	struct hm_record_opts o;
	struct hm_record_stats st;
	hm_record_plan plan;
	int rc;

	rc = load_watches(a, &bin, &types, w);
	if (rc)
		goto out;
	if (a->dry_run) {
		/* Link-time addresses: the load bias is known only at run time. */
		rc = hm_record_plan_watch(w, a->nr_watch, 0, a->period, &plan);
		rc = rc ? (rc == -E2BIG || rc == -EINVAL ? HM_EXIT_USAGE : HM_EXIT_INPUT)
			: print_plan(&plan, a->kmem);
		goto out;
	}
	/* Usage errors first (too many breakpoints, :rw with -c): the slots
	 * are those of the run, the load bias being a multiple of the page. */
	cli_diag_muted = 1;
	rc = hm_record_plan_watch(w, a->nr_watch, 0, a->period, &plan);
	cli_diag_muted = 0;
	if (rc) {
		rc = hm_record_plan_watch(w, a->nr_watch, 0, a->period, &plan);	/* saying why */
		rc = rc == -E2BIG || rc == -EINVAL ? HM_EXIT_USAGE : HM_EXIT_INPUT;
		goto out;
	}
	if ((rc = watch_check()))
		goto out;
	memset(&o, 0, sizeof(o));
	o.sz = sizeof(o);
	o.output = a->output;
	o.watches = w;
	o.nr_watches = a->nr_watch;
	o.binary = bin;
	o.watch_period = a->period;
	o.alloc = a->alloc;
	o.kmem = a->kmem;
	o.argv = a->argv;
	o.mmap_pages = (unsigned)a->mmap_pages;
	o.pid = a->pid;
	o.stop = &stop_flag;
	o.started = a->quiet ? NULL : say_started;
	rc = hm_record_run(&o, &st);
	if (rc) {
		rc = rc == -E2BIG || rc == -EINVAL ? HM_EXIT_USAGE :
		     rc == -ENOENT && !st.samples ? HM_EXIT_USAGE : HM_EXIT_INPUT;
		goto out;
	}
	summary(a, &st, w);
	rc = workload_status(&st);
out:
	hm_types_free(types);
	hm_binary_close(bin);
	return rc;
}

static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

/* Record with a plan already made (PMU or timer events). */
static int run_plan(struct args *a, const hm_record_plan *plan)
{
	struct hm_record_opts o;
	struct hm_record_stats st;
	int rc;

	memset(&o, 0, sizeof(o));
	o.sz = sizeof(o);
	o.output = a->output;
	o.plan = plan;
	o.argv = a->argv;
	o.pid = a->pid;
	o.cpu_wide = a->cpu_wide;
	o.alloc = a->alloc;
	o.kmem = a->kmem;
	o.mmap_pages = (unsigned)a->mmap_pages;
	o.stop = &stop_flag;
	o.started = a->quiet ? NULL : say_started;
	rc = hm_record_run(&o, &st);
	if (rc)
		return rc == -EINVAL ? HM_EXIT_USAGE : HM_EXIT_INPUT;
	summary(a, &st, NULL);
	return workload_status(&st);
}

/* Timer samples with registers: the evidence where neither a memory-sampling
 * PMU nor watchpoints give any.  why: what led here, for the note. */
static int run_timer(struct args *a, const char *why)
{
	struct hm_timer_opts to;
	hm_record_plan plan;
	const struct perf_event_attr *ev;
	int rc;

	memset(&to, 0, sizeof(to));
	to.sz = sizeof(to);
	to.period_ns = a->period;
	to.freq = a->freq;
	to.cpu_wide = a->cpu_wide;
	to.user_only = a->user_only;
	rc = hm_record_plan_timer(&to, &plan);
	if (rc)
		return rc == -EINVAL ? HM_EXIT_USAGE : HM_EXIT_INPUT;
	ev = &plan.ev[0].attr;
	if (!a->quiet)
		fprintf(stderr, "note: %s%srecording timer samples with registers (%s, %llu Hz%s)%s\n",
			why ? why : "", why ? ": " : "", plan.ev[0].name,
			1000000000ull / (unsigned long long)ev->sample_period,
			ev->exclude_kernel ? ", user space" : ", user and kernel",
			a->kmem ? " and the kmem tracepoints" : "");
	if (a->dry_run)
		return print_plan(&plan, a->kmem);
	return run_plan(a, &plan);
}

static int run_pmu(struct args *a)
{
	struct hm_pmu_opts po;
	hm_record_plan plan;
	int rc;

	memset(&po, 0, sizeof(po));
	po.sz = sizeof(po);
	po.ldlat = (unsigned)a->ldlat;
	po.period = a->period;
	po.freq = a->freq;
	po.user_only = a->user_only;
	po.events = a->nr_events ? a->events : NULL;
	if (a->timer)
		return run_timer(a, NULL);
	/* No memory-sampling PMU: timer samples with registers, and with
	 * --kmem the kernel's allocations too, which is what names the slab
	 * object a timer sample's computed address is in. */
	cli_diag_muted = !a->nr_events;
	rc = hm_record_plan_pmu(&po, &plan);
	cli_diag_muted = 0;
	if (rc == -ENODEV && !a->nr_events)
		return run_timer(a, "no memory-sampling PMU and no --watch");
	if (rc && !a->nr_events)
		rc = hm_record_plan_pmu(&po, &plan);	/* again, saying why */
	if (rc)
		return rc == -EINVAL ? HM_EXIT_USAGE : HM_EXIT_INPUT;
	if (a->dry_run)
		return print_plan(&plan, a->kmem);
	if (!po.user_only && !a->cpu_wide && geteuid() != 0 && paranoid() >= 2) {
		/* perf_event_paranoid 2 allows user space only: ask for that. */
		po.user_only = 1;
		rc = hm_record_plan_pmu(&po, &plan);
		if (rc)
			return rc == -EINVAL ? HM_EXIT_USAGE : HM_EXIT_INPUT;
		if (!a->quiet)
			fprintf(stderr, "note: kernel.perf_event_paranoid >= 2: sampling user "
				"space only\n");
	}
	if (!hm_record_pmu_present(&plan, NULL)) {
		cli_error("%s: libpfm4 was forced to a PMU this machine does not have "
			  "(LIBPFM_FORCE_PMU); use --dry-run", plan.pmu);
		return HM_EXIT_INPUT;
	}
	if (plan.cpu_wide_only && !a->cpu_wide && !a->quiet)
		fprintf(stderr, "note: %s samples every CPU; the command's samples are kept "
			"with everyone else's\n", plan.pmu);
	return run_plan(a, &plan);
}

static int run(int argc, char **argv)
{
	struct sigaction sa;
	struct args a;
	int rc;

	rc = parse(argc, argv, &a);
	if (rc < 0)
		return cli_help(&hm_cmd_record);
	if (rc)
		return rc;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (a.duration) {
		sigaction(SIGALRM, &sa, NULL);
		alarm((unsigned)a.duration);
	}
	/* before any note on what would be recorded, and once */
	if (a.pid && kill(a.pid, 0) && errno == ESRCH) {
		cli_error("process %d: no such process", (int)a.pid);
		return HM_EXIT_INPUT;
	}
	return a.nr_watch ? run_watch(&a) : run_pmu(&a);
}

#define A(m) CLI_FIELD(struct args, m)
#define N(m) CLI_OFF(struct args, m)
static const struct cli_option options[] = {
	OPT_GROUP("PMU mode samples loads and stores with the CPU's memory-sampling PMU (Intel\n"
		  "load latency + all stores, grouped behind mem-loads-aux on Sapphire Rapids;\n"
		  "AMD IBS op, CPU-wide):\n"),
	OPT_STRING('o', "output", A(output), "FILE", "output file (default perf.data)"),
	OPT_UINT(0, "ldlat", A(ldlat), "N", 1, 65535,
		 "load latency threshold in cycles (default 30)"),
	OPT_UINT('F', "freq", A(freq), "HZ", 1, 1000000,
		 "samples per second (default 4000; timer mode 10000)"),
	OPT_UINT('c', "count", A(period), "N", 1, UINT64_MAX >> 1,
		 "sample every Nth event, as perf record -c (in watch mode: one sample "
		 "per N accesses, default 1; :rw needs 1; in timer mode: every N ns of "
		 "CPU time)"),
	OPT_BOOL('a', "all-cpus", A(cpu_wide),
		 "record every CPU until Ctrl-C (or until COMMAND ends)"),
	OPT_UINT('p', "pid", A(pid), "PID", 1, INT32_MAX,
		 "record an existing process and its threads (threads it starts while "
		 "recording too); with --watch, the names are looked up in its "
		 "executable and the addresses in its maps"),
	OPT_UINT(0, "duration", A(duration), "S", 1, 86400,
		 "stop after S seconds (also: Ctrl-C or SIGTERM, which send COMMAND "
		 "SIGINT, or the end of COMMAND or of the process)"),
	OPT_LIST('e', "event", A(events), N(nr_events), MAX_EVENTS, "EVENT",
		 "libpfm4 event string instead of the default pair (repeatable), e.g. "
		 "MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM"),
	OPT_BOOL(0, "user-only", A(user_only),
		 "leave the kernel out (needs perf_event_paranoid <= 2)"),
	OPT_POW2(0, "mmap-pages", A(mmap_pages), "N", 1, 1u << 20,
		 "ring buffer pages per CPU, a power of two (default 128)"),
	OPT_BOOL(0, "alloc", A(alloc),
		 "also record libc's malloc, calloc, realloc, aligned_alloc, "
		 "posix_memalign and free, in every thread "
		 "(size, pointer, call site and callchain, through uprobes), so report "
		 "can say which allocation an address is in"),
	OPT_BOOL(0, "kmem", A(kmem),
		 "also record the kernel's allocations: the kmem tracepoints "
		 "kmem_cache_alloc (with the cache's name), kmalloc, kmem_cache_free "
		 "and kfree (raw records and their formats, as perf record -e writes "
		 "them), so report can say which kernel object an address is in; "
		 "beside the memory samples, the watchpoints or the timer samples"),
	OPT_FLAG(0, "dry-run", A(dry_run),
		 "print the events that would be opened, open nothing "
		 "(LIBPFM_FORCE_PMU=skx shows another CPU's encodings)"),
	OPT_BOOL('q', "quiet", A(quiet), "no summary"),
	OPT_GROUP("Timer mode needs neither (any machine perf works on): without a memory-sampling\n"
		  "PMU and without --watch, the command's threads (task-clock), or with -a every\n"
		  "CPU (cpu-clock, the kernel too where allowed), are sampled at 10000 Hz (-F,\n"
		  "or -c NS; at most kernel.perf_event_max_sample_rate) with their general\n"
		  "registers, from which report computes the data addresses:\n"),
	OPT_BOOL(0, "timer", A(timer),
		 "timer samples with registers even where a memory-sampling PMU exists"),
	OPT_GROUP("Watch mode needs no PMU (works in VMs): hardware breakpoints on bytes of\n"
		  "global objects, inherited by every thread of COMMAND or of -p PID:\n"),
	OPT_LIST('w', "watch", A(watch), N(nr_watch), MAX_WATCHES, "EXPR",
		 "VAR, VAR.FIELD.SUB, VAR.FIELD[N].SUB, SYM+OFF/LEN or 0xADDR/LEN, with an optional :w "
		 "(writes) or :rw (reads and writes); repeatable; at most 4 breakpoints "
		 "in all (x86)"),
	OPT_STRING(0, "binary", A(binary), "FILE",
		   "the ELF file the names are in (default: COMMAND)"),
	OPT_END(),
};
#undef A
#undef N

const struct hm_cmd hm_cmd_record = {
	.name = "record",
	.summary = "record memory accesses (PMU sampling, watchpoints or timer samples)",
	.usage = (const char *const[]){
		"[-o FILE] [--ldlat N] [-F HZ | -c N] [-e EVENT... | --timer] [--duration S] "
		"[-a | -p PID | [--] COMMAND [ARGS...]]",
		"--watch EXPR... [--binary FILE] [-o FILE] [-c N] [--duration S] "
		"(-p PID | [--] COMMAND [ARGS...])",
		NULL },
	.description =
	"Record memory accesses into a standard perf.data that `hitmap report` and\n"
	"`perf c2c report` read.  The first argument that is not an option is\n"
	"COMMAND: what follows it is COMMAND's.  -c is perf record's sample period\n"
	"here (elsewhere in hitmap it is pahole's cacheline size).  The file's\n"
	"header is kept current, so a killed recording reads up to its last\n"
	"flush; an existing FILE is kept as FILE.old.\n",
	.options = options,
	.epilog =
	"Exit status: COMMAND's once the perf.data is complete (128 + N when\n"
	"signal N ended it), as perf record; 0 with -p or -a; before recording,\n"
	"2 usage error, 3 cannot record (watchpoints that do not fire, no such\n"
	"process, no permission, unreadable binary).  See hitmap-record(1).\n",
	.run = run,
};
