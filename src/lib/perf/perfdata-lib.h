/* Internal to libhitmap, shared between its folders: what attribution reads
 * of a perf.data reader beyond hitmap/perfdata.h (perf/perfdata.c). */
#ifndef HM_PERFDATA_LIB_H
#define HM_PERFDATA_LIB_H
#include "hitmap/perfdata.h"

/* The name of the file records are read from (for messages): the file
 * opened, a perf.data directory's DIR/data, or the DIR/data.N that the
 * last record hm_perf_reader_next() delivered came from (its offset is in
 * that file). */
const char *hmi_perf_reader_name(const hm_perf_reader *r);
/* The path the reader was opened with, a file or a perf.data directory, to
 * open it again; NULL for standard input, a descriptor or memory. */
const char *hmi_perf_reader_path(const hm_perf_reader *r);

#endif
