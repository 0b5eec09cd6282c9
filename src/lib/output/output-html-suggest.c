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
#include "suggest/suggest-lib.h"
#include "base/opts.h"
#include "output/output-html.h"
#include "check/check-lib.h"

static int draw(hm_json *j, const hm_types *t, hm_type_id id, const char *name,
		const struct hm_layout_opts *lo, const hm_profile_struct *heat,
		struct hmi_typeclass *tc)
{
	hm_layout *l = hm_layout_new(t, id, lo);
	int err;

	if (!l)
		return -errno;
	err = html_struct_json(j, l, name, heat, tc);
	hm_layout_free(l);
	return err;
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
	if (!ev || hmi_evidence_kind(ev) != HM_EVIDENCE_PROFILE)
		return 0;
	ef = hmi_evidence_fields(ev, &n);
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

/* Why suggest counts a struct's lines from the object's start, in the
 * order suggest itself decides it: an alignment of a whole line, then
 * --assume-aligned, a slab cache made with SLAB_HWCACHE_ALIGN (a kernel),
 * and last a rule file's `placement line-aligned`, which the run's options
 * carry as assume_aligned for this struct alone.  NULL when the object may
 * start anywhere its alignment allows. */
static const char *placement(const hm_suggestion *s, const hm_types *t,
			     const struct hm_suggest_opts *o, unsigned L, char *buf, size_t len)
{
	const hm_suggest_stats *st = hmi_suggestion_today(s);
	const char *name = hm_types_get(t, hm_suggestion_type(s))->name;
	const hm_evidence *ev = hmi_suggestion_evidence(s);
	const char *src = ev ? hmi_evidence_source(ev) : NULL, *where;

	if (!st->base_known)
		return NULL;
	if (st->alignment >= L)
		snprintf(buf, len, "its alignment (%u bytes) is a multiple of the line", st->alignment);
	else if (o->assume_aligned)
		snprintf(buf, len, "--assume-aligned");
	else if (o->style == HM_STYLE_KERNEL && (where = hmi_kslab_where(name)) &&
		 st->size > L / 2)
		snprintf(buf, len, "its slab cache is created with SLAB_HWCACHE_ALIGN (%s)", where);
	else if (src && !strncmp(src, "rules ", 6))
		snprintf(buf, len, "`placement line-aligned` for %s in %s", name, src);
	else
		snprintf(buf, len, "`placement line-aligned` for %s in the run's rule files", name);
	return buf;
}

int hm_suggest_print_html(FILE *out, const struct hm_json_binary *bin,
		    const hm_suggestion *const *s, size_t n, const hm_types *t,
		    const struct hm_suggest_opts *uo)
{
	struct hm_suggest_opts o;
	struct html_buf sj, b;
	struct hmi_typeclass *tc;
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
	/* locks and atomics marked as lint counts them, on both sides */
	if (!(tc = hmi_typeclass_new(t, NULL))) {
		html_buf_free(&sj);
		return -ENOMEM;
	}
	if ((err = html_buf_open(&b))) {
		hmi_typeclass_free(tc);
		html_buf_free(&sj);
		return err;
	}
	html_page_head(&b.j, "suggest", title, lo.cacheline_size);
	hm_json_key(&b.j, "suggestions");
	hm_json_begin_array(&b.j);
	for (size_t i = 0; i < n && !err; i++) {
		hm_type_id id = hm_suggestion_type(s[i]);
		const char *name = hm_types_get(t, id)->name;
		/* the object starts where suggest says, the rules' placement
		 * included, and each proposal keeps that start */
		HM_OPTS(hm_layout_opts, slo, .cacheline_size = lo.cacheline_size,
			.assume_aligned = hmi_suggestion_today(s[i])->base_known);
		char why[256];
		const char *place = placement(s[i], t, &o, lo.cacheline_size, why, sizeof(why));
		hm_profile_struct ps;
		hm_profile_field *pf;
		const hm_profile_struct *heat;

		if ((err = evidence_heat(s[i], t, &ps, &pf)))
			break;
		heat = pf ? &ps : NULL;
		hm_json_begin_object(&b.j);
		hm_json_kbool(&b.j, "heat", heat != NULL);
		if (place)
			hm_json_kstr(&b.j, "placement", place);
		hm_json_key(&b.j, "today");
		err = draw(&b.j, t, id, NULL, &slo, heat, tc);
		hm_json_key(&b.j, "proposals");
		hm_json_begin_array(&b.j);
		for (size_t k = 0; !err && k < hm_suggestion_count(s[i]); k++)
			err = draw(&b.j, t, hm_suggestion_get(s[i], k)->type, name, &slo, heat, tc);
		hm_json_end_array(&b.j);
		hm_json_end_object(&b.j);
		free(pf);
	}
	hm_json_end_array(&b.j);
	hmi_typeclass_free(tc);
	if (err) {
		html_buf_free(&b);
		html_buf_free(&sj);
		return err;
	}
	err = html_page_finish(out, &b, &sj, "suggest", title);
	html_buf_free(&sj);
	return err;
}
