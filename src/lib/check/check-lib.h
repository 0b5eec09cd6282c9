/* Internal to libhitmap, shared between its folders: which members are
 * locks and atomics, as lint judges them (check/lint.c), for the pages that
 * mark them. */
#ifndef HM_CHECK_LIB_H
#define HM_CHECK_LIB_H
#include <stdint.h>
#include "hitmap/layout.h"

enum { HMI_NONE = 0, HMI_ATOMIC = 1, HMI_LOCK = 2 };

struct hmi_hot {
	uint32_t field;		/* index in the layout */
	int weight;		/* HMI_ATOMIC or HMI_LOCK */
	const char *why;	/* the matched type name: "spinlock_t", "_Atomic" */
};

struct hmi_typeclass;	/* memo of per-type answers, one per hm_types */

struct hmi_typeclass *hmi_typeclass_new(const hm_types *t, const char *const *extra);
void hmi_typeclass_free(struct hmi_typeclass *tc);

/* The outermost contention-prone fields of an (expanded) layout: a lock or
 * atomic member, an array of them, or an array of structs containing one;
 * a struct member containing one is descended into.  *out is malloc'ed.
 * Returns the count or -ENOMEM. */
int hmi_hot_fields(struct hmi_typeclass *tc, const hm_layout *l, struct hmi_hot **out);

/* What a member of type id is, as lint judges it: HMI_LOCK for a lock or a
 * struct holding one, HMI_ATOMIC, or HMI_NONE; *why as in hmi_hot. */
int hmi_type_unit(struct hmi_typeclass *tc, hm_type_id id, const char **why);

#endif
