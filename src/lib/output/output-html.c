/* The HTML page shell and the struct drawing data every --html page shares. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/types.h"
#include "layout/layout-lib.h"
#include "output/output-html.h"
#include "check/check-lib.h"

int html_buf_open(struct html_buf *b)
{
	memset(b, 0, sizeof(*b));
	b->f = open_memstream(&b->data, &b->len);
	if (!b->f)
		return -ENOMEM;
	hm_json_init(&b->j, b->f, 0);
	return 0;
}

int html_buf_close(struct html_buf *b)
{
	int bad;

	hm_json_finish(&b->j);
	bad = ferror(b->f);
	if (fclose(b->f))
		bad = 1;
	b->f = NULL;
	if (bad || !b->data) {
		html_buf_free(b);
		return -ENOMEM;
	}
	return 0;
}

void html_buf_free(struct html_buf *b)
{
	if (b->f)
		fclose(b->f);
	free(b->data);
	memset(b, 0, sizeof(*b));
}

/* Text into the page's markup: the five characters HTML gives a meaning. */
static void put_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out);
		}
	}
}

void html_page_begin(FILE *out, const char *kind, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      /* the page asks for nothing: no fetch, no image, no font, no frame */
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"generator\" content=\"hitmap\">\n<title>", out);
	put_text(out, title);
	fputs("</title>\n<style>\n", out);
	fputs(html_style, out);
	fputs("</style>\n</head>\n<body data-kind=\"", out);
	put_text(out, kind);
	fputs("\">\n<header class=\"hm-top\"><h1>", out);
	put_text(out, title);
	fputs("</h1><div id=\"hm-controls\"></div></header>\n"
	      "<noscript><p>This page draws its data with its own inline script; the data "
	      "is in the page as JSON (view the source).</p></noscript>\n"
	      "<main id=\"hm-app\"></main>\n"
	      "<div id=\"hm-tip\" role=\"status\" aria-live=\"polite\" hidden></div>\n", out);
}

void html_page_data(FILE *out, const char *id, const char *json, size_t len)
{
	size_t i, s = 0;

	fprintf(out, "<script type=\"application/json\" id=\"%s\">", id);
	/* `<` only ever stands inside a JSON string: \u003c there reads back the
	 * same, and nothing in the data can close the element. */
	for (i = 0; i < len; i++) {
		if (json[i] != '<')
			continue;
		fwrite(json + s, 1, i - s, out);
		fputs("\\u003c", out);
		s = i + 1;
	}
	fwrite(json + s, 1, len - s, out);
	fputs("</script>\n", out);
}

int html_page_end(FILE *out)
{
	fputs("<script>\n", out);
	fputs(html_script, out);
	fputs("</script>\n</body>\n</html>\n", out);
	return ferror(out) ? -EIO : 0;
}

void html_counts_json(hm_json *j, const hm_heat_counts *c)
{
	hm_json_begin_object(j);
	hm_json_kuint(j, "samples", c->samples);
	hm_json_kuint(j, "hitm", c->lcl_hitm + c->rmt_hitm);
	hm_json_kuint(j, "lcl_hitm", c->lcl_hitm);
	hm_json_kuint(j, "rmt_hitm", c->rmt_hitm);
	hm_json_kuint(j, "loads", c->loads);
	hm_json_kuint(j, "stores", c->stores);
	hm_json_kuint(j, "reads", c->reads);
	hm_json_kuint(j, "writes", c->writes);
	hm_json_kuint(j, "transfers", c->transfers);
	hm_json_end_object(j);
}

static const char *kind_name(enum hm_type_kind k)
{
	return k == HM_KIND_UNION ? "union" : k == HM_KIND_CLASS ? "class" : "struct";
}

/* CPUs of the profile fields under path (the member and its sub-fields),
 * distinct and sorted: at most a few hundred, so a merge by insertion. */
static void member_cpus(hm_json *j, const hm_profile_struct *ps, const char *path)
{
	uint32_t cpus[512];
	size_t n = 0, plen = strlen(path);

	for (size_t i = 0; i < ps->nr_fields; i++) {
		const hm_profile_field *pf = &ps->fields[i];

		if (strncmp(pf->path, path, plen) ||
		    (pf->path[plen] && pf->path[plen] != '.' && pf->path[plen] != '['))
			continue;
		for (size_t k = 0; k < pf->nr_cpus && n < 512; k++) {
			size_t at = 0;

			while (at < n && cpus[at] < pf->cpus[k])
				at++;
			if (at < n && cpus[at] == pf->cpus[k])
				continue;
			memmove(cpus + at + 1, cpus + at, (n - at) * sizeof(*cpus));
			cpus[at] = pf->cpus[k];
			n++;
		}
	}
	hm_json_key(j, "cpus");
	hm_json_begin_array(j);
	for (size_t i = 0; i < n; i++)
		hm_json_uint(j, cpus[i]);
	hm_json_end_array(j);
}

int html_struct_json(hm_json *j, const hm_layout *l, const char *name,
		     const hm_profile_struct *ps, struct hmi_typeclass *tc)
{
	struct hmi_hot *hot = NULL;
	/* the same members lint judges as units: a lock's or an atomic's
	 * internals are not marked, a member holding one is */
	int nhot = tc ? hmi_hot_fields(tc, l, &hot) : 0;
	size_t k = 0;
	const hm_types *t = hmi_layout_types(l);
	const hm_type *ty = hm_types_get(t, hm_layout_type(l));
	const struct hm_layout_summary *s = hm_layout_summary(l);
	size_t nf, nh, ng, i;
	const hm_field *f = hm_layout_fields(l, &nf);
	const hm_hole *h = hm_layout_holes(l, &nh);
	const hm_group *g = hm_layout_groups(l, &ng);

	if (nhot < 0)
		return nhot;
	hm_json_begin_object(j);
	hm_json_kstr(j, "name", name ? name : hmi_layout_name(l));
	hm_json_kstr(j, "kind", kind_name(ty->kind));
	hm_json_kuint(j, "size", s->size);
	hm_json_kuint(j, "alignment", s->alignment);
	hm_json_kuint(j, "cachelines", s->cachelines);
	hm_json_kuint(j, "line_size", hm_layout_cacheline_size(l));
	hm_json_kbool(j, "base_known", s->base_known);
	hm_json_kuint(j, "padding", s->padding);
	hm_json_kbool(j, "in_profile", ps != NULL);
	hm_json_key(j, "members");
	hm_json_begin_array(j);
	for (i = 0; i < nf; i++) {
		char decl[256];
		int dn = hm_types_declare(t, f[i].type, NULL, decl, sizeof(decl));

		hm_json_begin_object(j);
		hm_json_kstr(j, "path", f[i].path);
		hm_json_kstr(j, "name", f[i].name);
		hm_json_kstr(j, "type", dn >= 0 ? decl : "?");
		hm_json_kuint(j, "offset", f[i].offset);
		hm_json_kuint(j, "size", f[i].size);
		hm_json_kuint(j, "bit_offset", f[i].bit_offset);
		hm_json_kuint(j, "bit_size", f[i].bit_size);
		hm_json_kuint(j, "depth", f[i].depth);
		hm_json_kbool(j, "leaf", f[i].is_leaf);
		hm_json_kuint(j, "line_first", f[i].line_first);
		hm_json_kuint(j, "line_last", f[i].line_last);
		hm_json_kbool(j, "straddles", f[i].straddles);
		if (k < (size_t)nhot && hot[k].field == i) {
			hm_json_kstr(j, "unit", hot[k].weight == HMI_LOCK ? "lock" : "atomic");
			hm_json_kstr(j, "unit_type", hot[k].why);
			k++;
		}
		if (ps && f[i].path) {
			hm_heat_counts c;

			if (hm_profile_member_counts(ps, f[i].path, &c)) {
				hm_json_key(j, "heat");
				html_counts_json(j, &c);
				member_cpus(j, ps, f[i].path);
			}
		}
		hm_json_end_object(j);
	}
	hm_json_end_array(j);
	hm_json_key(j, "holes");
	hm_json_begin_array(j);
	for (i = 0; i < nh; i++) {
		hm_json_begin_object(j);
		hm_json_kuint(j, "offset", h[i].offset);
		hm_json_kuint(j, "size", h[i].size);
		hm_json_end_object(j);
	}
	hm_json_end_array(j);
	hm_json_key(j, "groups");
	hm_json_begin_array(j);
	for (i = 0; i < ng; i++) {
		hm_json_begin_object(j);
		hm_json_kstr(j, "name", g[i].name);
		hm_json_kuint(j, "offset", g[i].offset);
		hm_json_kuint(j, "size", g[i].size);
		hm_json_kbool(j, "aligned", g[i].aligned);
		hm_json_kbool(j, "unterminated", g[i].unterminated);
		hm_json_end_object(j);
	}
	hm_json_end_array(j);
	hm_json_end_object(j);
	free(hot);
	return 0;
}

void html_page_head(hm_json *j, const char *kind, const char *title, unsigned line)
{
	hm_json_begin_object(j);
	hm_json_kstr(j, "schema", "hitmap-html/1");
	hm_json_kstr(j, "kind", kind);
	hm_json_kstr(j, "title", title);
	hm_json_kuint(j, "line_size", line);
}

int html_page_finish(FILE *out, struct html_buf *b, const struct html_buf *extra,
		     const char *kind, const char *title)
{
	int err;

	hm_json_end_object(&b->j);
	if ((err = html_buf_close(b)))
		return err;
	html_page_begin(out, kind, title);
	html_page_data(out, "hm-data", b->data, b->len);
	if (extra)
		html_page_data(out, "hm-extra", extra->data, extra->len);
	err = html_page_end(out);
	html_buf_free(b);
	return err;
}
