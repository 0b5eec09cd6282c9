/* Internal: taking a caller's options struct (see HM_OPTS in hitmap/hitmap.h).
 *
 * Every public options struct starts with `size_t sz`, the size the caller
 * was compiled with.  A smaller sz is an older caller: the fields it does not
 * have read as zero, their defaults.  A larger one is a newer caller: the
 * bytes past the last field this library knows must be zero, since it cannot
 * honour them.  "Known" ends with that field, not with sizeof: a field a newer
 * header adds in what is padding here is a byte this library must refuse,
 * not ignore (libbpf's OPTS_VALID).  Flags are bool, never bitfields, so that
 * each new one is a byte of its own past the known end.
 *
 * A public function that takes `const struct hm_x_opts *uo` does
 *
 *	struct hm_x_opts o;
 *
 *	if (HM_OPTS_TAKE(&o, uo, hm_x_opts))
 *		return -EINVAL;
 *
 * and reads only o: the caller's fields, zero (the defaults) past its sz, and
 * all defaults when uo is NULL.  HM_OPTS_VALID and HM_OPTS_COPY are the two
 * halves, for a function that keeps "no options" apart (COPY gives NULL).
 *
 * Each struct's last known field is named once, in HM_OPTS_LAST_<type>
 * below; a function taking a struct that grew past it fails to compile.
 */
#ifndef HM_OPTS_INTERNAL_H
#define HM_OPTS_INTERNAL_H
#include <stddef.h>

/* The last field of each public options struct that this library knows. */
#define HM_OPTS_LAST_hm_check_opts new_label
#define HM_OPTS_LAST_hm_debuginfo_opts progress_ctx
#define HM_OPTS_LAST_hm_evidence_inputs lint_source
#define HM_OPTS_LAST_hm_heat_print_opts source
#define HM_OPTS_LAST_hm_html_opts source
#define HM_OPTS_LAST_hm_layout_opts assume_aligned
#define HM_OPTS_LAST_hm_load_opts threads
#define HM_OPTS_LAST_hm_perf_reader_opts keep_truncated
#define HM_OPTS_LAST_hm_pmu_opts sysfs
#define HM_OPTS_LAST_hm_print_hooks json_struct
#define HM_OPTS_LAST_hm_print_opts annotate
#define HM_OPTS_LAST_hm_profile_merge_opts force
#define HM_OPTS_LAST_hm_record_opts kmem
#define HM_OPTS_LAST_hm_report_opts input
#define HM_OPTS_LAST_hm_suggest_opts nr_apart
#define HM_OPTS_LAST_hm_timer_opts user_only

#define HM_OFFSETOFEND(type, field) \
	(offsetof(struct type, field) + sizeof(((struct type *)0)->field))
/* Bytes of struct type this library knows: up to the end of its last field.
 * Every use checks, at compile time, that only padding can follow
 * HM_OPTS_LAST_<type>: a field added past it fails the build until the
 * table above names it, unless it fits in that padding (a bool after a
 * bool); then the library refuses the new field as a newer caller's, so
 * the first test that sets it fails instead. */
#define HM_OPTS_KNOWN_(type, last)						\
	(HM_OFFSETOFEND(type, last) + 0 * sizeof(struct {			\
		_Static_assert(sizeof(struct type) - HM_OFFSETOFEND(type, last) <	\
			       _Alignof(struct type),				\
			       "HM_OPTS_LAST_" #type " is not its last field");	\
		char c;								\
	}))
#define HM_OPTS_KNOWN(type) HM_OPTS_KNOWN_(type, HM_OPTS_LAST_##type)

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
	(hm_opts_check((opts), (opts) ? (opts)->sz : 0, HM_OPTS_KNOWN(type), "struct " #type) == 0)
#define HM_OPTS_COPY(dst, opts, type) \
	((const struct type *)hm_opts_copy((dst), (opts), (opts) ? (opts)->sz : 0, \
					   HM_OPTS_KNOWN(type)))
#define HM_OPTS_TAKE(dst, opts, type) \
	hm_opts_take((dst), (opts), (opts) ? (opts)->sz : 0, HM_OPTS_KNOWN(type), \
		     "struct " #type)

#endif
