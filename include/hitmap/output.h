/* output: printing layouts — the pahole-compatible text body with hitmap's
 * annotations, the one-line summary of a struct (name, size, holes,
 * cachelines), and the JSON schema "hitmap/1".
 *
 * Every function writes to a caller-owned FILE* and allocates nothing the
 * caller must free.  They return 0 or a negative errno (-ENOMEM, -EINVAL for
 * a type that is not a complete struct/union/class, -EIO on a write error).
 */
#ifndef HITMAP_OUTPUT_H
#define HITMAP_OUTPUT_H
#include <stdbool.h>
#include <stddef.h>
#include "hitmap/hitmap.h"
#include <stdio.h>
#include "hitmap/binary.h"
#include "hitmap/heat.h"
#include "hitmap/layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Lines hitmap adds to pahole's body all start, after the indentation, with
 * this marker, so `grep -v` on it gives back pahole's text exactly. */
#define HM_NOTE_PREFIX "/* hitmap: "

struct hm_print_opts {
	size_t sz;			/* sizeof(struct hm_print_opts): declare with HM_OPTS */
	unsigned cacheline_size;	/* 0 = the table's (hm_types_cacheline_size()) */
	bool expand;		/* pahole -E: expand named member types inline */
	bool annotate;		/* add hitmap's lines: straddlers, groups */
};

/* The body of struct/union/class `id` as `pahole -F dwarf -M
 * --suppress_force_paddings -C NAME` prints it (dwarves 1.24), except where
 * pahole is wrong (see hitmap-layout(1)), plus hitmap's annotation lines. */
int hm_layout_print(FILE *out, const hm_types *t, hm_type_id id, const struct hm_print_opts *o);

/* A typedef as `pahole -C TYPEDEF` prints it: the body of an anonymous
 * struct it names (`typedef struct {...} atomic_t;`), else one line
 * (`typedef struct spinlock spinlock_t;`). */
int hm_layout_print_typedef(FILE *out, const hm_types *t, hm_type_id id,
			    const struct hm_print_opts *o);

/* One `name<TAB>size<TAB>holes<TAB>cachelines` line: the columns of
 * `pahole --sizes` (holes counted as it counts them), then the cacheline
 * count.  id may be a typedef of a struct: its name stands in for an
 * anonymous one.  cacheline_size 0: the table's (hm_types_cacheline_size()). */
int hm_layout_print_list_line(FILE *out, const hm_types *t, hm_type_id id,
			      unsigned cacheline_size);

/* JSON documents (schema "hitmap/1", documented in hitmap-layout(1)): the
 * full layouts of ids[0..n), or, when list is set, one summary per struct
 * (hm_layout_print_list_line()'s numbers).  An id may be a typedef of a
 * struct: its name stands in for an anonymous one. */
int hm_layouts_print_json(FILE *out, const struct hm_json_binary *bin, const hm_types *t,
			  const hm_type_id *ids, size_t n, int expand, int list);

/* ---- Heat beside layouts: a profile's counters next to each member ---- */

struct hm_heat_print_opts {
	size_t sz;			/* sizeof(struct hm_heat_print_opts) */
	const hm_profile *profile;
	const char *source;		/* the profile's or perf.data's name, for the notes */
};

/* The body of `id` (a struct/union/class or a typedef, as
 * hm_layout_print() and hm_layout_print_typedef() take it) with a line
 * `/\* hitmap: heat PATH: LABEL *\/` (hm_heat_field_label()) after each
 * member that has samples, and before the closing line the samples of the
 * struct in the profile and the paths the profile has but the layout has
 * not.  The profile entry is the one named as id, else as the struct a
 * typedef names. */
int hm_layout_print_heat(FILE *out, const hm_types *t, hm_type_id id,
			 const struct hm_print_opts *o, const struct hm_heat_print_opts *ho);

/* The layout JSON of hm_layouts_print_json() with "heat_source" after
 * "binary", a "heat" object (the counters of every profile field in the
 * member, its CPUs; for an anonymous member, the sum of its members') in
 * every member, and in every struct one with the struct's total,
 * "in_profile" and the "gone" paths.  Documented in hitmap-layout(1). */
int hm_layouts_print_json_heat(FILE *out, const struct hm_json_binary *bin,
			       const hm_types *t, const hm_type_id *ids, size_t n, int expand,
			       const struct hm_heat_print_opts *ho);

/* ---- HTML: one self-contained page ----
 *
 * A page draws each struct on its cachelines: one row per line, bytes to
 * scale, members as blocks coloured (and patterned, and labelled) by the
 * heat metric chosen in the page, holes and padding hatched, straddlers
 * marked at the boundary, cacheline groups bracketed with their span; a
 * table beside it lists every member.  Its CSS and script are inline and
 * written here: the page fetches nothing.  The data it draws is in the
 * page as JSON ("schema": "hitmap-html/1"), every member with its offset
 * and size as the layout JSON has them; documented in hitmap(1). */

struct hm_html_opts {
	size_t sz;			/* sizeof(struct hm_html_opts): declare with HM_OPTS */
	/* the page's heading; NULL: "hitmap layout: PATH" or "hitmap diff:
	 * OLD → NEW" */
	const char *title;
	unsigned cacheline_size;	/* 0 = 64 */
	bool expand;		/* lay out named member structs too (pahole -E) */
	const hm_profile *profile;	/* heat of the layouts (may be NULL) */
	const char *source;		/* the profile's or perf.data's name */
};

/* The layouts of ids[0..n) (ids as hm_layouts_print_json() takes them),
 * with the heat of o->profile beside each member when it is set. */
int hm_layouts_print_html(FILE *out, const struct hm_json_binary *bin, const hm_types *t,
		    const hm_type_id *ids, size_t n, const struct hm_html_opts *o);

/* Two builds' layouts side by side: for each struct name in names[0..n)
 * found in both tables, the old layout and the new, members that moved
 * linked to each other; the findings of the comparison (hm_diff()) above
 * them.  old_label / new_label name the two builds. */
struct hm_findings;
int hm_diff_print_html(FILE *out, const hm_types *old_t, const hm_types *new_t,
		 const char *const *names, size_t n, const struct hm_findings *f,
		 const char *old_label, const char *new_label, const struct hm_html_opts *o);

#ifdef __cplusplus
}
#endif
#endif
