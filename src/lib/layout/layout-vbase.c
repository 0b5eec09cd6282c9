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
 * A nearly empty virtual base (only a vtable pointer) may be a primary base
 * (2.4 II.1): the class's own when it has no dynamic non-virtual base, at
 * offset 0, or a base's (an indirect primary base), at that base's offset;
 * an empty virtual base goes at offset 0 unless a subobject of its type is
 * already there, then from the data size on.  The result is checked against
 * the class's DWARF size; any disagreement, or a bounded walk cut short,
 * returns an error and the caller keeps the offset unknown. */
#include <errno.h>
#include <string.h>

#include "layout/layout-int.h"
#include "types/types-lib.h"

#define VB_MAX_DEPTH 32
#define VB_MAX_STEPS 4096

struct vb_walk {
	const hm_types *t;
	unsigned steps;
	int err;
};

static const hm_type *record_of(const hm_types *t, hm_type_id id)
{
	const hm_type *ty = hm_types_get(t, hmi_layout_strip(t, id));

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
			a = hmi_layout_natural_align(w->t, m[i].type);
		} else {
			e = m[i].offset + hmi_layout_member_size(w->t, &m[i]);
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
		id = hmi_layout_strip(w->t, m[i].type);
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

#define VB_MAX 64

static int nearly_empty(struct vb_walk *w, const hm_type *b, unsigned depth)
{
	uint32_t a;

	return nv_size(w, b, &a, depth) <= hmi_types_pointer_size(w->t) && dynamic(w, b, depth);
}

static int in_list(const struct vb_list *l, hm_type_id id)
{
	for (int k = 0; k < l->n; k++)
		if (l->v[k].type == id)
			return 1;
	return 0;
}

static hm_type_id primary_of(struct vb_walk *w, const hm_type *ty, int *virt, unsigned depth);

/* The indirect primary bases of ty: virtual bases that are the primary base
 * of some base class of ty, direct or not. */
static void indirect_primaries(struct vb_walk *w, const hm_type *ty, struct vb_list *ip,
			       unsigned depth)
{
	const hm_member *m = hm_types_members(w->t, ty);

	if (step(w, depth))
		return;
	for (uint32_t i = 0; i < ty->nr && !w->err; i++) {
		const hm_type *b;
		hm_type_id p;
		int virt = 0;

		if (!(m[i].flags & HM_MEMBER_INHERITANCE) || !(b = record_of(w->t, m[i].type)))
			continue;
		p = primary_of(w, b, &virt, depth + 1);
		if (p && virt && !in_list(ip, p)) {
			if (ip->n == ip->max) {
				w->err = -E2BIG;
				return;
			}
			ip->v[ip->n++].type = p;
		}
		indirect_primaries(w, b, ip, depth + 1);
	}
}

/* ty's primary base (Itanium 2.4 II.1): its first dynamic non-virtual
 * base, else its first nearly empty virtual base that is not an indirect
 * primary base, else its first nearly empty virtual base; 0 if none. */
static hm_type_id primary_of(struct vb_walk *w, const hm_type *ty, int *virt, unsigned depth)
{
	const hm_member *m = hm_types_members(w->t, ty);
	struct hm_vbase vv[VB_MAX], iv[VB_MAX];
	struct vb_list vl = { .v = vv, .max = VB_MAX }, ipl = { .v = iv, .max = VB_MAX };
	hm_type_id first = 0;

	*virt = 0;
	if (step(w, depth) || !dynamic(w, ty, depth))
		return 0;
	for (uint32_t i = 0; i < ty->nr; i++) {
		const hm_type *b;

		if ((m[i].flags & HM_MEMBER_INHERITANCE) && !is_vbase(&m[i]) &&
		    (b = record_of(w->t, m[i].type)) && dynamic(w, b, depth + 1))
			return hmi_layout_strip(w->t, m[i].type);
	}
	collect(w, ty, &vl, depth + 1);
	for (int k = 0; k < vl.n && !w->err; k++) {
		if (!nearly_empty(w, hm_types_get(w->t, vv[k].type), depth + 1))
			continue;
		if (!first) {
			first = vv[k].type;
			indirect_primaries(w, ty, &ipl, depth + 1);
		}
		if (!in_list(&ipl, vv[k].type)) {
			*virt = 1;
			return vv[k].type;
		}
	}
	*virt = first != 0;
	return w->err ? 0 : first;
}

/* Whether the complete object holds a subobject of type id at offset off
 * inside record ty placed at base (its non-virtual bases and its members,
 * not its virtual bases). */
static int holds_at(struct vb_walk *w, const hm_type *ty, uint64_t base, hm_type_id id,
		    uint64_t off, unsigned depth)
{
	const hm_member *m = hm_types_members(w->t, ty);

	if (step(w, depth))
		return 0;
	for (uint32_t i = 0; i < ty->nr; i++) {
		const hm_type *r;
		uint64_t at = base + m[i].offset;

		if ((m[i].flags & (HM_MEMBER_STATIC | HM_MEMBER_VIRTUAL_BASE | HM_MEMBER_BITFIELD)) ||
		    !(r = record_of(w->t, m[i].type)) || r->kind == HM_KIND_UNION)
			continue;
		if (hmi_layout_strip(w->t, m[i].type) == id && at == off)
			return 1;
		if (off >= at && off - at < (r->size ? r->size : 1) &&
		    holds_at(w, r, at, id, off, depth + 1))
			return 1;
	}
	return 0;
}

/* Whether a subobject of type id already sits at off: in the non-virtual
 * part of the complete object or in a virtual base placed so far. */
static int conflicts(struct vb_walk *w, const hm_type *ty, const struct vb_list *l,
		     const unsigned char *placed, hm_type_id id, uint64_t off)
{
	if (holds_at(w, ty, 0, id, off, 0))
		return 1;
	for (int k = 0; k < l->n; k++) {
		if (!placed[k])
			continue;
		if (l->v[k].type == id && l->v[k].offset == off)
			return 1;
		if (holds_at(w, hm_types_get(w->t, l->v[k].type), l->v[k].offset, id, off, 0))
			return 1;
	}
	return 0;
}

static int list_index(const struct vb_list *l, hm_type_id id)
{
	for (int k = 0; k < l->n; k++)
		if (l->v[k].type == id)
			return k;
	return -1;
}

/* The primary bases down from record ty at base, through its non-virtual
 * bases: a virtual one not yet placed goes where the class it is primary
 * of is.  Returns how many it placed. */
static int place_primaries(struct vb_walk *w, const hm_type *ty, uint64_t base,
			   struct vb_list *l, unsigned char *placed, unsigned depth)
{
	const hm_member *m = hm_types_members(w->t, ty);
	hm_type_id p;
	int virt, k, n = 0;

	if (step(w, depth))
		return 0;
	p = primary_of(w, ty, &virt, depth);
	if (p && virt && (k = list_index(l, p)) >= 0 && !placed[k]) {
		placed[k] = 1;
		l->v[k].offset = base;
		n++;
		n += place_primaries(w, hm_types_get(w->t, p), base, l, placed, depth + 1);
	}
	for (uint32_t i = 0; i < ty->nr && !w->err; i++) {
		const hm_type *b;

		if ((m[i].flags & HM_MEMBER_INHERITANCE) && !is_vbase(&m[i]) &&
		    (b = record_of(w->t, m[i].type)))
			n += place_primaries(w, b, base + m[i].offset, l, placed, depth + 1);
	}
	return n;
}

/* The ABI's rules where a virtual base may be empty or nearly empty. */
static int place_with_primaries(struct vb_walk *w, const hm_type *ty, struct vb_list *l)
{
	struct hm_vbase iv[VB_MAX];
	struct vb_list ipl = { .v = iv, .max = VB_MAX };
	unsigned char placed[VB_MAX] = { 0 };
	uint32_t align, a;
	uint64_t cur, end;
	hm_type_id p;
	int virt, k, more;

	if (l->n > VB_MAX)
		return -E2BIG;
	cur = nv_size(w, ty, &align, 0);
	end = cur;
	indirect_primaries(w, ty, &ipl, 0);
	p = primary_of(w, ty, &virt, 0);
	if (w->err)
		return w->err;
	if (p && virt && (k = list_index(l, p)) >= 0) {
		placed[k] = 1;
		l->v[k].offset = 0;
	}
	for (k = 0; k < l->n && !w->err; k++) {
		const hm_type *b = hm_types_get(w->t, l->v[k].type);
		uint64_t sz = nv_size(w, b, &a, 0), off;

		l->v[k].size = sz;
		if (a > align)
			align = a;
		if (placed[k] || in_list(&ipl, l->v[k].type))
			continue;	/* the primary base of C or of a base */
		if (!sz && !dynamic(w, b, 0)) {
			/* empty: at 0 unless its type is already there; it adds
			 * no data, only its sizeof to the object's end */
			off = 0;
			if (conflicts(w, ty, l, placed, l->v[k].type, 0))
				for (off = align_up(cur, a);
				     conflicts(w, ty, l, placed, l->v[k].type, off) && !w->err;
				     off += a ? a : 1)
					;
			if (off + b->size > end)
				end = off + b->size;
		} else {
			off = align_up(cur, a);
			cur = off + sz;
			if (cur > end)
				end = cur;
		}
		l->v[k].offset = off;
		placed[k] = 1;
	}
	/* indirect primary bases sit where the class they are primary of is */
	do {
		more = place_primaries(w, ty, 0, l, placed, 0);
		for (k = 0; k < l->n && !w->err; k++)
			if (placed[k])
				more += place_primaries(w, hm_types_get(w->t, l->v[k].type),
							l->v[k].offset, l, placed, 0);
	} while (more && !w->err);
	if (w->err)
		return w->err;
	for (k = 0; k < l->n; k++)
		if (!placed[k])
			return -ENOTSUP;
	if (ty->alignment > align)
		align = ty->alignment;
	if (align_up(end, align) != ty->size)
		return -ERANGE;
	return l->n;
}

int hm_vbases_place(const hm_types *t, const hm_type *ty, struct hm_vbase *out, int max)
{
	struct vb_walk w = { .t = t };
	struct vb_list l = { .v = out, .max = max };
	uint32_t align, a;
	uint64_t cur;
	unsigned ptr = hmi_types_pointer_size(t);

	if (!ty || !hm_kind_is_record(ty->kind) || ty->kind == HM_KIND_UNION)
		return 0;
	collect(&w, ty, &l, 0);
	if (w.err)
		return w.err;
	if (!l.n)
		return 0;
	for (int k = 0; k < l.n && !w.err; k++) {
		const hm_type *b = hm_types_get(t, l.v[k].type);
		uint64_t sz = nv_size(&w, b, &a, 0);

		/* empty, or nearly empty (may be a primary base) */
		if (!sz || (sz <= ptr && dynamic(&w, b, 0)))
			return place_with_primaries(&w, ty, &l);
	}
	if (w.err)
		return w.err;
	cur = nv_size(&w, ty, &align, 0);
	for (int k = 0; k < l.n && !w.err; k++) {
		const hm_type *b = hm_types_get(t, l.v[k].type);
		uint64_t sz = nv_size(&w, b, &a, 0);

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
