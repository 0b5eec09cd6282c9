/* record-proc: the recorded process and the machine — starting the command
 * stopped at exec, describing its mappings for the perf.data, CPUs, and the
 * header features. */
#include "config.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hitmap/hitmap.h"
#include "record/record-int.h"
#include "base/diag.h"
#include "base/util.h"

/* Why ptrace: in a PIE the watched addresses are known only once the image is
 * mapped, i.e. after exec, and breakpoints must be in place before the first
 * instruction runs.  PTRACE_TRACEME makes the kernel stop the child with
 * SIGTRAP right after a successful exec; the events are opened on it then, and
 * PTRACE_DETACH lets it run.  ASLR stays on: the program runs as it would. */
int hm_proc_launch(char *const *argv, pid_t *pid)
{
	int pfd[2], err = 0, st;
	ssize_t n;
	pid_t p;

	if (pipe2(pfd, O_CLOEXEC))
		return hm_fail(errno, "pipe: %s", strerror(errno));
	p = fork();
	if (p < 0) {
		err = errno;
		close(pfd[0]);
		close(pfd[1]);
		return hm_fail(err, "fork: %s", strerror(err));
	}
	if (p == 0) {
		close(pfd[0]);
		/* A negative errno: ptrace failed; a positive one: exec did. */
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) == 0) {
			execvp(argv[0], argv);
			err = errno;
		} else {
			err = -errno;
		}
		if (write(pfd[1], &err, sizeof(err)) < 0)
			_exit(126);
		_exit(127);
	}
	close(pfd[1]);
	/* The pipe closes on a successful exec (O_CLOEXEC); an errno means it failed. */
	do
		n = read(pfd[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(pfd[0]);
	if (n == (ssize_t)sizeof(err)) {
		waitpid(p, &st, 0);
		if (err < 0)
			return hm_fail(-err, "%s: cannot stop it at exec: ptrace: %s (ptrace "
				       "disabled? see kernel.yama.ptrace_scope)", argv[0],
				       strerror(-err));
		return hm_fail(err, "%s: %s", argv[0], strerror(err));
	}
	if (waitpid(p, &st, 0) != p || !WIFSTOPPED(st)) {
		kill(p, SIGKILL);
		waitpid(p, &st, 0);
		return hm_fail(ECHILD, "%s: did not stop at exec", argv[0]);
	}
	*pid = p;
	return 0;
}

int hm_proc_release(pid_t pid)
{
	if (ptrace(PTRACE_DETACH, pid, NULL, 0))
		return hm_fail(errno, "ptrace detach %d: %s", (int)pid, strerror(errno));
	return 0;
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

/* One COMM per thread, so that every tid of the samples has a name. */
static int synthesize_comms(hm_perf_writer *w, pid_t pid)
{
	char path[96], comm[64];
	struct dirent *d;
	DIR *dir;
	int rc = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir) {
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		comm[0] = 0;
		read_line(path, comm, sizeof(comm));
		return hm_perf_writer_comm(w, pid, pid, comm);
	}
	while (!rc && (d = readdir(dir))) {
		int tid = atoi(d->d_name);

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, tid);
		comm[0] = 0;
		if (read_line(path, comm, sizeof(comm)))
			continue;	/* the thread is gone */
		rc = hm_perf_writer_comm(w, pid, (uint32_t)tid, comm);
	}
	closedir(dir);
	return rc;
}

int hm_proc_synthesize(hm_perf_writer *w, pid_t pid, const char *build_id_path,
		       const unsigned char *build_id, size_t build_id_len)
{
	char path[64], line[4096];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -errno;	/* gone already: the caller decides */
	rc = synthesize_comms(w, pid);
	while (!rc && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff;
		char perms[8];
		int name_at = 0;
		hm_perf_mmap m;
		char *name;

		if (sscanf(line, "%llx-%llx %7s %llx %*x:%*x %*u %n", &start, &end, perms, &pgoff,
			   &name_at) < 4 || !name_at)
			continue;
		name = line + name_at;
		name[strcspn(name, "\n")] = 0;
		if (!*name)
			continue;	/* anonymous memory: nothing to resolve against */
		memset(&m, 0, sizeof(m));
		m.pid = m.tid = pid;
		m.start = start;
		m.len = end - start;
		m.pgoff = pgoff;
		m.prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
			 (perms[2] == 'x' ? PROT_EXEC : 0);
		m.flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		m.cpumode = PERF_RECORD_MISC_USER;
		m.filename = name;
		if (build_id_path && build_id_len && build_id_len <= sizeof(m.build_id) &&
		    !strcmp(name, build_id_path)) {
			memcpy(m.build_id, build_id, build_id_len);
			m.build_id_size = (uint8_t)build_id_len;
		}
		rc = hm_perf_writer_mmap2(w, &m);
	}
	fclose(f);
	return rc;
}

/* perf's kernel map: "[kernel.kallsyms]_text" from _text to the end of
 * the address space, pgoff the runtime address of _text (which gives the
 * KASLR offset), pid -1.  Without it perf script cannot name a kernel IP. */
int hm_proc_synthesize_kernel(hm_perf_writer *w)
{
	unsigned long long addr = 0, a;
	char line[512], type, name[256];
	hm_perf_mmap m;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;	/* no kallsyms: kernel IPs stay unnamed */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 &&
		    (type == 'T' || type == 't') && !strcmp(name, "_text")) {
			addr = a;
			break;
		}
	fclose(f);
	if (!addr)
		return 0;	/* kptr_restrict hides the addresses */
	memset(&m, 0, sizeof(m));
	m.pid = (uint32_t)-1;
	m.tid = 0;
	m.start = addr;
	m.len = ~0ull - addr;
	m.pgoff = addr;
	m.prot = PROT_READ | PROT_EXEC;
	m.flags = MAP_PRIVATE;
	m.cpumode = PERF_RECORD_MISC_KERNEL;
	m.filename = "[kernel.kallsyms]_text";
	return hm_perf_writer_mmap2(w, &m);
}

int hm_proc_threads(pid_t pid, pid_t **tids, size_t *nr)
{
	char path[64];
	struct dirent *d;
	size_t cap = 0;
	DIR *dir;

	*tids = NULL;
	*nr = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return hm_fail(errno, "process %d: %s", (int)pid,
			       errno == ENOENT ? "no such process" : strerror(errno));
	while ((d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		if (hm_grow((void **)tids, &cap, *nr + 1, sizeof(**tids))) {
			closedir(dir);
			free(*tids);
			*tids = NULL;
			return -ENOMEM;
		}
		(*tids)[(*nr)++] = (pid_t)atoi(d->d_name);
	}
	closedir(dir);
	return 0;
}

/* /sys/devices/system/cpu/online: "0-3,6,8-9". */
int hm_proc_cpus(int **cpus, size_t *nr)
{
	char buf[4096], *p;
	size_t cap = 0;

	*cpus = NULL;
	*nr = 0;
	if (read_line("/sys/devices/system/cpu/online", buf, sizeof(buf)) || !*buf)
		snprintf(buf, sizeof(buf), "0-%ld", sysconf(_SC_NPROCESSORS_ONLN) - 1);
	for (p = buf; *p;) {
		long a = strtol(p, &p, 10), b = a;

		if (*p == '-')
			b = strtol(p + 1, &p, 10);
		for (; a <= b; a++) {
			if (hm_grow((void **)cpus, &cap, *nr + 1, sizeof(**cpus)))
				return -ENOMEM;
			(*cpus)[(*nr)++] = (int)a;
		}
		if (*p == ',')
			p++;
		else if (*p)
			break;
	}
	return *nr ? 0 : hm_fail(ENODEV, "no online CPU");
}

/* "model name", "vendor_id", ... from /proc/cpuinfo (first CPU). */
static void cpuinfo(const char *key, char *out, size_t len)
{
	char line[512];
	size_t k = strlen(key);
	FILE *f = fopen("/proc/cpuinfo", "r");

	out[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, key, k) || (line[k] != ' ' && line[k] != '\t' && line[k] != ':'))
			continue;
		v = strchr(line, ':');
		if (!v)
			continue;
		for (v++; *v == ' '; v++)
			;
		v[strcspn(v, "\n")] = 0;
		snprintf(out, len, "%s", v);
		break;
	}
	fclose(f);
}

int hm_proc_features(hm_perf_writer *w, char *const *argv, uint64_t first, uint64_t last)
{
	struct hm_perf_features f;
	struct utsname u;
	struct sysinfo si;
	char desc[256], vendor[64], fam[16], model[16], step[16], cpuid[128];
	char cmdline[2048] = "hitmap record";
	size_t n = strlen(cmdline);

	memset(&f, 0, sizeof(f));
	if (uname(&u) == 0) {
		f.hostname = u.nodename;
		f.os_release = u.release;
		f.arch = u.machine;
	}
	f.version = "hitmap " HM_VERSION;
	cpuinfo("model name", desc, sizeof(desc));
	f.cpudesc = desc;
	/* perf's x86 CPUID string: vendor,family,model,stepping. */
	cpuinfo("vendor_id", vendor, sizeof(vendor));
	cpuinfo("cpu family", fam, sizeof(fam));
	cpuinfo("model", model, sizeof(model));
	cpuinfo("stepping", step, sizeof(step));
	snprintf(cpuid, sizeof(cpuid), "%s,%s,%s,%s", vendor, fam, model, step);
	if (*vendor)
		f.cpuid = cpuid;
	f.nr_cpus_avail = (uint32_t)sysconf(_SC_NPROCESSORS_CONF);
	f.nr_cpus_online = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
	if (sysinfo(&si) == 0)
		f.total_mem_kb = (uint64_t)si.totalram * si.mem_unit / 1024;
	if (argv) {
		n += (size_t)snprintf(cmdline + n, sizeof(cmdline) - n, " --");
		for (; *argv && n < sizeof(cmdline); argv++)
			n += (size_t)snprintf(cmdline + n, sizeof(cmdline) - n, " %s", *argv);
	}
	f.cmdline = cmdline;
	f.first_sample_time = first;
	f.last_sample_time = last;
	f.with_topology = 1;
	return hm_perf_writer_features(w, &f);
}

int hm_proc_paranoid(void)
{
	char buf[32];

	if (read_line("/proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf)))
		return 2;
	return atoi(buf);
}
