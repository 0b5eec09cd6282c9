/* Typing what a load reads: a pointer loaded from a global (mov g(%rip)),
 * from a member of a record a typed pointer points to (mov off(%rX) with
 * %rX a struct T *), or from an element of a pointer array, has the type
 * that memory is declared with.  Its pointee record is then the next hop's
 * type: w->cur->ctr->hits is followed load by load.  Only declared types
 * are evidence: an index multiplies into an array only where the type at
 * that offset is an array (or the pointer points into one); a size that
 * happens to match is never enough. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/attribute.h"
#include "attr/attribute-int.h"
#include "insn/insn.h"
#include "base/util.h"

/* The member of record ty holding byte off, or NULL. */
static const hm_member *member_at(const hm_types *t, const hm_type *ty, uint64_t off)
{
	const hm_member *m = hm_types_members(t, ty);
	uint32_t i;

	for (i = 0; m && i < ty->nr; i++) {
		uint64_t sz;

		if (m[i].flags & (HM_MEMBER_STATIC | HM_MEMBER_VIRTUAL_BASE | HM_MEMBER_BITFIELD))
			continue;
		sz = hm_types_sizeof(t, m[i].type);
		if (off >= m[i].offset && off - m[i].offset < sz)
			return &m[i];
	}
	return NULL;
}

/* The pointer type declared at byte off of type id, an unknown multiple of
 * stride added (0: none), its path appended to path: HM_TYPE_NONE when off
 * is no whole pointer there, or the stride is not whole elements of an
 * array met on the way. */
static hm_type_id pointer_at(const hm_types *t, hm_type_id id, uint64_t off, uint64_t stride,
			     hm_sbuf *path)
{
	int depth;

	for (depth = 0; depth < 64; depth++) {
		const hm_type *ty = hm_types_get(t, hm_types_resolve(t, id));
		const hm_member *m;

		if (!ty)
			return HM_TYPE_NONE;
		if (ty->kind == HM_KIND_POINTER)
			return off || stride || ty->size != 8 ? HM_TYPE_NONE : hm_types_resolve(t, id);
		if (ty->kind == HM_KIND_ARRAY) {
			uint64_t esize = hm_types_sizeof(t, ty->target);
			uint64_t total = hm_types_sizeof(t, id);

			if (!esize || ty->nr != 1 || (total && off >= total))
				return HM_TYPE_NONE;
			if (stride) {
				/* an index into this array: whole elements */
				if (stride % esize)
					return HM_TYPE_NONE;
				hm_sbuf_puts(path, "[]");
				stride = 0;
			} else {
				hm_sbuf_printf(path, "[%" PRIu64 "]", off / esize);
			}
			off %= esize;
			id = ty->target;
			continue;
		}
		if (!hm_kind_is_record(ty->kind) || stride)
			return HM_TYPE_NONE;	/* an index into no array */
		m = member_at(t, ty, off);
		if (!m || !m->name)
			return HM_TYPE_NONE;
		hm_sbuf_printf(path, ".%s", m->name);
		off -= m->offset;
		id = m->type;
	}
	return HM_TYPE_NONE;
}

/* The named record a pointer type points to (typedefs and qualifiers
 * skipped; an anonymous one by its typedef's name): its name and size, or
 * NULL. */
static const char *pointee(const hm_types *t, hm_type_id ptr, uint64_t *size)
{
	const hm_type *ty = hm_types_get(t, ptr);
	const char *tdname = NULL;
	hm_type_id id = ty ? ty->target : HM_TYPE_NONE;
	int depth;

	for (depth = 0; id && depth < 64; depth++) {
		ty = hm_types_get(t, id);
		if (!ty)
			return NULL;
		if (ty->kind == HM_KIND_TYPEDEF) {
			if (!tdname)
				tdname = ty->name;
		} else if (ty->kind == HM_KIND_CONST || ty->kind == HM_KIND_VOLATILE ||
			   ty->kind == HM_KIND_RESTRICT || ty->kind == HM_KIND_ATOMIC) {
			/* skipped */
		} else if (hm_kind_is_record(ty->kind) && !ty->declaration) {
			*size = ty->size;
			return ty->name ? ty->name : tdname;
		} else {
			return NULL;
		}
		id = ty->target;
	}
	return NULL;
}

int attr_type_load(hm_attr *a, struct binent *b, const struct hm_tval *v, struct hm_tvar *out)
{
	const struct var_ref *g = NULL;
	hm_type_id id, ptr;
	uint64_t off, stride = v->stride, size = 0;
	const char *rec;
	hm_sbuf path = { 0 };
	size_t mark;
	int ret = 0;

	if (attr_binent_types(b) || !b->types)
		return 0;
	if (v->kind == HM_TV_MEM || (v->kind == HM_TV_DEREF && v->from == HM_TV_ADDR)) {
		uint64_t x = v->abs + (v->kind == HM_TV_DEREF ? (uint64_t)v->off : 0);

		g = attr_var_at(b, x);
		if (!g || !g->var->name)
			return 0;
		id = g->var->type;
		off = x - g->addr;
		hm_sbuf_puts(&path, g->var->name);
	} else if (v->kind == HM_TV_DEREF && v->from == HM_TV_VAR) {
		if (attr_find_record(b, v->var.record, v->var.record_size, &id) != HM_ATTR_INSN ||
		    v->off < 0)
			return 0;
		off = (uint64_t)v->off;
		size = hm_types_sizeof(b->types, id);
		/* a pointer into an array of records: whole records */
		if (stride && size && !(stride % size)) {
			off %= size;
			stride = 0;
		}
		if (size && off >= size)
			return 0;
		hm_sbuf_printf(&path, "%s->", v->var.name);
	} else {
		return 0;
	}
	mark = path.len;
	ptr = pointer_at(b->types, id, off, stride, &path);
	/* "w->.cur" reads "w->cur" */
	if (!g && path.len > mark && path.p[mark] == '.')
		memmove(path.p + mark, path.p + mark + 1, path.len-- - mark);
	if (!ptr || path.err)
		goto out;
	rec = pointee(b->types, ptr, &size);
	ret = 2;	/* a pointer, to no record */
	if (!rec)
		goto out;
	out->name = hm_strtab_intern(&a->memo.strs, path.p);
	out->func = v->kind == HM_TV_DEREF && v->from == HM_TV_VAR ? v->var.func : NULL;
	out->record = hm_strtab_intern(&a->memo.strs, rec);
	if (!out->name || !out->record) {
		ret = 0;
		goto out;
	}
	out->record_size = size;
	out->loc_kind = HM_TVAR_LOADED;
	out->loc_reg = -1;
	out->loc_off = 0;
	out->pc = v->at;
	ret = 1;
out:
	free(path.p);
	return ret;
}
