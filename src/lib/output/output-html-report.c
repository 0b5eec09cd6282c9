/* The report as an HTML page.  The lines, their verdicts, evidence, fields
 * and code locations are the report JSON itself (hm_report_print_json()), put in
 * the page whole: what the report says and what the page draws cannot
 * differ.  Beside it, the layouts of the structs the samples fell in, with
 * their heat, from the binaries the attribution loaded. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/attribute.h"
#include "hitmap/output.h"
#include "base/opts.h"
#include "output/output-html.h"
#include "attr/attribute-lib.h"

/* Structs drawn below the lines: the most sampled first, at most this many
 * (a report names the few structs that matter; the rest are in the JSON). */
#define REPORT_STRUCTS 64

static int struct_layouts(hm_json *j, const hm_attr *a, const hm_profile *p)
{
	HM_OPTS(hm_layout_opts, lo, .cacheline_size = hm_attr_line_size(a), .expand = 1);
	size_t drawn = 0;
	int err;

	hm_json_key(j, "structs");
	hm_json_begin_array(j);
	for (size_t i = 0; i < p->nr_structs && drawn < REPORT_STRUCTS; i++) {
		const hm_profile_struct *ps = &p->structs[i];
		const hm_types *t;
		hm_type_id id;
		hm_layout *l;

		if (ps->kind != HM_PROFILE_STRUCT || !(t = hmi_attr_types_with(a, ps->name, &id)))
			continue;
		if (!(l = hm_layout_new(t, id, &lo))) {
			if (errno == ENOMEM)
				return -ENOMEM;
			continue;	/* not a complete record: its lines say enough */
		}
		/* the heat marks what contends: no lock or atomic marks */
		err = html_struct_json(j, l, NULL, ps, NULL);
		hm_layout_free(l);
		if (err)
			return err;
		drawn++;
	}
	hm_json_end_array(j);
	return 0;
}

int hm_report_print_html(FILE *out, hm_attr *a, const hm_heat *h, const hm_report_stats *st,
		   const struct hm_report_opts *uo)
{
	struct hm_report_opts o;
	struct html_buf rep, b;
	hm_profile *p;
	char title[512];
	uint64_t att = st->buckets[HM_ATTR_GLOBAL] + st->buckets[HM_ATTR_OBJECT] +
		       st->buckets[HM_ATTR_INSN];
	int err;

	if (HM_OPTS_TAKE(&o, uo, hm_report_opts))
		return -EINVAL;
	if ((err = html_buf_open(&rep)))
		return err;
	err = hm_report_print_json(rep.f, a, h, st, uo);
	if (err || (err = html_buf_close(&rep))) {
		html_buf_free(&rep);
		return err;
	}
	if (!(p = hm_heat_profile(h, o.input, hm_report_kind(st), st->samples, att))) {
		html_buf_free(&rep);
		return -ENOMEM;
	}
	snprintf(title, sizeof(title), "hitmap report: %s", o.input ? o.input : "-");
	if ((err = html_buf_open(&b))) {
		hm_profile_free(p);
		html_buf_free(&rep);
		return err;
	}
	html_page_head(&b.j, "report", title, hm_attr_line_size(a));
	err = struct_layouts(&b.j, a, p);
	hm_profile_free(p);
	if (err) {
		html_buf_free(&b);
		html_buf_free(&rep);
		return err;
	}
	err = html_page_finish(out, &b, &rep, "report", title);
	html_buf_free(&rep);
	return err;
}
