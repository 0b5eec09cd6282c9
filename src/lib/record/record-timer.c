/* record-timer: timer samples with registers, the evidence every machine
 * can give.
 *
 * Without a memory-sampling PMU and without working watchpoints (nested and
 * paravirtualised guests, CI runners), a software clock still interrupts
 * the program at an instruction boundary; with the general registers
 * sampled there, the operand of the instruction around the IP gives the
 * exact data address (report's business).  The events are those of
 * `perf record -e cpu-clock -c NS --sample-cpu --user-regs=...` (and -I
 * with -a), so perf script reads the file as its own. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include "hitmap/record.h"
#include "record/record-int.h"
#include "base/diag.h"
#include "base/opts.h"

#define TIMER_SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			   PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
			   PERF_SAMPLE_REGS_USER)

/* kernel.perf_event_max_sample_rate, or 0 when unreadable. */
static uint64_t max_sample_rate(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	unsigned long long v = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static int plan_timer(const struct hm_timer_opts *o, hm_record_plan *plan)
{
	hm_record_event *ev = &plan->ev[0];
	struct perf_event_attr *a = &ev->attr;
	uint64_t max = max_sample_rate(), period, hz;
	int kernel;

	memset(plan, 0, sizeof(*plan));
	plan->source = HM_SOURCE_TIMER;
	if (o->period_ns) {
		period = o->period_ns;
	} else {
		hz = o->freq ? o->freq : HM_TIMER_DEFAULT_HZ;
		period = (1000000000ull + hz - 1) / hz;
	}
	/* Above the maximum rate the kernel throttles the event: fewer
	 * samples than asked, unevenly spread.  Ask for the maximum. */
	if (max && period < (1000000000ull + max - 1) / max) {
		if (o->period_ns || o->freq)
			hm_diag(HM_DIAG_NOTE, "timer: %llu Hz is above "
				"kernel.perf_event_max_sample_rate (%llu): sampling at %llu Hz",
				1000000000ull / period, (unsigned long long)max,
				(unsigned long long)max);
		period = (1000000000ull + max - 1) / max;
	}
	/* Kernel samples need paranoid <= 1 (or privilege) and are useful
	 * only with the interrupted registers, which come CPU-wide. */
	kernel = o->cpu_wide && !o->user_only && (geteuid() == 0 || hm_proc_paranoid() <= 1);
	memset(ev, 0, sizeof(*ev));
	ev->leader = -1;
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = o->cpu_wide ? PERF_COUNT_SW_CPU_CLOCK : PERF_COUNT_SW_TASK_CLOCK;
	a->sample_period = period;
	a->sample_type = TIMER_SAMPLE_TYPE;
	a->sample_regs_user = HM_TIMER_REGS;
	if (kernel) {
		a->sample_type |= PERF_SAMPLE_REGS_INTR;
		a->sample_regs_intr = HM_TIMER_REGS;
	} else {
		a->exclude_kernel = 1;
		a->exclude_hv = 1;
	}
	a->sample_id_all = 1;
	a->disabled = 1;
	/* the side band that maps IPs and data addresses to files */
	a->mmap = 1;
	a->mmap2 = 1;
	a->mmap_data = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	snprintf(ev->name, sizeof(ev->name), "%s", o->cpu_wide ? "cpu-clock" : "task-clock");
	snprintf(plan->pmu, sizeof(plan->pmu), "%s", o->cpu_wide ? "cpu-clock" : "task-clock");
	hz = 1000000000ull / period;
	snprintf(plan->pmu_desc, sizeof(plan->pmu_desc), "timer samples with registers, "
		 "%llu Hz%s", (unsigned long long)hz, kernel ? ", kernel too" : "");
	plan->nr = 1;
	return 0;
}

int hm_record_plan_timer(const struct hm_timer_opts *opts, hm_record_plan *plan)
{
	struct hm_timer_opts o;

	if (HM_OPTS_TAKE(&o, opts, hm_timer_opts))
		return -EINVAL;
	return plan_timer(&o, plan);
}
