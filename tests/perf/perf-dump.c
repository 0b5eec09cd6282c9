/* perf-dump: a test tool printing what libhitmap reads from a perf.data file,
 * in a stable format the tests compare with perf's own output.
 *
 *   perf-dump [--info] [--records] [--c2c] [--stat] FILE|-
 *
 * Exit 0 ok, 2 usage, 3 unreadable or malformed input (one line on stderr
 * with the file name and offset). */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hitmap/hitmap.h"
#include "hitmap/perfdata.h"
#include "hitmap/datasrc.h"

static const char usage[] =
	"usage: perf-dump [options] FILE   (FILE may be - for a pipe-mode stream)\n"
	"  --info      header information: events, features\n"
	"  --records   one line per record (the default)\n"
	"  --c2c       perf c2c counters per 64-byte cacheline, then the totals\n"
	"  --c2c-perf  the totals as perf c2c report's \"Trace Event Information\"\n"
	"              (label=value), then the lines with HITMs in the columns of\n"
	"              its \"Shared Data Cache Line Table\" (line= ...)\n"
	"  --stat      count records and samples; print samples/s to stderr\n"
	"  --mem       read the whole file into memory first (the in-memory reader)\n"
	"  --offsets   with --records: start each line with the record's offset\n"
	"  --truncate-every N\n"
	"              read the file cut at 0, N, 2N, ... bytes (in memory) and\n"
	"              print `0xOFF exit MESSAGE` per cut: exit 3 with the error,\n"
	"              or 0 when the cut file reads without error\n"
	"  --mutate    read the file once per byte position with that byte set to\n"
	"              0x00, 0x7f, 0x80, 0xff (in memory); print a summary and any\n"
	"              error message that names no offset\n"
	"  -h, --help  this text\n"
	"Exit: 0 ok, 2 usage, 3 unreadable or malformed input.\n";

static char last_error[1024];

static void keep_diag(void *ctx, enum hm_diag_level level, const char *msg)
{
	(void)ctx;
	if (level == HM_DIAG_ERROR && !last_error[0])
		snprintf(last_error, sizeof(last_error), "%s", msg);
}

/* Every cut of buf at multiples of step must fail cleanly. */
static int truncations(const char *path, const char *buf, size_t len, size_t step)
{
	hm_perf_record rec;
	size_t off;
	int ret;

	hm_set_diag(keep_diag, NULL);
	for (off = 0; off < len; off += step) {
		hm_perf_reader *r;
		char *cut = malloc(off ? off : 1);	/* exact size: ASan sees overreads */

		if (!cut)
			abort();
		memcpy(cut, buf, off);
		last_error[0] = 0;
		r = hm_perf_reader_open_mem(cut, off, path);
		ret = r ? 0 : -1;
		while (r && (ret = hm_perf_reader_next(r, &rec)) > 0)
			;
		hm_perf_reader_close(r);
		printf("0x%zx %d %s\n", off, ret < 0 ? 3 : 0, ret < 0 ? last_error : "");
		free(cut);
	}
	return 0;
}

/* Every single-byte mutation reads cleanly or fails with an offset. */
static int mutations(const char *path, const char *buf, size_t len)
{
	static const unsigned char vals[] = { 0x00, 0x7f, 0x80, 0xff };
	char *m = malloc(len ? len : 1);
	unsigned long n = 0, errs = 0, bad = 0;
	hm_perf_record rec;
	size_t off, v;
	int ret;

	if (!m)
		abort();
	hm_set_diag(keep_diag, NULL);
	for (off = 0; off < len; off++) {
		for (v = 0; v < sizeof(vals); v++) {
			hm_perf_reader *r;

			memcpy(m, buf, len);
			if ((unsigned char)m[off] == vals[v])
				continue;
			m[off] = (char)vals[v];
			last_error[0] = 0;
			r = hm_perf_reader_open_mem(m, len, path);
			ret = r ? 0 : -1;
			while (r && (ret = hm_perf_reader_next(r, &rec)) > 0)
				;
			hm_perf_reader_close(r);
			n++;
			if (ret < 0) {
				errs++;
				if (!strstr(last_error, " at offset 0x")) {
					bad++;
					printf("0x%zx=0x%02x: %s\n", off, vals[v], last_error);
				}
			}
		}
	}
	printf("mutations %lu errors %lu without-offset %lu\n", n, errs, bad);
	free(m);
	return 0;
}

static void diag(void *ctx, enum hm_diag_level level, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "perf-dump: %s: %s\n", level == HM_DIAG_ERROR ? "error" : "warning",
		msg);
}

/* ---- maps, to tell perf c2c's "nomap" ---- */
struct map {
	int64_t pid;		/* -1: kernel */
	uint64_t start, end;
};
static struct map *maps;
static size_t nr_maps, cap_maps;

static void add_map(int64_t pid, uint64_t start, uint64_t len)
{
	if (nr_maps == cap_maps) {
		cap_maps = cap_maps ? 2 * cap_maps : 64;
		maps = realloc(maps, cap_maps * sizeof(*maps));
		if (!maps)
			abort();
	}
	maps[nr_maps].pid = pid;
	maps[nr_maps].start = start;
	maps[nr_maps].end = start + len;
	nr_maps++;
}

static void fork_maps(uint32_t pid, uint32_t ppid)
{
	size_t i, n = nr_maps;

	if (pid == ppid)
		return;
	for (i = 0; i < n; i++)
		if (maps[i].pid == ppid)
			add_map(pid, maps[i].start, maps[i].end - maps[i].start);
}

static int mapped(uint32_t pid, uint64_t addr)
{
	size_t i;

	for (i = nr_maps; i-- > 0;)
		if ((maps[i].pid == -1 || maps[i].pid == pid) && addr >= maps[i].start &&
		    addr < maps[i].end)
			return 1;
	return 0;
}

/* ---- cacheline table ---- */
struct line {
	uint64_t addr;
	int used;
	hm_c2c_stats st;
};
static struct line *lines;
static size_t lines_cap, nr_lines;

static struct line *line_of(uint64_t addr)
{
	size_t i;

	if ((nr_lines + 1) * 2 > lines_cap) {
		size_t ncap = lines_cap ? lines_cap * 2 : 1024, j;
		struct line *nl = calloc(ncap, sizeof(*nl));

		if (!nl)
			abort();
		for (j = 0; j < lines_cap; j++) {
			if (!lines[j].used)
				continue;
			i = (lines[j].addr * 0x9e3779b97f4a7c15ull >> 20) & (ncap - 1);
			while (nl[i].used)
				i = (i + 1) & (ncap - 1);
			nl[i] = lines[j];
		}
		free(lines);
		lines = nl;
		lines_cap = ncap;
	}
	i = (addr * 0x9e3779b97f4a7c15ull >> 20) & (lines_cap - 1);
	while (lines[i].used && lines[i].addr != addr)
		i = (i + 1) & (lines_cap - 1);
	if (!lines[i].used) {
		lines[i].used = 1;
		lines[i].addr = addr;
		nr_lines++;
	}
	return &lines[i];
}

static int cmp_line(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void print_stats(const char *lead, const hm_c2c_stats *s)
{
	printf("%s records=%u loads=%u stores=%u lcl_hitm=%u rmt_hitm=%u tot_hitm=%u "
	       "st_l1hit=%u st_l1miss=%u st_na=%u st_uncache=%u ld_fbhit=%u ld_l1hit=%u "
	       "ld_l2hit=%u ld_llchit=%u rmt_hit=%u lcl_dram=%u rmt_dram=%u "
	       "ld_uncache=%u ld_io=%u ld_miss=%u ld_excl=%u ld_shared=%u lcl_peer=%u "
	       "rmt_peer=%u locks=%u blk_data=%u blk_addr=%u ld_noadrs=%u st_noadrs=%u "
	       "nomap=%u noparse=%u\n", lead,
	       s->nr_entries, s->load, s->store, s->lcl_hitm, s->rmt_hitm, s->tot_hitm,
	       s->st_l1hit, s->st_l1miss, s->st_na, s->st_uncache, s->ld_fbhit, s->ld_l1hit,
	       s->ld_l2hit, s->ld_llchit, s->rmt_hit, s->lcl_dram, s->rmt_dram,
	       s->ld_uncache, s->ld_io, s->ld_miss, s->ld_excl, s->ld_shared, s->lcl_peer,
	       s->rmt_peer, s->locks, s->blk_data, s->blk_addr, s->ld_noadrs, s->st_noadrs,
	       s->nomap, s->noparse);
}

static void print_perf_summary(const hm_c2c_stats *s);
static void print_perf_line(uint64_t addr, const hm_c2c_stats *s);

static void print_c2c(int perf_style)
{
	hm_c2c_stats tot;
	struct line *v = malloc((nr_lines ? nr_lines : 1) * sizeof(*v));
	size_t i, n = 0;
	char lead[64];

	if (!v)
		abort();
	memset(&tot, 0, sizeof(tot));
	for (i = 0; i < lines_cap; i++)
		if (lines[i].used)
			v[n++] = lines[i];
	qsort(v, n, sizeof(*v), cmp_line);
	for (i = 0; i < n; i++)
		hm_c2c_add(&tot, &v[i].st);
	if (perf_style)
		print_perf_summary(&tot);
	for (i = 0; i < n; i++) {
		snprintf(lead, sizeof(lead), "line 0x%" PRIx64, v[i].addr);
		if (!perf_style)
			print_stats(lead, &v[i].st);
		else if (v[i].st.tot_hitm)
			print_perf_line(v[i].addr, &v[i].st);
	}
	if (!perf_style)
		print_stats("total", &tot);
	free(v);
}

/* perf c2c report's labels and sums (builtin-c2c.c, print_c2c__display_stats) */
static void print_perf_summary(const hm_c2c_stats *s)
{
	printf("Total records=%u\n", s->nr_entries);
	printf("Locked Load/Store Operations=%u\n", s->locks);
	printf("Load Operations=%u\n", s->load);
	printf("Loads - uncacheable=%u\n", s->ld_uncache);
	printf("Loads - IO=%u\n", s->ld_io);
	printf("Loads - Miss=%u\n", s->ld_miss);
	printf("Loads - no mapping=%u\n", s->ld_noadrs);
	printf("Load Fill Buffer Hit=%u\n", s->ld_fbhit);
	printf("Load L1D hit=%u\n", s->ld_l1hit);
	printf("Load L2D hit=%u\n", s->ld_l2hit);
	printf("Load LLC hit=%u\n", s->ld_llchit + s->lcl_hitm);
	printf("Load Local HITM=%u\n", s->lcl_hitm);
	printf("Load Remote HITM=%u\n", s->rmt_hitm);
	printf("Load Remote HIT=%u\n", s->rmt_hit);
	printf("Load Local DRAM=%u\n", s->lcl_dram);
	printf("Load Remote DRAM=%u\n", s->rmt_dram);
	printf("Load MESI State Exclusive=%u\n", s->ld_excl);
	printf("Load MESI State Shared=%u\n", s->ld_shared);
	printf("Load LLC Misses=%u\n", s->lcl_dram + s->rmt_dram + s->rmt_hit + s->rmt_hitm);
	printf("Load access blocked by data=%u\n", s->blk_data);
	printf("Load access blocked by address=%u\n", s->blk_addr);
	printf("Load HIT Local Peer=%u\n", s->lcl_peer);
	printf("Load HIT Remote Peer=%u\n", s->rmt_peer);
	printf("Store Operations=%u\n", s->store);
	printf("Store - uncacheable=%u\n", s->st_uncache);
	printf("Store - no mapping=%u\n", s->st_noadrs);
	printf("Store L1D Hit=%u\n", s->st_l1hit);
	printf("Store L1D Miss=%u\n", s->st_l1miss);
	printf("Store No available memory level=%u\n", s->st_na);
	printf("No Page Map Rejects=%u\n", s->nomap);
	printf("Unable to parse data source=%u\n", s->noparse);
}

/* One row of the Shared Data Cache Line Table, its numeric columns.  perf
 * derives two of them: "Total Loads" is the sum of the load outcomes it
 * tracks, "Total records" that plus the stores by outcome. */
static void print_perf_line(uint64_t addr, const hm_c2c_stats *s)
{
	uint32_t loads = s->ld_fbhit + s->ld_l1hit + s->ld_l2hit + s->ld_llchit + s->lcl_hitm +
			 s->rmt_hit + s->rmt_hitm + s->lcl_dram + s->rmt_dram;
	uint32_t recs = loads + s->st_l1hit + s->st_l1miss + s->st_na;

	printf("line=0x%" PRIx64 " %u %u %u %u %u %u %u %u %u %u %u %u %u %u %u %u %u %u\n",
	       addr, s->tot_hitm, s->lcl_hitm, s->rmt_hitm, recs, loads, s->store,
	       s->st_l1hit, s->st_l1miss, s->st_na, s->ld_fbhit, s->ld_l1hit, s->ld_l2hit,
	       s->ld_llchit, s->lcl_hitm, s->rmt_hit, s->rmt_hitm, s->lcl_dram, s->rmt_dram);
}

static void print_info(const hm_perf_reader *r)
{
	const hm_perf_info *in = hm_perf_reader_info(r);
	const hm_perf_build_id *bid;
	size_t i, nbid = hm_perf_reader_build_ids(r, &bid);

#define S(x) ((x) ? (x) : "-")
	printf("mode %s%s\n", in->pipe_mode ? "pipe" : "file",
	       in->byte_swapped ? " byte-swapped" : "");
	printf("hostname %s\nos_release %s\narch %s\nperf_version %s\ncpudesc %s\ncpuid %s\n",
	       S(in->hostname), S(in->os_release), S(in->arch), S(in->perf_version),
	       S(in->cpudesc), S(in->cpuid));
	printf("nr_cpus avail %u online %u\ncacheline_size %u\n", in->nr_cpus_avail,
	       in->nr_cpus_online, in->cacheline_size);
	printf("sample_time %" PRIu64 " %" PRIu64 "\n", in->first_sample_time,
	       in->last_sample_time);
	if (!in->pipe_mode)
		printf("data offset 0x%" PRIx64 " size 0x%" PRIx64 "\n", in->data_offset,
		       in->data_size);
	for (i = 0; i < nbid; i++) {
		size_t k;

		printf("build_id ");
		for (k = 0; k < bid[i].size; k++)
			printf("%02x", bid[i].build_id[k]);
		printf(" %s\n", bid[i].filename);
	}
	for (i = 0; i < in->nr_events; i++) {
		const hm_perf_event *e = &in->events[i];

		printf("event %zu name %s type %u config 0x%" PRIx64 " config1 0x%" PRIx64
		       " sample_type 0x%" PRIx64 " ids %zu", i, S(e->name), e->type, e->config,
		       e->config1, e->sample_type, e->nr_ids);
		if (e->type == 5)
			printf(" bp 0x%" PRIx64 "/%u/%u", e->bp_addr, e->bp_type, e->bp_len);
		printf("\n");
	}
#undef S
}

static int show_offsets;

static void print_record(const hm_perf_record *rec)
{
	const hm_sample *s = &rec->u.sample;
	const hm_perf_mmap *m = &rec->u.mmap;
	uint32_t i;

	if (show_offsets)
		printf("0x%" PRIx64 " ", rec->offset);
	switch (rec->kind) {
	case HM_PERF_SAMPLE:
		printf("sample ev=%u", s->attr);
		if (s->has & HM_HAS_IP)
			printf(" ip=0x%" PRIx64, s->ip);
		if (s->has & HM_HAS_TID)
			printf(" pid=%u tid=%u", s->pid, s->tid);
		if (s->has & HM_HAS_TIME)
			printf(" time=%" PRIu64, s->time);
		if (s->has & HM_HAS_ADDR)
			printf(" addr=0x%" PRIx64, s->addr);
		if (s->has & HM_HAS_ID)
			printf(" id=%" PRIu64, s->id);
		if (s->has & HM_HAS_CPU)
			printf(" cpu=%u", s->cpu);
		if (s->has & HM_HAS_PERIOD)
			printf(" period=%" PRIu64, s->period);
		if (s->has & HM_HAS_CALLCHAIN) {
			printf(" callchain=");
			for (i = 0; i < s->nr_callchain; i++)
				printf("%s0x%" PRIx64, i ? "," : "", s->callchain[i]);
		}
		if (s->has & HM_HAS_WEIGHT)
			printf(" weight=%" PRIu64, s->weight);
		if (s->has & HM_HAS_DATA_SRC)
			printf(" data_src=0x%" PRIx64, s->data_src);
		if (s->has & HM_HAS_PHYS_ADDR)
			printf(" phys=0x%" PRIx64, s->phys_addr);
		printf(" mode=%u\n", s->cpumode);
		break;
	case HM_PERF_MMAP:
		printf("%s pid=%d tid=%d start=0x%" PRIx64 " len=0x%" PRIx64 " pgoff=0x%" PRIx64,
		       m->mmap2 ? "mmap2" : "mmap", (int)m->pid, (int)m->tid, m->start, m->len,
		       m->pgoff);
		if (m->build_id_size) {
			printf(" build_id=");
			for (i = 0; i < m->build_id_size; i++)
				printf("%02x", m->build_id[i]);
		} else if (m->mmap2) {
			printf(" maj=%u min=%u ino=%" PRIu64, m->maj, m->min, m->ino);
		}
		if (m->mmap2)
			printf(" prot=%u flags=%u", m->prot, m->flags);
		printf(" file=%s\n", m->filename);
		break;
	case HM_PERF_COMM:
		printf("comm pid=%u tid=%u comm=%s%s\n", rec->u.comm.pid, rec->u.comm.tid,
		       rec->u.comm.comm, rec->u.comm.exec ? " exec" : "");
		break;
	case HM_PERF_FORK:
	case HM_PERF_EXIT:
		printf("%s pid=%u ppid=%u tid=%u ptid=%u\n",
		       rec->kind == HM_PERF_FORK ? "fork" : "exit", rec->u.task.pid,
		       rec->u.task.ppid, rec->u.task.tid, rec->u.task.ptid);
		break;
	case HM_PERF_LOST:
		printf("lost %" PRIu64 "\n", rec->u.lost);
		break;
	case HM_PERF_TEXT_POKE: {
		const hm_perf_text_poke *t = &rec->u.poke;

		printf("text_poke addr=0x%" PRIx64 " old_len=%u new_len=%u old=", t->addr,
		       t->old_len, t->new_len);
		for (i = 0; i < t->old_len; i++)
			printf("%02x", t->old_bytes[i]);
		printf(" new=");
		for (i = 0; i < t->new_len; i++)
			printf("%02x", t->new_bytes[i]);
		printf("\n");
		break;
	}
	default:
		printf("other type=%u\n", rec->type);
	}
}

static void track(const hm_perf_record *rec)
{
	if (rec->kind == HM_PERF_MMAP) {
		const hm_perf_mmap *m = &rec->u.mmap;

		add_map(m->cpumode == 1 || m->pid == (uint32_t)-1 ? -1 : (int64_t)m->pid,
			m->start, m->len);
	} else if (rec->kind == HM_PERF_FORK) {
		fork_maps(rec->u.task.pid, rec->u.task.ppid);
	}
}

int main(int argc, char **argv)
{
	int do_info = 0, do_rec = 0, do_c2c = 0, do_stat = 0, do_mem = 0, i, ret;
	long trunc_step = 0;
	int do_mutate = 0;
	char *membuf = NULL;
	const char *path = NULL;
	hm_perf_reader *r;
	hm_perf_record rec;
	uint64_t nrec = 0, nsamp = 0;
	struct timespec t0, t1;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--info"))
			do_info = 1;
		else if (!strcmp(argv[i], "--records"))
			do_rec = 1;
		else if (!strcmp(argv[i], "--c2c"))
			do_c2c = 1;
		else if (!strcmp(argv[i], "--c2c-perf"))
			do_c2c = 2;
		else if (!strcmp(argv[i], "--stat"))
			do_stat = 1;
		else if (!strcmp(argv[i], "--mem"))
			do_mem = 1;
		else if (!strcmp(argv[i], "--offsets"))
			show_offsets = 1;
		else if (!strcmp(argv[i], "--mutate"))
			do_mutate = do_mem = 1;
		else if (!strcmp(argv[i], "--truncate-every") && i + 1 < argc) {
			trunc_step = atol(argv[++i]);
			if (trunc_step <= 0) {
				fputs(usage, stderr);
				return 2;
			}
			do_mem = 1;
		}
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "perf-dump: unknown option %s\n%s", argv[i], usage);
			return 2;
		} else if (!path)
			path = argv[i];
		else {
			fputs(usage, stderr);
			return 2;
		}
	}
	if (!path) {
		fputs(usage, stderr);
		return 2;
	}
	if (!do_info && !do_c2c && !do_stat)
		do_rec = 1;
	hm_set_diag(diag, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (do_mem) {
		FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
		size_t len = 0, cap = 1 << 16, k;

		membuf = malloc(cap);
		if (!f || !membuf) {
			fprintf(stderr, "perf-dump: error: %s: cannot read\n", path);
			return 3;
		}
		while ((k = fread(membuf + len, 1, cap - len, f)) > 0) {
			len += k;
			if (len == cap && !(membuf = realloc(membuf, cap *= 2)))
				abort();
		}
		if (f != stdin)
			fclose(f);
		if (do_mutate) {
			mutations(path, membuf, len);
			free(membuf);
			return fflush(stdout) ? 3 : 0;
		}
		if (trunc_step) {
			truncations(path, membuf, len, (size_t)trunc_step);
			free(membuf);
			return fflush(stdout) ? 3 : 0;
		}
		r = hm_perf_reader_open_mem(membuf, len, path);
	} else {
		r = hm_perf_reader_open(path);
	}
	if (!r) {
		free(membuf);
		return 3;
	}
	if (do_info && !hm_perf_reader_info(r)->pipe_mode)
		print_info(r);
	while ((ret = hm_perf_reader_next(r, &rec)) > 0) {
		nrec++;
		if (do_rec)
			print_record(&rec);
		track(&rec);
		if (rec.kind != HM_PERF_SAMPLE)
			continue;
		nsamp++;
		if (do_c2c) {
			const hm_sample *s = &rec.u.sample;
			struct line *l = line_of(s->addr & ~63ull);

			hm_c2c_count(&l->st, s->data_src, s->addr,
				     mapped(s->pid, s->addr) && mapped(s->pid, s->ip));
		}
	}
	if (ret == 0 && do_info && hm_perf_reader_info(r)->pipe_mode)
		print_info(r);
	if (ret == 0 && do_c2c)
		print_c2c(do_c2c == 2);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (ret == 0 && do_stat) {
		double s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;

		printf("records %" PRIu64 " samples %" PRIu64 " compressed %d unknown_id %" PRIu64
		       "\n", nrec, nsamp, hm_perf_reader_info(r)->compressed,
		       hm_perf_reader_info(r)->nr_unknown_id);
		char line[256];
		long hwm = -1;
		FILE *st = fopen("/proc/self/status", "r");

		while (st && fgets(line, sizeof(line), st))
			if (sscanf(line, "VmHWM: %ld", &hwm) == 1)
				break;
		if (st)
			fclose(st);
		fprintf(stderr, "perf-dump: %.3f s, %.0f samples/s, peak RSS %ld kB\n", s,
			s > 0 ? nsamp / s : 0, hwm);
	}
	hm_perf_reader_close(r);
	free(membuf);
	free(maps);
	free(lines);
	if (fflush(stdout))
		return 3;
	return ret < 0 ? 3 : 0;
}
