/* typebuild: made-up types appended to a loaded table (see typebuild.h).
 * Uses the table's storage directly, like the loaders do. */
#include "config.h"
#include <errno.h>
#include <string.h>
#include "hitmap/typebuild.h"
#include "types-int.h"

static int is_record(enum hm_type_kind k)
{
	return k == HM_KIND_STRUCT || k == HM_KIND_UNION || k == HM_KIND_CLASS;
}

hm_type_id hm_types_add_struct_like(hm_types *t, hm_type_id like, const hm_member *members,
				    uint32_t nr, uint64_t size)
{
	const hm_type *base = hm_types_get(t, like);
	hm_type ty;
	size_t first = t->members.n;
	hm_type_id id;

	if (!base || !is_record(base->kind) || base->declaration) {
		errno = EINVAL;
		return HM_TYPE_NONE;
	}
	ty = *base;	/* copy before the vectors move */
	for (uint32_t i = 0; i < nr; i++) {
		hm_member m = members[i];

		if (m.name && !(m.name = hm_types_intern(t, m.name)))
			goto nomem;
		if (hm_vec_push(t->members, m) < 0)
			goto nomem;
	}
	ty.nr = nr;
	ty.first = (uint32_t)first;
	ty.size = size;
	id = hm_types_add(t, &ty);
	if (!id)
		goto nomem;
	return id;
nomem:
	t->members.n = first;
	errno = ENOMEM;
	return HM_TYPE_NONE;
}

hm_type_id hm_types_add_array(hm_types *t, hm_type_id elem, uint64_t dim)
{
	hm_type ty = { .kind = HM_KIND_ARRAY, .target = elem, .nr = 1 };
	hm_type_id id;
	long at;

	for (size_t i = 1; i < t->types.n; i++) {
		const hm_type *a = &t->types.v[i];

		if (a->kind == HM_KIND_ARRAY && a->target == elem && a->nr == 1 &&
		    t->dims.v[a->first] == dim)
			return (hm_type_id)i;
	}
	at = hm_vec_push(t->dims, dim);
	if (at < 0)
		goto nomem;
	ty.first = (uint32_t)at;
	ty.size = dim * hm_types_sizeof(t, elem);
	if ((id = hm_types_add(t, &ty)))
		return id;
nomem:
	errno = ENOMEM;
	return HM_TYPE_NONE;
}

hm_type_id hm_types_char(hm_types *t)
{
	hm_type ty = { .kind = HM_KIND_BASE, .size = 1, .is_signed = 1 };
	hm_type_id id;

	for (size_t i = 1; i < t->types.n; i++) {
		const hm_type *b = &t->types.v[i];

		if (b->kind == HM_KIND_BASE && b->name && !strcmp(b->name, "char"))
			return (hm_type_id)i;
	}
	if (!(ty.name = hm_types_intern(t, "char")))
		goto nomem;
	if ((id = hm_types_add(t, &ty)))
		return id;
nomem:
	errno = ENOMEM;
	return HM_TYPE_NONE;
}
