/* record: a recording session — open the plan's events on every CPU, drain
 * their ring buffers until the command ends, write the perf.data. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include "hitmap/record.h"
#include "record/record-int.h"
#include "base/diag.h"
#include "base/util.h"
#include "base/opts.h"
#include "elf/binary-lib.h"
#include "perf/perfwrite-lib.h"

struct idmap {
	uint64_t id;
	int ev;
};

/* A sample of a W/RW breakpoint pair waiting to see whether its twin (the
 * other breakpoint of the same access) follows. */
struct held {
	int valid, ev;
	unsigned round;
	uint32_t tid, cpu;
	uint64_t ip, time;
	size_t len;
	unsigned char buf[256];
};

struct session {
	const struct hm_record_opts *o;
	struct hm_record_stats *st;
	hm_record_plan plan;
	pid_t child;
	int *cpus;
	size_t ncpus;
	pid_t *targets;		/* -1 = every task (CPU-wide) */
	size_t ntargets;
	int *fds;		/* [target][cpu][event] */
	struct hm_ring *rings;	/* one per CPU */
	struct held *held;	/* one per ring */
	size_t nrings;
	struct idmap *ids;
	size_t nids;
	int twin[HM_RECORD_MAX_EVENTS];	/* the other breakpoint on the slot, or -1 */
	hm_perf_writer *w;
	struct hm_order q;
	unsigned round;
	uint64_t first_time, last_time;
	int ring_ix;		/* the ring being drained */
	double stop_at;		/* when the command was asked to end, 0 = not yet */
	int termed;		/* it was sent SIGTERM too */
	char tmp[4096];		/* where the recording goes while an older one is kept */
	char libc[4096];	/* the probed libc (allocation tracking): events point at it */
	struct hm_tracefs_probes tp;	/* the same probes in tracefs, when they could be */
};

static long sys_perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group,
				unsigned long flags)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, group, flags);
}

/* ---- parsing the few fields the recorder needs ---- */

struct fields {
	uint64_t ip, time, id;
	uint32_t tid, cpu;
};

static void parse_sample(uint64_t st, const struct perf_event_header *h, struct fields *f)
{
	const uint64_t *p = (const uint64_t *)(h + 1);
	const uint64_t *end = (const uint64_t *)((const char *)h + h->size);

	memset(f, 0, sizeof(*f));
#define TAKE() (p < end ? *p++ : 0)
	if (st & PERF_SAMPLE_IDENTIFIER)
		f->id = TAKE();
	if (st & PERF_SAMPLE_IP)
		f->ip = TAKE();
	if (st & PERF_SAMPLE_TID)
		f->tid = (uint32_t)(TAKE() >> 32);
	if (st & PERF_SAMPLE_TIME)
		f->time = TAKE();
	if (st & PERF_SAMPLE_ADDR)
		TAKE();
	if (st & PERF_SAMPLE_ID)
		f->id = TAKE();
	if (st & PERF_SAMPLE_STREAM_ID)
		TAKE();
	if (st & PERF_SAMPLE_CPU)
		f->cpu = (uint32_t)TAKE();
#undef TAKE
}

/* Time from the sample_id_all trailer: TID TIME ID STREAM_ID CPU IDENTIFIER. */
static uint64_t trailer_time(uint64_t st, const struct perf_event_header *h)
{
	const uint64_t *end = (const uint64_t *)((const char *)h + h->size);
	size_t after = !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
		       !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER);

	if (!(st & PERF_SAMPLE_TIME) || h->size < sizeof(*h) + 8 * (after + 1))
		return 0;
	return end[-(long)after - 1];
}

static int cmp_id(const void *a, const void *b)
{
	const struct idmap *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* An allocator uprobe of record-alloc.c. */
static int is_alloc(const hm_record_event *ev)
{
	return strncmp(ev->name, HM_ALLOC_GROUP ":", sizeof(HM_ALLOC_GROUP)) == 0;
}

/* Per task, events are inherited by the threads created later.  An
 * allocator probe only when it is opened through tracefs: the uprobe PMU's
 * event cannot be (record-tracefs.c says why), so then only the threads
 * there at the start are probed. */
static int inherits(const struct session *s, size_t e)
{
	return s->targets[0] != -1 && (!is_alloc(&s->plan.ev[e]) || s->tp.id[e]);
}

static int is_kmem(const hm_record_event *ev)
{
	return ev->attr.type == PERF_TYPE_TRACEPOINT &&
	       strncmp(ev->name, HM_KMEM_GROUP ":", sizeof(HM_KMEM_GROUP)) == 0;
}

static int event_of(const struct session *s, uint64_t id)
{
	struct idmap key = { .id = id }, *m;

	m = bsearch(&key, s->ids, s->nids, sizeof(*s->ids), cmp_id);
	return m ? m->ev : -1;
}

/* ---- records to the output, in time order ---- */

static int emit_sample(struct session *s, const void *rec, size_t len, int ev, uint64_t time)
{
	struct hm_record_stats *st = s->st;

	st->samples++;
	if (ev >= 0) {
		st->per_event[ev]++;
		if (is_alloc(&s->plan.ev[ev])) {
			st->alloc_samples++;
		} else if (is_kmem(&s->plan.ev[ev])) {
			st->kmem_samples++;
		} else if (s->plan.source == HM_SOURCE_WATCH) {
			if (s->plan.ev[ev].attr.bp_type == HW_BREAKPOINT_W)
				st->writes++;
			else
				st->reads++;
		}
	}
	if (!s->first_time || time < s->first_time)
		s->first_time = time;
	if (time > s->last_time)
		s->last_time = time;
	return hm_order_add(&s->q, rec, len, time);
}

static int flush_held(struct session *s, struct held *hd)
{
	if (!hd->valid)
		return 0;
	hd->valid = 0;
	return emit_sample(s, hd->buf, hd->len, hd->ev, hd->time);
}

static int on_twin_sample(struct session *s, const struct perf_event_header *h, int ev,
			  const struct fields *f)
{
	struct held *hd = &s->held[s->ring_ix];
	int rc;

	if (hd->valid && s->twin[hd->ev] == ev && hd->tid == f->tid && hd->ip == f->ip &&
	    hd->cpu == f->cpu) {
		/* One write fired both breakpoints: keep the W sample. */
		hd->valid = 0;
		s->st->dropped_twins++;
		if (s->plan.ev[ev].attr.bp_type == HW_BREAKPOINT_W)
			return emit_sample(s, h, h->size, ev, f->time);
		return emit_sample(s, hd->buf, hd->len, hd->ev, hd->time);
	}
	rc = flush_held(s, hd);
	if (rc)
		return rc;
	if (h->size > sizeof(hd->buf))
		return emit_sample(s, h, h->size, ev, f->time);
	memcpy(hd->buf, h, h->size);
	hd->len = h->size;
	hd->ev = ev;
	hd->tid = f->tid;
	hd->cpu = f->cpu;
	hd->ip = f->ip;
	hd->time = f->time;
	hd->round = s->round;
	hd->valid = 1;
	return 0;
}

static int on_record(void *ctx, const struct perf_event_header *h)
{
	struct session *s = ctx;
	uint64_t st = s->plan.ev[0].attr.sample_type;
	struct fields f;
	int ev, rc;

	if (h->type == PERF_RECORD_SAMPLE) {
		parse_sample(st, h, &f);
		ev = event_of(s, f.id);
		if (ev >= 0 && s->twin[ev] >= 0)
			return on_twin_sample(s, h, ev, &f);
		return emit_sample(s, h, h->size, ev, f.time);
	}
	if (h->type == PERF_RECORD_LOST && h->size >= sizeof(*h) + 16) {
		s->st->lost += ((const uint64_t *)(h + 1))[1];
		s->st->lost_records++;
	} else if (h->type == PERF_RECORD_LOST_SAMPLES && h->size >= sizeof(*h) + 8) {
		s->st->lost += ((const uint64_t *)(h + 1))[0];
	}
	rc = flush_held(s, &s->held[s->ring_ix]);
	if (rc)
		return rc;
	return hm_order_add(&s->q, h, h->size, trailer_time(st, h));
}

static int drain_all(struct session *s)
{
	size_t i;
	int rc;

	for (i = 0; i < s->nrings; i++) {
		s->ring_ix = (int)i;
		rc = hm_ring_drain(&s->rings[i], on_record, s);
		if (rc)
			return rc;
	}
	/* A twin comes in the same debug exception; one round late, it is not coming. */
	for (i = 0; i < s->nrings; i++)
		if (s->held[i].valid && s->held[i].round < s->round) {
			rc = flush_held(s, &s->held[i]);
			if (rc)
				return rc;
		}
	s->round++;
	rc = hm_order_flush(&s->q, s->w, 0);
	/* the header covers what is written: a killed recorder leaves a
	 * file that reads up to here */
	return rc ? rc : hmi_perf_writer_sync(s->w);
}

/* ---- opening ---- */

static int open_error(const struct session *s, const hm_record_event *ev, int cpu, int err)
{
	int par = hm_proc_paranoid(), need;
	const char *what;

	if (err == EACCES || err == EPERM) {
		if (ev->attr.type == PERF_TYPE_TRACEPOINT) {
			need = -1;
			what = "a tracepoint's raw data";
		} else if (s->o->cpu_wide || s->plan.cpu_wide_only) {
			need = 0;
			what = "CPU-wide recording";
		} else if (!ev->attr.exclude_kernel) {
			need = 1;
			what = "sampling kernel and user space";
		} else if (ev->attr.sample_type & PERF_SAMPLE_PHYS_ADDR) {
			need = 1;
			what = "sampling physical addresses";
		} else {
			need = 2;
			what = "sampling a process you own";
		}
		return hm_fail(err, "%s: permission denied (kernel.perf_event_paranoid is %d; "
			       "%s needs %d or lower, or CAP_PERFMON: sysctl "
			       "kernel.perf_event_paranoid=%d)", ev->name, par, what, need, need);
	}
	if (err == ENOSPC && ev->attr.type == PERF_TYPE_BREAKPOINT)
		return hm_fail(err, "%s: no free debug register on cpu %d (a debugger or another "
			       "watch holds them?)", ev->name, cpu);
	if (err == ENODATA)
		return hm_fail(err, "%s: the kernel wants the load event grouped behind "
			       "mem-loads-aux", ev->name);
	if (err == EINVAL && s->plan.cpu_wide_only && !s->o->cpu_wide)
		return hm_fail(err, "%s: this kernel opens it only CPU-wide, not for one process", ev->name);
	if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV)
		return hm_fail(err, "%s: not supported by this kernel or CPU", ev->name);
	return hm_fail(err, "%s: perf_event_open on cpu %d: %s", ev->name, cpu, strerror(err));
}

/* Per task, events are still opened once per CPU: the kernel refuses to map
 * the ring buffer of an inherited event that follows its task over all CPUs
 * (cpu == -1). */
static int open_one(struct session *s, size_t t, size_t c, size_t e)
{
	const hm_record_event *ev = &s->plan.ev[e];
	size_t base = (t * s->ncpus + c) * s->plan.nr;
	struct perf_event_attr a = ev->attr;
	int group = ev->leader >= 0 ? s->fds[base + ev->leader] : -1;
	unsigned pages = s->o->mmap_pages ? s->o->mmap_pages : 128;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	long fd;

	if (inherits(s, e))
		a.inherit = 1;
	if (s->tp.id[e]) {
		a.type = PERF_TYPE_TRACEPOINT;
		a.config = s->tp.id[e];
		a.config1 = a.config2 = 0;
	}
	a.watermark = 1;
	a.wakeup_watermark = (uint32_t)(pages * page / 2);
	for (;;) {
		fd = sys_perf_event_open(&a, s->targets[t], s->cpus[c], group, PERF_FLAG_FD_CLOEXEC);
		/* Ask for less precision when the model cannot give it (perf's :P). */
		if (fd < 0 && (errno == EINVAL || errno == EOPNOTSUPP) && a.precise_ip > 0) {
			a.precise_ip--;
			continue;
		}
		break;
	}
	if (fd < 0)
		return open_error(s, ev, s->cpus[c], errno);
	s->fds[base + e] = (int)fd;
	s->plan.ev[e].attr.precise_ip = a.precise_ip;
	return 0;
}

/* All events of one CPU write into that CPU's ring. */
static int attach_ring(struct session *s, size_t c, int fd)
{
	struct hm_ring *r = &s->rings[c];
	unsigned pages = s->o->mmap_pages ? s->o->mmap_pages : 128;
	int rc;

	if (r->base) {
		if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd))
			return hm_fail(errno, "perf_event: cannot share the ring of cpu %d: %s",
				       s->cpus[c], strerror(errno));
		return 0;
	}
	rc = hm_ring_open(r, fd, pages);
	if (rc)
		return hm_fail(-rc, "perf_event: cannot map a %u-page ring buffer on cpu %d: %s "
			       "(raise kernel.perf_event_mlock_kb?)", pages, s->cpus[c],
			       strerror(-rc));
	return 0;
}

static int open_all(struct session *s)
{
	size_t t, c, e, n = s->ntargets * s->ncpus * s->plan.nr, k = 0;
	int rc;

	s->fds = malloc(n * sizeof(*s->fds));
	s->ids = calloc(n, sizeof(*s->ids));
	s->rings = calloc(s->ncpus, sizeof(*s->rings));
	s->held = calloc(s->ncpus, sizeof(*s->held));
	if (!s->fds || !s->ids || !s->rings || !s->held)
		return -ENOMEM;
	s->nrings = s->ncpus;
	for (k = 0; k < n; k++)
		s->fds[k] = -1;
	for (k = 0, t = 0; t < s->ntargets; t++)
		for (c = 0; c < s->ncpus; c++)
			for (e = 0; e < s->plan.nr; e++) {
				int fd;

				rc = open_one(s, t, c, e);
				if (rc)
					return rc;
				fd = s->fds[(t * s->ncpus + c) * s->plan.nr + e];
				rc = attach_ring(s, c, fd);
				if (rc)
					return rc;
				if (ioctl(fd, PERF_EVENT_IOC_ID, &s->ids[k].id))
					return hm_fail(errno, "perf_event: no event id: %s",
						       strerror(errno));
				s->ids[k++].ev = (int)e;
			}
	s->nids = k;
	qsort(s->ids, s->nids, sizeof(*s->ids), cmp_id);
	return 0;
}

static int declare_events(struct session *s)
{
	size_t e, k;
	uint64_t *ids = malloc(s->nids * sizeof(*ids));
	int rc = 0;

	if (!ids)
		return -ENOMEM;
	for (e = 0; e < s->plan.nr && rc >= 0; e++) {
		size_t n = 0;
		struct perf_event_attr a = s->plan.ev[e].attr;

		for (k = 0; k < s->nids; k++)
			if (s->ids[k].ev == (int)e)
				ids[n++] = s->ids[k].id;
		if (inherits(s, e))
			a.inherit = 1;
		rc = hm_perf_writer_add_event(s->w, &a, s->plan.ev[e].name, ids, n);
	}
	free(ids);
	return rc < 0 ? rc : 0;
}

static void set_twins(struct session *s)
{
	size_t i, j;

	for (i = 0; i < HM_RECORD_MAX_EVENTS; i++)
		s->twin[i] = -1;
	if (s->plan.source != HM_SOURCE_WATCH)
		return;
	for (i = 0; i < s->plan.nr; i++)
		for (j = 0; j < s->plan.nr; j++)
			if (i != j && s->plan.ev[i].attr.type == PERF_TYPE_BREAKPOINT &&
			    s->plan.ev[j].attr.type == PERF_TYPE_BREAKPOINT &&
			    s->plan.ev[i].attr.bp_addr == s->plan.ev[j].attr.bp_addr &&
			    s->plan.ev[i].attr.bp_len == s->plan.ev[j].attr.bp_len &&
			    s->plan.ev[i].attr.bp_type != s->plan.ev[j].attr.bp_type)
				s->twin[i] = (int)j;
}

static void ioctl_all(struct session *s, unsigned long req)
{
	size_t k, n = s->ntargets * s->ncpus * s->plan.nr;

	for (k = 0; k < n; k++)
		if (s->fds[k] >= 0)
			ioctl(s->fds[k], req, 0);
}

/* ---- the session ---- */

static int targets(struct session *s)
{
	const struct hm_record_opts *o = s->o;

	if (o->cpu_wide || s->plan.cpu_wide_only) {
		s->targets = malloc(sizeof(*s->targets));
		if (!s->targets)
			return -ENOMEM;
		s->targets[0] = -1;
		s->ntargets = 1;
		return 0;
	}
	if (s->child) {
		s->targets = malloc(sizeof(*s->targets));
		if (!s->targets)
			return -ENOMEM;
		s->targets[0] = s->child;
		s->ntargets = 1;
		return 0;
	}
	return hm_proc_threads(o->pid, &s->targets, &s->ntargets);
}

/* CPU-wide: every process there is, so that their samples resolve. */
static int synthesize_all(struct session *s)
{
	struct dirent *d;
	DIR *dir = opendir("/proc");
	int rc = 0;

	if (!dir)
		return hm_fail(errno, "/proc: %s", strerror(errno));
	while (!rc && (d = readdir(dir))) {
		pid_t pid = (pid_t)atoi(d->d_name);

		if (pid <= 0 || pid == s->child)
			continue;
		/* Processes come and go, and kernel threads have no maps. */
		rc = hm_proc_synthesize(s->w, pid, NULL, NULL, 0);
		if (rc == -ENOENT || rc == -ESRCH || rc == -EACCES)
			rc = 0;
	}
	closedir(dir);
	return rc;
}

static int synthesize(struct session *s)
{
	const unsigned char *bid = NULL;
	const char *bpath = NULL;
	size_t blen = 0;
	pid_t pid = s->child ? s->child : s->o->pid;
	char real[4096];
	int rc;

	if (s->targets[0] == -1) {
		rc = hm_proc_synthesize_kernel(s->w);
		if (!rc)
			rc = synthesize_all(s);
		if (rc)
			return rc;
	}
	if (!pid)
		return 0;
	if (s->o->binary) {
		blen = hmi_binary_build_id_raw(s->o->binary, &bid);
		if (realpath(hmi_binary_path(s->o->binary), real))
			bpath = real;
	}
	rc = hm_proc_synthesize(s->w, pid, bpath, bid, blen);
	if (rc == -ENOENT || rc == -ESRCH)
		return hm_fail(-rc, "process %d exited before recording started", (int)pid);
	return rc;
}

/* An attached process has ended: no such pid, or a zombie its parent has
 * not reaped yet (kill(pid, 0) still succeeds on those). */
static int gone(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	if (kill(pid, 0) && errno == ESRCH)
		return 1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return 1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');	/* the command name may hold anything */
	return p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Asked to stop while the command runs: it gets SIGINT, as from Ctrl-C at
 * a terminal, so that it can end as it would there (unless a terminal's
 * Ctrl-C has reached it already: HM_RECORD_STOP_SEEN), then SIGTERM after
 * HM_STOP_GRACE seconds, and the recording ends after as many again
 * (cleanup() kills it).  Its samples up to its end are kept.
 * Returns 1 when the recording should end now. */
#define HM_STOP_GRACE 1.0
static int stop_child(struct session *s)
{
	double t = now();

	if (!s->stop_at) {
		s->stop_at = t;
		s->st->stopped = 1;
		if (*s->o->stop != HM_RECORD_STOP_SEEN)
			kill(s->child, SIGINT);
	} else if (!s->termed && t - s->stop_at >= HM_STOP_GRACE) {
		s->termed = 1;
		kill(s->child, SIGTERM);
	} else if (t - s->stop_at >= 2 * HM_STOP_GRACE) {
		return 1;
	}
	return 0;
}

static int wait_loop(struct session *s)
{
	struct pollfd *pfd = calloc(s->nrings, sizeof(*pfd));
	size_t i;
	int rc = 0, status;

	if (!pfd)
		return -ENOMEM;
	for (i = 0; i < s->nrings; i++) {
		pfd[i].fd = s->rings[i].fd;
		pfd[i].events = POLLIN;
	}
	for (;;) {
		poll(pfd, s->nrings, 100);
		rc = drain_all(s);
		if (rc)
			break;
		if (s->child) {
			if (waitpid(s->child, &status, WNOHANG) == s->child) {
				s->st->child_status = status;
				s->child = 0;
				break;
			}
			if (s->o->stop && *s->o->stop && stop_child(s))
				break;
		} else if (s->o->stop && *s->o->stop) {
			break;
		} else if (s->o->pid && gone(s->o->pid)) {
			break;
		}
	}
	free(pfd);
	return rc;
}

static int finish(struct session *s)
{
	size_t i;
	int rc;

	ioctl_all(s, PERF_EVENT_IOC_DISABLE);
	rc = drain_all(s);
	for (i = 0; !rc && i < s->nrings; i++)
		rc = flush_held(s, &s->held[i]);
	if (!rc)
		rc = hm_order_flush(&s->q, s->w, 1);
	if (!rc)
		rc = hm_proc_features(s->w, s->o->argv, s->first_time, s->last_time);
	return rc;
}

static void cleanup(struct session *s)
{
	size_t k, n = s->ntargets * s->ncpus * s->plan.nr;

	for (k = 0; s->rings && k < s->nrings; k++)
		hm_ring_close(&s->rings[k]);
	for (k = 0; s->fds && k < n; k++)
		if (s->fds[k] >= 0)
			close(s->fds[k]);
	if (s->child > 0) {
		int st;

		kill(s->child, SIGKILL);
		if (waitpid(s->child, &st, 0) == s->child && s->stop_at)
			s->st->child_status = st;
	}
	/* Last: a probe cannot go while an event, or the child's copy, holds it. */
	hm_tracefs_probes_remove(&s->tp);
	hm_order_free(&s->q);
	free(s->fds);
	free(s->ids);
	free(s->rings);
	free(s->held);
	free(s->cpus);
	free(s->targets);
}

static int prepare(struct session *s)
{
	const struct hm_record_opts *o = s->o;
	uint64_t bias = 0;
	size_t i;
	int rc;

	if (o->argv) {
		rc = hm_proc_launch(o->argv, &s->child);
		if (rc)
			return rc;
	}
	if (o->watches) {
		pid_t pid = s->child ? s->child : o->pid;

		if (!pid)
			return hm_fail(EINVAL, "watch: needs a command to run or a process");
		if (o->binary) {
			rc = hmi_record_load_bias(pid, o->binary, &bias);
			if (rc)
				return rc;
		}
		rc = hm_record_plan_watch(o->watches, o->nr_watches, bias, o->watch_period,
					  &s->plan);
		if (rc)
			return rc;
		s->st->nr_watch_events = (int)s->plan.nr;
		s->st->bias = bias;
		for (i = 0; i < s->plan.nr; i++) {
			s->st->watch_addr[i] = s->plan.ev[i].attr.bp_addr;
			s->st->watch_len[i] = (uint32_t)s->plan.ev[i].attr.bp_len;
			s->st->watch_type[i] = s->plan.ev[i].attr.bp_type;
		}
	} else if (o->plan) {
		s->plan = *o->plan;
	} else if (!o->kmem) {
		return hm_fail(EINVAL, "record: nothing to record");
	}
	/* kmem first: with no other events, the allocator probes take its
	 * sample_type as their base */
	if (o->kmem && (rc = hm_record_plan_kmem(NULL, &s->plan)))
		return rc;
	if (o->alloc) {
		rc = hm_record_plan_alloc(o->alloc_libc, &s->plan, s->libc, sizeof(s->libc),
					  &s->st->alloc_no_store);
		if (rc)
			return rc;
		/* Without tracefs (not mounted, not writable), the PMU's events. */
		s->st->alloc_new_threads = hm_tracefs_probes_add(&s->tp, &s->plan, s->libc) == 0;
	}
	set_twins(s);
	rc = hm_proc_cpus(&s->cpus, &s->ncpus);
	if (!rc)
		rc = targets(s);
	if (!rc)
		rc = open_all(s);
	return rc;
}

/* A recording never destroys the one it replaces before it is complete:
 * over an existing regular file it is written beside it, as OUTPUT.partial,
 * and renamed at the end, the old file kept as OUTPUT.old (perf record's
 * name for it). */
static const char *output_path(struct session *s)
{
	struct stat sb;

	if (s->tmp[0])
		return s->tmp;
	if (stat(s->o->output, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    (size_t)snprintf(s->tmp, sizeof(s->tmp), "%s.partial", s->o->output) < sizeof(s->tmp))
		return s->tmp;
	s->tmp[0] = 0;
	return s->o->output;
}

static int replace_output(struct session *s)
{
	char old[4096 + 8];

	if (!s->tmp[0])
		return 0;
	snprintf(old, sizeof(old), "%s.old", s->o->output);
	if (rename(s->o->output, old) && errno != ENOENT)
		return hm_fail(errno, "%s: cannot keep it as %s: %s", s->o->output, old,
			       strerror(errno));
	if (rename(s->tmp, s->o->output))
		return hm_fail(errno, "%s: cannot rename it to %s: %s", s->tmp, s->o->output,
			       strerror(errno));
	return 0;
}

static int record_run(const struct hm_record_opts *o, struct hm_record_stats *st)
{
	struct session s;
	struct stat sb;
	double t0 = now();
	int rc;

	memset(&s, 0, sizeof(s));
	memset(st, 0, sizeof(*st));
	st->child_status = -1;
	s.o = o;
	s.st = st;
	rc = prepare(&s);
	if (!rc) {
		s.w = hm_perf_writer_open(output_path(&s));
		if (!s.w)	/* the writer said why, but for memory */
			rc = errno == ENOMEM ? hm_fail(ENOMEM, "%s: out of memory",
						       output_path(&s)) : -errno;
	}
	if (!rc)
		rc = declare_events(&s);
	if (!rc && o->kmem)
		rc = hm_record_kmem_tracing_data(s.w, NULL);
	if (!rc)
		rc = synthesize(&s);
	/* a readable file from the start, however the recorder ends */
	if (!rc)
		rc = hmi_perf_writer_sync(s.w);
	if (!rc) {
		ioctl_all(&s, PERF_EVENT_IOC_ENABLE);
		if (s.child)
			rc = hm_proc_release(s.child);
	}
	if (!rc && o->started)
		o->started(o->started_ctx);
	st->nr_ring_buffers = s.nrings;
	if (!rc)
		rc = wait_loop(&s);
	if (!rc)
		rc = finish(&s);
	if (s.w) {
		if (rc) {
			hm_perf_writer_abort(s.w);
		} else {
			rc = hm_perf_writer_close(s.w);
			if (rc)
				hm_fail(-rc, "%s: cannot write: %s", output_path(&s),
					strerror(-rc));
			else
				rc = replace_output(&s);
		}
	}
	cleanup(&s);
	st->seconds = now() - t0;
	if (!rc && stat(o->output, &sb) == 0)
		st->bytes = (uint64_t)sb.st_size;
	return rc;
}

int hm_record_run(const struct hm_record_opts *opts, struct hm_record_stats *st)
{
	struct hm_record_opts o;

	if (HM_OPTS_TAKE(&o, opts, hm_record_opts))
		return -EINVAL;
	/* The one option without a default: where the samples go. */
	if (!o.output)
		return hm_fail(EINVAL, "record: no output file given");
	return record_run(&o, st);
}
