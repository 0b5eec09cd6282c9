/* Which variables and parameters are where at a PC (dwarf-scope.h).
 *
 * hm_scopes_open() reads only the compile units' headers and PC ranges
 * (cheap even for a vmlinux); the first lookup of a PC in a unit walks that
 * unit's subprograms, lexical blocks and inlined subroutines once, decodes
 * the locations of their variables and flattens the nested PC ranges into
 * sorted, disjoint segments naming the innermost scope, so every later
 * lookup is two binary searches and a walk up the scope's parents.
 * Ranges (.debug_ranges, .debug_rnglists) are read here, bounded; location
 * lists through libdwarf. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf/dwarf-scope.h"
#include "dwarf/dwarf-compat.h"
#include "base/diag.h"
#include "base/util.h"

#define MAX_SCOPE_DEPTH 256	/* nesting of DIEs walked; deeper is corrupt */
#define MAX_REF_HOPS 16		/* abstract_origin / specification chains */
#define MAX_TYPE_HOPS 64	/* typedef / qualifier / pointer chains */
#define MAX_LOC_ENTRIES (1u << 20)

#ifndef DW_FORM_rnglistx
#define DW_FORM_rnglistx 0x23
#endif
#ifndef DW_FORM_loclistx
#define DW_FORM_loclistx 0x22
#endif
#ifndef DW_AT_rnglists_base
#define DW_AT_rnglists_base 0x74
#endif
#ifndef DW_AT_addr_base
#define DW_AT_addr_base 0x73
#endif
#ifndef DW_TAG_immutable_type
#define DW_TAG_immutable_type 0x4b
#endif
#ifndef DW_OP_entry_value
#define DW_OP_entry_value 0xa3
#endif
#ifndef DW_OP_GNU_entry_value
#define DW_OP_GNU_entry_value 0xf3
#endif
#ifndef DW_LLE_default_location
#define DW_LLE_default_location 0x05
#endif

struct range {
	uint64_t lo, hi;
};

struct sloc {			/* where a variable is over [lo, hi) */
	uint64_t lo, hi;
	int64_t off;
	int reg;
	enum hm_vloc_kind kind;
};

struct svar {
	const char *name;
	uint32_t scope, loc_first, nloc;
	unsigned is_param : 1;
	unsigned ptr_depth;
	const char *record;
	int record_kind;
	uint64_t record_size;
	uint32_t order;		/* DIE order, for a stable sort by scope */
};

struct scope {
	const char *func;
	int32_t parent;		/* -1 for a subprogram */
	unsigned depth;
	unsigned inlined : 1, fb_cfa : 1;
	int fb_reg;
	uint32_t var_first, nvars;
};

struct seg {			/* [lo, hi): innermost scope */
	uint64_t lo, hi;
	uint32_t scope;
};

struct ivl {			/* a scope's range, for building segments */
	uint64_t lo, hi;
	uint32_t scope;
	unsigned depth;
};

struct cu {
	uint64_t die_off;
	unsigned version, addr_size;
	uint64_t base, addr_base, rnglists_base;
	int has_rnglists_base;
	int state;		/* 0 not built, 1 built, <0 error (negative errno) */
	struct scope *scopes;
	size_t nscopes, cscopes;
	struct svar *vars;
	size_t nvars, cvars;
	struct sloc *locs;
	size_t nlocs, clocs;
	struct seg *segs;
	size_t nsegs;
};

struct curange {
	uint64_t lo, hi;
	uint32_t cu;
};

struct hm_scopes {
	hm_binary *bin;
	const char *path;
	Dwarf_Debug dbg;
	struct hm_dwarf_obj *obj;
	int big;
	struct cu *cus;
	size_t ncus, ccus;
	struct curange *cr;
	size_t ncr, ccr;
	struct hm_scope_var *out;
	size_t cout;
	/* scratch */
	struct range *rg;
	size_t nrg, crg;
	struct ivl *iv;
	size_t niv, civ;
	const unsigned char *ranges, *rnglists, *addr;
	size_t ranges_sz, rnglists_sz, addr_sz;
};

static int bad(hm_scopes *s, Dwarf_Error e, const char *what)
{
	hm_diag(HM_DIAG_ERROR, "%s: corrupt DWARF: %s%s%s", s->path, what, e ? ": " : "",
		e ? dwarf_errmsg(e) : "");
	hm_dwarf_free_error(s->dbg, e);
	return -EBADMSG;
}

#define GROW(s, arr, n, cap)							\
	hm_grow((void **)&(arr), &(cap), (n) + 1, sizeof(*(arr)))

/* ---- reading sections, bounded ---- */

static int rd_u(const hm_scopes *s, const unsigned char *p, size_t sz, size_t *pos, unsigned w,
		uint64_t *v)
{
	uint64_t x = 0;

	if (*pos > sz || sz - *pos < w)
		return -1;
	for (unsigned i = 0; i < w; i++)
		x |= (uint64_t)p[*pos + (s->big ? w - 1 - i : i)] << (8 * i);
	*pos += w;
	*v = x;
	return 0;
}

static int rd_uleb(const unsigned char *p, size_t sz, size_t *pos, uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned shift = 0; *pos < sz; shift += 7) {
		unsigned char b = p[(*pos)++];

		if (shift < 64)
			x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return 0;
		}
		if (shift > 70)
			return -1;
	}
	return -1;
}

static int debug_addr(hm_scopes *s, const struct cu *c, uint64_t idx, uint64_t *a)
{
	size_t pos;

	if (!s->addr || idx > s->addr_sz / c->addr_size)
		return -1;
	pos = c->addr_base + idx * c->addr_size;
	return rd_u(s, s->addr, s->addr_sz, &pos, c->addr_size, a);
}

static int add_range(hm_scopes *s, uint64_t lo, uint64_t hi)
{
	/* an empty range, or code the linker discarded (address 0 in a
	 * linked file), covers nothing */
	if (lo >= hi || lo == 0)
		return 0;
	if (GROW(s, s->rg, s->nrg, s->crg))
		return -ENOMEM;
	s->rg[s->nrg].lo = lo;
	s->rg[s->nrg++].hi = hi;
	return 0;
}

/* DWARF 2-4 .debug_ranges at off. */
static int read_ranges(hm_scopes *s, const struct cu *c, uint64_t off)
{
	uint64_t base = c->base, all = c->addr_size == 8 ? UINT64_MAX : UINT32_MAX;
	size_t pos = off;

	if (!s->ranges || off >= s->ranges_sz)
		return bad(s, NULL, "DW_AT_ranges past .debug_ranges");
	for (;;) {
		uint64_t a, b;

		if (rd_u(s, s->ranges, s->ranges_sz, &pos, c->addr_size, &a) ||
		    rd_u(s, s->ranges, s->ranges_sz, &pos, c->addr_size, &b))
			return bad(s, NULL, "unterminated range list in .debug_ranges");
		if (!a && !b)
			return 0;
		if (a == all) {
			base = b;
			continue;
		}
		if (add_range(s, base + a, base + b))
			return -ENOMEM;
	}
}

/* DWARF 5 .debug_rnglists at off. */
static int read_rnglists(hm_scopes *s, const struct cu *c, uint64_t off)
{
	const unsigned char *p = s->rnglists;
	size_t sz = s->rnglists_sz, pos = off;
	uint64_t base = c->base;
	unsigned w = c->addr_size;

	if (!p || off >= sz)
		return bad(s, NULL, "DW_AT_ranges past .debug_rnglists");
	while (pos < sz) {
		uint64_t a, b, lo, hi;
		unsigned kind = p[pos++];
		int e = 0;

		switch (kind) {
		case 0:		/* DW_RLE_end_of_list */
			return 0;
		case 1:		/* DW_RLE_base_addressx */
			e = rd_uleb(p, sz, &pos, &a) || debug_addr(s, c, a, &base);
			break;
		case 2:		/* DW_RLE_startx_endx */
			e = rd_uleb(p, sz, &pos, &a) || rd_uleb(p, sz, &pos, &b) ||
			    debug_addr(s, c, a, &lo) || debug_addr(s, c, b, &hi);
			if (!e && add_range(s, lo, hi))
				return -ENOMEM;
			break;
		case 3:		/* DW_RLE_startx_length */
			e = rd_uleb(p, sz, &pos, &a) || rd_uleb(p, sz, &pos, &b) ||
			    debug_addr(s, c, a, &lo);
			if (!e && add_range(s, lo, lo + b))
				return -ENOMEM;
			break;
		case 4:		/* DW_RLE_offset_pair */
			e = rd_uleb(p, sz, &pos, &a) || rd_uleb(p, sz, &pos, &b);
			if (!e && add_range(s, base + a, base + b))
				return -ENOMEM;
			break;
		case 5:		/* DW_RLE_base_address */
			e = rd_u(s, p, sz, &pos, w, &base);
			break;
		case 6:		/* DW_RLE_start_end */
			e = rd_u(s, p, sz, &pos, w, &lo) || rd_u(s, p, sz, &pos, w, &hi);
			if (!e && add_range(s, lo, hi))
				return -ENOMEM;
			break;
		case 7:		/* DW_RLE_start_length */
			e = rd_u(s, p, sz, &pos, w, &lo) || rd_uleb(p, sz, &pos, &b);
			if (!e && add_range(s, lo, lo + b))
				return -ENOMEM;
			break;
		default:
			return bad(s, NULL, "unknown range list entry in .debug_rnglists");
		}
		if (e)
			return bad(s, NULL, "malformed range list in .debug_rnglists");
	}
	return bad(s, NULL, "unterminated range list in .debug_rnglists");
}

/* An attribute's value as a number (constants, section offsets, indexes). */
static int attr_uval(hm_scopes *s, Dwarf_Die die, Dwarf_Half at, uint64_t *v, Dwarf_Half *form)
{
	Dwarf_Attribute a;
	Dwarf_Error e = NULL;
	Dwarf_Unsigned u = 0;
	Dwarf_Off o = 0;
	Dwarf_Half f = 0;
	int rc = dwarf_attr(die, at, &a, &e);

	if (rc != DW_DLV_OK) {
		hm_dwarf_free_error(s->dbg, e);
		return rc == DW_DLV_NO_ENTRY ? 1 : -1;
	}
	if (dwarf_whatform(a, &f, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(s->dbg, e);
		dwarf_dealloc_attribute(a);
		return -1;
	}
	e = NULL;
	if (f == DW_FORM_sec_offset || f == DW_FORM_data4 || f == DW_FORM_data8) {
		rc = dwarf_global_formref(a, &o, &e);
		u = o;
		if (rc != DW_DLV_OK) {
			hm_dwarf_free_error(s->dbg, e);
			e = NULL;
			rc = dwarf_formudata(a, &u, &e);
		}
	} else {
		rc = dwarf_formudata(a, &u, &e);
	}
	hm_dwarf_free_error(s->dbg, e);
	dwarf_dealloc_attribute(a);
	if (rc != DW_DLV_OK)
		return -1;
	*v = u;
	if (form)
		*form = f;
	return 0;
}

/* The PC ranges of die into s->rg (emptied first): DW_AT_ranges, or
 * DW_AT_low_pc with DW_AT_high_pc.  0 (no ranges is not an error), or a
 * negative errno after reporting. */
static int die_ranges(hm_scopes *s, const struct cu *c, Dwarf_Die die)
{
	Dwarf_Error e = NULL;
	Dwarf_Addr lo, hi;
	Dwarf_Half form;
	enum Dwarf_Form_Class cls;
	uint64_t v;
	int rc;

	s->nrg = 0;
	rc = attr_uval(s, die, DW_AT_ranges, &v, &form);
	if (rc < 0)
		return bad(s, NULL, "unreadable DW_AT_ranges");
	if (!rc) {
		if (c->version < 5)
			return read_ranges(s, c, v);
		if (form == DW_FORM_rnglistx) {
			uint64_t b = c->has_rnglists_base ? c->rnglists_base : 12, off;
			size_t pos = b + v * 4;

			/* 32-bit DWARF: offsets of 4 bytes, from the table's base */
			if (!s->rnglists || rd_u(s, s->rnglists, s->rnglists_sz, &pos, 4, &off))
				return bad(s, NULL, "DW_FORM_rnglistx past .debug_rnglists");
			v = b + off;
		}
		return read_rnglists(s, c, v);
	}
	rc = dwarf_lowpc(die, &lo, &e);
	if (rc == DW_DLV_NO_ENTRY)
		return 0;
	if (rc != DW_DLV_OK)
		return bad(s, e, "unreadable DW_AT_low_pc");
	rc = dwarf_highpc_b(die, &hi, &form, &cls, &e);
	if (rc == DW_DLV_NO_ENTRY)
		return 0;
	if (rc != DW_DLV_OK)
		return bad(s, e, "unreadable DW_AT_high_pc");
	if (cls == DW_FORM_CLASS_CONSTANT)
		hi += lo;
	return add_range(s, lo, hi);
}

/* ---- open: the units' ranges ---- */

static int cmp_curange(const void *a, const void *b)
{
	const struct curange *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int add_cu(hm_scopes *s, Dwarf_Die cu_die, unsigned version, unsigned addr_size)
{
	Dwarf_Error e = NULL;
	Dwarf_Off off;
	Dwarf_Addr lo;
	struct cu *c;
	uint64_t v;
	int rc;

	if (dwarf_dieoffset(cu_die, &off, &e) != DW_DLV_OK)
		return bad(s, e, "unreadable unit");
	if (GROW(s, s->cus, s->ncus, s->ccus))
		return -ENOMEM;
	c = &s->cus[s->ncus];
	memset(c, 0, sizeof(*c));
	c->die_off = off;
	c->version = version;
	c->addr_size = addr_size == 4 ? 4 : 8;
	rc = dwarf_lowpc(cu_die, &lo, &e);
	if (rc == DW_DLV_ERROR)
		return bad(s, e, "unreadable DW_AT_low_pc of a unit");
	if (rc == DW_DLV_OK)
		c->base = lo;
	if (!attr_uval(s, cu_die, DW_AT_addr_base, &v, NULL))
		c->addr_base = v;
	else
		c->addr_base = 8;	/* past a DWARF 5 .debug_addr header */
	if (!attr_uval(s, cu_die, DW_AT_rnglists_base, &v, NULL)) {
		c->rnglists_base = v;
		c->has_rnglists_base = 1;
	}
	rc = die_ranges(s, c, cu_die);
	if (rc)
		return rc;
	for (size_t i = 0; i < s->nrg; i++) {
		if (GROW(s, s->cr, s->ncr, s->ccr))
			return -ENOMEM;
		s->cr[s->ncr].lo = s->rg[i].lo;
		s->cr[s->ncr].hi = s->rg[i].hi;
		s->cr[s->ncr++].cu = s->ncus;
	}
	s->ncus++;
	return 0;
}

int hm_scopes_open(hm_binary *bin, hm_scopes **out)
{
	hm_scopes *s = calloc(1, sizeof(*s));
	Dwarf_Error e = NULL;
	int rc;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->bin = bin;
	s->path = hm_binary_path(bin);
	s->big = hm_binary_big_endian(bin) == 1;
	rc = hm_dwarf_open_flags(bin, HM_DWARF_LOCATIONS, &s->dbg, &s->obj);
	if (rc) {
		free(s);
		return rc;
	}
	s->ranges = hm_dwarf_obj_section(s->obj, ".debug_ranges", &s->ranges_sz);
	s->rnglists = hm_dwarf_obj_section(s->obj, ".debug_rnglists", &s->rnglists_sz);
	s->addr = hm_dwarf_obj_section(s->obj, ".debug_addr", &s->addr_sz);
	for (;;) {
		Dwarf_Half version, addr_size, unit_type;
		Dwarf_Die cu_die = NULL;
		Dwarf_Half tag = 0;

		rc = hm_dwarf_next_cu(s->dbg, &version, &addr_size, &unit_type, &cu_die, &e);
		if (rc == DW_DLV_NO_ENTRY)
			break;
		if (rc != DW_DLV_OK) {
			rc = bad(s, e, "unreadable unit header");
			goto fail;
		}
		/* full units only: partial units (dwz) and skeletons (split
		 * DWARF) keep their scopes elsewhere */
		rc = dwarf_tag(cu_die, &tag, &e);
		if (rc != DW_DLV_OK) {
			dwarf_dealloc_die(cu_die);
			rc = bad(s, e, "unreadable unit");
			goto fail;
		}
		rc = tag == DW_TAG_compile_unit ? add_cu(s, cu_die, version, addr_size) : 0;
		dwarf_dealloc_die(cu_die);
		if (rc)
			goto fail;
	}
	if (s->ncr)
		qsort(s->cr, s->ncr, sizeof(*s->cr), cmp_curange);
	*out = s;
	return 0;
fail:
	hm_scopes_free(s);
	return rc;
}

static void cu_free(struct cu *c)
{
	free(c->scopes);
	free(c->vars);
	free(c->locs);
	free(c->segs);
}

void hm_scopes_free(hm_scopes *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ncus; i++)
		cu_free(&s->cus[i]);
	free(s->cus);
	free(s->cr);
	free(s->out);
	free(s->rg);
	free(s->iv);
	hm_dwarf_close(s->dbg, s->obj);
	free(s);
}

/* ---- one unit's scope tree ---- */

/* The DIE a reference attribute names, in this file; NULL when absent or
 * in another file (dwz's DW_FORM_GNU_ref_alt, type signatures). */
static Dwarf_Die ref_die(hm_scopes *s, Dwarf_Die die, Dwarf_Half at, int *err)
{
	Dwarf_Attribute a;
	Dwarf_Error e = NULL;
	Dwarf_Half f = 0;
	Dwarf_Off off;
	Dwarf_Die r = NULL;
	int rc = dwarf_attr(die, at, &a, &e);

	if (rc != DW_DLV_OK) {
		hm_dwarf_free_error(s->dbg, e);
		return NULL;
	}
	if (dwarf_whatform(a, &f, &e) != DW_DLV_OK || f == DW_FORM_ref_sig8 || f == 0x1f20 ||
	    f == 0x1c || f == 0x24 || dwarf_global_formref(a, &off, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(s->dbg, e);
		dwarf_dealloc_attribute(a);
		return NULL;
	}
	dwarf_dealloc_attribute(a);
	if (dwarf_offdie_b(s->dbg, off, 1, &r, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(s->dbg, e);
		*err = 1;
		return NULL;
	}
	return r;
}

static const char *die_name(Dwarf_Die die)
{
	char *n = NULL;

	if (dwarf_diename(die, &n, NULL) != DW_DLV_OK)
		return NULL;
	return n;
}

/* die, or the first DIE its DW_AT_abstract_origin / DW_AT_specification
 * chain leads to, that has attribute at; *own says the caller frees it. */
static Dwarf_Die with_attr(hm_scopes *s, Dwarf_Die die, Dwarf_Half at, int *own, int *err)
{
	Dwarf_Die cur = die;

	*own = 0;
	for (unsigned hop = 0; hop < MAX_REF_HOPS; hop++) {
		Dwarf_Bool has = 0;
		Dwarf_Die next;

		if (dwarf_hasattr(cur, at, &has, NULL) == DW_DLV_OK && has) {
			*own = cur != die;
			return cur;
		}
		next = ref_die(s, cur, DW_AT_abstract_origin, err);
		if (!next)
			next = ref_die(s, cur, DW_AT_specification, err);
		if (cur != die)
			dwarf_dealloc_die(cur);
		if (!next)
			return NULL;
		cur = next;
	}
	if (cur != die)
		dwarf_dealloc_die(cur);
	return NULL;
}

/* The name of die, or of its abstract origin or specification (a pointer
 * into the section data, valid while the index is open). */
static const char *origin_name(hm_scopes *s, Dwarf_Die die, int *err)
{
	int own;
	Dwarf_Die d = with_attr(s, die, DW_AT_name, &own, err);
	const char *name = d ? die_name(d) : NULL;

	if (own)
		dwarf_dealloc_die(d);
	return name;
}

/* Resolve the type of die (its DW_AT_type) into v. */
static void var_type(hm_scopes *s, Dwarf_Die die, struct svar *v, int *err)
{
	Dwarf_Die cur = ref_die(s, die, DW_AT_type, err);

	for (unsigned hop = 0; cur && hop < MAX_TYPE_HOPS; hop++) {
		Dwarf_Half tag = 0;
		Dwarf_Die next;
		Dwarf_Unsigned size;

		if (dwarf_tag(cur, &tag, NULL) != DW_DLV_OK)
			break;
		switch (tag) {
		case DW_TAG_pointer_type:
		case DW_TAG_reference_type:
		case DW_TAG_rvalue_reference_type:
			v->ptr_depth++;
			/* fall through */
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
		case DW_TAG_immutable_type:
			next = ref_die(s, cur, DW_AT_type, err);
			dwarf_dealloc_die(cur);
			cur = next;
			continue;
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_class_type:
			v->record = die_name(cur);
			v->record_kind = tag;
			if (dwarf_bytesize(cur, &size, NULL) == DW_DLV_OK)
				v->record_size = size;
			break;
		default:
			break;
		}
		break;
	}
	if (cur)
		dwarf_dealloc_die(cur);
}

/* Decode one location description; 0 when it is one hitmap reports. */
static int decode_loc(hm_scopes *s, Dwarf_Die die, Dwarf_Locdesc_c desc, uint64_t nops,
		      struct sloc *l)
{
	unsigned op[2];
	uint64_t o1[2], o2[2];
	Dwarf_Error e = NULL;

	if (nops == 0 || nops > 2)
		return -1;
	for (uint64_t i = 0; i < nops; i++)
		if (hm_dwarf_loc_op(desc, i, &op[i], &o1[i], &o2[i], &e) != DW_DLV_OK) {
			hm_dwarf_free_error(s->dbg, e);
			return -1;
		}
	l->reg = -1;
	l->off = 0;
	if (nops == 2) {
		/* a value computed from a register: DW_OP_bregN off, DW_OP_stack_value */
		if (op[1] != DW_OP_stack_value)
			return -1;
		if (op[0] >= DW_OP_breg0 && op[0] <= DW_OP_breg31) {
			l->reg = op[0] - DW_OP_breg0;
			l->off = (int64_t)o1[0];
		} else if (op[0] == DW_OP_bregx) {
			l->reg = (int)o1[0];
			l->off = (int64_t)o2[0];
		} else {
			return -1;
		}
		l->kind = HM_VLOC_REG;
		return 0;
	}
	if (op[0] >= DW_OP_reg0 && op[0] <= DW_OP_reg31) {
		l->kind = HM_VLOC_REG;
		l->reg = op[0] - DW_OP_reg0;
	} else if (op[0] == DW_OP_regx) {
		l->kind = HM_VLOC_REG;
		l->reg = (int)o1[0];
	} else if (op[0] >= DW_OP_breg0 && op[0] <= DW_OP_breg31) {
		l->kind = HM_VLOC_BREG;
		l->reg = op[0] - DW_OP_breg0;
		l->off = (int64_t)o1[0];
	} else if (op[0] == DW_OP_bregx) {
		l->kind = HM_VLOC_BREG;
		l->reg = (int)o1[0];
		l->off = (int64_t)o2[0];
	} else if (op[0] == DW_OP_fbreg) {
		l->kind = HM_VLOC_FBREG;
		l->off = (int64_t)o1[0];
	} else if (op[0] == DW_OP_addr) {
		l->kind = HM_VLOC_ADDR;
		l->off = (int64_t)o1[0];
	} else if (op[0] == DW_OP_addrx || op[0] == DW_OP_GNU_addr_index) {
		Dwarf_Addr a;

		if (dwarf_debug_addr_index_to_addr(die, o1[0], &a, &e) != DW_DLV_OK) {
			hm_dwarf_free_error(s->dbg, e);
			return -1;
		}
		l->kind = HM_VLOC_ADDR;
		l->off = (int64_t)a;
	} else {
		return -1;	/* entry values, constants, implicit values, ... */
	}
	if (l->reg < -1 || l->reg > 4096)
		return -1;
	return 0;
}

/* The locations of a variable DIE into c->locs. 1 when it has none. */
static int var_locs(hm_scopes *s, struct cu *c, Dwarf_Die die, struct svar *v)
{
	Dwarf_Attribute a;
	Dwarf_Error e = NULL;
	Dwarf_Loc_Head_c head = NULL;
	Dwarf_Unsigned count = 0;
	int rc = dwarf_attr(die, DW_AT_location, &a, &e);

	if (rc != DW_DLV_OK) {
		hm_dwarf_free_error(s->dbg, e);
		return rc == DW_DLV_NO_ENTRY ? 1 : bad(s, NULL, "unreadable DW_AT_location");
	}
	rc = dwarf_get_loclist_c(a, &head, &count, &e);
	dwarf_dealloc_attribute(a);
	if (rc == DW_DLV_NO_ENTRY)
		return 1;
	if (rc != DW_DLV_OK)
		return bad(s, e, "unreadable location list");
	if (count > MAX_LOC_ENTRIES) {
		dwarf_loc_head_c_dealloc(head);
		return bad(s, NULL, "location list too long");
	}
	v->loc_first = c->nlocs;
	for (Dwarf_Unsigned i = 0; i < count; i++) {
		struct hm_dwarf_lle le;
		struct sloc l;

		if (hm_dwarf_loc_entry(head, i, &le, &e) != DW_DLV_OK) {
			dwarf_loc_head_c_dealloc(head);
			return bad(s, e, "unreadable location list entry");
		}
		/* entries without an expression (base addresses, the end, an
		 * empty expression: optimized out there), the default location,
		 * addresses libdwarf could not resolve: nothing known */
		if (!le.nops || le.no_addr || (le.source == 2 && le.kind == DW_LLE_default_location))
			continue;
		if (le.source == 0) {
			le.lo = 0;
			le.hi = UINT64_MAX;
		} else if (le.lo >= le.hi) {
			continue;
		}
		if (decode_loc(s, die, le.desc, le.nops, &l))
			continue;
		l.lo = le.lo;
		l.hi = le.hi;
		if (GROW(s, c->locs, c->nlocs, c->clocs)) {
			dwarf_loc_head_c_dealloc(head);
			return -ENOMEM;
		}
		c->locs[c->nlocs++] = l;
	}
	dwarf_loc_head_c_dealloc(head);
	v->nloc = c->nlocs - v->loc_first;
	return v->nloc ? 0 : 1;
}

static int add_var(hm_scopes *s, struct cu *c, Dwarf_Die die, uint32_t scope, int is_param)
{
	struct svar v = { 0 };
	Dwarf_Bool decl = 0;
	Dwarf_Die typed;
	int err = 0, rc, own;

	if (dwarf_hasattr(die, DW_AT_declaration, &decl, NULL) == DW_DLV_OK && decl)
		return 0;	/* `extern int x;` inside a function */
	rc = var_locs(s, c, die, &v);
	if (rc)
		return rc > 0 ? 0 : rc;
	v.name = origin_name(s, die, &err);
	if (!v.name) {
		c->nlocs = v.loc_first;
		return err ? bad(s, NULL, "reference to a missing DIE") : 0;
	}
	typed = with_attr(s, die, DW_AT_type, &own, &err);
	if (typed)
		var_type(s, typed, &v, &err);
	if (own)
		dwarf_dealloc_die(typed);
	if (err)
		return bad(s, NULL, "reference to a missing DIE");
	v.scope = scope;
	v.is_param = is_param;
	v.order = c->nvars;
	if (GROW(s, c->vars, c->nvars, c->cvars))
		return -ENOMEM;
	c->vars[c->nvars++] = v;
	return 0;
}

/* The frame base of a subprogram: DW_OP_call_frame_cfa, or a register. */
static void frame_base(hm_scopes *s, Dwarf_Die die, struct scope *sc)
{
	Dwarf_Attribute a;
	Dwarf_Loc_Head_c head = NULL;
	Dwarf_Unsigned count = 0;
	Dwarf_Error e = NULL;
	struct hm_dwarf_lle le;
	unsigned op;
	uint64_t o1, o2;

	sc->fb_reg = -1;
	if (dwarf_attr(die, DW_AT_frame_base, &a, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(s->dbg, e);
		return;
	}
	if (dwarf_get_loclist_c(a, &head, &count, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(s->dbg, e);
		dwarf_dealloc_attribute(a);
		return;
	}
	dwarf_dealloc_attribute(a);
	if (count == 1 && hm_dwarf_loc_entry(head, 0, &le, &e) == DW_DLV_OK && le.source == 0 &&
	    le.nops == 1 && hm_dwarf_loc_op(le.desc, 0, &op, &o1, &o2, &e) == DW_DLV_OK) {
		if (op == DW_OP_call_frame_cfa)
			sc->fb_cfa = 1;
		else if (op >= DW_OP_reg0 && op <= DW_OP_reg31)
			sc->fb_reg = op - DW_OP_reg0;
		else if (op == DW_OP_regx)
			sc->fb_reg = (int)o1;
	}
	hm_dwarf_free_error(s->dbg, e);
	dwarf_loc_head_c_dealloc(head);
}

static int add_scope(hm_scopes *s, struct cu *c, Dwarf_Die die, Dwarf_Half tag, int32_t parent)
{
	struct scope sc = { 0 };
	int err = 0;

	sc.parent = parent;
	sc.fb_reg = -1;
	if (tag == DW_TAG_subprogram) {
		sc.parent = -1;
		sc.func = origin_name(s, die, &err);
		frame_base(s, die, &sc);
	} else {
		const struct scope *p = &c->scopes[parent];

		sc.depth = p->depth + 1;
		sc.fb_cfa = p->fb_cfa;
		sc.fb_reg = p->fb_reg;
		sc.inlined = p->inlined;
		sc.func = p->func;
		if (tag == DW_TAG_inlined_subroutine) {
			sc.inlined = 1;
			sc.func = origin_name(s, die, &err);
		}
	}
	if (err)
		return bad(s, NULL, "reference to a missing DIE");
	if (GROW(s, c->scopes, c->nscopes, c->cscopes))
		return -ENOMEM;
	c->scopes[c->nscopes] = sc;
	for (size_t i = 0; i < s->nrg; i++) {
		if (GROW(s, s->iv, s->niv, s->civ))
			return -ENOMEM;
		s->iv[s->niv].lo = s->rg[i].lo;
		s->iv[s->niv].hi = s->rg[i].hi;
		s->iv[s->niv].scope = c->nscopes;
		s->iv[s->niv++].depth = sc.depth;
	}
	return c->nscopes++;
}

struct frame {
	Dwarf_Die die;		/* the next DIE to look at on this level */
	int32_t scope;		/* the scope its variables belong to, -1 none */
	Dwarf_Off last;		/* offset of the previous DIE on this level */
};

static int cmp_var(const void *a, const void *b)
{
	const struct svar *x = a, *y = b;

	if (x->scope != y->scope)
		return x->scope < y->scope ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_ivl(const void *a, const void *b)
{
	const struct ivl *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return x->hi > y->hi ? -1 : x->hi < y->hi;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Flatten the scopes' nested ranges into disjoint segments, each naming the
 * innermost scope covering it. */
static int build_segs(hm_scopes *s, struct cu *c)
{
	size_t n = s->niv, np = 0, top = 0, i = 0;
	uint64_t *pts;
	struct ivl **stack;

	if (!n)
		return 0;
	qsort(s->iv, n, sizeof(*s->iv), cmp_ivl);
	pts = malloc(2 * n * sizeof(*pts));
	stack = malloc(n * sizeof(*stack));
	c->segs = malloc(2 * n * sizeof(*c->segs));
	if (!pts || !stack || !c->segs) {
		free(pts);
		free(stack);
		return -ENOMEM;
	}
	for (size_t k = 0; k < n; k++) {
		pts[np++] = s->iv[k].lo;
		pts[np++] = s->iv[k].hi;
	}
	qsort(pts, np, sizeof(*pts), cmp_u64);
	for (size_t k = 0; k < np; k++) {
		uint64_t p = pts[k];

		if (k && pts[k - 1] == p)
			continue;
		while (top && stack[top - 1]->hi <= p)
			top--;
		for (; i < n && s->iv[i].lo == p; i++) {
			while (top && stack[top - 1]->hi <= p)
				top--;
			stack[top++] = &s->iv[i];
		}
		size_t nx = k + 1;

		/* the next distinct point: one function's end is often the
		 * next one's start */
		while (nx < np && pts[nx] == p)
			nx++;
		if (top && nx < np) {
			struct seg *last = c->nsegs ? &c->segs[c->nsegs - 1] : NULL;
			uint64_t hi = pts[nx];

			if (last && last->hi == p && last->scope == stack[top - 1]->scope) {
				last->hi = hi;
			} else if (c->nsegs < 2 * n) {
				c->segs[c->nsegs].lo = p;
				c->segs[c->nsegs].hi = hi;
				c->segs[c->nsegs++].scope = stack[top - 1]->scope;
			}
		}
	}
	free(pts);
	free(stack);
	return 0;
}

static int walk_cu(hm_scopes *s, struct cu *c)
{
	struct frame st[MAX_SCOPE_DEPTH];
	unsigned top = 0;
	Dwarf_Error e = NULL;
	Dwarf_Die cu_die = NULL, child = NULL;
	int rc = 0;

	s->niv = 0;
	if (dwarf_offdie_b(s->dbg, c->die_off, 1, &cu_die, &e) != DW_DLV_OK)
		return bad(s, e, "unreadable unit");
	rc = dwarf_child(cu_die, &child, &e);
	dwarf_dealloc_die(cu_die);
	if (rc == DW_DLV_NO_ENTRY)
		return 0;
	if (rc != DW_DLV_OK)
		return bad(s, e, "unreadable unit");
	st[top++] = (struct frame){ child, -1, c->die_off };
	rc = 0;
	while (top) {
		struct frame *f = &st[top - 1];
		Dwarf_Die die = f->die, sib = NULL, kid = NULL;
		Dwarf_Half tag = 0;
		Dwarf_Off off = 0;
		int32_t scope = -2;	/* the scope to walk the children in; -2: skip them */

		if (!die) {
			top--;
			continue;
		}
		if (dwarf_dieoffset(die, &off, &e) != DW_DLV_OK || dwarf_tag(die, &tag, &e) != DW_DLV_OK) {
			rc = bad(s, e, "unreadable DIE");
			break;
		}
		/* sibling chains must move forward: a DW_AT_sibling pointing
		 * back would loop */
		if (off <= f->last) {
			rc = bad(s, NULL, "DIE siblings out of order");
			break;
		}
		f->last = off;
		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_lexical_block:
		case DW_TAG_inlined_subroutine:
			if (tag != DW_TAG_subprogram && f->scope < 0)
				break;
			if ((rc = die_ranges(s, c, die)))
				break;
			if (!s->nrg) {
				/* gdb reads a block without PC ranges as part of
				 * the enclosing one; a subprogram or inlined
				 * subroutine without them has no code */
				if (tag == DW_TAG_lexical_block)
					scope = f->scope;
				break;
			}
			rc = add_scope(s, c, die, tag, f->scope);
			if (rc >= 0) {
				scope = rc;
				rc = 0;
			}
			break;
		case DW_TAG_namespace:
			if (f->scope < 0)
				scope = -1;
			break;
		case DW_TAG_variable:
		case DW_TAG_formal_parameter:
			if (f->scope >= 0)
				rc = add_var(s, c, die, f->scope, tag == DW_TAG_formal_parameter);
			break;
		default:
			break;
		}
		if (!rc && scope != -2) {
			int r = dwarf_child(die, &kid, &e);

			if (r == DW_DLV_ERROR)
				rc = bad(s, e, "unreadable DIE");
		}
		if (!rc) {
			int r = hm_dwarf_sibling(s->dbg, die, &sib, &e);

			if (r == DW_DLV_ERROR)
				rc = bad(s, e, "unreadable DIE");
		}
		dwarf_dealloc_die(die);
		f->die = sib;
		if (rc) {
			if (kid)
				dwarf_dealloc_die(kid);
			break;
		}
		if (kid) {
			if (top == MAX_SCOPE_DEPTH) {
				dwarf_dealloc_die(kid);
				rc = bad(s, NULL, "DIEs nested too deep");
				break;
			}
			st[top++] = (struct frame){ kid, scope, off };
		}
	}
	while (top) {
		if (st[top - 1].die)
			dwarf_dealloc_die(st[top - 1].die);
		top--;
	}
	if (rc)
		return rc;
	/* each scope's variables in one run, in DIE order */
	qsort(c->vars, c->nvars, sizeof(*c->vars), cmp_var);
	for (size_t i = 0; i < c->nvars; i++) {
		struct scope *sc = &c->scopes[c->vars[i].scope];

		if (!sc->nvars)
			sc->var_first = i;
		sc->nvars++;
	}
	return build_segs(s, c);
}

static int build_cu(hm_scopes *s, struct cu *c)
{
	int rc;

	if (c->state)
		return c->state < 0 ? c->state : 0;
	rc = walk_cu(s, c);
	if (rc) {
		cu_free(c);
		c->scopes = NULL, c->vars = NULL, c->locs = NULL, c->segs = NULL;
		c->nscopes = c->nvars = c->nlocs = c->nsegs = 0;
		c->cscopes = c->cvars = c->clocs = 0;
		c->state = rc;
		return rc;
	}
	c->state = 1;
	return 0;
}

/* ---- lookups ---- */

/* The last element of a sorted array whose lo <= pc, or -1. */
#define LAST_LE(arr, n, pc)						\
	({								\
		size_t lo_ = 0, hi_ = (n);				\
		while (lo_ < hi_) {					\
			size_t mid_ = lo_ + (hi_ - lo_) / 2;		\
			if ((arr)[mid_].lo <= (pc))			\
				lo_ = mid_ + 1;				\
			else						\
				hi_ = mid_;				\
		}							\
		(ptrdiff_t)lo_ - 1;					\
	})

static int emit(hm_scopes *s, const struct cu *c, uint64_t pc, size_t *n)
{
	ptrdiff_t k = LAST_LE(c->segs, c->nsegs, pc);
	int32_t sc;

	if (k < 0 || pc >= c->segs[k].hi)
		return 0;
	for (sc = c->segs[k].scope; sc >= 0; sc = c->scopes[sc].parent) {
		const struct scope *p = &c->scopes[sc];

		for (uint32_t i = 0; i < p->nvars; i++) {
			const struct svar *v = &c->vars[p->var_first + i];
			const struct sloc *l = NULL;
			struct hm_scope_var *o;

			for (uint32_t j = 0; j < v->nloc; j++) {
				const struct sloc *x = &c->locs[v->loc_first + j];

				if (x->lo <= pc && pc < x->hi) {
					l = x;
					break;
				}
			}
			if (!l)
				continue;
			if (GROW(s, s->out, *n, s->cout))
				return -ENOMEM;
			o = &s->out[(*n)++];
			o->name = v->name;
			o->func = p->func;
			o->is_param = v->is_param;
			o->inlined = p->inlined;
			o->fb_cfa = p->fb_cfa;
			o->kind = l->kind;
			o->reg = l->reg;
			o->off = l->off;
			o->fb_reg = l->kind == HM_VLOC_FBREG ? p->fb_reg : -1;
			o->ptr_depth = v->ptr_depth;
			o->record = v->record;
			o->record_kind = v->record_kind;
			o->record_size = v->record_size;
			o->depth = p->depth;
		}
		if (c->scopes[sc].parent >= sc)
			break;	/* parents come first: never loop */
	}
	return 0;
}

int hm_scopes_at(hm_scopes *s, uint64_t pc, const struct hm_scope_var **vars)
{
	ptrdiff_t k = LAST_LE(s->cr, s->ncr, pc);
	size_t n = 0;

	*vars = NULL;
	/* unit ranges rarely overlap; look back a little for one that does */
	for (unsigned tries = 0; k >= 0 && tries < 16; k--, tries++) {
		struct cu *c;
		int rc;

		if (pc >= s->cr[k].hi)
			continue;
		c = &s->cus[s->cr[k].cu];
		rc = build_cu(s, c);
		if (rc)
			return rc;
		rc = emit(s, c, pc, &n);
		if (rc)
			return rc;
		if (n)
			break;
	}
	*vars = s->out;
	return (int)n;
}
