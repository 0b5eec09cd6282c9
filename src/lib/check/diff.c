/* diff: one struct's layout in two builds, compared the way a reviewer reads
 * pahole output — lines counted from offset 0 in both.  Rules and profile
 * pairs are evaluated on both sides; only what the change broke is an error. */
#include "config.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/check.h"
#include "check/check-int.h"
#include "base/diag.h"
#include "base/util.h"
#include "base/opts.h"

#define COLW 37

struct side {
	const hm_types *t;
	hm_layout *l;
	const hm_field *f;
	size_t n;
	struct hmi_hot *hot;
	int nhot;
	struct hmc_geom g;
};

static int side_init(struct side *s, const hm_types *t, hm_type_id id,
		     const struct hm_check_opts *o, struct hmi_typeclass *tc)
{
	memset(s, 0, sizeof(*s));
	s->t = t;
	s->l = hmc_layout(t, id, o, 1);
	if (!s->l)
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	s->f = hm_layout_fields(s->l, &s->n);
	hmc_geom_init(&s->g, s->l, o, 1);
	s->nhot = hmi_hot_fields(tc, s->l, &s->hot);
	return s->nhot < 0 ? s->nhot : 0;
}

static void side_free(struct side *s)
{
	hm_layout_free(s->l);
	free(s->hot);
}

/* For every unit of `from`, the unit of `to` with the same path — the n-th
 * one when a path repeats (the alternatives of an anonymous union can
 * reuse a name).  HM_FIELD_NONE where there is none.  malloc'ed. */
static int by_path(const void *pa, const void *pb, void *ctx)
{
	const struct side *s = ctx;
	size_t x = *(const size_t *)pa, y = *(const size_t *)pb;
	int c = strcmp(s->f[x].path, s->f[y].path);

	return c ? c : (x > y) - (x < y);
}

/* Unit fields of one side in (path, position) order: the n-th field of a
 * path on one side is the n-th of that path on the other. */
static size_t *units_by_path(const struct side *s, size_t *n)
{
	size_t *v = malloc((s->n ? s->n : 1) * sizeof(*v));

	*n = 0;
	if (!v)
		return NULL;
	for (size_t k = 0; k < s->n; k++)
		if (hmc_is_unit(&s->f[k], s->f))
			v[(*n)++] = k;
	qsort_r(v, *n, sizeof(*v), by_path, (void *)s);
	return v;
}

static uint32_t *unit_map(const struct side *from, const struct side *to)
{
	uint32_t *map = malloc((from->n ? from->n : 1) * sizeof(*map));
	size_t nf = 0, nt = 0, i = 0, j = 0;
	size_t *f = units_by_path(from, &nf), *t = units_by_path(to, &nt);

	if (!map || !f || !t) {
		free(map);
		map = NULL;
		goto out;
	}
	for (size_t k = 0; k < from->n; k++)
		map[k] = HM_FIELD_NONE;
	/* a merge of the two sorted lists, occurrence by occurrence */
	while (i < nf && j < nt) {
		int c = strcmp(from->f[f[i]].path, to->f[t[j]].path);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			map[f[i++]] = (uint32_t)t[j++];
		}
	}
out:
	free(f);
	free(t);
	return map;
}

static int shares(const struct side *s, const hm_field *a, const hm_field *b)
{
	return hmc_may_share(&s->g, a->offset, a->size, b->offset, b->size);
}

/* ---- side by side ---- */

struct rows {
	char (*r)[COLW + 1];
	size_t n, cap;
};

static int row_add(struct rows *r, const char *s)
{
	if (hm_grow((void **)&r->r, &r->cap, r->n + 1, sizeof(*r->r)))
		return -ENOMEM;
	snprintf(r->r[r->n++], COLW + 1, "%s", s);
	return 0;
}

/* Whether a member is marked, or holds a marked sub-field. */
static int marked(const char *path, const char *const *marks, size_t nm)
{
	size_t i, n = strlen(path);

	for (i = 0; i < nm; i++)
		if (!strncmp(path, marks[i], n) && (!marks[i][n] || marks[i][n] == '.' ||
						     marks[i][n] == '['))
			return 1;
	return 0;
}

/* Rows for the given lines of one side: a header per line, then every unit
 * touching it; marked members get a '<'. */
static int side_rows(const struct side *s, const uint32_t *lines, size_t nl,
		     const char *const *marks, size_t nm, struct rows *out)
{
	unsigned ls = s->g.line;
	char buf[128];
	size_t i, k;

	for (i = 0; i < nl; i++) {
		snprintf(buf, sizeof(buf), "-- cacheline %u (%u-%u) --", lines[i],
			 lines[i] * ls, lines[i] * ls + ls - 1);
		if (row_add(out, buf))
			return -ENOMEM;
		for (k = 0; k < s->n; k++) {
			const hm_field *f = &s->f[k];
			int w;

			if (!hmc_is_unit(f, s->f) || f->line_first > lines[i] ||
			    (f->size ? f->line_last : f->line_first) < lines[i])
				continue;
			w = snprintf(buf, sizeof(buf), "%5llu %4llu %s",
				     (unsigned long long)f->offset, (unsigned long long)f->size,
				     f->path);
			if (marked(f->path, marks, nm)) {
				if (w > COLW - 2)
					w = COLW - 2;
				snprintf(buf + w, sizeof(buf) - w, " <");
			}
			if (row_add(out, buf))
				return -ENOMEM;
		}
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The lines the marked members occupy on one side, sorted, distinct. */
static size_t lines_of(const struct side *s, const char *const *marks, size_t nm,
		       uint32_t *out, size_t max)
{
	size_t i, n = 0, k, w = 0;
	uint32_t ln;

	for (i = 0; i < nm; i++) {
		const hm_field *f = hmc_find(s->l, marks[i]);

		if (!f)
			continue;
		for (ln = f->line_first; ln <= f->line_last && n < max; ln++)
			out[n++] = ln;
	}
	qsort(out, n, sizeof(*out), cmp_u32);
	for (k = 0; k < n; k++)
		if (!w || out[w - 1] != out[k])
			out[w++] = out[k];
	return w;
}

/* A column title: a long path keeps its end, where builds differ. */
static const char *label_tail(const char *s)
{
	size_t n = strlen(s);

	return n > COLW ? s + n - COLW : s;
}

static char *side_by_side(const struct side *a, const struct side *b,
			  const char *const *marks, size_t nm, const char *old_name,
			  const char *new_name)
{
	struct rows ra = { 0 }, rb = { 0 };
	uint32_t la[16], lb[16];
	size_t na = lines_of(a, marks, nm, la, 16), nb = lines_of(b, marks, nm, lb, 16), i;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (side_rows(a, la, na, marks, nm, &ra) || side_rows(b, lb, nb, marks, nm, &rb) ||
	    !(m = open_memstream(&buf, &len))) {
		free(ra.r);
		free(rb.r);
		return NULL;
	}
	fprintf(m, "%-*s | %s", COLW, label_tail(old_name), label_tail(new_name));
	for (i = 0; i < ra.n || i < rb.n; i++)
		fprintf(m, "\n%-*s | %s", COLW, i < ra.n ? ra.r[i] : "", i < rb.n ? rb.r[i] : "");
	fclose(m);
	free(ra.r);
	free(rb.r);
	return buf;
}

/* ---- the comparison of one struct ---- */

struct dctx {
	const struct hm_check_opts *o;
	hm_findings *out;
	const char *old_name, *new_name;
	/* errors of the current struct, for the side-by-side */
	const char *marks[HM_FINDING_MAX_MEMBERS * 4];
	size_t nm;
	size_t first_error;	/* index in out of the struct's first error, or SIZE_MAX */
	/* contention-prone pairs by the struct declaring them, merged at the end */
	struct epair *ep;
	size_t nep, cep;
	/* what changed in each compared struct, for the root causes */
	struct dinfo *di;
	size_t ndi, cdi;
	size_t compared, only_old, only_new;
	/* the struct changed only through member types (d->di's last): its
	 * moves are counted into one note rather than listed */
	int inherited;
	size_t q_lines, q_straddle, q_moved, q_pairs[2];
	hm_strtab *strs;
	/* anonymous structs by the typedef naming them: one id each */
	struct { const char *name; hm_type_id nid; } *td;
	size_t ntd, ctd;
	/* how hot a struct is likely to be: how many members of the new
	 * build's structs point to it (sorted by name, for bsearch) */
	struct fan { const char *name; size_t n; } *fan;
	size_t nfan;
};

static int fan_cmp(const void *pa, const void *pb)
{
	return strcmp(((const struct fan *)pa)->name, ((const struct fan *)pb)->name);
}

/* The record a type is or points to, through typedefs and qualifiers. */
static const hm_type *strip(const hm_types *t, hm_type_id id, int *ptr)
{
	const hm_type *ty = hm_types_get(t, id);
	unsigned hop = 0;

	while (ty && hop++ < 64) {
		if (ty->kind == HM_KIND_POINTER && !*ptr)
			*ptr = 1;
		else if (ty->kind != HM_KIND_TYPEDEF && ty->kind != HM_KIND_CONST &&
			 ty->kind != HM_KIND_VOLATILE)
			break;
		ty = hm_types_get(t, ty->target);
	}
	return ty;
}

/* Count the members pointing to each named struct: mm_struct, file, sock
 * are reached from hundreds of places, a driver's private struct from a
 * few.  Without a profile, that is what ranks one error above another. */
static int fan_in(struct dctx *d, const hm_types *t)
{
	size_t i, n = hm_types_count(t), cap = 0, k;

	for (i = 1; i <= n; i++) {
		const hm_type *ty = hm_types_get(t, (hm_type_id)i);
		const hm_member *m;

		if (!ty || !hm_kind_is_record(ty->kind) || ty->declaration)
			continue;
		m = hm_types_members(t, ty);
		for (k = 0; m && k < ty->nr; k++) {
			int ptr = 0;
			const hm_type *r = strip(t, m[k].type, &ptr);

			if (!ptr || !r || !hm_kind_is_record(r->kind) || !r->name)
				continue;
			if (hm_grow((void **)&d->fan, &cap, d->nfan + 1, sizeof(*d->fan)))
				return -ENOMEM;
			d->fan[d->nfan].name = r->name;
			d->fan[d->nfan++].n = 1;
		}
	}
	if (d->nfan > 1)
		qsort(d->fan, d->nfan, sizeof(*d->fan), fan_cmp);
	for (i = k = 0; i < d->nfan; i++) {
		if (k && !strcmp(d->fan[k - 1].name, d->fan[i].name))
			d->fan[k - 1].n++;
		else
			d->fan[k++] = d->fan[i];
	}
	d->nfan = k;
	return 0;
}

/* An error's weight for a struct: 1 for a struct nothing points to,
 * growing with the log of how many members point to it. */
static double hotness(const struct dctx *d, const char *name)
{
	struct fan key = { .name = name }, *f;

	if (!name || !d->nfan)
		return 1.0;
	f = bsearch(&key, d->fan, d->nfan, sizeof(*d->fan), fan_cmp);
	return f ? 1.0 + log2(1.0 + (double)f->n) : 1.0;
}

/* A contention-prone pair newly sharing a line, keyed by the struct that
 * declares both members and their paths in it. */
struct epair {
	const char *type;	/* declaring struct's name (interned) */
	const char *a, *b;	/* paths in it (interned) */
	const char *where;	/* "platform_device.dev.power" (interned) */
	const char *decl_file;
	uint32_t decl_line;
	double score;
	unsigned own : 1;	/* reported by the declaring struct itself */
};

/* A member whose size changed because its type's did: an edge to it. */
struct dep {
	const char *type;	/* the member's struct type's name (interned) */
	hm_type_id nid;		/* in the new table */
	uint64_t osize, nsize;
};

struct dinfo {
	const char *name;	/* interned */
	const char *decl_file;
	uint32_t decl_line;
	hm_type_id nid;
	uint64_t osize, nsize;
	struct dep *deps;
	size_t ndeps;
	char *why;		/* its own changes ("magic added, owner_cpu added"); NULL */
	size_t nwhy;		/* how many */
	size_t moved;		/* structs it moves (root causes only) */
	unsigned root : 1;
};

static void mark(struct dctx *d, const char *path)
{
	size_t i;

	for (i = 0; i < d->nm; i++)
		if (!strcmp(d->marks[i], path))
			return;
	if (d->nm < sizeof(d->marks) / sizeof(d->marks[0]))
		d->marks[d->nm++] = path;
}

/* Call before adding an error: the first one of a struct gets the
 * side-by-side. */
static void note_error(struct dctx *d)
{
	if (d->first_error == SIZE_MAX)
		d->first_error = hm_findings_count(d->out);
}

/* Record a newly shared contention-prone pair under the struct declaring
 * both members.  Returns 1 when that is a struct embedded in this one (the
 * pair is reported once, at the end, for every struct embedding it), 0
 * when this struct declares them (reported here), or -ENOMEM. */
static int ep_add(struct dctx *d, const struct side *b, uint32_t fa, uint32_t fb, double score)
{
	hm_type_id tid;
	uint32_t e = hmc_owner(b->l, fa, fb, &tid);
	const hm_type *ty = e == HM_FIELD_NONE ? NULL : hm_types_get(b->t, tid);
	size_t pl = e == HM_FIELD_NONE ? 0 : strlen(b->f[e].path) + 1;
	struct epair p = { .score = score, .own = e == HM_FIELD_NONE };
	char where[512];

	if (e == HM_FIELD_NONE) {
		ty = hm_types_get(b->t, hm_layout_type(b->l));
		p.type = hm_strtab_intern(d->strs, hmi_layout_name(b->l));
	} else {
		p.type = hm_strtab_intern(d->strs, ty->name);
	}
	p.score *= hotness(d, p.type);
	snprintf(where, sizeof(where), "%s%s%s", hmi_layout_name(b->l), pl ? "." : "",
		 pl ? b->f[e].path : "");
	p.a = hm_strtab_intern(d->strs, b->f[fa].path + pl);
	p.b = hm_strtab_intern(d->strs, b->f[fb].path + pl);
	p.where = hm_strtab_intern(d->strs, where);
	p.decl_file = ty ? ty->decl_file : NULL;
	p.decl_line = ty ? ty->decl_line : 0;
	if (!p.type || !p.a || !p.b || !p.where ||
	    hm_grow((void **)&d->ep, &d->cep, d->nep + 1, sizeof(*d->ep)))
		return -ENOMEM;
	d->ep[d->nep++] = p;
	return !p.own;
}

static int ep_cmp(const void *pa, const void *pb)
{
	const struct epair *x = pa, *y = pb;
	int c = strcmp(x->type, y->type);

	if (!c)
		c = strcmp(x->a, y->a);
	if (!c)
		c = strcmp(x->b, y->b);
	return c;
}

/* One error per pair of an embedded struct, with how many structs place it
 * so, unless the struct itself reported it. */
static int ep_flush(struct dctx *d)
{
	size_t i, j, k;
	int e = 0;

	if (d->nep > 1)
		qsort(d->ep, d->nep, sizeof(*d->ep), ep_cmp);
	for (i = 0; i < d->nep && !e; i = j) {
		size_t n = 0, own = 0;
		hm_finding fi;

		for (j = i; j < d->nep && !ep_cmp(&d->ep[i], &d->ep[j]); j++) {
			own |= d->ep[j].own;
			n++;
		}
		if (own)
			continue;
		memset(&fi, 0, sizeof(fi));
		fi.severity = HM_SEV_ERROR;
		fi.kind = "diff-hot-shared";
		fi.object = d->ep[i].type;
		fi.decl_file = d->ep[i].decl_file;
		fi.decl_line = d->ep[i].decl_line;
		fi.line_first = fi.line_last = UINT32_MAX;
		fi.nr_members = 2;
		fi.members[0] = d->ep[i].a;
		fi.members[1] = d->ep[i].b;
		fi.score = d->ep[i].score;
		for (k = i + 1; k < j; k++)
			if (d->ep[k].score > fi.score)
				fi.score = d->ep[k].score;
		e = hm_findings_addf(d->out, &fi, "%s and %s now share a cacheline in %zu "
				     "struct%s embedding it (both contention-prone; first: %s)",
				     fi.members[0], fi.members[1], n, n == 1 ? "" : "s",
				     d->ep[i].where);
	}
	return e;
}

static int hot_pair(struct dctx *d, const struct side *a, const struct side *b, int i, int j)
{
	const hm_field *x = &b->f[b->hot[i].field], *y = &b->f[b->hot[j].field];
	const hm_field *ox = hmc_find(a->l, x->path), *oy = hmc_find(a->l, y->path);
	hm_finding fi;
	char txt[128];
	int e;

	if (ox && oy && shares(a, ox, oy))
		return 0;
	if ((e = ep_add(d, b, (uint32_t)b->hot[i].field, (uint32_t)b->hot[j].field,
			10.0 * (b->hot[i].weight + b->hot[j].weight))) != 0)
		return e < 0 ? e : 0;	/* 1: the declaring struct's finding */
	hmc_share_text(b->l, &b->g, x, y, txt, sizeof(txt));
	hmc_base(&fi, b->l, HM_SEV_ERROR, "diff-hot-shared");
	fi.nr_members = 2;
	fi.members[0] = x->path;
	fi.members[1] = y->path;
	fi.line_first = x->line_first > y->line_first ? x->line_first : y->line_first;
	fi.line_last = fi.line_first;
	fi.score = 10.0 * (b->hot[i].weight + b->hot[j].weight) * hotness(d, hmi_layout_name(b->l));
	mark(d, x->path);
	mark(d, y->path);
	note_error(d);
	return hm_findings_addf(d->out, &fi, "%s and %s now %s (both contention-prone)",
				x->path, y->path, txt);
}

struct pair {
	size_t i, j;	/* candidate indexes (fields, or hot entries), i < j */
};

static int cmp_pair(const void *pa, const void *pb)
{
	const struct pair *x = pa, *y = pb;

	return x->i != y->i ? (x->i > y->i) - (x->i < y->i) : (x->j > y->j) - (x->j < y->j);
}

/* Where candidate k lies: field map[k] of side s (b's fields through ba
 * in a, hot entries through their field), or field k itself. */
struct by_side {
	const struct side *s;
	const uint32_t *map;	/* NULL: candidates are s's field indexes */
};

static const hm_field *side_field(const struct by_side *c, size_t k)
{
	return &c->s->f[c->map ? c->map[k] : k];
}

static int by_side_offset(const void *pa, const void *pb, void *ctx)
{
	size_t x = *(const size_t *)pa, y = *(const size_t *)pb;
	uint64_t ox = side_field(ctx, x)->offset, oy = side_field(ctx, y)->offset;

	return ox != oy ? (ox > oy) - (ox < oy) : (x > y) - (x < y);
}

/* Pairs of v[] (b's field indexes) that may share a line on side c: the
 * neighbours within a unit in offset order. */
static int add_sharing(const struct by_side *c, size_t *v, size_t n, struct pair **pr,
		       size_t *np, size_t *cap)
{
	qsort_r(v, n, sizeof(*v), by_side_offset, (void *)c);
	for (size_t p = 0; p < n; p++) {
		const hm_field *x = side_field(c, v[p]);

		for (size_t q = p + 1; q < n; q++) {
			const hm_field *y = side_field(c, v[q]);

			if (y->offset >= x->offset + x->size + c->s->g.unit)
				break;
			if (!shares(c->s, x, y))
				continue;
			if (hm_grow((void **)pr, cap, *np + 1, sizeof(**pr)))
				return -ENOMEM;
			(*pr)[*np].i = v[p] < v[q] ? v[p] : v[q];
			(*pr)[*np].j = v[p] < v[q] ? v[q] : v[p];
			(*np)++;
		}
	}
	return 0;
}

/* Sort pairs into (i, j) order and drop repeats. */
static void sort_pairs(struct pair *pr, size_t *np)
{
	size_t k, u;

	if (*np)
		qsort(pr, *np, sizeof(*pr), cmp_pair);
	for (k = u = 0; k < *np; k++)
		if (!u || cmp_pair(&pr[u - 1], &pr[k]))
			pr[u++] = pr[k];
	*np = u;
}

/* Contention-prone members that newly share a line, reported in the order
 * of the hot list. */
static int hot_pairs(struct dctx *d, const struct side *a, const struct side *b)
{
	uint32_t *hf = malloc((b->nhot ? b->nhot : 1) * sizeof(*hf));
	size_t *v = malloc((b->nhot ? b->nhot : 1) * sizeof(*v)), np = 0, cap = 0;
	struct by_side cb = { b, hf };
	struct pair *pr = NULL;
	int e = hf && v ? 0 : -ENOMEM;

	for (int i = 0; !e && i < b->nhot; i++) {
		hf[i] = b->hot[i].field;
		v[i] = i;
	}
	if (!e)
		e = add_sharing(&cb, v, b->nhot, &pr, &np, &cap);
	if (!e)
		sort_pairs(pr, &np);
	for (size_t k = 0; k < np && !e; k++)
		e = hot_pair(d, a, b, (int)pr[k].i, (int)pr[k].j);
	free(pr);
	free(v);
	free(hf);
	return e;
}

static int size_facts(struct dctx *d, const struct side *a, const struct side *b)
{
	const struct hm_layout_summary *sa = hm_layout_summary(a->l), *sb = hm_layout_summary(b->l);
	hm_finding fi;
	int e = 0;

	hmc_base(&fi, b->l, HM_SEV_NOTE, "diff-size");
	if (sa->size != sb->size || sa->cachelines != sb->cachelines)
		e = hm_findings_addf(d->out, &fi, "size %llu -> %llu (%+lld), cachelines %u -> %u",
				     (unsigned long long)sa->size, (unsigned long long)sb->size,
				     (long long)(sb->size - sa->size), sa->cachelines,
				     sb->cachelines);
	if (!e && sa->alignment != sb->alignment) {
		fi.kind = "diff-alignment";
		e = hm_findings_addf(d->out, &fi, "alignment %u -> %u (%s)", sa->alignment,
				     sb->alignment, sb->alignment > sa->alignment ? "gained" : "lost");
	}
	return e;
}

static int member_facts(struct dctx *d, const struct side *a, const struct side *b,
			const uint32_t *ba, const uint32_t *ab)
{
	size_t k, moved = 0;
	hm_finding fi;
	int e;

	for (k = 0; k < b->n; k++) {
		const hm_field *y = &b->f[k], *x;

		if (!hmc_is_unit(y, b->f))
			continue;
		x = ba[k] == HM_FIELD_NONE ? NULL : &a->f[ba[k]];
		hmc_base(&fi, b->l, HM_SEV_NOTE, "diff-added");
		fi.nr_members = 1;
		fi.members[0] = y->path;
		if (!x) {
			if ((e = hm_findings_addf(d->out, &fi, "%s added at offset %llu",
						  y->path, (unsigned long long)y->offset)))
				return e;
			continue;
		}
		if (x->offset != y->offset)
			moved++;
		if (x->size != y->size) {
			char ty[128];

			if (hm_types_declare(b->t, y->type, NULL, ty, sizeof(ty)) < 0)
				snprintf(ty, sizeof(ty), "?");
			fi.kind = "diff-member-size";
			fi.line_first = y->line_first;
			fi.line_last = y->line_last;
			if ((e = hm_findings_addf(d->out, &fi, "%s %llu -> %llu (%s)", y->path,
						  (unsigned long long)x->size,
						  (unsigned long long)y->size, ty)))
				return e;
			fi.line_first = fi.line_last = UINT32_MAX;
		}
		/* a member that grew or shrank in place has its own note */
		if (x->offset != y->offset &&
		    (x->line_first != y->line_first || x->line_last != y->line_last) &&
		    d->inherited) {
			d->q_lines++;
		} else if (x->offset != y->offset &&
		    (x->line_first != y->line_first || x->line_last != y->line_last)) {
			fi.kind = "diff-line";
			fi.line_first = y->line_first;
			fi.line_last = y->line_last;
			if ((e = hm_findings_addf(d->out, &fi, "%s moved from offset %llu (line "
						  "%u%s) to %llu (line %u%s)", y->path,
						  (unsigned long long)x->offset, x->line_first,
						  x->straddles ? "+" : "", (unsigned long long)y->offset,
						  y->line_first, y->straddles ? "+" : "")))
				return e;
			fi.line_first = fi.line_last = UINT32_MAX;
		}
		if (y->straddles != x->straddles && d->inherited) {
			d->q_straddle++;
		} else if (y->straddles != x->straddles) {
			fi.kind = "diff-straddle";
			if ((e = hm_findings_addf(d->out, &fi, "%s %s", y->path, y->straddles ?
						  "now straddles a line boundary" :
						  "no longer straddles a line boundary")))
				return e;
		}
		if (x->member && y->member && x->member->alignment != y->member->alignment) {
			fi.kind = "diff-alignment";
			if ((e = hm_findings_addf(d->out, &fi, "%s alignment attribute %u -> %u",
						  y->path, x->member->alignment,
						  y->member->alignment)))
				return e;
		}
	}
	for (k = 0; k < a->n; k++) {
		if (!hmc_is_unit(&a->f[k], a->f) || ab[k] != HM_FIELD_NONE)
			continue;
		hmc_base(&fi, b->l, HM_SEV_NOTE, "diff-removed");
		fi.nr_members = 1;
		fi.members[0] = a->f[k].path;
		if ((e = hm_findings_addf(d->out, &fi, "%s removed (was at offset %llu)",
					  a->f[k].path, (unsigned long long)a->f[k].offset)))
			return e;
	}
	d->q_moved = moved;
	if (moved && !d->inherited) {
		hmc_base(&fi, b->l, HM_SEV_NOTE, "diff-moved");
		return hm_findings_addf(d->out, &fi, "%zu member%s changed offset", moved,
					moved == 1 ? "" : "s");
	}
	return 0;
}

/* Member pairs that newly share a line or no longer do: one note each way,
 * the pairs listed in its detail. */
/* The pairs of b's unit fields (present in a too) whose sharing may have
 * changed: those that may share a line now or did before; every other
 * pair shares on neither side.  In (i, j) order, without repeats. */
static struct pair *sharing_candidates(const struct side *a, const struct side *b,
				       const uint32_t *ba, size_t *np)
{
	size_t *v = malloc((b->n ? b->n : 1) * sizeof(*v)), n = 0, cap = 0, k;
	struct by_side cb = { b, NULL }, ca = { a, ba };
	struct pair *pr = NULL;

	*np = 0;
	if (!v)
		return NULL;
	for (k = 0; k < b->n; k++)
		if (hmc_is_unit(&b->f[k], b->f) && b->f[k].size && ba[k] != HM_FIELD_NONE)
			v[n++] = k;
	if (add_sharing(&cb, v, n, &pr, np, &cap) || add_sharing(&ca, v, n, &pr, np, &cap)) {
		free(v);
		free(pr);
		return NULL;
	}
	free(v);
	sort_pairs(pr, np);
	return pr ? pr : calloc(1, sizeof(*pr));
}

static int pair_facts(struct dctx *d, const struct side *a, const struct side *b,
		      const uint32_t *ba)
{
	char *buf[2] = { NULL, NULL };
	size_t len[2] = { 0, 0 }, cnt[2] = { 0, 0 }, np;
	struct pair *pr;
	FILE *m[2];
	int e = 0, w;

	m[0] = open_memstream(&buf[0], &len[0]);
	m[1] = open_memstream(&buf[1], &len[1]);
	if (!m[0] || !m[1]) {
		if (m[0])
			fclose(m[0]);
		free(buf[0]);
		return -ENOMEM;
	}
	if (!(pr = sharing_candidates(a, b, ba, &np))) {
		e = -ENOMEM;
		np = 0;
	}
	for (size_t k = 0; k < np; k++) {
		const hm_field *y1 = &b->f[pr[k].i], *y2 = &b->f[pr[k].j];
		const hm_field *x1 = &a->f[ba[pr[k].i]], *x2 = &a->f[ba[pr[k].j]];
		int now = shares(b, y1, y2), was = shares(a, x1, x2);

		if (now == was)
			continue;
		w = now ? 0 : 1;
		if (cnt[w] < 20)
			fprintf(m[w], "%s%s + %s", cnt[w] ? "\n" : "", y1->path, y2->path);
		else if (cnt[w] == 20)
			fprintf(m[w], "\n...");
		cnt[w]++;
	}
	free(pr);
	fclose(m[0]);
	fclose(m[1]);
	for (w = 0; w < 2 && !e; w++) {
		hm_finding fi;

		d->q_pairs[w] = cnt[w];
		if (!cnt[w] || d->inherited)
			continue;
		hmc_base(&fi, b->l, HM_SEV_NOTE, w ? "diff-unshared" : "diff-shared");
		fi.detail = buf[w];
		e = hm_findings_addf(d->out, &fi, "%zu member pair%s %s a cacheline", cnt[w],
				     cnt[w] == 1 ? "" : "s", w ? "no longer share" : "newly share");
	}
	free(buf[0]);
	free(buf[1]);
	return e;
}

static int group_facts(struct dctx *d, const struct side *a, const struct side *b)
{
	const hm_group *ga, *gb;
	size_t na, nb, i, k;
	hm_finding fi;
	int e;

	ga = hm_layout_groups(a->l, &na);
	gb = hm_layout_groups(b->l, &nb);
	for (i = 0; i < nb; i++) {
		for (k = 0; k < na && strcmp(ga[k].name, gb[i].name); k++)
			;
		hmc_base(&fi, b->l, HM_SEV_NOTE, "diff-group");
		fi.nr_members = 1;
		fi.members[0] = gb[i].name;
		if (k == na)
			e = hm_findings_addf(d->out, &fi, "group %s added (bytes %llu-%llu)",
					     gb[i].name, (unsigned long long)gb[i].offset,
					     (unsigned long long)(gb[i].offset + gb[i].size));
		else if (ga[k].offset != gb[i].offset || ga[k].size != gb[i].size)
			e = hm_findings_addf(d->out, &fi, "group %s span %llu+%llu -> %llu+%llu",
					     gb[i].name, (unsigned long long)ga[k].offset,
					     (unsigned long long)ga[k].size,
					     (unsigned long long)gb[i].offset,
					     (unsigned long long)gb[i].size);
		else
			e = 0;
		if (e)
			return e;
	}
	for (k = 0; k < na; k++) {
		for (i = 0; i < nb && strcmp(ga[k].name, gb[i].name); i++)
			;
		if (i < nb)
			continue;
		hmc_base(&fi, b->l, HM_SEV_NOTE, "diff-group");
		fi.nr_members = 1;
		fi.members[0] = ga[k].name;
		if ((e = hm_findings_addf(d->out, &fi, "group %s removed", ga[k].name)))
			return e;
	}
	return 0;
}

/* ---- rules and profile pairs on both sides ---- */

static int same_finding(const hm_finding *x, const hm_finding *y)
{
	unsigned k;

	if (strcmp(x->kind, y->kind) || strcmp(x->object ? x->object : "",
					       y->object ? y->object : "") ||
	    x->nr_members != y->nr_members || x->rule_line != y->rule_line ||
	    x->rule_col != y->rule_col)
		return 0;
	for (k = 0; k < x->nr_members; k++)
		if (strcmp(x->members[k], y->members[k]))
			return 0;
	return 1;
}

static int counted(const hm_finding *x)
{
	return x->severity > HM_SEV_NOTE && strcmp(x->kind, "absent") && strcmp(x->kind, "pass");
}

static int same_rule(const hm_finding *x, const hm_finding *y)
{
	return x->rule_line == y->rule_line && x->rule_col == y->rule_col &&
	       !strcmp(x->rule_file ? x->rule_file : "", y->rule_file ? y->rule_file : "");
}

/* One violation of a rule, whatever else it lists: an `alone` finding
 * names its subject first and then the neighbours of the moment, which
 * change with any layout change and are not a new violation. */
static int same_violation(const hm_finding *x, const hm_finding *y)
{
	if (!strcmp(x->kind, "alone") && !strcmp(y->kind, "alone"))
		return same_rule(x, y) && !strcmp(x->object ? x->object : "",
						   y->object ? y->object : "") &&
		       x->nr_members && y->nr_members && !strcmp(x->members[0], y->members[0]);
	return same_finding(x, y);
}

static int rule_of(const hm_finding *x, const char *object)
{
	return counted(x) && x->object && !strcmp(x->object, object);
}

/* Index of the first finding of `f` (for `object`) from the rule of *x,
 * or SIZE_MAX. */
static size_t first_of_rule(const hm_findings *f, const hm_finding *x, const char *object)
{
	size_t i, n = hm_findings_count(f);

	for (i = 0; i < n; i++)
		if (rule_of(hm_findings_get(f, i), object) && same_rule(hm_findings_get(f, i), x))
			return i;
	return SIZE_MAX;
}

static int in_set(const hm_findings *f, const hm_finding *x, const char *object)
{
	size_t i, n = hm_findings_count(f);

	for (i = 0; i < n; i++)
		if (rule_of(hm_findings_get(f, i), object) &&
		    same_violation(x, hm_findings_get(f, i)))
			return 1;
	return 0;
}

static int regression(struct dctx *d, hm_finding x)
{
	unsigned m;

	for (m = 0; m < x.nr_members; m++)
		mark(d, x.members[m]);
	x.detail = NULL;
	/* a rule the user gave outranks what lint infers */
	x.score += 1e6;
	note_error(d);
	return hm_findings_addf(d->out, &x, "regression: %s", x.message);
}

/* One verdict per rule: broken only in `now` (regressed: errors, the
 * rule's own severity for `warn` rules), broken only in `before` (fixed: a
 * note), broken in both with a violation `before` lacked (regressed), or
 * with the same ones (still failing: a note).  A rule is never reported
 * both fixed and regressed. */
static int rule_changes(struct dctx *d, const hm_findings *before, const hm_findings *now,
			const char *object)
{
	size_t i, k, nb = hm_findings_count(before), nn = hm_findings_count(now);
	int e;

	for (i = 0; i < nn; i++) {
		const hm_finding *x = hm_findings_get(now, i);
		size_t j, nnew = 0;

		if (!rule_of(x, object) || first_of_rule(now, x, object) != i)
			continue;
		if (first_of_rule(before, x, object) == SIZE_MAX) {
			for (j = i; j < nn; j++)
				if (rule_of(hm_findings_get(now, j), object) &&
				    same_rule(hm_findings_get(now, j), x) &&
				    (e = regression(d, *hm_findings_get(now, j))))
					return e;
			continue;
		}
		for (j = i; j < nn; j++) {
			const hm_finding *y = hm_findings_get(now, j);

			if (!rule_of(y, object) || !same_rule(y, x) || in_set(before, y, object))
				continue;
			nnew++;
			if ((e = regression(d, *y)))
				return e;
		}
		if (!nnew) {
			hm_finding z = *x;

			z.severity = HM_SEV_NOTE;
			z.detail = NULL;
			if ((e = hm_findings_addf(d->out, &z, "still failing: %s", x->message)))
				return e;
		}
	}
	for (k = 0; k < nb; k++) {
		hm_finding x = *hm_findings_get(before, k);

		if (!rule_of(&x, object) || first_of_rule(now, &x, object) != SIZE_MAX)
			continue;
		x.severity = HM_SEV_NOTE;
		x.detail = NULL;
		if ((e = hm_findings_addf(d->out, &x, "fixed: %s", x.message)))
			return e;
	}
	return 0;
}

/* ---- root causes ---- */

/* The struct a member holds (through typedefs, qualifiers, arrays), and
 * its name: its tag, or for an anonymous struct the typedef that names it
 * (rwlock_t), so that a change of rwlock_t is one root cause rather than
 * one per struct embedding it. */
static hm_type_id held_record(const hm_types *t, hm_type_id id, const char **name)
{
	const hm_type *ty;
	const char *td = NULL;
	unsigned hop = 0;

	for (ty = hm_types_get(t, id);
	     ty && hop < 256 && (ty->kind == HM_KIND_TYPEDEF || ty->kind == HM_KIND_CONST ||
				 ty->kind == HM_KIND_VOLATILE || ty->kind == HM_KIND_ARRAY);
	     id = ty->target, ty = hm_types_get(t, id), hop++)
		if (ty->kind == HM_KIND_TYPEDEF && ty->name)
			td = ty->name;
	if (ty && hm_kind_is_record(ty->kind) && !ty->declaration && (ty->name || td)) {
		*name = ty->name ? ty->name : td;
		return id;
	}
	return HM_TYPE_NONE;
}

/* One type id per name for the anonymous structs named by a typedef: a
 * vmlinux holds one copy of rwlock_t's struct per unit. */
static hm_type_id canon_nid(struct dctx *d, const char *name, hm_type_id nid)
{
	size_t i;

	for (i = 0; i < d->ntd; i++)
		if (d->td[i].name == name)
			return d->td[i].nid;
	if (!hm_grow((void **)&d->td, &d->ctd, d->ntd + 1, sizeof(*d->td))) {
		d->td[d->ntd].name = name;
		d->td[d->ntd++].nid = nid;
	}
	return nid;
}

static void why_add(hm_sbuf *w, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void why_add(hm_sbuf *w, size_t *n, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	if (*n < 3) {
		va_start(ap, fmt);
		vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		if (*n)
			hm_sbuf_puts(w, ", ");
		hm_sbuf_puts(w, buf);
	}
	(*n)++;
}

/* What changed in one compared struct: its own changes (members added,
 * removed, resized by something other than a struct type), and the member
 * struct types whose change it inherits. */
static int record_change(struct dctx *d, const struct side *a, const struct side *b,
			 const uint32_t *ba, const uint32_t *ab)
{
	const struct hm_layout_summary *sa = hm_layout_summary(a->l), *sb = hm_layout_summary(b->l);
	const hm_type *nty = hm_types_get(b->t, hm_layout_type(b->l));
	struct dinfo di = { .nid = hm_layout_type(b->l), .osize = sa->size, .nsize = sb->size };
	hm_sbuf w = { 0 };
	int changed = sa->size != sb->size || sa->alignment != sb->alignment;
	size_t k, cap = 0;

	for (k = 0; k < b->n; k++) {
		const hm_field *y = &b->f[k], *x;
		const char *nn = NULL, *on = NULL;
		hm_type_id rn, ro;

		if (!hmc_is_unit(y, b->f))
			continue;
		if (ba[k] == HM_FIELD_NONE) {
			changed = 1;
			why_add(&w, &di.nwhy, "%s added", y->path);
			continue;
		}
		x = &a->f[ba[k]];
		changed |= x->offset != y->offset;
		if (x->member && y->member && x->member->alignment != y->member->alignment) {
			changed = 1;
			why_add(&w, &di.nwhy, "%s aligned %u -> %u", y->path,
				x->member->alignment, y->member->alignment);
		}
		if (x->size == y->size)
			continue;
		changed = 1;
		rn = held_record(b->t, y->type, &nn);
		ro = held_record(a->t, x->type, &on);
		if (rn != HM_TYPE_NONE && ro != HM_TYPE_NONE && !strcmp(nn, on) &&
		    hm_types_get(b->t, rn)->size != hm_types_get(a->t, ro)->size) {
			struct dep dp = { .nid = rn, .osize = hm_types_get(a->t, ro)->size,
					  .nsize = hm_types_get(b->t, rn)->size,
					  .type = hm_strtab_intern(d->strs, nn) };

			if (!dp.type || hm_grow((void **)&di.deps, &cap, di.ndeps + 1, sizeof(dp)))
				goto nomem;
			if (!hm_types_get(b->t, rn)->name)
				dp.nid = canon_nid(d, dp.type, rn);
			di.deps[di.ndeps++] = dp;
		} else {
			why_add(&w, &di.nwhy, "%s %llu -> %llu", y->path,
				(unsigned long long)x->size, (unsigned long long)y->size);
		}
	}
	for (k = 0; k < a->n; k++) {
		if (!hmc_is_unit(&a->f[k], a->f) || ab[k] != HM_FIELD_NONE)
			continue;
		changed = 1;
		why_add(&w, &di.nwhy, "%s removed", a->f[k].path);
	}
	if (!changed) {
		free(di.deps);
		free(w.p);
		return 0;
	}
	if (!di.ndeps && !di.nwhy)
		why_add(&w, &di.nwhy, "padding or alignment");
	if (di.nwhy > 3)
		hm_sbuf_printf(&w, " and %zu more", di.nwhy - 3);
	di.root = di.nwhy > 0;
	di.why = di.nwhy ? w.p : NULL;
	if (!di.nwhy)
		free(w.p);
	w.p = NULL;
	di.name = hm_strtab_intern(d->strs, hmi_layout_name(b->l));
	di.decl_file = nty ? nty->decl_file : NULL;
	di.decl_line = nty ? nty->decl_line : 0;
	if (!di.name || (di.nwhy && !di.why) ||
	    hm_grow((void **)&d->di, &d->cdi, d->ndi + 1, sizeof(di)))
		goto nomem;
	d->di[d->ndi++] = di;
	d->inherited = !di.root && di.ndeps;
	free(w.p);
	return 0;
nomem:
	free(di.deps);
	free(di.why);
	free(w.p);
	return -ENOMEM;
}

static int di_cmp(const void *pa, const void *pb)
{
	const struct dinfo *x = pa, *y = pb;

	return x->nid < y->nid ? -1 : x->nid > y->nid;
}

static size_t di_find(const struct dctx *d, size_t n, hm_type_id nid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->di[mid].nid < nid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && d->di[lo].nid == nid ? lo : SIZE_MAX;
}

static int root_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct dinfo *di = ctx;
	const struct dinfo *x = &di[*(const size_t *)pa], *y = &di[*(const size_t *)pb];

	if (x->moved != y->moved)
		return x->moved > y->moved ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The root causes: changed types whose change is their own, each with the
 * compared structs it moves (those that embed it at any depth and changed),
 * and the counts of structs.  Summary findings. */
static int root_causes(struct dctx *d)
{
	size_t n, i, k, nroots = 0, changed = d->ndi, *order = NULL;
	size_t *head = NULL, *adj = NULL, *queue = NULL, *seen = NULL, nadj = 0;
	hm_finding fi;
	int e = 0;

	if (d->ndi > 1)
		qsort(d->di, d->ndi, sizeof(*d->di), di_cmp);
	/* a member type that changed but was not compared (-C) is a root as it is */
	n = d->ndi;
	for (i = 0; i < n && !e; i++)
		for (k = 0; k < d->di[i].ndeps && !e; k++) {
			const struct dep *dp = &d->di[i].deps[k];
			struct dinfo s = { .name = dp->type, .nid = dp->nid, .osize = dp->osize,
					   .nsize = dp->nsize, .root = 1 };
			size_t j;

			if (di_find(d, n, dp->nid) != SIZE_MAX)
				continue;
			for (j = n; j < d->ndi && d->di[j].nid != dp->nid; j++)
				;
			if (j == d->ndi) {
				if (hm_grow((void **)&d->di, &d->cdi, d->ndi + 1, sizeof(s)))
					e = -ENOMEM;
				else
					d->di[d->ndi++] = s;
			}
		}
	if (e)
		return e;
	if (d->ndi > 1)
		qsort(d->di, d->ndi, sizeof(*d->di), di_cmp);
	n = d->ndi;
	/* reverse edges: from a member type to the structs holding it */
	head = calloc(n + 1, sizeof(*head));
	for (i = 0; i < n; i++)
		nadj += d->di[i].ndeps;
	adj = malloc((nadj ? nadj : 1) * sizeof(*adj));
	queue = malloc((n ? n : 1) * sizeof(*queue));
	seen = calloc(n ? n : 1, sizeof(*seen));
	order = malloc((n ? n : 1) * sizeof(*order));
	if (!head || !adj || !queue || !seen || !order) {
		e = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		for (k = 0; k < d->di[i].ndeps; k++)
			head[di_find(d, n, d->di[i].deps[k].nid) + 1]++;
	for (i = 0; i < n; i++)
		head[i + 1] += head[i];
	{
		size_t *fill = calloc(n ? n : 1, sizeof(*fill));

		if (!fill) {
			e = -ENOMEM;
			goto out;
		}
		for (i = 0; i < n; i++)
			for (k = 0; k < d->di[i].ndeps; k++) {
				size_t t = di_find(d, n, d->di[i].deps[k].nid);

				adj[head[t] + fill[t]++] = i;
			}
		free(fill);
	}
	for (i = 0; i < n; i++) {
		size_t qh = 0, qt = 0;

		if (!d->di[i].root)
			continue;
		queue[qt++] = i;
		seen[i] = i + 1;
		while (qh < qt) {
			size_t u = queue[qh++];

			for (k = head[u]; k < head[u + 1]; k++)
				if (seen[adj[k]] != i + 1) {
					seen[adj[k]] = i + 1;
					queue[qt++] = adj[k];
				}
		}
		d->di[i].moved = qt - 1;
		if (d->di[i].moved)	/* a change of its own alone is in the notes */
			order[nroots++] = i;
	}
	if (nroots > 1)
		qsort_r(order, nroots, sizeof(*order), root_cmp, d->di);
	memset(&fi, 0, sizeof(fi));
	fi.severity = HM_SEV_NOTE;
	fi.summary = 1;
	fi.line_first = fi.line_last = UINT32_MAX;
	fi.kind = "diff-structs";
	fi.score = 1e12;
	e = hm_findings_addf(d->out, &fi, "%zu struct%s compared, %zu changed; %zu only in the "
			     "old build, %zu only in the new", d->compared,
			     d->compared == 1 ? "" : "s", changed, d->only_old, d->only_new);
	for (i = 0; i < nroots && !e; i++) {
		const struct dinfo *r = &d->di[order[i]];

		fi.kind = "diff-root-cause";
		fi.object = r->name;
		fi.decl_file = r->decl_file;
		fi.decl_line = r->decl_line;
		fi.score = (double)r->moved;
		e = hm_findings_addf(d->out, &fi, "root cause: size %llu -> %llu (%+lld), moves "
				     "%zu struct%s%s%s", (unsigned long long)r->osize,
				     (unsigned long long)r->nsize,
				     (long long)(r->nsize - r->osize), r->moved,
				     r->moved == 1 ? "" : "s", r->why ? ": " : "",
				     r->why ? r->why : "");
	}
out:
	free(head);
	free(adj);
	free(queue);
	free(seen);
	free(order);
	return e;
}

/* One note for a struct that changed only because member types did: what
 * they moved, counted; the member size notes say by what. */
static int inherited_note(struct dctx *d, const struct side *b)
{
	const struct dinfo *di = &d->di[d->ndi - 1];
	hm_sbuf w = { 0 };
	hm_finding fi;
	size_t i, k, named = 0;
	int e;

	for (i = 0; i < di->ndeps; i++) {
		for (k = 0; k < i && strcmp(di->deps[k].type, di->deps[i].type); k++)
			;
		if (k < i)
			continue;
		if (named++ < 3)
			hm_sbuf_printf(&w, "%sstruct %s", named > 1 ? ", " : "", di->deps[i].type);
	}
	if (named > 3)
		hm_sbuf_printf(&w, " and %zu more", named - 3);
	hm_sbuf_printf(&w, ": %zu member%s changed offset", d->q_moved, d->q_moved == 1 ? "" : "s");
	if (d->q_lines)
		hm_sbuf_printf(&w, ", %zu to another line", d->q_lines);
	if (d->q_straddle)
		hm_sbuf_printf(&w, ", %zu straddling or not anew", d->q_straddle);
	if (d->q_pairs[0] || d->q_pairs[1])
		hm_sbuf_printf(&w, "; %zu member pair%s newly share a line, %zu no longer",
			       d->q_pairs[0], d->q_pairs[0] == 1 ? "" : "s", d->q_pairs[1]);
	if (w.err) {
		free(w.p);
		return w.err;
	}
	hmc_base(&fi, b->l, HM_SEV_NOTE, "diff-moved");
	e = hm_findings_addf(d->out, &fi, "moved by %s", w.p);
	free(w.p);
	return e;
}

static int diff_struct(struct dctx *d, const hm_types *ot, hm_type_id oid, const hm_types *nt,
		       hm_type_id nid, struct hmi_typeclass *otc, struct hmi_typeclass *ntc,
		       const hm_findings *rold, const hm_findings *rnew)
{
	struct side a, b;
	uint32_t *ba, *ab;
	int e;

	memset(&b, 0, sizeof(b));
	if ((e = side_init(&a, ot, oid, d->o, otc)) < 0 ||
	    (e = side_init(&b, nt, nid, d->o, ntc)) < 0) {
		side_free(&a);
		side_free(&b);
		return e == -EINVAL ? 0 : e;	/* not a layout: nothing to compare */
	}
	d->nm = 0;
	d->first_error = SIZE_MAX;
	e = rule_changes(d, rold, rnew, hmi_layout_name(b.l));
	if (!e && !d->o->no_lint)
		e = hot_pairs(d, &a, &b);
	if (!e)
		e = size_facts(d, &a, &b);
	ba = unit_map(&b, &a);
	ab = unit_map(&a, &b);
	if (!ba || !ab)
		e = -ENOMEM;
	d->inherited = 0;
	d->q_lines = d->q_straddle = d->q_moved = d->q_pairs[0] = d->q_pairs[1] = 0;
	if (!e)
		e = record_change(d, &a, &b, ba, ab);
	d->compared++;
	if (!e)
		e = member_facts(d, &a, &b, ba, ab);
	if (!e)
		e = pair_facts(d, &a, &b, ba);
	if (!e && d->inherited)
		e = inherited_note(d, &b);
	free(ba);
	free(ab);
	if (!e)
		e = group_facts(d, &a, &b);
	if (!e && d->first_error != SIZE_MAX) {
		size_t i, best = d->first_error;

		/* the side-by-side goes with the worst error, which sorts first */
		for (i = d->first_error; i < hm_findings_count(d->out); i++) {
			const hm_finding *x = hm_findings_get(d->out, i);
			const hm_finding *w = hm_findings_get(d->out, best);

			if (x->severity > w->severity ||
			    (x->severity == w->severity && x->score > w->score))
				best = i;
		}
		d->first_error = best;
	}
	if (!e && d->first_error != SIZE_MAX) {
		/* the table shows the members of that error, not of the others */
		const hm_finding *w = hm_findings_get(d->out, d->first_error);
		const char *const *mk = (const char *const *)d->marks;
		size_t nmk = d->nm;
		char *sbs;

		if (w->nr_members) {
			mk = w->members;
			nmk = w->nr_members;
		}
		sbs = side_by_side(&a, &b, mk, nmk, d->old_name, d->new_name);

		if (sbs)
			e = hmi_findings_set_detail(d->out, d->first_error, sbs);
		free(sbs);
	}
	side_free(&a);
	side_free(&b);
	return e;
}

static int run_rules(const hm_types *t, const struct hm_check_opts *o, hm_findings **out)
{
	struct hm_check_opts co = *o;

	co.assume_aligned = 1;
	co.no_groups = 1;
	co.lint = 0;
	co.verbose = 0;
	co.stats = NULL;
	*out = hm_findings_new();
	if (!*out)
		return -ENOMEM;
	if (!co.rules && !co.nr_pairs && !co.nr_hot)
		return 0;
	return hm_check(NULL, t, &co, *out);
}

/* ---- pairing definitions of one name ---- */

/* How many trailing path components a and b share: two builds of one tree
 * put it under different directories, so "drivers/x/core.c" in one is
 * ".../drivers/x/core.c" in the other. */
static unsigned common_tail(const char *a, const char *b)
{
	const char *ea, *eb;
	unsigned n = 0;

	if (!a || !b)
		return 0;
	ea = a + strlen(a);
	eb = b + strlen(b);
	for (;;) {
		const char *sa = ea, *sb = eb;

		while (sa > a && sa[-1] != '/')
			sa--;
		while (sb > b && sb[-1] != '/')
			sb--;
		if (sa == ea || ea - sa != eb - sb || memcmp(sa, sb, ea - sa))
			return n;
		n++;
		if (sa == a || sb == b)
			return n;
		ea = sa - 1;
		eb = sb - 1;
	}
}

/* The definitions named `name` in a name-sorted id list: *k of them from
 * the returned index. */
static size_t name_range(const hm_types *t, const hm_type_id *ids, size_t n, const char *name,
			 size_t *k)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *m = hm_types_get(t, ids[mid])->name;

		if (strcmp(m ? m : "", name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (*k = 0; lo + *k < n; (*k)++) {
		const char *m = hm_types_get(t, ids[lo + *k])->name;

		if (!m || strcmp(m, name))
			break;
	}
	return lo;
}

/* Sorted lists of both sides' structs, for pairing by name. */
struct pairing {
	const hm_types *ot, *nt;
	hm_type_id *oids, *nids;
	size_t on, nn;
};

/* Diff every definition of `name` present on both sides.  A name defined
 * once on each side pairs as it is; several definitions (static structs
 * of one name in different files) pair by declaration file, the longest
 * common path tail winning, and what is left pairs in load order. */
static int diff_name(struct dctx *d, const struct pairing *p, const char *name,
		     struct hmi_typeclass *otc, struct hmi_typeclass *ntc,
		     const hm_findings *rold, const hm_findings *rnew)
{
	size_t ko, kn, o0 = name_range(p->ot, p->oids, p->on, name, &ko);
	size_t n0 = name_range(p->nt, p->nids, p->nn, name, &kn);
	unsigned char *used = calloc(ko ? ko : 1, 1);
	int e = 0;

	if (!used)
		return -ENOMEM;
	for (size_t i = 0; i < kn && !e; i++) {
		const hm_type *ny = hm_types_get(p->nt, p->nids[n0 + i]);
		size_t best = SIZE_MAX;
		unsigned score = 0;

		for (size_t j = 0; j < ko && ko > 1; j++) {
			unsigned sc = used[j] ? 0 :
				common_tail(hm_types_get(p->ot, p->oids[o0 + j])->decl_file,
					    ny->decl_file);

			if (sc > score) {
				score = sc;
				best = j;
			}
		}
		for (size_t j = 0; best == SIZE_MAX && j < ko; j++)
			if (!used[j])
				best = j;
		if (best == SIZE_MAX)
			break;
		used[best] = 1;
		e = diff_struct(d, p->ot, p->oids[o0 + best], p->nt, p->nids[n0 + i], otc, ntc,
				rold, rnew);
	}
	free(used);
	return e;
}

static int diff_run(const hm_types *old_t, const hm_types *new_t,
		    const struct hm_check_opts *o, hm_findings *out)
{
	struct dctx d = { .o = o, .out = out, .old_name = o->old_label ? o->old_label : "old",
			  .new_name = o->new_label ? o->new_label : "new" };
	struct hmi_typeclass *otc = hmi_typeclass_new(old_t, o->contended_types);
	struct hmi_typeclass *ntc = hmi_typeclass_new(new_t, o->contended_types);
	hm_findings *rold = NULL, *rnew = NULL;
	struct pairing p = { .ot = old_t, .nt = new_t };
	hm_strtab strs = { 0 };
	size_t i, k;
	int e;

	d.strs = &strs;

	if (!otc || !ntc || fan_in(&d, new_t)) {
		e = -ENOMEM;
		goto out;
	}
	if ((e = run_rules(old_t, o, &rold)) || (e = run_rules(new_t, o, &rnew)))
		goto out;
	p.on = hmc_sorted_structs(old_t, &p.oids);
	p.nn = hmc_sorted_structs(new_t, &p.nids);
	if (!p.oids || !p.nids) {
		e = -ENOMEM;
		goto out;
	}
	if (o->structs) {
		for (i = 0; o->structs[i] && !e; i++) {
			hm_type_id oid = hm_types_find_struct(old_t, o->structs[i]);
			hm_type_id nid = hm_types_find_struct(new_t, o->structs[i]);
			hm_finding fi;

			if (!oid && !nid) {
				e = hm_fail(ENOENT, "struct '%s' not found in either binary",
					    o->structs[i]);
				break;
			}
			if (!oid || !nid) {
				memset(&fi, 0, sizeof(fi));
				fi.kind = oid ? "diff-removed" : "diff-added";
				fi.object = o->structs[i];
				fi.line_first = fi.line_last = UINT32_MAX;
				e = hm_findings_addf(out, &fi, "struct only in the %s binary",
						     oid ? "old" : "new");
				if (oid)
					d.only_old++;
				else
					d.only_new++;
				continue;
			}
			e = diff_name(&d, &p, o->structs[i], otc, ntc, rold, rnew);
		}
	} else {
		for (i = 0; i < p.nn && !e; i++) {
			const hm_type *ty = hm_types_get(new_t, p.nids[i]);
			const hm_type *prev = i ? hm_types_get(new_t, p.nids[i - 1]) : NULL;

			/* one call per name covers all its definitions */
			if (!ty || !ty->name ||
			    (prev && prev->name && !strcmp(prev->name, ty->name)))
				continue;
			if (name_range(old_t, p.oids, p.on, ty->name, &k), !k)
				d.only_new++;
			e = diff_name(&d, &p, ty->name, otc, ntc, rold, rnew);
		}
		for (i = 0; i < p.on && !e; i++) {
			const hm_type *ty = hm_types_get(old_t, p.oids[i]);
			const hm_type *prev = i ? hm_types_get(old_t, p.oids[i - 1]) : NULL;

			if (!ty || !ty->name ||
			    (prev && prev->name && !strcmp(prev->name, ty->name)))
				continue;
			if (name_range(new_t, p.nids, p.nn, ty->name, &k), !k)
				d.only_old++;
		}
	}
	if (!e)
		e = ep_flush(&d);
	if (!e)
		e = root_causes(&d);
	/* A rule naming what the new binary lacks checks nothing: say so when
	 * the name is a near miss (a typo) or --strict asked, as check does. */
	for (i = 0; !e && i < hm_findings_count(rnew); i++) {
		const hm_finding *x = hm_findings_get(rnew, i);

		if (!strcmp(x->kind, "absent") && x->severity > HM_SEV_NOTE &&
		    (o->strict || x->severity == HM_SEV_WARNING))
			e = hmi_findings_add(out, x);
	}
out:
	for (i = 0; i < d.ndi; i++) {
		free(d.di[i].deps);
		free(d.di[i].why);
	}
	free(d.di);
	free(d.td);
	free(d.fan);
	free(d.ep);
	hm_strtab_free(&strs);
	free(p.oids);
	free(p.nids);
	hm_findings_free(rold);
	hm_findings_free(rnew);
	hmi_typeclass_free(otc);
	hmi_typeclass_free(ntc);
	return e;
}

int hm_diff(const hm_types *old_t, const hm_types *new_t, const struct hm_check_opts *opts,
	    hm_findings *out)
{
	struct hm_check_opts o;

	if (HM_OPTS_TAKE(&o, opts, hm_check_opts))
		return -EINVAL;
	return diff_run(old_t, new_t, &o, out);
}
