/* debuginfo: where a binary's debug info lives.
 *
 * Distributions strip their binaries and keep the DWARF elsewhere: under
 * /usr/lib/debug by build-id (Debian's -dbg and -dbgsym packages), behind a
 * .gnu_debuglink name, in perf's build-id cache, or on a debuginfod server.
 * hm_types_load() (types.h), attribution (attribute.h) and hm_kernel_find()
 * look for a stripped binary's DWARF in the order gdb, perf and elfutils
 * use: the binary itself (when it has .debug_info); DIR/.build-id/xx/rest.debug
 * for each debug dir, then /usr/lib/debug; the binary's .gnu_debuglink
 * beside it, in its .debug/ folder and under each debug dir + the binary's
 * folder (CRC-32 checked); perf's build-id cache; debuginfod when
 * DEBUGINFOD_URLS is set and opts->offline is not.  Build-id places accept
 * a file only when its build-id equals the binary's.  A miss names every
 * place tried.  struct hm_debuginfo_opts below changes the places.
 *
 * Ownership: *path_out strings are malloc'ed, freed by the caller.
 */
#ifndef HITMAP_DEBUGINFO_H
#define HITMAP_DEBUGINFO_H
#include <stddef.h>
#include "hitmap/binary.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* The running kernel's types: its vmlinux with DWARF when one is found
 * (/usr/lib/debug/boot/vmlinux-RELEASE, /usr/lib/debug/lib/modules/RELEASE/
 * vmlinux, /boot/vmlinux-RELEASE, then by the build-id in /sys/kernel/notes
 * through the build-id places above), else /sys/kernel/btf/vmlinux.  A
 * vmlinux whose build-id is not the running kernel's is skipped.  `root` prefixes every path (NULL or "" for /; tests).
 * Returns 0 with a malloc'ed *path_out and *is_btf set; -ENODATA when there
 * is neither (the message says what was tried); -ENOMEM. */
int hm_kernel_find(const char *root, const struct hm_debuginfo_opts *opts,
		   char **path_out, int *is_btf);

/* The running kernel's build-id (lower-case hex, malloc'ed) from
 * ROOT/sys/kernel/notes; NULL + errno when it cannot be read. */
char *hm_kernel_build_id(const char *root);

#ifdef __cplusplus
}
#endif
#endif
