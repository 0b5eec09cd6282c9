/* The allocator uprobes of record-alloc.c, registered in tracefs
 * (uprobe_events) for the session and opened as tracepoint events.
 *
 * Why not the uprobe PMU that the plan describes them with: allocations of
 * threads created after the start must be seen, so the events are inherited
 * (per task, one event per CPU so that each CPU's ring can be mapped, as
 * perf record does).  An inherited event is initialised again for each new
 * thread, and the uprobe PMU's init reads the probed file's path from
 * attr.config1 — a pointer into hitmap's memory — with strndup_user() in the
 * context of the cloning thread, where it means nothing: clone() fails with
 * EFAULT.  A tracefs probe is named by its tracepoint id instead, which
 * inherits like any tracepoint (perf probe + perf record -e probe_libc:malloc
 * work the same way).  Opening the PMU events CPU-wide (pid -1) and keeping
 * the target's samples would also see new threads, but would plant the
 * breakpoints in every process on the machine that maps this libc.
 *
 * The probes live in a group of this recorder's own (hitmap_alloc_PID), so
 * concurrent recordings never touch each other's; they are removed when the
 * session ends, and groups left by a recorder that was killed (its pid gone)
 * are removed by the next one.  uprobe_events is only ever appended to:
 * opening it with O_TRUNC would delete every probe on the machine. */
#include "config.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "record/record-int.h"

static const char *const mounts[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

static int write_def(const char *dir, const char *line)
{
	char path[256];
	size_t len = strlen(line);
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), "%s/uprobe_events", dir);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, line, len);
	err = n < 0 ? errno : 0;
	close(fd);
	return n == (ssize_t)len ? 0 : -(err ? err : EIO);
}

/* Remove one probe; a perf event released a moment ago may still hold it
 * (EBUSY) until the kernel has dropped the last reference. */
static void remove_def(const char *dir, const char *group, const char *event)
{
	struct timespec ms = { 0, 10 * 1000 * 1000 };
	char line[128];
	int i;

	snprintf(line, sizeof(line), "-:%s/%s\n", group, event);
	for (i = 0; i < 50 && write_def(dir, line) == -EBUSY; i++)
		nanosleep(&ms, NULL);
}

static int read_id(const char *dir, const char *group, const char *event, uint64_t *id)
{
	char path[512];
	unsigned long long v;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, group, event);
	if (!(f = fopen(path, "r")))
		return -errno;
	ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	*id = v;
	return ok ? 0 : -EINVAL;
}

/* Groups of recorders that are gone: their probes would stay forever. */
static void remove_stale(const char *dir)
{
	char path[512];
	struct dirent *d, *e;
	DIR *top, *grp;

	snprintf(path, sizeof(path), "%s/events", dir);
	if (!(top = opendir(path)))
		return;
	while ((d = readdir(top))) {
		const char *p = d->d_name + strlen(HM_ALLOC_GROUP "_");
		char *end;
		long pid;

		if (strncmp(d->d_name, HM_ALLOC_GROUP "_", strlen(HM_ALLOC_GROUP "_")) ||
		    !isdigit((unsigned char)*p))
			continue;
		pid = strtol(p, &end, 10);
		if (*end || pid <= 0 || pid == (long)getpid() ||
		    !(kill((pid_t)pid, 0) && errno == ESRCH))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", dir, d->d_name);
		if (!(grp = opendir(path)))
			continue;
		while ((e = readdir(grp)))
			if (e->d_type == DT_DIR && e->d_name[0] != '.')
				remove_def(dir, d->d_name, e->d_name);
		closedir(grp);
	}
	closedir(top);
}

int hm_tracefs_probes_add(struct hm_tracefs_probes *tp, const hm_record_plan *plan,
			  const char *path)
{
	const char *dir = NULL;
	char test[256], line[4096 + 256];
	size_t i, k;
	int rc = 0;

	memset(tp, 0, sizeof(*tp));
	for (k = 0; k < sizeof(mounts) / sizeof(mounts[0]) && !dir; k++) {
		snprintf(test, sizeof(test), "%s/uprobe_events", mounts[k]);
		if (access(test, W_OK) == 0)
			dir = mounts[k];
	}
	if (!dir)
		return -ENOENT;
	/* The definition is split at white space; such a path cannot be named. */
	for (i = 0; path[i]; i++)
		if (isspace((unsigned char)path[i]))
			return -EINVAL;
	snprintf(tp->dir, sizeof(tp->dir), "%s", dir);
	snprintf(tp->group, sizeof(tp->group), "%s_%ld", HM_ALLOC_GROUP, (long)getpid());
	remove_stale(dir);
	for (i = 0; !rc && i < plan->nr; i++) {
		const hm_record_event *ev = &plan->ev[i];
		const char *event = ev->name + strlen(HM_ALLOC_GROUP ":");

		if (strncmp(ev->name, HM_ALLOC_GROUP ":", strlen(HM_ALLOC_GROUP ":")))
			continue;
		if (strlen(event) >= sizeof(tp->event[0]))
			return hm_tracefs_probes_remove(tp), -ENAMETOOLONG;
		/* The plan's attr: config != 0 is the return probe, config2 the offset. */
		snprintf(line, sizeof(line), "%c:%s/%s %s:0x%llx\n", ev->attr.config ? 'r' : 'p',
			 tp->group, event, path, (unsigned long long)ev->attr.config2);
		rc = write_def(dir, line);
		if (rc)
			break;
		snprintf(tp->event[tp->nr++], sizeof(tp->event[0]), "%s", event);
		rc = read_id(dir, tp->group, event, &tp->id[i]);
	}
	if (rc)
		hm_tracefs_probes_remove(tp);
	return rc;
}

void hm_tracefs_probes_remove(struct hm_tracefs_probes *tp)
{
	int i;

	for (i = 0; i < tp->nr; i++)
		remove_def(tp->dir, tp->group, tp->event[i]);
	tp->nr = 0;
	memset(tp->id, 0, sizeof(tp->id));
}
