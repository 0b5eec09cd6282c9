/* Kernel allocation tracking: the kmem tracepoints (kmem_cache_alloc with
 * the cache's name, kmalloc, kmem_cache_free, kfree) opened through
 * perf_event_open as PERF_TYPE_TRACEPOINT events (config = the event's id
 * in tracefs), sampling their raw records, and the TRACING_DATA feature
 * that tells perf script (and report) how those records are laid out:
 * tracefs's header_page and header_event and the four events' format
 * files, in the layout of perf's tracing_data_header()
 * (tools/perf/util/trace-event-info.c). */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hitmap/record.h"
#include "base/diag.h"
#include "base/util.h"
#include "perf/perfdata-int.h"
#include "record-int.h"

static const char *const kmem_events[] = {
	"kmem_cache_alloc", "kmalloc", "kmem_cache_free", "kfree",
};
#define NR_KMEM (sizeof(kmem_events) / sizeof(kmem_events[0]))

static const char *tracefs_dir(const char *tracefs)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[512];
	size_t i;

	if (tracefs)
		return tracefs;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/events/kmem", dirs[i]);
		if (access(path, R_OK) == 0)
			return dirs[i];
	}
	return dirs[0];
}

/* The whole of a tracefs file (whose stat size means nothing). */
static int slurp(const char *path, char **out, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t k;

	if (fd < 0 || !buf) {
		int err = fd < 0 ? errno : ENOMEM;

		free(buf);
		if (fd >= 0)
			close(fd);
		return -err;
	}
	for (;;) {
		if (n == cap) {
			char *b = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;

			if (!b) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = b;
			cap *= 2;
		}
		k = read(fd, buf + n, cap - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	if (k < 0) {
		int err = errno;

		free(buf);
		return -err;
	}
	*out = buf;
	*len = n;
	return 0;
}

static int read_id(const char *dir, const char *ev, uint64_t *id)
{
	char path[512], *buf, *end;
	size_t n;
	int rc;

	snprintf(path, sizeof(path), "%s/events/kmem/%s/id", dir, ev);
	if ((rc = slurp(path, &buf, &n)))
		return rc;
	buf[n ? n - 1 : 0] = 0;
	*id = strtoull(buf, &end, 10);
	rc = end == buf ? -EINVAL : 0;
	free(buf);
	return rc;
}

int hm_record_plan_kmem(const char *tracefs, hm_record_plan *plan)
{
	const char *dir = tracefs_dir(tracefs);
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
		      PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	size_t i;

	if (plan->nr + NR_KMEM > HM_RECORD_MAX_EVENTS)
		return hm_fail(E2BIG, "kmem: %zu more events than the %d a recording holds",
			       plan->nr + NR_KMEM - HM_RECORD_MAX_EVENTS, HM_RECORD_MAX_EVENTS);
	/* The same leading fields as the other events, so that ID sits where
	 * it does in theirs (RAW comes after all of them); not a timer event's
	 * registers, which come after ID: the kernel refuses REGS_* without
	 * their mask, and the tracepoint's raw record holds what report reads. */
	if (plan->nr)
		st = plan->ev[0].attr.sample_type &
		     ~(uint64_t)(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR |
				 PERF_SAMPLE_STACK_USER);
	for (i = 0; i < NR_KMEM; i++) {
		hm_record_event *ev = &plan->ev[plan->nr];
		uint64_t id;
		int rc = read_id(dir, kmem_events[i], &id);

		if (rc)
			return hm_fail(-rc, "kmem: %s/events/kmem/%s/id: %s (no tracefs, or "
				       "this kernel has no such tracepoint)", dir, kmem_events[i],
				       strerror(-rc));
		memset(ev, 0, sizeof(*ev));
		ev->leader = -1;
		ev->attr.size = sizeof(ev->attr);
		ev->attr.type = PERF_TYPE_TRACEPOINT;
		ev->attr.config = id;
		ev->attr.sample_period = 1;
		ev->attr.sample_type = st | PERF_SAMPLE_RAW;
		ev->attr.sample_id_all = 1;
		ev->attr.disabled = 1;
		snprintf(ev->name, sizeof(ev->name), "%s:%s", HM_KMEM_GROUP, kmem_events[i]);
		plan->nr++;
	}
	return 0;
}

struct tbuf {
	unsigned char *p;
	size_t n, cap;
	int err;
};

static void put(struct tbuf *b, const void *p, size_t n)
{
	if (b->err)
		return;
	if (hm_grow((void **)&b->p, &b->cap, b->n + n, 1)) {
		b->err = -ENOMEM;
		return;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void put_u32(struct tbuf *b, uint32_t v)
{
	put(b, &v, 4);
}

static void put_u64(struct tbuf *b, uint64_t v)
{
	put(b, &v, 8);
}

/* A tracefs file as u64 size + bytes (after `tag`, when given). */
static int put_file(struct tbuf *b, const char *tag, size_t taglen, const char *path)
{
	char *buf;
	size_t n;
	int rc = slurp(path, &buf, &n);

	if (rc)
		return hm_fail(-rc, "kmem: %s: %s", path, strerror(-rc));
	if (tag)
		put(b, tag, taglen);
	put_u64(b, n);
	put(b, buf, n);
	free(buf);
	return b->err;
}

int hm_record_kmem_tracing_data(hm_perf_writer *w, const char *tracefs)
{
	static const unsigned char magic[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const char *dir = tracefs_dir(tracefs);
	struct tbuf b = { 0 };
	char path[512];
	unsigned char order[2] = { 0, (unsigned char)sizeof(long) };
	size_t i;
	int rc;

	/* Written in this machine's byte order, which the big-endian flag
	 * names (the raw records are in it too). */
	order[0] = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	put(&b, magic, sizeof(magic));
	put(&b, "0.6", 4);
	put(&b, order, 2);
	put_u32(&b, (uint32_t)sysconf(_SC_PAGESIZE));
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	if ((rc = put_file(&b, "header_page", 12, path)))
		goto out;
	snprintf(path, sizeof(path), "%s/events/header_event", dir);
	if ((rc = put_file(&b, "header_event", 13, path)))
		goto out;
	put_u32(&b, 0);			/* no ftrace formats */
	put_u32(&b, 1);			/* one system */
	put(&b, "kmem", 5);
	put_u32(&b, (uint32_t)NR_KMEM);
	for (i = 0; i < NR_KMEM; i++) {
		snprintf(path, sizeof(path), "%s/events/kmem/%s/format", dir, kmem_events[i]);
		if ((rc = put_file(&b, NULL, 0, path)))
			goto out;
	}
	put_u32(&b, 0);			/* no kallsyms: perf script reads the machine's */
	put_u32(&b, 0);			/* no ftrace_printk formats */
	put_u64(&b, 0);			/* no saved_cmdlines */
	rc = b.err ? b.err : hm_perf_writer_add_feature(w, HM_FEAT_TRACING_DATA, b.p, b.n);
out:
	free(b.p);
	return rc;
}
