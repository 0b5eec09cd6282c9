/* output-layout-heat: per-member heat beside a layout (`hitmap layout
 * --profile` / `--heat`).
 *
 * Text: the pahole-format body with a note line `/\* hitmap: heat PATH:
 * LABEL *\/` after each member that has samples and a summary before the
 * closing line, so that removing the "/\* hitmap: " lines gives pahole's text
 * back.  JSON: a "heat" object in every member and struct.  Both are hooks
 * of the layout printers (output.h): each note comes from the member the
 * printer is placing, never from reading its text back. */
#include "config.h"
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "hitmap/output.h"
#include "base/util.h"
#include "heat/heat-lib.h"
#include "output/output-int.h"
#include "base/opts.h"

#define LABEL_MAX 64

/* The profile entry heat for type `id` is filed under, or NULL: the name
 * as given, else the struct a typedef names. */
static const hm_profile_struct *entry_for(const hm_types *t, hm_type_id id, const hm_profile *p)
{
	const hm_type *ty = hm_types_get(t, id);
	const hm_profile_struct *ps = NULL;

	if (ty && ty->name)
		ps = hm_profile_find_struct(p, ty->name);
	if (!ps && ty && ty->kind == HM_KIND_TYPEDEF) {
		ty = hm_types_get(t, hm_types_resolve(t, id));
		if (ty && ty->name)
			ps = hm_profile_find_struct(p, ty->name);
	}
	return ps && ps->kind == HM_PROFILE_STRUCT ? ps : NULL;
}

static hm_type_id record_of(const hm_types *t, hm_type_id id)
{
	const hm_type *ty = hm_types_get(t, id);

	return ty && ty->kind == HM_KIND_TYPEDEF ? hm_types_resolve(t, id) : id;
}

/* Whether profile path f lies in a member of this layout (an element path
 * "slots[3].hits" counts as its array "slots"). */
static int path_known(const hm_layout *l, const char *f)
{
	char buf[512];
	size_t n = strcspn(f, "[");

	if (!*f || n >= sizeof(buf))
		return 1;
	memcpy(buf, f, n);
	buf[n] = 0;
	return hm_layout_find(l, buf) != NULL;
}

struct heat_ctx {
	const hm_types *t;
	const struct hm_heat_print_opts *ho;
	const hm_profile_struct *ps;	/* the entry of type `id` */
	hm_type_id id;
	unsigned line;
	int err;
};

static const hm_profile_struct *entry(struct heat_ctx *x, hm_type_id id)
{
	if (!x->id || x->id != id) {
		x->id = id;
		x->ps = id ? entry_for(x->t, id, x->ho->profile) : NULL;
	}
	return x->ps;
}

/* ---- text ---- */

static void text_member(void *vx, const struct hm_print_member *m, hm_print_notes *n)
{
	struct heat_ctx *x = vx;
	char label[LABEL_MAX];

	if (!m->path || !x->ps || !hm_heat_field_label(x->ps, m->path, label, sizeof(label)))
		return;
	hmi_print_note(n, "heat %s: %s", m->path, label);
}

static void text_end(void *vx, hm_type_id id, hm_print_notes *n)
{
	struct heat_ctx *x = vx;
	HM_OPTS(hm_layout_opts, lo, .cacheline_size = x->line, .expand = 1);
	const hm_type *ty = hm_types_get(x->t, id);
	const char *name = ty && ty->name ? ty->name : "?";
	const hm_profile_struct *ps = x->ps;
	hm_heat_counts c;
	hm_layout *l;

	if (!ps) {
		hmi_print_note(n, "heat: no samples of %s in %s", name, x->ho->source);
		return;
	}
	hm_profile_member_counts(ps, "", &c);
	hmi_print_note(n, "heat: %llu samples of %s in %s%s%s%s", (unsigned long long)c.samples,
		      name, x->ho->source, x->ho->profile->kind ? " (" : "",
		      x->ho->profile->kind ? x->ho->profile->kind : "",
		      x->ho->profile->kind ? " data)" : "");
	l = hm_layout_new(x->t, record_of(x->t, id), &lo);
	if (!l) {
		x->err = -ENOMEM;
		return;
	}
	for (size_t k = 0; k < ps->nr_fields; k++) {
		const hm_profile_field *pf = &ps->fields[k];

		if (!path_known(l, pf->path))
			hmi_print_note(n, "heat %s: not in this layout (%llu samples)", pf->path,
				      (unsigned long long)pf->c.samples);
	}
	hm_layout_free(l);
}

static int heat_opts(struct hm_heat_print_opts *ho, const struct hm_heat_print_opts *user)
{
	if (HM_OPTS_TAKE(ho, user, hm_heat_print_opts) || !ho->profile)
		return -EINVAL;
	if (!ho->source)
		ho->source = "?";
	return 0;
}

int hm_layout_print_heat(FILE *out, const hm_types *t, hm_type_id id,
			 const struct hm_print_opts *o, const struct hm_heat_print_opts *user)
{
	struct hm_heat_print_opts ho;
	struct heat_ctx x = { .t = t, .ho = &ho, .line = o ? o->cacheline_size : 0 };
	struct hm_print_hooks h = {
		.sz = sizeof(h), .ctx = &x, .member_notes = text_member, .end_notes = text_end,
	};
	int err;

	if (!t || heat_opts(&ho, user))
		return -EINVAL;
	entry(&x, id);
	err = hmi_layout_print_hooked(out, t, id, o, &h);
	return err ? err : x.err;
}

/* ---- JSON ---- */

/* Opens "heat": {...} and leaves it open for the caller to add to. */
static void json_heat(hm_json *j, struct hmi_member_heat *h)
{
	const uint32_t *cpus;
	size_t n = hmi_member_heat_cpus(h, &cpus);

	hm_json_key(j, "heat");
	hm_json_begin_object(j);
	hmi_profile_json_counts(j, hmi_member_heat_counts(h));
	hm_json_key(j, "cpus");
	hm_json_begin_array(j);
	for (size_t i = 0; i < n; i++)
		hm_json_uint(j, cpus[i]);
	hm_json_end_array(j);
}

/* A named member's heat is that of its own fields; an anonymous one's the
 * sum of its members' (the named ones inside it, at any depth). */
static void member_heat(const hm_profile_struct *ps, const hm_field *all, const hm_field *f,
			struct hmi_member_heat *h)
{
	if (f->name) {
		if (f->path)
			hmi_member_heat_add_path(h, ps, f->path);
		return;
	}
	for (uint32_t i = f->nr_children ? (uint32_t)(f - all) + 1 : HM_FIELD_NONE;
	     i != HM_FIELD_NONE; i = all[i].next)
		member_heat(ps, all, &all[i], h);
}

static void json_member(void *vx, const hm_layout *l, hm_type_id id, const hm_field *f,
			hm_json_writer *w)
{
	struct heat_ctx *x = vx;
	struct hmi_member_heat *h = hmi_member_heat_new();
	hm_json *j = hmi_json_writer_json(w);

	if (!h) {
		x->err = -ENOMEM;
		return;
	}
	member_heat(entry(x, id), hm_layout_fields(l, NULL), f, h);
	json_heat(j, h);
	hm_json_end_object(j);	/* "heat" */
	if (hmi_member_heat_failed(h))
		x->err = -ENOMEM;
	hmi_member_heat_free(h);
}

static void json_struct(void *vx, const hm_layout *l, hm_type_id id, hm_json_writer *w)
{
	struct heat_ctx *x = vx;
	HM_OPTS(hm_layout_opts, lo, .cacheline_size = x->line, .expand = 1);
	struct hmi_member_heat *h = hmi_member_heat_new();
	hm_json *j = hmi_json_writer_json(w);
	const hm_profile_struct *ps = entry(x, id);
	hm_layout *el;

	if (!h) {
		x->err = -ENOMEM;
		return;
	}
	hmi_member_heat_add_path(h, ps, "");
	json_heat(j, h);
	hm_json_kbool(j, "in_profile", ps != NULL);
	hm_json_key(j, "gone");
	hm_json_begin_array(j);
	el = ps ? hm_layout_new(x->t, record_of(x->t, id), &lo) : NULL;
	if (ps && !el)
		x->err = -ENOMEM;
	for (size_t k = 0; el && k < ps->nr_fields; k++)
		if (!path_known(el, ps->fields[k].path))
			hm_json_string(j, ps->fields[k].path);
	hm_layout_free(el);
	hm_json_end_array(j);
	hm_json_end_object(j);	/* "heat" */
	if (hmi_member_heat_failed(h))
		x->err = -ENOMEM;
	hmi_member_heat_free(h);
	(void)l;
}

static void json_top(void *vx, hm_json_writer *w)
{
	struct heat_ctx *x = vx;
	hm_json *j = hmi_json_writer_json(w);
	const hm_profile *p = x->ho->profile;

	hm_json_key(j, "heat_source");
	hm_json_begin_object(j);
	hm_json_kstr(j, "path", x->ho->source);
	hm_json_kstr(j, "kind", p->kind);
	hm_json_kuint(j, "samples", p->samples);
	hm_json_kuint(j, "attributed", p->attributed);
	hm_json_end_object(j);
}

int hm_layouts_print_json_heat(FILE *out, const struct hm_json_binary *bin,
			       const hm_types *t, const hm_type_id *ids, size_t n, int expand,
			       const struct hm_heat_print_opts *user)
{
	struct hm_heat_print_opts ho;
	struct heat_ctx x = { .t = t, .ho = &ho };
	struct hm_print_hooks h = {
		.sz = sizeof(h), .ctx = &x, .json_top = json_top,
		.json_member = json_member, .json_struct = json_struct,
	};
	int err;

	if (!t || !bin || heat_opts(&ho, user))
		return -EINVAL;
	x.line = bin->cacheline_size;
	err = hmi_layouts_print_json_hooked(out, bin, t, ids, n, expand, &h);
	return err ? err : x.err;
}
