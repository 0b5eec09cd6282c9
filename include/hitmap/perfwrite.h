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

/* Create path (truncating it).  NULL + errno. */
hm_perf_writer *hm_perf_writer_open(const char *path);

/* Declare an event before any record is written: its attr (copied; attr->size
 * is set if zero), its name for EVENT_DESC, and the sample ids that select it.
 * Returns the event index or a negative errno. */
int hm_perf_writer_add_event(hm_perf_writer *w, const struct perf_event_attr *attr,
			     const char *name, const uint64_t *ids, size_t nr_ids);

/* Append a record already in perf's format (header included), e.g. one read
 * from a kernel ring buffer. */
int hm_perf_writer_raw(hm_perf_writer *w, const void *rec, size_t len);

/* Encode and append a sample of event `s->attr` using that event's
 * sample_type (fields not in sample_type are ignored). */
int hm_perf_writer_sample(hm_perf_writer *w, const hm_sample *s);

/* Append COMM / MMAP2 / FORK / EXIT records (with sample_id_all trailers when
 * the first event has sample_id_all). */
int hm_perf_writer_comm(hm_perf_writer *w, uint32_t pid, uint32_t tid, const char *comm);
int hm_perf_writer_mmap2(hm_perf_writer *w, const hm_perf_mmap *m);
int hm_perf_writer_task(hm_perf_writer *w, int exit, const hm_perf_task *t);

/* Header features.  Strings are copied.  Unset features are omitted, except
 * that the writer always emits what `perf report` needs to open the file. */
struct hm_perf_features {
	const char *hostname, *os_release, *version, *arch, *cpudesc, *cpuid;
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint64_t total_mem_kb;
	const char *cmdline;	/* space-separated */
	uint64_t first_sample_time, last_sample_time;
	int with_topology;	/* write CPU/NUMA topology of this machine from sysfs */
};
int hm_perf_writer_features(hm_perf_writer *w, const struct hm_perf_features *f);

/* Write header and features, close, free.  Returns 0 or a negative errno. */
int hm_perf_writer_close(hm_perf_writer *w);
void hm_perf_writer_abort(hm_perf_writer *w);

#ifdef __cplusplus
}
#endif
#endif
