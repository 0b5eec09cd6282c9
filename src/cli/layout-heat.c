/* Per-member heat beside `hitmap layout`'s printout.
 *
 * The text body comes from hm_print_layout() untouched; heat notes are
 * inserted as lines of their own so that removing the "/\* hitmap: " lines
 * gives pahole's text back.  To know which printed line is which member,
 * the body's nesting (lines ending in '{', lines starting with '}') is
 * walked beside hm_layout's fields (expanded: a superset of what the printer
 * inlines), each pairing checked by the offset and size the line prints —
 * a line that does not check out gets no note rather than a wrong one. */
#include "config.h"
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/layout.h"
#include "base/json.h"
#include "base/jsonparse.h"
#include "layout-heat.h"
#include "heat/profile-int.h"

#define LABEL_MAX 64

const hm_profile_struct *lh_find(const hm_types *t, hm_type_id id, const hm_profile *p)
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

/* ---- text ---- */

struct body {
	char *p;
	size_t len;
	size_t *start;		/* line i is p[start[i] .. start[i+1]-1), '\n' included */
	size_t nr;
	const hm_field **field;	/* the member printed on line i, or NULL */
	const hm_field *f;	/* the expanded layout's fields */
	size_t nf;
};

static size_t line_len(const struct body *b, size_t i)
{
	size_t n = b->start[i + 1] - b->start[i];

	return n && b->p[b->start[i] + n - 1] == '\n' ? n - 1 : n;
}

static int split_lines(struct body *b)
{
	size_t i, n = 0;

	for (i = 0; i < b->len; i++)
		n += b->p[i] == '\n';
	b->start = calloc(n + 2, sizeof(*b->start));
	b->field = calloc(n + 1, sizeof(*b->field));
	if (!b->start || !b->field)
		return -ENOMEM;
	for (i = 0; i < b->len; i++)
		if (b->p[i] == '\n')
			b->start[++b->nr] = i + 1;
	if (b->nr == 0 || b->start[b->nr] != b->len)
		b->start[++b->nr] = b->len;
	return 0;
}

/* The trailing "/\* OFF SIZE *\/", "/\* OFF:BIT SIZE *\/" or "/\*     ? SIZE *\/"
 * of a member line.  Returns 1 when found. */
static int offset_comment(const char *s, size_t len, uint64_t *off, int *off_known,
			  uint64_t *size)
{
	char buf[64], *e;
	size_t open;

	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (len < 4 || s[len - 1] != '/' || s[len - 2] != '*')
		return 0;
	for (open = len - 2; open >= 2; open--)
		if (s[open - 2] == '/' && s[open - 1] == '*')
			break;
	if (open < 2 || len - 2 - open >= sizeof(buf))
		return 0;
	memcpy(buf, s + open, len - 2 - open);
	buf[len - 2 - open] = 0;
	if (buf[strspn(buf, "0123456789 :?")])
		return 0;
	e = buf + strspn(buf, " ");
	*off_known = *e != '?';
	if (*off_known) {
		if (*e < '0' || *e > '9')
			return 0;
		*off = strtoull(e, &e, 10);
		if (*e == ':')
			(void)strtoull(e + 1, &e, 10);
	} else {
		e++;
	}
	e += strspn(e, " ");
	if (*e < '0' || *e > '9')
		return 0;
	*size = strtoull(e, &e, 10);
	return *e == 0 || *e == ' ';
}

static const char *skip_ws(const char *s, const char *end)
{
	while (s < end && (*s == '\t' || *s == ' '))
		s++;
	return s;
}

static int opens(const struct body *b, size_t i)
{
	const char *s = b->p + b->start[i];
	size_t n = line_len(b, i);

	while (n && s[n - 1] == ' ')
		n--;
	return n && s[n - 1] == '{';
}

static int closes(const struct body *b, size_t i)
{
	const char *s = b->p + b->start[i], *e = s + line_len(b, i);

	s = skip_ws(s, e);
	return s < e && *s == '}';
}

static uint32_t child_of(const struct body *b, uint32_t fi)
{
	return fi != HM_FIELD_NONE && b->f[fi].nr_children ? fi + 1 : HM_FIELD_NONE;
}

/* Pair the member lines of one nesting level, from line *i up to its
 * closing line (returned in *i), with the fields from `fi` on. */
static void match_level(struct body *b, size_t *i, uint32_t fi, unsigned depth)
{
	for (; *i < b->nr; (*i)++) {
		uint64_t off = 0, size = 0;
		int known = 0;
		size_t at = *i;

		if (closes(b, at))
			return;
		if (opens(b, at)) {
			(*i)++;
			if (depth < 64)
				match_level(b, i, child_of(b, fi), depth + 1);
			if (*i >= b->nr)
				return;
			at = *i;
		}
		if (!offset_comment(b->p + b->start[at], line_len(b, at), &off, &known, &size))
			continue;
		if (fi == HM_FIELD_NONE)
			continue;
		if ((known && off != b->f[fi].offset) || size != b->f[fi].size) {
			fi = HM_FIELD_NONE;	/* lost track: no more notes here */
			continue;
		}
		b->field[at] = &b->f[fi];
		fi = b->f[fi].next;
	}
}

static void put_indent(FILE *out, const struct body *b, size_t i)
{
	const char *s = b->p + b->start[i];

	fwrite(s, 1, (size_t)(skip_ws(s, s + line_len(b, i)) - s), out);
}

static void summary(FILE *out, const hm_layout *l, const char *name,
		    const hm_profile_struct *ps, const struct lh_source *src)
{
	hm_heat_counts c;

	if (!ps) {
		fprintf(out, "\t" HM_NOTE_PREFIX "heat: no samples of %s in %s */\n", name,
			src->name);
		return;
	}
	hm_profile_member_counts(ps, "", &c);
	fprintf(out, "\t" HM_NOTE_PREFIX "heat: %llu samples of %s in %s",
		(unsigned long long)c.samples, name, src->name);
	if (src->p->kind)
		fprintf(out, " (%s data)", src->p->kind);
	fputs(" */\n", out);
	for (size_t k = 0; k < ps->nr_fields; k++) {
		const hm_profile_field *pf = &ps->fields[k];

		if (!path_known(l, pf->path))
			fprintf(out, "\t" HM_NOTE_PREFIX "heat %s: not in this layout "
				"(%llu samples) */\n", pf->path, (unsigned long long)pf->c.samples);
	}
}

static void emit(FILE *out, const struct body *b, const hm_layout *l, const char *name,
		 const hm_profile_struct *ps, const struct lh_source *src)
{
	size_t last = b->nr;
	char label[LABEL_MAX];

	/* the closing "};" (or "} name;" of a typedef) is the last line */
	while (last && !line_len(b, last - 1))
		last--;
	for (size_t i = 0; i < b->nr; i++) {
		const hm_field *f = b->field[i];

		if (i + 1 == last && closes(b, i))
			summary(out, l, name, ps, src);
		fwrite(b->p + b->start[i], 1, b->start[i + 1] - b->start[i], out);
		if (!f || !f->name || !f->path || !ps ||
		    !hm_heat_field_label(ps, f->path, label, sizeof(label)))
			continue;
		put_indent(out, b, i);
		fprintf(out, HM_NOTE_PREFIX "heat %s: %s */\n", f->path, label);
	}
}

int lh_print_text(FILE *out, const hm_types *t, hm_type_id id, const struct hm_print_opts *po,
		  const struct lh_source *src)
{
	HM_OPTS(hm_layout_opts, lo, .cacheline_size = po->cacheline_size, .expand = 1);
	const hm_type *ty = hm_types_get(t, id);
	const hm_profile_struct *ps = lh_find(t, id, src->p);
	struct body b = { 0 };
	hm_layout *l = NULL;
	FILE *m;
	int err;

	m = open_memstream(&b.p, &b.len);
	if (!m)
		return -ENOMEM;
	if (ty && ty->kind == HM_KIND_TYPEDEF)
		err = hm_print_typedef(m, t, id, po);
	else
		err = hm_print_layout(m, t, id, po);
	if (fclose(m) && !err)
		err = -ENOMEM;
	if (!err)
		err = split_lines(&b);
	if (!err) {
		l = hm_layout_new(t, record_of(t, id), &lo);
		if (!l)
			err = errno == EINVAL ? 0 : -ENOMEM;	/* a one-line typedef */
	}
	if (!err && l) {
		size_t i = 0;

		b.f = hm_layout_fields(l, &b.nf);
		while (i < b.nr && !opens(&b, i))
			i++;
		i++;
		if (i < b.nr)
			match_level(&b, &i, b.nf ? 0 : HM_FIELD_NONE, 0);
		emit(out, &b, l, ty && ty->name ? ty->name : "?", ps, src);
	} else if (!err) {
		fwrite(b.p, 1, b.len, out);
	}
	hm_layout_free(l);
	free(b.p);
	free(b.start);
	free(b.field);
	if (!err && ferror(out))
		err = -EIO;
	return err;
}

/* ---- JSON ---- */

/* Heat of one member: counters summed over its fields, CPUs as a set. */
struct mheat {
	hm_heat_counts c;
	uint32_t *cpus;
	size_t n, cap;
	int nomem;
};

static void counts_add(hm_heat_counts *d, const hm_heat_counts *s)
{
	d->samples += s->samples;
	d->loads += s->loads;
	d->stores += s->stores;
	d->lcl_hitm += s->lcl_hitm;
	d->rmt_hitm += s->rmt_hitm;
	d->lcl_peer += s->lcl_peer;
	d->rmt_peer += s->rmt_peer;
	d->st_l1hit += s->st_l1hit;
	d->st_l1miss += s->st_l1miss;
	d->reads += s->reads;
	d->writes += s->writes;
	d->transfers += s->transfers;
}

static void cpus_add(struct mheat *h, const uint32_t *v, size_t n)
{
	if (!n)
		return;
	if (h->n + n > h->cap) {
		size_t cap = (h->n + n) * 2;
		uint32_t *p = realloc(h->cpus, cap * sizeof(*p));

		if (!p) {
			h->nomem = 1;
			return;
		}
		h->cpus = p;
		h->cap = cap;
	}
	memcpy(h->cpus + h->n, v, n * sizeof(*v));
	h->n += n;
}

static int path_within(const char *f, const char *path)
{
	size_t n = strlen(path);

	if (!n)
		return 1;	/* "" is the whole object */
	return !strncmp(f, path, n) && (f[n] == 0 || f[n] == '.' || f[n] == '[');
}

static void member_heat(const hm_profile_struct *ps, const char *path, struct mheat *h)
{
	for (size_t i = 0; ps && i < ps->nr_fields; i++) {
		if (!path_within(ps->fields[i].path, path))
			continue;
		counts_add(&h->c, &ps->fields[i].c);
		cpus_add(h, ps->fields[i].cpus, ps->fields[i].nr_cpus);
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Opens "heat": {...} and leaves it open for the caller to add to. */
static void json_heat(hm_json *j, struct mheat *h)
{
	const hm_heat_counts *c = &h->c;
	size_t i;

	if (h->n)
		qsort(h->cpus, h->n, sizeof(*h->cpus), cmp_u32);
	hm_json_key(j, "heat");
	hm_json_begin_object(j);
	hm_profile_json_counts(j, c);
	hm_json_key(j, "cpus");
	hm_json_begin_array(j);
	for (i = 0; i < h->n; i++)
		if (!i || h->cpus[i] != h->cpus[i - 1])
			hm_json_uint(j, h->cpus[i]);
	hm_json_end_array(j);
}

static void copy_value(hm_json *j, const hm_jp_value *v)
{
	const hm_jp_value *c;

	switch (v->type) {
	case HM_JP_NULL:
		hm_json_null(j);
		break;
	case HM_JP_FALSE:
	case HM_JP_TRUE:
		hm_json_bool(j, v->type == HM_JP_TRUE);
		break;
	case HM_JP_NUMBER:
		if (v->is_uint)
			hm_json_uint(j, v->u64);
		else if (v->num == (double)(int64_t)v->num)
			hm_json_int(j, (int64_t)v->num);
		else
			hm_json_double(j, v->num);
		break;
	case HM_JP_STRING:
		hm_json_string(j, v->str);
		break;
	case HM_JP_ARRAY:
		hm_json_begin_array(j);
		for (c = v->child; c; c = c->next)
			copy_value(j, c);
		hm_json_end_array(j);
		break;
	case HM_JP_OBJECT:
		hm_json_begin_object(j);
		for (c = v->child; c; c = c->next) {
			hm_json_key(j, c->key);
			copy_value(j, c);
		}
		hm_json_end_object(j);
		break;
	}
}

struct jctx {
	hm_json j;
	const hm_profile_struct *ps;
	int nomem;
};

static void json_member(struct jctx *x, const hm_jp_value *m, const char *prefix,
			struct mheat *parent);

static void json_members(struct jctx *x, const hm_jp_value *arr, const char *prefix,
			 struct mheat *acc)
{
	hm_json_begin_array(&x->j);
	for (const hm_jp_value *c = arr->child; c; c = c->next)
		json_member(x, c, prefix, acc);
	hm_json_end_array(&x->j);
}

/* A member with "heat" added: its own fields' heat when it has a name, the
 * sum of its members' for an anonymous struct/union. */
static void json_member(struct jctx *x, const hm_jp_value *m, const char *prefix,
			struct mheat *parent)
{
	const hm_jp_value *name = hm_jp_get(m, "name"), *c;
	struct mheat h = { 0 };
	char *path = NULL;

	if (m->type != HM_JP_OBJECT) {
		copy_value(&x->j, m);
		return;
	}
	if (name && name->type == HM_JP_STRING) {
		if (asprintf(&path, "%s%s%s", prefix, *prefix ? "." : "", name->str) < 0) {
			x->nomem = 1;
			path = NULL;
		}
	}
	hm_json_begin_object(&x->j);
	for (c = m->child; c; c = c->next) {
		hm_json_key(&x->j, c->key);
		if (!strcmp(c->key, "members") && c->type == HM_JP_ARRAY)
			json_members(x, c, path ? path : prefix, path ? NULL : &h);
		else
			copy_value(&x->j, c);
	}
	if (path)
		member_heat(x->ps, path, &h);
	json_heat(&x->j, &h);
	hm_json_end_object(&x->j);	/* "heat" */
	hm_json_end_object(&x->j);
	if (parent) {
		counts_add(&parent->c, &h.c);
		cpus_add(parent, h.cpus, h.n);
	}
	x->nomem |= h.nomem;
	free(h.cpus);
	free(path);
}

static void json_struct(struct jctx *x, const hm_jp_value *s, const hm_types *t, hm_type_id id,
			unsigned line, const hm_profile *p)
{
	HM_OPTS(hm_layout_opts, lo, .cacheline_size = line, .expand = 1);
	const hm_jp_value *c;
	struct mheat h = { 0 };
	hm_layout *l;

	x->ps = id ? lh_find(t, id, p) : NULL;
	hm_json_begin_object(&x->j);
	for (c = s->child; c; c = c->next) {
		hm_json_key(&x->j, c->key);
		if (!strcmp(c->key, "members") && c->type == HM_JP_ARRAY)
			json_members(x, c, "", NULL);
		else
			copy_value(&x->j, c);
	}
	member_heat(x->ps, "", &h);
	json_heat(&x->j, &h);
	hm_json_kbool(&x->j, "in_profile", x->ps != NULL);
	hm_json_key(&x->j, "gone");
	hm_json_begin_array(&x->j);
	l = x->ps ? hm_layout_new(t, record_of(t, id), &lo) : NULL;
	for (size_t k = 0; l && k < x->ps->nr_fields; k++)
		if (!path_known(l, x->ps->fields[k].path))
			hm_json_string(&x->j, x->ps->fields[k].path);
	hm_layout_free(l);
	hm_json_end_array(&x->j);
	hm_json_end_object(&x->j);	/* "heat" */
	hm_json_end_object(&x->j);
	x->nomem |= h.nomem;
	free(h.cpus);
}

static void json_source(hm_json *j, const struct lh_source *src)
{
	hm_json_key(j, "heat_source");
	hm_json_begin_object(j);
	hm_json_kstr(j, "path", src->name);
	hm_json_kstr(j, "kind", src->p->kind);
	hm_json_kuint(j, "samples", src->p->samples);
	hm_json_kuint(j, "attributed", src->p->attributed);
	hm_json_end_object(j);
}

int lh_print_json(FILE *out, const struct hm_json_binary *bin, const hm_types *t,
		  const hm_type_id *ids, size_t n, int expand, const struct lh_source *src)
{
	struct jctx x = { 0 };
	hm_jp_doc doc = { 0 };
	const hm_jp_value *c;
	char *buf = NULL;
	size_t len = 0, k = 0;
	FILE *m;
	int err;

	m = open_memstream(&buf, &len);
	if (!m)
		return -ENOMEM;
	err = hm_print_layouts_json(m, bin, t, ids, n, expand, 0);
	if (fclose(m) && !err)
		err = -ENOMEM;
	if (!err)
		err = hm_jp_parse(buf, len, "layout JSON", &doc);
	if (!err && (!doc.root || doc.root->type != HM_JP_OBJECT))
		err = -EBADMSG;
	if (err)
		goto out;
	hm_json_init(&x.j, out, 1);
	hm_json_begin_object(&x.j);
	for (c = doc.root->child; c; c = c->next) {
		hm_json_key(&x.j, c->key);
		if (strcmp(c->key, "structs") || c->type != HM_JP_ARRAY) {
			copy_value(&x.j, c);
			if (!strcmp(c->key, "binary"))
				json_source(&x.j, src);
			continue;
		}
		hm_json_begin_array(&x.j);
		for (const hm_jp_value *s = c->child; s; s = s->next, k++)
			json_struct(&x, s, t, k < n ? ids[k] : 0, bin->cacheline_size, src->p);
		hm_json_end_array(&x.j);
	}
	hm_json_end_object(&x.j);
	hm_json_finish(&x.j);
	err = x.nomem ? -ENOMEM : ferror(out) ? -EIO : 0;
out:
	hm_jp_free(&doc);
	free(buf);
	return err;
}
