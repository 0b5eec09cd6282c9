/* perfdata-feat: the header features hitmap uses.  In file mode they sit in
 * the feature section after the data; in pipe mode they arrive as
 * HEADER_FEATURE records with the same payloads.  Features hitmap does not
 * use are skipped; the ones it parses are bounds-checked (a lying length is an
 * error, not a crash). */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perf/perfdata-rd.h"

#define FEAT_MAX (64u << 20)	/* largest feature payload read */

struct fcur {
	hm_perf_reader *r;
	const unsigned char *p, *start, *end;
	uint64_t off;		/* input offset of start */
	const char *feat;
};

static const char *feat_name(int id)
{
	/* perf's HEADER_* names */
	static const char *const names[] = {
		[HM_FEAT_TRACING_DATA] = "TRACING_DATA", [HM_FEAT_BUILD_ID] = "BUILD_ID",
		[HM_FEAT_HOSTNAME] = "HOSTNAME", [HM_FEAT_OSRELEASE] = "OSRELEASE",
		[HM_FEAT_VERSION] = "VERSION", [HM_FEAT_ARCH] = "ARCH",
		[HM_FEAT_NRCPUS] = "NRCPUS", [HM_FEAT_CPUDESC] = "CPUDESC",
		[HM_FEAT_CPUID] = "CPUID", [HM_FEAT_TOTAL_MEM] = "TOTAL_MEM",
		[HM_FEAT_CMDLINE] = "CMDLINE", [HM_FEAT_EVENT_DESC] = "EVENT_DESC",
		[HM_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
		[HM_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
		[HM_FEAT_BRANCH_STACK] = "BRANCH_STACK",
		[HM_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS", [HM_FEAT_GROUP_DESC] = "GROUP_DESC",
		[HM_FEAT_AUXTRACE] = "AUXTRACE", [HM_FEAT_STAT] = "STAT",
		[HM_FEAT_CACHE] = "CACHE", [HM_FEAT_SAMPLE_TIME] = "SAMPLE_TIME",
		[HM_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY", [HM_FEAT_CLOCKID] = "CLOCKID",
		[HM_FEAT_DIR_FORMAT] = "DIR_FORMAT", [HM_FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO",
		[HM_FEAT_BPF_BTF] = "BPF_BTF", [HM_FEAT_COMPRESSED] = "COMPRESSED",
		[28] = "CPU_PMU_CAPS", [29] = "CLOCK_DATA", [30] = "HYBRID_TOPOLOGY",
		[31] = "PMU_CAPS",
	};

	if (id >= 0 && id < (int)(sizeof(names) / sizeof(names[0])) && names[id])
		return names[id];
	return "feature";
}

static int fbad(struct fcur *c, const char *what)
{
	return hm_fail(EBADMSG, "%s: %s feature: %s at offset 0x%" PRIx64, c->r->name,
		       c->feat, what, c->off + (uint64_t)(c->p - c->start));
}

static int f32(struct fcur *c, uint32_t *v)
{
	if (c->end - c->p < 4)
		return fbad(c, "truncated");
	memcpy(v, c->p, 4);
	if (c->r->swap)
		*v = __builtin_bswap32(*v);
	c->p += 4;
	return 0;
}

static int f64(struct fcur *c, uint64_t *v)
{
	if (c->end - c->p < 8)
		return fbad(c, "truncated");
	memcpy(v, c->p, 8);
	if (c->r->swap)
		*v = __builtin_bswap64(*v);
	c->p += 8;
	return 0;
}

/* perf string: u32 len, then len bytes holding a NUL-terminated string. */
static int fstr(struct fcur *c, const char **out)
{
	uint32_t len;
	int err = f32(c, &len);

	if (err)
		return err;
	if (len > (size_t)(c->end - c->p))
		return fbad(c, "string length past the end of the feature");
	*out = hm_arena_strndup(&c->r->arena, (const char *)c->p, strnlen((const char *)c->p, len));
	if (!*out)
		return -ENOMEM;
	c->p += len;
	return 0;
}

static int event_desc(struct fcur *c)
{
	hm_perf_reader *r = c->r;
	uint32_t nr, asz, i, nids, k;
	int err;

	if ((err = f32(c, &nr)) || (err = f32(c, &asz)))
		return err;
	if (asz < PERF_ATTR_SIZE_VER0 || asz > 4096)
		return fbad(c, "bad attr size");
	if (nr > (size_t)(c->end - c->p) / (asz + 8))
		return fbad(c, "event count past the end of the feature");
	for (i = 0; i < nr; i++) {
		struct perf_event_attr a;
		const char *name;
		uint64_t id0 = 0, id = 0;
		int ev;

		if ((size_t)(c->end - c->p) < asz)
			return fbad(c, "truncated attr");
		err = hm_pr_attr_decode(r, c->p, asz, &a, c->off + (uint64_t)(c->p - c->start));
		if (err)
			return err;
		c->p += asz;
		if ((err = f32(c, &nids)) || (err = fstr(c, &name)))
			return err;
		if (nids > (size_t)(c->end - c->p) / 8)
			return fbad(c, "id count past the end of the feature");
		for (k = 0; k < nids; k++) {
			if ((err = f64(c, &id)))
				return err;
			if (k == 0)
				id0 = id;
		}
		ev = nids ? hm_pr_event_of_id(r, id0) : -1;
		if (ev < 0 && i < r->nr_ev)
			ev = (int)i;
		if (ev >= 0 && !r->ev[ev].name)
			r->ev[ev].name = name;
	}
	hm_pr_sync_events(r);
	return 0;
}

static int cache(struct fcur *c)
{
	uint32_t ver, cnt, i, level, line, sets, ways;
	const char *type, *size, *map;
	uint32_t first = 0, l1d = 0;
	int err;

	if ((err = f32(c, &ver)) || (err = f32(c, &cnt)))
		return err;
	if (ver != 1)
		return 0;	/* unknown layout: leave the line size unknown */
	if (cnt > (size_t)(c->end - c->p) / 28)
		return fbad(c, "cache count past the end of the feature");
	for (i = 0; i < cnt; i++) {
		if ((err = f32(c, &level)) || (err = f32(c, &line)) || (err = f32(c, &sets)) ||
		    (err = f32(c, &ways)) || (err = fstr(c, &type)) || (err = fstr(c, &size)) ||
		    (err = fstr(c, &map)))
			return err;
		if (!first)
			first = line;
		if (level == 1 && !l1d && strcmp(type, "Instruction"))
			l1d = line;
	}
	c->r->info.cacheline_size = l1d ? l1d : first;
	return 0;
}

/* A run of build-id records {header, s32 pid, u8 id[20], u8 size, pad[3],
 * filename} (the BUILD_ID feature, or one HEADER_BUILD_ID record). */
int hm_pr_build_ids(hm_perf_reader *r, const unsigned char *p, size_t len, uint64_t off)
{
	size_t at = 0;

	while (len - at >= 8) {
		const unsigned char *q = p + at;
		hm_perf_build_id *b;
		uint16_t misc, size;
		int32_t pid;
		const char *name;

		memcpy(&misc, q + 4, 2);
		memcpy(&size, q + 6, 2);
		if (r->swap) {
			misc = __builtin_bswap16(misc);
			size = __builtin_bswap16(size);
		}
		if (size < 37 || size > len - at || !memchr(q + 36, 0, size - 36))
			return hm_fail(EBADMSG, "%s: bad build-id record (size %u) at offset 0x%"
				       PRIx64, r->name, size, off + at);
		if (hm_grow((void **)&r->bids, &r->cap_bids, r->nr_bids + 1, sizeof(*r->bids)))
			return -ENOMEM;
		name = hm_arena_strndup(&r->arena, (const char *)q + 36, strlen((const char *)q + 36));
		if (!name)
			return -ENOMEM;
		b = &r->bids[r->nr_bids++];
		memset(b, 0, sizeof(*b));
		memcpy(&pid, q + 8, 4);
		b->pid = r->swap ? (int32_t)__builtin_bswap32((uint32_t)pid) : pid;
		memcpy(b->build_id, q + 12, 20);
		/* perf marks a valid size byte with misc bit 15; older files
		 * have 20-byte SHA-1 ids */
		b->size = (misc & (1u << 15)) && q[32] <= 20 ? q[32] : 20;
		b->cpumode = misc & 7;
		b->filename = name;
		at += size;
	}
	return 0;
}

size_t hm_perf_reader_build_ids(const hm_perf_reader *r, const hm_perf_build_id **ids)
{
	*ids = r->bids;
	return r->nr_bids;
}

int hm_pr_feature(hm_perf_reader *r, int id, const unsigned char *p, size_t len,
		  uint64_t off)
{
	struct fcur c = { r, p, p, p + len, off, feat_name(id) };
	hm_perf_info *in = &r->info;
	int err;

	switch (id) {
	case HM_FEAT_HOSTNAME: return fstr(&c, &in->hostname);
	case HM_FEAT_OSRELEASE: return fstr(&c, &in->os_release);
	case HM_FEAT_VERSION: return fstr(&c, &in->perf_version);
	case HM_FEAT_ARCH: return fstr(&c, &in->arch);
	case HM_FEAT_CPUDESC: return fstr(&c, &in->cpudesc);
	case HM_FEAT_CPUID: return fstr(&c, &in->cpuid);
	case HM_FEAT_NRCPUS:
		if ((err = f32(&c, &in->nr_cpus_avail)) || (err = f32(&c, &in->nr_cpus_online)))
			return err;
		return 0;
	case HM_FEAT_EVENT_DESC:
		return event_desc(&c);
	case HM_FEAT_CACHE:
		return cache(&c);
	case HM_FEAT_BUILD_ID:
		return hm_pr_build_ids(r, p, len, off);
	case HM_FEAT_TRACING_DATA:
		return hm_pr_tracing_data(r, p, len, off);
	case HM_FEAT_SAMPLE_TIME:
		if ((err = f64(&c, &in->first_sample_time)) ||
		    (err = f64(&c, &in->last_sample_time)))
			return err;
		return 0;
	case HM_FEAT_DIR_FORMAT:	/* the layout of a perf.data directory */
		if ((err = f64(&c, &r->dir_version)))
			return err;
		r->has_dir_format = 1;
		r->dir_format_off = off;
		return 0;
	}
	/* CPU_TOPOLOGY, NUMA_TOPOLOGY, BUILD_ID and the rest: not needed */
	return 0;
}

static int wanted(int id)
{
	switch (id) {
	case HM_FEAT_HOSTNAME: case HM_FEAT_OSRELEASE: case HM_FEAT_VERSION:
	case HM_FEAT_ARCH: case HM_FEAT_NRCPUS: case HM_FEAT_CPUDESC:
	case HM_FEAT_CPUID: case HM_FEAT_EVENT_DESC: case HM_FEAT_CACHE:
	case HM_FEAT_SAMPLE_TIME: case HM_FEAT_BUILD_ID: case HM_FEAT_TRACING_DATA:
	case HM_FEAT_DIR_FORMAT:
		return 1;
	}
	return 0;
}

/* A feature past the end of a file cut after its data section: lost, the
 * rest read (keep_truncated).  Its bit is noted for the warning and the
 * truncation marker of the output. */
static void lose(hm_perf_reader *r, int bit)
{
	r->info.features_lost[bit / 64] |= 1ull << (bit % 64);
	r->info.features_cut_at = r->file_size;
}

size_t hm_perf_feature_names(const uint64_t bits[4], char *buf, size_t n)
{
	size_t len = 0;

	if (n)
		buf[0] = 0;
	for (int bit = 0; bit < 256; bit++) {
		const char *name = feat_name(bit);
		char num[24];
		int k;

		if (!(bits[bit / 64] & (1ull << (bit % 64))))
			continue;
		if (!strcmp(name, "feature")) {
			snprintf(num, sizeof(num), "feature %d", bit);
			name = num;
		}
		k = snprintf(len < n ? buf + len : NULL, len < n ? n - len : 0, "%s%s",
			     len ? ", " : "", name);
		if (k > 0)
			len += (size_t)k;
	}
	return len;
}

/* The warning naming the features a cut took. */
static void warn_lost(hm_perf_reader *r)
{
	char list[1024];

	hm_perf_feature_names(r->info.features_lost, list, sizeof(list));
	hm_diag(HM_DIAG_WARNING, "%s: truncated at offset 0x%" PRIx64 " in the feature "
		"section, after the whole data section: every sample is read; features "
		"lost: %s", r->name, r->info.features_cut_at, list);
}

/* File mode: the table of {offset, size} at table_off, one per set bit. */
int hm_pr_read_features(hm_perf_reader *r, uint64_t table_off)
{
	unsigned char ent[16];
	int bit, n = 0, err = 0;

	for (bit = 0; bit < 256 && !err; bit++) {
		uint64_t at, off, size, v[2];
		unsigned char *buf;

		if (!(r->info.features[bit / 64] & (1ull << (bit % 64))))
			continue;
		at = table_off + 16ull * n++;
		/* cut in the table: this feature and the ones after it lost */
		if (r->keep_truncated && (at > r->file_size || r->file_size - at < 16)) {
			lose(r, bit);
			continue;
		}
		err = hm_pr_pread(r, ent, 16, at, "feature table");
		if (err)
			return err;
		memcpy(v, ent, 16);
		off = r->swap ? __builtin_bswap64(v[0]) : v[0];
		size = r->swap ? __builtin_bswap64(v[1]) : v[1];
		if (off > r->file_size || size > r->file_size - off) {
			/* its bytes after the cut (they follow the table) */
			if (r->keep_truncated && off >= table_off) {
				lose(r, bit);
				continue;
			}
			return hm_fail(EBADMSG, "%s: feature %d (offset 0x%" PRIx64 ", size 0x%"
				       PRIx64 ") past end of file at offset 0x%" PRIx64,
				       r->name, bit, off, size, at);
		}
		if (!wanted(bit))
			continue;
		if (size > FEAT_MAX)
			return hm_fail(EBADMSG, "%s: %s feature of 0x%" PRIx64 " bytes is too "
				       "large at offset 0x%" PRIx64, r->name, feat_name(bit),
				       size, at);
		buf = malloc(size ? size : 1);
		if (!buf)
			return -ENOMEM;
		err = hm_pr_pread(r, buf, size, off, feat_name(bit));
		if (!err)
			err = hm_pr_feature(r, bit, buf, size, off);
		free(buf);
	}
	if (!err && r->info.features_cut_at)
		warn_lost(r);
	return err;
}
