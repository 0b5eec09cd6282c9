/* Internal to libhitmap: the layout printers' hooks, through which the
 * heat printer (output-layout-heat.c) adds its lines and JSON fields while
 * a layout is printed. */
#ifndef HM_OUTPUT_INT_H
#define HM_OUTPUT_INT_H
#include "hitmap/output.h"
#include "base/json.h"

/* ---- Annotations: lines and fields added while printing ----
 *
 * The printers call these hooks at fixed places, so that what a caller adds
 * sits beside the member it is about without anyone reading the printed
 * text back.  Every hook may be NULL. */

/* A member of the text body, as the printer places it. */
struct hm_print_member {
	const hm_member *member;
	/* Its dotted path from the outermost record, spelt as hm_field.path
	 * (anonymous levels skipped, a base class by its type name); NULL for
	 * an unnamed member, and for members of a record printed inside a
	 * pointer or array member (no path reaches them) or nested deeper
	 * than hm_layout lists. */
	const char *path;
	uint64_t offset;	/* absolute (storage unit for bitfields) */
	uint64_t size;		/* as printed */
};

/* Where a hook adds lines; valid during the call only. */
typedef struct hm_print_notes hm_print_notes;

/* Add one line of hitmap's own: the indentation of the place, then
 * HM_NOTE_PREFIX, the text, " *\/".  0 or a negative errno. */
int hmi_print_note(hm_print_notes *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Where a JSON hook adds fields: to the object being written (a member, a
 * struct, or the document).  Valid during the call only; keys and values
 * alternate as in the document itself. */
typedef struct hm_json_writer hm_json_writer;

void hmi_json_writer_key(hm_json_writer *w, const char *key);
void hmi_json_writer_string(hm_json_writer *w, const char *s);	/* NULL writes null */
void hmi_json_writer_uint(hm_json_writer *w, uint64_t v);
void hmi_json_writer_bool(hm_json_writer *w, int v);
void hmi_json_writer_begin_object(hm_json_writer *w);
void hmi_json_writer_end_object(hm_json_writer *w);
void hmi_json_writer_begin_array(hm_json_writer *w);
void hmi_json_writer_end_array(hm_json_writer *w);

struct hm_print_hooks {
	size_t sz;		/* sizeof(struct hm_print_hooks) */
	void *ctx;		/* passed to every hook */
	/* text: lines after the member's line (its last, for an inline record) */
	void (*member_notes)(void *ctx, const struct hm_print_member *m, hm_print_notes *n);
	/* text: lines before the closing line of the outermost record `id` (as
	 * given: a typedef stays a typedef), after pahole's summary comments */
	void (*end_notes)(void *ctx, hm_type_id id, hm_print_notes *n);
	/* JSON: fields after "binary" at the top of the document */
	void (*json_top)(void *ctx, hm_json_writer *w);
	/* JSON: fields at the end of each member object; id is the struct's,
	 * as given */
	void (*json_member)(void *ctx, const hm_layout *l, hm_type_id id, const hm_field *f,
			    hm_json_writer *w);
	/* JSON: fields at the end of each struct object; id as given */
	void (*json_struct)(void *ctx, const hm_layout *l, hm_type_id id, hm_json_writer *w);
};

/* hm_layout_print() or, for a typedef, hm_layout_print_typedef(), with the text
 * hooks of h called (h may be NULL).  -EINVAL also for a bad h->sz. */
int hmi_layout_print_hooked(FILE *out, const hm_types *t, hm_type_id id,
			   const struct hm_print_opts *o, const struct hm_print_hooks *h);

/* hm_layouts_print_json() (not the list form) with the JSON hooks of h. */
int hmi_layouts_print_json_hooked(FILE *out, const struct hm_json_binary *bin,
				 const hm_types *t, const hm_type_id *ids, size_t n, int expand,
				 const struct hm_print_hooks *h);

/* The internal writer behind a hook's hm_json_writer. */
hm_json *hmi_json_writer_json(hm_json_writer *w);

#endif
