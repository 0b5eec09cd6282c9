/* dwarf-util: what every part of the DWARF loader uses to report corrupt
 * DWARF (once, the first error wins) and to step from DIE to DIE without
 * being sent round in circles by a corrupt file. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include "dwarf/dwarf-int.h"
#include "base/diag.h"

int dw_set_err(struct loader *ld, int err)
{
	if (!ld->err)
		ld->err = err;
	return err;
}

int dw_bad(struct loader *ld, Dwarf_Error e, const char *what)
{
	if (!ld->err) {
		hm_diag(HM_DIAG_ERROR, "%s: corrupt DWARF in CU at offset 0x%llx: %s%s%s",
			ld->path, (unsigned long long)ld->cu_start, what, e ? ": " : "",
			e ? dwarf_errmsg(e) : "");
		ld->err = -EBADMSG;
	}
	hm_dwarf_free_error(ld->dbg, e);
	return -EBADMSG;
}

int dw_bad_die(struct loader *ld, Dwarf_Die die, const char *what)
{
	Dwarf_Off off = 0;
	Dwarf_Error e = NULL;
	char buf[300];

	if (dwarf_dieoffset(die, &off, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(ld->dbg, e);
		return dw_bad(ld, NULL, what);
	}
	snprintf(buf, sizeof(buf), "DIE at offset 0x%llx: %s", (unsigned long long)off, what);
	return dw_bad(ld, NULL, buf);
}

Dwarf_Die dw_first_child(struct loader *ld, Dwarf_Die die)
{
	Dwarf_Die c = NULL;
	Dwarf_Error e = NULL;
	int rc = dwarf_child(die, &c, &e);

	if (rc == DW_DLV_ERROR)
		dw_bad(ld, e, "child");
	return rc == DW_DLV_OK ? c : NULL;
}

/* Frees `die` and returns its next sibling (NULL at the end or on error).
 * A sibling lies after its DIE: a corrupt DW_AT_sibling pointing back
 * would send every walk round the same DIEs for ever. */
Dwarf_Die dw_next_sibling(struct loader *ld, Dwarf_Die die)
{
	Dwarf_Die s = NULL;
	Dwarf_Error e = NULL;
	Dwarf_Off here = 0, next = 0;
	int rc = hm_dwarf_sibling(ld->dbg, die, &s, &e);

	if (rc == DW_DLV_OK && (dwarf_dieoffset(die, &here, &e) != DW_DLV_OK ||
				dwarf_dieoffset(s, &next, &e) != DW_DLV_OK || next <= here)) {
		dwarf_dealloc_die(s);
		s = NULL;
		rc = DW_DLV_ERROR;
		if (!e) {
			char what[96];

			snprintf(what, sizeof(what), "the sibling of the DIE at 0x%llx is at 0x%llx, "
				 "not after it", (unsigned long long)here, (unsigned long long)next);
			dwarf_dealloc_die(die);
			dw_bad(ld, NULL, what);
			return NULL;
		}
	}
	dwarf_dealloc_die(die);
	if (rc == DW_DLV_ERROR)
		dw_bad(ld, e, "sibling");
	return rc == DW_DLV_OK ? s : NULL;
}
