/* Internal: taking a caller's options struct (see HM_OPTS in hitmap/hitmap.h).
 *
 * Every public options struct starts with `size_t sz`, the size the caller
 * was compiled with.  A smaller sz is an older caller: the fields it does not
 * have read as zero, their defaults.  A larger one is a newer caller: the
 * bytes this library does not know must be zero, since it cannot honour
 * them.  So a public function that takes `const struct hm_x_opts *uo` does
 *
 *	struct hm_x_opts oc;
 *	const struct hm_x_opts *o;
 *
 *	if (!HM_OPTS_VALID(uo, hm_x_opts))
 *		return -EINVAL;
 *	o = HM_OPTS_COPY(&oc, uo, hm_x_opts);
 *
 * and reads only o, which is NULL when uo is.
 */
#ifndef HM_OPTS_INTERNAL_H
#define HM_OPTS_INTERNAL_H
#include <stddef.h>

/* 0 when opts (sz bytes, of which this library knows the first known) is NULL
 * or valid; -EINVAL after a diagnostic naming `type` otherwise. */
int hm_opts_check(const void *opts, size_t sz, size_t known, const char *type);
/* dst (known bytes) = the first min(sz, known) bytes of opts, zero after;
 * returns dst, or NULL when opts is NULL. */
void *hm_opts_copy(void *dst, const void *opts, size_t sz, size_t known);

/* Both at once, for a function that reads its defaults from a local copy:
 * dst (known bytes) = opts as above, or all zeros (sz set) when opts is NULL.
 * 0, or -EINVAL after a diagnostic naming `type`. */
int hm_opts_take(void *dst, const void *opts, size_t sz, size_t known, const char *type);

#define HM_OPTS_VALID(opts, type) \
	(hm_opts_check((opts), (opts) ? (opts)->sz : 0, sizeof(struct type), "struct " #type) == 0)
#define HM_OPTS_COPY(dst, opts, type) \
	((const struct type *)hm_opts_copy((dst), (opts), (opts) ? (opts)->sz : 0, \
					   sizeof(struct type)))
#define HM_OPTS_TAKE(dst, opts, type) \
	hm_opts_take((dst), (opts), (opts) ? (opts)->sz : 0, sizeof(struct type), \
		     "struct " #type)

#endif
