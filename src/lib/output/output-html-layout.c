/* HTML pages of layouts (layout --html, with heat) and of diff (two builds
 * side by side). */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/findings.h"
#include "hitmap/output.h"
#include "base/opts.h"
#include "output/output-html.h"
#include "check/check-lib.h"

/* The profile entry heat for `ty` is filed under: its name, else the
 * struct's a typedef names (as the layout's heat notes choose it). */
static const hm_profile_struct *entry_for(const hm_types *t, hm_type_id asked, hm_type_id id,
					  const hm_profile *p)
{
	const hm_type *ty = hm_types_get(t, asked), *rec = hm_types_get(t, id);
	const hm_profile_struct *ps = NULL;

	if (!p)
		return NULL;
	if (ty && ty->name)
		ps = hm_profile_find_struct(p, ty->name);
	if (!ps && rec && rec->name)
		ps = hm_profile_find_struct(p, rec->name);
	return ps && ps->kind == HM_PROFILE_STRUCT ? ps : NULL;
}

int hm_layouts_print_html(FILE *out, const struct hm_json_binary *bin, const hm_types *t,
		    const hm_type_id *ids, size_t n, const struct hm_html_opts *uo)
{
	struct hm_html_opts o;
	struct html_buf b;
	char title[512];
	unsigned line;
	int err;

	if (!bin || HM_OPTS_TAKE(&o, uo, hm_html_opts))
		return -EINVAL;
	line = o.cacheline_size ? o.cacheline_size
	       : bin->cacheline_size ? bin->cacheline_size : hm_types_cacheline_size(t, 0);
	HM_OPTS(hm_layout_opts, lo, .cacheline_size = line, .expand = o.expand);
	struct hmi_typeclass *tc = hmi_typeclass_new(t, NULL);

	snprintf(title, sizeof(title), "hitmap layout: %s", bin->path ? bin->path : "-");
	if (!tc)
		return -ENOMEM;
	if ((err = html_buf_open(&b))) {
		hmi_typeclass_free(tc);
		return err;
	}
	html_page_head(&b.j, "layout", o.title ? o.title : title, line);
	hm_json_kstr(&b.j, "binary", bin->path);
	hm_json_kstr(&b.j, "build_id", bin->build_id);
	hm_json_kstr(&b.j, "heat_source", o.profile ? (o.source ? o.source : "profile") : NULL);
	hm_json_kstr(&b.j, "heat_kind", o.profile ? o.profile->kind : NULL);
	hm_json_key(&b.j, "structs");
	hm_json_begin_array(&b.j);
	for (size_t i = 0; i < n; i++) {
		const hm_type *ty = hm_types_get(t, ids[i]);
		hm_type_id id = ids[i];
		const char *alias = NULL;
		hm_layout *l;

		if (ty && ty->kind == HM_KIND_TYPEDEF) {	/* -C TYPEDEF */
			alias = ty->name;
			id = hm_types_resolve(t, id);
		}
		if (!(l = hm_layout_new(t, id, &lo))) {
			err = -errno;
			break;
		}
		err = html_struct_json(&b.j, l, hm_types_get(t, id)->name ? NULL : alias,
				       entry_for(t, ids[i], id, o.profile), tc);
		hm_layout_free(l);
		if (err)
			break;
	}
	hmi_typeclass_free(tc);
	if (err) {
		html_buf_free(&b);
		return err;
	}
	hm_json_end_array(&b.j);
	return html_page_finish(out, &b, NULL, "layout", o.title ? o.title : title);
}

/* The struct names a diff draws: those given, else every struct a finding
 * names, once each, in the findings' order. */
static size_t diff_names(const char *const *names, size_t n, const hm_findings *f,
			 const char ***out)
{
	size_t nf = f ? hm_findings_count(f) : 0, k = 0;
	const char **v = calloc(n + nf + 1, sizeof(*v));

	if (!(*out = v))
		return 0;
	for (size_t i = 0; i < n; i++)
		v[k++] = names[i];
	for (size_t i = 0; !n && i < nf; i++) {
		const hm_finding *x = hm_findings_get(f, i);
		size_t q;

		if (x->global || !x->object)
			continue;
		for (q = 0; q < k && strcmp(v[q], x->object); q++)
			;
		if (q == k)
			v[k++] = x->object;
	}
	return k;
}

static void finding_json(hm_json *j, const hm_finding *x)
{
	hm_json_begin_object(j);
	hm_json_kstr(j, "severity", hm_severity_name(x->severity));
	hm_json_kstr(j, "kind", x->kind);
	hm_json_kstr(j, "object", x->object);
	hm_json_kstr(j, "message", x->message);
	hm_json_key(j, "members");
	hm_json_begin_array(j);
	for (unsigned m = 0; m < x->nr_members; m++)
		hm_json_string(j, x->members[m]);
	hm_json_end_array(j);
	hm_json_end_object(j);
}

int hm_diff_print_html(FILE *out, const hm_types *old_t, const hm_types *new_t,
		 const char *const *names, size_t n, const hm_findings *f,
		 const char *old_label, const char *new_label, const struct hm_html_opts *uo)
{
	struct hm_html_opts o;
	struct html_buf b;
	const char **v = NULL;
	char title[512];
	size_t nv, nf = f ? hm_findings_count(f) : 0;
	int err;

	if (!old_t || !new_t || HM_OPTS_TAKE(&o, uo, hm_html_opts))
		return -EINVAL;
	HM_OPTS(hm_layout_opts, lo, .cacheline_size = hm_types_cacheline_size(new_t, o.cacheline_size),
		.expand = o.expand);
	struct hmi_typeclass *tca = NULL, *tcb = NULL;

	nv = diff_names(names, n, f, &v);
	if (!v || !(tca = hmi_typeclass_new(old_t, NULL)) || !(tcb = hmi_typeclass_new(new_t, NULL))) {
		hmi_typeclass_free(tca);
		free(v);
		return -ENOMEM;
	}
	old_label = old_label ? old_label : "old";
	new_label = new_label ? new_label : "new";
	snprintf(title, sizeof(title), "hitmap diff: %s → %s", old_label, new_label);
	if ((err = html_buf_open(&b))) {
		free(v);
		hmi_typeclass_free(tca);
		hmi_typeclass_free(tcb);
		return err;
	}
	html_page_head(&b.j, "diff", o.title ? o.title : title, lo.cacheline_size);
	hm_json_kstr(&b.j, "old_label", old_label);
	hm_json_kstr(&b.j, "new_label", new_label);
	hm_json_key(&b.j, "findings");
	hm_json_begin_array(&b.j);
	for (size_t i = 0; i < nf; i++)
		finding_json(&b.j, hm_findings_get(f, i));
	hm_json_end_array(&b.j);
	hm_json_key(&b.j, "pairs");
	hm_json_begin_array(&b.j);
	for (size_t i = 0; i < nv; i++) {
		hm_type_id a = hm_types_find_struct(old_t, v[i]);
		hm_type_id c = hm_types_find_struct(new_t, v[i]);
		hm_layout *la, *lc;

		if (a == HM_TYPE_NONE || c == HM_TYPE_NONE)
			continue;
		la = hm_layout_new(old_t, a, &lo);
		lc = la ? hm_layout_new(new_t, c, &lo) : NULL;
		if (!lc) {
			err = -errno;
			hm_layout_free(la);
			break;
		}
		hm_json_begin_object(&b.j);
		hm_json_kstr(&b.j, "name", v[i]);
		hm_json_key(&b.j, "old");
		err = html_struct_json(&b.j, la, NULL, NULL, tca);
		hm_json_key(&b.j, "new");
		if (!err)
			err = html_struct_json(&b.j, lc, NULL, NULL, tcb);
		hm_json_end_object(&b.j);
		hm_layout_free(la);
		hm_layout_free(lc);
		if (err)
			break;
	}
	free(v);
	hmi_typeclass_free(tca);
	hmi_typeclass_free(tcb);
	if (err) {
		html_buf_free(&b);
		return err;
	}
	hm_json_end_array(&b.j);
	return html_page_finish(out, &b, NULL, "diff", o.title ? o.title : title);
}
