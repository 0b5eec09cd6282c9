/* perfwrite: writing standard perf.data files (file mode) that `perf script`
 * and `perf c2c report` read.  Used by `hitmap record` and by the tests'
 * sample generators.
 *
 * Usage: open, add every event (attr + ids), write records in time order,
 * set features, close.  The header and feature section are written at close.
 *
 * Ownership: hm_perf_writer_open() returns a writer that hm_perf_writer_close()
 * finishes and frees (also on error paths); hm_perf_writer_abort() frees it and
 * removes the partial file.
 */
#ifndef HITMAP_PERFWRITE_H
#define HITMAP_PERFWRITE_H
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include "hitmap/perfdata.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hm_perf_writer hm_perf_writer;

/* Create path (truncating it; mode 0600, as perf record).  NULL + errno. */
hm_perf_writer *hm_perf_writer_open(const char *path);

/* Write the file in the byte order opposite to the host's (for testing
 * readers); call before add_event.  Raw records are then refused. */
int hm_perf_writer_set_swap(hm_perf_writer *w, int swap);

/* Compress the data section like `perf record -z`: records are gathered in
 * blocks of `block` bytes, each block is flushed into one continuous zstd
 * stream (level `level`) and the output is cut into COMPRESSED records of at
 * most `chunk` bytes (COMPRESSED2 when v2), so records straddle chunks.  Adds
 * the COMPRESSED feature.  Call before add_event. */
int hm_perf_writer_set_compress(hm_perf_writer *w, int level, size_t block, size_t chunk,
				int v2);

/* Declare an event before any record is written: its attr (copied; the copy's
 * size is set to sizeof(struct perf_event_attr), so zero the fields you do not
 * use), its name for EVENT_DESC, and the sample ids that select it.
 * Returns the event index or a negative errno. */
int hm_perf_writer_add_event(hm_perf_writer *w, const struct perf_event_attr *attr,
			     const char *name, const uint64_t *ids, size_t nr_ids);

/* Append a record already in perf's format (header included), e.g. one read
 * from a kernel ring buffer. */
int hm_perf_writer_raw(hm_perf_writer *w, const void *rec, size_t len);

/* Append a record followed by payload bytes that its size does not count
 * (AUXTRACE, TRACING_DATA: perf's convention for bulk data). */
int hm_perf_writer_raw_payload(hm_perf_writer *w, const void *rec, size_t len,
			       const void *payload, size_t plen);

/* Encode and append a sample of event `s->attr` using that event's
 * sample_type (fields not in sample_type are ignored).  RAW is s->raw
 * (zero-padded to 8 bytes, as the kernel writes it) when HM_HAS_RAW is
 * set, else four zero bytes. */
int hm_perf_writer_sample(hm_perf_writer *w, const hm_sample *s);

/* Append COMM / MMAP2 / FORK / EXIT records (with sample_id_all trailers when
 * the first event has sample_id_all).  MMAP2 takes the build-id form when
 * m->build_id_size > 0, else maj/min/ino/ino_generation; cpumode 0 = user. */
int hm_perf_writer_comm(hm_perf_writer *w, uint32_t pid, uint32_t tid, const char *comm);
int hm_perf_writer_mmap2(hm_perf_writer *w, const hm_perf_mmap *m);
int hm_perf_writer_task(hm_perf_writer *w, int exit, const hm_perf_task *t);
/* Append a PERF_RECORD_TEXT_POKE (kernel-mode, with its trailer). */
int hm_perf_writer_text_poke(hm_perf_writer *w, const hm_perf_text_poke *t);

/* Header features.  Strings are copied.  The writer always writes HOSTNAME,
 * OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM, CMDLINE,
 * EVENT_DESC, CPU_TOPOLOGY, NUMA_TOPOLOGY, SAMPLE_TIME and MEM_TOPOLOGY (perf
 * c2c report needs the topologies); fields left zero/NULL take this machine's
 * values (uname, sysconf) and SAMPLE_TIME the samples' time range.
 * nr_cpus_avail must exceed every sample's cpu.  Without with_topology the
 * topology is one socket and one NUMA node holding every cpu. */
struct hm_perf_features {
	const char *hostname, *os_release, *version, *arch, *cpudesc, *cpuid;
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint64_t total_mem_kb;
	const char *cmdline;	/* space-separated */
	uint64_t first_sample_time, last_sample_time;
	int with_topology;	/* write CPU/NUMA topology of this machine from sysfs */
};
int hm_perf_writer_features(hm_perf_writer *w, const struct hm_perf_features *f);

/* Add a header feature with a payload already in perf's format (copied),
 * for features the writer does not produce itself; id 0..255, not one the
 * writer always writes (-EEXIST). */
int hm_perf_writer_add_feature(hm_perf_writer *w, int id, const void *data, size_t len);

/* Write header and features, close, free.  Returns 0 or a negative errno. */
int hm_perf_writer_close(hm_perf_writer *w);
void hm_perf_writer_abort(hm_perf_writer *w);

#ifdef __cplusplus
}
#endif
#endif
