/* gen-watch: writes a perf.data file of hardware-watchpoint samples, record by
 * record in the order given, through libhitmap's writer.  Test-only: the
 * report tests lay out per-CPU chunks the way perf record's ring buffers
 * reach the file (not in time order), prove the file with perf script and
 * compare hitmap's counts with the time-ordered oracle's.
 *
 * Reads a script from standard input, one record per line:
 *   event ADDR w|rw               a breakpoint event (before any record);
 *                                 its name is mem:ADDR:w or mem:ADDR:rw
 *   event pf                      page-faults (software), with ADDR in its
 *                                 samples, as perf record -d -e page-faults
 *   comm PID NAME
 *   mmap PID START LEN PGOFF PATH
 *   sample EVENT PID TID CPU TIME IP [ADDR]   EVENT: index, from 0
 *   round                         a FINISHED_ROUND record
 * sample_type is IP|TID|TIME|ID|CPU|PERIOD with sample_id_all, as perf
 * record --sample-cpu -e mem:... writes it. */
#include "config.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include "hitmap/hitmap.h"
#include "hitmap/perfwrite.h"

#define FINISHED_ROUND 68

static void diag(void *ctx, enum hm_diag_level level, const char *msg)
{
	(void)ctx;
	(void)level;
	fprintf(stderr, "gen-watch: %s\n", msg);
}

static int add_event(hm_perf_writer *w, uint64_t addr, const char *kind, int first)
{
	struct perf_event_attr a;
	static uint64_t next_id = 100;	/* sample ids: one per event */
	uint64_t id = next_id++;
	char name[64];

	memset(&a, 0, sizeof(a));
	a.type = strcmp(kind, "pf") ? PERF_TYPE_BREAKPOINT : PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	a.read_format = PERF_FORMAT_ID;
	a.sample_id_all = 1;
	a.disabled = 1;
	a.exclude_guest = 1;
	if (first)
		a.mmap = a.comm = a.task = a.mmap2 = a.comm_exec = 1;
	if (a.type == PERF_TYPE_SOFTWARE) {
		a.config = PERF_COUNT_SW_PAGE_FAULTS;
		a.sample_type |= PERF_SAMPLE_ADDR;
		snprintf(name, sizeof(name), "page-faults");
		return hm_perf_writer_add_event(w, &a, name, &id, 1) < 0 ? -1 : 0;
	}
	a.bp_type = strcmp(kind, "w") ? HW_BREAKPOINT_RW : HW_BREAKPOINT_W;
	a.bp_addr = addr;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	snprintf(name, sizeof(name), "mem:0x%" PRIx64 ":%s", addr, kind);
	return hm_perf_writer_add_event(w, &a, name, &id, 1) < 0 ? -1 : 0;
}

static int line(hm_perf_writer *w, char *buf, int *nev, uint32_t *maxcpu)
{
	char kind[16], path[4096];
	uint64_t x, y, z, addr = 0;
	unsigned ev, pid, tid, cpu;
	hm_sample s;
	hm_perf_mmap m;

	if (sscanf(buf, "event %" SCNx64 " %15s", &x, kind) == 2)
		return add_event(w, x, kind, (*nev)++ == 0);
	if (!strncmp(buf, "event pf", 8))
		return add_event(w, 0, "pf", (*nev)++ == 0);
	if (sscanf(buf, "comm %u %4095s", &pid, path) == 2)
		return hm_perf_writer_comm(w, pid, pid, path);
	if (sscanf(buf, "mmap %u %" SCNx64 " %" SCNx64 " %" SCNx64 " %4095s", &pid, &x, &y, &z,
		   path) == 5) {
		memset(&m, 0, sizeof(m));
		m.pid = m.tid = pid;
		m.start = x;
		m.len = y;
		m.pgoff = z;
		m.prot = PROT_READ | PROT_WRITE | PROT_EXEC;
		m.flags = MAP_PRIVATE;
		m.filename = path;
		return hm_perf_writer_mmap2(w, &m);
	}
	if (sscanf(buf, "sample %u %u %u %u %" SCNu64 " %" SCNx64 " %" SCNx64, &ev, &pid,
		   &tid, &cpu, &x, &y, &addr) >= 6) {
		memset(&s, 0, sizeof(s));
		s.attr = ev;
		s.pid = pid;
		s.tid = tid;
		s.cpu = cpu;
		s.time = x;
		s.ip = y;
		s.addr = addr;
		s.period = 1;
		s.cpumode = PERF_RECORD_MISC_USER;
		if (cpu > *maxcpu)
			*maxcpu = cpu;
		return hm_perf_writer_sample(w, &s);
	}
	if (!strncmp(buf, "round", 5)) {
		struct perf_event_header h = { .type = FINISHED_ROUND, .size = sizeof(h) };

		return hm_perf_writer_raw(w, &h, sizeof(h));
	}
	if (buf[0] == '\n' || buf[0] == '#')
		return 0;
	fprintf(stderr, "gen-watch: bad line: %s", buf);
	return -1;
}

int main(int argc, char **argv)
{
	struct hm_perf_features f;
	hm_perf_writer *w;
	char buf[8192];
	uint32_t maxcpu = 1;
	int nev = 0, ret;

	if (argc != 3 || strcmp(argv[1], "-o")) {
		fprintf(stderr, "usage: gen-watch -o FILE <SCRIPT\n");
		return 2;
	}
	hm_set_diag(diag, NULL);
	w = hm_perf_writer_open(argv[2]);
	if (!w)
		return 3;
	while (fgets(buf, sizeof(buf), stdin))
		if (line(w, buf, &nev, &maxcpu)) {
			hm_perf_writer_abort(w);
			return 3;
		}
	memset(&f, 0, sizeof(f));
	f.hostname = "gen-watch";
	f.os_release = "6.1.0";
	f.version = "6.1.0";
	f.arch = "x86_64";
	f.nr_cpus_avail = f.nr_cpus_online = maxcpu + 1;
	f.cmdline = "gen-watch";
	ret = hm_perf_writer_features(w, &f);
	if (hm_perf_writer_close(w) || ret)
		return 3;
	return 0;
}
