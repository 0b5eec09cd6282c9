/* typebuild: made-up types appended to a loaded table (see typebuild-lib.h).
 * Uses the table's storage directly, like the loaders do. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "types/typebuild-lib.h"
#include "types/types-int.h"

static hm_type_id add_record(hm_types *t, hm_type ty, const hm_member *members, uint32_t nr,
			     uint64_t size)
{
	size_t first = t->members.n;
	hm_type_id id;

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

hm_type_id hmi_types_add_struct_like(hm_types *t, hm_type_id like, const hm_member *members,
				     uint32_t nr, uint64_t size)
{
	const hm_type *base = hm_types_get(t, like);

	if (!base || !hm_kind_is_record(base->kind) || base->declaration) {
		errno = EINVAL;
		return HM_TYPE_NONE;
	}
	return add_record(t, *base, members, nr, size);	/* a copy: the vectors move */
}

hm_type_id hmi_types_add_struct(hm_types *t, const char *name, const hm_member *members,
				uint32_t nr, uint64_t size, uint32_t alignment)
{
	hm_type ty = { .kind = HM_KIND_STRUCT, .alignment = alignment };

	if (name && !(ty.name = hm_types_intern(t, name))) {
		errno = ENOMEM;
		return HM_TYPE_NONE;
	}

	return add_record(t, ty, members, nr, size);
}

/* ---- arrays by element and bound ----
 *
 * suggest asks for a padding array per proposal and slot: a scan of the
 * whole table each time (a vmlinux has hundreds of thousands of types) would
 * make that types x slots.  The index takes each id once, in id order, so
 * the first array of a kind is the one found, as a scan would. */

static uint64_t array_hash(hm_type_id elem, uint64_t dim)
{
	return hm_hash_u64(hm_hash_u64(dim) ^ ((uint64_t)elem << 1));
}

static hm_type_id array_find(const hm_types *t, hm_type_id elem, uint64_t dim)
{
	size_t mask = t->ntb_arrays - 1, j;

	if (!t->ntb_arrays)
		return HM_TYPE_NONE;
	for (j = array_hash(elem, dim) & mask; t->tb_arrays[j].id; j = (j + 1) & mask)
		if (t->tb_arrays[j].elem == elem && t->tb_arrays[j].dim == dim)
			return t->tb_arrays[j].id;
	return HM_TYPE_NONE;
}

static void array_put(struct hm_tb_array *slots, size_t n, struct hm_tb_array a)
{
	size_t j;

	for (j = array_hash(a.elem, a.dim) & (n - 1); slots[j].id; j = (j + 1) & (n - 1))
		;
	slots[j] = a;
}

static int array_insert(hm_types *t, struct hm_tb_array a)
{
	if ((t->ntb_used + 1) * 2 > t->ntb_arrays) {
		size_t n = t->ntb_arrays ? t->ntb_arrays * 2 : 256;
		struct hm_tb_array *slots = calloc(n, sizeof(*slots));

		if (!slots)
			return -ENOMEM;
		for (size_t i = 0; i < t->ntb_arrays; i++)
			if (t->tb_arrays[i].id)
				array_put(slots, n, t->tb_arrays[i]);
		free(t->tb_arrays);
		t->tb_arrays = slots;
		t->ntb_arrays = n;
	}
	array_put(t->tb_arrays, t->ntb_arrays, a);
	t->ntb_used++;
	return 0;
}

/* Take the ids added since the last call into the index. */
static int arrays_catch_up(hm_types *t)
{
	for (; t->tb_seen < t->types.n; t->tb_seen++) {
		const hm_type *a = &t->types.v[t->tb_seen];
		struct hm_tb_array e;

		if (!t->tb_seen || a->kind != HM_KIND_ARRAY || a->nr != 1)
			continue;
		e = (struct hm_tb_array){ a->target, (hm_type_id)t->tb_seen, t->dims.v[a->first] };
		if (!array_find(t, e.elem, e.dim) && array_insert(t, e))
			return -ENOMEM;
	}
	return 0;
}

hm_type_id hmi_types_add_array(hm_types *t, hm_type_id elem, uint64_t dim)
{
	hm_type ty = { .kind = HM_KIND_ARRAY, .target = elem, .nr = 1 };
	hm_type_id id;
	long at;

	if (arrays_catch_up(t))
		goto nomem;
	if ((id = array_find(t, elem, dim)))
		return id;
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

hm_type_id hmi_types_char(hm_types *t)
{
	hm_type ty = { .kind = HM_KIND_BASE, .size = 1, .is_signed = 1 };
	hm_type_id id;

	if (t->tb_char)
		return t->tb_char;
	for (size_t i = 1; i < t->types.n; i++) {
		const hm_type *b = &t->types.v[i];

		if (b->kind == HM_KIND_BASE && b->name && !strcmp(b->name, "char"))
			return t->tb_char = (hm_type_id)i;
	}
	if (!(ty.name = hm_types_intern(t, "char")))
		goto nomem;
	if ((id = hm_types_add(t, &ty)))
		return t->tb_char = id;
nomem:
	errno = ENOMEM;
	return HM_TYPE_NONE;
}

hm_type_id hmi_types_typedef_base(hm_types *t, const char *name, const char *base,
				  uint64_t size, int is_signed)
{
	hm_type b = { .kind = HM_KIND_BASE, .size = size, .is_signed = !!is_signed };
	hm_type td = { .kind = HM_KIND_TYPEDEF };
	hm_type_id id;

	if ((id = hm_types_find_typedef(t, name)))
		return id;
	for (size_t i = 1; i < t->types.n && !td.target; i++) {
		const hm_type *ty = &t->types.v[i];

		if (ty->kind == HM_KIND_BASE && ty->name && !strcmp(ty->name, base))
			td.target = (hm_type_id)i;
	}
	if (!td.target && (!(b.name = hm_types_intern(t, base)) ||
			   !(td.target = hm_types_add(t, &b))))
		goto nomem;
	if ((td.name = hm_types_intern(t, name)) && (id = hm_types_add(t, &td)))
		return id;
nomem:
	errno = ENOMEM;
	return HM_TYPE_NONE;
}
