/* dwarf-units: debug info spread over more than one file — dwz partial units
 * in a supplementary (.gnu_debugaltlink) file, and split DWARF (.dwo). */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dwarf/dwarf-int.h"
#include "base/diag.h"

void dw_ctx_save(const struct loader *ld, struct unit_ctx *c)
{
	c->dbg = ld->dbg;
	c->cu_die = ld->cu_die;
	c->cu_start = ld->cu_start;
	c->cu_end = ld->cu_end;
	c->cu_die_off = ld->cu_die_off;
	c->cu_version = ld->cu_version;
	c->in_alt = ld->in_alt;
}

void dw_ctx_restore(struct loader *ld, const struct unit_ctx *c)
{
	ld->dbg = c->dbg;
	ld->cu_die = c->cu_die;
	ld->cu_start = c->cu_start;
	ld->cu_end = c->cu_end;
	ld->cu_die_off = c->cu_die_off;
	ld->cu_version = c->cu_version;
	ld->in_alt = c->in_alt;
}

void dw_enter_alt(struct loader *ld)
{
	ld->dbg = ld->alt_dbg;
	ld->in_alt = 1;
	/* no unit: decl files are looked up through each DIE's own unit */
	ld->cu_die = NULL;
	ld->cu_start = ld->cu_end = ld->cu_die_off = 0;
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

/* DWARF 4 split units (GNU extension) are compile units with a dwo name. */
int dw_has_dwo_name(struct loader *ld, Dwarf_Die cu)
{
	Dwarf_Bool has = 0;
	Dwarf_Error e = NULL;

	if (dwarf_hasattr(cu, DW_AT_GNU_dwo_name, &has, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(ld->dbg, e);
		return 0;
	}
	return has;
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
