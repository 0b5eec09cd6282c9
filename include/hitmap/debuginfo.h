/* debuginfo: where a binary's debug info lives.
 *
 * Distributions strip their binaries and keep the DWARF elsewhere: under
 * /usr/lib/debug by build-id (Debian's -dbg and -dbgsym packages), behind a
 * .gnu_debuglink name, in perf's build-id cache, or on a debuginfod server.
 * hm_debuginfo_find() looks in the order gdb, perf and elfutils use and says
 * where it found the file, or every place it tried.
 *
 * Ownership: *debug is either bin itself or a new handle the caller closes
 * with hm_binary_close(); *path_out strings are malloc'ed, freed by the caller.
 */
#ifndef HITMAP_DEBUGINFO_H
#define HITMAP_DEBUGINFO_H
#include <stddef.h>
#include "hitmap/binary.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hm_debug_source {
	HM_DEBUG_SELF,		/* the file itself carries .debug_info */
	HM_DEBUG_BUILD_ID,	/* DIR/.build-id/xx/rest.debug */
	HM_DEBUG_DEBUGLINK,	/* .gnu_debuglink, CRC checked */
	HM_DEBUG_PERF_CACHE,	/* perf's ~/.debug/.build-id/xx/rest/debug */
	HM_DEBUG_DEBUGINFOD,	/* downloaded (or cached) by libdebuginfod */
};

struct hm_debuginfo_opts {
	size_t sz;			/* sizeof(struct hm_debuginfo_opts) */
	/* Searched in this order before /usr/lib/debug, for build-id paths
	 * and for the /DIR/<binary's folder>/<debuglink> place. */
	const char *const *debug_dirs;
	size_t ndebug_dirs;
	int no_system_dirs;		/* leave /usr/lib/debug out */
	/* perf's build-id cache; NULL: $HOME/.debug; "" to skip it */
	const char *buildid_dir;
	int offline;			/* never ask debuginfod */
	/* Called while debuginfod downloads (done and total bytes, total 0
	 * when unknown); return non-zero to cancel.  May be NULL. */
	int (*progress)(void *ctx, long done, long total);
	void *progress_ctx;
};

/* Find the ELF file holding bin's DWARF.  Order: bin itself (when it has
 * .debug_info); DIR/.build-id/xx/rest.debug for each debug dir, then
 * /usr/lib/debug; bin's .gnu_debuglink beside bin, in its .debug/ folder and
 * under each debug dir + bin's folder (CRC-32 checked); perf's build-id
 * cache; debuginfod when DEBUGINFOD_URLS is set and opts->offline is not.
 * Build-id places accept a file only when its build-id equals bin's.
 * opts may be NULL (defaults).  Returns 0 and sets *debug (bin itself or a
 * new handle) and *src; -ENODATA when nothing was found, with every place
 * tried in the message; -EINVAL for bad opts; -ENOMEM. */
int hm_debuginfo_find(hm_binary *bin, const struct hm_debuginfo_opts *opts,
		      hm_binary **debug, enum hm_debug_source *src);

/* The running kernel's types: its vmlinux with DWARF when one is found
 * (/usr/lib/debug/boot/vmlinux-RELEASE, /usr/lib/debug/lib/modules/RELEASE/
 * vmlinux, /boot/vmlinux-RELEASE, then by the build-id in /sys/kernel/notes
 * through the places hm_debuginfo_find() searches by build-id), else
 * /sys/kernel/btf/vmlinux.  A vmlinux whose build-id is not the running
 * kernel's is skipped.  `root` prefixes every path (NULL or "" for /; tests).
 * Returns 0 with a malloc'ed *path_out and *is_btf set; -ENODATA when there
 * is neither (the message says what was tried); -ENOMEM. */
int hm_kernel_find(const char *root, const struct hm_debuginfo_opts *opts,
		   char **path_out, int *is_btf);

/* The running kernel's build-id (lower-case hex, malloc'ed) from
 * ROOT/sys/kernel/notes; NULL + errno when it cannot be read. */
char *hm_kernel_build_id(const char *root);

/* "itself", "build-id", "debuglink", "perf build-id cache", "debuginfod". */
const char *hm_debug_source_name(enum hm_debug_source src);

#ifdef __cplusplus
}
#endif
#endif
