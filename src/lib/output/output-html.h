/* Internal: the HTML page every --html output is, shared by the per-kind
 * files (output-html-layout.c, output-html-report.c, output-html-suggest.c).
 *
 * A page is a shell (inline CSS, inline script, both in output-html-page.c)
 * around JSON data blocks; the script draws the data.  The data of every
 * kind is built with the streaming JSON writer into memory, then written
 * into the page with `<` escaped, so no string in it can end the block. */
#ifndef HM_OUTPUT_HTML_H
#define HM_OUTPUT_HTML_H
#include <stdio.h>
#include "hitmap/heat.h"
#include "hitmap/layout.h"
#include "base/json.h"

/* A JSON document written into memory. */
struct html_buf {
	FILE *f;
	char *data;
	size_t len;
	hm_json j;
};

/* Open b for writing (0 or -ENOMEM); then hm_json calls on &b->j. */
int html_buf_open(struct html_buf *b);
/* Finish the document; 0, or -ENOMEM / -EIO (b is then freed). */
int html_buf_close(struct html_buf *b);
void html_buf_free(struct html_buf *b);

/* The page's style sheet and script (output-html-page.c). */
extern const char html_style[];
extern const char html_script[];

/* The page: begin (doctype, head with the style, the heading), one or more
 * data blocks, end (the script).  kind is "layout", "report", "diff" or
 * "suggest"; the script draws the block with id "hm-data". */
void html_page_begin(FILE *out, const char *kind, const char *title);
void html_page_data(FILE *out, const char *id, const char *json, size_t len);
int html_page_end(FILE *out);

/* The page data's opening (an object left open: add the kind's keys) and
 * the whole page around it: b is closed and freed; extra, a second
 * document (the report's JSON), goes in as the block "hm-extra". */
void html_page_head(hm_json *j, const char *kind, const char *title, unsigned line);
int html_page_finish(FILE *out, struct html_buf *b, const struct html_buf *extra,
		     const char *kind, const char *title);

struct hmi_typeclass;

/* One struct as the page draws it (an object; see hitmap(1), "HTML"):
 * name, size, line size, every field of the layout (path, offset, size,
 * bits, depth, leaf, lines, straddles, and its heat from ps when given),
 * holes, tail padding, cacheline groups.  name NULL: the layout's.  With
 * tc (lint's lock and atomic classes of the layout's type table), a member
 * that is a lock or an atomic, or holds one as lint counts it, says so
 * ("unit": "lock" or "atomic", "unit_type": the type that makes it one);
 * 0, or -ENOMEM. */
int html_struct_json(hm_json *j, const hm_layout *l, const char *name,
		     const hm_profile_struct *ps, struct hmi_typeclass *tc);

/* The counters the page's metric menu offers, as one object. */
void html_counts_json(hm_json *j, const hm_heat_counts *c);

#endif
