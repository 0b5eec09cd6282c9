/* dwarf-walk: the serial walk of a file's units — their top-level DIEs
 * (types, global variables, namespaces), the dwz partial units they import
 * and the split DWARF (.dwo) files their skeletons name.  The conversion of
 * the DIEs met is dwarf.c's; dwarf-par.c walks the same units on threads. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dwarf/dwarf-int.h"
#include "base/diag.h"

static int has_name(struct loader *ld, Dwarf_Die die)
{
	return dw_die_name(ld, die) != NULL;
}

static void add_variable(struct loader *ld, Dwarf_Die die, uint64_t off)
{
	struct die_attrs d;

	if (!dw_variable_attrs(ld, die, &d))
		dw_store_variable(ld, &d, dw_decl_file(ld, d.decl_file, off));
}

static void top_level(struct loader *ld, Dwarf_Die die, int tag, uint64_t off)
{
	hm_type_id id = 0;
	int want = -1;

	/* Aggregates and typedefs are roots (-C takes either name); enums and
	 * base types nothing uses are of no interest. */
	if (!dw_is_aggregate(tag) && tag != DW_TAG_typedef)
		return;
	if (ld->nr_only &&
	    (want = dw_wanted(ld, dw_die_name(ld, die), dw_is_aggregate(tag), off)) < 0)
		return;
	/* anonymous aggregates are read when something refers to them: read
	 * here, each CU would pay for their members again */
	if (!ld->nr_only && dw_is_aggregate(tag) && !has_name(ld, die))
		return;
	if (!dw_map_get(ld, off, &id)) {
		ld->depth = 0;
		id = dw_convert_die(ld, die, off, tag);
	}
	dw_note_root(ld, tag, id, want);
}
/* dwz: a unit imports a partial unit.  Partial units of this file are walked
 * as units of their own; those of the alt file are walked here, once. */
void dw_walk_imported(struct loader *ld, Dwarf_Die die, unsigned level)
{
	struct die_attrs d;
	struct unit_ctx c;
	Dwarf_Die pu = NULL;
	Dwarf_Error e = NULL;
	Dwarf_Off start = 0, len = 0;
	Dwarf_Half ver = 0, osize = 0;
	uint64_t off;

	if (dw_read_attrs(ld, die, &d, 0) || !d.has_import || !(d.import_off & ALT_BIT) ||
	    !ld->alt_dbg || level > 16)
		return;
	for (size_t i = 0; i < ld->walked_alt.n; i++)
		if (ld->walked_alt.v[i] == d.import_off)
			return;
	if (hm_vec_push(ld->walked_alt, d.import_off) < 0) {
		dw_set_err(ld, -ENOMEM);
		return;
	}
	dw_ctx_save(ld, &c);
	dw_enter_alt(ld);
	off = d.import_off & ~ALT_BIT;
	if (dwarf_offdie_b(ld->dbg, off, 1, &pu, &e) != DW_DLV_OK ||
	    dwarf_die_CU_offset_range(pu, &start, &len, &e) != DW_DLV_OK ||
	    dwarf_get_version_of_die(pu, &ver, &osize) != DW_DLV_OK) {
		dw_bad(ld, e, "imported unit");
	} else {
		ld->cu_die = pu;
		ld->cu_start = start;
		ld->cu_end = start + len;
		ld->cu_die_off = off;
		ld->cu_version = ver;
		dw_walk_children(ld, pu, level + 1);
		for (unsigned i = 0; i < NR_FTABS; i++)
			if (ld->ftabs[i].dbg == ld->dbg && ld->ftabs[i].cu_die_off == off)
				dw_ftab_clear(&ld->ftabs[i]);
	}
	if (pu)
		dwarf_dealloc_die(pu);
	dw_ctx_restore(ld, &c);
}
void dw_walk_children(struct loader *ld, Dwarf_Die parent, unsigned level)
{
	Dwarf_Die c;

	for (c = dw_first_child(ld, parent); c && !ld->err; c = dw_next_sibling(ld, c)) {
		Dwarf_Half tag = 0;
		Dwarf_Off off = 0;
		Dwarf_Error e = NULL;

		if (dwarf_tag(c, &tag, &e) != DW_DLV_OK ||
		    dwarf_dieoffset(c, &off, &e) != DW_DLV_OK) {
			dw_bad(ld, e, "entry");
			break;
		}
		if (dw_leaf_with_children(c, tag)) {
			dw_bad_die(ld, c, "a DIE that has no children says it has");
			break;
		}
		if (ld->in_alt)
			off |= ALT_BIT;
		if (tag == DW_TAG_variable && ld->opts->variables && level == 0)
			add_variable(ld, c, off);
		else if (tag == DW_TAG_imported_unit)
			dw_walk_imported(ld, c, level);
		else if (tag == DW_TAG_namespace && level < 16)
			dw_walk_children(ld, c, level + 1);
		else if (tag != DW_TAG_subprogram && tag != DW_TAG_variable) {
			top_level(ld, c, tag, off);
			/* classes nested in classes: pahole -C finds them by their
			 * own name, and they are types of their own (Outer::Inner);
			 * only C++ has them */
			if (ld->cplusplus && dw_is_aggregate(tag) && level < 16 &&
			    (!ld->nr_only || !dw_all_found(ld)))
				dw_walk_children(ld, c, level + 1);
		}
		if (dw_all_found(ld))
			break;
	}
	if (c)
		dwarf_dealloc_die(c);
}

static int is_cplusplus(struct loader *ld, Dwarf_Die cu)
{
	Dwarf_Unsigned lang = 0;
	Dwarf_Error e = NULL;

	if (dwarf_srclang(cu, &lang, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(ld->dbg, e);
		return 0;
	}
	return lang == DW_LANG_C_plus_plus || lang == DW_LANG_C_plus_plus_03 ||
	       lang == DW_LANG_C_plus_plus_11 || lang == DW_LANG_C_plus_plus_14;
}

/* Enter a unit: what every walk of it (serial or replayed) needs to know. */
int dw_unit_begin(struct loader *ld, Dwarf_Die cu, unsigned version, unsigned addr_size)
{
	Dwarf_Error e = NULL;
	Dwarf_Off cu_off = 0, cu_len = 0;

	if (dwarf_die_CU_offset_range(cu, &cu_off, &cu_len, &e) != DW_DLV_OK)
		return dw_bad(ld, e, "unit range");
	ld->cu_die = cu;
	ld->cu_start = cu_off;
	ld->cu_end = cu_off + cu_len;
	ld->cu_version = version;
	ld->cplusplus = is_cplusplus(ld, cu);
	if (dwarf_dieoffset(cu, &cu_off, &e) != DW_DLV_OK)
		return dw_bad(ld, e, "unit entry");
	ld->cu_die_off = cu_off;
	ld->stroff_base = dw_stroff_base(ld, cu);
	ld->addr_size = addr_size ? addr_size : 8;
	return 0;
}

/* Leave it: the file tables may point at its DIE. */
void dw_unit_end(struct loader *ld)
{
	for (unsigned i = 0; i < NR_FTABS; i++)
		if (ld->ftabs[i].dbg == ld->dbg && ld->ftabs[i].cu_die_off == ld->cu_die_off)
			dw_ftab_clear(&ld->ftabs[i]);
	ld->cu_die = NULL;
}

/* The unit's part of the table's state that is not per unit. */
void dw_unit_count(struct loader *ld, unsigned addr_size)
{
	if (ld->t->pointer_size != ld->addr_size && addr_size)
		ld->t->pointer_size = addr_size;
	ld->nr_cus++;
	dw_map_new_cu(ld);
}
/* Split DWARF: a skeleton unit names the .dwo file that holds its DIEs. */
void dw_walk_dwo(struct loader *ld, Dwarf_Die skel)
{
	struct die_attrs d;
	struct unit_ctx c;
	char cand[4096];
	const char *file = NULL, *slash;
	hm_binary *dbin;
	struct hm_dwarf_obj *dobj = NULL;
	Dwarf_Debug ddbg = NULL;
	Dwarf_Die cu = NULL;
	Dwarf_Error e = NULL;
	Dwarf_Half version = 0, addr_size = 0, unit_type = 0;
	Dwarf_Off off = 0, len = 0;
	uint64_t stroff;
	int rc, x3;

	if (dw_read_attrs(ld, skel, &d, 0) || !d.dwo_name)
		return;
	if (d.dwo_name[0] == '/') {
		file = d.dwo_name;
	} else {
		if (d.comp_dir && snprintf(cand, sizeof(cand), "%s/%s", d.comp_dir, d.dwo_name) <
		    (int)sizeof(cand) && !access(cand, R_OK))
			file = cand;
		if (!file && (slash = strrchr(ld->path, '/')) &&
		    snprintf(cand, sizeof(cand), "%.*s/%s", (int)(slash - ld->path), ld->path,
			     d.dwo_name) < (int)sizeof(cand) && !access(cand, R_OK))
			file = cand;
		if (!file && !access(d.dwo_name, R_OK))
			file = d.dwo_name;
	}
	if (!file || access(file, R_OK)) {
		hm_diag(HM_DIAG_ERROR, "%s: split DWARF file %s not found (comp dir %s)", ld->path,
			d.dwo_name, d.comp_dir ? d.comp_dir : "unknown");
		dw_set_err(ld, -ENOENT);
		return;
	}
	dbin = hm_binary_open(file);
	if (!dbin) {
		dw_set_err(ld, errno == ENOMEM ? -ENOMEM : -EBADMSG);
		return;
	}
	rc = hm_dwarf_open(dbin, &ddbg, &dobj);
	if (rc) {
		if (rc == -ENODATA)
			hm_diag(HM_DIAG_ERROR, "%s: no DWARF in split DWARF file", file);
		dw_set_err(ld, rc == -ENODATA ? -EBADMSG : rc);
		hm_binary_close(dbin);
		return;
	}
	/* Not tied to the executable (dwarf_set_tied_dbg): libdwarf 20210528
	 * then applies the skeleton's DW_AT_str_offsets_base to the .dwo's own
	 * string offsets, which garbles clang's names.  Addresses (DW_OP_addrx)
	 * are looked up in the executable's .debug_addr here instead. */
	dw_ctx_save(ld, &c);
	ld->dbg = ddbg;
	/* DWARF 5 points past the .debug_addr header; GNU split DWARF 4 has
	 * no header */
	ld->dwo_addr_base = d.addr_base;
	ld->dwo_comp_dir = d.comp_dir;
	ld->dwo_bin = dbin;
	ld->dwo_obj = dobj;
	ld->dwo_skel_off = c.cu_die_off;
	ld->in_dwo = 1;
	x3 = ld->x3;
	stroff = ld->stroff_base;
	ld->x3 |= hm_dwarf_widened(dobj);
	rc = hm_dwarf_next_cu(ddbg, &version, &addr_size, &unit_type, &cu, &e);
	if (rc == DW_DLV_OK && dwarf_die_CU_offset_range(cu, &off, &len, &e) == DW_DLV_OK) {
		ld->cu_die = cu;
		ld->stroff_base = dw_stroff_base(ld, cu);
		ld->cu_start = off;
		ld->cu_end = off + len;
		ld->cu_version = version;
		if (dwarf_dieoffset(cu, &off, &e) == DW_DLV_OK) {
			ld->cu_die_off = off;
			/* .dwo offsets start again from 0: a generation of their own */
			dw_map_new_cu(ld);
			dw_spans_build(ld, cu);	/* the .dwo's own offsets */
			dw_walk_children(ld, cu, 0);
			ld->spans.n = 0;
			dw_map_new_cu(ld);
		}
	}
	if (e)
		dw_bad(ld, e, "split unit");
	if (cu)
		dwarf_dealloc_die(cu);
	dw_forget_dbg(ld, ddbg);
	dw_ctx_restore(ld, &c);
	ld->dwo_addr_base = 0;
	ld->dwo_comp_dir = NULL;
	ld->dwo_bin = NULL;
	ld->dwo_obj = NULL;
	ld->in_dwo = 0;
	ld->x3 = x3;
	ld->stroff_base = stroff;
	hm_dwarf_close(ddbg, dobj);
	hm_binary_close(dbin);
}
/* Walk the unit entered with dw_unit_begin() (and dw_unit_count()). */
void dw_unit_walk(struct loader *ld, Dwarf_Die cu, unsigned unit_type)
{
	if (unit_type == DW_UT_skeleton || dw_has_dwo_name(ld, cu)) {
		dw_walk_dwo(ld, cu);
	} else {
		dw_spans_build(ld, cu);
		dw_walk_children(ld, cu, 0);
		ld->spans.n = 0;
	}
}

int dw_all_found(const struct loader *ld)
{
	return ld->nr_only && ld->nr_found == ld->nr_only && !ld->opts->variables &&
	       !ld->plain_cxx;
}

int dw_walk_serial(struct loader *ld)
{
	for (;;) {
		Dwarf_Half version = 0, addr_size = 0, unit_type = 0;
		Dwarf_Die cu = NULL;
		Dwarf_Error e = NULL;
		int rc = hm_dwarf_next_cu(ld->dbg, &version, &addr_size, &unit_type, &cu, &e);

		if (rc == DW_DLV_NO_ENTRY)
			break;
		if (rc != DW_DLV_OK)
			return dw_bad(ld, e, "unit header");
		if (dw_unit_begin(ld, cu, version, addr_size)) {
			dwarf_dealloc_die(cu);
			return ld->err;
		}
		dw_unit_count(ld, addr_size);
		dw_unit_walk(ld, cu, unit_type);
		dw_unit_end(ld);
		dwarf_dealloc_die(cu);
		if (ld->err)
			return ld->err;
		/* libdwarf keeps its place between calls; nothing else to read */
		if (dw_all_found(ld))
			break;
	}
	return ld->err;
}
