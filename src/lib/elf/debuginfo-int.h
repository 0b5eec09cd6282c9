/* Internal: the debug-file search by build-id alone (elf/debuginfo.c). */
#ifndef HM_DEBUGINFO_INTERNAL_H
#define HM_DEBUGINFO_INTERNAL_H
#include "elf/debuginfo-lib.h"

/* The search of hmi_debuginfo_find() by build-id alone (lower-case hex), for
 * binaries known only from a perf.data build-id table or the running
 * kernel's notes: the build-id places, perf's cache and debuginfod.  Returns
 * 0 and a malloc'ed path in *path_out, -ENODATA when not found (quietly:
 * callers decide whether that is worth a message), -EINVAL for a malformed
 * id, -ENOMEM. */
int hmi_debuginfo_find_by_id(const char *build_id, const struct hm_debuginfo_opts *opts,
			     char **path_out, enum hm_debug_source *src);

#endif
