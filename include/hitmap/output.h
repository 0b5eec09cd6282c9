/* output: printing layouts — the pahole-compatible text body with hitmap's
 * annotations, the one-line --list form, and the JSON schema "hitmap/1".
 *
 * Every function writes to a caller-owned FILE* and allocates nothing the
 * caller must free.  They return 0 or a negative errno (-ENOMEM, -EINVAL for
 * a type that is not a complete struct/union/class, -EIO on a write error).
 */
#ifndef HITMAP_OUTPUT_H
#define HITMAP_OUTPUT_H
#include <stddef.h>
#include "hitmap/hitmap.h"
#include <stdio.h>
#include "hitmap/binary.h"
#include "hitmap/layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Lines hitmap adds to pahole's body all start, after the indentation, with
 * this marker, so `grep -v` on it gives back pahole's text exactly. */
#define HM_NOTE_PREFIX "/* hitmap: "

struct hm_print_opts {
	size_t sz;			/* sizeof(struct hm_print_opts): declare with HM_OPTS */
	unsigned cacheline_size;	/* 0 = 64 */
	unsigned expand : 1;		/* pahole -E: expand named member types inline */
	unsigned annotate : 1;		/* add hitmap's lines: straddlers, groups */
};

/* The body of struct/union/class `id` as `pahole -F dwarf -M
 * --suppress_force_paddings -C NAME` prints it (dwarves 1.24), except where
 * pahole is wrong (see hitmap-layout(1)), plus hitmap's annotation lines. */
int hm_print_layout(FILE *out, const hm_types *t, hm_type_id id, const struct hm_print_opts *o);

/* A typedef as `pahole -C TYPEDEF` prints it: the body of an anonymous
 * struct it names (`typedef struct {...} atomic_t;`), else one line
 * (`typedef struct spinlock spinlock_t;`). */
int hm_print_typedef(FILE *out, const hm_types *t, hm_type_id id, const struct hm_print_opts *o);

/* One `name<TAB>size<TAB>cachelines<TAB>holes` line (holes counted as
 * `pahole --sizes` counts them).  id may be a typedef of a struct: its name
 * stands in for an anonymous one. */
int hm_print_list_line(FILE *out, const hm_types *t, hm_type_id id, unsigned cacheline_size);

/* JSON documents (schema "hitmap/1", documented in hitmap-layout(1)): the
 * full layouts of ids[0..n), or the --list form when list is set.  An id may
 * be a typedef of a struct (as with -C TYPEDEF). */
int hm_print_layouts_json(FILE *out, const struct hm_json_binary *bin, const hm_types *t,
			  const hm_type_id *ids, size_t n, int expand, int list);

#ifdef __cplusplus
}
#endif
#endif
