/* hitmap — find false sharing and bad cacheline layouts.
 *
 * Conventions for the whole library:
 *  - int functions return 0 (or a count) on success and a negative errno on failure;
 *    functions returning pointers return NULL and set errno.
 *  - -ENODATA: the input lacks what was asked (no DWARF, no samples);
 *    -EBADMSG: the input is malformed; -ENOENT: a named thing does not exist.
 *  - The library never writes to stdout or stderr.  Human-readable detail about a
 *    failure goes to the diagnostics callback (hm_set_diag), one line per call, in
 *    git's style: lower case, no full stop, the object first
 *    ("perf.data: truncated sample at offset 0x1f38 (need 72 bytes, have 40)").
 *  - Every header states who frees what.  Destructors accept NULL.
 */
#ifndef HITMAP_HITMAP_H
#define HITMAP_HITMAP_H
#include <stddef.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HM_VERSION "0.1.0"

/* Options structs (struct hm_layout_opts, hm_print_opts, ...) start with
 * `size_t sz`, the size of the struct the caller was compiled with, so that
 * a field added at the end keeps old programs working: the library reads the
 * first sz bytes and takes the fields past them as 0 (their defaults), and it
 * refuses a struct whose bytes past the end of the last field it knows are
 * set (-EINVAL, or NULL with errno EINVAL), or whose sz is 0.  Flags are
 * bool, one byte each, so that a flag a newer header adds is such a byte.
 * Declare one with every other field zero, padding included, and sz set:
 *
 *	HM_OPTS(hm_layout_opts, lo, .cacheline_size = 64, .expand = 1);
 *	l = hm_layout_new(t, id, &lo);
 *
 * (GNU C: a statement expression, as libbpf's LIBBPF_OPTS.)  Passing NULL
 * instead means all defaults, for every function that takes options. */
#define HM_OPTS(TYPE, NAME, ...)						\
	struct TYPE NAME = ({							\
		memset(&NAME, 0, sizeof(struct TYPE));				\
		(struct TYPE){ .sz = sizeof(struct TYPE), __VA_ARGS__ };	\
	})

enum hm_diag_level {
	HM_DIAG_ERROR = 0,	/* the operation fails; the callback explains why */
	HM_DIAG_WARNING = 1,	/* the result is usable but incomplete or suspicious */
	HM_DIAG_NOTE = 2,	/* information a user may want */
	HM_DIAG_DEBUG = 3,
};

/* Receives one diagnostic line (no trailing newline).  msg is valid only during
 * the call. */
typedef void (*hm_diag_fn)(void *ctx, enum hm_diag_level level, const char *msg);

/* Install the process-wide diagnostics callback; NULL discards diagnostics.
 * Not thread-safe against concurrent library calls: set it once at start-up. */
void hm_set_diag(hm_diag_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
