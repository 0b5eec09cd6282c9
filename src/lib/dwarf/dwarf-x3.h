/* Internal: DW_FORM_strx3 and DW_FORM_addrx3 under libdwarf 20210528.
 *
 * That libdwarf sizes both three-byte forms as four bytes, so the first
 * DIE holding one (clang's DWARF 5 names a unit's 65 537th string with
 * strx3) throws every later DIE of the unit out of step.  Before libdwarf
 * sees the sections, each such attribute specification in .debug_abbrev
 * is split into two that it sizes right and that cover the same three
 * bytes: (HM_AT_X3_LOW, DW_FORM_data2) and then (the attribute, DW_FORM_data1).
 * The attribute reader (dwarf-attr.c) joins the two values back into the
 * index.  .debug_abbrev grows, so the abbreviation offsets in the unit
 * headers of .debug_info and .debug_types are moved along with it. */
#ifndef HM_DWARF_X3_H
#define HM_DWARF_X3_H
#include <stddef.h>
#include <stdint.h>

/* A vendor attribute (DW_AT_lo_user..DW_AT_hi_user) no producer uses:
 * the first two bytes of a three-byte index, in the target's byte order. */
#define HM_AT_X3_LOW 0x3ff7

/* How many attribute specifications of the abbreviations use a
 * three-byte index form (0: nothing to do). */
size_t hm_x3_count(const unsigned char *abbrev, size_t n);

struct hm_x3_map {
	uint64_t from, to;	/* an entry's offset before and after */
};

/* The rewritten .debug_abbrev (owned: hm_x3_abbrev_free()). */
struct hm_x3_abbrev {
	unsigned char *data;
	size_t size;
	struct hm_x3_map *map;	/* sorted by from */
	size_t nmap;
};

/* Rewrite abbrev (n bytes) into *out.  0 or -ENOMEM. */
int hm_x3_rewrite(const unsigned char *abbrev, size_t n, struct hm_x3_abbrev *out);

/* Move the abbreviation offsets of every unit header in sec (a writable
 * .debug_info or .debug_types) to the rewritten table.  Stops at the first
 * header that does not fit: libdwarf reports that unit as it would have. */
void hm_x3_patch_units(unsigned char *sec, size_t n, int big, const struct hm_x3_abbrev *a);

void hm_x3_abbrev_free(struct hm_x3_abbrev *a);

/* The index a split pair carries: low is HM_AT_X3_LOW's value, high the
 * attribute's own. */
static inline uint64_t hm_x3_index(uint64_t low, uint64_t high, int big)
{
	return big ? (low << 8) | high : low | (high << 16);
}

#endif
