/* Internal: every difference between libdwarf API versions lives here.
 * Debian bookworm ships 20210528 (headers under <libdwarf/>, no version
 * macro); libdwarf 0.x/2.x define DW_LIBDWARF_VERSION_MAJOR and changed a few
 * signatures and the object access interface. */
#ifndef HM_DWARF_COMPAT_H
#define HM_DWARF_COMPAT_H
#include "config.h"
#ifdef HAVE_LIBDWARF_PC
#include <libdwarf.h>
#include <dwarf.h>
#else
#include <libdwarf/libdwarf.h>
#include <libdwarf/dwarf.h>
#endif
#include "hitmap/binary.h"

#ifndef DW_TAG_atomic_type
#define DW_TAG_atomic_type 0x47
#endif
#ifndef DW_TAG_skeleton_unit
#define DW_TAG_skeleton_unit 0x4a
#endif
#ifndef DW_AT_alignment
#define DW_AT_alignment 0x88
#endif
#ifndef DW_OP_addrx
#define DW_OP_addrx 0xa1
#endif
#ifndef DW_OP_GNU_addr_index
#define DW_OP_GNU_addr_index 0xfb
#endif

/* A Dwarf_Debug reading the sections of `bin` straight from its mapping.
 * Relocations are applied only for ET_REL files (into private copies);
 * executables, shared objects and the kernel's vmlinux carry applied values
 * already.  Returns 0, -ENODATA (no .debug_info), -EBADMSG or -ENOMEM. */
struct hm_dwarf_obj;
int hm_dwarf_open(hm_binary *bin, Dwarf_Debug *dbg, struct hm_dwarf_obj **obj);
/* hm_dwarf_open() with HM_DWARF_LOCATIONS: libdwarf is shown .debug_loc and
 * .debug_loclists too (the scope index reads location lists). */
#define HM_DWARF_LOCATIONS 1u
/* ... and HM_DWARF_NOT_WIDENED: another handle of bin found no three-byte
 * index form to widen (hm_dwarf_widened() 0), so this one does not look. */
#define HM_DWARF_NOT_WIDENED 2u
int hm_dwarf_open_flags(hm_binary *bin, unsigned flags, Dwarf_Debug *dbg,
			struct hm_dwarf_obj **obj);
void hm_dwarf_close(Dwarf_Debug dbg, struct hm_dwarf_obj *obj);
/* A new handle on obj, whose last one was closed (hm_dwarf_close(dbg,
 * NULL)): 0, or -ENODATA / -EBADMSG (reported) as hm_dwarf_open_flags(). */
int hm_dwarf_reopen(struct hm_dwarf_obj *obj, Dwarf_Debug *dbg);
/* Section `name` as libdwarf reads it: relocated in an ET_REL file, the
 * rewritten abbreviations (dwarf-x3.h).  NULL if absent or empty; valid
 * until hm_dwarf_close(). */
const void *hm_dwarf_obj_section(struct hm_dwarf_obj *obj, const char *name, size_t *size);
/* Whether the abbreviations were rewritten for three-byte index forms
 * (dwarf-x3.h): names may then come as split indexes, which only
 * dw_read_attrs() reads (dwarf_diename() cannot). */
int hm_dwarf_widened(const struct hm_dwarf_obj *obj);

/* The dwz supplementary file named by bin's .gnu_debugaltlink (looked for as
 * written, beside bin, and under /usr/lib/debug/.build-id), checked against
 * the build-id the link records.  0 with *alt_bin NULL when bin has no link;
 * -ENOENT (reported) when the file is missing or does not match: the types
 * it holds would be missing, so loading stops. */
int hm_dwarf_open_alt(hm_binary *bin, hm_binary **alt_bin, Dwarf_Debug *alt_dbg,
		      struct hm_dwarf_obj **alt_obj);

/* Next CU header: returns DW_DLV_OK/NO_ENTRY/ERROR like libdwarf. */
int hm_dwarf_next_cu(Dwarf_Debug dbg, Dwarf_Half *version, Dwarf_Half *addr_size,
		     Dwarf_Half *unit_type, Dwarf_Die *cu_die, Dwarf_Error *err);

/* Step the handle's unit iteration (the one hm_dwarf_next_cu() follows) to
 * the next unit without handing out its DIE: DW_DLV_OK, DW_DLV_NO_ENTRY past
 * the last unit (the next step is the first unit again), DW_DLV_ERROR.
 * libdwarf finds the unit of a DIE offset (dwarf_offdie_b) from the
 * iteration's unit on when the offset is past it, else from the first unit:
 * a handle kept at the unit whose DIEs are looked up finds them at once. */
int hm_dwarf_skip_cu(Dwarf_Debug dbg, Dwarf_Error *err);

void hm_dwarf_free_error(Dwarf_Debug dbg, Dwarf_Error err);

/* The next sibling of die (a non-NULL DIE of .debug_info); DW_DLV_* like
 * libdwarf.  Uses DW_AT_sibling when present, so subtrees are skipped. */
int hm_dwarf_sibling(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Die *sib, Dwarf_Error *err);

/* Entry i of a location description list from dwarf_get_loclist_c():
 * kind is the DW_LLE_* (or DW_LLEX_*) value, source 0 for a single
 * expression, 1 for .debug_loc, 2 for .debug_loclists; lo, hi the
 * addresses libdwarf computed (base addresses applied); no_addr when an
 * index into .debug_addr could not be resolved. */
struct hm_dwarf_lle {
	unsigned kind, source;
	uint64_t raw_lo, lo, hi, nops;
	Dwarf_Locdesc_c desc;
	int no_addr;
};
int hm_dwarf_loc_entry(Dwarf_Loc_Head_c head, uint64_t i, struct hm_dwarf_lle *e,
		       Dwarf_Error *err);
/* Operator i of a location description: the DW_OP_* and its operands. */
int hm_dwarf_loc_op(Dwarf_Locdesc_c desc, uint64_t i, unsigned *op, uint64_t *op1,
		    uint64_t *op2, Dwarf_Error *err);

/* A struct, union or class: the tags both the type loader and the scope
 * index read as records. */
static inline int dw_is_aggregate(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

#endif
