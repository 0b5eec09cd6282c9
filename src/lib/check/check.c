/* check: rule files, kernel cacheline groups and profile pairs evaluated on
 * the layouts of one binary, plus the line geometry every check shares. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/check.h"
#include "check/check-int.h"
#include "base/diag.h"
#include "base/util.h"
#include "base/opts.h"
#include "types/types-lib.h"
#include "elf/binary-lib.h"

/* ---- geometry ---- */

void hmc_geom_init(struct hmc_geom *g, const hm_layout *l, const struct hm_check_opts *o,
		   int assume_aligned)
{
	unsigned align = hm_layout_summary(l)->alignment;

	g->line = hm_layout_cacheline_size(l);
	if (!g->line)
		g->line = hmi_arch_cacheline_size(NULL);
	g->unit = g->line * (o->pair_lines ? 2 : 1);
	if (assume_aligned)
		g->step = g->line;
	else
		g->step = align ? (align < g->unit ? align : g->unit) : 1;
}

int hmc_may_share(const struct hmc_geom *g, uint64_t a, uint64_t as, uint64_t b, uint64_t bs)
{
	uint64_t s;

	if (!as || !bs)
		return 0;
	for (s = 0; s < g->unit; s += g->step) {
		uint64_t a0 = (s + a) / g->unit, a1 = (s + a + as - 1) / g->unit;
		uint64_t b0 = (s + b) / g->unit, b1 = (s + b + bs - 1) / g->unit;

		if (a0 <= b1 && b0 <= a1)
			return 1;
	}
	return 0;
}

int hmc_may_straddle(const struct hmc_geom *g, uint64_t off, uint64_t size)
{
	uint64_t s;

	if (!size)
		return 0;
	for (s = 0; s < g->unit; s += g->step)
		if ((s + off) / g->line != (s + off + size - 1) / g->line)
			return 1;
	return 0;
}

int hmc_always_aligned(const struct hmc_geom *g, uint64_t off)
{
	uint64_t s;

	for (s = 0; s < g->unit; s += g->step)
		if ((s + off) % g->line)
			return 0;
	return 1;
}

int hmc_always_together(const struct hmc_geom *g, uint64_t lo, uint64_t hi)
{
	uint64_t s;

	if (hi <= lo)
		return 1;
	for (s = 0; s < g->unit; s += g->step)
		if ((s + lo) / g->unit != (s + hi - 1) / g->unit)
			return 0;
	return 1;
}

int hmc_share_text(const hm_layout *l, const struct hmc_geom *g, const hm_field *a,
		   const hm_field *b, char *buf, size_t len)
{
	uint32_t lf = a->line_first > b->line_first ? a->line_first : b->line_first;
	uint32_t ll = a->line_last < b->line_last ? a->line_last : b->line_last;

	if (a->size && b->size && lf <= ll) {
		if (lf == ll)
			snprintf(buf, len, "share cacheline %u", lf);
		else
			snprintf(buf, len, "share cachelines %u-%u", lf, ll);
		return 1;
	}
	if (g->unit != g->line && a->size && b->size &&
	    hmc_unit_of(g, a->offset) <= hmc_unit_of(g, b->offset + b->size - 1) &&
	    hmc_unit_of(g, b->offset) <= hmc_unit_of(g, a->offset + a->size - 1)) {
		uint32_t p = (uint32_t)(lf / 2 * 2);

		snprintf(buf, len, "share the prefetch pair of cachelines %u-%u", p, p + 1);
		return 1;
	}
	snprintf(buf, len, "can share a cacheline (alignment %u)",
		 hm_layout_summary(l)->alignment);
	return 0;
}

/* ---- naming and finding helpers ---- */

static int by_name(const void *a, const void *b, void *ctx)
{
	const hm_type *x = hm_types_get(ctx, *(const hm_type_id *)a);
	const hm_type *y = hm_types_get(ctx, *(const hm_type_id *)b);
	int c = strcmp(x->name ? x->name : "", y->name ? y->name : "");

	return c ? c : (*(const hm_type_id *)a > *(const hm_type_id *)b) -
		       (*(const hm_type_id *)a < *(const hm_type_id *)b);
}

size_t hmc_sorted_structs(const hm_types *t, hm_type_id **out)
{
	const hm_type_id *ids;
	size_t n = hm_types_structs(t, &ids);

	*out = malloc((n ? n : 1) * sizeof(**out));
	if (!*out)
		return 0;
	if (n)
		memcpy(*out, ids, n * sizeof(**out));
	qsort_r(*out, n, sizeof(**out), by_name, (void *)t);
	return n;
}

int hmc_is_unit(const hm_field *f, const hm_field *all)
{
	uint32_t p;

	if (!f->name)
		return 0;
	for (p = f->parent; p != HM_FIELD_NONE; p = all[p].parent)
		if (all[p].name)
			return 0;
	return 1;
}

int hmc_is_ancestor(const hm_layout *l, uint32_t a, uint32_t b)
{
	const hm_field *f = hm_layout_fields(l, NULL);

	while (b != HM_FIELD_NONE) {
		if (a == b)
			return 1;
		b = f[b].parent;
	}
	return 0;
}

const hm_field *hmc_find(const hm_layout *l, const char *path)
{
	const hm_field *f = hm_layout_find(l, path);
	const char *br;
	char buf[512];

	if (f || !(br = strchr(path, '[')) || (size_t)(br - path) >= sizeof(buf))
		return f;
	memcpy(buf, path, br - path);
	buf[br - path] = 0;
	return hm_layout_find(l, buf);
}

hm_layout *hmc_layout(const hm_types *t, hm_type_id id, const struct hm_check_opts *o,
		      int assume_aligned)
{
	HM_OPTS(hm_layout_opts, lo,
		.cacheline_size = hm_types_cacheline_size(t, o->cacheline_size),
		.expand = 1,
		.assume_aligned = assume_aligned);

	return hm_layout_new(t, id, &lo);
}

void hmc_base(hm_finding *f, const hm_layout *l, enum hm_severity sev, const char *kind)
{
	const hm_type *ty = hm_types_get(hmi_layout_types(l), hm_layout_type(l));

	memset(f, 0, sizeof(*f));
	f->severity = sev;
	f->kind = kind;
	f->object = hmi_layout_name(l);
	f->line_first = f->line_last = UINT32_MAX;
	if (ty) {
		f->decl_file = ty->decl_file;
		f->decl_line = ty->decl_line;
	}
}

static uint32_t idx_of(const hm_layout *l, const hm_field *f)
{
	return (uint32_t)(f - hm_layout_fields(l, NULL));
}

/* The name to show for a field sharing a line with `x`: its highest named
 * ancestor that does not contain x (so a neighbour struct is named once). */
static const hm_field *shown(const hm_layout *l, uint32_t leaf, uint32_t x)
{
	const hm_field *f = hm_layout_fields(l, NULL);
	uint32_t cur = leaf, best = leaf;

	while (f[cur].parent != HM_FIELD_NONE && !hmc_is_ancestor(l, f[cur].parent, x)) {
		cur = f[cur].parent;
		if (f[cur].name)
			best = cur;
	}
	return &f[best];
}

/* ---- the rule pass ---- */

struct lcache {
	const char *name;
	hm_layout *l;		/* NULL: absent */
	unsigned reported : 1;
};

struct ctx {
	hm_binary *bin;
	const hm_types *t;
	const struct hm_check_opts *o;
	hm_findings *out;
	struct hm_check_stats st;
	struct lcache *lc;
	size_t nlc, caplc;
};

/* --assume-aligned for every struct, or `placement line-aligned` for this one */
static int aligned_for(const struct hm_check_opts *o, const char *name)
{
	return o->assume_aligned || hm_ruleset_line_aligned(o->rules, name);
}

static hm_layout *get_layout(struct ctx *c, const char *name, struct lcache **slot)
{
	hm_type_id id;
	size_t i;

	errno = 0;
	for (i = 0; i < c->nlc; i++)
		if (!strcmp(c->lc[i].name, name)) {
			*slot = &c->lc[i];
			return c->lc[i].l;
		}
	if (hm_grow((void **)&c->lc, &c->caplc, c->nlc + 1, sizeof(*c->lc))) {
		errno = ENOMEM;
		return NULL;
	}
	*slot = &c->lc[c->nlc];
	memset(*slot, 0, sizeof(**slot));
	(*slot)->name = name;
	c->nlc++;
	id = hm_types_find_struct(c->t, name);
	errno = 0;
	if (id != HM_TYPE_NONE)
		(*slot)->l = hmc_layout(c->t, id, c->o, aligned_for(c->o, name));
	return (*slot)->l;
}

static void rule_base(hm_finding *f, const hm_layout *l, const hm_rule *r)
{
	if (l)
		hmc_base(f, l, r->severity, hm_rule_kind_name(r->kind));
	else {
		memset(f, 0, sizeof(*f));
		f->severity = r->severity;
		f->kind = hm_rule_kind_name(r->kind);
		f->object = r->object;
		f->line_first = f->line_last = UINT32_MAX;
	}
	f->rule_file = r->file;
	f->rule_line = r->line;
	f->rule_col = r->col;
	f->reason = r->reason;
}

/* "apart mmap_lock page_table_lock" */
static void rule_text(const hm_rule *r, char *buf, size_t len)
{
	unsigned i;
	int n = snprintf(buf, len, "%s", hm_rule_kind_name(r->kind));

	if (r->kind == HM_RULE_MAX_SIZE || r->kind == HM_RULE_MAX_LINES) {
		snprintf(buf + n, len - n, " %llu", (unsigned long long)r->value);
		return;
	}
	for (i = 0; i < r->nr_args && (size_t)n < len; i++)
		n += snprintf(buf + n, len - n, " %s", r->args[i]);
}

/* At most 2 edits and at most one per 4 characters (so "rq" is not taken
 * for "bq"): likely what was meant. */
static int close_name(const char *name, const char *other)
{
	unsigned d = hm_edit_distance(name, other, 2);

	return d <= 2 && d * 4 <= strlen(name);
}

static int absent(struct ctx *c, const hm_rule *r, const hm_layout *l, const char *what,
		  const char *name, const char *dym)
{
	hm_finding f;

	rule_base(&f, l, r);
	/* A near miss is a typo far more often than a config difference, and a
	 * rule that checks nothing must not pass a CI gate unnoticed. */
	f.severity = r->require || c->o->strict ? HM_SEV_ERROR :
		     dym && close_name(name, dym) ? HM_SEV_WARNING : HM_SEV_NOTE;
	f.kind = "absent";
	c->st.skipped++;
	if (dym)
		return hm_findings_addf(c->out, &f, "%s '%s' not in this binary (did you mean "
					"'%s'?)", what, name, dym);
	return hm_findings_addf(c->out, &f, "%s '%s' not in this binary%s", what, name,
				r->require || c->o->strict ? "" : " (skipped)");
}

/* The closest struct name when close_name() says it is close. */
static const char *similar_struct(const hm_types *t, const char *name)
{
	const char *sim[1];

	return hm_types_similar(t, name, sim, 1) && close_name(name, sim[0]) ? sim[0] : NULL;
}

static const char *similar_path(const hm_layout *l, const char *path)
{
	const hm_field *f;
	size_t n, i;
	unsigned best = 3, d;
	const char *b = NULL;

	f = hm_layout_fields(l, &n);
	for (i = 0; i < n; i++) {
		if (!f[i].path)
			continue;	/* an anonymous struct or union */
		d = hm_edit_distance(path, f[i].path, 2);
		if (d < best) {
			best = d;
			b = f[i].path;
		}
	}
	return b;
}

static int passed(struct ctx *c, const hm_rule *r, const hm_layout *l)
{
	hm_finding f;
	char txt[256];

	c->st.passed++;
	if (!c->o->verbose)
		return 0;
	rule_base(&f, l, r);
	f.global = r->global;
	f.severity = HM_SEV_NOTE;
	f.kind = "pass";
	rule_text(r, txt, sizeof(txt));
	return hm_findings_addf(c->out, &f, "%s: ok", txt);
}

/* The lines two sharing fields have in common (from offset 0). */
static void pair_lines(hm_finding *f, const hm_field *a, const hm_field *b)
{
	f->line_first = a->line_first > b->line_first ? a->line_first : b->line_first;
	f->line_last = a->line_last < b->line_last ? a->line_last : b->line_last;
	if (f->line_last < f->line_first)
		f->line_last = f->line_first;
}

static int rule_apart(struct ctx *c, const hm_rule *r, const hm_layout *l,
		      const struct hmc_geom *g, const hm_field **m)
{
	unsigned i, j;
	int bad = 0, e;

	for (i = 0; i < r->nr_args; i++) {
		for (j = i + 1; j < r->nr_args; j++) {
			hm_finding f;
			char txt[128];
			uint32_t idx[2] = { idx_of(l, m[i]), idx_of(l, m[j]) };

			if (hmc_is_ancestor(l, idx[0], idx[1]) || hmc_is_ancestor(l, idx[1], idx[0]))
				continue;
			if (!hmc_may_share(g, m[i]->offset, m[i]->size, m[j]->offset, m[j]->size))
				continue;
			bad = 1;
			hmc_share_text(l, g, m[i], m[j], txt, sizeof(txt));
			rule_base(&f, l, r);
			f.nr_members = 2;
			f.members[0] = m[i]->path;
			f.members[1] = m[j]->path;
			pair_lines(&f, m[i], m[j]);
			f.detail = hmc_detail_fields(l, idx, 2);
			e = hm_findings_addf(c->out, &f, "%s and %s %s", m[i]->path, m[j]->path, txt);
			free((char *)f.detail);
			if (e)
				return e;
		}
	}
	return bad;
}

/* Whether a and b share a line (or prefetch pair) with the object at offset 0. */
static int share_at0(const struct hmc_geom *g, const hm_field *a, const hm_field *b)
{
	return a->size && b->size &&
	       hmc_unit_of(g, a->offset) <= hmc_unit_of(g, b->offset + b->size - 1) &&
	       hmc_unit_of(g, b->offset) <= hmc_unit_of(g, a->offset + a->size - 1);
}

static void name_list(char *buf, size_t len, const char *const *names, size_t shown,
		      size_t total)
{
	size_t i;

	buf[0] = 0;
	for (i = 0; i < shown; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 i ? (i + 1 == total ? " and " : ", ") : "", names[i]);
	if (total > shown)
		snprintf(buf + strlen(buf), len - strlen(buf), " and %zu more", total - shown);
}

/* `alone X`: the members that share X's line with the object where the layout
 * puts it (offset 0), named first; those that only a worse placement, which
 * the struct's alignment allows, brings onto the line are counted apart and
 * said to be a worst case. */
static int rule_alone(struct ctx *c, const hm_rule *r, const hm_layout *l,
		      const struct hmc_geom *g, const hm_field *x)
{
	const hm_field *f, *prev = NULL;
	uint32_t xi = idx_of(l, x), idx[HM_FINDING_MAX_MEMBERS];
	const char *now[3], *worst[3];
	size_t n, i, nr = 0, nnow = 0, nworst = 0;
	char a[160], b[160], where[48];
	hm_finding fi;
	int e;

	f = hm_layout_fields(l, &n);
	idx[nr++] = xi;
	for (int pass = 0; pass < 2; pass++) {
		prev = NULL;
		for (i = 0; i < n; i++) {
			const hm_field *s;
			int at0;

			if (!f[i].is_leaf || !f[i].size || hmc_is_ancestor(l, xi, (uint32_t)i) ||
			    hmc_is_ancestor(l, (uint32_t)i, xi) ||
			    !hmc_may_share(g, x->offset, x->size, f[i].offset, f[i].size))
				continue;
			s = shown(l, (uint32_t)i, xi);
			if (s == prev)
				continue;
			prev = s;
			at0 = share_at0(g, x, s);
			if (at0 != !pass)
				continue;
			if (pass == 0 && nnow < 3)
				now[nnow] = s->path;
			if (pass == 1 && nworst < 3)
				worst[nworst] = s->path;
			*(pass ? &nworst : &nnow) += 1;
			if (nr < HM_FINDING_MAX_MEMBERS)
				idx[nr++] = idx_of(l, s);
		}
	}
	if (!nnow && !nworst)
		return 0;
	rule_base(&fi, l, r);
	fi.nr_members = (unsigned)nr;
	for (i = 0; i < nr; i++)
		fi.members[i] = f[idx[i]].path;
	fi.line_first = x->line_first;
	fi.line_last = x->line_last;
	fi.detail = hmc_detail_fields(l, idx, nr);
	name_list(a, sizeof(a), now, nnow < 3 ? nnow : 3, nnow);
	name_list(b, sizeof(b), worst, nworst < 3 ? nworst : 3, nworst);
	if (x->line_first == x->line_last)
		snprintf(where, sizeof(where), "cacheline %u", x->line_first);
	else
		snprintf(where, sizeof(where), "cachelines %u-%u", x->line_first, x->line_last);
	if (nnow && !nworst)
		e = hm_findings_addf(c->out, &fi, "%s shares %s with %s", x->path, where, a);
	else if (nnow)
		e = hm_findings_addf(c->out, &fi, "%s shares %s with %s; at the worst placement "
				     "(struct alignment %u) also with %s", x->path, where, a,
				     hm_layout_summary(l)->alignment, b);
	else
		e = hm_findings_addf(c->out, &fi, "%s is alone on %s only if the object starts "
				     "a line; at the worst placement (struct alignment %u) it "
				     "shares it with %s", x->path, where,
				     hm_layout_summary(l)->alignment, b);
	free((char *)fi.detail);
	return e ? e : 1;
}

static int rule_member(struct ctx *c, const hm_rule *r, const hm_layout *l,
		       const struct hmc_geom *g, const hm_field *x)
{
	hm_finding fi;
	uint32_t idx = idx_of(l, x);
	int e = 0, at0;

	rule_base(&fi, l, r);
	fi.nr_members = 1;
	fi.members[0] = x->path;
	fi.line_first = x->line_first;
	fi.line_last = x->line_last;
	if (r->kind == HM_RULE_ALIGNED) {
		if (hmc_always_aligned(g, x->offset))
			return 0;
		fi.detail = hmc_detail_fields(l, &idx, 1);
		if (x->offset % g->line)
			e = hm_findings_addf(c->out, &fi, "%s starts %llu bytes into cacheline %u",
					     x->path, (unsigned long long)(x->offset % g->line),
					     x->line_first);
		else
			e = hm_findings_addf(c->out, &fi, "%s starts a line only if the object "
					     "does (struct alignment %u)", x->path,
					     hm_layout_summary(l)->alignment);
	} else {
		if (!hmc_may_straddle(g, x->offset, x->size))
			return 0;
		at0 = x->line_first != x->line_last;
		fi.detail = hmc_detail_fields(l, &idx, 1);
		if (at0)
			e = hm_findings_addf(c->out, &fi, "%s straddles cachelines %u-%u", x->path,
					     x->line_first, x->line_last);
		else
			e = hm_findings_addf(c->out, &fi, "%s can straddle a line boundary "
					     "(struct alignment %u)", x->path,
					     hm_layout_summary(l)->alignment);
	}
	free((char *)fi.detail);
	return e ? e : 1;
}

static int rule_together(struct ctx *c, const hm_rule *r, const hm_layout *l,
			 const struct hmc_geom *g, const hm_field **m)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	uint32_t idx[HM_FINDING_MAX_MEMBERS];
	unsigned i, nr = 0;
	hm_finding fi;
	int e;

	for (i = 0; i < r->nr_args; i++) {
		if (m[i]->offset < lo)
			lo = m[i]->offset;
		if (m[i]->offset + m[i]->size > hi)
			hi = m[i]->offset + m[i]->size;
	}
	if (hmc_always_together(g, lo, hi))
		return 0;
	rule_base(&fi, l, r);
	for (i = 0; i < r->nr_args && nr < HM_FINDING_MAX_MEMBERS; i++) {
		idx[nr] = idx_of(l, m[i]);
		fi.members[nr++] = m[i]->path;
	}
	fi.nr_members = nr;
	fi.line_first = (uint32_t)(lo / g->line);
	fi.line_last = (uint32_t)((hi - 1) / g->line);
	fi.detail = hmc_detail_fields(l, idx, nr);
	if (hmc_unit_of(g, lo) != hmc_unit_of(g, hi - 1))
		e = hm_findings_addf(c->out, &fi, "%u members span bytes %llu-%llu, cachelines "
				     "%u-%u", r->nr_args, (unsigned long long)lo,
				     (unsigned long long)hi - 1, fi.line_first, fi.line_last);
	else
		e = hm_findings_addf(c->out, &fi, "%u members (bytes %llu-%llu) can span two "
				     "cachelines (struct alignment %u)", r->nr_args,
				     (unsigned long long)lo, (unsigned long long)hi - 1,
				     hm_layout_summary(l)->alignment);
	free((char *)fi.detail);
	return e ? e : 1;
}

static int rule_max(struct ctx *c, const hm_rule *r, const hm_layout *l)
{
	const struct hm_layout_summary *s = hm_layout_summary(l);
	hm_finding fi;
	int e;

	rule_base(&fi, l, r);
	if (r->kind == HM_RULE_MAX_SIZE) {
		if (s->size <= r->value)
			return 0;
		e = hm_findings_addf(c->out, &fi, "size %llu exceeds max-size %llu",
				     (unsigned long long)s->size, (unsigned long long)r->value);
	} else {
		if (s->cachelines <= r->value)
			return 0;
		e = hm_findings_addf(c->out, &fi, "%u cachelines exceed max-lines %llu",
				     s->cachelines, (unsigned long long)r->value);
	}
	return e ? e : 1;
}

static int eval_struct_rule(struct ctx *c, const hm_rule *r)
{
	struct lcache *slot;
	hm_layout *l = get_layout(c, r->object, &slot);
	const hm_field *m[64];
	struct hmc_geom g;
	unsigned i;
	int res = 0, e;

	if (!l) {
		if (errno == ENOMEM)
			return -ENOMEM;
		c->st.skipped++;
		if (slot->reported)
			return 0;
		slot->reported = 1;
		c->st.skipped--;
		return absent(c, r, NULL, "struct", r->object, similar_struct(c->t, r->object));
	}
	for (i = 0; i < r->nr_args && i < 64; i++) {
		m[i] = hmc_find(l, r->args[i]);
		if (!m[i])
			return absent(c, r, l, "member", r->args[i], similar_path(l, r->args[i]));
	}
	hmc_geom_init(&g, l, c->o, aligned_for(c->o, r->object));
	switch (r->kind) {
	case HM_RULE_APART:
		res = rule_apart(c, r, l, &g, m);
		break;
	case HM_RULE_TOGETHER:
		res = rule_together(c, r, l, &g, m);
		break;
	case HM_RULE_MAX_SIZE:
	case HM_RULE_MAX_LINES:
		res = rule_max(c, r, l);
		break;
	default:
		for (i = 0; i < r->nr_args && i < 64; i++) {
			e = r->kind == HM_RULE_ALONE ? rule_alone(c, r, l, &g, m[i]) :
				rule_member(c, r, l, &g, m[i]);
			if (e < 0)
				return e;
			res |= e;
		}
	}
	if (res < 0)
		return res;
	if (res) {
		c->st.failed++;
		return 0;
	}
	return passed(c, r, l);
}

/* ---- globals: judged from the symbol table ---- */

static int eval_global(struct ctx *c, const hm_rule *r)
{
	/* a table made empty for a symbols-only check names no machine: the
	 * binary does */
	unsigned line = hm_types_cacheline_size(c->t, c->o->cacheline_size ? c->o->cacheline_size :
						c->bin ? hm_binary_cacheline_size(c->bin) : 0);
	const hm_symbol *sym = c->bin ? hm_binary_symbol(c->bin, r->object) : NULL;
	const hm_variable *var = hmi_types_find_variable(c->t, r->object);
	uint64_t addr, size, a, end;
	char names[160] = "";
	size_t total = 0;
	hm_finding fi;
	int e = 0;

	rule_base(&fi, NULL, r);
	fi.global = 1;
	if (var) {
		fi.decl_file = var->decl_file;
		fi.decl_line = var->decl_line;
	}
	if (!sym) {
		c->st.skipped++;
		/* without a symbol table (diff) nothing is known absent */
		fi.severity = r->require || (c->o->strict && c->bin) ? HM_SEV_ERROR : HM_SEV_NOTE;
		fi.kind = "absent";
		return hm_findings_addf(c->out, &fi, "not in this binary's symbol table%s",
					!c->bin ? " (no symbol table)" :
					c->o->strict ? "" : " (skipped)");
	}
	addr = sym->addr;
	size = sym->size ? sym->size : 1;
	if (r->kind == HM_RULE_ALIGNED && addr % line) {
		e = hm_findings_addf(c->out, &fi, "at 0x%llx, starts %llu bytes into its "
				     "cacheline", (unsigned long long)addr,
				     (unsigned long long)(addr % line));
		goto failed;
	}
	if (r->kind == HM_RULE_NO_STRADDLE && addr / line != (addr + size - 1) / line) {
		e = hm_findings_addf(c->out, &fi, "at 0x%llx (%llu bytes), straddles a line "
				     "boundary", (unsigned long long)addr,
				     (unsigned long long)size);
		goto failed;
	}
	if (r->kind == HM_RULE_ALONE) {
		end = ((addr + size - 1) / line + 1) * line;
		for (a = addr / line * line; a < end;) {
			const hm_symbol *o;

			if (a >= addr && a < addr + size) {
				a = addr + size;
				continue;
			}
			o = hm_binary_object_at(c->bin, a);
			if (!o || (o->addr == sym->addr && o->size == sym->size)) {
				a++;
				continue;
			}
			if (total < 3)
				snprintf(names + strlen(names), sizeof(names) - strlen(names),
					 "%s%s", total ? ", " : "", o->name);
			total++;
			a = o->addr + (o->size ? o->size : 1) > a ? o->addr + (o->size ? o->size : 1)
								    : a + 1;
		}
		if (total) {
			if (total > 3)
				snprintf(names + strlen(names), sizeof(names) - strlen(names),
					 " and %zu more", total - 3);
			e = hm_findings_addf(c->out, &fi, "at 0x%llx, shares its cacheline with %s",
					     (unsigned long long)addr, names);
			goto failed;
		}
	}
	return passed(c, r, NULL);
failed:
	c->st.failed++;
	return e;
}

/* ---- profile pairs ---- */

static int profile_absent(struct ctx *c, const char *object, const char *path)
{
	hm_finding fi;

	memset(&fi, 0, sizeof(fi));
	fi.severity = HM_SEV_NOTE;
	fi.kind = "absent";
	fi.object = object;
	fi.line_first = fi.line_last = UINT32_MAX;
	if (path)
		return hm_findings_addf(c->out, &fi, "profile member '%s' not in this binary",
					path);
	return hm_findings_addf(c->out, &fi, "profile struct '%s' not in this binary", object);
}

/* An error naming members a and b of l, with both lines and their detail
 * (the caller frees fi->detail). */
static void pair_finding(hm_finding *fi, const hm_layout *l, const char *kind,
			 const hm_field *a, const hm_field *b, double score)
{
	uint32_t idx[2] = { idx_of(l, a), idx_of(l, b) };

	hmc_base(fi, l, HM_SEV_ERROR, kind);
	fi->nr_members = 2;
	fi->members[0] = a->path;
	fi->members[1] = b->path;
	pair_lines(fi, a, b);
	fi->score = score;
	fi->detail = hmc_detail_fields(l, idx, 2);
}

static int check_pairs(struct ctx *c)
{
	size_t i, k;
	int e = 0;

	for (i = 0; i < c->o->nr_pairs && !e; i++) {
		const struct hm_check_pair *p = &c->o->pairs[i];
		struct lcache *slot;
		hm_layout *l = get_layout(c, p->object, &slot);
		const hm_field *a, *b;
		struct hmc_geom g;
		hm_finding fi;
		char txt[128];

		if (!l) {
			if (!slot->reported)
				e = profile_absent(c, p->object, NULL);
			slot->reported = 1;
			continue;
		}
		a = hmc_find(l, p->a);
		b = hmc_find(l, p->b);
		if (!a || !b) {
			e = profile_absent(c, p->object, a ? p->b : p->a);
			continue;
		}
		hmc_geom_init(&g, l, c->o, aligned_for(c->o, p->object));
		if (a == b || !hmc_may_share(&g, a->offset, a->size, b->offset, b->size))
			continue;
		hmc_share_text(l, &g, a, b, txt, sizeof(txt));
		pair_finding(&fi, l, "profile-pair", a, b, (double)p->weight);
		e = hm_findings_addf(c->out, &fi, "%s and %s contend (%llu in the profile) and %s",
				     a->path, b->path, (unsigned long long)p->weight, txt);
		free((char *)fi.detail);
	}
	for (i = 0; i < c->o->nr_hot && !e; i++) {
		const struct hm_check_hot *h = &c->o->hot[i];
		struct lcache *slot;
		hm_layout *l;
		const hm_field *a;
		struct hmc_geom g;

		if (!h->true_shared)
			continue;
		if (!(l = get_layout(c, h->object, &slot)) || !(a = hmc_find(l, h->path)))
			continue;	/* reported with the pairs, or absent */
		hmc_geom_init(&g, l, c->o, aligned_for(c->o, h->object));
		for (k = 0; k < c->o->nr_hot && !e; k++) {
			const struct hm_check_hot *o = &c->o->hot[k];
			const hm_field *b;
			hm_finding fi;
			char txt[128];

			if (k == i || strcmp(o->object, h->object) || !(b = hmc_find(l, o->path)) ||
			    hmc_is_ancestor(l, idx_of(l, a), idx_of(l, b)) ||
			    hmc_is_ancestor(l, idx_of(l, b), idx_of(l, a)) ||
			    !hmc_may_share(&g, a->offset, a->size, b->offset, b->size))
				continue;
			hmc_share_text(l, &g, a, b, txt, sizeof(txt));
			pair_finding(&fi, l, "profile-true-shared", a, b, (double)h->weight);
			e = hm_findings_addf(c->out, &fi, "truly shared %s and hot %s %s", a->path,
					     b->path, txt);
			free((char *)fi.detail);
		}
	}
	return e;
}

static int check_run(hm_binary *bin, const hm_types *t, const struct hm_check_opts *o,
		     hm_findings *out)
{
	struct ctx c = { .bin = bin, .t = t, .o = o, .out = out };
	size_t i, n = hm_ruleset_count(o->rules);
	int e = 0;

	for (i = 0; i < n && !e; i++) {
		const hm_rule *r = hm_ruleset_rule(o->rules, i);

		c.st.rules++;
		e = r->global ? eval_global(&c, r) : eval_struct_rule(&c, r);
	}
	if (!e && !o->no_groups)
		e = hmc_check_groups(t, o, out);
	if (!e)
		e = check_pairs(&c);
	if (!e && o->lint)
		e = hm_lint(t, o, out);
	for (i = 0; i < c.nlc; i++)
		hm_layout_free(c.lc[i].l);
	free(c.lc);
	if (o->stats)
		*o->stats = c.st;
	return e;
}

int hm_check(hm_binary *bin, const hm_types *t, const struct hm_check_opts *opts,
	     hm_findings *out)
{
	struct hm_check_opts o;

	if (HM_OPTS_TAKE(&o, opts, hm_check_opts))
		return -EINVAL;
	return check_run(bin, t, &o, out);
}

int hm_check_profile_inputs(const hm_profile *p, struct hm_check_pair **pairs,
			    size_t *nr_pairs, struct hm_check_hot **hot, size_t *nr_hot)
{
	size_t i, k, np = 0, nh = 0;
	struct hm_check_pair *pv;
	struct hm_check_hot *hv;

	for (i = 0; i < p->nr_structs; i++) {
		np += p->structs[i].nr_pairs;
		nh += p->structs[i].nr_shared + p->structs[i].nr_fields;
	}
	pv = calloc(np + 1, sizeof(*pv));
	hv = calloc(nh + 1, sizeof(*hv));
	if (!pv || !hv) {
		free(pv);
		free(hv);
		return -ENOMEM;
	}
	np = nh = 0;
	for (i = 0; i < p->nr_structs; i++) {
		const hm_profile_struct *s = &p->structs[i];

		if (s->kind != HM_PROFILE_STRUCT)
			continue;	/* scalar globals have no layout to check */
		for (k = 0; k < s->nr_pairs; k++) {
			const hm_profile_pair *q = &s->pairs[k];
			struct hm_check_pair *o = &pv[np++];

			o->object = s->name;
			o->a = q->a;
			o->b = q->b;
			o->weight = q->hitm ? q->hitm : q->transfers ? q->transfers : q->samples;
		}
		for (k = 0; k < s->nr_shared; k++) {
			struct hm_check_hot *o = &hv[nh++];

			o->object = s->name;
			o->path = s->shared[k].field;
			o->weight = s->shared[k].hitm ? s->shared[k].hitm : s->shared[k].samples;
			o->true_shared = 1;
		}
		for (k = 0; k < s->nr_fields; k++) {
			const hm_profile_field *f = &s->fields[k];
			struct hm_check_hot *o;

			if (!f->c.samples && !f->c.reads && !f->c.writes)
				continue;
			o = &hv[nh++];
			o->object = s->name;
			o->path = f->path;
			o->weight = f->c.samples;
		}
	}
	*pairs = pv;
	*nr_pairs = np;
	*hot = hv;
	*nr_hot = nh;
	return 0;
}
