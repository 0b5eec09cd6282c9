/* Internal to libhitmap, shared between its folders: pahole's accounting of
 * one struct level (holes, bit holes, padding, virtual bases) as the layout
 * printers read it, behind an opaque handle (layout/layout-holes.c), and the
 * member rules they apply the way pahole does. */
#ifndef HM_LAYOUT_LIB_H
#define HM_LAYOUT_LIB_H
#include "hitmap/layout.h"

/* The table a layout was made from, and its struct's name (NULL:
 * anonymous). */
const hm_types *hmi_layout_types(const hm_layout *l);
const char *hmi_layout_name(const hm_layout *l);

struct hmi_layout_holes;

/* The accounting of struct level ty (a union level has no holes).
 * 0 or -ENOMEM; free with hmi_layout_holes_free(). */
int hmi_layout_holes_new(const hm_types *t, const hm_type *ty, struct hmi_layout_holes **out);
void hmi_layout_holes_free(struct hmi_layout_holes *h);

/* The whole level: holes before the first member, how many holes and bit
 * holes, trailing padding. */
uint64_t hmi_layout_holes_pre(const struct hmi_layout_holes *h);
uint32_t hmi_layout_holes_pre_bits(const struct hmi_layout_holes *h);
uint32_t hmi_layout_holes_count(const struct hmi_layout_holes *h);
uint32_t hmi_layout_holes_bit_count(const struct hmi_layout_holes *h);
uint64_t hmi_layout_holes_padding(const struct hmi_layout_holes *h);
uint32_t hmi_layout_holes_bit_padding(const struct hmi_layout_holes *h);

/* Member i of the level (index into hm_types_members()): the bytes pahole
 * counts for it, its hole and bit hole after it, whether it has no place
 * (static, or an unplaced virtual base) and whether it is a direct virtual
 * base placed after the non-virtual part. */
uint64_t hmi_layout_holes_member_size(const struct hmi_layout_holes *h, uint32_t i);
uint64_t hmi_layout_holes_member_hole(const struct hmi_layout_holes *h, uint32_t i);
uint32_t hmi_layout_holes_member_bit_hole(const struct hmi_layout_holes *h, uint32_t i);
int hmi_layout_holes_member_skipped(const struct hmi_layout_holes *h, uint32_t i);
int hmi_layout_holes_member_vbase(const struct hmi_layout_holes *h, uint32_t i);

/* A complete object's virtual bases, in placement order: base class k, its
 * offset, the bytes it takes and its hole after it. */
uint32_t hmi_layout_holes_nr_vbases(const struct hmi_layout_holes *h);
void hmi_layout_holes_vbase(const struct hmi_layout_holes *h, uint32_t k, hm_type_id *type,
			    uint64_t *offset, uint64_t *size, uint64_t *hole);

/* Whether the level is packed, inferred from offsets and size. */
int hmi_layout_holes_packed(const hm_types *t, const hm_type *ty,
			    const struct hmi_layout_holes *h);

/* Bytes a member occupies as pahole counts them: the storage unit for a
 * bitfield, sizeof its type otherwise (0 for flexible/zero-length arrays). */
uint64_t hmi_layout_member_size(const hm_types *t, const hm_member *m);
/* pahole's natural alignment of a type (no attributes). */
uint32_t hmi_layout_natural_align(const hm_types *t, hm_type_id id);
/* A type with typedefs and qualifiers skipped (not arrays). */
hm_type_id hmi_layout_strip(const hm_types *t, hm_type_id id);

#endif
