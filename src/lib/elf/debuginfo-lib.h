/* Internal to libhitmap, shared between its folders: the search for a
 * binary's debug file that hitmap/debuginfo.h describes (elf/debuginfo.c),
 * for the loaders and attribution. */
#ifndef HM_DEBUGINFO_LIB_H
#define HM_DEBUGINFO_LIB_H
#include "hitmap/binary.h"
#include "hitmap/debuginfo.h"

enum hm_debug_source {
	HM_DEBUG_SELF,		/* the file itself carries .debug_info */
	HM_DEBUG_BUILD_ID,	/* DIR/.build-id/xx/rest.debug */
	HM_DEBUG_DEBUGLINK,	/* .gnu_debuglink, CRC checked */
	HM_DEBUG_PERF_CACHE,	/* perf's ~/.debug/.build-id/xx/rest/debug */
	HM_DEBUG_DEBUGINFOD,	/* downloaded (or cached) by libdebuginfod */
};

/* Find the ELF file holding bin's DWARF, in the order hitmap/debuginfo.h
 * gives.  opts may be NULL (defaults).  Returns 0 and sets *debug (bin
 * itself or a new handle the caller closes with hm_binary_close()) and
 * *src; -ENODATA when nothing was found, with every place tried in the
 * message; -EINVAL for bad opts; -ENOMEM. */
int hmi_debuginfo_find(hm_binary *bin, const struct hm_debuginfo_opts *opts,
		       hm_binary **debug, enum hm_debug_source *src);

/* Drops the file's pages of bin's compressed sections from the resident
 * memory: once inflated (hmi_binary_section_at()), their inflated copies
 * are what is read. */
void hmi_debuginfo_drop_packed(const hm_binary *bin);

/* "itself", "build-id", "debuglink", "perf build-id cache", "debuginfod". */
const char *hmi_debug_source_name(enum hm_debug_source src);

#endif
