/* Internal to libhitmap, shared between its folders: what layouts read of
 * a type table beyond hitmap/types.h (types/types.c). */
#ifndef HM_TYPES_LIB_H
#define HM_TYPES_LIB_H
#include "hitmap/types.h"

/* The size of a pointer in the binary the table was read from. */
unsigned hmi_types_pointer_size(const hm_types *t);

#endif
