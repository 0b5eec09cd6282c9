/* dwarf-units: which unit the loader reads — saving and restoring it around
 * a step into the dwz supplementary (.gnu_debugaltlink) file, and telling a
 * split DWARF skeleton.  dwarf-walk.c walks the partial units and .dwo
 * files themselves. */
#include "config.h"
#include "dwarf/dwarf-int.h"

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
