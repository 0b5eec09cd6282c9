/* kmem-inject: copies a recording's kmem tracepoint samples (and its
 * COMM, MMAP, FORK and EXIT records) into a new perf.data through
 * libhitmap's reader and writer, adding perf-c2c-like HITM load samples
 * at chosen kernel data addresses and times, each written in time order
 * among the copied samples, or, given ADDR@TIME:CPU=POS, where a sample of
 * time POS would be: before the first copied sample at or after POS, out
 * of time order as perf's per-CPU buffers leave samples.  A file has no
 * FINISHED_ROUND records.  Test-only: on a machine without a
 * memory-sampling PMU it puts memory samples inside the objects a real
 * `hitmap record --kmem` saw allocated.  The copied events keep their
 * attrs, gaining ADDR so that every event has ID at one position, as perf
 * requires; the TRACING_DATA feature is copied as it is. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "hitmap/hitmap.h"
#include "hitmap/perfdata.h"
#include "hitmap/perfwrite.h"

/* load, L3 hit, snoop HITM: perf c2c's local HITM (gen-c2c's lcl-hitm) */
#define LCL_HITM ((uint64_t)PERF_MEM_OP_LOAD | (uint64_t)(PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3) << 5 | \
		  (uint64_t)PERF_MEM_SNOOP_HITM << 19 | (uint64_t)PERF_MEM_LVLNUM_L3 << 33 | \
		  (uint64_t)(PERF_MEM_TLB_L1 | PERF_MEM_TLB_HIT) << 26 | \
		  (uint64_t)PERF_MEM_LOCK_NA << 24)

struct spec {
	uint64_t addr, time;
	uint64_t pos;		/* where in the file: before samples of this time */
	unsigned cpu;
};

static int cmp_time(const void *a, const void *b)
{
	const struct spec *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static void die(const char *m)
{
	fprintf(stderr, "kmem-inject: %s\n", m);
	exit(1);
}

static int put_load(hm_perf_writer *w, uint32_t ev, uint32_t pid, const struct spec *sp)
{
	hm_sample s;

	memset(&s, 0, sizeof(s));
	s.attr = ev;
	s.pid = s.tid = pid;
	s.cpu = sp->cpu;
	s.ip = 0xffffffff81000000ull;
	s.cpumode = PERF_RECORD_MISC_KERNEL;
	s.addr = sp->addr;
	s.time = sp->time;
	s.period = 1;
	s.weight = 150;
	s.data_src = LCL_HITM;
	return hm_perf_writer_sample(w, &s);
}

int main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	struct spec *specs = calloc((size_t)argc, sizeof(*specs));
	size_t nspec = 0, k = 0, i;
	const hm_perf_info *info;
	hm_perf_reader *r;
	hm_perf_writer *w;
	hm_perf_record rec;
	struct perf_event_attr a;
	uint64_t maxid = 0;
	uint32_t pid = 0, load;
	int rc, n;

	if (!specs)
		die("out of memory");
	for (n = 1; n < argc; n++) {
		if (!strcmp(argv[n], "-i") && n + 1 < argc) {
			in = argv[++n];
		} else if (!strcmp(argv[n], "-o") && n + 1 < argc) {
			out = argv[++n];
		} else {
			/* ADDR@TIME[:CPU] */
			char *e;

			specs[nspec].addr = strtoull(argv[n], &e, 0);
			if (*e != '@')
				die("usage: kmem-inject -i IN -o OUT ADDR@TIME[:CPU][=POS]...");
			specs[nspec].time = strtoull(e + 1, &e, 0);
			specs[nspec].cpu = *e == ':' ? (unsigned)strtoul(e + 1, &e, 0) : 0;
			specs[nspec].pos = *e == '=' ? strtoull(e + 1, NULL, 0) : specs[nspec].time;
			nspec++;
		}
	}
	if (!in || !out)
		die("usage: kmem-inject -i IN -o OUT ADDR@TIME[:CPU][=POS]...");
	qsort(specs, nspec, sizeof(*specs), cmp_time);
	hm_set_diag(NULL, NULL);
	if (!(r = hm_perf_reader_open(in)) || !(w = hm_perf_writer_open(out)))
		die("cannot open the files");
	info = hm_perf_reader_info(r);
	for (i = 0; i < info->nr_events; i++) {
		const hm_perf_event *e = &info->events[i];

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = e->type;
		a.config = e->config;
		a.config1 = e->config1;
		a.config2 = e->config2;
		a.sample_type = e->sample_type | PERF_SAMPLE_ADDR;
		a.sample_period = e->sample_period;
		a.freq = e->freq;
		a.read_format = e->read_format;
		a.sample_id_all = e->sample_id_all;
		a.sample_regs_user = e->sample_regs_user;
		if (hm_perf_writer_add_event(w, &a, e->name ? e->name : "?", e->ids, e->nr_ids) < 0)
			die("cannot add an event");
		for (size_t j = 0; j < e->nr_ids; j++)
			if (e->ids[j] > maxid)
				maxid = e->ids[j];
	}
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_RAW;
	a.config = 0x1cd;
	a.config1 = 30;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT |
			PERF_SAMPLE_DATA_SRC;
	a.sample_id_all = info->nr_events ? info->events[0].sample_id_all : 1;
	a.precise_ip = 2;
	maxid++;
	rc = hm_perf_writer_add_event(w, &a, "cpu/mem-loads,ldlat=30/P", &maxid, 1);
	if (rc < 0)
		die("cannot add the load event");
	load = (uint32_t)rc;
	while ((rc = hm_perf_reader_next(r, &rec)) > 0) {
		switch (rec.kind) {
		case HM_PERF_SAMPLE:
			if (!pid)
				pid = rec.u.sample.pid;
			while (k < nspec && specs[k].pos <= rec.u.sample.time)
				if (put_load(w, load, pid, &specs[k++]))
					die("cannot write a sample");
			rc = hm_perf_writer_sample(w, &rec.u.sample);
			break;
		case HM_PERF_COMM:
			rc = hm_perf_writer_comm(w, rec.u.comm.pid, rec.u.comm.tid, rec.u.comm.comm);
			break;
		case HM_PERF_MMAP:
			rc = hm_perf_writer_mmap2(w, &rec.u.mmap);
			break;
		case HM_PERF_FORK:
		case HM_PERF_EXIT:
			rc = hm_perf_writer_task(w, rec.kind == HM_PERF_EXIT, &rec.u.task);
			break;
		default:
			rc = 0;
		}
		if (rc)
			die("cannot copy a record");
	}
	if (rc < 0)
		die("cannot read the input");
	while (k < nspec)
		if (put_load(w, load, pid, &specs[k++]))
			die("cannot write a sample");
	if (info->tracing_data &&
	    hm_perf_writer_add_feature(w, 1 /* HEADER_TRACING_DATA */, info->tracing_data,
				       info->tracing_data_size))
		die("cannot add TRACING_DATA");
	if (hm_perf_writer_close(w))
		die("cannot write the output");
	hm_perf_reader_close(r);
	free(specs);
	return 0;
}
