/* Internal: pahole's accounting of one struct level (holes, bit holes,
 * padding, packed inference), shared by layout.c and the printers in
 * output-layout.c.  Nothing outside the layout area uses it. */
#ifndef HM_LAYOUT_INT_H
#define HM_LAYOUT_INT_H
#include "hitmap/layout.h"

/* Per member of one struct/union/class level. */
struct hm_mhole {
	uint64_t size;		/* bytes pahole counts for it (bitfield: unit) */
	uint64_t hole;		/* bytes of hole after it */
	uint32_t bit_hole;	/* bits of hole after it */
	unsigned skipped : 1;	/* static or virtual base: takes no place */
};

struct hm_sholes {
	uint32_t nr;		/* = type->nr */
	struct hm_mhole *m;	/* nr entries, owned */
	uint64_t pre_hole;
	uint32_t pre_bit_hole;
	uint32_t nr_holes, nr_bit_holes;
	uint64_t padding;
	uint32_t bit_padding;
};

/* Bytes a member occupies as pahole counts them: the storage unit for a
 * bitfield, sizeof its type otherwise (0 for flexible/zero-length arrays). */
uint64_t hm_member_size(const hm_types *t, const hm_member *m);

/* Holes, bit holes and padding of one struct level, walking members in
 * declaration order the way pahole does (a union level has none).
 * Returns 0 or -ENOMEM; free with hm_sholes_free(). */
int hm_sholes_compute(const hm_types *t, const hm_type *ty, struct hm_sholes *h);
void hm_sholes_free(struct hm_sholes *h);

/* pahole's notion of a member type's natural alignment (no attributes). */
uint32_t hm_natural_align(const hm_types *t, hm_type_id id);

/* Whether a struct is packed, inferred from offsets and size (DWARF has no
 * packed attribute): a member off its natural alignment, or a size that is
 * not a multiple of the largest one. */
int hm_struct_is_packed(const hm_types *t, const hm_type *ty, const struct hm_sholes *h);

/* Skip typedefs and qualifiers only (not arrays). */
hm_type_id hm_strip(const hm_types *t, hm_type_id id);

#endif
