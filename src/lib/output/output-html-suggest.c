/* suggest as an HTML page: today's layout beside each proposal's.  The
 * numbers (cost, pairs separated, contention left) are the suggest JSON
 * itself, put in the page whole; the drawings are the layouts of today's
 * struct and of each proposal's hypothetical one.  Measured evidence (a
 * profile, or a recording attributed for suggest) colours both by the
 * loads and stores of each field: the proposal keeps the member paths, so
 * the same heat shows where each hot member lands.  Rules and lint are not
 * measurements and draw no heat. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/heat.h"
#include "hitmap/output.h"
#include "hitmap/suggest.h"
#include "base/opts.h"
#include "output/output-html.h"
#include "suggest/suggest-lib.h"

static int draw(hm_json *j, const hm_types *t, hm_type_id id, const char *name,
		const struct hm_layout_opts *lo, const hm_profile_struct *heat)
{
	hm_layout *l = hm_layout_new(t, id, lo);

	if (!l)
		return -errno;
	html_struct_json(j, l, name, heat);
	hm_layout_free(l);
	return 0;
}

/* The heat of a suggestion's measured evidence, in the shape the drawing
 * reads (fields by path; a sample is a load or a store).  The evidence keeps
 * no CPU lists, so none are shown.  0 with *out NULL when there is none. */
static int evidence_heat(const hm_suggestion *s, const hm_types *t, hm_profile_struct *ps,
			 hm_profile_field **fields)
{
	const hm_evidence *ev = hmi_suggestion_evidence(s);
	const hm_ev_field *ef;
	size_t n;

	*fields = NULL;
	memset(ps, 0, sizeof(*ps));
	if (!ev || hm_evidence_kind(ev) != HM_EVIDENCE_PROFILE)
		return 0;
	ef = hm_evidence_fields(ev, &n);
	if (!n)
		return 0;
	if (!(*fields = calloc(n, sizeof(**fields))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		(*fields)[i].path = ef[i].path;
		(*fields)[i].c.loads = ef[i].loads;
		(*fields)[i].c.stores = ef[i].stores;
		(*fields)[i].c.samples = ef[i].loads + ef[i].stores;
	}
	ps->name = hm_types_get(t, hm_suggestion_type(s))->name;
	ps->kind = HM_PROFILE_STRUCT;
	ps->nr_fields = n;
	ps->fields = *fields;
	return 0;
}

int hm_suggest_html(FILE *out, const struct hm_json_binary *bin,
		    const hm_suggestion *const *s, size_t n, const hm_types *t,
		    const struct hm_suggest_opts *uo)
{
	struct hm_suggest_opts o;
	struct html_buf sj, b;
	char title[512];
	int err;

	if (!bin || HM_OPTS_TAKE(&o, uo, hm_suggest_opts))
		return -EINVAL;
	HM_OPTS(hm_layout_opts, lo, .cacheline_size = hm_types_cacheline_size(t, o.cacheline_size),
		.assume_aligned = o.assume_aligned);
	if ((err = html_buf_open(&sj)))
		return err;
	err = hm_suggest_print_json(sj.f, bin, s, n, t, uo);
	if (err || (err = html_buf_close(&sj))) {
		html_buf_free(&sj);
		return err;
	}
	snprintf(title, sizeof(title), "hitmap suggest: %s", bin->path ? bin->path : "-");
	if ((err = html_buf_open(&b))) {
		html_buf_free(&sj);
		return err;
	}
	html_page_head(&b.j, "suggest", title, lo.cacheline_size);
	hm_json_key(&b.j, "suggestions");
	hm_json_begin_array(&b.j);
	for (size_t i = 0; i < n && !err; i++) {
		hm_type_id id = hm_suggestion_type(s[i]);
		const char *name = hm_types_get(t, id)->name;
		hm_profile_struct ps;
		hm_profile_field *pf;
		const hm_profile_struct *heat;

		if ((err = evidence_heat(s[i], t, &ps, &pf)))
			break;
		heat = pf ? &ps : NULL;
		hm_json_begin_object(&b.j);
		hm_json_kbool(&b.j, "heat", heat != NULL);
		hm_json_key(&b.j, "today");
		err = draw(&b.j, t, id, NULL, &lo, heat);
		hm_json_key(&b.j, "proposals");
		hm_json_begin_array(&b.j);
		for (size_t k = 0; !err && k < hm_suggestion_count(s[i]); k++)
			err = draw(&b.j, t, hm_suggestion_get(s[i], k)->type, name, &lo, heat);
		hm_json_end_array(&b.j);
		hm_json_end_object(&b.j);
		free(pf);
	}
	hm_json_end_array(&b.j);
	if (err) {
		html_buf_free(&b);
		html_buf_free(&sj);
		return err;
	}
	err = html_page_finish(out, &b, &sj, "suggest", title);
	html_buf_free(&sj);
	return err;
}
