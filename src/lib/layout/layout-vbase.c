/* Where a C++ class's virtual bases sit in a complete object.
 *
 * DWARF gives a virtual base's offset as an expression that reads it from
 * the object's vtable at run time, and lists only the direct virtual bases
 * of a class.  For a complete object of the class the compiler knows every
 * offset: the Itanium C++ ABI (2.4, "Allocation of Members") lays the virtual
 * bases out after the non-virtual part, in inheritance graph order
 * (depth-first, left to right, a base before its own bases, each virtual
 * base once), each at the class's data size rounded up to the base's
 * non-virtual alignment, each taking its non-virtual size.  That is what this
 * file computes, from the constant offsets DWARF gives for everything else.
 *
 * Two cases of the ABI are left out rather than guessed: a nearly empty
 * virtual base (only a vtable pointer), which may become a primary base and
 * share offset 0, and an empty virtual base, which may go at offset 0.  The
 * result is checked against the class's DWARF size; any disagreement, or a
 * case left out, returns an error and the caller keeps the offset unknown. */
#include <errno.h>
#include <string.h>

#include "layout/layout-int.h"

#define VB_MAX_DEPTH 32
#define VB_MAX_STEPS 4096

struct vb_walk {
	const hm_types *t;
	unsigned steps;
	int err;
};

static const hm_type *record_of(const hm_types *t, hm_type_id id)
{
	const hm_type *ty = hm_types_get(t, hm_strip(t, id));

	return ty && hm_kind_is_record(ty->kind) ? ty : NULL;
}

static int is_vbase(const hm_member *m)
{
	return (m->flags & (HM_MEMBER_INHERITANCE | HM_MEMBER_VIRTUAL_BASE)) ==
	       (HM_MEMBER_INHERITANCE | HM_MEMBER_VIRTUAL_BASE);
}

static int is_vptr(const hm_member *m)
{
	/* gcc names it _vptr.Class, clang _vptr$Class */
	return (m->flags & HM_MEMBER_ARTIFICIAL) && m->name && !strncmp(m->name, "_vptr", 5);
}

static int step(struct vb_walk *w, unsigned depth)
{
	if (depth > VB_MAX_DEPTH || ++w->steps > VB_MAX_STEPS) {
		w->err = -E2BIG;
		return -1;
	}
	return 0;
}

/* Whether objects of ty carry a vtable pointer. */
static int dynamic(struct vb_walk *w, const hm_type *ty, unsigned depth)
{
	const hm_member *m = hm_types_members(w->t, ty);

	if (step(w, depth))
		return 0;
	for (uint32_t i = 0; i < ty->nr; i++) {
		const hm_type *b;

		if (is_vptr(&m[i]) || is_vbase(&m[i]))
			return 1;
		if ((m[i].flags & HM_MEMBER_INHERITANCE) && (b = record_of(w->t, m[i].type)) &&
		    dynamic(w, b, depth + 1))
			return 1;
	}
	return 0;
}

/* The non-virtual size (Itanium nvsize) and alignment of ty: the end of its
 * last non-virtual byte of data, and the largest alignment among them. */
static uint64_t nv_size(struct vb_walk *w, const hm_type *ty, uint32_t *align, unsigned depth)
{
	const hm_member *m = hm_types_members(w->t, ty);
	uint64_t end = 0;
	uint32_t al = ty->alignment ? ty->alignment : 1;

	if (step(w, depth))
		return 0;
	for (uint32_t i = 0; i < ty->nr; i++) {
		uint64_t e;
		uint32_t a;

		if (m[i].flags & (HM_MEMBER_STATIC | HM_MEMBER_VIRTUAL_BASE))
			continue;
		if (m[i].flags & HM_MEMBER_INHERITANCE) {
			const hm_type *b = record_of(w->t, m[i].type);

			if (!b)
				continue;
			e = nv_size(w, b, &a, depth + 1);
			/* an empty base adds no data (it may share an offset) */
			e = e ? m[i].offset + e : 0;
		} else if (m[i].flags & HM_MEMBER_BITFIELD) {
			e = m[i].offset + (m[i].bit_offset + m[i].bit_size + 7) / 8;
			a = hm_natural_align(w->t, m[i].type);
		} else {
			e = m[i].offset + hm_member_size(w->t, &m[i]);
			a = m[i].alignment ? m[i].alignment : hm_types_alignof(w->t, m[i].type);
		}
		if (e > end)
			end = e;
		if (a > al)
			al = a;
	}
	*align = al;
	return end;
}

struct vb_list {
	struct hm_vbase *v;
	int n, max;
};

/* Virtual bases of ty in inheritance graph order, each once. */
static void collect(struct vb_walk *w, const hm_type *ty, struct vb_list *l, unsigned depth)
{
	const hm_member *m = hm_types_members(w->t, ty);

	if (step(w, depth))
		return;
	for (uint32_t i = 0; i < ty->nr && !w->err; i++) {
		const hm_type *b;
		hm_type_id id;
		int seen = 0;

		if (!(m[i].flags & HM_MEMBER_INHERITANCE) || !(b = record_of(w->t, m[i].type)))
			continue;
		id = hm_strip(w->t, m[i].type);
		if (is_vbase(&m[i])) {
			for (int k = 0; k < l->n; k++)
				seen |= l->v[k].type == id;
			if (seen)
				continue;
			if (l->n == l->max) {
				w->err = -E2BIG;
				return;
			}
			l->v[l->n++].type = id;
		}
		collect(w, b, l, depth + 1);
	}
}

static uint64_t align_up(uint64_t v, uint32_t a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

int hm_vbases_place(const hm_types *t, const hm_type *ty, struct hm_vbase *out, int max)
{
	struct vb_walk w = { .t = t };
	struct vb_list l = { .v = out, .max = max };
	uint32_t align, a;
	uint64_t cur;
	unsigned ptr = hm_types_pointer_size(t);

	if (!ty || !hm_kind_is_record(ty->kind) || ty->kind == HM_KIND_UNION)
		return 0;
	collect(&w, ty, &l, 0);
	if (w.err)
		return w.err;
	if (!l.n)
		return 0;
	cur = nv_size(&w, ty, &align, 0);
	for (int k = 0; k < l.n && !w.err; k++) {
		const hm_type *b = hm_types_get(t, l.v[k].type);
		uint64_t sz = nv_size(&w, b, &a, 0);

		if (!sz)
			return -ENOTSUP;	/* empty: may share offset 0 */
		if (sz <= ptr && dynamic(&w, b, 0))
			return -ENOTSUP;	/* nearly empty: may be a primary base */
		l.v[k].offset = align_up(cur, a);
		l.v[k].size = sz;
		cur = l.v[k].offset + sz;
		if (a > align)
			align = a;
	}
	if (w.err)
		return w.err;
	if (ty->alignment > align)
		align = ty->alignment;
	/* the class's own size is the check: DWARF's byte size is the compiler's */
	if (align_up(cur, align) != ty->size)
		return -ERANGE;
	return l.n;
}

uint64_t hm_base_nvsize(const hm_types *t, hm_type_id id)
{
	struct vb_walk w = { .t = t };
	const hm_type *ty = record_of(t, id);
	uint32_t a;
	uint64_t sz;

	if (!ty)
		return hm_types_sizeof(t, id);
	sz = nv_size(&w, ty, &a, 0);
	return w.err ? hm_types_sizeof(t, id) : sz;
}

int hm_base_has_vbases(const hm_types *t, hm_type_id id)
{
	struct vb_walk w = { .t = t };
	struct hm_vbase one;
	struct vb_list l = { .v = &one, .max = 1 };
	const hm_type *ty = record_of(t, id);

	if (!ty)
		return 0;
	collect(&w, ty, &l, 0);
	return l.n > 0 || w.err == -E2BIG;
}
