/* dwarf: convert DWARF type DIEs into the type table (with libdwarf).
 *
 * The walk (dwarf-walk.c, dwarf-par.c) visits each CU's top-level DIEs; type
 * DIEs are converted here on demand: a reference is followed with
 * dwarf_offdie_b and converted (recursively) the first time it is met in the
 * CU.  Named aggregates are looked up in the table's dedup index by
 * kind+name+size+decl file:line before their children are read, so a header
 * struct included by 2000 CUs has its members read once.  Function bodies are never entered (dwarf_siblingof_b jumps over them
 * via DW_AT_sibling). */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dwarf/dwarf-int.h"
#include "base/diag.h"
#include "elf/binary-lib.h"

/* Whether tag is a DWARF tag at all: 0x01-0x4b, or the vendors' range.  A
 * flipped byte of .debug_abbrev gives others, and a DIE read under a tag
 * that is none must not just be skipped (a member would vanish). */
static int known_tag(Dwarf_Half tag)
{
	return (tag >= 0x01 && tag <= 0x4b) || tag >= 0x4080;
}

/* Whether a DW_AT_type may point at a DIE of this tag. */
static int type_tag(Dwarf_Half tag)
{
	switch (tag) {
	case DW_TAG_array_type: case DW_TAG_class_type: case DW_TAG_enumeration_type:
	case DW_TAG_pointer_type: case DW_TAG_reference_type: case DW_TAG_string_type:
	case DW_TAG_structure_type: case DW_TAG_subroutine_type: case DW_TAG_typedef:
	case DW_TAG_union_type: case DW_TAG_ptr_to_member_type: case DW_TAG_set_type:
	case DW_TAG_subrange_type: case DW_TAG_base_type: case DW_TAG_const_type:
	case DW_TAG_file_type: case DW_TAG_packed_type: case DW_TAG_volatile_type:
	case DW_TAG_restrict_type: case DW_TAG_interface_type:
	case DW_TAG_unspecified_type: case DW_TAG_shared_type:
	/* not DW_TAG_subrange_type: an array's dimension, no member's type in
	 * C or C++ (it would read as void) */
	case DW_TAG_rvalue_reference_type: case DW_TAG_coarray_type:
	case DW_TAG_generic_subrange: case DW_TAG_dynamic_type: case DW_TAG_atomic_type:
	case DW_TAG_immutable_type:
		return 1;
	}
	return tag >= 0x4080;	/* a vendor's: not known to be wrong */
}

/* A DIE of a tag that never has children (a base type, a pointer, a
 * typedef, a qualifier) whose abbreviation says it has: the DIEs after it
 * would be read as its children, and vanish. */
int dw_leaf_with_children(Dwarf_Die die, Dwarf_Half tag)
{
	Dwarf_Half kids = 0;

	switch (tag) {
	case DW_TAG_base_type: case DW_TAG_pointer_type: case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type: case DW_TAG_const_type:
	case DW_TAG_volatile_type: case DW_TAG_restrict_type: case DW_TAG_atomic_type:
	case DW_TAG_typedef: case DW_TAG_ptr_to_member_type:
	case DW_TAG_unspecified_type: case DW_TAG_member:
		break;
	default:
		return 0;
	}
	return dwarf_die_abbrev_children_flag(die, &kids) == DW_DLV_OK && kids;
}

/* ---- offset map ---- */

static struct offslot *map_slot(struct loader *ld, uint64_t off)
{
	size_t j = hm_hash_u64(off) & (ld->nmap - 1);

	for (;; j = (j + 1) & (ld->nmap - 1)) {
		struct offslot *s = &ld->map[j];

		if (s->gen != ld->gen || s->off == off)
			return s;
	}
}

void dw_map_prefetch(const struct loader *ld, uint64_t off)
{
	if (ld->nmap)
		__builtin_prefetch(&ld->map[hm_hash_u64(off) & (ld->nmap - 1)]);
}

int dw_map_get(struct loader *ld, uint64_t off, uint32_t *id)
{
	struct offslot *s;

	if (!ld->nmap)
		return 0;
	s = map_slot(ld, off);
	if (s->gen != ld->gen)
		return 0;
	*id = s->id;
	return 1;
}

int dw_map_put(struct loader *ld, uint64_t off, uint32_t id)
{
	struct offslot *s;

	if ((ld->nmap_used + 1) * 2 > ld->nmap) {
		size_t n = ld->nmap ? ld->nmap * 2 : 1 << 14, old = ld->nmap;
		struct offslot *o = ld->map;

		ld->map = calloc(n, sizeof(*ld->map));
		if (!ld->map) {
			ld->map = o;
			return dw_set_err(ld, -ENOMEM);
		}
		ld->nmap = n;
		for (size_t i = 0; i < old; i++) {
			if (o[i].gen == ld->gen) {
				s = map_slot(ld, o[i].off);
				*s = o[i];
			}
		}
		free(o);
	}
	s = map_slot(ld, off);
	if (s->gen != ld->gen)
		ld->nmap_used++;
	s->off = off;
	s->id = id;
	s->gen = ld->gen;
	return 0;
}

#define MAP_MIN (1 << 12)

void dw_map_new_cu(struct loader *ld)
{
	size_t want = MAP_MIN;

	/* A map grown for the largest unit so far would spread each small
	 * unit's few entries over megabytes, a cache miss per lookup: size
	 * it for a unit like the last one (it grows as needed). */
	while (want < ld->nmap_used * 4)
		want *= 2;
	if (ld->nmap > want * 4) {
		struct offslot *m = calloc(want, sizeof(*m));

		if (m) {
			free(ld->map);
			ld->map = m;
			ld->nmap = want;
		}
	}
	ld->gen++;
	ld->nmap_used = 0;
	if (ld->gen == 0) {	/* wrapped: wipe stale generations */
		if (ld->map)
			memset(ld->map, 0, ld->nmap * sizeof(*ld->map));
		ld->gen = 1;
	}
}

/* ---- conversion ---- */

static hm_type_id finish_simple(struct loader *ld, uint64_t off, hm_type *ty,
				const uint64_t *dims, const hm_type_id *params)
{
	uint64_t hash;
	hm_type_id id = hm_types_dedup_find(ld->t, ty, dims, params, NULL, &hash);

	if (!id) {
		id = hm_types_add(ld->t, ty);
		if (!id || hm_types_dedup_insert(ld->t, id, hash)) {
			dw_set_err(ld, -ENOMEM);
			return 0;
		}
	}
	dw_map_put(ld, off, id);
	return id;
}

/* Finish a type whose DIE was marked IN_PROGRESS while its target was read.
 * If something reached back to the DIE meanwhile (clang shares one pointer
 * DIE for `struct rb_node *rb_right, *rb_left`, and struct rb_node's members
 * are read while that pointer waits for its target), dw_convert_off() handed
 * out a placeholder id: the type is written there. */
static hm_type_id finish_cyclic(struct loader *ld, uint64_t off, hm_type *ty,
				const uint64_t *dims, const hm_type_id *params)
{
	uint32_t cur;
	uint64_t hash;

	if (!dw_map_get(ld, off, &cur) || cur == IN_PROGRESS)
		return finish_simple(ld, off, ty, dims, params);
	*(hm_type *)hm_types_get(ld->t, cur) = *ty;
	if (!hm_types_dedup_find(ld->t, ty, dims, params, NULL, &hash) &&
	    hm_types_dedup_insert(ld->t, cur, hash))
		dw_set_err(ld, -ENOMEM);
	return cur;
}

static hm_type_id ref_type(struct loader *ld, const struct die_attrs *d)
{
	return d->has_type ? dw_convert_off(ld, d->type_off) : 0;
}

static void member_bits(struct loader *ld, const struct die_attrs *d, hm_member *m)
{
	uint64_t unit = d->has_byte_size ? d->byte_size : hm_types_sizeof(ld->t, m->type);
	uint64_t abs_bit, bits;

	if (!d->has_bit_size && !d->has_bit_offset && !d->has_data_bit_offset)
		return;
	bits = d->has_bit_size ? d->bit_size : unit * 8;
	if (!unit)
		unit = (bits + 7) / 8;
	if (!unit)
		unit = 1;	/* zero bits of a sizeless type: corrupt, but no division by 0 */
	if (d->has_data_bit_offset)
		abs_bit = d->data_bit_offset + (d->has_member_loc ? d->member_loc * 8 : 0);
	else if (d->has_bit_offset && ld->big_endian)
		/* DWARF 2-4: bit_offset counts from the unit's most significant
		 * bit, which a big-endian target stores first */
		abs_bit = (d->has_member_loc ? d->member_loc * 8 : 0) + d->bit_offset;
	else if (d->has_bit_offset)
		/* ... and a little-endian one last */
		abs_bit = (d->has_member_loc ? d->member_loc * 8 : 0) + unit * 8 -
			  d->bit_offset - bits;
	else
		abs_bit = m->offset * 8;
	if (abs_bit >> 43) {	/* a bit_offset past its unit wrapped around */
		dw_bad(ld, NULL, "bitfield offset out of range");
		return;
	}
	m->flags |= HM_MEMBER_BITFIELD;
	m->bit_size = bits;
	m->byte_size = unit;
	/* storage unit: `unit` bytes, naturally aligned, holding the first bit */
	m->offset = abs_bit / (unit * 8) * unit;
	m->bit_offset = abs_bit - m->offset * 8;
}

/* A member that ends past the end of its struct (a flipped offset or
 * size): the layout would be wrong, not just odd. */
static int past_end(struct loader *ld, const hm_member *m, uint64_t size)
{
	uint64_t end;

	if (m->flags & (HM_MEMBER_STATIC | HM_MEMBER_VIRTUAL_BASE | HM_MEMBER_INHERITANCE))
		return 0;
	if (m->flags & HM_MEMBER_BITFIELD)
		return m->offset * 8 + m->bit_offset + m->bit_size > size * 8;
	end = m->offset + hm_types_sizeof(ld->t, m->type);
	return end > size;
}

static int add_member(struct loader *ld, Dwarf_Die die, int tag, const uint64_t *size)
{
	struct die_attrs d;
	hm_member m = { 0 };

	if (dw_read_attrs(ld, die, &d, 0))
		return ld->err;
	if (!d.has_type && tag != DW_TAG_variable)
		return dw_bad_die(ld, die, "a member without DW_AT_type");
	m.name = hm_types_intern(ld->t, d.name);
	m.type = ref_type(ld, &d);
	if (!m.type && !ld->err && tag != DW_TAG_variable && ld->depth <= MAX_DEPTH)
		/* no member is void: its type DIE is none this reader knows */
		return dw_bad_die(ld, die, "a member whose DW_AT_type names no type");
	m.offset = d.member_loc;
	m.alignment = d.alignment;
	m.decl_line = d.decl_line;
	if (tag == DW_TAG_inheritance) {
		m.flags |= HM_MEMBER_INHERITANCE;
		if (d.member_loc_expr || d.virtuality)
			m.flags |= HM_MEMBER_VIRTUAL_BASE;
	} else if (tag == DW_TAG_variable ||
		   (!d.has_member_loc && (d.external || d.declaration) && !d.has_bit_size &&
		    !d.has_data_bit_offset)) {
		m.flags |= HM_MEMBER_STATIC;
	} else if (d.member_loc_expr) {
		m.flags |= HM_MEMBER_VIRTUAL_BASE;
	}
	if (d.artificial)
		m.flags |= HM_MEMBER_ARTIFICIAL;
	/* only what DWARF says: no attribute, no flag (the default depends on
	 * struct vs class) */
	if (d.accessibility == DW_ACCESS_public)
		m.flags |= HM_MEMBER_PUBLIC;
	else if (d.accessibility == DW_ACCESS_protected)
		m.flags |= HM_MEMBER_PROTECTED;
	else if (d.accessibility == DW_ACCESS_private)
		m.flags |= HM_MEMBER_PRIVATE;
	if (!(m.flags & (HM_MEMBER_STATIC | HM_MEMBER_INHERITANCE)))
		member_bits(ld, &d, &m);
	if (!ld->err && size && past_end(ld, &m, *size)) {
		char why[160];

		snprintf(why, sizeof(why), "member %s ends past its struct's size (%llu bytes)",
			 m.name ? m.name : "(anonymous)", (unsigned long long)*size);
		return dw_bad_die(ld, die, why);
	}
	if (hm_vec_push(ld->smembers, m) < 0)
		return dw_set_err(ld, -ENOMEM);
	return 0;
}

/* The bits [*lo, *hi) a data member takes; 0 for others (static, bases,
 * sizeless). */
static int member_bits_span(struct loader *ld, const hm_member *m, uint64_t *lo, uint64_t *hi)
{
	if (m->flags & (HM_MEMBER_STATIC | HM_MEMBER_VIRTUAL_BASE | HM_MEMBER_INHERITANCE))
		return 0;
	if (m->flags & HM_MEMBER_BITFIELD) {
		*lo = m->offset * 8 + m->bit_offset;
		*hi = *lo + m->bit_size;
	} else {
		*lo = m->offset * 8;
		*hi = *lo + hm_types_sizeof(ld->t, m->type) * 8;
	}
	return *hi > *lo;
}

/* Whether the member just read (C: in declaration order, at increasing
 * offsets) starts inside the one before it: a flipped offset. */
static int overlaps(struct loader *ld, size_t base)
{
	uint64_t lo, hi, plo, phi;
	size_t n = ld->smembers.n;

	if (n < base + 2 || !member_bits_span(ld, &ld->smembers.v[n - 1], &lo, &hi))
		return 0;
	for (size_t i = n - 1; i-- > base;)
		if (member_bits_span(ld, &ld->smembers.v[i], &plo, &phi))
			return lo < phi;
	return 0;
}

/* Read a struct's member DIEs onto the scratch stack (from `base` up);
 * size: the struct's, when it has one, to check the members against. */
static void read_members(struct loader *ld, Dwarf_Die die, const uint64_t *size, int kind)
{
	size_t base = ld->smembers.n;
	Dwarf_Die c;

	for (c = dw_first_child(ld, die); c && !ld->err; c = dw_next_sibling(ld, c)) {
		Dwarf_Half tag = 0;
		Dwarf_Error e = NULL;

		if (dwarf_tag(c, &tag, &e) != DW_DLV_OK) {
			dw_bad(ld, e, "tag");
			break;
		}
		if (!known_tag(tag)) {
			char why[64];

			snprintf(why, sizeof(why), "unknown tag 0x%x", tag);
			dw_bad_die(ld, c, why);
			break;
		}
		if (tag == DW_TAG_member || tag == DW_TAG_inheritance) {
			Dwarf_Half kids = 0;

			/* a member has no children: a flag that says so swallows
			 * the members after it */
			if (dwarf_die_abbrev_children_flag(c, &kids) == DW_DLV_OK && kids) {
				dw_bad_die(ld, c, "a DIE that has no children says it has");
				break;
			}
		}
		if (tag == DW_TAG_member || tag == DW_TAG_inheritance || tag == DW_TAG_variable)
			add_member(ld, c, tag, size);
		if (!ld->err && kind == HM_KIND_STRUCT && !ld->cplusplus && overlaps(ld, base))
			dw_bad_die(ld, c, "member overlaps the member before it");
	}
	if (c)
		dwarf_dealloc_die(c);
}

/* Move the scratch members from `base` to the table as type id's members. */
static int store_members(struct loader *ld, hm_type_id id, size_t base)
{
	hm_type *t;
	size_t n = ld->smembers.n - base;

	if (hm_grow((void **)&ld->t->members.v, &ld->t->members.cap, ld->t->members.n + n,
		    sizeof(hm_member)))
		return dw_set_err(ld, -ENOMEM);
	t = (hm_type *)hm_types_get(ld->t, id);
	t->first = ld->t->members.n;
	t->nr = n;
	if (n)
		memcpy(&ld->t->members.v[t->first], &ld->smembers.v[base], n * sizeof(hm_member));
	ld->t->members.n += n;
	ld->smembers.n = base;
	return 0;
}

/* Anonymous structs and unions: members first, then dedup by content. */
static hm_type_id convert_anon(struct loader *ld, Dwarf_Die die, uint64_t off, hm_type *ty)
{
	size_t base = ld->smembers.n;
	uint64_t hash;
	uint32_t cur;
	hm_type_id id;

	if (dw_map_put(ld, off, IN_PROGRESS))
		return 0;
	read_members(ld, die, ty->declaration || !ty->size ? NULL : &ty->size, ty->kind);
	if (ld->err)
		return 0;
	ty->nr = ld->smembers.n - base;
	id = hm_types_dedup_find(ld->t, ty, NULL, NULL,
				 ld->smembers.v ? &ld->smembers.v[base] : NULL, &hash);
	if (id) {
		ld->smembers.n = base;
		if (dw_map_get(ld, off, &cur) && cur != IN_PROGRESS) {
			/* referenced from inside itself (C++): keep the placeholder */
			*(hm_type *)hm_types_get(ld->t, cur) = *hm_types_get(ld->t, id);
			return cur;
		}
		dw_map_put(ld, off, id);
		return id;
	}
	if (dw_map_get(ld, off, &cur) && cur != IN_PROGRESS) {
		id = cur;
		*(hm_type *)hm_types_get(ld->t, id) = *ty;
	} else {
		id = hm_types_add(ld->t, ty);
	}
	if (!id || store_members(ld, id, base) || hm_types_dedup_insert(ld->t, id, hash) ||
	    dw_map_put(ld, off, id))
		return dw_set_err(ld, -ENOMEM), 0;
	return id;
}

static hm_type_id convert_struct(struct loader *ld, Dwarf_Die die, uint64_t off,
				 const struct die_attrs *d, enum hm_type_kind kind)
{
	hm_type ty = { .kind = kind };
	hm_type_id id;
	uint64_t hash;
	size_t base = ld->smembers.n;

	ty.name = hm_types_intern(ld->t, d->name);
	ty.scope = ty.name ? dw_scope_of(ld, off) : NULL;
	ty.size = d->byte_size;
	ty.alignment = d->alignment;
	ty.decl_file = dw_decl_file(ld, d->decl_file, off);
	ty.decl_line = d->decl_line;
	ty.declaration = d->declaration;
	if (!ty.name && !ty.declaration)
		return convert_anon(ld, die, off, &ty);
	/* named: identity is the header, so a struct met again in another CU
	 * costs one lookup and its members are never read twice */
	id = hm_types_dedup_find(ld->t, &ty, NULL, NULL, NULL, &hash);
	if (id) {
		dw_map_put(ld, off, id);
		return id;
	}
	id = hm_types_add(ld->t, &ty);
	if (!id || hm_types_dedup_insert(ld->t, id, hash) || dw_map_put(ld, off, id)) {
		dw_set_err(ld, -ENOMEM);
		return 0;
	}
	read_members(ld, die, ty.declaration || !d->has_byte_size ? NULL : &ty.size, kind);
	if (ld->err || store_members(ld, id, base))
		return 0;
	return id;
}

static hm_type_id convert_enum(struct loader *ld, Dwarf_Die die, uint64_t off,
			       const struct die_attrs *d)
{
	hm_type ty = { .kind = HM_KIND_ENUM };
	hm_type_id id;
	uint64_t hash;
	size_t base = ld->senums.n;
	int any_signed = 0;
	Dwarf_Die c;

	ty.name = hm_types_intern(ld->t, d->name);
	ty.scope = ty.name ? dw_scope_of(ld, off) : NULL;
	ty.size = d->byte_size;
	ty.decl_file = dw_decl_file(ld, d->decl_file, off);
	ty.decl_line = d->decl_line;
	ty.declaration = d->declaration;
	id = hm_types_dedup_find(ld->t, &ty, NULL, NULL, NULL, &hash);
	if (id) {
		dw_map_put(ld, off, id);
		return id;
	}
	for (c = dw_first_child(ld, die); c && !ld->err; c = dw_next_sibling(ld, c)) {
		struct die_attrs ed;
		hm_enumerator en;
		Dwarf_Half tag = 0;
		Dwarf_Error e = NULL;

		if (dwarf_tag(c, &tag, &e) != DW_DLV_OK) {
			dw_bad(ld, e, "tag");
			break;
		}
		if (tag != DW_TAG_enumerator || dw_read_attrs(ld, c, &ed, 0))
			continue;
		en.name = hm_types_intern(ld->t, ed.name);
		en.value = ed.const_value;
		any_signed |= ed.const_signed && ed.const_value < 0;
		if (hm_vec_push(ld->senums, en) < 0)
			dw_set_err(ld, -ENOMEM);
	}
	if (c)
		dwarf_dealloc_die(c);
	if (ld->err)
		return 0;
	ty.is_signed = any_signed;
	ty.first = ld->t->enums.n;
	ty.nr = ld->senums.n - base;
	for (size_t i = base; i < ld->senums.n; i++)
		if (hm_vec_push(ld->t->enums, ld->senums.v[i]) < 0)
			return dw_set_err(ld, -ENOMEM), 0;
	ld->senums.n = base;
	id = hm_types_add(ld->t, &ty);
	if (!id || hm_types_dedup_insert(ld->t, id, hash))
		return dw_set_err(ld, -ENOMEM), 0;
	dw_map_put(ld, off, id);
	return id;
}

/* name and decl_file interned: from the DIE (dw_convert_die) or from what a
 * worker read of it (dw_convert_typedef) */
static hm_type_id convert_typedef(struct loader *ld, uint64_t off, const struct die_attrs *d,
				  const char *name, const char *decl_file)
{
	hm_type ty = { .kind = HM_KIND_TYPEDEF };

	ty.name = name;
	ty.scope = ty.name ? dw_scope_of(ld, off) : NULL;
	ty.decl_file = decl_file;
	ty.decl_line = d->decl_line;
	ty.alignment = d->alignment;
	/* what it names is part of a typedef's identity: one source line
	 * declares `typedef _ITp __int_type;` for every instantiation of
	 * std::__atomic_base.  Read the target first (a reference back, as
	 * in `typedef struct s s_t` whose members point at s_t, gets the
	 * placeholder finish_cyclic fills). */
	if (dw_map_put(ld, off, IN_PROGRESS))
		return dw_set_err(ld, -ENOMEM), 0;
	ty.target = ref_type(ld, d);
	if (ld->err)
		return 0;
	return finish_cyclic(ld, off, &ty, NULL, NULL);
}

static hm_type_id convert_array(struct loader *ld, Dwarf_Die die, uint64_t off,
				const struct die_attrs *d)
{
	hm_type ty = { .kind = HM_KIND_ARRAY, .vector = d->vector };
	size_t base = ld->sdims.n;
	hm_type_id id;
	Dwarf_Die c;

	if (!d->has_type)	/* an array of nothing: its DW_AT_type was lost */
		return dw_bad_die(ld, die, "an array without DW_AT_type"), 0;
	ty.target = ref_type(ld, d);
	for (c = dw_first_child(ld, die); c && !ld->err; c = dw_next_sibling(ld, c)) {
		struct die_attrs sd;
		Dwarf_Half tag = 0;
		Dwarf_Error e = NULL;
		uint64_t n;

		if (dwarf_tag(c, &tag, &e) != DW_DLV_OK) {
			dw_bad(ld, e, "tag");
			break;
		}
		if (tag != DW_TAG_subrange_type || dw_read_attrs(ld, c, &sd, 0))
			continue;
		if (sd.has_count)
			n = sd.count;
		else if (sd.has_upper && (int64_t)sd.upper_bound == -1)
			n = 0;	/* clang's `x[0]` */
		else if (sd.has_upper)
			n = sd.upper_bound + 1 - (sd.has_lower ? sd.lower_bound : 0);
		else
			n = HM_DIM_FLEXIBLE;
		if (hm_vec_push(ld->sdims, n) < 0)
			dw_set_err(ld, -ENOMEM);
	}
	if (c)
		dwarf_dealloc_die(c);
	if (ld->err)
		return 0;
	ty.nr = ld->sdims.n - base;
	ty.first = ld->t->dims.n;
	{
		uint64_t hash;
		const uint64_t *dims = ld->sdims.v ? &ld->sdims.v[base] : NULL;
		hm_type_id old = hm_types_dedup_find(ld->t, &ty, dims, NULL, NULL, &hash);

		if (old) {
			ld->sdims.n = base;
			dw_map_put(ld, off, old);
			return old;
		}
		for (size_t i = base; i < ld->sdims.n; i++)
			if (hm_vec_push(ld->t->dims, ld->sdims.v[i]) < 0)
				return dw_set_err(ld, -ENOMEM), 0;
		ld->sdims.n = base;
		id = hm_types_add(ld->t, &ty);
		if (!id || hm_types_dedup_insert(ld->t, id, hash))
			return dw_set_err(ld, -ENOMEM), 0;
	}
	dw_map_put(ld, off, id);
	return id;
}

static hm_type_id convert_func(struct loader *ld, Dwarf_Die die, uint64_t off,
			       const struct die_attrs *d)
{
	hm_type ty = { .kind = HM_KIND_FUNC };
	size_t base = ld->sparams.n;
	hm_type_id id, old;
	uint64_t hash;
	Dwarf_Die c;

	ty.target = ref_type(ld, d);
	ty.prototyped = d->prototyped;
	for (c = dw_first_child(ld, die); c && !ld->err; c = dw_next_sibling(ld, c)) {
		struct die_attrs pd;
		hm_type_id ptype;
		Dwarf_Half tag = 0;
		Dwarf_Error e = NULL;

		if (dwarf_tag(c, &tag, &e) != DW_DLV_OK) {
			dw_bad(ld, e, "tag");
			break;
		}
		if (tag == DW_TAG_unspecified_parameters) {
			ty.varargs = 1;
			continue;
		}
		if (tag != DW_TAG_formal_parameter || dw_read_attrs(ld, c, &pd, 0))
			continue;
		if (pd.artificial)
			continue;	/* C++ `this`: not written in the declaration */
		/* convert first: it may grow (and move) the scratch stack */
		ptype = ref_type(ld, &pd);
		if (hm_vec_push(ld->sparams, ptype) < 0)
			dw_set_err(ld, -ENOMEM);
	}
	if (c)
		dwarf_dealloc_die(c);
	if (ld->err)
		return 0;
	ty.nr = ld->sparams.n - base;
	old = hm_types_dedup_find(ld->t, &ty, NULL,
				  ld->sparams.v ? &ld->sparams.v[base] : NULL, NULL, &hash);
	if (old) {
		ld->sparams.n = base;
		dw_map_put(ld, off, old);
		return old;
	}
	ty.first = ld->t->params.n;
	for (size_t i = base; i < ld->sparams.n; i++)
		if (hm_vec_push(ld->t->params, ld->sparams.v[i]) < 0)
			return dw_set_err(ld, -ENOMEM), 0;
	ld->sparams.n = base;
	id = hm_types_add(ld->t, &ty);
	if (!id || hm_types_dedup_insert(ld->t, id, hash))
		return dw_set_err(ld, -ENOMEM), 0;
	dw_map_put(ld, off, id);
	return id;
}

static enum hm_type_kind simple_kind(int tag)
{
	switch (tag) {
	case DW_TAG_pointer_type: return HM_KIND_POINTER;
	case DW_TAG_reference_type: return HM_KIND_REFERENCE;
	case DW_TAG_rvalue_reference_type: return HM_KIND_RVALUE_REFERENCE;
	case DW_TAG_ptr_to_member_type: return HM_KIND_PTR_TO_MEMBER;
	case DW_TAG_const_type: return HM_KIND_CONST;
	case DW_TAG_volatile_type: return HM_KIND_VOLATILE;
	case DW_TAG_restrict_type: return HM_KIND_RESTRICT;
	case DW_TAG_atomic_type: return HM_KIND_ATOMIC;
	default: return HM_KIND_VOID;
	}
}

hm_type_id dw_convert_die(struct loader *ld, Dwarf_Die die, uint64_t off, int tag)
{
	struct die_attrs d;
	hm_type ty = { 0 };
	hm_type_id id;

	if (dw_read_attrs(ld, die, &d, 0))
		return 0;
	ld->nr_converted++;
	switch (tag) {
	case DW_TAG_structure_type:
		return convert_struct(ld, die, off, &d, HM_KIND_STRUCT);
	case DW_TAG_union_type:
		return convert_struct(ld, die, off, &d, HM_KIND_UNION);
	case DW_TAG_class_type:
		return convert_struct(ld, die, off, &d, HM_KIND_CLASS);
	case DW_TAG_enumeration_type:
		return convert_enum(ld, die, off, &d);
	case DW_TAG_typedef:
		return convert_typedef(ld, off, &d, hm_types_intern(ld->t, d.name),
				       dw_decl_file(ld, d.decl_file, off));
	case DW_TAG_array_type:
		return convert_array(ld, die, off, &d);
	case DW_TAG_subroutine_type:
		return convert_func(ld, die, off, &d);
	case DW_TAG_base_type:
	case DW_TAG_unspecified_type:
		ty.kind = tag == DW_TAG_base_type ? HM_KIND_BASE : HM_KIND_UNSPECIFIED;
		ty.name = hm_types_intern(ld->t, d.name);
		ty.size = d.byte_size;
		ty.is_signed = d.encoding == DW_ATE_signed || d.encoding == DW_ATE_signed_char ||
			       d.encoding == DW_ATE_float;
		return finish_simple(ld, off, &ty, NULL, NULL);
	default:
		ty.kind = simple_kind(tag);
		if (ty.kind == HM_KIND_VOID)
			return 0;
		/* mark before following the target so a malformed cycle ends */
		if (dw_map_put(ld, off, IN_PROGRESS))
			return 0;
		ty.target = ref_type(ld, &d);
		if (ty.kind == HM_KIND_PTR_TO_MEMBER && d.has_containing)
			ty.containing = dw_convert_off(ld, d.containing_off);
		if (ty.kind == HM_KIND_POINTER || ty.kind == HM_KIND_REFERENCE ||
		    ty.kind == HM_KIND_RVALUE_REFERENCE)
			ty.size = d.has_byte_size ? d.byte_size : ld->addr_size;
		else if (ty.kind == HM_KIND_PTR_TO_MEMBER) {
			/* Itanium C++ ABI: an offset, or a function pointer plus a
			 * this-adjustment */
			const hm_type *tt = hm_types_get(ld->t, ty.target);

			ty.size = d.has_byte_size ? d.byte_size :
				  (tt && tt->kind == HM_KIND_FUNC ? 2 : 1) * ld->addr_size;
		}
		ty.alignment = d.alignment;
		id = finish_cyclic(ld, off, &ty, NULL, NULL);
		return id;
	}
}

hm_type_id dw_convert_typedef(struct loader *ld, uint64_t off, const struct die_attrs *d,
			      const char *name, const char *decl_file)
{
	ld->nr_converted++;
	return convert_typedef(ld, off, d, name, decl_file);
}

hm_type_id dw_convert_off(struct loader *ld, uint64_t off)
{
	Dwarf_Die die = NULL;
	Dwarf_Error e = NULL;
	Dwarf_Half tag = 0;
	hm_type_id id;

	if (dw_map_get(ld, off, &id)) {
		if (id != IN_PROGRESS)
			return id;
		/* a reference back to a type still being read: hand out the id
		 * it will have (see finish_cyclic) */
		hm_type ph = { .kind = HM_KIND_VOID };

		id = hm_types_add(ld->t, &ph);
		if (!id || dw_map_put(ld, off, id))
			return dw_set_err(ld, -ENOMEM), 0;
		return id;
	}
	if (ld->err || ld->depth > MAX_DEPTH)
		return 0;
	if ((off & ALT_BIT) && !ld->in_alt) {
		struct unit_ctx c;

		if (!ld->alt_dbg)
			return 0;	/* warned about when opening */
		dw_ctx_save(ld, &c);
		dw_enter_alt(ld);
		id = dw_convert_off(ld, off);
		dw_ctx_restore(ld, &c);
		return id;
	}
	if (dwarf_offdie_b(ld->dbg, off & ~ALT_BIT, 1, &die, &e) != DW_DLV_OK) {
		dw_bad(ld, e, "type reference");
		return 0;
	}
	if (dwarf_tag(die, &tag, &e) != DW_DLV_OK) {
		dwarf_dealloc_die(die);
		dw_bad(ld, e, "tag");
		return 0;
	}
	if (dw_leaf_with_children(die, tag)) {
		dw_bad_die(ld, die, "a DIE that has no children says it has");
		dwarf_dealloc_die(die);
		return 0;
	}
	if (!type_tag(tag)) {
		char why[96];

		snprintf(why, sizeof(why), "a DW_AT_type points here, at tag 0x%x, no type", tag);
		dw_bad_die(ld, die, why);
		dwarf_dealloc_die(die);
		return 0;
	}
	ld->depth++;
	id = dw_convert_die(ld, die, off, tag);
	ld->depth--;
	dwarf_dealloc_die(die);
	return id;
}

/* ---- variables ---- */

int dw_variable_attrs(struct loader *ld, Dwarf_Die die, struct die_attrs *dp)
{
	struct die_attrs d;

	if (dw_read_attrs(ld, die, &d, 1) || !d.has_addr)
		return -1;
	if (!d.name && d.has_spec) {
		/* C++ out-of-line definition: name and type live on the declaration */
		Dwarf_Die s = NULL;
		Dwarf_Error e = NULL;
		struct die_attrs sd;

		struct unit_ctx c;
		int rc;

		dw_ctx_save(ld, &c);
		if ((d.spec_off & ALT_BIT) && !ld->in_alt) {
			if (!ld->alt_dbg)
				return -1;
			dw_enter_alt(ld);
		}
		rc = dwarf_offdie_b(ld->dbg, d.spec_off & ~ALT_BIT, 1, &s, &e);
		if (rc != DW_DLV_OK) {
			hm_dwarf_free_error(ld->dbg, e);
			dw_ctx_restore(ld, &c);
			return -1;
		}
		if (!dw_read_attrs(ld, s, &sd, 0)) {
			d.name = sd.name;
			if (!d.has_type) {
				d.has_type = sd.has_type;
				d.type_off = sd.type_off;
			}
			d.external |= sd.external;
			if (!d.decl_file) {
				d.decl_file = sd.decl_file;
				d.decl_line = sd.decl_line;
			}
		}
		dwarf_dealloc_die(s);
		dw_ctx_restore(ld, &c);
	}
	if (!d.name)
		return -1;
	*dp = d;
	return 0;
}

void dw_store_variable(struct loader *ld, const struct die_attrs *d, const char *decl_file)
{
	hm_variable v = { 0 };

	v.name = hm_types_intern(ld->t, d->name);
	v.type = ref_type(ld, d);
	v.addr = d->addr;
	v.has_addr = 1;
	v.decl_file = decl_file;
	v.decl_line = d->decl_line;
	v.external = d->external;
	if (!v.name || hm_vec_push(ld->t->vars, v) < 0)
		dw_set_err(ld, -ENOMEM);
}

/* ---- the names asked for (hm_load_opts.only) ---- */

void dw_remember_name(struct loader *ld, const char *name)
{
	size_t j;

	if ((ld->nseen + 1) * 2 > ld->nseen_slots) {
		size_t n = ld->nseen_slots ? ld->nseen_slots * 2 : 4096;
		const char **slots = calloc(n, sizeof(*slots));

		if (!slots)
			return;	/* suggestions are a nicety */
		for (size_t i = 0; i < ld->nseen_slots; i++) {
			if (!ld->seen[i])
				continue;
			for (j = hm_hash_u64((uintptr_t)ld->seen[i]) & (n - 1); slots[j];
			     j = (j + 1) & (n - 1))
				;
			slots[j] = ld->seen[i];
		}
		free(ld->seen);
		ld->seen = slots;
		ld->nseen_slots = n;
	}
	/* .debug_str is usually merged, so one name is one pointer; duplicates
	 * from unmerged strings only cost a slot */
	for (j = hm_hash_u64((uintptr_t)name) & (ld->nseen_slots - 1); ld->seen[j];
	     j = (j + 1) & (ld->nseen_slots - 1))
		if (ld->seen[j] == name)
			return;
	ld->seen[j] = name;
	ld->nseen++;
}

int dw_wanted(struct loader *ld, const char *name, int aggregate, uint64_t off)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < ld->nr_only; i++) {
		const char *last, *sc;
		size_t len;
		int qual = hm_types_split_name(ld->only[i], &last, &len);

		if (strcmp(last, name))
			continue;
		if (qual) {
			sc = ld->cplusplus ? dw_scope_of(ld, off) : NULL;
			if (ld->found[i] == 2 || (len ? !sc || strlen(sc) != len ||
					     memcmp(sc, ld->only[i], len) : sc != NULL))
				continue;
			return i;
		}
		/* a plain name may mean a class of each of several scopes:
		 * all are loaded, to be told apart (or called ambiguous) */
		if (ld->cplusplus) {
			ld->plain_cxx = 1;
			return i;
		}
		if (!ld->found[i])
			return i;
	}
	/* a .dwo file's names go with its handle, before suggestions are made */
	if (aggregate && (name = ld->in_dwo ? hm_types_intern(ld->t, name) : name))
		dw_remember_name(ld, name);
	return -1;
}

void dw_note_root(struct loader *ld, int tag, hm_type_id id, int want)
{
	if (!id || id == IN_PROGRESS)
		return;
	if (tag == DW_TAG_typedef) {
		const hm_type *to = hm_types_get(ld->t, hm_types_resolve(ld->t, id));

		/* `typedef struct foo foo_t` in a CU that never completes foo:
		 * wait for one that does */
		if (to && to->declaration)
			return;
		if (hm_types_note_typedef(ld->t, id))
			dw_set_err(ld, -ENOMEM);
	} else if (hm_types_get(ld->t, id)->declaration) {
		return;
	} else if (hm_types_note_struct(ld->t, id)) {
		dw_set_err(ld, -ENOMEM);
	}
	if (want >= 0) {
		ld->nr_found += !ld->found[want];
		if (tag != DW_TAG_typedef) {
			ld->found[want] = 2;
		} else if (!ld->found[want]) {
			ld->found[want] = 1;
			/* C++: `typedef basic_string<char> __cow_string` in one
			 * unit, `struct __cow_string` in another; -C prefers the
			 * struct, as the whole file prints it */
			ld->plain_cxx |= ld->cplusplus;
		}
	}
}
