/* suggest-model: a struct as a list of slots (members, runs of bitfields,
 * explicit padding) and the C layout rules that turn a variant of that list
 * into offsets; which byte ranges can share a line. */
#include "config.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/suggest.h"
#include "base/diag.h"
#include "suggest/suggest-int.h"
#include "base/util.h"

/* ---- entries: what moves as a whole ---- */

/* Fold member i into the block (bitrun) entry e. */
static void block_add(struct sg_ent *e, uint64_t start, uint64_t end, uint64_t unit_end,
		      uint32_t a)
{
	if (start < e->off0) {
		e->size += e->off0 - start;
		e->off0 = start;
	}
	e->nr++;
	if (end > e->off0 + e->size)
		e->size = end - e->off0;
	if (unit_end > e->unit_end)
		e->unit_end = unit_end;
	if (a > e->align)
		e->align = a;
}

/* Entries: each member on its own, except that bitfields — and ordinary
 * members that share a storage unit with them (`enum x:8; bool y;`) — form
 * blocks that keep their inner layout and never move (where the compiler
 * would put their bits after an edit is beyond this model). */
static int by_name(const void *pa, const void *pb)
{
	const struct sg_named *a = pa, *b = pb;
	int r = strcmp(a->name, b->name);

	return r ? r : (a->idx > b->idx) - (a->idx < b->idx);
}

/* Evidence names members and entries by path: with one index each, a
 * struct's width costs a lookup log(n), not a scan (suggest on 100 000
 * members resolves tens of thousands of paths). */
static int index_members(struct sg_ctx *c)
{
	c->ent_of = hm_arena_alloc(&c->arena, (c->nmem + 1) * sizeof(*c->ent_of));
	c->by_name = hm_arena_alloc(&c->arena, (c->nmem + 1) * sizeof(*c->by_name));
	c->anon = hm_arena_alloc(&c->arena, (c->nmem + 1) * sizeof(*c->anon));
	if (!c->ent_of || !c->by_name || !c->anon)
		return -ENOMEM;
	for (size_t e = 0; e < c->nents; e++)
		for (uint32_t k = 0; k < c->ents[e].nr; k++)
			c->ent_of[c->ents[e].first + k] = (int)e;
	for (uint32_t i = 0; i < c->nmem; i++) {
		if (c->mem[i].name)
			c->by_name[c->nby_name++] = (struct sg_named){ c->mem[i].name, i };
		else
			c->anon[c->nanon++] = i;
	}
	qsort(c->by_name, c->nby_name, sizeof(*c->by_name), by_name);
	return 0;
}

int sg_build_entries(struct sg_ctx *c)
{
	const hm_type *ty = hm_types_get(c->t, c->id);
	const hm_member *m = hm_types_members(c->t, ty);

	c->nmem = ty->nr;
	c->mem = hm_arena_alloc(&c->arena, (ty->nr + 1) * sizeof(*c->mem));
	c->ents = hm_arena_alloc(&c->arena, (ty->nr + 1) * sizeof(*c->ents));
	if (!c->mem || !c->ents)
		return -ENOMEM;
	memcpy(c->mem, m, ty->nr * sizeof(*m));
	c->type_align = ty->alignment;
	c->size0 = ty->size;
	for (uint32_t i = 0; i < c->nmem; i++) {
		const hm_member *mi = &c->mem[i];
		struct sg_ent *e = c->nents ? &c->ents[c->nents - 1] : NULL;
		int bits = !!(mi->flags & HM_MEMBER_BITFIELD);
		uint64_t start = mi->offset, end, unit_end;
		uint32_t a;

		if (mi->flags & (HM_MEMBER_INHERITANCE | HM_MEMBER_VIRTUAL_BASE | HM_MEMBER_STATIC))
			return hm_fail(EINVAL, "struct %s: C++ bases and static members are not "
				       "modelled, no proposals", c->name);
		a = hm_types_alignof(c->t, mi->type);
		if (mi->alignment > a)
			a = mi->alignment;
		if (bits) {
			end = (mi->offset * 8 + mi->bit_offset + mi->bit_size + 7) / 8;
			unit_end = mi->offset + mi->byte_size;
			if (!mi->name)
				a = 1;	/* unnamed bitfields do not align */
		} else {
			end = unit_end = mi->offset + hm_types_sizeof(c->t, mi->type);
		}
		if (e && e->first + e->nr == i &&
		    ((e->bitrun && (bits || start < e->unit_end)) ||
		     (bits && start < e->off0 + e->size && start >= e->off0))) {
			e->bitrun = 1;
			if (!e->unit_end)
				e->unit_end = e->off0 + e->size;
			block_add(e, start, end, unit_end, a);
			continue;
		}
		e = &c->ents[c->nents++];
		*e = (struct sg_ent){ .name = mi->name, .first = i, .nr = 1, .off0 = start,
				      .size = end - start, .align = bits ? a :
				      hm_types_alignof(c->t, mi->type),
				      .attr = bits ? 0 : mi->alignment, .bitrun = bits,
				      .unit_end = unit_end };
	}
	return index_members(c);
}

/* ---- variants ---- */

static struct sg_var *var_new(struct sg_ctx *c, size_t nslots, size_t nedits)
{
	size_t bytes = sizeof(struct sg_var) + (nslots + c->nents + 8) * sizeof(struct sg_slot) +
		       (nedits + 2 * c->nents + 8) * sizeof(hm_edit) +
		       (c->nents + 1) * sizeof(uint64_t);
	struct sg_var *v;

	/* today itself is always made; clones stop at the budget */
	if (c->today && c->var_bytes + bytes > (c->var_budget ? c->var_budget : SG_VAR_BUDGET)) {
		c->refused++;
		return NULL;
	}
	c->var_bytes += bytes;
	v = hm_arena_alloc(&c->arena, sizeof(*v));
	if (!v)
		return NULL;
	v->cap = nslots + c->nents + 8;
	v->s = hm_arena_alloc(&c->arena, v->cap * sizeof(*v->s));
	v->ecap = nedits + 2 * c->nents + 8;
	v->edits = hm_arena_alloc(&c->arena, v->ecap * sizeof(*v->edits));
	v->pos = hm_arena_alloc(&c->arena, (c->nents + 1) * sizeof(*v->pos));
	if (!v->s || !v->edits || !v->pos)
		return NULL;
	return v;
}

struct sg_var *sg_var_today(struct sg_ctx *c)
{
	struct sg_var *v = var_new(c, c->nents, 0);

	if (!v)
		return NULL;
	for (size_t i = 0; i < c->nents; i++)
		v->s[v->n++] = (struct sg_slot){ .ent = (int)i, .attr = c->ents[i].attr };
	return v;
}

struct sg_var *sg_var_clone(struct sg_ctx *c, const struct sg_var *b)
{
	struct sg_var *v = var_new(c, b->n, b->nedits);

	if (!v)
		return NULL;
	memcpy(v->s, b->s, b->n * sizeof(*v->s));
	v->n = b->n;
	memcpy(v->edits, b->edits, b->nedits * sizeof(*v->edits));
	v->nedits = b->nedits;
	snprintf(v->title, sizeof(v->title), "%s", b->title);
	return v;
}

int sg_slot_of(const struct sg_var *v, int ent)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->s[i].ent == ent)
			return (int)i;
	return -1;
}

void sg_title_add(struct sg_var *v, const char *fmt, ...)
{
	size_t len = strlen(v->title);
	va_list ap;

	if (len && len + 2 < sizeof(v->title)) {
		memcpy(v->title + len, ", ", 3);
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(v->title + len, sizeof(v->title) - len, fmt, ap);
	va_end(ap);
}

static int push_edit(struct sg_var *v, hm_edit e)
{
	if (v->nedits >= v->ecap)
		return -ENOSPC;
	v->edits[v->nedits++] = e;
	return 0;
}

/* Give entry `ent` line alignment.  1 when done, 0 when it already has it. */
int sg_op_align(struct sg_ctx *c, struct sg_var *v, int ent)
{
	int i = sg_slot_of(v, ent);

	if (i < 0 || !c->ents[ent].name || c->ents[ent].bitrun)
		return 0;
	if (v->s[i].attr >= c->L || c->ents[ent].align >= c->L)
		return 0;
	if (push_edit(v, (hm_edit){ .kind = HM_EDIT_ALIGN, .member = c->ents[ent].name,
				    .value = c->L }))
		return 0;
	v->s[i].attr = c->L;
	return 1;
}

/* Move entry `ent` after entry `anchor` (-1: to the top).  1 when done. */
int sg_op_move(struct sg_ctx *c, struct sg_var *v, int ent, int anchor)
{
	int i = sg_slot_of(v, ent), j;
	struct sg_slot s;

	if (i < 0 || ent == anchor || !c->ents[ent].name || c->ents[ent].bitrun ||
	    v->nedits >= v->ecap || sg_var_wrapped(v))
		return 0;
	if (anchor >= 0 && !c->ents[anchor].name)
		return 0;
	s = v->s[i];
	memmove(&v->s[i], &v->s[i + 1], (v->n - i - 1) * sizeof(s));
	v->n--;
	j = anchor < 0 ? 0 : sg_slot_of(v, anchor) + 1;
	if (j < 0 || (anchor >= 0 && j == 0))
		return 0;
	memmove(&v->s[j + 1], &v->s[j], (v->n - j) * sizeof(s));
	v->s[j] = s;
	v->n++;
	if (j == i)
		return 0;	/* already there */
	return push_edit(v, (hm_edit){ .kind = HM_EDIT_MOVE, .member = c->ents[ent].name,
				       .anchor = anchor < 0 ? NULL : c->ents[anchor].name })
		? 0 : 1;
}

/* A padding slot after entry `after`: `bytes` of char array, or (attr) an
 * empty line-aligned member named as the kernel names them (`_pad1_`). */
static int add_pad(struct sg_ctx *c, struct sg_var *v, int after, uint64_t bytes, uint32_t attr)
{
	int i = sg_slot_of(v, after);
	char name[32];
	const char *pn;

	if (i < 0 || (!bytes && !attr) || v->n >= v->cap || !c->ents[after].name ||
	    v->nedits >= v->ecap || sg_var_wrapped(v))
		return 0;
	if (attr && (size_t)i + 1 < v->n && v->s[i + 1].ent < 0 && v->s[i + 1].attr)
		return 0;	/* one is enough */
	if (attr) {
		/* numbered within the struct, as the kernel numbers them */
		unsigned k = 0;

		for (size_t j = 0; j < v->n; j++)
			k += v->s[j].ent < 0 && v->s[j].attr;
		do
			snprintf(name, sizeof(name), "_pad%u_", ++k);
		while (sg_member_named(c, name));
	} else {
		do
			snprintf(name, sizeof(name), "pad%u", ++c->npads);
		while (sg_member_named(c, name));
	}
	pn = hm_arena_strndup(&c->arena, name, strlen(name));
	if (!pn)
		return 0;
	memmove(&v->s[i + 2], &v->s[i + 1], (v->n - i - 1) * sizeof(v->s[0]));
	v->s[i + 1] = (struct sg_slot){ .ent = -1, .pad = bytes, .pad_name = pn, .attr = attr };
	v->n++;
	return push_edit(v, (hm_edit){ .kind = attr ? HM_EDIT_LINEPAD : HM_EDIT_PAD,
				       .member = c->ents[after].name, .pad_name = pn,
				       .value = attr ? attr : bytes }) ? 0 : 1;
}

/* Insert `bytes` of explicit padding after entry `after`. */
int sg_op_pad(struct sg_ctx *c, struct sg_var *v, int after, uint64_t bytes)
{
	return add_pad(c, v, after, bytes, 0);
}

int sg_op_linepad(struct sg_ctx *c, struct sg_var *v, int after)
{
	return add_pad(c, v, after, 0, c->L);
}

static const char *group_member(struct sg_ctx *c, const char *what, const char *name)
{
	char buf[256];
	int n = snprintf(buf, sizeof(buf), "__cacheline_group_%s__%s", what, name);

	if (n < 0 || (size_t)n >= sizeof(buf) || sg_member_named(c, buf))
		return NULL;
	return hm_arena_strndup(&c->arena, buf, (size_t)n);
}

/* The three zero-size members the two macros expand to: the begin marker
 * aligned to the line, the end marker aligned to a long (8 on the LP64
 * kernels hitmap reads), an empty struct aligned to the line after it. */
int sg_op_group(struct sg_ctx *c, struct sg_var *v, int first, int last, const char *name)
{
	int i = sg_slot_of(v, first), j = sg_slot_of(v, last);
	const char *b, *e, *p, *gn;

	if (i < 0 || j < i || v->n + 3 > v->cap || v->nedits >= v->ecap || sg_var_wrapped(v))
		return 0;
	for (int k = i; k <= j; k++)
		if (v->s[k].ent < 0 || !c->ents[v->s[k].ent].name)
			return 0;
	b = group_member(c, "begin", name);
	e = group_member(c, "end", name);
	p = group_member(c, "pad", name);
	gn = hm_arena_strndup(&c->arena, name, strlen(name));
	if (!b || !e || !p || !gn)
		return 0;
	if (push_edit(v, (hm_edit){ .kind = HM_EDIT_GROUP, .member = c->ents[first].name,
				    .anchor = c->ents[last].name, .pad_name = gn,
				    .value = c->L }))
		return 0;
	memmove(&v->s[j + 3], &v->s[j + 1], (v->n - j - 1) * sizeof(v->s[0]));
	v->s[j + 1] = (struct sg_slot){ .ent = -1, .attr = 8, .pad_name = e,
					.pkind = SG_PAD_GEND };
	v->s[j + 2] = (struct sg_slot){ .ent = -1, .attr = c->L, .pad_name = p,
					.pkind = SG_PAD_GPAD };
	memmove(&v->s[i + 1], &v->s[i], (v->n + 2 - i) * sizeof(v->s[0]));
	v->s[i] = (struct sg_slot){ .ent = -1, .attr = c->L, .pad_name = b,
				    .pkind = SG_PAD_GBEGIN };
	v->n += 3;
	return 1;
}

int sg_var_wrapped(const struct sg_var *v)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->s[i].wrap || v->s[i].pkind)
			return 1;
	return 0;
}

/* Slots keep their indexes once wrapped (moves and padding refuse such a
 * variant), so the anonymous struct is a slot range.  Bitfield runs stay
 * out: their packing depends on what precedes them. */
int sg_op_wrap(struct sg_ctx *c, struct sg_var *v, int first, int last)
{
	int i = sg_slot_of(v, first), j = sg_slot_of(v, last);

	if (i < 0 || j < i || v->nedits >= v->ecap)
		return 0;
	for (int k = 0; k < i; k++)
		if (v->s[k].wrap && k + (int)v->s[k].wrap_n > i)
			return 0;
	for (int k = i; k <= j; k++) {
		int e = v->s[k].ent;

		if (e < 0 || !c->ents[e].name || c->ents[e].bitrun || v->s[k].wrap)
			return 0;
	}
	if (push_edit(v, (hm_edit){ .kind = HM_EDIT_WRAP, .member = c->ents[first].name,
				    .anchor = c->ents[last].name, .value = c->L }))
		return 0;
	v->s[i].wrap = c->L;
	v->s[i].wrap_n = (uint32_t)(j - i + 1);
	return 1;
}

/* Lay the variant out by the C rules.  0, or -1 when it would change how a
 * run of bitfields packs (the model cannot say where they would go). */
static int outer_compute(struct sg_ctx *c, struct sg_var *v);

int sg_var_compute(struct sg_ctx *c, struct sg_var *v)
{
	uint64_t cur = 0, prev_end = 0, wstart = 0;
	uint32_t sal = c->type_align ? c->type_align : 1, wal = 0;
	size_t wlast = 0;
	hm_suggest_stats *st = &v->st;

	memset(st, 0, sizeof(*st));
	for (size_t i = 0; i < c->nents; i++)
		v->pos[i] = UINT64_MAX;
	for (size_t i = 0; i < v->n; i++) {
		struct sg_slot *s = &v->s[i];
		const struct sg_ent *e;
		uint32_t a;

		if (s->ent < 0) {
			s->off = sg_align_up(cur, s->attr);
			if (s->off > prev_end && i) {
				st->holes++;
				st->sum_holes += s->off - prev_end;
			}
			cur = s->off + s->pad;
			prev_end = cur;
			if (s->attr > sal)
				sal = s->attr;
			continue;
		}
		if (s->wrap) {
			/* the anonymous struct: as aligned as its attribute and
			 * every member in it, sized to a multiple of that */
			wal = s->wrap;
			wlast = i + s->wrap_n - 1;
			for (size_t k = i; k <= wlast && k < v->n; k++) {
				const struct sg_ent *we = &c->ents[v->s[k].ent];

				wal = we->align > wal ? we->align : wal;
				wal = v->s[k].attr > wal ? v->s[k].attr : wal;
			}
			wstart = cur = sg_align_up(cur, wal);
		}
		e = &c->ents[s->ent];
		a = e->align > s->attr ? e->align : s->attr;
		s->off = sg_align_up(cur, a);
		if (e->bitrun && !sg_bitrun_ok(c, v, i))
			return -1;
		if (s->off > prev_end && i) {
			st->holes++;
			st->sum_holes += s->off - prev_end;
		}
		v->pos[s->ent] = s->off;
		cur = s->off + e->size;
		if (wal && i == wlast) {
			cur = wstart + sg_align_up(cur - wstart, wal);
			a = wal;
			wal = 0;
		}
		prev_end = cur;
		if (a > sal)
			sal = a;
	}
	st->alignment = sal;
	st->size = sg_align_up(cur, sal);
	st->padding = st->size - cur;
	v->inner_size = st->size;
	v->inner_align = sal;
	v->base_off = 0;
	if (c->outer && outer_compute(c, v) < 0)
		return -1;
	st->cachelines = (uint32_t)((st->size + c->L - 1) / c->L);
	st->base_known = c->opts.assume_aligned || st->alignment >= c->L;
	v->growth = (int64_t)st->size - (int64_t)(c->outer ? c->outer->size0 : c->size0);
	return 0;
}

/* The enclosing struct with this variant of the anonymous member: where the
 * member lands, and the outer size and alignment (what sizeof reports). */
static int outer_compute(struct sg_ctx *c, struct sg_var *v)
{
	struct sg_ctx *o = c->outer;
	struct sg_ent *oe = &o->ents[c->outer_ent], saved = *oe;
	struct sg_var *ov = o->today;
	int err;

	oe->size = v->inner_size;
	oe->align = v->inner_align;
	err = sg_var_compute(o, ov);
	*oe = saved;
	if (err < 0)
		return -1;
	v->base_off = ov->pos[c->outer_ent];
	v->st.size = ov->st.size;
	v->st.alignment = ov->st.alignment;
	v->st.padding = ov->st.padding;
	return 0;
}

/* A bitfield run packs as it does today only behind the same predecessor,
 * shifted by a multiple of its alignment. */
int sg_bitrun_ok(const struct sg_ctx *c, const struct sg_var *v, size_t i)
{
	const struct sg_slot *s = &v->s[i];
	const struct sg_ent *e = &c->ents[s->ent];
	int64_t delta = (int64_t)s->off - (int64_t)e->off0;

	if (delta % (int64_t)(e->align ? e->align : 1))
		return 0;
	if (s->ent == 0)
		return i == 0;
	if (i == 0 || v->s[i - 1].ent != s->ent - 1)
		return 0;
	return (int64_t)v->s[i - 1].off - (int64_t)c->ents[s->ent - 1].off0 == delta;
}

int sg_member_named(const struct sg_ctx *c, const char *name)
{
	for (uint32_t i = 0; i < c->nmem; i++)
		if (c->mem[i].name && !strcmp(c->mem[i].name, name))
			return 1;
	return 0;
}

/* ---- sharing ---- */

/* Fraction of the object starts the variant allows at which the byte ranges
 * land on a common line. */
double sg_share_frac(const struct sg_ctx *c, const struct sg_var *v,
			 const struct sg_range *a, size_t na, const struct sg_range *b, size_t nb)
{
	uint64_t L = c->L, step = v->st.base_known ? L : v->st.alignment;
	unsigned hit = 0, tot = 0;

	if (!step || step > L)
		step = L;
	for (uint64_t r0 = 0; r0 < L; r0 += step, tot++) {
		uint64_t r = r0 + v->base_off;
		int shared = 0;

		for (size_t i = 0; i < na && !shared; i++) {
			uint64_t a0 = r + a[i].off, a1 = a0 + (a[i].size ? a[i].size : 1) - 1;

			for (size_t j = 0; j < nb && !shared; j++) {
				uint64_t b0 = r + b[j].off, b1 = b0 + (b[j].size ? b[j].size : 1) - 1;

				shared = a0 / L <= b1 / L && b0 / L <= a1 / L;
			}
		}
		hit += shared;
	}
	return tot ? (double)hit / tot : 0;
}

static struct sg_range ref_range(const struct sg_var *v, const struct sg_ref *r)
{
	return (struct sg_range){ .off = v->pos[r->ent] + r->inner, .size = r->size };
}

double sg_pair_frac(const struct sg_ctx *c, const struct sg_var *v, size_t p)
{
	struct sg_range a = ref_range(v, &c->pref[p].a), b = ref_range(v, &c->pref[p].b);

	return sg_share_frac(c, v, &a, 1, &b, 1);
}

static double group_frac(const struct sg_ctx *c, const struct sg_var *v, size_t g)
{
	const struct sg_gref *gr = &c->gref[g];
	struct sg_range in[16], out[256];
	size_t nin = 0, nout = 0;

	for (size_t i = 0; i < gr->n && nin < 16; i++)
		in[nin++] = ref_range(v, &gr->r[i]);
	for (size_t i = 0; i < v->n && nout < 256; i++) {
		int e = v->s[i].ent, mine = 0;

		if (e < 0 || !c->ents[e].size || (!gr->strict && !c->ents[e].hot))
			continue;
		for (size_t k = 0; k < gr->n; k++)
			mine |= gr->r[k].ent == e;
		if (!mine)
			out[nout++] = (struct sg_range){ .off = v->s[i].off,
							 .size = c->ents[e].size };
	}
	return sg_share_frac(c, v, in, nin, out, nout);
}

void sg_var_score(struct sg_ctx *c, struct sg_var *v)
{
	double rem = 0;

	for (size_t p = 0; p < c->npairs; p++)
		if (c->pref[p].ok)
			rem += c->pairs[p].weight * sg_pair_frac(c, v, p);
	for (size_t g = 0; g < c->ngroups; g++)
		if (c->gref[g].ok)
			rem += c->groups[g].weight * group_frac(c, v, g);
	v->st.remaining = rem;
}


/* Whether entry `x` can share a line with any entry placed before it. */
int sg_shares_before(const struct sg_ctx *c, const struct sg_var *v, int x)
{
	int i = sg_slot_of(v, x);
	struct sg_range me, before[256];
	size_t nb = 0;

	if (i < 0)
		return 0;
	me = (struct sg_range){ .off = v->s[i].off, .size = c->ents[x].size };
	for (int k = 0; k < i && nb < 256; k++)
		if (v->s[k].ent >= 0 && c->ents[v->s[k].ent].size)
			before[nb++] = (struct sg_range){ .off = v->s[k].off,
							  .size = c->ents[v->s[k].ent].size };
	return sg_share_frac(c, v, &me, 1, before, nb) > 0;
}


int sg_ent_named(const struct sg_ctx *c, const char *name)
{
	for (size_t i = 0; i < c->nents; i++)
		if (c->ents[i].name && !strcmp(c->ents[i].name, name))
			return (int)i;
	return -1;
}


int sg_ent_of_member(const struct sg_ctx *c, uint32_t idx)
{
	if (c->ent_of)
		return idx < c->nmem ? c->ent_of[idx] : -1;
	for (size_t i = 0; i < c->nents; i++)
		if (idx >= c->ents[i].first && idx < c->ents[i].first + c->ents[i].nr)
			return (int)i;
	return -1;
}
