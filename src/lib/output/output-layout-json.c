/* output-layout-json: layouts as JSON, schema "hitmap/1" (documented in
 * hitmap-layout(1)). */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include "hitmap/output.h"
#include "base/json.h"
#include "base/util.h"
#include "layout/layout-lib.h"
#include "output/output-int.h"
#include "base/opts.h"

/* The public face of the writer, for hooks. */
struct hm_json_writer {
	hm_json j;
};

void hmi_json_writer_key(hm_json_writer *w, const char *key)
{
	hm_json_key(&w->j, key);
}

void hmi_json_writer_string(hm_json_writer *w, const char *s)
{
	hm_json_string(&w->j, s);
}

void hmi_json_writer_uint(hm_json_writer *w, uint64_t v)
{
	hm_json_uint(&w->j, v);
}

void hmi_json_writer_bool(hm_json_writer *w, int v)
{
	hm_json_bool(&w->j, v);
}

void hmi_json_writer_begin_object(hm_json_writer *w)
{
	hm_json_begin_object(&w->j);
}

void hmi_json_writer_end_object(hm_json_writer *w)
{
	hm_json_end_object(&w->j);
}

void hmi_json_writer_begin_array(hm_json_writer *w)
{
	hm_json_begin_array(&w->j);
}

void hmi_json_writer_end_array(hm_json_writer *w)
{
	hm_json_end_array(&w->j);
}

hm_json *hmi_json_writer_json(hm_json_writer *w)
{
	return &w->j;
}

/* The qualified name of a C++ type ("ns::outer::inner"), as the text
 * prints it; a typedef's name for an anonymous record. */
static void json_name(hm_json *j, const hm_type *ty, const char *alias)
{
	char q[1024];

	if (ty->name && ty->scope && hm_type_qualify(ty, q, sizeof(q)) < (int)sizeof(q))
		hm_json_kstr(j, "name", q);
	else
		hm_json_kstr(j, "name", ty->name ? ty->name : alias);
}

static const char *kind_name(enum hm_type_kind k)
{
	return k == HM_KIND_UNION ? "union" : k == HM_KIND_CLASS ? "class" : "struct";
}

static void json_type(hm_json *j, const hm_types *t, hm_type_id id)
{
	char buf[512];
	int n = hm_types_declare(t, id, NULL, buf, sizeof(buf));

	hm_json_kstr(j, "type", n >= 0 ? buf : "?");
}

/* Where members print: a base offset (an array element's members print at
 * the first element, as the text prints them), the line size, -E. */
struct jm_ctx {
	hm_json_writer *w;
	hm_type_id asked;
	const struct hm_print_hooks *hk;	/* NULL inside an array element */
	uint64_t base;
	unsigned line;
	int expand;
	unsigned depth;
};

static int jm_is_qual(enum hm_type_kind k)
{
	return k == HM_KIND_CONST || k == HM_KIND_VOLATILE || k == HM_KIND_RESTRICT ||
	       k == HM_KIND_ATOMIC;
}

/* The record an array member's elements are, when the text prints its body
 * inline (an anonymous struct or union, any record with -E; typedefs are
 * looked through only with -E, as the text names them otherwise); else
 * HM_TYPE_NONE.  `struct { int n; char c; } arr[3]` prints n and c. */
static hm_type_id inline_element(const hm_types *t, hm_type_id id, int expand)
{
	const hm_type *ty = hm_types_get(t, id);
	unsigned guard = 0;
	int arrays = 0;

	while (ty && guard++ < 256) {
		if (ty->kind == HM_KIND_ARRAY && !arrays)
			arrays = 1;
		else if (!(jm_is_qual(ty->kind) || (expand && ty->kind == HM_KIND_TYPEDEF)))
			break;
		id = ty->target;
		ty = hm_types_get(t, id);
	}
	if (!arrays || !ty || !hm_kind_is_record(ty->kind) || ty->declaration || !ty->nr)
		return HM_TYPE_NONE;
	return ty->name && !expand ? HM_TYPE_NONE : id;
}

static void json_members(struct jm_ctx *c, const hm_layout *l, const hm_field *f, size_t nf,
			 uint32_t first);

/* The members of an array's first element, laid out on their own and
 * printed at the array's offset. */
static void json_element(struct jm_ctx *c, const hm_layout *l, const hm_field *a,
			 hm_type_id elem)
{
	HM_OPTS(hm_layout_opts, lo, .cacheline_size = c->line, .expand = !!c->expand);
	struct jm_ctx sub = *c;
	const hm_field *f;
	hm_layout *el;
	size_t nf;

	if (c->depth >= HM_NEST_MAX || !(el = hm_layout_new(hmi_layout_types(l), elem, &lo)))
		return;
	f = hm_layout_fields(el, &nf);
	sub.hk = NULL;
	sub.base = c->base + a->offset;
	sub.depth++;
	if (nf)
		json_members(&sub, el, f, nf, 0);
	hm_layout_free(el);
}

static void json_members(struct jm_ctx *c, const hm_layout *l, const hm_field *f, size_t nf,
			 uint32_t first)
{
	hm_json *j = &c->w->j;
	const hm_types *t = hmi_layout_types(l);

	hm_json_key(j, "members");
	hm_json_begin_array(j);
	for (uint32_t i = first; i != HM_FIELD_NONE && i < nf; i = f[i].next) {
		uint32_t al = hm_types_alignof(t, f[i].type);
		uint64_t off = c->base + f[i].offset;
		uint64_t lf = off / c->line, ll = f[i].size ? (off + f[i].size - 1) / c->line : lf;
		hm_type_id elem;

		if (f[i].member->alignment > al)
			al = f[i].member->alignment;
		hm_json_begin_object(j);
		hm_json_kstr(j, "name", f[i].name);
		json_type(j, t, f[i].type);
		hm_json_kuint(j, "offset", off);
		hm_json_kuint(j, "size", f[i].size);
		hm_json_kuint(j, "bit_offset", f[i].bit_offset);
		hm_json_kuint(j, "bit_size", f[i].bit_size);
		hm_json_kuint(j, "cacheline", lf);
		hm_json_kbool(j, "straddles", lf != ll);
		hm_json_kuint(j, "alignment", al);
		if (f[i].nr_children)
			json_members(c, l, f, nf, i + 1);
		else if ((elem = inline_element(t, f[i].type, c->expand)) != HM_TYPE_NONE)
			json_element(c, l, &f[i], elem);
		if (c->hk && c->hk->json_member)
			c->hk->json_member(c->hk->ctx, l, c->asked, &f[i], c->w);
		hm_json_end_object(j);
	}
	hm_json_end_array(j);
}

static const char *field_label(const hm_field *f)
{
	return f->path ? f->path : f->name;
}

static void json_struct(hm_json_writer *w, const hm_layout *l, const char *alias, hm_type_id asked,
			const struct hm_print_hooks *hk, int expand)
{
	struct jm_ctx c = { .w = w, .asked = asked, .hk = hk,
			    .line = hm_layout_cacheline_size(l), .expand = expand };
	hm_json *j = &w->j;
	const hm_types *t = hmi_layout_types(l);
	const hm_type *ty = hm_types_get(t, hm_layout_type(l));
	const struct hm_layout_summary *s = hm_layout_summary(l);
	size_t nf, nh, ng;
	const hm_field *f = hm_layout_fields(l, &nf);
	const hm_hole *h = hm_layout_holes(l, &nh);
	const hm_group *g = hm_layout_groups(l, &ng);

	hm_json_begin_object(j);
	json_name(j, ty, alias);
	hm_json_kstr(j, "kind", kind_name(ty->kind));
	hm_json_kuint(j, "size", s->size);
	hm_json_kuint(j, "alignment", s->alignment);
	hm_json_kuint(j, "cachelines", s->cachelines);
	hm_json_kstr(j, "decl_file", ty->decl_file);
	hm_json_kuint(j, "decl_line", ty->decl_line);
	json_members(&c, l, f, nf, nf ? 0 : HM_FIELD_NONE);
	hm_json_key(j, "holes");
	hm_json_begin_array(j);
	for (size_t i = 0; i < nh; i++) {
		hm_json_begin_object(j);
		hm_json_kuint(j, "offset", h[i].offset);
		hm_json_kuint(j, "size", h[i].size);
		hm_json_kstr(j, "after", field_label(&f[h[i].after]));
		hm_json_end_object(j);
	}
	hm_json_end_array(j);
	hm_json_key(j, "bit_holes");
	hm_json_begin_array(j);
	for (size_t i = 0; i < nf; i++) {
		if (!f[i].bit_hole_after)
			continue;
		hm_json_begin_object(j);
		hm_json_kuint(j, "offset", f[i].offset);
		hm_json_kuint(j, "bit_offset", f[i].bit_offset + f[i].bit_size);
		hm_json_kuint(j, "bits", f[i].bit_hole_after);
		hm_json_kstr(j, "after", field_label(&f[i]));
		hm_json_end_object(j);
	}
	hm_json_end_array(j);
	hm_json_kuint(j, "padding", s->padding);
	hm_json_kuint(j, "bit_padding", s->bit_padding);
	hm_json_key(j, "groups");
	hm_json_begin_array(j);
	for (size_t i = 0; i < ng; i++) {
		hm_json_begin_object(j);
		hm_json_kstr(j, "name", g[i].name);
		hm_json_kuint(j, "offset", g[i].offset);
		hm_json_kuint(j, "size", g[i].size);
		hm_json_kbool(j, "aligned", g[i].aligned);
		hm_json_kbool(j, "terminated", !g[i].unterminated);
		hm_json_end_object(j);
	}
	hm_json_end_array(j);
	if (hk && hk->json_struct)
		hk->json_struct(hk->ctx, l, asked, w);
	hm_json_end_object(j);
}

static void json_list_entry(hm_json *j, const hm_types *t, hm_type_id id, unsigned line,
			    const char *alias)
{
	const hm_type *ty = hm_types_get(t, id);
	struct hmi_layout_holes *h = NULL;

	hmi_layout_holes_new(t, ty, &h);
	hm_json_begin_object(j);
	json_name(j, ty, alias);
	hm_json_kstr(j, "kind", kind_name(ty->kind));
	hm_json_kuint(j, "size", ty->size);
	hm_json_kuint(j, "cachelines", (ty->size + line - 1) / line);
	hm_json_kuint(j, "holes", hmi_layout_holes_count(h));
	hm_json_end_object(j);
	hmi_layout_holes_free(h);
}

static int print_json(FILE *out, const struct hm_json_binary *bin, const hm_types *t,
		      const hm_type_id *ids, size_t n, int expand, int list,
		      const struct hm_print_hooks *hk)
{
	HM_OPTS(hm_layout_opts, lo, .cacheline_size = bin->cacheline_size, .expand = !!expand);
	unsigned line = bin->cacheline_size ? bin->cacheline_size : hm_types_cacheline_size(t, 0);
	hm_json_writer w;
	hm_json *j = &w.j;

	hm_json_init(j, out, 1);
	hm_json_begin_object(j);
	hm_json_kstr(j, "schema", "hitmap/1");
	hm_json_key(j, "binary");
	hm_json_begin_object(j);
	hm_json_kstr(j, "path", bin->path);
	hm_json_kstr(j, "build_id", bin->build_id);
	hm_json_kstr(j, "arch", bin->arch);
	hm_json_kuint(j, "cacheline_size", line);
	hm_json_end_object(j);
	if (hk && hk->json_top)
		hk->json_top(hk->ctx, &w);
	hm_json_key(j, "structs");
	hm_json_begin_array(j);
	for (size_t i = 0; i < n; i++) {
		const hm_type *ty = hm_types_get(t, ids[i]);
		const char *alias = NULL;
		hm_type_id id = ids[i];
		hm_layout *l;

		if (ty && ty->kind == HM_KIND_TYPEDEF) {	/* -C TYPEDEF */
			alias = ty->name;
			id = hm_types_resolve(t, id);
		}
		if (list) {
			json_list_entry(j, t, id, line, alias);
			continue;
		}
		l = hm_layout_new(t, id, &lo);
		if (!l)
			return -errno;
		json_struct(&w, l, alias, ids[i], hk, expand);
		hm_layout_free(l);
	}
	hm_json_end_array(j);
	hm_json_end_object(j);
	hm_json_finish(j);
	return ferror(out) ? -EIO : 0;
}

int hm_layouts_print_json(FILE *out, const struct hm_json_binary *bin, const hm_types *t,
			  const hm_type_id *ids, size_t n, int expand, int list)
{
	return print_json(out, bin, t, ids, n, expand, list, NULL);
}

int hmi_layouts_print_json_hooked(FILE *out, const struct hm_json_binary *bin,
				 const hm_types *t, const hm_type_id *ids, size_t n, int expand,
				 const struct hm_print_hooks *user)
{
	struct hm_print_hooks h;

	if (!bin || HM_OPTS_TAKE(&h, user, hm_print_hooks))
		return -EINVAL;
	return print_json(out, bin, t, ids, n, expand, 0, &h);
}
