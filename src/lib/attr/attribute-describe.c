/* Field paths: the deepest member of a type at a byte offset, named
 * "a.b[3].c", and the attribution of an address inside a variable. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "attr/attribute-int.h"
#include "types/types-lib.h"

struct desc {
	char path[512];
	size_t len;
	uint64_t foff, fsize;
};

/* Append n bytes of s to the path, cut at the buffer's end (as snprintf
 * would: every new address of a sample builds a path, so no formatting). */
static void path_put(struct desc *d, const char *s, size_t n)
{
	size_t room = sizeof(d->path) - 1 - d->len;

	if (n > room)
		n = room;
	memcpy(d->path + d->len, s, n);
	d->len += n;
	d->path[d->len] = 0;
}

/* Append ".name" (or "name" first) to the path. */
static void path_name(struct desc *d, const char *s)
{
	if (d->len)
		path_put(d, ".", 1);
	path_put(d, s, strlen(s));
}

static void path_index(struct desc *d, uint64_t idx)
{
	char buf[24], *p = buf + sizeof(buf);

	*--p = ']';
	do
		*--p = (char)('0' + idx % 10);
	while (idx /= 10);
	*--p = '[';
	path_put(d, p, (size_t)(buf + sizeof(buf) - p));
}

static uint64_t member_size(const hm_types *t, const hm_member *m)
{
	if (m->flags & HM_MEMBER_BITFIELD)
		return m->byte_size;
	return hm_types_sizeof(t, m->type);
}

static const hm_member *member_at(const hm_types *t, const hm_type *ty, uint64_t off)
{
	const hm_member *m = hm_types_members(t, ty);
	uint32_t i;

	for (i = 0; m && i < ty->nr; i++) {
		uint64_t sz;

		if (m[i].flags & (HM_MEMBER_STATIC | HM_MEMBER_VIRTUAL_BASE))
			continue;
		if (m[i].flags & HM_MEMBER_BITFIELD) {
			/* The bytes its bits are in, not its whole storage
			 * unit: a byte access names the bitfield it touches. */
			uint64_t lo = m[i].offset + m[i].bit_offset / 8;
			uint64_t hi = m[i].offset + (m[i].bit_offset + m[i].bit_size + 7) / 8;

			if (off >= lo && off < hi)
				return &m[i];
			continue;
		}
		sz = member_size(t, &m[i]);
		if (off >= m[i].offset && off - m[i].offset < sz)
			return &m[i];
	}
	return NULL;
}

/* Step into an array at offset *off: append the indices, leave *off inside
 * the element, return the element type (HM_TYPE_NONE if it has no size). */
static hm_type_id array_step(const hm_types *t, const hm_type *ty, uint64_t *off, struct desc *d)
{
	const uint64_t *dims = hmi_types_dims(t, ty);
	uint64_t esize = hm_types_sizeof(t, ty->target);
	uint32_t i, j;

	if (!esize)
		return HM_TYPE_NONE;
	for (i = 0; i < ty->nr; i++) {
		uint64_t stride = esize, idx;

		for (j = i + 1; j < ty->nr; j++)
			if (dims[j] && dims[j] != HM_DIM_FLEXIBLE)
				stride *= dims[j];
		idx = *off / stride;
		*off %= stride;
		d->foff += idx * stride;
		path_index(d, idx);
	}
	return ty->target;
}

/* Walk type `id` down to the deepest member containing byte `off`. */
static void describe(const hm_types *t, hm_type_id id, uint64_t off, struct desc *d)
{
	int depth;

	for (depth = 0; depth < 64; depth++) {
		const hm_type *ty = hm_types_get(t, hm_types_resolve(t, id));
		const hm_member *m;

		if (ty && ty->kind == HM_KIND_ARRAY) {
			id = array_step(t, ty, &off, d);
			if (id)
				continue;
			break;
		}
		if (!ty || !hm_kind_is_record(ty->kind))
			break;
		m = member_at(t, ty, off);
		if (!m) {
			path_name(d, "(padding)");
			d->foff += off;
			d->fsize = 1;
			return;
		}
		if (m->name)
			path_name(d, m->name);
		d->foff += m->offset;
		off -= m->offset;
		if (m->flags & HM_MEMBER_BITFIELD) {
			d->fsize = m->byte_size;
			return;
		}
		id = m->type;
	}
	d->fsize = hm_types_sizeof(t, id);
	if (!d->fsize)
		d->fsize = 1;
}

/* An index into a member array: from byte off of type id, down the members
 * holding it to an array whose element (through nested arrays) is a named
 * record whose size divides stride.  Only the declared array makes the
 * index whole elements: a stride that merely equals some struct's size
 * names nothing.  1 with the element type, the offset into the element,
 * the array member's path ("hist", "in.slots") and offset; 0 when no
 * such array holds off. */
int attr_member_array(const hm_types *t, hm_type_id id, uint64_t off, uint64_t stride,
		      struct attr_elem *e, hm_strtab *strs)
{
	struct desc d = { .len = 0 };
	int depth;

	for (depth = 0; depth < 64 && stride; depth++) {
		const hm_type *ty = hm_types_get(t, hm_types_resolve(t, id));
		const hm_member *m;

		if (ty && ty->kind == HM_KIND_ARRAY) {
			hm_type_id el = ty->target;
			const hm_type *et;
			uint64_t esize;

			while ((et = hm_types_get(t, hm_types_resolve(t, el))) &&
			       et->kind == HM_KIND_ARRAY)
				el = et->target;
			esize = hm_types_sizeof(t, el);
			if (d.len && et && hm_kind_is_record(et->kind) && et->name && esize &&
			    !(stride % esize)) {
				d.path[d.len] = 0;
				e->type = el;
				e->name = et->name;
				e->size = esize;
				e->off = off % esize;
				e->array_off = d.foff;
				e->array_size = hm_types_sizeof(t, id);
				e->path = hm_strtab_intern(strs, d.path);
				return e->path ? 1 : -ENOMEM;
			}
			/* an index not of whole elements here: maybe of an
			 * array inside the element */
			if (!(id = array_step(t, ty, &off, &d)))
				return 0;
			continue;
		}
		if (!ty || !hm_kind_is_record(ty->kind))
			return 0;
		m = member_at(t, ty, off);
		if (!m || (m->flags & HM_MEMBER_BITFIELD))
			return 0;
		if (m->name)
			path_name(&d, m->name);
		d.foff += m->offset;
		off -= m->offset;
		id = m->type;
	}
	return 0;
}

void attr_describe(const hm_types *t, hm_type_id id, uint64_t off, uint64_t *foff,
		   uint64_t *fsize, const char **path, hm_strtab *strs)
{
	struct desc d = { .len = 0 };

	describe(t, id, off, &d);
	d.path[d.len] = 0;
	*foff = d.foff;
	*fsize = d.fsize;
	*path = hm_strtab_intern(strs, d.path);
}

/* Attribution of link address x inside variable v of binary b (bias 0). */
void attr_describe_var(hm_attr *a, struct binent *b, const hm_variable *v, uint64_t x,
			 struct cached *c)
{
	const hm_types *t = b->types;
	const hm_type *ty = hm_types_get(t, hm_types_resolve(t, v->type));
	uint64_t off = x - v->addr;
	struct desc d = { .len = 0 };
	char obj[600];

	c->bucket = HM_ATTR_GLOBAL;
	c->obj_base = v->addr;
	c->ssize = hm_types_sizeof(t, v->type);
	if (ty && ty->kind == HM_KIND_ARRAY) {
		/* An array of structs: each element is an object of that struct. */
		hm_type_id el = ty->target;
		const hm_type *et;

		while ((et = hm_types_get(t, hm_types_resolve(t, el))) && et->kind == HM_KIND_ARRAY)
			el = et->target;
		if (et && hm_kind_is_record(et->kind) && et->name && hm_types_sizeof(t, el)) {
			array_step(t, ty, &off, &d);
			snprintf(obj, sizeof(obj), "%s%s", v->name, d.path);
			c->object = hm_strtab_intern(&a->memo.strs, obj);
			c->obj_base = v->addr + d.foff;
			c->sname = hm_strtab_intern(&a->memo.strs, et->name);
			c->kind = HM_PROFILE_STRUCT;
			c->ssize = hm_types_sizeof(t, el);
			d = (struct desc){ .len = 0 };
			describe(t, el, off, &d);
			goto done;
		}
	}
	c->object = hm_strtab_intern(&a->memo.strs, v->name);
	if (ty && hm_kind_is_record(ty->kind) && ty->name) {
		c->sname = hm_strtab_intern(&a->memo.strs, ty->name);
		c->kind = HM_PROFILE_STRUCT;
	} else {
		c->sname = c->object;
		c->kind = HM_PROFILE_VARIABLE;
	}
	describe(t, v->type, off, &d);
done:
	d.path[d.len] = 0;
	c->path = hm_strtab_intern(&a->memo.strs, d.path);
	c->foff = d.foff;
	c->fsize = d.fsize;
	if (!c->path || !c->object || !c->sname)
		c->bucket = HM_NR_BUCKETS;	/* out of memory */
}

int attr_cached_fill(const struct cached *c, uint64_t bias, hm_attribution *out)
{
	out->bucket = c->bucket;
	if (c->bucket == HM_NR_BUCKETS)
		return -ENOMEM;
	if (c->bucket != HM_ATTR_GLOBAL && c->bucket != HM_ATTR_OBJECT)
		return 0;
	out->sname = c->sname;
	out->kind = c->kind;
	out->ssize = c->ssize;
	out->object = c->object;
	out->obj_base = c->obj_base + bias;
	out->path = c->path;
	out->foff = c->foff;
	out->fsize = c->fsize;
	return 1;
}
