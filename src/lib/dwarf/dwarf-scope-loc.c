/* The scope index's locations (dwarf-scope-int.h): a variable's location
 * descriptions and a subprogram's frame base, decoded into what hitmap
 * reports. */
#include "config.h"
#include <errno.h>
#include "dwarf/dwarf-scope-int.h"

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
int dws_var_locs(hm_scopes *s, struct cu *c, Dwarf_Die die, struct svar *v)
{
	Dwarf_Attribute a;
	Dwarf_Error e = NULL;
	Dwarf_Loc_Head_c head = NULL;
	Dwarf_Unsigned count = 0;
	int rc = dwarf_attr(die, DW_AT_location, &a, &e);

	if (rc != DW_DLV_OK) {
		hm_dwarf_free_error(s->dbg, e);
		return rc == DW_DLV_NO_ENTRY ? 1 : dws_bad(s, NULL, "unreadable DW_AT_location");
	}
	if ((rc = dws_check_locattr(s, c, die, DW_AT_location))) {
		dwarf_dealloc_attribute(a);
		return rc == -ENOMEM ? rc : dws_bad(s, NULL, "malformed location list");
	}
	rc = dwarf_get_loclist_c(a, &head, &count, &e);
	dwarf_dealloc_attribute(a);
	if (rc == DW_DLV_NO_ENTRY)
		return 1;
	if (rc != DW_DLV_OK)
		return dws_bad(s, e, "unreadable location list");
	if (count > MAX_LOC_ENTRIES) {
		dwarf_loc_head_c_dealloc(head);
		return dws_bad(s, NULL, "location list too long");
	}
	v->loc_first = c->nlocs;
	for (Dwarf_Unsigned i = 0; i < count; i++) {
		struct hm_dwarf_lle le;
		struct sloc l;

		if (hm_dwarf_loc_entry(head, i, &le, &e) != DW_DLV_OK) {
			dwarf_loc_head_c_dealloc(head);
			return dws_bad(s, e, "unreadable location list entry");
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

/* The frame base of a subprogram: DW_OP_call_frame_cfa, or a register. */
void dws_frame_base(hm_scopes *s, const struct cu *c, Dwarf_Die die, struct scope *sc)
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
	if (dws_check_locattr(s, c, die, DW_AT_frame_base))
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
