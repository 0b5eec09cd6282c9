/* Internal to libhitmap, shared between its folders: what the recorder
 * asks of a perf.data writer beyond hitmap/perfwrite.h (perf/perfwrite.c). */
#ifndef HM_PERFWRITE_LIB_H
#define HM_PERFWRITE_LIB_H
#include "hitmap/perfwrite.h"

/* Write out every record appended so far and a header that covers them
 * (without features), so that the file as it stands reads as a complete
 * recording: what a recorder that may be killed calls at each flush.
 * Freezes the events.  No-op for a compressed file.  0 or a negative
 * errno. */
int hmi_perf_writer_sync(hm_perf_writer *w);

#endif
