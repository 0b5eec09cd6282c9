/* Internal to libhitmap, shared between its folders (types/typebuild.c).
 *
 * typebuild: adding made-up types to a loaded type table — the hypothetical
 * structs `suggest` lays out and prints ("mm_struct as it would be with
 * mmap_lock line-aligned"), and the char arrays its explicit padding uses.
 *
 * A table is read-only once loaded; these calls are for its single owner,
 * before the table is shared.  Adding a type may move the table's arrays:
 * every hm_type and hm_member pointer handed out earlier (and every hm_layout
 * built earlier) is invalid afterwards.  Ids and names stay valid.
 *
 * Ownership: the new types belong to the table and go with hm_types_free().
 */
#ifndef HM_TYPEBUILD_LIB_H
#define HM_TYPEBUILD_LIB_H
#include <stddef.h>
#include <stdint.h>
#include "hitmap/types.h"

/* Append a struct that is a copy of struct/union/class `like` (kind, name,
 * alignment attribute, declaring file and line) with `nr` new members and byte
 * size `size`.  Member names are interned; member types must be ids of `t`.
 * The new struct is not listed by hm_types_structs()/hm_types_find_struct(),
 * so it never shadows the real one.  Returns its id, or HM_TYPE_NONE + errno
 * (EINVAL: `like` is not a struct; ENOMEM). */
hm_type_id hmi_types_add_struct_like(hm_types *t, hm_type_id like, const hm_member *members,
				     uint32_t nr, uint64_t size);

/* Append a struct named `name` (NULL: anonymous) with `nr` members, byte size
 * `size` and the alignment attribute `alignment` (0 = none): the member type
 * of the kernel's `struct { atomic_t mm_count; } ____cacheline_aligned_in_smp;`,
 * or its `struct cacheline_padding`.  Names are interned; member types must be
 * ids of `t`.  Like hmi_types_add_struct_like(), the struct is not listed by
 * name.  Returns its id, or HM_TYPE_NONE + errno (ENOMEM). */
hm_type_id hmi_types_add_struct(hm_types *t, const char *name, const hm_member *members,
				uint32_t nr, uint64_t size, uint32_t alignment);

/* Id of a one-dimensional array `elem[dim]`, added when absent.  HM_TYPE_NONE
 * + errno on failure. */
hm_type_id hmi_types_add_array(hm_types *t, hm_type_id elem, uint64_t dim);

/* Id of the base type `char`, added when the table has none. */
hm_type_id hmi_types_char(hm_types *t);

/* Id of the typedef `name` (hm_types_find_typedef()), else of a new typedef
 * `name` of the base type `base` (size `size`, signed or not), itself the
 * table's when it has one of that name.  What the kernel's `__u8` is when a
 * load kept none.  HM_TYPE_NONE + errno (ENOMEM). */
hm_type_id hmi_types_typedef_base(hm_types *t, const char *name, const char *base,
				  uint64_t size, int is_signed);

#endif
