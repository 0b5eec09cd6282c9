/* Internal to libhitmap, shared between its folders: what the other folders
 * read of a type table beyond hitmap/types.h (types/types.c). */
#ifndef HM_TYPES_LIB_H
#define HM_TYPES_LIB_H
#include "hitmap/types.h"

/* An enum's constants (hm_type.nr of them). */
typedef struct hm_enumerator {
	const char *name;
	int64_t value;
} hm_enumerator;

/* The parts of a type beyond hitmap/types.h's hm_types_members(), each
 * hm_type.nr long from hm_type.first: an array's dimensions (0 for a
 * flexible one), a function type's parameter types, an enum's constants. */
const uint64_t *hmi_types_dims(const hm_types *t, const hm_type *type);
const hm_type_id *hmi_types_params(const hm_types *t, const hm_type *type);
const hm_enumerator *hmi_types_enumerators(const hm_types *t, const hm_type *type);

/* The global variable of that name, NULL if the table has none (loaded
 * with opts.variables). */
const hm_variable *hmi_types_find_variable(const hm_types *t, const char *name);

/* The size of a pointer in the binary the table was read from. */
unsigned hmi_types_pointer_size(const hm_types *t);

#endif
