/* layout: one struct flattened onto cachelines, with pahole's accounting of
 * holes, bit holes and padding. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "layout/layout-int.h"
#include "types/types-int.h"
#include "base/opts.h"
#include "base/util.h"
#include "types/types-lib.h"

#define GROUP_BEGIN "__cacheline_group_begin__"
#define GROUP_END "__cacheline_group_end__"

struct hm_layout {
	const hm_types *t;
	hm_type_id id;
	const hm_type *ty;
	unsigned line;
	int expand;
	hm_field *f;
	size_t nf, cf;
	hm_hole *h;
	size_t nh, ch;
	hm_group *g;
	size_t ng, cg;
	struct hm_layout_summary sum;
	hm_arena arena;
	int err;
	/* field index (+1) by path, built by the first hm_layout_find(): a
	 * caller looking up every field of a 100 000-member struct must not
	 * scan them all each time.  Reached through a pointer, as the layout
	 * is const there. */
	struct path_index {
		uint32_t *slots;
		size_t n;	/* a power of two; 0: not built */
	} *pidx;
};

hm_type_id hmi_layout_strip(const hm_types *t, hm_type_id id)
{
	unsigned guard = 0;

	while (id && guard++ < 64) {
		const hm_type *ty = hm_types_get(t, id);

		if (!ty)
			return 0;
		switch (ty->kind) {
		case HM_KIND_TYPEDEF:
		case HM_KIND_CONST:
		case HM_KIND_VOLATILE:
		case HM_KIND_RESTRICT:
		case HM_KIND_ATOMIC:
			id = ty->target;
			break;
		default:
			return id;
		}
	}
	return id;
}

/* Whether type id is a record that could be an empty base (1: no), or 0
 * with *rec set to that record. */
static uint32_t empty_or_record(const hm_types *t, hm_type_id id, hm_type_id *rec)
{
	hm_type_id sid = hmi_layout_strip(t, id);
	const hm_type *ty = hm_types_get(t, sid);

	if (!ty || !hm_kind_is_record(ty->kind) || ty->size > 1)
		return 1;
	*rec = sid;
	return 0;
}

static uint32_t empty_member(const hm_types *t, const hm_type *rec, uint32_t i,
			     hm_type_id *need)
{
	const hm_member *m = &hm_types_members(t, rec)[i];

	return m->flags & HM_MEMBER_STATIC ? 0 : empty_or_record(t, m->type, need);
}

static void empty_join(const hm_types *t, const hm_type *rec, uint32_t i, uint32_t v,
		       uint64_t *acc)
{
	*acc |= v == 1;	/* a member that takes room */
}

static uint32_t empty_finish(const hm_types *t, const hm_type *ty, uint64_t acc)
{
	return acc || ty->size > 1 ? 1 : 2;
}

static const struct hm_fold empty_fold = {
	.slot = HM_MEMO_EMPTY,
	.member = empty_member,
	.join = empty_join,
	.finish = empty_finish,
};

/* A base class without data takes no room in its derived class (empty base
 * optimisation), although sizeof says 1. */
static int empty_base(const hm_types *t, const hm_member *m)
{
	hm_type_id rec = 0;

	return !empty_or_record(t, m->type, &rec) && hm_types_fold(t, rec, &empty_fold) == 2;
}

uint64_t hmi_layout_member_size(const hm_types *t, const hm_member *m)
{
	const hm_type *ty;

	if (m->flags & HM_MEMBER_BITFIELD)
		return m->byte_size;
	if ((m->flags & HM_MEMBER_INHERITANCE) && empty_base(t, m))
		return 0;
	ty = hm_types_get(t, hmi_layout_strip(t, m->type));
	if (ty && ty->kind == HM_KIND_PTR_TO_MEMBER && !ty->size) {
		/* Itanium C++ ABI: an offset, or a function pointer plus an adjustment */
		const hm_type *tg = hm_types_get(t, hmi_layout_strip(t, ty->target));

		return (tg && tg->kind == HM_KIND_FUNC ? 2 : 1) * hmi_types_pointer_size(t);
	}
	return hm_types_sizeof(t, m->type);
}

/* The natural alignment of type id, or 0 with *rec set to the record
 * (through typedefs, qualifiers and arrays) whose alignment it is. */
static uint32_t natural_or_record(const hm_types *t, hm_type_id id, hm_type_id *rec)
{
	for (unsigned hop = 0; hop < 512; hop++) {
		const hm_type *ty;

		id = hmi_layout_strip(t, id);
		ty = id ? hm_types_get(t, id) : NULL;
		if (!ty)
			return 1;
		switch (ty->kind) {
		case HM_KIND_POINTER:
			return hmi_types_pointer_size(t);
		case HM_KIND_BASE:
		case HM_KIND_ENUM:
			return ty->size ? (uint32_t)ty->size : 1;
		case HM_KIND_ARRAY:
			id = ty->target;
			continue;
		case HM_KIND_STRUCT:
		case HM_KIND_UNION:
		case HM_KIND_CLASS:
			*rec = id;
			return 0;
		default:
			return 1;
		}
	}
	return 1;
}

static uint32_t natural_member(const hm_types *t, const hm_type *rec, uint32_t i,
			       hm_type_id *need)
{
	const hm_member *m = &hm_types_members(t, rec)[i];
	uint32_t a;

	if (m->flags & (HM_MEMBER_STATIC | HM_MEMBER_VIRTUAL_BASE))
		return 0;
	a = natural_or_record(t, m->type, need);
	return a || *need ? a : 1;	/* pointer size 0: as good as 1 here */
}

static void natural_join(const hm_types *t, const hm_type *rec, uint32_t i, uint32_t v,
			 uint64_t *acc)
{
	if (v > *acc)
		*acc = v;
}

static uint32_t natural_finish(const hm_types *t, const hm_type *ty, uint64_t acc)
{
	return acc ? (uint32_t)acc : 1;
}

static const struct hm_fold natural_fold = {
	.slot = HM_MEMO_NATURAL,
	.member = natural_member,
	.join = natural_join,
	.finish = natural_finish,
};

uint32_t hmi_layout_natural_align(const hm_types *t, hm_type_id id)
{
	hm_type_id rec = 0;
	uint32_t a = natural_or_record(t, id, &rec);

	return a || !rec ? a : hm_types_fold(t, rec, &natural_fold);
}

void hm_sholes_free(struct hm_sholes *h)
{
	if (h) {
		free(h->m);
		free(h->vb);
		h->m = NULL;
		h->vb = NULL;
	}
}

static void note_hole(struct hm_sholes *h, int last, int64_t bytes, int64_t bits)
{
	/* C++ bases may overlap (tail padding reuse): that is no hole */
	if (bytes < 0)
		bytes = 0;
	if (bits < 0)
		bits = 0;
	if (last >= 0) {
		h->m[last].hole = (uint64_t)bytes;
		h->m[last].bit_hole = (uint32_t)bits;
	} else {
		h->pre_hole = (uint64_t)bytes;
		h->pre_bit_hole = (uint32_t)bits;
	}
	if (bits)
		h->nr_bit_holes++;
	if (bytes)
		h->nr_holes++;
}

/* A base class is drawn at sizeof (as pahole does) unless the derived class
 * puts something in its tail padding (Itanium C++ ABI: a non-POD base's tail
 * may be reused) or it has virtual bases: then at its non-virtual size, the
 * bytes that are really its in the derived object. */
static void base_sizes(const hm_types *t, const hm_type *ty, struct hm_sholes *h)
{
	const hm_member *m = hm_types_members(t, ty);

	for (uint32_t i = 0; i < ty->nr; i++) {
		uint64_t end = m[i].offset + h->m[i].size, next = UINT64_MAX;

		if (!(m[i].flags & HM_MEMBER_INHERITANCE) || h->m[i].skipped || !h->m[i].size)
			continue;
		for (uint32_t j = 0; j < ty->nr; j++)
			if (j != i && !h->m[j].skipped && h->m[j].size && m[j].offset >= m[i].offset &&
			    m[j].offset < next && (m[j].offset > m[i].offset || j > i))
				next = m[j].offset;
		/* a base with virtual bases: its sizeof counts them, which the
		 * complete object places elsewhere */
		if (next < end || hm_base_has_vbases(t, m[i].type)) {
			uint64_t nv = hm_base_nvsize(t, m[i].type);

			if (nv < h->m[i].size && m[i].offset + nv <= next)
				h->m[i].size = nv;
		}
	}
}

/* The bytes a complete object's virtual bases take, after the non-virtual
 * part: they are neither hole nor padding.  A gap before one (alignment) is
 * a hole after the last member; a direct virtual base learns its offset. */
static int64_t vbases_taken(const hm_types *t, const hm_type *ty, struct hm_sholes *h, int last,
			    int64_t seen)
{
	const hm_member *m = hm_types_members(t, ty);
	struct hm_vbase vb[64];
	int n, any = 0;

	for (uint32_t i = 0; i < ty->nr && !any; i++)
		any = (m[i].flags & HM_MEMBER_INHERITANCE) != 0;
	if (!any || (n = hm_vbases_place(t, ty, vb, 64)) <= 0)
		return seen;
	h->vb = malloc((size_t)n * sizeof(*h->vb));
	if (!h->vb)
		return seen;	/* no room to say where: left unplaced */
	memcpy(h->vb, vb, (size_t)n * sizeof(*h->vb));
	h->nr_vb = (uint32_t)n;
	for (int k = 0; k < n; k++) {
		int64_t gap = (int64_t)vb[k].offset - (seen + 7) / 8;

		h->vb[k].hole = 0;

		/* a primary (nearly empty) or empty virtual base at 0: the
		 * bytes before the first member are its own, not a hole */
		if (!vb[k].offset && vb[k].size && h->pre_hole) {
			uint64_t in = vb[k].size < h->pre_hole ? vb[k].size : h->pre_hole;

			h->pre_hole -= in;
			h->nr_holes -= !h->pre_hole;
		}
		if (gap > 0 && k > 0) {
			h->nr_holes++;
			h->vb[k - 1].hole = (uint64_t)gap;
		} else if (gap > 0 && last >= 0) {
			if (!h->m[last].hole)
				h->nr_holes++;
			h->m[last].hole += (uint64_t)gap;
		}
		if ((int64_t)(vb[k].offset + vb[k].size) * 8 > seen)
			seen = (int64_t)(vb[k].offset + vb[k].size) * 8;
		for (uint32_t i = 0; i < ty->nr; i++)
			if ((m[i].flags & HM_MEMBER_INHERITANCE) && (m[i].flags & HM_MEMBER_VIRTUAL_BASE) &&
			    hmi_layout_strip(t, m[i].type) == vb[k].type) {
				h->m[i].vb_placed = 1;
				h->m[i].vb_offset = vb[k].offset;
			}
	}
	return seen;
}

/* pahole's walk: last_seen_bit follows the end of the previous member; a
 * bitfield run owns its storage unit up to cur_end, so the bits between the
 * last bitfield and the unit's end are a bit hole, and the bytes between a
 * unit's end and the next member a byte hole. */
int hm_sholes_compute(const hm_types *t, const hm_type *ty, struct hm_sholes *h)
{
	const hm_member *m = hm_types_members(t, ty);
	int64_t cur_end = (int64_t)ty->size * 8, cur_size = 0, seen = 0;
	int in_bf = 0, last = -1;

	memset(h, 0, sizeof(*h));
	h->nr = ty->nr;
	h->m = calloc(ty->nr ? ty->nr : 1, sizeof(*h->m));
	if (!h->m)
		return -ENOMEM;
	for (uint32_t i = 0; i < ty->nr; i++) {
		h->m[i].skipped = !!(m[i].flags & (HM_MEMBER_STATIC | HM_MEMBER_VIRTUAL_BASE));
		if (!h->m[i].skipped)
			h->m[i].size = hmi_layout_member_size(t, &m[i]);
	}
	if (ty->kind == HM_KIND_UNION)
		return 0;
	base_sizes(t, ty, h);
	for (uint32_t i = 0; i < ty->nr; i++) {
		int bf = (m[i].flags & HM_MEMBER_BITFIELD) != 0;
		int64_t start, end, bits = 0, bytes = 0;

		if (h->m[i].skipped)
			continue;
		start = (int64_t)m[i].offset * 8 + (bf ? m[i].bit_offset : 0);
		end = start + (bf ? (int64_t)m[i].bit_size : (int64_t)h->m[i].size * 8);
		if (in_bf) {
			int64_t bf_end = start < cur_end ? start : cur_end;

			bits = bf_end - seen;
			seen = bf_end;
		}
		if (bf) {
			int64_t unit_start = (int64_t)m[i].offset * 8;

			if (seen < unit_start && unit_start <= start) {
				bytes = (int64_t)m[i].offset - seen / 8;
				seen = unit_start;
			}
			bits += start - seen;
		} else {
			bytes = start / 8 - seen / 8;
		}
		seen = end;
		if (bf) {
			int64_t unit = (int64_t)m[i].byte_size * 8;

			in_bf = 1;
			if (end > cur_end || unit > cur_size) {
				cur_size = unit;
				cur_end = (int64_t)m[i].offset * 8 + unit;
				if (end > cur_end)
					cur_end += unit;
			}
		} else {
			in_bf = 0;
			cur_size = 0;
			cur_end = end;
		}
		note_hole(h, last, bytes, bits);
		last = (int)i;
	}
	if (in_bf) {
		int64_t bf_end = (int64_t)ty->size * 8 < cur_end ? (int64_t)ty->size * 8 : cur_end;

		h->bit_padding = bf_end > seen ? (uint32_t)(bf_end - seen) : 0;
		seen = bf_end;
	}
	seen = vbases_taken(t, ty, h, last, seen);
	h->padding = (int64_t)ty->size > seen / 8 ? ty->size - (uint64_t)(seen / 8) : 0;
	return 0;
}

int hm_struct_is_packed(const hm_types *t, const hm_type *ty, const struct hm_sholes *h)
{
	const hm_member *m = hm_types_members(t, ty);
	uint32_t max = 1;

	/* padding explained by an explicit alignment does not rule packing out
	 * (`packed, aligned(4)`), a hole does */
	if (ty->kind == HM_KIND_UNION || h->nr_holes || (h->padding && !ty->alignment))
		return 0;
	for (uint32_t i = 0; i < ty->nr; i++) {
		uint32_t na;

		if (m[i].flags & (HM_MEMBER_STATIC | HM_MEMBER_VIRTUAL_BASE))
			continue;
		na = hmi_layout_natural_align(t, m[i].type);
		if (na == 1)
			continue;
		if (na > max)
			max = na;
		if (m[i].offset % na)
			return 1;
	}
	return (max != 1 && ty->alignment == 1) || ty->size % max != 0;
}

/* ---- flattening ---- */

static hm_field *push_field(hm_layout *l)
{
	if (hm_grow((void **)&l->f, &l->cf, l->nf + 1, sizeof(*l->f))) {
		l->err = -ENOMEM;
		return NULL;
	}
	memset(&l->f[l->nf], 0, sizeof(l->f[0]));
	return &l->f[l->nf++];
}

static void push_hole(hm_layout *l, uint64_t off, uint64_t size, uint32_t after)
{
	if (!size)
		return;
	if (hm_grow((void **)&l->h, &l->ch, l->nh + 1, sizeof(*l->h))) {
		l->err = -ENOMEM;
		return;
	}
	l->h[l->nh++] = (hm_hole){ .offset = off, .size = size, .after = after };
}

static const char *join_path(hm_layout *l, const char *prefix, const char *name)
{
	size_t n;
	char *p;

	if (!prefix || !*prefix)
		return name;
	if (!name)
		return prefix;
	n = strlen(prefix) + strlen(name) + 2;
	p = hm_arena_alloc(&l->arena, n);
	if (!p) {
		l->err = -ENOMEM;
		return name;
	}
	snprintf(p, n, "%s.%s", prefix, name);
	return p;
}

static void set_lines(hm_layout *l, hm_field *f)
{
	f->line_first = (uint32_t)(f->offset / l->line);
	f->line_last = f->size ? (uint32_t)((f->offset + f->size - 1) / l->line) : f->line_first;
	f->straddles = f->line_first != f->line_last;
}

/* Whether a member's type reaches its record through a typedef: the text
 * prints `anon_typedef_t t;` by the typedef's name, not the body. */
static int declared_by_typedef(const hm_types *t, hm_type_id id)
{
	for (unsigned guard = 0; guard < 64; guard++) {
		const hm_type *ty = id ? hm_types_get(t, id) : NULL;

		if (!ty)
			return 0;
		if (ty->kind == HM_KIND_TYPEDEF)
			return 1;
		if (ty->kind != HM_KIND_CONST && ty->kind != HM_KIND_VOLATILE &&
		    ty->kind != HM_KIND_RESTRICT && ty->kind != HM_KIND_ATOMIC)
			return 0;
		id = ty->target;
	}
	return 0;
}

static void add_level(hm_layout *l, const hm_type *rec, uint64_t base, uint32_t depth,
		      uint32_t parent, const char *prefix, int is_base);

/* A complete object's virtual bases, after its non-virtual part as the text
 * lists them; a base subobject has none of its own (they are the complete
 * object's). */
static uint32_t add_vbases(hm_layout *l, const struct hm_sholes *h, uint64_t base, uint32_t depth,
			   uint32_t parent, const char *prefix, uint32_t prev)
{
	for (uint32_t k = 0; k < h->nr_vb && !l->err; k++) {
		hm_member *vm = hm_arena_alloc(&l->arena, sizeof(*vm));
		const hm_type *vt = hm_types_get(l->t, h->vb[k].type);
		hm_field *f;
		uint32_t me;

		if (!vm) {
			l->err = -ENOMEM;
			break;
		}
		*vm = (hm_member){ .type = h->vb[k].type, .offset = h->vb[k].offset,
				   .flags = HM_MEMBER_INHERITANCE };
		f = push_field(l);
		if (!f)
			break;
		me = (uint32_t)(l->nf - 1);
		f->name = vt ? vt->name : NULL;
		f->path = join_path(l, prefix, f->name);
		f->member = vm;
		f->type = vm->type;
		f->offset = base + vm->offset;
		f->size = h->vb[k].size;
		f->depth = depth;
		f->parent = parent;
		f->next = HM_FIELD_NONE;
		f->hole_after = h->vb[k].hole;
		set_lines(l, f);
		if (prev != HM_FIELD_NONE)
			l->f[prev].next = me;
		prev = me;
		if (vt && hm_kind_is_record(vt->kind) && !vt->declaration)
			add_level(l, vt, l->f[me].offset, depth + 1, me, prefix, 1);
		l->f[me].nr_children = (uint32_t)(l->nf - me - 1);
		l->f[me].is_leaf = l->f[me].nr_children == 0;
		if (h->vb[k].hole && k + 1 < h->nr_vb)
			push_hole(l, base + h->vb[k + 1].offset - h->vb[k].hole, h->vb[k].hole, me);
	}
	return prev;
}

static void add_level(hm_layout *l, const hm_type *rec, uint64_t base, uint32_t depth,
		      uint32_t parent, const char *prefix, int is_base)
{
	const hm_member *m = hm_types_members(l->t, rec);
	struct hm_sholes h;
	uint32_t prev = HM_FIELD_NONE;

	/* Corrupt debug info can nest anonymous members that overlap, each
	 * level doubling the fields: bound the total far above any real type. */
	if (l->nf > (1u << 20)) {
		l->err = -ENOMEM;
		return;
	}
	if (depth > HM_NEST_MAX || hm_sholes_compute(l->t, rec, &h)) {
		if (depth <= HM_NEST_MAX)
			l->err = -ENOMEM;
		return;
	}
	for (uint32_t i = 0; i < rec->nr && !l->err; i++) {
		hm_type_id sid;
		const hm_type *st;
		hm_field *f;
		uint32_t me;
		int anon;

		if ((m[i].flags & HM_MEMBER_STATIC) || (h.m[i].vb_placed && !is_base))
			continue;
		f = push_field(l);
		if (!f)
			break;
		me = (uint32_t)(l->nf - 1);
		f->name = m[i].name;
		if ((m[i].flags & HM_MEMBER_INHERITANCE) && !f->name) {
			st = hm_types_get(l->t, hmi_layout_strip(l->t, m[i].type));
			f->name = st ? st->name : NULL;
		}
		f->path = join_path(l, prefix, f->name);
		f->member = &m[i];
		f->type = m[i].type;
		f->offset = base + m[i].offset;
		f->size = h.m[i].size;
		if (m[i].flags & HM_MEMBER_BITFIELD) {
			f->bit_offset = m[i].bit_offset;
			f->bit_size = m[i].bit_size;
		}
		f->depth = depth;
		f->parent = parent;
		f->next = HM_FIELD_NONE;
		f->hole_after = h.m[i].hole;
		f->bit_hole_after = h.m[i].bit_hole;
		set_lines(l, f);
		if (prev != HM_FIELD_NONE)
			l->f[prev].next = me;
		prev = me;
		sid = hmi_layout_strip(l->t, m[i].type);
		st = sid ? hm_types_get(l->t, sid) : NULL;
		anon = st && !st->name && !declared_by_typedef(l->t, m[i].type);
		/* the text prints an anonymous type's members inline whatever
		 * the member is called, so they are listed whatever it is
		 * called; a named type's members only with expand (-E) */
		if (st && hm_kind_is_record(st->kind) && !st->declaration &&
		    !(m[i].flags & HM_MEMBER_VIRTUAL_BASE) &&
		    (!m[i].name || anon || l->expand)) {
			add_level(l, st, f->offset, depth + 1, me,
				  m[i].name ? l->f[me].path : prefix,
				  (m[i].flags & HM_MEMBER_INHERITANCE) != 0);
		}
		l->f[me].nr_children = (uint32_t)(l->nf - me - 1);
		l->f[me].is_leaf = l->f[me].nr_children == 0;
		/* a hole sits between a member and the next one that takes
		 * space; listed after the member's own, in the text's order */
		if (!h.m[i].skipped && h.m[i].hole && !l->err) {
			uint32_t j;

			for (j = i + 1; j < rec->nr && ((m[j].flags & HM_MEMBER_STATIC) ||
						       h.m[j].skipped); j++)
				;
			if (j < rec->nr)
				push_hole(l, base + m[j].offset - h.m[i].hole, h.m[i].hole, me);
			else if (h.nr_vb && !is_base)
				push_hole(l, base + h.vb[0].offset - h.m[i].hole, h.m[i].hole, me);
		}
	}
	if (!is_base)
		prev = add_vbases(l, &h, base, depth, parent, prefix, prev);
	if (prev != HM_FIELD_NONE && h.padding && rec->kind != HM_KIND_UNION) {
		l->f[prev].hole_after = h.padding;
	}
	hm_sholes_free(&h);
}

static int starts_with(const char *s, const char *p)
{
	return s && strncmp(s, p, strlen(p)) == 0;
}

static void find_groups(hm_layout *l)
{
	for (size_t i = 0; i < l->nf && !l->err; i++) {
		const hm_field *b = &l->f[i];
		const char *g;
		uint32_t j, last = HM_FIELD_NONE;
		hm_group grp = { 0 };

		if (!starts_with(b->name, GROUP_BEGIN))
			continue;
		g = b->name + strlen(GROUP_BEGIN);	/* anonymous members have no name */
		grp.name = g;
		grp.offset = b->offset;
		grp.first = b->next;
		grp.aligned = b->member->alignment >= l->line;
		for (j = b->next; j != HM_FIELD_NONE; j = l->f[j].next) {
			const hm_field *e = &l->f[j];

			if (starts_with(e->name, GROUP_END) && !strcmp(e->name + strlen(GROUP_END), g))
				break;
			last = j;
		}
		if (j == HM_FIELD_NONE) {
			uint64_t end = l->ty->size;

			if (b->parent != HM_FIELD_NONE)
				end = l->f[b->parent].offset + l->f[b->parent].size;
			grp.unterminated = 1;
			grp.size = end - b->offset;
		} else {
			grp.size = l->f[j].offset - b->offset;
		}
		grp.last = last;
		if (last == HM_FIELD_NONE)
			grp.first = HM_FIELD_NONE;
		if (hm_grow((void **)&l->g, &l->cg, l->ng + 1, sizeof(*l->g))) {
			l->err = -ENOMEM;
			return;
		}
		l->g[l->ng++] = grp;
	}
}

static void summarize(hm_layout *l, const struct hm_layout_opts *o)
{
	const hm_member *m = hm_types_members(l->t, l->ty);
	struct hm_layout_summary *s = &l->sum;
	struct hm_sholes h;
	int last = -1;

	s->size = l->ty->size;
	s->alignment = hm_types_alignof(l->t, l->id);
	s->cachelines = (uint32_t)((s->size + l->line - 1) / l->line);
	s->last_cacheline = s->size % l->line;
	s->base_known = s->alignment >= l->line || o->assume_aligned;
	if (hm_sholes_compute(l->t, l->ty, &h)) {
		l->err = -ENOMEM;
		return;
	}
	s->holes = h.nr_holes;
	s->bit_holes = h.nr_bit_holes;
	s->sum_holes = h.pre_hole;
	s->sum_bit_holes = h.pre_bit_hole;
	s->padding = h.padding;
	s->bit_padding = h.bit_padding;
	for (uint32_t i = 0; i < l->ty->nr; i++) {
		if (m[i].flags & HM_MEMBER_STATIC)
			continue;
		s->members++;
		if (h.m[i].skipped)
			continue;
		if (m[i].flags & HM_MEMBER_BITFIELD) {
			s->bitfield_members++;
			s->sum_bitfield_bits += m[i].bit_size;
		} else {
			s->sum_members += h.m[i].size;
		}
		s->sum_holes += h.m[i].hole;
		s->sum_bit_holes += h.m[i].bit_hole;
		if (m[i].alignment) {
			uint64_t before = last >= 0 ? h.m[last].hole : h.pre_hole;

			s->forced_alignments++;
			if (before) {
				s->forced_holes++;
				s->sum_forced_holes += before;
			}
		}
		if (!(m[i].flags & HM_MEMBER_INHERITANCE))
			last = (int)i;
	}
	if (l->ty->kind == HM_KIND_UNION) {
		uint64_t max = 0;

		for (uint32_t i = 0; i < l->ty->nr; i++)
			if (!h.m[i].skipped && h.m[i].size > max)
				max = h.m[i].size;
		s->padding = s->size > max ? s->size - max : 0;
	}
	hm_sholes_free(&h);
}

hm_layout *hm_layout_new(const hm_types *t, hm_type_id id, const struct hm_layout_opts *opts)
{
	static const struct hm_layout_opts defaults;
	struct hm_layout_opts oc;
	const struct hm_layout_opts *o;
	const hm_type *ty = t ? hm_types_get(t, id) : NULL;
	hm_layout *l;

	if (!HM_OPTS_VALID(opts, hm_layout_opts)) {
		errno = EINVAL;
		return NULL;
	}
	o = opts ? HM_OPTS_COPY(&oc, opts, hm_layout_opts) : &defaults;
	if (!ty || !hm_kind_is_record(ty->kind) || ty->declaration) {
		errno = EINVAL;
		return NULL;
	}
	if (o->cacheline_size & (o->cacheline_size - 1)) {
		errno = EINVAL;
		return NULL;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		errno = ENOMEM;
		return NULL;
	}
	l->pidx = calloc(1, sizeof(*l->pidx));
	if (!l->pidx) {
		free(l);
		errno = ENOMEM;
		return NULL;
	}
	l->t = t;
	l->id = id;
	l->ty = ty;
	l->line = hm_types_cacheline_size(t, o->cacheline_size);
	l->expand = o->expand;
	add_level(l, ty, 0, 0, HM_FIELD_NONE, NULL, 0);
	if (!l->err)
		find_groups(l);
	if (!l->err)
		summarize(l, o);
	if (l->err) {
		hm_layout_free(l);
		errno = ENOMEM;
		return NULL;
	}
	return l;
}

void hm_layout_free(hm_layout *l)
{
	if (!l)
		return;
	free(l->f);
	free(l->h);
	free(l->g);
	hm_arena_free(&l->arena);
	if (l->pidx)
		free(l->pidx->slots);
	free(l->pidx);
	free(l);
}

const hm_types *hmi_layout_types(const hm_layout *l) { return l->t; }
hm_type_id hm_layout_type(const hm_layout *l) { return l->id; }
const char *hmi_layout_name(const hm_layout *l) { return l->ty->name; }
unsigned hm_layout_cacheline_size(const hm_layout *l) { return l->line; }
const struct hm_layout_summary *hm_layout_summary(const hm_layout *l) { return &l->sum; }

const hm_field *hm_layout_fields(const hm_layout *l, size_t *n)
{
	if (n)
		*n = l->nf;
	return l->f;
}

const hm_hole *hm_layout_holes(const hm_layout *l, size_t *n)
{
	if (n)
		*n = l->nh;
	return l->h;
}

const hm_group *hm_layout_groups(const hm_layout *l, size_t *n)
{
	if (n)
		*n = l->ng;
	return l->g;
}

static int contains(const hm_field *f, uint64_t off)
{
	return off >= f->offset && off < f->offset + f->size;
}

/* Depth-first: the first field (pre-order) containing off at each level. */
const hm_field *hm_layout_field_at(const hm_layout *l, uint64_t off)
{
	const hm_field *best = NULL;
	uint32_t i = l->nf ? 0 : HM_FIELD_NONE;

	while (i != HM_FIELD_NONE) {
		const hm_field *f = &l->f[i];

		if (contains(f, off)) {
			best = f;
			if (!f->nr_children)
				break;
			i++;	/* first child */
			continue;
		}
		i = f->next;
	}
	return best;
}

/* Walk the type itself below the deepest listed field so array elements
 * and members of unexpanded structs are spelled too. */
static int path_below(const hm_types *t, hm_type_id id, uint64_t off, char *buf, size_t len,
		      size_t *pos, unsigned depth)
{
	const hm_type *ty;

	id = hmi_layout_strip(t, id);
	ty = id ? hm_types_get(t, id) : NULL;
	if (!ty || depth > HM_NEST_MAX)
		return 0;
	if (ty->kind == HM_KIND_ARRAY) {
		const uint64_t *dims = hmi_types_dims(t, ty);
		uint64_t esz = hm_types_sizeof(t, ty->target), stride = esz;
		uint32_t d;

		for (d = ty->nr; d-- > 1;)
			stride *= dims[d] == HM_DIM_FLEXIBLE ? 0 : dims[d];
		for (d = 0; d < ty->nr; d++) {
			uint64_t i = stride ? off / stride : 0;

			*pos += (size_t)snprintf(buf + (*pos < len ? *pos : len),
						 *pos < len ? len - *pos : 0, "[%llu]",
						 (unsigned long long)i);
			off -= i * stride;
			if (d + 1 < ty->nr && dims[d + 1] && dims[d + 1] != HM_DIM_FLEXIBLE)
				stride /= dims[d + 1];
		}
		return path_below(t, ty->target, off, buf, len, pos, depth + 1);
	}
	if (hm_kind_is_record(ty->kind)) {
		const hm_member *m = hm_types_members(t, ty);

		for (uint32_t i = 0; i < ty->nr; i++) {
			uint64_t sz = hmi_layout_member_size(t, &m[i]);

			if (m[i].flags & (HM_MEMBER_STATIC | HM_MEMBER_VIRTUAL_BASE))
				continue;
			if (off < m[i].offset || off >= m[i].offset + sz)
				continue;
			if (m[i].name)
				*pos += (size_t)snprintf(buf + (*pos < len ? *pos : len),
							 *pos < len ? len - *pos : 0, ".%s", m[i].name);
			return path_below(t, m[i].type, off - m[i].offset, buf, len, pos, depth + 1);
		}
	}
	return 0;
}

int hm_layout_path_at(const hm_layout *l, uint64_t off, char *buf, size_t len)
{
	const hm_field *f = hm_layout_field_at(l, off);
	size_t pos = 0;

	if (!f)
		return -ENOENT;
	pos = (size_t)snprintf(buf, len, "%s", f->path ? f->path : "");
	if (f->bit_size == 0)
		path_below(l->t, f->type, off - f->offset, buf, len, &pos, 0);
	return (int)pos;
}

static uint64_t path_hash(const char *s)
{
	return hm_hash_bytes(s, strlen(s), 0x9a7f);
}

/* The first field (in order) with each path gets the slot. */
static int path_index_build(const hm_layout *l, struct path_index *x)
{
	size_t n = 16;

	while (n < l->nf * 2)
		n *= 2;
	x->slots = calloc(n, sizeof(*x->slots));
	if (!x->slots)
		return -ENOMEM;
	for (size_t i = 0; i < l->nf; i++) {
		size_t j;

		if (!l->f[i].path)
			continue;
		for (j = path_hash(l->f[i].path) & (n - 1); x->slots[j]; j = (j + 1) & (n - 1))
			if (!strcmp(l->f[x->slots[j] - 1].path, l->f[i].path))
				break;
		if (!x->slots[j])
			x->slots[j] = (uint32_t)i + 1;
	}
	x->n = n;
	return 0;
}

const hm_field *hm_layout_find(const hm_layout *l, const char *path)
{
	struct path_index *x = l->pidx;
	size_t j;

	if (!x->n && path_index_build(l, x)) {
		/* out of memory: the slow way */
		for (size_t i = 0; i < l->nf; i++)
			if (l->f[i].path && !strcmp(l->f[i].path, path))
				return &l->f[i];
		return NULL;
	}
	for (j = path_hash(path) & (x->n - 1); x->slots[j]; j = (j + 1) & (x->n - 1))
		if (!strcmp(l->f[x->slots[j] - 1].path, path))
			return &l->f[x->slots[j] - 1];
	return NULL;
}

int hm_layout_may_share(const hm_layout *l, uint64_t a_off, uint64_t a_size,
			uint64_t b_off, uint64_t b_size)
{
	uint64_t a_end, b_end, gap;

	if (!a_size)
		a_size = 1;
	if (!b_size)
		b_size = 1;
	a_end = a_off + a_size - 1;
	b_end = b_off + b_size - 1;
	if (l->sum.base_known)
		return a_off / l->line <= b_end / l->line && b_off / l->line <= a_end / l->line;
	/* unknown base: some placement puts them on one line unless the bytes
	 * between them fill a whole line */
	if (a_off <= b_end && b_off <= a_end)
		return 1;
	gap = a_end < b_off ? b_off - a_end - 1 : a_off - b_end - 1;
	return gap + 2 <= l->line;
}
