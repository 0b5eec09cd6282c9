/* dwarf-attr: reading the attributes of a DIE into struct die_attrs (and its
 * name alone), and the units' file tables behind DW_AT_decl_file. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf/dwarf-int.h"
#include "dwarf/dwarf-x3.h"
#include "base/diag.h"
#include "elf/binary-lib.h"

static int form_u(struct loader *ld, Dwarf_Attribute a, uint64_t *v)
{
	Dwarf_Unsigned u;
	Dwarf_Signed s;
	Dwarf_Error e = NULL;

	if (dwarf_formudata(a, &u, &e) == DW_DLV_OK) {
		*v = u;
		return 0;
	}
	hm_dwarf_free_error(ld->dbg, e);
	e = NULL;
	if (dwarf_formsdata(a, &s, &e) == DW_DLV_OK) {
		*v = (uint64_t)s;
		return 0;
	}
	hm_dwarf_free_error(ld->dbg, e);
	return -1;
}

/* A section offset: DW_FORM_data4/8 before DWARF 4, DW_FORM_sec_offset
 * since, which libdwarf reads only as a reference.  0, or -1. */
static int form_secoff(Dwarf_Debug dbg, Dwarf_Attribute a, uint64_t *v)
{
	Dwarf_Unsigned u;
	Dwarf_Off o;
	Dwarf_Error e = NULL;

	if (dwarf_formudata(a, &u, &e) == DW_DLV_OK) {
		*v = u;
		return 0;
	}
	hm_dwarf_free_error(dbg, e);
	e = NULL;
	if (dwarf_global_formref(a, &o, &e) == DW_DLV_OK) {
		*v = o;
		return 0;
	}
	hm_dwarf_free_error(dbg, e);
	return -1;
}

/* Section offset attribute `at` of die, in dbg: 0, or -1 if absent or bad. */
static int attr_secoff(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at, uint64_t *v)
{
	Dwarf_Attribute a = NULL;
	Dwarf_Error e = NULL;
	int rc;

	if (dwarf_attr(die, at, &a, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(dbg, e);
		return -1;
	}
	rc = form_secoff(dbg, a, v);
	dwarf_dealloc_attribute(a);
	return rc;
}

static int form_s(struct loader *ld, Dwarf_Attribute a, int64_t *v, int *is_signed)
{
	Dwarf_Half form = 0;
	Dwarf_Signed s;
	Dwarf_Unsigned u;
	Dwarf_Error e = NULL;

	if (dwarf_whatform(a, &form, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(ld->dbg, e);
		return -1;
	}
	if (form == DW_FORM_sdata || form == DW_FORM_implicit_const) {
		if (dwarf_formsdata(a, &s, &e) == DW_DLV_OK) {
			*v = s;
			*is_signed = 1;
			return 0;
		}
	} else if (dwarf_formudata(a, &u, &e) == DW_DLV_OK) {
		*v = (int64_t)u;
		*is_signed = 0;
		return 0;
	}
	hm_dwarf_free_error(ld->dbg, e);
	return -1;
}

/* A reference as a global offset; ALT_BIT marks offsets into the dwz alt
 * file (DW_FORM_GNU_ref_alt / DW_FORM_ref_sup*, or any reference made from
 * inside it). */
static int form_ref(struct loader *ld, Dwarf_Attribute a, uint64_t *off)
{
	Dwarf_Off o;
	Dwarf_Unsigned u;
	Dwarf_Half form = 0;
	Dwarf_Error e = NULL;

	if (dwarf_whatform(a, &form, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(ld->dbg, e);
		return -1;
	}
	if (form == DW_FORM_GNU_ref_alt || form == DW_FORM_ref_sup4 ||
	    form == DW_FORM_ref_sup8) {
		if (dwarf_formudata(a, &u, &e) != DW_DLV_OK) {
			hm_dwarf_free_error(ld->dbg, e);
			e = NULL;
			if (dwarf_global_formref(a, &o, &e) != DW_DLV_OK) {
				hm_dwarf_free_error(ld->dbg, e);
				return -1;
			}
			u = o;
		}
		*off = u | ALT_BIT;
		return 0;
	}
	if (dwarf_global_formref(a, &o, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(ld->dbg, e);
		return -1;
	}
	*off = o | (ld->in_alt ? ALT_BIT : 0);
	return 0;
}

static int form_flag(struct loader *ld, Dwarf_Attribute a)
{
	Dwarf_Bool b = 0;
	Dwarf_Error e = NULL;

	if (dwarf_formflag(a, &b, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(ld->dbg, e);
		return 0;
	}
	return b != 0;
}

static uint64_t uleb(const unsigned char **p, const unsigned char *end)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (*p < end) {
		unsigned char c = *(*p)++;

		if (shift < 64)
			v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
		if (!(c & 0x80))
			break;
	}
	return v;
}

/* Expression bytes of an exprloc or block attribute. */
static int form_expr(struct loader *ld, Dwarf_Attribute a, const unsigned char **p,
		     uint64_t *len)
{
	Dwarf_Half form = 0;
	Dwarf_Error e = NULL;
	Dwarf_Unsigned l;
	Dwarf_Ptr ptr;
	Dwarf_Block *blk;

	if (dwarf_whatform(a, &form, &e) != DW_DLV_OK)
		goto bad;
	if (form == DW_FORM_exprloc) {
		if (dwarf_formexprloc(a, &l, &ptr, &e) != DW_DLV_OK)
			goto bad;
		*p = ptr;
		*len = l;
		return 0;
	}
	if (form == DW_FORM_block1 || form == DW_FORM_block2 || form == DW_FORM_block4 ||
	    form == DW_FORM_block) {
		if (dwarf_formblock(a, &blk, &e) != DW_DLV_OK)
			goto bad;
		*p = blk->bl_data;
		*len = blk->bl_len;
		dwarf_dealloc(ld->dbg, blk, DW_DLA_BLOCK);	/* bl_data points into the section */
		return 0;
	}
	return -1;
bad:
	hm_dwarf_free_error(ld->dbg, e);
	return -1;
}

static void member_location(struct loader *ld, Dwarf_Attribute a, struct die_attrs *d)
{
	const unsigned char *p, *end;
	uint64_t len, v;

	if (form_expr(ld, a, &p, &len) < 0) {
		if (form_u(ld, a, &v) == 0) {
			d->member_loc = v;
			d->has_member_loc = 1;
		}
		return;
	}
	end = p + len;
	d->has_member_loc = 1;
	/* DW_OP_plus_uconst N is a plain offset (DWARF 2 style); anything else
	 * (virtual bases: dup, deref, ...) is computed at run time */
	if (len >= 2 && p[0] == DW_OP_plus_uconst) {
		p++;
		d->member_loc = uleb(&p, end);
		if (p == end)
			return;
	}
	if (len >= 1 && p[0] >= DW_OP_lit0 && p[0] <= DW_OP_lit31 && len == 1) {
		d->member_loc = p[0] - DW_OP_lit0;
		return;
	}
	d->member_loc = 0;
	d->member_loc_expr = 1;
}

static int dwo_addr(struct loader *ld, uint64_t idx, uint64_t *addr)
{
	size_t size;
	const unsigned char *p = hmi_binary_section(ld->bin, ".debug_addr", &size);
	uint64_t at = ld->dwo_addr_base + idx * ld->addr_size, v = 0;
	int big = hmi_binary_big_endian(ld->bin);

	if (!p || idx > size || at > size || size - at < ld->addr_size)
		return -1;
	for (unsigned i = 0; i < ld->addr_size; i++)
		v |= (uint64_t)p[at + i] << (8 * (big ? ld->addr_size - 1 - i : i));
	*addr = v;
	return 0;
}

static void var_location(struct loader *ld, Dwarf_Attribute a, struct die_attrs *d)
{
	const unsigned char *p, *end;
	uint64_t len, idx, v = 0;

	if (form_expr(ld, a, &p, &len) < 0 || !len)
		return;
	end = p + len;
	if (p[0] == DW_OP_addr && len >= 1u + ld->addr_size) {
		for (unsigned i = 0; i < ld->addr_size; i++)
			v |= (uint64_t)p[1 + i] << (8 * (hmi_binary_big_endian(ld->bin) ?
							  ld->addr_size - 1 - i : i));
		d->addr = v;
		d->has_addr = 1;
	} else if (p[0] == DW_OP_addrx || p[0] == DW_OP_GNU_addr_index) {
		Dwarf_Unsigned addr;
		Dwarf_Error e = NULL;

		p++;
		idx = uleb(&p, end);
		if (ld->in_dwo) {
			/* a .dwo's index: the executable's .debug_addr holds the
			 * table, at the skeleton's DW_AT_addr_base */
			d->has_addr = dwo_addr(ld, idx, &d->addr) == 0;
		} else if (ld->cu_die &&
		    dwarf_debug_addr_index_to_addr(ld->cu_die, idx, &addr, &e) == DW_DLV_OK) {
			d->addr = addr;
			d->has_addr = 1;
		} else {
			hm_dwarf_free_error(ld->dbg, e);
		}
	}
}

/* The DWARF file the loader reads now, for its sections as libdwarf
 * sees them (relocated in ET_REL files). */
static struct hm_dwarf_obj *cur_obj(struct loader *ld, Dwarf_Debug dbg, hm_binary **bin)
{
	if (ld->in_dwo && dbg == ld->dbg) {
		*bin = ld->dwo_bin;
		return ld->dwo_obj;
	}
	if (dbg == ld->alt_dbg) {
		*bin = ld->alt_bin;
		return ld->alt_obj;
	}
	*bin = ld->bin;
	return ld->obj;
}

/* The line table and string sections of dbg's file (the main binary, the
 * dwz alt file or, while a .dwo is read, its .dwo sections) as libdwarf
 * reads them: an ET_REL file's line_strp and string offsets are
 * relocations. */
static hm_binary *line_secs(struct loader *ld, Dwarf_Debug dbg, struct hm_dwl_secs *s)
{
	hm_binary *b;
	struct hm_dwarf_obj *o = cur_obj(ld, dbg, &b);
	int dwo = ld->in_dwo && dbg == ld->dbg;

	memset(s, 0, sizeof(*s));
	s->big_endian = hmi_binary_big_endian(b) == 1;
	if (!o)
		return b;
	s->line = hm_dwarf_obj_section(o, dwo ? ".debug_line.dwo" : ".debug_line", &s->nline);
	s->str = hm_dwarf_obj_section(o, dwo ? ".debug_str.dwo" : ".debug_str", &s->nstr);
	s->str_offsets = hm_dwarf_obj_section(o, dwo ? ".debug_str_offsets.dwo" :
					      ".debug_str_offsets", &s->nstr_offsets);
	if (!dwo)
		s->line_str = hm_dwarf_obj_section(o, ".debug_line_str", &s->nline_str);
	return b;
}

/* String idx of the unit's string offsets table (DW_FORM_strx*), read
 * here for the indexes dwarf-x3 splits in two; NULL if out of range. */
static const char *strx_string(struct loader *ld, uint64_t idx)
{
	struct hm_dwl_secs s;

	line_secs(ld, ld->dbg, &s);
	return hm_dwl_strx(&s, ld->stroff_base, 4, idx);
}

uint64_t dw_stroff_base(struct loader *ld, Dwarf_Die cu)
{
	uint64_t v;

	/* past the table's header: a split unit has no attribute */
	return attr_secoff(ld->dbg, cu, DW_AT_str_offsets_base, &v) ? 8 : v;
}

/* The second half of a split three-byte index (dwarf-x3.h): attribute at
 * holds its last byte, low the first two. */
static void x3_attr(struct loader *ld, Dwarf_Attribute a, Dwarf_Half at, uint64_t low,
		    struct die_attrs *d)
{
	uint64_t high = 0;
	const char *s;

	if (form_u(ld, a, &high))
		return;
	s = strx_string(ld, hm_x3_index(low, high, hmi_binary_big_endian(ld->bin) == 1));
	if (at == DW_AT_name)
		d->name = s;
	else if (at == DW_AT_comp_dir)
		d->comp_dir = s;
	else if (at == DW_AT_dwo_name || at == DW_AT_GNU_dwo_name)
		d->dwo_name = s;
	/* DW_FORM_addrx3 (low_pc and the like): nothing the loader reads */
}

/* The class of a form (DWARF 5, 7.5.5), for the check that an attribute's
 * form fits it: a flipped form byte in .debug_abbrev reads the DIE's bytes
 * as something else. */
enum form_class { FC_OTHER, FC_STRING, FC_CONST, FC_REF, FC_FLAG, FC_EXPR };

static enum form_class form_class(Dwarf_Half form)
{
	switch (form) {
	case DW_FORM_string: case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_strx:
	case DW_FORM_strx1: case DW_FORM_strx2: case DW_FORM_strx3: case DW_FORM_strx4:
	case DW_FORM_strp_sup: case DW_FORM_GNU_str_index: case DW_FORM_GNU_strp_alt:
		return FC_STRING;
	case DW_FORM_data1: case DW_FORM_data2: case DW_FORM_data4: case DW_FORM_data8:
	case DW_FORM_data16: case DW_FORM_sdata: case DW_FORM_udata:
	case DW_FORM_implicit_const:
		return FC_CONST;
	case DW_FORM_ref1: case DW_FORM_ref2: case DW_FORM_ref4: case DW_FORM_ref8:
	case DW_FORM_ref_udata: case DW_FORM_ref_addr: case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup4: case DW_FORM_ref_sup8: case DW_FORM_GNU_ref_alt:
		return FC_REF;
	case DW_FORM_flag: case DW_FORM_flag_present:
		return FC_FLAG;
	case DW_FORM_exprloc: case DW_FORM_block: case DW_FORM_block1: case DW_FORM_block2:
	case DW_FORM_block4: case DW_FORM_sec_offset:
		return FC_EXPR;
	}
	return FC_OTHER;
}

/* Whether the form of attribute `at` is one DWARF allows it; attributes
 * the loader does not read pass. */
static int form_fits(Dwarf_Half at, enum form_class c)
{
	switch (at) {
	case DW_AT_name:
		return c == FC_STRING;
	case DW_AT_byte_size: case DW_AT_bit_size: case DW_AT_data_bit_offset:
	case DW_AT_alignment: case DW_AT_data_member_location:
		return c == FC_CONST || c == FC_EXPR || c == FC_REF;
	case DW_AT_decl_file: case DW_AT_decl_line: case DW_AT_encoding:
	case DW_AT_accessibility:
		return c == FC_CONST;
	case DW_AT_type: case DW_AT_containing_type: case DW_AT_specification:
	case DW_AT_import:
		return c == FC_REF;
	case DW_AT_declaration: case DW_AT_external: case DW_AT_artificial:
		return c == FC_FLAG;
	}
	return 1;
}

static const char *at_name(Dwarf_Half at)
{
	const char *n = NULL;

	return dwarf_get_AT_name(at, &n) == DW_DLV_OK && n ? n : "attribute";
}

/* A reference by a unit-relative form (DW_FORM_ref1 ... ref_udata) must
 * land inside the unit of the DIE that holds it. */
static int ref_in_unit(struct loader *ld, Dwarf_Die die, Dwarf_Half form, uint64_t off)
{
	Dwarf_Off start = 0, len = 0;
	Dwarf_Error e = NULL;

	if (form != DW_FORM_ref1 && form != DW_FORM_ref2 && form != DW_FORM_ref4 &&
	    form != DW_FORM_ref8 && form != DW_FORM_ref_udata)
		return 1;
	if (dwarf_die_CU_offset_range(die, &start, &len, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(ld->dbg, e);
		return 1;
	}
	off &= ~ALT_BIT;
	return off >= start && off - start < len;
}

int dw_read_attrs(struct loader *ld, Dwarf_Die die, struct die_attrs *d, int want_loc)
{
	char why[200] = "";
	Dwarf_Attribute *list = NULL;
	Dwarf_Signed n = 0;
	Dwarf_Error e = NULL;
	uint64_t x3_low = 0;
	int rc, sgn, x3_next = 0;

	memset(d, 0, sizeof(*d));
	rc = dwarf_attrlist(die, &list, &n, &e);
	if (rc == DW_DLV_NO_ENTRY)
		return 0;
	if (rc != DW_DLV_OK)
		return dw_bad(ld, e, "attributes");
	for (Dwarf_Signed i = 0; i < n; i++) {
		Dwarf_Attribute a = list[i];
		Dwarf_Half at = 0;
		char *s;
		uint64_t v;

		if (dwarf_whatattr(a, &at, &e) != DW_DLV_OK) {
			hm_dwarf_free_error(ld->dbg, e);
			e = NULL;
			dwarf_dealloc_attribute(a);
			continue;
		}
		if (at == HM_AT_X3_LOW || x3_next) {
			/* a split index: its first two bytes, then its attribute */
			if (x3_next)
				x3_attr(ld, a, at, x3_low, d);
			x3_next = at == HM_AT_X3_LOW && !form_u(ld, a, &x3_low);
			dwarf_dealloc_attribute(a);
			continue;
		}
		/* DW_AT_* of DWARF 5 (up to DW_AT_loclists_base) and the
		 * vendors' range: another code is a flipped .debug_abbrev byte,
		 * and the attribute it stood for (a name) would be lost */
		if (!why[0] && !(at >= 0x01 && at <= 0x8c) && !(at >= 0x2000 && at <= 0x3fff))
			snprintf(why, sizeof(why), "unknown attribute 0x%x", at);
		if (!why[0]) {
			Dwarf_Half form = 0;

			if (dwarf_whatform(a, &form, &e) != DW_DLV_OK) {
				hm_dwarf_free_error(ld->dbg, e), e = NULL;
			} else if (!(ld->x3 && at == DW_AT_name) &&
				   !form_fits(at, form_class(form))) {
				snprintf(why, sizeof(why), "form 0x%x does not fit %s", form,
					 at_name(at));
			}
		}
		switch (at) {
		case DW_AT_name:
			if (dwarf_formstring(a, &s, &e) == DW_DLV_OK) {
				d->name = s;
			} else {
				/* a string offset outside .debug_str, say */
				if (!why[0] && !ld->x3)
					snprintf(why, sizeof(why), "DW_AT_name: %s",
						 e ? dwarf_errmsg(e) : "no string");
				hm_dwarf_free_error(ld->dbg, e), e = NULL;
			}
			break;
		case DW_AT_comp_dir:
		case DW_AT_dwo_name:
		case DW_AT_GNU_dwo_name:
			if (dwarf_formstring(a, &s, &e) != DW_DLV_OK)
				hm_dwarf_free_error(ld->dbg, e), e = NULL;
			else if (at == DW_AT_comp_dir)
				d->comp_dir = s;
			else
				d->dwo_name = s;
			break;
		case DW_AT_addr_base:
		case DW_AT_GNU_addr_base:
			form_secoff(ld->dbg, a, &d->addr_base);
			break;
		case DW_AT_byte_size:
			d->has_byte_size = form_u(ld, a, &d->byte_size) == 0;
			break;
		case DW_AT_bit_size:
			d->has_bit_size = form_u(ld, a, &d->bit_size) == 0;
			break;
		case DW_AT_data_bit_offset:
			d->has_data_bit_offset = form_u(ld, a, &d->data_bit_offset) == 0;
			break;
		case DW_AT_bit_offset:
			d->has_bit_offset = form_s(ld, a, &d->bit_offset, &sgn) == 0;
			break;
		case DW_AT_data_member_location:
			member_location(ld, a, d);
			break;
		case DW_AT_alignment:
			form_u(ld, a, &d->alignment);
			break;
		case DW_AT_type:
			d->has_type = form_ref(ld, a, &d->type_off) == 0;
			if (!d->has_type && !why[0])
				snprintf(why, sizeof(why), "DW_AT_type: a reference that "
					 "cannot be read");
			if (d->has_type && !why[0]) {
				Dwarf_Half form = 0;

				if (dwarf_whatform(a, &form, &e) != DW_DLV_OK)
					hm_dwarf_free_error(ld->dbg, e), e = NULL;
				else if (!ref_in_unit(ld, die, form, d->type_off))
					snprintf(why, sizeof(why), "DW_AT_type: reference to "
						 "offset 0x%llx, outside the unit",
						 (unsigned long long)(d->type_off & ~ALT_BIT));
			}
			break;
		case DW_AT_containing_type:
			d->has_containing = form_ref(ld, a, &d->containing_off) == 0;
			break;
		case DW_AT_specification:
			d->has_spec = form_ref(ld, a, &d->spec_off) == 0;
			break;
		case DW_AT_import:
			d->has_import = form_ref(ld, a, &d->import_off) == 0;
			break;
		case DW_AT_count:
			d->has_count = form_u(ld, a, &d->count) == 0;
			break;
		case DW_AT_upper_bound:
			if (form_s(ld, a, (int64_t *)&v, &sgn) == 0) {
				d->upper_bound = v;
				d->has_upper = 1;
			} else {
				d->upper_is_expr = 1;	/* VLA: bound is an expression */
			}
			break;
		case DW_AT_lower_bound:
			d->has_lower = form_u(ld, a, &d->lower_bound) == 0;
			break;
		case DW_AT_decl_file:
			form_u(ld, a, &d->decl_file);
			break;
		case DW_AT_decl_line:
			form_u(ld, a, &d->decl_line);
			break;
		case DW_AT_encoding:
			form_u(ld, a, &d->encoding);
			break;
		case DW_AT_const_value:
			if (form_s(ld, a, &d->const_value, &sgn) == 0)
				d->const_signed = sgn;
			break;
		case DW_AT_declaration:
			d->declaration = form_flag(ld, a);
			break;
		case DW_AT_external:
			d->external = form_flag(ld, a);
			break;
		case DW_AT_artificial:
			d->artificial = form_flag(ld, a);
			break;
		case DW_AT_prototyped:
			d->prototyped = form_flag(ld, a);
			break;
		case DW_AT_GNU_vector:
			d->vector = form_flag(ld, a);
			break;
		case DW_AT_accessibility:
			form_u(ld, a, &d->accessibility);
			break;
		case DW_AT_virtuality:
			d->virtuality = 1;
			break;
		case DW_AT_location:
			if (want_loc)
				var_location(ld, a, d);
			break;
		default:
			break;
		}
		dwarf_dealloc_attribute(a);
	}
	dwarf_dealloc(ld->dbg, list, DW_DLA_LIST);
	if (why[0])
		return dw_bad_die(ld, die, why);
	/* Layout works in bits (value * 8, int64): bound what no real type has
	 * (1 TiB) so corrupt sizes and offsets cannot overflow downstream. */
	if (d->byte_size >> 40 || d->bit_size >> 43 || d->data_bit_offset >> 43 ||
	    d->member_loc >> 40 || d->bit_offset > (1LL << 43) || d->bit_offset < -(1LL << 43) ||
	    d->alignment >> 40)
		return dw_bad(ld, NULL, "size or offset out of range");
	return 0;
}

void dw_ftab_clear(struct ftab *f)
{
	hm_dwl_unit_free(&f->u);
	free(f->files);
	memset(f, 0, sizeof(*f));
}

/* DW_AT_stmt_list and DW_AT_comp_dir of a unit DIE of dbg. */
static int unit_line_attrs(Dwarf_Debug dbg, Dwarf_Die cu, uint64_t *stmt, const char **comp_dir)
{
	Dwarf_Attribute a = NULL;
	Dwarf_Error e = NULL;
	char *s;

	*comp_dir = NULL;
	if (dwarf_attr(cu, DW_AT_comp_dir, &a, &e) == DW_DLV_OK) {
		if (dwarf_formstring(a, &s, &e) == DW_DLV_OK)
			*comp_dir = s;
		dwarf_dealloc_attribute(a);
	}
	hm_dwarf_free_error(dbg, e);
	return attr_secoff(dbg, cu, DW_AT_stmt_list, stmt) ? -ENOENT : 0;
}

/* Read the line table header at `off` into f; a malformed one leaves f
 * without files and is reported once per load, since what it costs is
 * only the declaration files of the unit's types. */
static void ftab_read(struct loader *ld, Dwarf_Debug dbg, uint64_t off, struct ftab *f)
{
	struct hm_dwl_secs s;
	hm_binary *b = line_secs(ld, dbg, &s);
	const char *what;
	int rc = hm_dwl_unit_read(&s, off, &f->u, &what);

	if (rc == -ENOMEM) {
		dw_set_err(ld, rc);
	} else if (rc && !ld->warned_line) {
		ld->warned_line = 1;
		hm_diag(HM_DIAG_WARNING, "%s: %s: %s at offset 0x%llx; declaration files "
			"of its types are unknown", hmi_binary_path(b),
			s.line ? (b == ld->dwo_bin ? ".debug_line.dwo" : ".debug_line") :
			"no line table", what, (unsigned long long)off);
	}
	if (!rc && !(f->files = calloc(f->u.nfiles ? f->u.nfiles : 1, sizeof(*f->files)))) {
		dw_set_err(ld, -ENOMEM);
		hm_dwl_unit_free(&f->u);
	}
}

/* A split unit's files: its .debug_line.dwo holds only a file table; clang
 * writes none, and the skeleton's line table in the executable serves. */
static void ftab_dwo(struct loader *ld, struct ftab *f)
{
	size_t n;
	Dwarf_Die sk = NULL;
	Dwarf_Error e = NULL;
	uint64_t stmt;
	const char *cd;

	f->comp_dir = ld->dwo_comp_dir;
	if (hmi_binary_section(ld->dwo_bin, ".debug_line.dwo", &n)) {
		ftab_read(ld, ld->dbg, 0, f);
		return;
	}
	if (dwarf_offdie_b(ld->main_dbg, ld->dwo_skel_off, 1, &sk, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(ld->main_dbg, e);
		return;
	}
	if (!unit_line_attrs(ld->main_dbg, sk, &stmt, &cd)) {
		f->comp_dir = cd;
		ftab_read(ld, ld->main_dbg, stmt, f);
	}
	dwarf_dealloc_die(sk);
}

/* The file table of the unit whose DIE is at cu_die_off in dbg. */
static struct ftab *ftab_get(struct loader *ld, Dwarf_Debug dbg, uint64_t cu_die_off,
			     Dwarf_Die cu_die)
{
	struct ftab *f;
	Dwarf_Die own = NULL;
	Dwarf_Error e = NULL;
	uint64_t stmt;

	for (unsigned i = 0; i < NR_FTABS; i++)
		if (ld->ftabs[i].dbg == dbg && ld->ftabs[i].cu_die_off == cu_die_off)
			return &ld->ftabs[i];
	f = &ld->ftabs[ld->next_ftab++ % NR_FTABS];
	dw_ftab_clear(f);
	f->dbg = dbg;
	f->cu_die_off = cu_die_off;
	if (ld->in_dwo && dbg == ld->dbg) {
		ftab_dwo(ld, f);
		return f;
	}
	if (!cu_die) {
		if (dwarf_offdie_b(dbg, cu_die_off, 1, &own, &e) != DW_DLV_OK) {
			hm_dwarf_free_error(dbg, e);
			return f;
		}
		cu_die = own;
	}
	if (!unit_line_attrs(dbg, cu_die, &stmt, &f->comp_dir))
		ftab_read(ld, dbg, stmt, f);
	if (own)
		dwarf_dealloc_die(own);
	return f;
}

/* hm_dwl_path() of file idx of f, interned: a unit's file entry is a name
 * and a directory of the sections' strings (DWARF 5: .debug_line_str,
 * shared by every unit), so the same three strings make the same path in
 * each unit that declares something in that header.  Not for a .dwo, whose
 * sections go with its file, unit after unit. */
static const char *file_path(struct loader *ld, struct ftab *f, uint64_t idx)
{
	const struct hm_dwl_file *e = &f->u.files[idx];
	const char *dir = e->dir == f->u.comp_dir ? NULL : e->dir;
	const char *cd = f->comp_dir ? f->comp_dir : f->u.comp_dir, *path;
	char buf[4096];
	size_t j = 0;

	if (!e->name)
		return NULL;
	if (!ld->in_dwo) {
		if ((ld->npaths_used + 1) * 2 > ld->npaths) {
			size_t n = ld->npaths ? ld->npaths * 2 : 1 << 10;
			struct path_slot *v = calloc(n, sizeof(*v));

			if (!v)
				return dw_set_err(ld, -ENOMEM), NULL;
			for (size_t i = 0; i < ld->npaths; i++) {
				if (!ld->paths[i].name)
					continue;
				for (j = hm_hash_u64((uintptr_t)ld->paths[i].name ^
						     hm_hash_u64((uintptr_t)ld->paths[i].dir ^
								 (uintptr_t)ld->paths[i].comp_dir << 1)) &
					 (n - 1);
				     v[j].name; j = (j + 1) & (n - 1))
					;
				v[j] = ld->paths[i];
			}
			free(ld->paths);
			ld->paths = v;
			ld->npaths = n;
		}
		for (j = hm_hash_u64((uintptr_t)e->name ^
				     hm_hash_u64((uintptr_t)dir ^ (uintptr_t)cd << 1)) &
			 (ld->npaths - 1);
		     ld->paths[j].name; j = (j + 1) & (ld->npaths - 1))
			if (ld->paths[j].name == e->name && ld->paths[j].dir == dir &&
			    ld->paths[j].comp_dir == cd)
				return ld->paths[j].path;
	}
	path = hm_dwl_path(&f->u, idx, f->comp_dir, buf, sizeof(buf));
	if (path && !(path = hm_types_intern(ld->t, path)))
		return dw_set_err(ld, -ENOMEM), NULL;
	if (path && !ld->in_dwo) {
		ld->paths[j] = (struct path_slot){ e->name, dir, cd, path };
		ld->npaths_used++;
	}
	return path;
}

/* decl_file `idx` of the DIE at `die_off` (in the current dbg). */
const char *dw_decl_file(struct loader *ld, uint64_t idx, uint64_t die_off)
{
	struct ftab *f;
	uint64_t off = die_off & ~ALT_BIT;

	if (off >= ld->cu_start && off < ld->cu_end) {
		f = ftab_get(ld, ld->dbg, ld->cu_die_off, ld->cu_die);
	} else {
		/* a DIE of another unit (dwz partial units, the alt file) */
		Dwarf_Die die = NULL;
		Dwarf_Off cu_off = 0;
		Dwarf_Error e = NULL;

		if (dwarf_offdie_b(ld->dbg, off, 1, &die, &e) != DW_DLV_OK ||
		    dwarf_CU_dieoffset_given_die(die, &cu_off, &e) != DW_DLV_OK) {
			hm_dwarf_free_error(ld->dbg, e);
			if (die)
				dwarf_dealloc_die(die);
			return NULL;
		}
		dwarf_dealloc_die(die);
		f = ftab_get(ld, ld->dbg, cu_off, NULL);
	}
	if (!f->files || idx >= f->u.nfiles || ld->err)
		return NULL;
	if (!f->files[idx])
		f->files[idx] = file_path(ld, f, idx);
	return f->files[idx];
}

void dw_forget_dbg(struct loader *ld, Dwarf_Debug dbg)
{
	for (unsigned i = 0; i < NR_FTABS; i++)
		if (ld->ftabs[i].dbg == dbg)
			dw_ftab_clear(&ld->ftabs[i]);
}

/* A DIE's name, NULL if it has none (or it cannot be read). */
const char *dw_die_name(struct loader *ld, Dwarf_Die die)
{
	char *name = NULL;
	Dwarf_Error e = NULL;
	struct die_attrs d;
	int rc;

	if (ld->x3)	/* names may be split indexes: the slow, sure way */
		return dw_read_attrs(ld, die, &d, 0) ? NULL : d.name;
	rc = dwarf_diename(die, &name, &e);
	if (rc == DW_DLV_ERROR) {
		/* a name that is there but unreadable (a string offset past
		 * .debug_str): the DIE would read as anonymous, and vanish */
		char why[200];

		snprintf(why, sizeof(why), "DW_AT_name: %s", e ? dwarf_errmsg(e) : "unreadable");
		hm_dwarf_free_error(ld->dbg, e);
		dw_bad_die(ld, die, why);
	}
	return rc == DW_DLV_OK ? name : NULL;
}
