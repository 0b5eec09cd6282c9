/* Internal to layout/: pahole's accounting of one struct level (holes, bit
 * holes, padding, packed inference) and virtual base placement, shared by
 * layout.c, layout-vbase.c and layout-holes.c; other folders read it through
 * layout-lib.h. */
#ifndef HM_LAYOUT_INT_H
#define HM_LAYOUT_INT_H
#include "hitmap/layout.h"
#include "layout/layout-lib.h"

/* A virtual base of a class in a complete object of that class. */
struct hm_vbase {
	hm_type_id type;	/* the base class */
	uint64_t offset;	/* from the start of the complete object */
	uint64_t size;		/* its non-virtual size: the bytes it takes there */
	uint64_t hole;		/* bytes of hole after it (hm_sholes_compute()) */
};

/* Per member of one struct/union/class level. */
struct hm_mhole {
	uint64_t size;		/* bytes pahole counts for it (bitfield: unit) */
	uint64_t hole;		/* bytes of hole after it */
	uint32_t bit_hole;	/* bits of hole after it */
	uint64_t vb_offset;	/* a placed virtual base: its offset */
	unsigned skipped : 1;	/* static or unplaced virtual base: no place */
	unsigned vb_placed : 1;	/* a direct virtual base at vb_offset */
};

struct hm_sholes {
	uint32_t nr;		/* = type->nr */
	struct hm_mhole *m;	/* nr entries, owned */
	uint64_t pre_hole;
	uint32_t pre_bit_hole;
	uint32_t nr_holes, nr_bit_holes;
	uint64_t padding;
	uint32_t bit_padding;
	/* a complete object's virtual bases, direct or not, placed after the
	 * non-virtual part (hm_vbases_place()); owned */
	struct hm_vbase *vb;
	uint32_t nr_vb;
};

/* Holes, bit holes and padding of one struct level, walking members in
 * declaration order the way pahole does (a union level has none).
 * Returns 0 or -ENOMEM; free with hm_sholes_free(). */
int hm_sholes_compute(const hm_types *t, const hm_type *ty, struct hm_sholes *h);
void hm_sholes_free(struct hm_sholes *h);

/* Whether a struct is packed, inferred from offsets and size (DWARF has no
 * packed attribute): a member off its natural alignment, or a size that is
 * not a multiple of the largest one. */
int hm_struct_is_packed(const hm_types *t, const hm_type *ty, const struct hm_sholes *h);

/* Every virtual base (direct or not) of record ty as a complete object, in
 * inheritance graph order (layout-vbase.c says how).  Returns how many (0:
 * none) into out[max], or a negative errno: -ENOTSUP for a case the ABI
 * rules are not applied to, -ERANGE when they disagree with DWARF's size,
 * -E2BIG past max or a bounded walk. */
int hm_vbases_place(const hm_types *t, const hm_type *ty, struct hm_vbase *out, int max);

/* The non-virtual size of a base class: the end of its last byte of
 * non-virtual data, what a derived class may not reuse (sizeof when the
 * walk gives up). */
uint64_t hm_base_nvsize(const hm_types *t, hm_type_id id);

/* Whether record id has virtual bases, direct or not. */
int hm_base_has_vbases(const hm_types *t, hm_type_id id);

#endif
