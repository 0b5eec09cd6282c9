/* Per-member heat beside `hitmap layout`'s printout (--profile / --heat).
 *
 * Text: the pahole-format body is printed unchanged and a note line
 * `/\* hitmap: heat PATH: LABEL *\/` follows each member that has samples;
 * a summary closes the struct.  JSON: a "heat" object in every member and
 * struct.  Nothing here allocates memory the caller must free. */
#ifndef HM_LAYOUT_HEAT_H
#define HM_LAYOUT_HEAT_H
#include <stdio.h>
#include "hitmap/heat.h"
#include "hitmap/output.h"

struct lh_source {
	const hm_profile *p;
	const char *name;	/* the --profile file or the --heat perf.data */
};

/* The body of `id` (a struct/union/class or a typedef) with heat notes.
 * 0 or a negative errno. */
int lh_print_text(FILE *out, const hm_types *t, hm_type_id id, const struct hm_print_opts *po,
		  const struct lh_source *src);

/* The JSON document of hm_print_layouts_json() with "heat" added to every
 * member and struct and "heat_source" to the top level.  0 or a negative
 * errno. */
int lh_print_json(FILE *out, const struct hm_json_binary *bin, const hm_types *t,
		  const hm_type_id *ids, size_t n, int expand, const struct lh_source *src);

/* The profile entry heat for type `id` is filed under, or NULL. */
const hm_profile_struct *lh_find(const hm_types *t, hm_type_id id, const hm_profile *p);

#endif
