/* layout: one struct flattened onto cachelines.
 *
 * hm_layout_new() walks a struct/union/class type and produces, in pre-order,
 * its members with their absolute offsets from the start of the outermost
 * struct — descending always into members whose type is an anonymous struct
 * or union (named members like `union {...} u;` as well as anonymous ones),
 * and into members of a named struct/union type with opts.expand — the holes pahole would report, the cachelines
 * each member touches, and kernel __cacheline_group_begin__G /
 * __cacheline_group_end__G pairs (at any listed level) as named groups.
 * Static members take no space and are not listed; a C++ base class is listed
 * as a field named after its type.  The pahole-compatible printing of a
 * layout is in hitmap/output.h.
 *
 * Line placement assumes the object starts on a line boundary only when its
 * alignment guarantees it (alignment >= line size) or opts.assume_aligned is
 * set; `base_known` in the summary says which.  Line numbers are always
 * offset / line_size (what pahole prints); `may_share` answers the worst case.
 *
 * Ownership: the layout is freed by hm_layout_free(); it points into the
 * hm_types table it was built from, which must outlive it.
 */
#ifndef HITMAP_LAYOUT_H
#define HITMAP_LAYOUT_H
#include <stdbool.h>
#include <stddef.h>
#include "hitmap/hitmap.h"
#include <stdint.h>
#include "hitmap/types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hm_layout_opts {
	size_t sz;			/* sizeof(struct hm_layout_opts): declare with HM_OPTS */
	unsigned cacheline_size;	/* bytes, a power of two; 0 = the table's
					 * (hm_types_cacheline_size()) */
	bool expand;		/* descend into named struct members too (pahole -E) */
	bool assume_aligned;	/* treat the object as line-aligned */
};

#define HM_FIELD_NONE UINT32_MAX

typedef struct hm_field {
	const char *name;	/* NULL for an anonymous struct/union member */
	const char *path;	/* dotted path from the outermost struct: "mmap_lock.count";
				 * anonymous levels are skipped, as in C */
	const hm_member *member;	/* the member in its parent type */
	hm_type_id type;	/* the member's declared type */
	uint64_t offset;	/* absolute byte offset (storage unit for bitfields) */
	uint64_t size;		/* bytes (storage unit size for bitfields) */
	uint32_t bit_offset;	/* bitfields: as hm_member */
	uint32_t bit_size;	/* 0 = not a bitfield */
	uint32_t depth;		/* 0 = direct member of the outermost struct */
	uint32_t parent;	/* index of the enclosing field, HM_FIELD_NONE at depth 0 */
	uint32_t next;		/* index of the next sibling, HM_FIELD_NONE if last */
	uint32_t nr_children;	/* children follow their parent immediately */
	uint64_t hole_after;	/* bytes of hole between this member and the next
				 * sibling (or the end of the parent, for padding) */
	uint32_t bit_hole_after;	/* unused bits after this bitfield in its unit */
	uint32_t line_first;	/* offset / line size */
	uint32_t line_last;	/* (offset + size - 1) / line size */
	unsigned straddles : 1;	/* spans a line boundary */
	unsigned is_leaf : 1;	/* no children listed */
} hm_field;

typedef struct hm_hole {
	uint64_t offset;	/* absolute */
	uint64_t size;		/* bytes */
	uint32_t after;		/* field index the hole follows */
} hm_hole;

typedef struct hm_group {
	const char *name;	/* G in __cacheline_group_begin__G */
	uint64_t offset;	/* absolute offset of the begin marker */
	uint64_t size;		/* end marker offset - begin marker offset */
	uint32_t first, last;	/* field indices of the first and last member inside */
	unsigned aligned : 1;	/* begin marker carries line alignment */
	unsigned unterminated : 1;	/* begin without end */
} hm_group;

/* pahole's summary of the outermost struct, field for field.  (A struct tag,
 * not a typedef: hm_layout_summary() is the accessor.) */
struct hm_layout_summary {
	uint64_t size;
	uint32_t alignment;
	uint32_t cachelines;
	uint32_t members;		/* direct members */
	uint64_t sum_members;		/* bytes of direct members (bitfields per unit) */
	uint32_t holes;
	uint64_t sum_holes;
	uint32_t bitfield_members;	/* sum bitfield members: N bits */
	uint64_t sum_bitfield_bits;
	uint32_t bit_holes;
	uint64_t sum_bit_holes;
	uint64_t padding;
	uint32_t bit_padding;
	uint32_t forced_alignments;
	uint32_t forced_holes;
	uint64_t sum_forced_holes;
	uint64_t last_cacheline;	/* bytes used in the last line */
	unsigned base_known : 1;	/* alignment guarantees line-aligned start */
};

typedef struct hm_layout hm_layout;

/* Lay out struct/union/class `id`.  NULL + errno (EINVAL: not a complete
 * struct/union/class; ENOMEM). */
hm_layout *hm_layout_new(const hm_types *t, hm_type_id id, const struct hm_layout_opts *opts);
void hm_layout_free(hm_layout *l);

hm_type_id hm_layout_type(const hm_layout *l);
unsigned hm_layout_cacheline_size(const hm_layout *l);
const struct hm_layout_summary *hm_layout_summary(const hm_layout *l);

/* n may be NULL (then use hm_field.next / nr_children to walk). */
const hm_field *hm_layout_fields(const hm_layout *l, size_t *n);
const hm_hole *hm_layout_holes(const hm_layout *l, size_t *n);
const hm_group *hm_layout_groups(const hm_layout *l, size_t *n);

/* The deepest field whose bytes contain `offset` (a bitfield's unit counts),
 * or NULL if the byte is a hole or padding.  Array members are returned whole;
 * hm_layout_path_at() spells the element ("slots[3].hits"). */
const hm_field *hm_layout_field_at(const hm_layout *l, uint64_t offset);
int hm_layout_path_at(const hm_layout *l, uint64_t offset, char *buf, size_t len);

/* Find a field by dotted path ("mmap_lock", "mmap_lock.count"); NULL if absent. */
const hm_field *hm_layout_find(const hm_layout *l, const char *path);

/* Whether two byte ranges of the object can ever fall on a common line: with a
 * known base, the actual lines; without, true when they are closer than a line. */
int hm_layout_may_share(const hm_layout *l, uint64_t a_off, uint64_t a_size,
			uint64_t b_off, uint64_t b_size);

#ifdef __cplusplus
}
#endif
#endif
