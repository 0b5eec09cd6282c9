/* perfdata: a streaming reader of perf.data files (the writer is
 * perfwrite.h).
 *
 * The reader handles file and pipe mode, both byte orders, several attrs
 * (told apart by ID / IDENTIFIER), sample_id_all trailers, zstd-compressed
 * data, and the header features hitmap uses.  It holds one record at a time
 * (a 256 KiB read buffer; compressed chunks are inflated one at a time): memory
 * does not grow with the number of samples.  Every malformed input is an
 * -EBADMSG with one diagnostic naming the file and an offset.
 *
 * Ownership: hm_perf_reader_open*() returns a reader freed by
 * hm_perf_reader_close().  Records returned by hm_perf_reader_next() and the
 * strings inside them are valid until the next call.  Header information
 * (hm_perf_reader_info) is valid until close.
 */
#ifndef HITMAP_PERFDATA_H
#define HITMAP_PERFDATA_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hm_perf_reader hm_perf_reader;

enum hm_perf_rec_kind {
	HM_PERF_SAMPLE = 1,
	HM_PERF_MMAP,		/* MMAP and MMAP2 */
	HM_PERF_COMM,
	HM_PERF_FORK,
	HM_PERF_EXIT,
	HM_PERF_LOST,
	HM_PERF_OTHER,		/* any other record; header only */
	HM_PERF_TEXT_POKE,	/* kernel text changed (jump labels, static calls, ...) */
};

/* Which optional fields a sample carries (from its attr's sample_type). */
enum hm_sample_has {
	HM_HAS_IP = 1u << 0, HM_HAS_TID = 1u << 1, HM_HAS_TIME = 1u << 2,
	HM_HAS_ADDR = 1u << 3, HM_HAS_CPU = 1u << 4, HM_HAS_PERIOD = 1u << 5,
	HM_HAS_DATA_SRC = 1u << 6, HM_HAS_WEIGHT = 1u << 7, HM_HAS_PHYS_ADDR = 1u << 8,
	HM_HAS_ID = 1u << 9, HM_HAS_CALLCHAIN = 1u << 10,
	HM_HAS_REGS_USER = 1u << 11, HM_HAS_RAW = 1u << 12,
	HM_HAS_REGS_INTR = 1u << 13,
};

typedef struct hm_sample {
	uint32_t has;		/* enum hm_sample_has */
	uint32_t attr;		/* index of the event (attr) in the file */
	uint16_t cpumode;	/* misc & 7: 1 kernel, 2 user, ... */
	uint32_t pid, tid, cpu;
	uint64_t ip, addr, time, id, period;
	uint64_t data_src;	/* union perf_mem_data_src, host order */
	uint64_t weight;	/* load latency (WEIGHT, or var1 of WEIGHT_STRUCT) */
	uint64_t phys_addr;
	uint64_t offset;	/* file offset of the record, for messages */
	/* CALLCHAIN, host order; points into the reader (valid until next) */
	uint32_t nr_callchain;
	const uint64_t *callchain;
	/* REGS_USER, host order, one per bit of the event's sample_regs_user
	 * from the lowest; nr 0 when the sample has none (a kernel thread) */
	uint32_t nr_regs_user;
	const uint64_t *regs_user;
	/* REGS_INTR (the interrupted registers: a kernel IP's are the
	 * kernel's), the same way by the event's sample_regs_intr */
	uint32_t nr_regs_intr;
	const uint64_t *regs_intr;
	/* Set by attribution, 0 from the reader: how addr was computed from
	 * the sampled registers (its rule, the operand's access kind) */
	uint8_t regs_rule, regs_access;
	/* RAW (a tracepoint's record, in the recording machine's byte
	 * order): points into the reader (valid until next) */
	uint32_t raw_size;
	const unsigned char *raw;
} hm_sample;

typedef struct hm_perf_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t prot, flags;
	uint16_t cpumode;
	const char *filename;
	unsigned char build_id[20];
	uint8_t build_id_size;	/* 0 when the record carries inode data instead */
	uint32_t maj, min;	/* MMAP2 inode form; 0 otherwise */
	uint64_t ino, ino_generation;
	unsigned mmap2 : 1;	/* MMAP2 (else the older MMAP) */
	uint64_t time;		/* its sample_id_all TIME; 0 when it has none */
} hm_perf_mmap;

typedef struct hm_perf_comm {
	uint32_t pid, tid;
	const char *comm;
	unsigned exec : 1;
	uint64_t time;		/* its sample_id_all TIME; 0 when it has none */
} hm_perf_comm;

typedef struct hm_perf_task {	/* FORK and EXIT */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
} hm_perf_task;

/* PERF_RECORD_TEXT_POKE: the kernel rewrote old_len bytes at addr (a
 * run-time address) with new_len bytes.  The byte pointers point into the
 * reader (valid until the next record). */
typedef struct hm_perf_text_poke {
	uint64_t addr;
	uint16_t old_len, new_len;
	const uint8_t *old_bytes, *new_bytes;
} hm_perf_text_poke;

typedef struct hm_perf_record {
	enum hm_perf_rec_kind kind;
	uint32_t type;		/* raw PERF_RECORD_* type */
	uint64_t offset;	/* file offset (or stream offset in pipe mode);
				 * inside compressed data, the chunk's offset */
	union {
		hm_sample sample;
		hm_perf_mmap mmap;
		hm_perf_comm comm;
		hm_perf_task task;
		uint64_t lost;
		hm_perf_text_poke poke;
	} u;
} hm_perf_record;

typedef struct hm_perf_event {
	const char *name;	/* from EVENT_DESC, or NULL */
	uint32_t type;		/* attr.type */
	uint64_t config, config1, config2;
	uint64_t sample_type;
	uint64_t bp_addr;	/* breakpoint events */
	uint32_t bp_type, bp_len;
	uint32_t precise_ip;
	uint64_t read_format, sample_period;
	unsigned sample_id_all : 1, freq : 1;
	size_t nr_ids;		/* sample ids selecting this event */
	const uint64_t *ids;
	uint64_t sample_regs_user;	/* which registers REGS_USER holds */
	uint64_t sample_regs_intr;	/* which registers REGS_INTR holds */
	/* A tracepoint event (type PERF_TYPE_TRACEPOINT): its format from the
	 * file's TRACING_DATA (the one whose id is config), or NULL. */
	const struct hm_perf_tracepoint *tp;
} hm_perf_event;

/* One field of a tracepoint's record, as its format file describes it
 * ("field:const void * ptr;	offset:16;	size:8;	signed:0;"). */
typedef struct hm_perf_tp_field {
	const char *name;	/* "ptr", "call_site", "name" */
	uint32_t offset, size;
	/* __data_loc: the field is a u32, (length << 16) | offset of the
	 * bytes in the record (a string's length counts its NUL) */
	unsigned data_loc : 1;
} hm_perf_tp_field;

/* A tracepoint's format, from the TRACING_DATA feature perf writes
 * (tools/perf/util/trace-event-read.c: its event files, system by
 * system). */
typedef struct hm_perf_tracepoint {
	uint64_t id;		/* "ID:" of the format: attr.config */
	const char *system, *name;	/* "kmem", "kmem_cache_alloc" */
	size_t nr_fields;
	const hm_perf_tp_field *fields;
} hm_perf_tracepoint;

typedef struct hm_perf_info {
	int pipe_mode;
	int byte_swapped;
	size_t nr_events;
	const hm_perf_event *events;
	uint32_t nr_cpus_avail, nr_cpus_online;	/* 0 if unknown */
	uint32_t cacheline_size;	/* from the CACHE feature, 0 if unknown */
	const char *hostname, *os_release, *arch, *cpuid, *cpudesc, *perf_version;
	uint64_t data_offset, data_size;
	uint64_t first_sample_time, last_sample_time;	/* SAMPLE_TIME, 0 if unknown */
	int compressed;		/* COMPRESSED records were seen */
	uint64_t nr_unknown_id;	/* samples skipped: id of no known event (as perf) */
	uint64_t features[4];	/* adds_features bits (file mode) or seen (pipe) */
	/* hm_perf_reader_opts.keep_truncated: the data section runs past the
	 * end of the file (a cut copy) or its size is 0 (perf was killed before
	 * writing it); records are read up to the last whole one, at
	 * truncated_at, where hm_perf_reader_next() ends (and warns).  The
	 * header's data size stays in data_size (0 for a killed perf); the
	 * features after the data are not read. */
	int truncated;
	uint64_t truncated_at;	/* file offset of the cut, once reached */
	/* TRACING_DATA (the feature in file mode, the record in pipe mode):
	 * the bytes as the file holds them, and the tracepoint formats read
	 * from them */
	const unsigned char *tracing_data;
	size_t tracing_data_size;
	size_t nr_tracepoints;
	const hm_perf_tracepoint *tracepoints;
	int tracing_big_endian;	/* the raw records' byte order */
	/* hm_perf_reader_opts.keep_truncated, a file cut after its whole data
	 * section (in the feature table or a feature's bytes, as perf script
	 * still reads it): every sample is read, the features past the cut
	 * are not: their bits here (a warning names them).  features_cut_at is
	 * the file's size then, 0 when the feature section is whole. */
	uint64_t features_lost[4];
	uint64_t features_cut_at;
} hm_perf_info;

/* The names of the features whose bits are set ("BUILD_ID, CACHE", perf's
 * HEADER_* names) into buf: its length, or the length needed. */
size_t hm_perf_feature_names(const uint64_t bits[4], char *buf, size_t n);

/* The field `name` of tp, or NULL. */
const hm_perf_tp_field *hm_perf_tp_field_find(const hm_perf_tracepoint *tp, const char *name);
/* Field f of s's raw record as an unsigned number (1, 2, 4 or 8 bytes, in
 * the recording's byte order, info->tracing_big_endian): 0, or -EBADMSG
 * when the record is too short for it or its size is none of those
 * (nothing reported: the caller names the sample). */
int hm_perf_tp_u64(const hm_perf_info *info, const hm_sample *s, const hm_perf_tp_field *f,
		   uint64_t *out);
/* A __data_loc string field of s: *str and *len (without the NUL) point
 * into the record.  0, or -EBADMSG when the location lies outside the record
 * or the bytes hold no NUL. */
int hm_perf_tp_str(const hm_perf_info *info, const hm_sample *s, const hm_perf_tp_field *f,
		   const char **str, size_t *len);

/* Open a perf.data file; path "-" reads standard input (pipe mode).  A
 * directory is a perf.data directory: its DIR/data, and for perf record
 * --threads (DIR_FORMAT version 1) its data.0, data.1 ... streams beside it,
 * whose records next() delivers merged in time order (each ring buffer's
 * stream is in time order itself); a file of version 1 alone is refused.
 * NULL + errno; the diagnostic names the file and offset. */
hm_perf_reader *hm_perf_reader_open(const char *path);
struct hm_perf_reader_opts {
	size_t sz;		/* sizeof(struct hm_perf_reader_opts): declare with HM_OPTS */
	/* Read a file whose data section is cut short as far as it goes
	 * instead of refusing it (hm_perf_info.truncated says it was). */
	bool keep_truncated;
};

/* hm_perf_reader_open() with options; NULL opts = the defaults. */
hm_perf_reader *hm_perf_reader_open_opts(const char *path, const struct hm_perf_reader_opts *opts);
/* Read from memory (fuzzing); buf must outlive the reader. */
hm_perf_reader *hm_perf_reader_open_mem(const void *buf, size_t len, const char *name);
void hm_perf_reader_close(hm_perf_reader *r);

/* Header information.  In pipe mode, events are known only once the attr
 * records have been read: call after the first hm_perf_reader_next(). */
const hm_perf_info *hm_perf_reader_info(const hm_perf_reader *r);

/* One entry of the build-id table perf writes after recording (BUILD_ID
 * feature; HEADER_BUILD_ID records in pipe mode). */
typedef struct hm_perf_build_id {
	const char *filename;
	unsigned char build_id[20];
	uint8_t size;		/* bytes of build_id used (20 for SHA-1) */
	uint16_t cpumode;	/* 1 kernel, 2 user, ... */
	int32_t pid;		/* -1 for the kernel and modules */
} hm_perf_build_id;

/* The build-id table: *ids points to the entries (valid until close).  In
 * pipe mode it holds the records read so far.  Returns the count. */
size_t hm_perf_reader_build_ids(const hm_perf_reader *r, const hm_perf_build_id **ids);

/* Next record: 1 with *rec filled, 0 at the end, negative errno on malformed
 * input (-EBADMSG, message "NAME: ... at offset 0x...").  Records come in
 * file order (a directory's streams merged by time), which is not time order
 * across CPUs: a caller whose result
 * depends on order sorts between FINISHED_ROUND records, as attribute does
 * for watchpoint samples.  Records that only carry header data (HEADER_ATTR, HEADER_FEATURE,
 * BUILD_ID) and COMPRESSED chunks are consumed by the reader (the records
 * inside the chunks come out); TRACING_DATA (its payload read into
 * hm_perf_info's tracepoints) and AUXTRACE (payload skipped) come as
 * HM_PERF_OTHER, as do FINISHED_ROUND, ID_INDEX
 * and other types. */
int hm_perf_reader_next(hm_perf_reader *r, hm_perf_record *rec);

/* Samples in bulk, for callers that count many: up to max of the SAMPLE
 * records that come next, into s[0 .. n - 1], each exactly as
 * hm_perf_reader_next() would deliver it.  Only records already read and
 * quick to decode are taken (host byte order, fixed-size fields only: no
 * callchain, raw data, registers ...); 0 means the next record, whatever it
 * is, must come from hm_perf_reader_next(), which also reports the end and
 * any error.  The two calls may alternate freely: records keep file order. */
size_t hm_perf_reader_next_samples(hm_perf_reader *r, hm_sample *s, size_t max);

#ifdef __cplusplus
}
#endif
#endif
