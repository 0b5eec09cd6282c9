/* The scope index's range lists and location lists (dwarf-scope-int.h):
 * .debug_ranges and .debug_rnglists read here, bounded, and every location
 * list walked here before libdwarf reads it. */
#include "config.h"
#include <errno.h>
#include "dwarf/dwarf-scope-int.h"
#include "elf/binary-lib.h"

int dws_bad(hm_scopes *s, Dwarf_Error e, const char *what)
{
	hm_diag(HM_DIAG_ERROR, "%s: corrupt DWARF: %s%s%s", s->path, what, e ? ": " : "",
		e ? dwarf_errmsg(e) : "");
	hm_dwarf_free_error(s->dbg, e);
	return -EBADMSG;
}

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
	 * linked file), covers nothing; a kernel module's first code section
	 * is at 0 (hmi_binary_section_addr) */
	if (lo >= hi || (lo == 0 && !hmi_binary_is_module(s->bin)))
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
		return dws_bad(s, NULL, "DW_AT_ranges past .debug_ranges");
	for (;;) {
		uint64_t a, b;

		if (rd_u(s, s->ranges, s->ranges_sz, &pos, c->addr_size, &a) ||
		    rd_u(s, s->ranges, s->ranges_sz, &pos, c->addr_size, &b))
			return dws_bad(s, NULL, "unterminated range list in .debug_ranges");
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
		return dws_bad(s, NULL, "DW_AT_ranges past .debug_rnglists");
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
			return dws_bad(s, NULL, "unknown range list entry in .debug_rnglists");
		}
		if (e)
			return dws_bad(s, NULL, "malformed range list in .debug_rnglists");
	}
	return dws_bad(s, NULL, "unterminated range list in .debug_rnglists");
}

/* An attribute's value as a number (constants, section offsets, indexes). */
int dws_attr_uval(hm_scopes *s, Dwarf_Die die, Dwarf_Half at, uint64_t *v, Dwarf_Half *form)
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
int dws_die_ranges(hm_scopes *s, const struct cu *c, Dwarf_Die die)
{
	Dwarf_Error e = NULL;
	Dwarf_Addr lo, hi;
	Dwarf_Half form;
	enum Dwarf_Form_Class cls;
	uint64_t v;
	int rc;

	s->nrg = 0;
	s->rg_present = 0;
	rc = dws_attr_uval(s, die, DW_AT_ranges, &v, &form);
	if (rc < 0)
		return dws_bad(s, NULL, "unreadable DW_AT_ranges");
	if (!rc) {
		s->rg_present = 1;
		if (c->version < 5)
			return read_ranges(s, c, v);
		if (form == DW_FORM_rnglistx) {
			uint64_t b = c->has_rnglists_base ? c->rnglists_base : 12, off;
			size_t pos = b + v * 4;

			/* 32-bit DWARF: offsets of 4 bytes, from the table's base */
			if (!s->rnglists || rd_u(s, s->rnglists, s->rnglists_sz, &pos, 4, &off))
				return dws_bad(s, NULL, "DW_FORM_rnglistx past .debug_rnglists");
			v = b + off;
		}
		return read_rnglists(s, c, v);
	}
	rc = dwarf_lowpc(die, &lo, &e);
	if (rc == DW_DLV_NO_ENTRY)
		return 0;
	if (rc != DW_DLV_OK)
		return dws_bad(s, e, "unreadable DW_AT_low_pc");
	s->rg_present = 1;
	rc = dwarf_highpc_b(die, &hi, &form, &cls, &e);
	if (rc == DW_DLV_NO_ENTRY)
		return 0;
	if (rc != DW_DLV_OK)
		return dws_bad(s, e, "unreadable DW_AT_high_pc");
	if (cls == DW_FORM_CLASS_CONSTANT)
		hi += lo;
	return add_range(s, lo, hi);
}

/* ---- location lists, checked before libdwarf reads them ----
 *
 * libdwarf 20210528 reads past its buffers (and crashes) on a location list
 * offset or index that leads outside its table, so every list is walked
 * here first, bounded, and only a well-formed one is handed to it. */

/* The tables of .debug_loclists: 0, or -ENOMEM; a malformed header makes
 * every DWARF 5 location list an error (s->loclists_bad). */
static int loclists_tables(hm_scopes *s)
{
	size_t pos = 0, sz = s->loclists_sz;

	while (s->loclists && pos < sz) {
		uint64_t len, count, ver;
		size_t end;

		if (rd_u(s, s->loclists, sz, &pos, 4, &len) || len >= 0xfffffff0u ||
		    len > sz - pos || len < 8) {
			s->loclists_bad = 1;
			return 0;
		}
		end = pos + len;
		if (rd_u(s, s->loclists, sz, &pos, 2, &ver) || ver != 5 ||
		    (pos += 2, rd_u(s, s->loclists, sz, &pos, 4, &count)) ||
		    count > (end - pos) / 4) {
			s->loclists_bad = 1;
			return 0;
		}
		if (GROW(s, s->lltab, s->nlltab, s->clltab))
			return -ENOMEM;
		s->lltab[s->nlltab].lo = pos;	/* the offsets array; lists follow */
		s->lltab[s->nlltab++].hi = end;
		pos = end;
	}
	return 0;
}

static int skip_expr(const unsigned char *p, size_t end, size_t *pos)
{
	uint64_t n;

	if (rd_uleb(p, end, pos, &n) || n > end - *pos)
		return -1;
	*pos += n;
	return 0;
}

/* The .debug_loclists table holding offset off (tables are in section
 * order, so sorted), or NULL. */
static const struct range *lltab_at(const hm_scopes *s, uint64_t off)
{
	size_t lo = 0, hi = s->nlltab;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->lltab[mid].lo <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || off >= s->lltab[lo - 1].hi)
		return NULL;
	return &s->lltab[lo - 1];
}

/* Whether the DWARF 5 list at off (or index idx, when is_index) is whole. */
static int check_loclists(hm_scopes *s, const struct cu *c, uint64_t off, int is_index)
{
	const unsigned char *p = s->loclists;
	const struct range *t = NULL;
	unsigned w = c->addr_size;
	size_t pos, end;
	uint64_t a;

	if (!p || s->loclists_bad)
		return -1;
	if (is_index) {
		uint64_t base = c->has_loclists_base ? c->loclists_base : 12, rel;

		t = lltab_at(s, base);
		if (t && t->lo != base)
			t = NULL;
		/* the offset entry count is the 4 bytes before the offsets */
		pos = base - 4;
		if (!t || rd_u(s, p, t->hi, &pos, 4, &a) || off >= a)
			return -1;
		pos = base + off * 4;
		if (rd_u(s, p, t->hi, &pos, 4, &rel))
			return -1;
		off = base + rel;
	} else {
		t = lltab_at(s, off);
	}
	if (!t || off < t->lo || off >= t->hi)
		return -1;
	pos = off;
	end = t->hi;
	while (pos < end) {
		uint64_t x, y;
		unsigned kind = p[pos++];
		int e;

		switch (kind) {
		case 0:		/* DW_LLE_end_of_list */
			return 0;
		case 1:		/* DW_LLE_base_addressx */
			e = rd_uleb(p, end, &pos, &x) || debug_addr(s, c, x, &a);
			break;
		case 2:		/* DW_LLE_startx_endx */
			e = rd_uleb(p, end, &pos, &x) || rd_uleb(p, end, &pos, &y) ||
			    debug_addr(s, c, x, &a) || debug_addr(s, c, y, &a) ||
			    skip_expr(p, end, &pos);
			break;
		case 3:		/* DW_LLE_startx_length */
			e = rd_uleb(p, end, &pos, &x) || rd_uleb(p, end, &pos, &y) ||
			    debug_addr(s, c, x, &a) || skip_expr(p, end, &pos);
			break;
		case 4:		/* DW_LLE_offset_pair */
			e = rd_uleb(p, end, &pos, &x) || rd_uleb(p, end, &pos, &y) ||
			    skip_expr(p, end, &pos);
			break;
		case 5:		/* DW_LLE_default_location */
			e = skip_expr(p, end, &pos);
			break;
		case 6:		/* DW_LLE_base_address */
			e = rd_u(s, p, end, &pos, w, &x);
			break;
		case 7:		/* DW_LLE_start_end */
			e = rd_u(s, p, end, &pos, w, &x) || rd_u(s, p, end, &pos, w, &y) ||
			    skip_expr(p, end, &pos);
			break;
		case 8:		/* DW_LLE_start_length */
			e = rd_u(s, p, end, &pos, w, &x) || rd_uleb(p, end, &pos, &y) ||
			    skip_expr(p, end, &pos);
			break;
		default:
			return -1;
		}
		if (e)
			return -1;
	}
	return -1;
}

/* Whether the DWARF 2-4 .debug_loc list at off is whole. */
static int check_loc(hm_scopes *s, const struct cu *c, uint64_t off)
{
	uint64_t all = c->addr_size == 8 ? UINT64_MAX : UINT32_MAX;
	size_t pos = off, sz = s->loc_sz;

	if (!s->loc || off >= sz)
		return -1;
	for (;;) {
		uint64_t a, b, n;

		if (rd_u(s, s->loc, sz, &pos, c->addr_size, &a) ||
		    rd_u(s, s->loc, sz, &pos, c->addr_size, &b))
			return -1;
		if (!a && !b)
			return 0;
		if (a == all)
			continue;
		if (rd_u(s, s->loc, sz, &pos, 2, &n) || n > sz - pos)
			return -1;
		pos += n;
	}
}

/* The location list sections and the tables of .debug_loclists, on the
 * first list asked for (under the build lock, as every check): 0 or
 * -ENOMEM. */
static int loc_sections(hm_scopes *s)
{
	int rc;

	if (s->loc_read)
		return 0;
	s->loc = hm_dwarf_obj_section(s->obj, ".debug_loc", &s->loc_sz);
	s->loclists = hm_dwarf_obj_section(s->obj, ".debug_loclists", &s->loclists_sz);
	if ((rc = loclists_tables(s)))
		return rc;
	s->loc_read = 1;
	return 0;
}

/* 0 when attribute at of die is a single expression or a well-formed list
 * (libdwarf may read it), -1 when it is a list that is not, -ENOMEM. */
int dws_check_locattr(hm_scopes *s, const struct cu *c, Dwarf_Die die, Dwarf_Half at)
{
	uint64_t v;
	Dwarf_Half form = 0;
	int rc;

	if (dws_attr_uval(s, die, at, &v, &form))
		return 0;	/* exprloc, block: inside the DIE */
	if ((rc = loc_sections(s)))
		return rc;
	if (form == DW_FORM_loclistx)
		return check_loclists(s, c, v, 1);
	if (form == DW_FORM_sec_offset || ((form == DW_FORM_data4 || form == DW_FORM_data8) &&
					    c->version < 4))
		return c->version >= 5 ? check_loclists(s, c, v, 0) : check_loc(s, c, v);
	return -1;	/* a constant is no location */
}
