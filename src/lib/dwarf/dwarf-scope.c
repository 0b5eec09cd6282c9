/* Which variables and parameters are where at a PC (dwarf-scope.h).
 *
 * hm_scopes_open() reads only the compile units' headers and PC ranges
 * (cheap even for a vmlinux); the first lookup of a PC in a unit walks the
 * unit's top level: its globals, the abstract instances its inlined code
 * names, and the PC ranges of its subprograms, which it does not enter.  The
 * first lookup of a PC in a subprogram walks that one's lexical blocks and
 * inlined subroutines, decodes the locations of their variables and
 * flattens the nested PC ranges into sorted, disjoint segments naming the
 * innermost scope: a kernel unit has hundreds of functions and a profile
 * touches a few, so the cost follows the functions sampled, not the units.
 * Every later lookup is binary searches and a walk up the scope's parents.
 * Ranges (.debug_ranges, .debug_rnglists) are read here, bounded; location
 * lists through libdwarf.
 *
 * One thread looks PCs up; another may build ahead of it
 * (hm_scopes_prefetch()).  Building holds one lock (the libdwarf handle,
 * the memo and the scratch are shared); what is built is published by its
 * state, stored last (release), and never changes after: a lookup reads a
 * built unit or subprogram without a lock.  A subprogram's scopes,
 * variables and locations are its own arrays, so that building the next
 * one of a unit moves nothing a lookup is reading. */
#include "config.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf/dwarf-scope.h"
#include "dwarf/dwarf-compat.h"
#include "dwarf/dwarf-x3.h"
#include "dwarf/dwline.h"
#include "base/diag.h"
#include "base/util.h"
#include "elf/binary-lib.h"

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
#ifndef DW_AT_str_offsets_base
#define DW_AT_str_offsets_base 0x72
#endif
#ifndef DW_AT_loclists_base
#define DW_AT_loclists_base 0x8c
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
	unsigned is_param : 1, has_toff : 1, has_origin : 1;
	uint64_t toff, origin;	/* own type; the origin naming the rest */
	unsigned ptr_depth;
	const char *record;
	int record_kind;
	uint64_t record_size;
	uint32_t order;		/* DIE order, for a stable sort by scope */
};

struct scope {
	const char *func;
	uint64_t origin;	/* of func, when has_origin */
	unsigned has_origin : 1;
	int32_t parent;		/* -1 for a subprogram */
	unsigned depth, fn_depth;
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

/* A subprogram of a unit's top level (or of a namespace), expanded into
 * scopes, variables and segments on the first lookup of a PC in it: a
 * lookup costs the function it falls in, not its whole unit. */
struct sub {
	uint64_t off;		/* its DIE */
	/* the DIE itself, kept from the unit's walk until the subprogram is
	 * built: libdwarf 20210528 looks a DIE up by offset (dwarf_offdie_b)
	 * by walking its list of units from the first, thousands in a
	 * kernel, for every lookup */
	Dwarf_Die die;
	int state;		/* 0 not built, 1 built, <0 error (negative errno) */
	struct seg *segs;
	size_t nsegs;
	/* built: what segs name (the unit's arrays while it is built) */
	struct scope *scopes;
	struct svar *vars;
	struct sloc *locs;
};

struct subrange {		/* [lo, hi) of subs[sub] */
	uint64_t lo, hi;
	uint32_t sub;
};

struct cu {
	uint64_t die_off;
	Dwarf_Die die;		/* the unit's DIE, kept from hm_scopes_open() */
	ptrdiff_t iter;		/* its place in the handle's unit iteration */
	uint64_t end_off;	/* where the next unit's DIE is (or the section's end) */
	unsigned version, addr_size;
	uint64_t base, addr_base, rnglists_base;
	int has_rnglists_base;
	uint64_t loclists_base;
	int has_loclists_base;
	uint64_t stroff_base;	/* DW_AT_str_offsets_base (8 without one) */
	int state;		/* 0 not built, 1 built, <0 error (negative errno) */
	int globs_state;	/* globs resolved: the same */
	/* the subprogram being built's (struct sub), empty between builds */
	struct scope *scopes;
	size_t nscopes, cscopes;
	struct svar *vars;
	size_t nvars, cvars;
	struct sloc *locs;
	size_t nlocs, clocs;
	struct sub *subs;
	size_t nsubs, csubs;
	struct subrange *sr;	/* sorted by lo */
	size_t nsr, csr;
	/* the unit's own variables and declarations at its top level (and in
	 * namespaces): names and types, for hm_scopes_global() */
	struct svar *globs;
	size_t nglobs, cglobs;
	/* the notes its top-level walk made (keep_notes()), put back when a
	 * subprogram of it is built after another unit's: without them that
	 * walk is made again, once per switch, and samples in file order
	 * switch units at almost every new function */
	uint64_t *lnotes;	/* the DIEs with a location (MEMO_LOC) */
	size_t nlnotes;
	struct astat *kastat;
	size_t nkastat;
	struct sloc *kalocs;
	size_t nkalocs;
	int notes_kept;
};

struct astat {
	uint64_t sub, var;	/* abstract subprogram, variable DIE offsets */
	struct svar v;
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
	int rg_present;		/* the DIE has PC range attributes (maybe empty) */
	struct ivl *iv;
	size_t niv, civ;
	const unsigned char *ranges, *rnglists, *addr;
	size_t ranges_sz, rnglists_sz, addr_sz;
	const unsigned char *loc, *loclists;
	size_t loc_sz, loclists_sz;
	const unsigned char *info;	/* .debug_info, for leave() */
	size_t info_sz;
	/* the tables of .debug_loclists: [start of offsets, end), checked */
	struct range *lltab;
	size_t nlltab, clltab;
	struct memo *memo;
	size_t nmemo, cmemo;
	/* the unit's abstract instances' variables with a location of their
	 * own (static locals), for the concrete instances that omit them */
	struct astat *astat;
	size_t nastat, castat;
	/* their locations (astat[].v.loc_first indexes these): copied into
	 * a subprogram's own when it inherits one */
	struct sloc *alocs;
	size_t nalocs, calocs;
	int loclists_bad;
	/* the abbreviations were rewritten for three-byte index forms
	 * (dwarf-x3.h): such names are read here, from these sections */
	int x3;
	struct hm_dwl_secs strs;
	/* where the handle's unit iteration is (position()): the unit of
	 * that place, -1 before the first, AT_LOST when unknown */
	ptrdiff_t at, niter;
	const struct cu *cur;	/* the unit being walked */
	const struct cu *noted;	/* the unit whose notes memo and astat hold */
	/* held while building: the handle, the scratch above, the memo */
	pthread_mutex_t build;
	/* the names built subprograms and resolved globals hold, copied out
	 * of the file: a unit's pages go back to the page cache when the
	 * walk leaves it, and a lookup made after that (of what the other
	 * thread built) must not bring them back */
	hm_strtab names;
	int locks;		/* build is initialised */
};

static int bad(hm_scopes *s, Dwarf_Error e, const char *what)
{
	hm_diag(HM_DIAG_ERROR, "%s: corrupt DWARF: %s%s%s", s->path, what, e ? ": " : "",
		e ? dwarf_errmsg(e) : "");
	hm_dwarf_free_error(s->dbg, e);
	return -EBADMSG;
}

#define AT_LOST (-2)

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
	 * linked file), covers nothing; a kernel module's first code section
	 * is at 0 (hm_binary_section_addr) */
	if (lo >= hi || (lo == 0 && !hm_binary_is_module(s->bin)))
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
	s->rg_present = 0;
	rc = attr_uval(s, die, DW_AT_ranges, &v, &form);
	if (rc < 0)
		return bad(s, NULL, "unreadable DW_AT_ranges");
	if (!rc) {
		s->rg_present = 1;
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
	s->rg_present = 1;
	rc = dwarf_highpc_b(die, &hi, &form, &cls, &e);
	if (rc == DW_DLV_NO_ENTRY)
		return 0;
	if (rc != DW_DLV_OK)
		return bad(s, e, "unreadable DW_AT_high_pc");
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

/* 0 when attribute at of die is a single expression or a well-formed list
 * (libdwarf may read it), -1 when it is a list that is not. */
static int check_locattr(hm_scopes *s, const struct cu *c, Dwarf_Die die, Dwarf_Half at)
{
	uint64_t v;
	Dwarf_Half form = 0;

	if (attr_uval(s, die, at, &v, &form))
		return 0;	/* exprloc, block: inside the DIE */
	if (form == DW_FORM_loclistx)
		return check_loclists(s, c, v, 1);
	if (form == DW_FORM_sec_offset || ((form == DW_FORM_data4 || form == DW_FORM_data8) &&
					    c->version < 4))
		return c->version >= 5 ? check_loclists(s, c, v, 0) : check_loc(s, c, v);
	return -1;	/* a constant is no location */
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
	c->stroff_base = attr_uval(s, cu_die, DW_AT_str_offsets_base, &v, NULL) ? 8 : v;
	if (!attr_uval(s, cu_die, DW_AT_loclists_base, &v, NULL)) {
		c->loclists_base = v;
		c->has_loclists_base = 1;
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
	s->loc = hm_dwarf_obj_section(s->obj, ".debug_loc", &s->loc_sz);
	s->x3 = hm_dwarf_widened(s->obj);
	s->strs.big_endian = s->big;
	s->strs.str = hm_dwarf_obj_section(s->obj, ".debug_str", &s->strs.nstr);
	s->strs.str_offsets = hm_dwarf_obj_section(s->obj, ".debug_str_offsets",
						   &s->strs.nstr_offsets);
	s->loclists = hm_dwarf_obj_section(s->obj, ".debug_loclists", &s->loclists_sz);
	s->info = hm_dwarf_obj_section(s->obj, ".debug_info", &s->info_sz);
	if ((rc = loclists_tables(s)))
		goto fail;
	for (ptrdiff_t idx = 0;; idx++) {
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
		if (!rc && tag == DW_TAG_compile_unit) {
			s->cus[s->ncus - 1].die = cu_die;
			s->cus[s->ncus - 1].iter = idx;
		} else {
			dwarf_dealloc_die(cu_die);
		}
		if (rc)
			goto fail;
		s->niter = idx + 1;
	}
	s->at = -1;	/* past the last unit, libdwarf starts again */
	for (size_t i = 0; i < s->ncus; i++)
		s->cus[i].end_off = i + 1 < s->ncus ? s->cus[i + 1].die_off : s->info_sz;
	if (s->ncr)
		qsort(s->cr, s->ncr, sizeof(*s->cr), cmp_curange);
	pthread_mutex_init(&s->build, NULL);
	s->locks = 1;
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
	for (size_t i = 0; i < c->nsubs; i++) {
		free(c->subs[i].segs);
		free(c->subs[i].scopes);
		free(c->subs[i].vars);
		free(c->subs[i].locs);
		if (c->subs[i].die)
			dwarf_dealloc_die(c->subs[i].die);
	}
	free(c->subs);
	free(c->sr);
	free(c->globs);
	free(c->lnotes);
	free(c->kastat);
	free(c->kalocs);
}

void hm_scopes_free(hm_scopes *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ncus; i++) {
		cu_free(&s->cus[i]);
		if (s->cus[i].die)
			dwarf_dealloc_die(s->cus[i].die);
	}
	if (s->locks)
		pthread_mutex_destroy(&s->build);
	hm_strtab_free(&s->names);
	free(s->cus);
	free(s->cr);
	free(s->out);
	free(s->rg);
	free(s->iv);
	free(s->lltab);
	free(s->memo);
	free(s->astat);
	free(s->alocs);
	hm_dwarf_close(s->dbg, s->obj);
	free(s);
}

/* ---- one unit's scope tree ---- */

/* Every libdwarf call gets an error pointer: with NULL, 20210528 aborts
 * the process on an error. */
/* A name given with DW_FORM_strx3, which dwarf-x3.h splits into
 * (HM_AT_X3_LOW, DW_FORM_data2) and (DW_AT_name, DW_FORM_data1). */
static const char *x3_name(hm_scopes *s, Dwarf_Die die)
{
	Dwarf_Attribute *list = NULL;
	Dwarf_Signed n = 0;
	Dwarf_Error e = NULL;
	const char *name = NULL;
	uint64_t low = 0;
	int pending = 0;

	if (!s->cur || dwarf_attrlist(die, &list, &n, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(s->dbg, e);
		return NULL;
	}
	for (Dwarf_Signed i = 0; i < n; i++) {
		Dwarf_Half at = 0;
		Dwarf_Unsigned v = 0;

		if (dwarf_whatattr(list[i], &at, &e) != DW_DLV_OK ||
		    dwarf_formudata(list[i], &v, &e) != DW_DLV_OK) {
			hm_dwarf_free_error(s->dbg, e);
			e = NULL;
			pending = 0;
		} else if (at == HM_AT_X3_LOW) {
			low = v;
			pending = 1;
		} else {
			if (pending && at == DW_AT_name && !name)
				name = hm_dwl_strx(&s->strs, s->cur->stroff_base, 4,
						   hm_x3_index(low, v, s->big));
			pending = 0;
		}
		dwarf_dealloc_attribute(list[i]);
	}
	dwarf_dealloc(s->dbg, list, DW_DLA_LIST);
	return name;
}

static const char *die_name(hm_scopes *s, Dwarf_Die die)
{
	Dwarf_Error e = NULL;
	char *n = NULL;
	int rc = dwarf_diename(die, &n, &e);

	if (rc == DW_DLV_ERROR)
		hm_dwarf_free_error(s->dbg, e);
	if (rc != DW_DLV_OK)
		return s->x3 ? x3_name(s, die) : NULL;
	return n;
}

static int has_attr(hm_scopes *s, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Error e = NULL;
	Dwarf_Bool has = 0;

	if (dwarf_hasattr(die, at, &has, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(s->dbg, e);
		return 0;
	}
	return !!has;
}

/* Done with unit c's DIEs for now: their pages of the file go back to the
 * page cache (hmi_binary_drop_pages()), and those of the location lists,
 * read unit by unit.  A kernel profile's units hold most of .debug_info,
 * 155 MB for a vmlinux, walked one after the other: resident memory stays
 * what one unit needs.  What is read again later comes back from there. */
static void leave(hm_scopes *s, const struct cu *c)
{
	if (s->info && c->die_off < c->end_off && c->end_off <= s->info_sz)
		hmi_binary_drop_pages(s->bin, s->info + c->die_off, c->end_off - c->die_off);
	if (s->loclists)
		hmi_binary_drop_pages(s->bin, s->loclists, s->loclists_sz);
}

/* Put the handle's unit iteration at unit c, stepping forward (and round
 * past the last unit when c is behind): dwarf_offdie_b() then finds c's
 * DIEs at once instead of walking libdwarf's list of units from the first
 * (hm_dwarf_skip_cu()).  A failed step makes lookups slow, not wrong. */
static void position(hm_scopes *s, const struct cu *c)
{
	Dwarf_Error e = NULL;

	for (ptrdiff_t steps = 0; s->at != AT_LOST && s->at != c->iter; steps++) {
		int rc = steps > 2 * s->niter + 2 ? DW_DLV_ERROR : hm_dwarf_skip_cu(s->dbg, &e);

		if (rc == DW_DLV_NO_ENTRY && s->at != -1) {
			s->at = -1;
		} else if (rc != DW_DLV_OK || ++s->at >= s->niter) {
			hm_dwarf_free_error(s->dbg, e);
			s->at = AT_LOST;
		}
	}
}

/* ---- names and types, memoised by DIE offset ----
 *
 * Inlined instances name their abstract origins, and variables share a
 * handful of types: each origin's name and each type chain is resolved
 * once per unit, not once per use, by looking the DIE up by offset with the
 * handle kept at the unit (position()).  A kernel unit's top level holds
 * thousands of types and declarations from its headers, of which its
 * variables use a few: they are read when used, not noted on the walk.
 * What the walk notes is which abstract variables have a location of their
 * own (MEMO_LOC).  The memo is dropped when another unit is walked. */

enum { MEMO_NAME = 1, MEMO_TYPEOF, MEMO_TYPE, MEMO_STEP, MEMO_LOC };

struct memo {
	uint64_t key;		/* offset << 3 | MEMO_*; 0: empty */
	const char *name;	/* MEMO_NAME: the name; MEMO_TYPE, _STEP: the record */
	uint64_t off;		/* MEMO_TYPEOF, _STEP: the (next) type DIE's offset */
	int has;		/* MEMO_TYPEOF, _STEP: there is one; MEMO_LOC: the
				 * DIE has a DW_AT_location */
	int tag;		/* MEMO_STEP: the type DIE's tag */
	unsigned ptr_depth;
	int record_kind;
	uint64_t record_size;
};

static struct memo *memo_get(hm_scopes *s, uint64_t off, unsigned kind, int *fresh)
{
	uint64_t key = off << 3 | kind;
	size_t i;

	if (s->nmemo * 2 >= s->cmemo) {
		size_t n = s->cmemo ? s->cmemo * 2 : 1024;
		struct memo *m = calloc(n, sizeof(*m));

		if (!m)
			return NULL;
		for (size_t k = 0; k < s->cmemo; k++) {
			if (!s->memo[k].key)
				continue;
			for (i = hm_hash_u64(s->memo[k].key) & (n - 1); m[i].key; i = (i + 1) & (n - 1))
				;
			m[i] = s->memo[k];
		}
		free(s->memo);
		s->memo = m;
		s->cmemo = n;
	}
	for (i = hm_hash_u64(key) & (s->cmemo - 1); s->memo[i].key; i = (i + 1) & (s->cmemo - 1))
		if (s->memo[i].key == key) {
			*fresh = 0;
			return &s->memo[i];
		}
	s->memo[i].key = key;
	s->nmemo++;
	*fresh = 1;
	return &s->memo[i];
}

/* The offset of the DIE a reference attribute names, in this file: 0, 1
 * when absent or in another file (dwz's DW_FORM_GNU_ref_alt, signatures). */
static int ref_off(hm_scopes *s, Dwarf_Die die, Dwarf_Half at, uint64_t *out)
{
	Dwarf_Attribute a;
	Dwarf_Error e = NULL;
	Dwarf_Half f = 0;
	Dwarf_Off off;
	int rc = dwarf_attr(die, at, &a, &e);

	if (rc != DW_DLV_OK) {
		hm_dwarf_free_error(s->dbg, e);
		return 1;
	}
	if (dwarf_whatform(a, &f, &e) != DW_DLV_OK || f == DW_FORM_ref_sig8 || f == 0x1f20 ||
	    f == 0x1c || f == 0x24 || dwarf_global_formref(a, &off, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(s->dbg, e);
		dwarf_dealloc_attribute(a);
		return 1;
	}
	dwarf_dealloc_attribute(a);
	*out = off;
	return 0;
}

/* The DIE die's DW_AT_abstract_origin or DW_AT_specification names. */
static int origin_off(hm_scopes *s, Dwarf_Die die, uint64_t *off)
{
	return ref_off(s, die, DW_AT_abstract_origin, off) &&
	       ref_off(s, die, DW_AT_specification, off);
}

static const char *origin_name_at(hm_scopes *s, uint64_t off, unsigned hops, int *err);
static int typeof_at(hm_scopes *s, uint64_t off, unsigned hops, uint64_t *toff, int *err);

/* The name of die, or of its abstract origin or specification (a pointer
 * into the section data, valid while the index is open). */
static const char *origin_name_hops(hm_scopes *s, Dwarf_Die die, unsigned hops, int *err)
{
	const char *name = die_name(s, die);
	uint64_t off;

	if (name || hops >= MAX_REF_HOPS || origin_off(s, die, &off))
		return name;
	return origin_name_at(s, off, hops + 1, err);
}

static const char *origin_name_at(hm_scopes *s, uint64_t off, unsigned hops, int *err)
{
	int fresh;
	struct memo *m = memo_get(s, off, MEMO_NAME, &fresh);
	Dwarf_Error e = NULL;
	Dwarf_Die d;
	const char *name;

	if (!m) {
		*err = -ENOMEM;
		return NULL;
	}
	if (!fresh)
		return m->name;
	if (dwarf_offdie_b(s->dbg, off, 1, &d, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(s->dbg, e);
		*err = -EBADMSG;
		return NULL;
	}
	name = origin_name_hops(s, d, hops, err);
	dwarf_dealloc_die(d);
	/* the table may have grown meanwhile */
	m = memo_get(s, off, MEMO_NAME, &fresh);
	if (m)
		m->name = name;
	return name;
}

/* The offset of die's type, from it or its origin: 0, 1 when none. */
static int typeof_die(hm_scopes *s, Dwarf_Die die, unsigned hops, uint64_t *toff, int *err)
{
	uint64_t off;

	if (!ref_off(s, die, DW_AT_type, toff))
		return 0;
	if (hops >= MAX_REF_HOPS || origin_off(s, die, &off))
		return 1;
	return typeof_at(s, off, hops + 1, toff, err);
}

static int typeof_at(hm_scopes *s, uint64_t off, unsigned hops, uint64_t *toff, int *err)
{
	int fresh, rc;
	struct memo *m = memo_get(s, off, MEMO_TYPEOF, &fresh);
	Dwarf_Error e = NULL;
	Dwarf_Die d;

	if (!m) {
		*err = -ENOMEM;
		return 1;
	}
	if (!fresh) {
		*toff = m->off;
		return !m->has;
	}
	if (dwarf_offdie_b(s->dbg, off, 1, &d, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(s->dbg, e);
		*err = -EBADMSG;
		return 1;
	}
	rc = typeof_die(s, d, hops, toff, err);
	dwarf_dealloc_die(d);
	m = memo_get(s, off, MEMO_TYPEOF, &fresh);
	if (m) {
		m->has = !rc;
		m->off = rc ? 0 : *toff;
	}
	return rc;
}

static int is_modifier(int tag)
{
	switch (tag) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_typedef:
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
	case DW_TAG_immutable_type:
		return 1;
	default:
		return 0;
	}
}

static int is_record_tag(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

/* What a type DIE says: its tag, the type it modifies, a record's name and
 * size. */
static void type_fill(hm_scopes *s, Dwarf_Die die, int tag, struct memo *st)
{
	Dwarf_Error e = NULL;
	Dwarf_Unsigned size;

	st->tag = tag;
	if (is_modifier(tag)) {
		st->has = !ref_off(s, die, DW_AT_type, &st->off);
		/* `typedef union { ... } pthread_mutex_t`: the record is
		 * known by the typedef's name alone */
		if (tag == DW_TAG_typedef)
			st->name = die_name(s, die);
	} else if (is_record_tag(tag)) {
		st->name = die_name(s, die);
		if (dwarf_bytesize(die, &size, &e) == DW_DLV_OK)
			st->record_size = size;
		hm_dwarf_free_error(s->dbg, e);
	}
}

static int type_step(hm_scopes *s, uint64_t off, struct memo *st)
{
	int fresh;
	struct memo *m = memo_get(s, off, MEMO_STEP, &fresh);
	Dwarf_Error e = NULL;
	Dwarf_Half tag = 0;
	Dwarf_Die d;

	if (!m)
		return -ENOMEM;
	if (!fresh) {
		*st = *m;
		return 0;
	}
	if (dwarf_offdie_b(s->dbg, off, 1, &d, &e) != DW_DLV_OK ||
	    dwarf_tag(d, &tag, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(s->dbg, e);
		return -EBADMSG;
	}
	type_fill(s, d, tag, m);
	dwarf_dealloc_die(d);
	*st = *m;
	return 0;
}

/* Resolve the type at offset off (typedefs, qualifiers, pointers) into v. */
static void var_type(hm_scopes *s, uint64_t off, struct svar *v, int *err)
{
	int fresh;
	struct memo *m = memo_get(s, off, MEMO_TYPE, &fresh), r = { 0 };
	uint64_t cur = off;
	const char *tdname = NULL;	/* the typedef naming what follows */

	if (!m) {
		*err = -ENOMEM;
		return;
	}
	if (!fresh)
		goto out;
	for (unsigned hop = 0; hop < MAX_TYPE_HOPS; hop++) {
		struct memo st;
		int rc = type_step(s, cur, &st);

		if (rc) {
			*err = rc;
			return;
		}
		if (is_modifier(st.tag)) {
			if (st.tag == DW_TAG_pointer_type || st.tag == DW_TAG_reference_type ||
			    st.tag == DW_TAG_rvalue_reference_type)
				r.ptr_depth++;
			if (st.tag == DW_TAG_typedef)
				tdname = st.name;
			else if (st.tag == DW_TAG_pointer_type || st.tag == DW_TAG_reference_type ||
				 st.tag == DW_TAG_rvalue_reference_type)
				tdname = NULL;
			if (!st.has)
				break;	/* void */
			cur = st.off;
			continue;
		}
		if (is_record_tag(st.tag)) {
			r.name = st.name ? st.name : tdname;
			r.record_kind = st.tag;
			r.record_size = st.record_size;
		}
		break;
	}
	/* type_step() may have grown the table */
	if (!(m = memo_get(s, off, MEMO_TYPE, &fresh))) {
		*err = -ENOMEM;
		return;
	}
	m->ptr_depth = r.ptr_depth;
	m->name = r.name;
	m->record_kind = r.record_kind;
	m->record_size = r.record_size;
out:
	v->ptr_depth = m->ptr_depth;
	v->record = m->name;
	v->record_kind = m->record_kind;
	v->record_size = m->record_size;
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
	if (check_locattr(s, c, die, DW_AT_location)) {
		dwarf_dealloc_attribute(a);
		return bad(s, NULL, "malformed location list");
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
	int err = 0, rc;

	if (has_attr(s, die, DW_AT_declaration))
		return 0;	/* `extern int x;` inside a function */
	rc = var_locs(s, c, die, &v);
	if (rc < 0)
		return rc;
	/* names and types are resolved once the subprogram is walked, once
	 * per origin and type (the memo) */
	v.name = die_name(s, die);
	v.has_toff = !ref_off(s, die, DW_AT_type, &v.toff);
	if (!v.name || !v.has_toff || rc)
		v.has_origin = !origin_off(s, die, &v.origin);
	/* no location of its own: a static local of an inlined function has
	 * it in the abstract instance only (gdb takes it from there too) */
	if (rc && !v.has_origin)
		return 0;
	(void)err;
	v.scope = scope;
	v.is_param = is_param;
	v.order = c->nvars;
	if (GROW(s, c->vars, c->nvars, c->cvars))
		return -ENOMEM;
	c->vars[c->nvars++] = v;
	return 0;
}

/* A variable of the unit's top level, defined or declared (`extern
 * __thread struct stats st;`): its name and type, resolved with the rest. */
static int add_global(hm_scopes *s, struct cu *c, Dwarf_Die die)
{
	struct svar v = { 0 };

	v.name = die_name(s, die);
	v.has_toff = !ref_off(s, die, DW_AT_type, &v.toff);
	if (!v.name || !v.has_toff)
		v.has_origin = !origin_off(s, die, &v.origin);
	if (!v.has_toff && !v.has_origin)
		return 0;
	if (GROW(s, c->globs, c->nglobs, c->cglobs))
		return -ENOMEM;
	c->globs[c->nglobs++] = v;
	return 0;
}

/* The frame base of a subprogram: DW_OP_call_frame_cfa, or a register. */
static void frame_base(hm_scopes *s, const struct cu *c, Dwarf_Die die, struct scope *sc)
{
	Dwarf_Attribute a;
	Dwarf_Loc_Head_c head = NULL;
	Dwarf_Unsigned count = 0;
	Dwarf_Error e = NULL;
	struct hm_dwarf_lle le;
	unsigned op;
	uint64_t o1, o2;

	sc->fb_reg = -1;
	/* a frame base that is a list (old gcc) says neither; a malformed
	 * one is left to the variables' own locations to report */
	if (check_locattr(s, c, die, DW_AT_frame_base))
		return;
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
		sc.func = die_name(s, die);
		sc.has_origin = !origin_off(s, die, &sc.origin);
		frame_base(s, c, die, &sc);
	} else {
		const struct scope *p = &c->scopes[parent];

		sc.depth = p->depth + 1;
		sc.fn_depth = tag == DW_TAG_inlined_subroutine ? sc.depth : p->fn_depth;
		sc.fb_cfa = p->fb_cfa;
		sc.fb_reg = p->fb_reg;
		sc.inlined = p->inlined;
		sc.func = p->func;
		if (tag == DW_TAG_inlined_subroutine) {
			sc.inlined = 1;
			sc.func = die_name(s, die);
			sc.has_origin = !origin_off(s, die, &sc.origin);
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

/* Note whether die has a location of its own, for the variables that name
 * it as their origin (origin_locs()). */
static int note_die(hm_scopes *s, Dwarf_Die die, uint64_t off)
{
	struct memo *m;
	int fresh;

	if (has_attr(s, die, DW_AT_location)) {
		if (!(m = memo_get(s, off, MEMO_LOC, &fresh)))
			return -ENOMEM;
		m->has = 1;
	}
	return 0;
}

/* The locations of v from its origin, when the walk noted it has one. */
static int origin_locs(hm_scopes *s, struct cu *c, struct svar *v)
{
	int fresh, rc;
	struct memo *m = memo_get(s, v->origin, MEMO_LOC, &fresh);
	Dwarf_Error e = NULL;
	Dwarf_Die d;

	if (!m)
		return -ENOMEM;
	if (!m->has)
		return 0;
	if (dwarf_offdie_b(s->dbg, v->origin, 1, &d, &e) != DW_DLV_OK)
		return bad(s, e, "reference to a missing DIE");
	rc = var_locs(s, c, d, v);
	dwarf_dealloc_die(d);
	return rc < 0 ? rc : 0;
}

/* A variable of an abstract instance with a location of its own: a static
 * local.  gdb counts it in scope in every concrete instance (inlined or
 * out of line) of the function, also where the instance has no DIE for it. */
static int note_static(hm_scopes *s, struct cu *c, Dwarf_Die die, uint64_t off, uint64_t sub)
{
	struct astat a = { 0 };
	size_t l0 = c->nlocs;
	int rc;

	if (!has_attr(s, die, DW_AT_location) || has_attr(s, die, DW_AT_declaration))
		return 0;
	/* read into the unit's arrays, which hold only what a subprogram's
	 * walk adds: moved to the notes' own */
	rc = var_locs(s, c, die, &a.v);
	if (!rc) {
		a.v.loc_first = s->nalocs;
		for (size_t i = l0; i < c->nlocs && !rc; i++) {
			if (GROW(s, s->alocs, s->nalocs, s->calocs))
				rc = -ENOMEM;
			else
				s->alocs[s->nalocs++] = c->locs[i];
		}
	}
	c->nlocs = l0;
	if (rc)
		return rc < 0 ? rc : 0;
	a.v.name = die_name(s, die);
	a.v.has_toff = !ref_off(s, die, DW_AT_type, &a.v.toff);
	if (!a.v.name)
		return 0;
	a.sub = sub;
	a.var = off;
	if (GROW(s, s->astat, s->nastat, s->castat))
		return -ENOMEM;
	s->astat[s->nastat++] = a;
	return 0;
}

/* Add the static locals of abstract instances to the concrete instances
 * that have no DIE of their own for them. */
static int inherit_statics(hm_scopes *s, struct cu *c, size_t s0, size_t v0)
{
	uint32_t *fn;
	int err = 0;

	if (!s->nastat || c->nscopes <= s0)
		return 0;
	fn = malloc((c->nscopes - s0) * sizeof(*fn));
	if (!fn)
		return -ENOMEM;
	/* each scope's function body: the subprogram or inlined subroutine
	 * (the scopes from s0 are one subprogram's: their parents are too) */
	for (size_t i = s0; i < c->nscopes; i++)
		fn[i - s0] = c->scopes[i].depth == c->scopes[i].fn_depth ||
			     c->scopes[i].parent < (int32_t)s0 ? i : fn[c->scopes[i].parent - s0];
	for (size_t k = 0; k < s->nastat && !err; k++) {
		const struct astat *a = &s->astat[k];

		for (size_t i = s0; i < c->nscopes && !err; i++) {
			const struct scope *sc = &c->scopes[i];
			struct svar v;
			size_t j;

			if (fn[i - s0] != i || !sc->has_origin || sc->origin != a->sub)
				continue;
			for (j = v0; j < c->nvars; j++)
				if (c->vars[j].has_origin && c->vars[j].origin == a->var &&
				    fn[c->vars[j].scope - s0] == i)
					break;
			if (j < c->nvars)
				continue;
			v = a->v;
			v.scope = i;
			v.is_param = 0;
			v.order = c->nvars;
			v.loc_first = c->nlocs;
			for (uint32_t l = 0; l < a->v.nloc && !err; l++) {
				if (GROW(s, c->locs, c->nlocs, c->clocs))
					err = -ENOMEM;
				else
					c->locs[c->nlocs++] = s->alocs[a->v.loc_first + l];
			}
			if (err)
				break;
			if (v.has_toff)
				var_type(s, v.toff, &v, &err);
			if (GROW(s, c->vars, c->nvars, c->cvars))
				err = -ENOMEM;
			else
				c->vars[c->nvars++] = v;
		}
	}
	free(fn);
	if (err == -ENOMEM)
		return err;
	return err ? bad(s, NULL, "reference to a missing DIE") : 0;
}

/* Names and types of the variables and functions of the subprogram just
 * walked (the scopes from s0, the variables from v0), from their origins;
 * variables left without a name are dropped. */
static int resolve_sub(hm_scopes *s, struct cu *c, size_t s0, size_t v0)
{
	int err = 0;
	size_t w = v0;

	for (size_t i = s0; i < c->nscopes && !err; i++) {
		struct scope *sc = &c->scopes[i];

		if (!sc->func && sc->has_origin)
			sc->func = origin_name_at(s, sc->origin, 1, &err);
		/* a lexical block's function is its parent's (parents first) */
		if (!sc->func && sc->parent >= 0 && sc->depth != sc->fn_depth)
			sc->func = c->scopes[sc->parent].func;
	}
	for (size_t i = v0; i < c->nvars && !err; i++) {
		struct svar v = c->vars[i];

		if (!v.nloc && v.has_origin) {
			int rc = origin_locs(s, c, &v);

			if (rc)
				return rc;
		}
		if (!v.nloc)
			continue;
		if (!v.name && v.has_origin)
			v.name = origin_name_at(s, v.origin, 1, &err);
		if (!v.name)
			continue;
		if (!v.has_toff && v.has_origin)
			v.has_toff = !typeof_at(s, v.origin, 1, &v.toff, &err);
		if (v.has_toff && !err)
			var_type(s, v.toff, &v, &err);
		c->vars[w++] = v;
	}
	c->nvars = w;
	if (err == -ENOMEM)
		return err;
	if (err)
		return bad(s, NULL, "reference to a missing DIE");
	return inherit_statics(s, c, s0, v0);
}

/* Names and types of the unit's top-level variables, from their origins. */
static int resolve_globs(hm_scopes *s, struct cu *c)
{
	int err = 0;
	size_t w = 0;

	for (size_t i = 0; i < c->nglobs && !err; i++) {
		struct svar v = c->globs[i];

		if (!v.name && v.has_origin)
			v.name = origin_name_at(s, v.origin, 1, &err);
		if (!v.has_toff && v.has_origin)
			v.has_toff = !typeof_at(s, v.origin, 1, &v.toff, &err);
		if (!v.name || !v.has_toff || err)
			continue;
		var_type(s, v.toff, &v, &err);
		c->globs[w++] = v;
	}
	c->nglobs = w;
	if (err == -ENOMEM)
		return err;
	return err ? bad(s, NULL, "reference to a missing DIE") : 0;
}

#define SKIP (-2)		/* frame scope: do not walk the children */
#define ABSTRACT (-3)		/* frame scope: in an abstract instance, note names */

struct frame {
	Dwarf_Die die;		/* the next DIE to look at on this level */
	int32_t scope;		/* the scope its variables belong to, -1 none */
	Dwarf_Off last;		/* offset of the previous DIE on this level */
	uint64_t abs_sub;	/* ABSTRACT: the abstract subprogram's offset */
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
static int build_segs(hm_scopes *s, struct sub *b)
{
	size_t n = s->niv, np = 0, top = 0, i = 0;
	uint64_t *pts;
	struct ivl **stack;

	if (!n)
		return 0;
	qsort(s->iv, n, sizeof(*s->iv), cmp_ivl);
	pts = malloc(2 * n * sizeof(*pts));
	stack = malloc(n * sizeof(*stack));
	b->segs = malloc(2 * n * sizeof(*b->segs));
	if (!pts || !stack || !b->segs) {
		free(pts);
		free(stack);
		return -ENOMEM;
	}
	for (size_t k = 0; k < n; k++) {
		pts[np++] = s->iv[k].lo;
		pts[np++] = s->iv[k].hi;
	}
	qsort(pts, np, sizeof(*pts), cmp_u64);
	{
		size_t w = 0;

		for (size_t k = 0; k < np; k++)
			if (!w || pts[w - 1] != pts[k])
				pts[w++] = pts[k];
		np = w;
	}
	for (size_t k = 0; k < np; k++) {
		uint64_t p = pts[k];

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
			struct seg *last = b->nsegs ? &b->segs[b->nsegs - 1] : NULL;
			uint64_t hi = pts[nx];

			if (last && last->hi == p && last->scope == stack[top - 1]->scope) {
				last->hi = hi;
			} else if (b->nsegs < 2 * n) {
				b->segs[b->nsegs].lo = p;
				b->segs[b->nsegs].hi = hi;
				b->segs[b->nsegs++].scope = stack[top - 1]->scope;
			}
		}
	}
	free(pts);
	free(stack);
	return 0;
}

/* Subprogram die at off of unit c, entered on its first PC; the sub owns
 * die when this succeeds. */
static int add_sub(hm_scopes *s, struct cu *c, Dwarf_Die die, uint64_t off)
{
	if (GROW(s, c->subs, c->nsubs, c->csubs))
		return -ENOMEM;
	c->subs[c->nsubs] = (struct sub){ .off = off, .die = die };
	for (size_t i = 0; i < s->nrg; i++) {
		if (GROW(s, c->sr, c->nsr, c->csr))
			return -ENOMEM;
		c->sr[c->nsr++] = (struct subrange){ s->rg[i].lo, s->rg[i].hi, c->nsubs };
	}
	c->nsubs++;
	return 0;
}

static int cmp_subrange(const void *a, const void *b)
{
	const struct subrange *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->hi != y->hi)
		return x->hi > y->hi ? -1 : 1;
	return x->sub < y->sub ? -1 : x->sub > y->sub;
}

/* Walk unit c.  Without b, its top level: the notes of its abstract
 * instances, its static locals of abstract instances, and, unless
 * renote (the unit is indexed, the notes are being made again), its
 * variables and the PC ranges of its subprograms, which are not entered.
 * With b, subprogram b alone: its scopes, variables and segments. */
static int walk_cu(hm_scopes *s, struct cu *c, struct sub *b, int renote)
{
	struct frame st[MAX_SCOPE_DEPTH];
	unsigned top = 0;
	Dwarf_Error e = NULL;
	Dwarf_Die child = NULL;
	size_t s0 = c->nscopes, v0 = c->nvars;
	int rc = 0;

	s->niv = 0;
	if (s->cur && s->cur != c)
		leave(s, s->cur);
	s->cur = c;
	position(s, c);
	if (b) {
		/* the walk deallocates it */
		child = b->die;
		b->die = NULL;
		if (!child && dwarf_offdie_b(s->dbg, b->off, 1, &child, &e) != DW_DLV_OK)
			return bad(s, e, "unreadable DIE");
		st[top++] = (struct frame){ child, -1, b->off - 1, 0 };
	} else {
		s->nastat = 0;
		s->nalocs = 0;
		rc = dwarf_child(c->die, &child, &e);
		if (rc == DW_DLV_NO_ENTRY)
			return 0;
		if (rc != DW_DLV_OK)
			return bad(s, e, "unreadable unit");
		st[top++] = (struct frame){ child, -1, c->die_off, 0 };
	}
	rc = 0;
	while (top) {
		struct frame *f = &st[top - 1];
		Dwarf_Die die = f->die, sib = NULL, kid = NULL;
		Dwarf_Half tag = 0;
		Dwarf_Off off = 0;
		int32_t scope = SKIP;	/* the scope to walk the children in */
		int kept = 0;		/* die is a sub's now */

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
			if (tag == DW_TAG_subprogram && (rc = note_die(s, die, off)))
				break;
			if (f->scope == ABSTRACT) {
				scope = ABSTRACT;
				break;
			}
			if (tag != DW_TAG_subprogram && f->scope < 0)
				break;
			if ((rc = die_ranges(s, c, die)))
				break;
			if (!s->nrg) {
				/* gdb reads a block without PC range attributes as
				 * part of the enclosing one, and drops one whose
				 * ranges are empty (code the linker discarded is
				 * at 0); an inlined subroutine without
				 * them has no code; a subprogram without them is
				 * an abstract instance (or a declaration), whose
				 * variables name those of its concrete ones */
				if (tag == DW_TAG_lexical_block && !s->rg_present)
					scope = f->scope;
				else if (tag == DW_TAG_subprogram)
					scope = ABSTRACT;
				break;
			}
			if (!b && tag == DW_TAG_subprogram && f->scope == -1) {
				/* entered on its first PC */
				if (!renote && !(rc = add_sub(s, c, die, off)))
					kept = 1;
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
			else if (f->scope == -1 && tag == DW_TAG_variable && !renote)
				rc = add_global(s, c, die);
			else if (f->scope == ABSTRACT && !(rc = note_die(s, die, off)) &&
				 tag == DW_TAG_variable)
				rc = note_static(s, c, die, off, f->abs_sub);
			break;
		default:
			break;
		}
		if (!rc && scope != SKIP) {
			int r = dwarf_child(die, &kid, &e);

			if (r == DW_DLV_ERROR)
				rc = bad(s, e, "unreadable DIE");
		}
		if (!rc && !(b && top == 1)) {	/* b: not its siblings */
			int r = hm_dwarf_sibling(s->dbg, die, &sib, &e);

			if (r == DW_DLV_ERROR)
				rc = bad(s, e, "unreadable DIE");
		}
		if (!kept)
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
			st[top++] = (struct frame){ kid, scope, off,
						    scope == ABSTRACT && tag == DW_TAG_subprogram ?
						    off : f->abs_sub };
		}
	}
	while (top) {
		if (st[top - 1].die)
			dwarf_dealloc_die(st[top - 1].die);
		top--;
	}
	if (rc)
		return rc;
	if (!b) {
		if (renote)
			return 0;
		if (c->nsr)
			qsort(c->sr, c->nsr, sizeof(*c->sr), cmp_subrange);
		return 0;
	}
	if ((rc = resolve_sub(s, c, s0, v0)))
		return rc;
	/* each scope's variables in one run, in DIE order */
	if (c->nvars > v0)
		qsort(c->vars + v0, c->nvars - v0, sizeof(*c->vars), cmp_var);
	for (size_t i = v0; i < c->nvars; i++) {
		struct scope *sc = &c->scopes[c->vars[i].scope];

		if (!sc->nvars)
			sc->var_first = i;
		sc->nvars++;
	}
	return build_segs(s, b);
}

/* What the memo holds is one unit's notes and what was looked up from
 * them, almost always its own DIEs: keep the memory it costs to one unit's
 * worth. */
static void memo_clear(hm_scopes *s)
{
	if (s->nmemo) {
		memset(s->memo, 0, s->cmemo * sizeof(*s->memo));
		s->nmemo = 0;
	}
	s->noted = NULL;
}

/* What a prefetch (hm_scopes_prefetch()) is told: NULL for a lookup.  A
 * build that a prefetch makes and that fails or says anything (its
 * messages counted in *q, not printed) is undone, left for the lookup that
 * needs it to make again and report: what is printed, and when, is what a
 * lookup alone does. */
static unsigned said(const struct hm_diag_count *q)
{
	return q ? hm_diag_count_total(q) : 0;
}

/* A state as a lookup sees it: set last, once what it says is built. */
static int published(const int *state)
{
	return __atomic_load_n(state, __ATOMIC_ACQUIRE);
}

static void publish(int *state, int v)
{
	__atomic_store_n(state, v, __ATOMIC_RELEASE);
}

/* *dst (capacity *cap) made a copy of the n elements at src: 0 or -ENOMEM. */
static int copy_array(void **dst, size_t *cap, const void *src, size_t n, size_t elem)
{
	if (n && hm_grow(dst, cap, n, elem))
		return -ENOMEM;
	if (n)
		memcpy(*dst, src, n * elem);
	return 0;
}

/* Keep what unit c's top-level walk noted, just made (the memo's DIEs with
 * a location, the static locals of its abstract instances), for
 * restore_notes().  Out of memory, nothing is kept: the walk is made again
 * instead. */
static void keep_notes(hm_scopes *s, struct cu *c)
{
	size_t cn = 0, ca = 0, cl = 0;

	for (size_t i = 0; i < s->cmemo; i++) {
		const struct memo *m = &s->memo[i];

		if (!m->key || (m->key & 7) != MEMO_LOC || !m->has)
			continue;
		if (GROW(s, c->lnotes, c->nlnotes, cn))
			goto fail;
		c->lnotes[c->nlnotes++] = m->key >> 3;
	}
	if (copy_array((void **)&c->kastat, &ca, s->astat, s->nastat, sizeof(*s->astat)) ||
	    copy_array((void **)&c->kalocs, &cl, s->alocs, s->nalocs, sizeof(*s->alocs)))
		goto fail;
	c->nkastat = s->nastat;
	c->nkalocs = s->nalocs;
	c->notes_kept = 1;
	return;
fail:
	free(c->lnotes);
	free(c->kastat);
	free(c->kalocs);
	c->lnotes = NULL, c->kastat = NULL, c->kalocs = NULL;
	c->nlnotes = 0;
}

/* Make c's kept notes the current ones (the memo cleared): what its
 * top-level walk made again would note.  0 or -ENOMEM. */
static int restore_notes(hm_scopes *s, struct cu *c)
{
	int fresh;

	s->nastat = 0;
	s->nalocs = 0;
	for (size_t i = 0; i < c->nlnotes; i++) {
		struct memo *m = memo_get(s, c->lnotes[i], MEMO_LOC, &fresh);

		if (!m)
			return -ENOMEM;
		m->has = 1;
	}
	if (copy_array((void **)&s->astat, &s->castat, c->kastat, c->nkastat, sizeof(*s->astat)) ||
	    copy_array((void **)&s->alocs, &s->calocs, c->kalocs, c->nkalocs, sizeof(*s->alocs)))
		return -ENOMEM;
	s->nastat = c->nkastat;
	s->nalocs = c->nkalocs;
	return 0;
}

/* The top level of unit c: its variables and its subprograms' ranges. */
static int build_cu(hm_scopes *s, struct cu *c, const struct hm_diag_count *q)
{
	unsigned n0 = said(q);
	int rc = published(&c->state);

	if (rc)
		return rc < 0 ? rc : 0;
	pthread_mutex_lock(&s->build);
	if ((rc = c->state)) {	/* the other thread built it meanwhile */
		pthread_mutex_unlock(&s->build);
		return rc < 0 ? rc : 0;
	}
	memo_clear(s);
	rc = walk_cu(s, c, NULL, 0);
	if (rc || said(q) != n0) {
		memo_clear(s);
		cu_free(c);
		c->scopes = NULL, c->vars = NULL, c->locs = NULL, c->subs = NULL;
		c->sr = NULL, c->globs = NULL;
		c->nscopes = c->nvars = c->nlocs = c->nsubs = c->nsr = c->nglobs = 0;
		c->cscopes = c->cvars = c->clocs = c->csubs = c->csr = c->cglobs = 0;
		c->lnotes = NULL, c->kastat = NULL, c->kalocs = NULL;
		c->nlnotes = c->nkastat = c->nkalocs = 0;
		c->notes_kept = 0;
		if (!q)
			publish(&c->state, rc);
		pthread_mutex_unlock(&s->build);
		return rc ? rc : -EAGAIN;
	}
	s->noted = c;
	keep_notes(s, c);
	publish(&c->state, 1);
	pthread_mutex_unlock(&s->build);
	return 0;
}

/* The names of scopes sc and variables v, made s's own: 0 or -ENOMEM. */
static int own_names(hm_scopes *s, struct scope *sc, size_t nsc, struct svar *v, size_t nv)
{
	for (size_t i = 0; i < nsc; i++)
		if (sc[i].func && !(sc[i].func = hm_strtab_intern(&s->names, sc[i].func)))
			return -ENOMEM;
	for (size_t i = 0; i < nv; i++) {
		if (v[i].name && !(v[i].name = hm_strtab_intern(&s->names, v[i].name)))
			return -ENOMEM;
		if (v[i].record && !(v[i].record = hm_strtab_intern(&s->names, v[i].record)))
			return -ENOMEM;
	}
	return 0;
}

/* Empty the unit's arrays, which hold the subprogram being built. */
static void cu_scratch_drop(struct cu *c)
{
	free(c->scopes);
	free(c->vars);
	free(c->locs);
	c->scopes = NULL, c->vars = NULL, c->locs = NULL;
	c->nscopes = c->nvars = c->nlocs = 0;
	c->cscopes = c->cvars = c->clocs = 0;
}

/* Subprogram b of unit c (built): its scopes, variables and segments, with
 * the unit's notes made again when the memo holds another unit's.  They
 * are built in the unit's arrays (empty), then handed to b. */
static int build_sub(hm_scopes *s, struct cu *c, struct sub *b, const struct hm_diag_count *q)
{
	unsigned n0 = said(q);
	int rc = published(&b->state);

	if (rc)
		return rc < 0 ? rc : 0;
	pthread_mutex_lock(&s->build);
	if ((rc = b->state)) {
		pthread_mutex_unlock(&s->build);
		return rc < 0 ? rc : 0;
	}
	if (s->noted != c) {
		memo_clear(s);
		if (c->notes_kept)
			rc = restore_notes(s, c);
		else
			rc = walk_cu(s, c, NULL, 1);
		if (rc || said(q) != n0) {
			memo_clear(s);
			if (!q)
				publish(&b->state, rc);
			pthread_mutex_unlock(&s->build);
			return rc ? rc : -EAGAIN;
		}
		s->noted = c;
	}
	cu_scratch_drop(c);	/* empty: a unit's own walk adds nothing there */
	rc = walk_cu(s, c, b, 0);
	if (!rc && said(q) != n0)
		rc = -EAGAIN;
	if (!rc)
		rc = own_names(s, c->scopes, c->nscopes, c->vars, c->nvars);
	if (rc) {
		/* what the failed build added belongs to no segment: drop it */
		free(b->segs);
		b->segs = NULL;
		b->nsegs = 0;
		cu_scratch_drop(c);
		if (!q)
			publish(&b->state, rc);
		pthread_mutex_unlock(&s->build);
		return rc;
	}
	b->scopes = c->scopes;
	b->vars = c->vars;
	b->locs = c->locs;
	c->scopes = NULL, c->vars = NULL, c->locs = NULL;
	c->nscopes = c->nvars = c->nlocs = 0;
	c->cscopes = c->cvars = c->clocs = 0;
	publish(&b->state, 1);
	pthread_mutex_unlock(&s->build);
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

/* The segment of unit c (built) holding pc, its subprogram built (*sub);
 * NULL when none, *rc an error. */
static const struct seg *seg_at(hm_scopes *s, struct cu *c, uint64_t pc, int *rc,
			       const struct hm_diag_count *q, const struct sub **sub)
{
	ptrdiff_t k = LAST_LE(c->sr, c->nsr, pc);

	*rc = 0;
	/* subprograms rarely overlap (code the linker discarded, at 0):
	 * look back a little for one that holds pc */
	for (unsigned tries = 0; k >= 0 && tries < 16; k--, tries++) {
		struct sub *b;
		ptrdiff_t j;

		if (pc >= c->sr[k].hi)
			continue;
		b = &c->subs[c->sr[k].sub];
		if ((*rc = build_sub(s, c, b, q)))
			return NULL;
		j = LAST_LE(b->segs, b->nsegs, pc);
		if (j >= 0 && pc < b->segs[j].hi) {
			*sub = b;
			return &b->segs[j];
		}
	}
	return NULL;
}

static int emit(hm_scopes *s, const struct sub *c, const struct seg *g, uint64_t pc, size_t *n)
{
	int32_t sc;

	for (sc = g->scope; sc >= 0; sc = c->scopes[sc].parent) {
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
			o->fn_depth = p->fn_depth;
		}
		if (c->scopes[sc].parent >= sc)
			break;	/* parents come first: never loop */
	}
	return 0;
}

/* The unit whose scopes cover pc (built), or NULL; *rc an error. */
static struct cu *cu_at(hm_scopes *s, uint64_t pc, const struct seg **seg,
			const struct sub **sub, int *rc, const struct hm_diag_count *q)
{
	ptrdiff_t k = LAST_LE(s->cr, s->ncr, pc);

	*rc = 0;
	/* unit ranges rarely overlap; look back a little for one that does */
	for (unsigned tries = 0; k >= 0 && tries < 16; k--, tries++) {
		struct cu *c;

		if (pc >= s->cr[k].hi)
			continue;
		c = &s->cus[s->cr[k].cu];
		if ((*rc = build_cu(s, c, q)))
			return NULL;
		if ((*seg = seg_at(s, c, pc, rc, q, sub)))
			return c;
		if (*rc)
			return NULL;
	}
	return NULL;
}

int hm_scopes_prefetch(hm_scopes *s, uint64_t pc, const struct hm_diag_count *quiet)
{
	const struct seg *g;
	const struct sub *b;
	int rc;

	cu_at(s, pc, &g, &b, &rc, quiet);
	return rc;
}

int hm_scopes_scope_at(hm_scopes *s, uint64_t pc, const char **func, unsigned *depth,
		       unsigned *fn_depth)
{
	const struct seg *g;
	const struct sub *b;
	int rc;
	struct cu *c = cu_at(s, pc, &g, &b, &rc, NULL);
	const struct scope *p;

	if (!c)
		return rc;
	p = &b->scopes[g->scope];
	*func = p->func;
	*depth = p->depth;
	*fn_depth = p->fn_depth;
	return 1;
}

int hm_scopes_at(hm_scopes *s, uint64_t pc, const struct hm_scope_var **vars)
{
	ptrdiff_t k = LAST_LE(s->cr, s->ncr, pc);
	size_t n = 0;

	*vars = NULL;
	/* unit ranges rarely overlap; look back a little for one that does */
	for (unsigned tries = 0; k >= 0 && tries < 16; k--, tries++) {
		struct cu *c;
		const struct seg *g;
		const struct sub *b;
		int rc;

		if (pc >= s->cr[k].hi)
			continue;
		c = &s->cus[s->cr[k].cu];
		rc = build_cu(s, c, NULL);
		if (rc)
			return rc;
		g = seg_at(s, c, pc, &rc, NULL, &b);
		if (rc)
			return rc;
		if (!g)
			continue;
		rc = emit(s, b, g, pc, &n);
		if (rc)
			return rc;
		if (n)
			break;
	}
	*vars = s->out;
	return (int)n;
}

static int cu_global(hm_scopes *s, struct cu *c, const char *name, struct hm_scope_var *out);

int hm_scopes_global(hm_scopes *s, uint64_t pc, const char *name, struct hm_scope_var *out)
{
	const struct seg *g;
	const struct sub *b;
	int rc;
	struct cu *c;

	if (pc == HM_SCOPES_ANY_UNIT) {
		for (size_t i = 0; i < s->ncus; i++) {
			if ((rc = build_cu(s, &s->cus[i], NULL)) == -ENOMEM)
				return rc;
			if (!rc)	/* a unit that is unreadable is skipped */
				rc = cu_global(s, &s->cus[i], name, out);
			if (rc == 1 || rc == -ENOMEM)
				return rc;
		}
		return 0;
	}
	c = cu_at(s, pc, &g, &b, &rc, NULL);
	if (!c)
		return rc;
	return cu_global(s, c, name, out);
}

static int cu_global(hm_scopes *s, struct cu *c, const char *name, struct hm_scope_var *out)
{
	if (!c->globs_state) {
		pthread_mutex_lock(&s->build);
		s->cur = c;
		position(s, c);
		c->globs_state = resolve_globs(s, c) ?: own_names(s, NULL, 0, c->globs, c->nglobs) ?: 1;
		pthread_mutex_unlock(&s->build);
	}
	if (c->globs_state < 0)
		return c->globs_state;
	for (size_t i = 0; i < c->nglobs; i++) {
		const struct svar *v = &c->globs[i];

		if (strcmp(v->name, name))
			continue;
		memset(out, 0, sizeof(*out));
		out->name = v->name;
		out->kind = HM_VLOC_ADDR;
		out->reg = out->fb_reg = -1;
		out->ptr_depth = v->ptr_depth;
		out->record = v->record;
		out->record_kind = v->record_kind;
		out->record_size = v->record_size;
		return 1;
	}
	return 0;
}
