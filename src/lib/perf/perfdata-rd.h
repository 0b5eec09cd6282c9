/* Internal: the perf.data reader's state, shared by perfdata*.c. */
#ifndef HM_PERFDATA_RD_H
#define HM_PERFDATA_RD_H
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>
#include "hitmap/perfdata.h"
#include "base/diag.h"
#include "base/util.h"
#include "perf/perfdata-int.h"

/* Where each field of a fixed-size sample lies: byte offsets from the
 * record's start, with masks so that decoding needs no branch (an absent
 * field reads the record header and masks it to 0). */
struct pr_fixed {
	uint16_t ip, tid, time, addr, id, cpu, period, weight, data_src, phys_addr;
	uint64_t m_ip, m_tid, m_time, m_addr, m_id, m_cpu, m_period, m_weight,
		 m_data_src, m_phys_addr;
	uint32_t has;		/* enum hm_sample_has */
};

struct pr_event {
	struct perf_event_attr attr;	/* host order */
	uint64_t *ids;
	size_t nr_ids;
	const char *name;		/* in the reader's arena */
	int id_pos;			/* u64 index of ID/IDENTIFIER in a sample, -1 */
	unsigned trailer;		/* sample_id_all trailer bytes */
	unsigned regs_user, regs_intr;	/* popcounts of the register masks */
	int fixed;			/* samples hold only fixed-size fields */
	unsigned fixed_len;		/* their bytes after the header */
	struct pr_fixed fx;		/* their layout, when fixed */
};

/* The sample fields of 8 bytes each (none is variable-length). */
#define PR_SAMPLE_FIXED (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
	PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | \
	PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | \
	PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE | \
	PERF_SAMPLE_CODE_PAGE_SIZE)

struct pr_idslot {
	uint64_t id;
	uint32_t ev;
	uint32_t used;
};

/* The outer stream: buffered bytes of the data section (or pipe). */
struct pr_stream {
	unsigned char *buf;
	size_t cap, start, end;	/* valid bytes are buf[start, end) */
	uint64_t off;		/* input offset of buf[start] */
	uint64_t rd_off;	/* input offset of the next byte to read */
	uint64_t limit;		/* end of the data section (file mode) */
	int eof;
};

/* Direct-mapped cache of sample id -> event index + 1 (0 = empty). */
#define PR_IDC_SIZE 16
struct pr_idcache {
	uint64_t id;
	uint32_t ev1;
};

struct pr_zstd;

/* One input of a perf.data directory (perfdata-dir.c): its file, buffer and
 * compressed stream, swapped into the reader while it is read, and the
 * record at its head, not yet delivered (p points into its buffers, which
 * stay as they are until the input is read again). */
struct pr_input {
	char *name;
	int fd;
	const unsigned char *mem;
	size_t mem_len;
	int mem_direct;
	uint64_t file_size;
	struct pr_stream s;
	struct pr_zstd *z;
	int in_zstd, at_cut;
	/* the head */
	int have, done;
	const unsigned char *p;
	uint32_t type;
	uint16_t size;
	uint64_t off, time;
	uint64_t chunk;		/* the head's chunk (below) */
	uint64_t last;		/* time of its last record that had one */
	/* perf's reading order, which orders records of equal time: 2 MiB of
	 * each stream in turn, the main one first, then data.N as the
	 * directory lists them (rank) */
	uint32_t rank;
	uint64_t nchunk, csize, zchunk;
};

struct hm_perf_reader {
	char *name;
	char *path;		/* hmi_perf_reader_path() */
	int fd, own_fd, pipe;
	const unsigned char *mem;
	size_t mem_len;
	int mem_direct;		/* s.buf points into mem */
	int swap;
	uint64_t file_size;
	struct pr_stream s;
	struct pr_event *ev;
	size_t nr_ev, cap_ev;
	hm_perf_event *pub_ev;
	size_t cap_pub;
	struct pr_idslot *idmap;
	size_t idmap_cap, nr_idmap;
	struct pr_idcache idc[PR_IDC_SIZE];
	hm_perf_info info;
	hm_arena arena;		/* feature strings, event names */
	uint64_t *cc;		/* callchain in host order (swapped files) */
	size_t cc_cap;
	uint64_t regs[64];	/* REGS_USER in host order (swapped, unaligned) */
	uint64_t iregs[64];	/* REGS_INTR likewise */
	hm_perf_build_id *bids;
	size_t nr_bids, cap_bids;
	struct pr_zstd *z;
	int in_zstd;		/* the current record came from a compressed chunk */
	int err;		/* sticky: every later next() returns it */
	int keep_truncated;	/* hm_perf_reader_opts.keep_truncated */
	int at_cut;		/* the truncated data section's end was reached */
	/* HEADER_DIR_FORMAT: the version, and the feature's file offset */
	uint64_t dir_version, dir_format_off;
	int has_dir_format;
	/* A perf.data directory's streams (perfdata-dir.c): in[0] the main
	 * file's data section, in[1 ..] data.0, data.1 ...; nr_in 0 for one
	 * file.  cur is the one swapped into the reader's own fields. */
	struct pr_input *in;
	size_t nr_in, cur;
};

int hm_pr_pread(hm_perf_reader *r, void *dst, size_t n, uint64_t off, const char *what);
/* What a file that is no regular one is, for a message ("a FIFO, not a
 * regular file"). */
const char *hm_pr_file_kind(mode_t mode);
int hm_pr_attr_decode(hm_perf_reader *r, const unsigned char *p, size_t len,
		      struct perf_event_attr *a, uint64_t off);
int hm_pr_add_event(hm_perf_reader *r, const struct perf_event_attr *a,
		    const uint64_t *ids, size_t nr_ids);
void hm_pr_sync_events(hm_perf_reader *r);
int hm_pr_event_of_id(const hm_perf_reader *r, uint64_t id);
int hm_pr_dispatch(hm_perf_reader *r, hm_perf_record *rec, const unsigned char *p,
		   uint32_t type, size_t size, uint64_t off);
/* The next record of the stream the reader holds, undispatched: 1 with *p
 * (its header first), *type, *size and *off, 0 at its end (or the cut of a
 * truncated file), <0 error (reported, not yet sticky). */
int hm_pr_raw_next(hm_perf_reader *r, const unsigned char **p, uint32_t *type,
		   uint16_t *size, uint64_t *off);

/* perfdata-dir.c: a perf.data directory's data.N streams, read beside the
 * main file's, in time order */
int hm_pr_dir_open(hm_perf_reader *r, int dfd, const char *path);
int hm_pr_dir_next(hm_perf_reader *r, hm_perf_record *rec);
void hm_pr_dir_free(hm_perf_reader *r);

/* perfdata-rec.c: kernel records; 1 = deliver, 0 = skip, <0 = error */
int hm_pr_parse_kernel_record(hm_perf_reader *r, hm_perf_record *rec,
			      const unsigned char *p, size_t size);
void hm_pr_fixed_layout(struct pr_event *e);
/* The time a record carries (a sample's TIME, another kernel record's
 * sample_id_all trailer): 1 with *t, 0 when it has none or is too short to
 * hold it (its parse reports that). */
int hm_pr_record_time(hm_perf_reader *r, const unsigned char *p, uint32_t type,
		      size_t size, uint64_t *t);

/* perfdata-feat.c */
int hm_pr_read_features(hm_perf_reader *r, uint64_t table_off);
int hm_pr_feature(hm_perf_reader *r, int id, const unsigned char *p, size_t len,
		  uint64_t off);

/* perfdata-trace.c: the TRACING_DATA feature's formats */
int hm_pr_tracing_data(hm_perf_reader *r, const unsigned char *p, size_t len, uint64_t off);

int hm_pr_build_ids(hm_perf_reader *r, const unsigned char *p, size_t len, uint64_t off);

/* perfdata-zstd.c */
int hm_pr_zstd_feed(hm_perf_reader *r, const unsigned char *p, uint32_t type,
		    size_t size, uint64_t off);
int hm_pr_zstd_next(hm_perf_reader *r, const unsigned char **p, uint64_t *off);
int hm_pr_zstd_pending(const hm_perf_reader *r);
void hm_pr_zstd_free(hm_perf_reader *r);

#endif
