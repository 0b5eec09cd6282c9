/* perfwrite-feat: the header features the writer produces (strings,
 * NRCPUS, EVENT_DESC, topologies, SAMPLE_TIME, MEM_TOPOLOGY) and the ones a
 * caller adds in perf's format. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "hitmap/hitmap.h"
#include "base/diag.h"
#include "base/util.h"
#include "perf/perfdata-int.h"
#include "perf/perfwrite-int.h"

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

void hm_pw_free_features(struct hm_perf_features *f)
{
	free((char *)f->hostname);
	free((char *)f->os_release);
	free((char *)f->version);
	free((char *)f->arch);
	free((char *)f->cpudesc);
	free((char *)f->cpuid);
	free((char *)f->cmdline);
	memset(f, 0, sizeof(*f));
}

int hm_perf_writer_features(hm_perf_writer *w, const struct hm_perf_features *f)
{
	hm_pw_free_features(&w->feat);
	w->feat = *f;
	w->feat.hostname = dup_or_null(f->hostname);
	w->feat.os_release = dup_or_null(f->os_release);
	w->feat.version = dup_or_null(f->version);
	w->feat.arch = dup_or_null(f->arch);
	w->feat.cpudesc = dup_or_null(f->cpudesc);
	w->feat.cpuid = dup_or_null(f->cpuid);
	w->feat.cmdline = dup_or_null(f->cmdline);
	w->feat_set = 1;
	return 0;
}

/* Features written, in increasing id order.  NUMA_TOPOLOGY is always there:
 * perf c2c report refuses a file without it. */
static const int feat_ids[] = {
	HM_FEAT_HOSTNAME, HM_FEAT_OSRELEASE, HM_FEAT_VERSION, HM_FEAT_ARCH,
	HM_FEAT_NRCPUS, HM_FEAT_CPUDESC, HM_FEAT_CPUID, HM_FEAT_TOTAL_MEM,
	HM_FEAT_CMDLINE, HM_FEAT_EVENT_DESC, HM_FEAT_CPU_TOPOLOGY,
	HM_FEAT_NUMA_TOPOLOGY, HM_FEAT_SAMPLE_TIME, HM_FEAT_MEM_TOPOLOGY,
};

void hm_pw_fill_defaults(hm_perf_writer *w)
{
	struct hm_perf_features *f = &w->feat;
	struct utsname u;
	long n;

	if (uname(&u) == 0) {
		if (!f->hostname)
			f->hostname = strdup(u.nodename);
		if (!f->os_release)
			f->os_release = strdup(u.release);
		if (!f->arch)
			f->arch = strdup(u.machine);
	}
	if (!f->version)
		f->version = strdup("hitmap " HM_VERSION);
	if (!f->cpudesc)
		f->cpudesc = strdup("unknown");
	if (!f->cpuid)
		f->cpuid = strdup("unknown");
	if (!f->cmdline)
		f->cmdline = strdup("hitmap");
	if (!f->nr_cpus_avail) {
		n = sysconf(_SC_NPROCESSORS_CONF);
		f->nr_cpus_avail = n > 0 ? (uint32_t)n : 1;
	}
	if (!f->nr_cpus_online) {
		n = sysconf(_SC_NPROCESSORS_ONLN);
		f->nr_cpus_online = n > 0 ? (uint32_t)n : f->nr_cpus_avail;
	}
	if (!f->total_mem_kb) {
		long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

		f->total_mem_kb = pages > 0 && psz > 0 ? (uint64_t)pages * psz / 1024 : 0;
	}
	if (!f->first_sample_time && !f->last_sample_time && w->have_time) {
		f->first_sample_time = w->first_time;
		f->last_sample_time = w->last_time;
	}
}

/* ---- this machine's topology from sysfs (with_topology) ---- */

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ok = f && fgets(buf, (int)len, f);

	if (f)
		fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* Index of s in the list (added if new); -1 on ENOMEM. */
static int uniq_add(char ***list, size_t *n, size_t *cap, const char *s)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*list)[i], s))
			return (int)i;
	if (hm_grow((void **)list, cap, *n + 1, sizeof(**list)) || !((*list)[*n] = strdup(s)))
		return -1;
	return (int)(*n)++;
}

/* CPU_TOPOLOGY: sibling core lists, sibling thread lists, then core and
 * socket id of each cpu.  Returns -1 (nothing written) when sysfs lacks it. */
static int sysfs_cpu_topology(hm_perf_writer *w, uint32_t ncpu)
{
	char **cores = NULL, **thr = NULL, path[128], buf[256];
	size_t nc = 0, cc = 0, nt = 0, ct = 0, i;
	uint32_t *ids = calloc(2 * (size_t)ncpu + 1, sizeof(*ids)), c;
	int ret = -1;

	if (!ids)
		return -1;
	for (c = 0; c < ncpu; c++) {
		static const char *const files[] = { "core_siblings_list", "thread_siblings_list",
						     "core_id", "physical_package_id" };
		for (i = 0; i < 4; i++) {
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/topology/%s", c,
				 files[i]);
			if (read_line(path, buf, sizeof(buf))) {
				if (i < 2)
					goto out;
				strcpy(buf, "-1");
			}
			if ((i == 0 && uniq_add(&cores, &nc, &cc, buf) < 0) ||
			    (i == 1 && uniq_add(&thr, &nt, &ct, buf) < 0))
				goto out;
			if (i >= 2)
				ids[2 * c + i - 2] = (uint32_t)strtol(buf, NULL, 10);
		}
	}
	hm_pw_u32(w, (uint32_t)nc);
	for (i = 0; i < nc; i++)
		hm_pw_str(w, cores[i]);
	hm_pw_u32(w, (uint32_t)nt);
	for (i = 0; i < nt; i++)
		hm_pw_str(w, thr[i]);
	for (c = 0; c < 2 * ncpu; c++)
		hm_pw_u32(w, ids[c]);
	ret = 0;
out:
	for (i = 0; i < nc; i++)
		free(cores[i]);
	for (i = 0; i < nt; i++)
		free(thr[i]);
	free(cores);
	free(thr);
	free(ids);
	return ret;
}

/* NUMA_TOPOLOGY from /sys/devices/system/node: node id, memory total and
 * free in kB, cpu list.  Returns -1 (nothing written) without sysfs. */
static int sysfs_numa(hm_perf_writer *w)
{
	char path[128], buf[256], line[256];
	uint32_t ids[64], n = 0, a, b, i;
	const char *p;

	if (read_line("/sys/devices/system/node/online", buf, sizeof(buf)))
		return -1;
	for (p = buf; *p && n < 64;) {
		if (sscanf(p, "%u-%u", &a, &b) == 2 || (sscanf(p, "%u", &a) == 1 && (b = a, 1)))
			for (i = a; i <= b && n < 64; i++)
				ids[n++] = i;
		p += strcspn(p, ",");
		p += *p == ',';
	}
	if (!n)
		return -1;
	hm_pw_u32(w, n);
	for (i = 0; i < n; i++) {
		uint64_t total = 0, freekb = 0;
		unsigned long long v;
		FILE *f;

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/meminfo", ids[i]);
		f = fopen(path, "re");
		while (f && fgets(line, sizeof(line), f)) {
			if (sscanf(line, "Node %*u MemTotal: %llu", &v) == 1)
				total = v;
			else if (sscanf(line, "Node %*u MemFree: %llu", &v) == 1)
				freekb = v;
		}
		if (f)
			fclose(f);
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/cpulist", ids[i]);
		if (read_line(path, buf, sizeof(buf)))
			buf[0] = 0;
		hm_pw_u32(w, ids[i]);
		hm_pw_u64(w, total);
		hm_pw_u64(w, freekb);
		hm_pw_str(w, buf);
	}
	return 0;
}

static void cpu_list(char *buf, size_t len, uint32_t n)
{
	if (n <= 1)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "0-%u", n - 1);
}

static void write_feature_data(hm_perf_writer *w, int id)
{
	struct hm_perf_features *f = &w->feat;
	char list[32];
	uint32_t i, ncpu = f->nr_cpus_avail;
	size_t e, k;

	switch (id) {
	case HM_FEAT_HOSTNAME: hm_pw_str(w, f->hostname ? f->hostname : ""); break;
	case HM_FEAT_OSRELEASE: hm_pw_str(w, f->os_release ? f->os_release : ""); break;
	case HM_FEAT_VERSION: hm_pw_str(w, f->version ? f->version : ""); break;
	case HM_FEAT_ARCH: hm_pw_str(w, f->arch ? f->arch : ""); break;
	case HM_FEAT_CPUDESC: hm_pw_str(w, f->cpudesc ? f->cpudesc : ""); break;
	case HM_FEAT_CPUID: hm_pw_str(w, f->cpuid ? f->cpuid : ""); break;
	case HM_FEAT_NRCPUS:
		hm_pw_u32(w, f->nr_cpus_avail);
		hm_pw_u32(w, f->nr_cpus_online);
		break;
	case HM_FEAT_TOTAL_MEM:
		hm_pw_u64(w, f->total_mem_kb);
		break;
	case HM_FEAT_CMDLINE:
		hm_pw_u32(w, 1);
		hm_pw_str(w, f->cmdline ? f->cmdline : "");
		break;
	case HM_FEAT_EVENT_DESC:
		hm_pw_u32(w, (uint32_t)w->nr_ev);
		hm_pw_u32(w, (uint32_t)sizeof(struct perf_event_attr));
		for (e = 0; e < w->nr_ev; e++) {
			struct perf_event_attr a;

			hm_pw_attr_out(w, &w->ev[e].attr, &a);
			hm_pw_bytes(w, &a, sizeof(a));
			hm_pw_u32(w, (uint32_t)w->ev[e].nr_ids);
			hm_pw_str(w, w->ev[e].name);
			for (k = 0; k < w->ev[e].nr_ids; k++)
				hm_pw_u64(w, w->ev[e].ids[k]);
		}
		break;
	case HM_FEAT_CPU_TOPOLOGY:
		if (f->with_topology && !sysfs_cpu_topology(w, ncpu))
			break;
		/* One socket, one thread per core: core and thread sibling
		 * lists, then (core id, socket id) per cpu. */
		cpu_list(list, sizeof(list), ncpu);
		hm_pw_u32(w, 1);
		hm_pw_str(w, list);
		hm_pw_u32(w, ncpu);
		for (i = 0; i < ncpu; i++) {
			char one[16];

			snprintf(one, sizeof(one), "%u", i);
			hm_pw_str(w, one);
		}
		for (i = 0; i < ncpu; i++) {
			hm_pw_u32(w, i);
			hm_pw_u32(w, 0);
		}
		break;
	case HM_FEAT_NUMA_TOPOLOGY:
		if (f->with_topology && !sysfs_numa(w))
			break;
		cpu_list(list, sizeof(list), ncpu);
		hm_pw_u32(w, 1);
		hm_pw_u32(w, 0);
		hm_pw_u64(w, f->total_mem_kb);
		hm_pw_u64(w, f->total_mem_kb / 2);
		hm_pw_str(w, list);
		break;
	case HM_FEAT_SAMPLE_TIME:
		hm_pw_u64(w, f->first_sample_time);
		hm_pw_u64(w, f->last_sample_time);
		break;
	case HM_FEAT_MEM_TOPOLOGY: {
		/* One node holding every 128 MiB block up to the memory size
		 * plus the 4 GiB PCI hole, so perf c2c finds a node for
		 * every physical address. */
		const uint64_t bsize = 128ull << 20;
		uint64_t nbits = ((f->total_mem_kb << 10) + (4ull << 30) + bsize - 1) / bsize;
		uint64_t word;

		hm_pw_u64(w, 1);
		hm_pw_u64(w, bsize);
		hm_pw_u64(w, 1);
		hm_pw_u64(w, 0);
		hm_pw_u64(w, nbits * bsize);
		hm_pw_u64(w, nbits);
		for (k = 0; k < (nbits + 63) / 64; k++) {
			word = nbits - k * 64 >= 64 ? ~0ull : (1ull << (nbits - k * 64)) - 1;
			hm_pw_u64(w, word);
		}
		break;
	}
	}
}

static int builtin_feature(int id)
{
	size_t i;

	for (i = 0; i < sizeof(feat_ids) / sizeof(feat_ids[0]); i++)
		if (feat_ids[i] == id)
			return 1;
	return 0;
}

int hm_perf_writer_add_feature(hm_perf_writer *w, int id, const void *data, size_t len)
{
	struct wfeat *f;
	size_t i;

	if (id < 0 || id > 255)
		return -EINVAL;
	if (builtin_feature(id))
		return -EEXIST;
	for (i = 0; i < w->nr_xf; i++)
		if (w->xf[i].id == id)
			return -EEXIST;
	if (hm_grow((void **)&w->xf, &w->cap_xf, w->nr_xf + 1, sizeof(*w->xf)))
		return -ENOMEM;
	f = &w->xf[w->nr_xf];
	f->data = malloc(len ? len : 1);
	if (!f->data)
		return -ENOMEM;
	memcpy(f->data, data, len);
	f->len = len;
	f->id = id;
	w->nr_xf++;
	return 0;
}

/* Payload of feature `id`: built in or added. */
void hm_pw_write_feature(hm_perf_writer *w, int id)
{
	size_t i;

	if (id == HM_FEAT_COMPRESSED && w->zc) {
		/* version, type 1 = zstd, level, ratio, and the buffer perf
		 * inflates one record into: room for a block and a chunk */
		hm_pw_u32(w, 1);
		hm_pw_u32(w, 1);
		hm_pw_u32(w, (uint32_t)w->zlevel);
		hm_pw_u32(w, 1);
		hm_pw_u32(w, (uint32_t)(((w->zblock + 65536) + 4095) & ~(size_t)4095));
		return;
	}

	if (builtin_feature(id)) {
		write_feature_data(w, id);
		return;
	}
	for (i = 0; i < w->nr_xf; i++)
		if (w->xf[i].id == id)
			hm_pw_bytes(w, w->xf[i].data, w->xf[i].len);
}

/* The adds_features bits of the file: built-in and added features. */
void hm_pw_feature_bits(const hm_perf_writer *w, uint64_t bits[4])
{
	size_t i;

	for (i = 0; i < sizeof(feat_ids) / sizeof(feat_ids[0]); i++)
		bits[feat_ids[i] / 64] |= 1ull << (feat_ids[i] % 64);
	for (i = 0; i < w->nr_xf; i++)
		bits[w->xf[i].id / 64] |= 1ull << (w->xf[i].id % 64);
	if (w->zc)
		bits[0] |= 1ull << HM_FEAT_COMPRESSED;
}
