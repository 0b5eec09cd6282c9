/* record-pmu: choosing and encoding the memory-sampling events of this CPU.
 *
 * Everything here is pure (reads libpfm4 tables and sysfs, opens no event),
 * so `hitmap record --dry-run` under LIBPFM_FORCE_PMU shows the attrs hitmap
 * would open on a Haswell, Skylake-X, Ice Lake or Sapphire Rapids. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/perf_event.h>
#include "hitmap/record.h"
#include "record/pfm-lib.h"
#include "base/diag.h"
#include "base/opts.h"

#define SYSFS_PMUS "/sys/bus/event_source/devices"

/* What `perf c2c record` samples (-W -d --phys-data --sample-cpu) plus ID,
 * which tells the events apart, and PERIOD for frequency mode. */
#define MEM_SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | \
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR)

/* Models whose kernel driver refuses a load-latency event with DATA_SRC unless
 * mem-loads-aux leads its group (ENODATA), and which report the latency in
 * WEIGHT_STRUCT: Sapphire Rapids and its successors, the hybrid P-cores. */
static const char *const aux_models[] = {
	"spr", "emr", "gnr", "adl_glc", "mtl_rwc", "lnl_lnc", NULL,
};

/* mem-loads-aux: event 0x03, umask 0x82 (the kernel's sysfs alias). */
#define MEM_LOADS_AUX_CONFIG 0x8203

/* Load and store event names, newest first; the first that the model's
 * libpfm4 table knows is used. */
static const char *const load_events[] = {
	"MEM_TRANS_RETIRED:LOAD_LATENCY",
	"MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD",	/* Nehalem, Westmere */
	NULL,
};
static const char *const store_events[] = {
	"MEM_INST_RETIRED:ALL_STORES",		/* Skylake and later */
	"MEM_UOPS_RETIRED:ALL_STORES",		/* Haswell, Broadwell */
	"MEM_TRANS_RETIRED:PRECISE_STORE",	/* Sandy Bridge, Ivy Bridge */
	NULL,
};

static int in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return 1;
	return 0;
}

static int sysfs_has(const char *sysfs, const char *rel)
{
	char path[512];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/%s", sysfs ? sysfs : SYSFS_PMUS, rel);
	return stat(path, &sb) == 0;
}

static int sysfs_u32(const char *sysfs, const char *rel, uint32_t *out)
{
	char path[512];
	FILE *f;
	unsigned v;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", sysfs ? sysfs : SYSFS_PMUS, rel);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	ok = fscanf(f, "%u", &v) == 1;
	fclose(f);
	if (!ok)
		return -EBADMSG;
	*out = v;
	return 0;
}

/* libpfm4, opened and initialised by pfm_ready(): the functions below
 * call it only after that succeeded. */
static const struct hmi_pfm_lib *pfm;

static int pfm_ready(void)
{
	static const char *why = "cannot be opened";
	static int done, rc;

	if (!done) {
		if ((pfm = hmi_pfm_open(&why)))
			rc = pfm->initialize();
		done = 1;
	}
	if (!pfm)
		return hm_fail(ENODEV, "libpfm4: %s", why);
	return rc == PFM_SUCCESS ? 0 : hm_fail(ENODEV, "libpfm4: %s", pfm->strerror(rc));
}

/* The core PMU libpfm4 sees on this host (or the forced one). */
static int core_pmu(pfm_pmu_info_t *out)
{
	pfm_pmu_t p;

	pfm_for_all_pmus(p) {
		pfm_pmu_info_t in;

		memset(&in, 0, sizeof(in));
		in.size = sizeof(in);
		if (pfm->get_pmu_info(p, &in) != PFM_SUCCESS)
			continue;
		if (in.is_present && in.type == PFM_PMU_TYPE_CORE) {
			*out = in;
			return 0;
		}
	}
	return -ENODEV;
}

static void common_attr(struct perf_event_attr *a, const struct hm_pmu_opts *o)
{
	a->size = sizeof(*a);
	a->sample_type = MEM_SAMPLE_TYPE;
	/* The kernel gives physical addresses only where it would sample the
	 * kernel (perf_event_paranoid <= 1). */
	if (o->user_only)
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_PHYS_ADDR;
	a->sample_id_all = 1;
	a->disabled = 1;
	if (o->period) {
		a->sample_period = o->period;
		a->freq = 0;
	} else {
		a->sample_freq = o->freq ? o->freq : 4000;
		a->freq = 1;
	}
}

/* Encode one libpfm4 event string into ev. */
static int encode(const char *str, int plm, hm_record_event *ev)
{
	pfm_perf_encode_arg_t arg;
	char *fstr = NULL;
	int rc;

	memset(ev, 0, sizeof(*ev));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &ev->attr;
	arg.fstr = &fstr;
	arg.size = sizeof(arg);
	rc = pfm->get_os_event_encoding(str, plm, PFM_OS_PERF_EVENT_EXT, &arg);
	if (rc != PFM_SUCCESS)
		return rc;
	snprintf(ev->name, sizeof(ev->name), "%s", str);
	free(fstr);
	ev->leader = -1;
	return PFM_SUCCESS;
}

/* The first of names[] this model knows, with the suffix appended. */
static int encode_first(const char *const *names, const char *suffix, int plm,
			hm_record_event *ev)
{
	char buf[160];

	for (; *names; names++) {
		snprintf(buf, sizeof(buf), "%s%s", *names, suffix);
		if (encode(buf, plm, ev) == PFM_SUCCESS)
			return 0;
	}
	return -ENOENT;
}

static void track(hm_record_event *ev)
{
	ev->attr.mmap = 1;
	ev->attr.mmap2 = 1;
	ev->attr.mmap_data = 1;
	ev->attr.comm = 1;
	ev->attr.comm_exec = 1;
	ev->attr.task = 1;
}

static int plan_user_events(const struct hm_pmu_opts *o, int plm, hm_record_plan *plan)
{
	const char *const *e;

	for (e = o->events; *e; e++) {
		hm_record_event *ev = &plan->ev[plan->nr];
		int rc;

		if (plan->nr == HM_RECORD_MAX_EVENTS)
			return hm_fail(E2BIG, "record: too many events (at most %d)",
				       HM_RECORD_MAX_EVENTS);
		rc = encode(*e, plm, ev);
		if (rc != PFM_SUCCESS)
			return hm_fail(EINVAL, "%s: %s (libpfm4)", *e, pfm->strerror(rc));
		common_attr(&ev->attr, o);
		plan->nr++;
	}
	return 0;
}

static int plan_intel(const struct hm_pmu_opts *o, const pfm_pmu_info_t *pmu,
		      hm_record_plan *plan)
{
	int plm = o->user_only ? PFM_PLM3 : PFM_PLM0 | PFM_PLM3;
	char suffix[64];
	hm_record_event loads, stores;
	uint64_t weight;
	int rc;

	snprintf(plan->pmu, sizeof(plan->pmu), "%s", pmu->name);
	snprintf(plan->pmu_desc, sizeof(plan->pmu_desc), "%s", pmu->desc ? pmu->desc : pmu->name);
	plan->aux_group = in_list(aux_models, pmu->name) ||
			  sysfs_has(o->sysfs, "cpu/events/mem-loads-aux");

	snprintf(suffix, sizeof(suffix), ":ldlat=%u:precise=2", o->ldlat ? o->ldlat : 30);
	rc = encode_first(load_events, suffix, plm, &loads);
	if (!rc)
		rc = encode_first(store_events, ":precise=2", plm, &stores);
	if (rc)
		return hm_fail(ENODEV, "%s: libpfm4 knows no load-latency/store sampling event "
			       "for this model; name the events to record", pmu->name);
	common_attr(&loads.attr, o);
	common_attr(&stores.attr, o);
	/* The aux models report latency in WEIGHT_STRUCT (perf does the same). */
	weight = plan->aux_group ? PERF_SAMPLE_WEIGHT_STRUCT : PERF_SAMPLE_WEIGHT;
	loads.attr.sample_type |= weight;
	stores.attr.sample_type |= weight;
	if (plan->aux_group) {
		hm_record_event *aux = &plan->ev[plan->nr++];

		/* Same PMU type, sampling settings and precision as the loads. */
		*aux = loads;
		aux->attr.config = MEM_LOADS_AUX_CONFIG;
		aux->attr.config1 = 0;
		snprintf(aux->name, sizeof(aux->name), "mem-loads-aux");
		loads.leader = 0;
	}
	plan->ev[plan->nr++] = loads;
	plan->ev[plan->nr++] = stores;
	return 0;
}

/* AMD: IBS op sampling through the ibs_op PMU's dynamic type.  libpfm4 4.13
 * has no IBS tables.  The kernel refuses exclude bits on IBS, takes periods in
 * multiples of 16, and (6.1) opens it only per CPU. */
static int plan_ibs(const struct hm_pmu_opts *o, hm_record_plan *plan)
{
	hm_record_event *ev = &plan->ev[0];
	uint32_t type = 0;
	int rc;

	rc = sysfs_u32(o->sysfs, "ibs_op/type", &type);
	if (rc)
		return hm_fail(-rc, "ibs_op: cannot read the PMU type from sysfs");
	snprintf(plan->pmu, sizeof(plan->pmu), "ibs_op");
	snprintf(plan->pmu_desc, sizeof(plan->pmu_desc), "AMD IBS op sampling");
	plan->cpu_wide_only = 1;
	memset(ev, 0, sizeof(*ev));
	ev->leader = -1;
	snprintf(ev->name, sizeof(ev->name), "ibs_op//");
	ev->attr.type = type;
	common_attr(&ev->attr, o);
	ev->attr.sample_type |= PERF_SAMPLE_WEIGHT;
	if (o->period && o->period % 16) {
		ev->attr.sample_period = (o->period + 15) & ~(uint64_t)15;
		hm_diag(HM_DIAG_NOTE, "ibs_op: period rounded up to %llu (a multiple of 16)",
			(unsigned long long)ev->attr.sample_period);
	}
	plan->nr = 1;
	return 0;
}

static int no_pmu(const char *sysfs)
{
	return hm_fail(ENODEV, "no memory-sampling PMU on this machine (no cpu/ibs_op PMU in "
		       "%s); hardware watchpoints need none", sysfs ? sysfs : SYSFS_PMUS);
}

static int plan_pmu(const struct hm_pmu_opts *o, hm_record_plan *plan)
{
	const char *forced = getenv("LIBPFM_FORCE_PMU");
	pfm_pmu_info_t pmu;
	int rc;

	memset(plan, 0, sizeof(*plan));
	plan->source = HM_SOURCE_PMU;
	if (o->events) {
		/* Events given by name: whatever libpfm4 encodes (software events
		 * too), as given; no group is built around them. */
		rc = pfm_ready();
		if (!rc) {
			snprintf(plan->pmu, sizeof(plan->pmu), "libpfm4");
			snprintf(plan->pmu_desc, sizeof(plan->pmu_desc), "events given by name");
			rc = plan_user_events(o, o->user_only ? PFM_PLM3 : PFM_PLM0 | PFM_PLM3,
					      plan);
		}
	} else if (!(forced && *forced) && sysfs_has(o->sysfs, "ibs_op/type")) {
		rc = plan_ibs(o, plan);
	} else {
		rc = pfm_ready();
		if (rc)
			return rc;
		if (core_pmu(&pmu))
			return no_pmu(o->sysfs);
		/* libpfm4 recognises the CPU model even in a VM without a PMU. */
		if (!(forced && *forced) && !sysfs_has(o->sysfs, "cpu") &&
		    !sysfs_has(o->sysfs, "cpu_core"))
			return no_pmu(o->sysfs);
		rc = plan_intel(o, &pmu, plan);
	}
	if (rc)
		return rc;
	/* One event carries the side-band records perf needs to map addresses. */
	track(&plan->ev[0]);
	return 0;
}

int hm_record_plan_pmu(const struct hm_pmu_opts *opts, hm_record_plan *plan)
{
	struct hm_pmu_opts o;

	if (HM_OPTS_TAKE(&o, opts, hm_pmu_opts))
		return -EINVAL;
	return plan_pmu(&o, plan);
}

int hm_record_pmu_present(const hm_record_plan *plan, const char *sysfs)
{
	if (plan->source == HM_SOURCE_WATCH)
		return sysfs_has(sysfs, "breakpoint");
	if (!strcmp(plan->pmu, "ibs_op"))
		return sysfs_has(sysfs, "ibs_op");
	if (!strcmp(plan->pmu, "libpfm4"))
		return 1;	/* -e events: the kernel will say */
	return sysfs_has(sysfs, "cpu") || sysfs_has(sysfs, "cpu_core");
}

int hm_record_describe(const hm_record_plan *plan, size_t i, char *buf, size_t len)
{
	const hm_record_event *ev = &plan->ev[i];
	const struct perf_event_attr *a = &ev->attr;
	char leader[16] = "-";
	int n;

	if (ev->leader >= 0)
		snprintf(leader, sizeof(leader), "%d", ev->leader);
	if (a->type == PERF_TYPE_BREAKPOINT)
		return snprintf(buf, len, "%zu %s: type=%u bp_addr=%#llx bp_len=%llu bp_type=%u "
				"sample_type=%#llx period=%llu track=%u", i, ev->name, a->type,
				(unsigned long long)a->bp_addr, (unsigned long long)a->bp_len,
				a->bp_type, (unsigned long long)a->sample_type,
				(unsigned long long)a->sample_period, a->mmap2);
	n = snprintf(buf, len, "%zu %s: type=%u config=%#llx config1=%#llx precise_ip=%u "
		     "sample_type=%#llx %s=%llu leader=%s exclude_kernel=%u track=%u",
		     i, ev->name, a->type, (unsigned long long)a->config,
		     (unsigned long long)a->config1, a->precise_ip,
		     (unsigned long long)a->sample_type, a->freq ? "freq" : "period",
		     (unsigned long long)a->sample_period, leader, a->exclude_kernel, a->mmap2);
	if (n >= 0 && (size_t)n < len && (a->sample_regs_user || a->sample_regs_intr))
		n += snprintf(buf + n, len - (size_t)n, " regs_user=%#llx regs_intr=%#llx",
			      (unsigned long long)a->sample_regs_user,
			      (unsigned long long)a->sample_regs_intr);
	return n;
}
