/* Internal: the DWARF loader's state, shared by its files.  They call each
 * other in one direction only, from the driver down to the toolbox:
 *   dwarf-load.c   hm_dwarf_load(): open, walk, free
 *   dwarf-par.c    the walk on threads
 *   dwarf-walk.c   the serial walk: units, top-level DIEs, dwz, .dwo
 *   dwarf.c        the conversion of type DIEs; the offset map
 *   dwarf-ns.c     C++ scopes;  dwarf-attr.c  attributes, decl files, names
 *   dwarf-units.c  which unit is read;  dwarf-util.c  errors, DIE steps */
#ifndef HM_DWARF_INT_H
#define HM_DWARF_INT_H
#include "dwarf/dwarf-compat.h"
#include "types/types-int.h"
#include "dwarf/dwline.h"

#define IN_PROGRESS UINT32_MAX	/* map value: the DIE is being converted */
#define MAX_DEPTH 512		/* type nesting; deeper is a malformed cycle */

/* DIE offset -> type id.  Entries of older generations (units) count as
 * empty, so a new unit needs no clearing. */
struct offslot {
	uint64_t off;
	uint32_t id;
	uint32_t gen;
};

/* What the loader reads of a DIE (dw_read_attrs); has_* say which were there. */
struct die_attrs {
	const char *name, *comp_dir, *dwo_name;
	uint64_t addr_base;
	uint64_t byte_size, bit_size, data_bit_offset, member_loc, alignment;
	int64_t bit_offset;
	uint64_t type_off, containing_off, spec_off, import_off, count, upper_bound, lower_bound;
	uint64_t decl_file, decl_line, encoding, addr, accessibility;
	int64_t const_value;
	unsigned has_byte_size : 1, has_bit_size : 1, has_data_bit_offset : 1,
		 has_member_loc : 1, member_loc_expr : 1, has_bit_offset : 1, has_type : 1,
		 has_count : 1, has_upper : 1, has_lower : 1, declaration : 1,
		 external : 1, artificial : 1, prototyped : 1, has_addr : 1,
		 virtuality : 1, const_signed : 1, has_containing : 1, has_spec : 1,
		 has_import : 1,
		 upper_is_expr : 1, vector : 1;
};

/* A unit's file table: the parsed line table header, and the paths made
 * of it, interned on first use (most units name hundreds of headers but
 * declare types from far fewer). */
struct ftab {
	Dwarf_Debug dbg;
	uint64_t cu_die_off;
	struct hm_dwl_unit u;
	const char *comp_dir;	/* the unit's DW_AT_comp_dir (libdwarf's) */
	const char **files;	/* u.nfiles entries */
};
#define NR_FTABS 8
#define ALT_BIT (1ULL << 63)	/* a DIE offset in the dwz alt file */

/* A C++ namespace or named class: the DIE offsets it holds (dwarf-ns.c). */
struct dw_span {
	uint64_t start, end;	/* the DIE, up to its next sibling */
	const char *name;	/* DW_AT_name (libdwarf's) */
	const char *qual;	/* qualified, interned on first use */
	uint32_t parent;	/* enclosing span + 1, 0: the unit */
};

struct loader {
	hm_types *t;
	hm_binary *bin;
	Dwarf_Debug dbg;
	const struct hm_load_opts *opts;
	const char *path;
	int err;		/* first fatal error (negative errno) */
	/* the unit being walked (a CU, or a partial unit of the dwz alt file,
	 * or the split unit of a .dwo) */
	Dwarf_Die cu_die;
	uint64_t cu_start, cu_end, cu_die_off;
	unsigned cu_version, addr_size;
	int in_alt;		/* reading the .gnu_debugaltlink file */
	int cplusplus;		/* the CU is C++: classes nest */
	int big_endian;		/* the target's byte order (bit offsets) */
	int x3;			/* names may be split indexes (dwarf-x3.h) */
	uint64_t stroff_base;	/* the unit's DW_AT_str_offsets_base */
	/* file tables of recently used units */
	struct ftab ftabs[NR_FTABS];
	unsigned next_ftab;
	/* declaration paths made: units name the same headers by the same
	 * strings of the sections (dwarf-attr.c) */
	struct path_slot {
		const char *name, *dir, *comp_dir, *path;
	} *paths;
	size_t npaths, npaths_used;
	/* dwz: the alt file, and the partial units of it already walked */
	Dwarf_Debug main_dbg, alt_dbg;
	hm_binary *alt_bin;
	struct hm_dwarf_obj *alt_obj;
	HM_VEC(uint64_t) walked_alt;
	/* split DWARF: while reading a .dwo, the file, the skeleton's
	 * DW_AT_addr_base and DW_AT_comp_dir */
	hm_binary *dwo_bin;
	struct hm_dwarf_obj *obj, *dwo_obj;	/* the main file's, the .dwo's */
	uint64_t dwo_addr_base, dwo_skel_off;	/* skeleton DIE in main_dbg */
	const char *dwo_comp_dir;
	int in_dwo;
	int warned_line;	/* a malformed line table was reported */
	/* DIE offset -> id, valid for entries of the current generation */
	struct offslot *map;
	size_t nmap, nmap_used;
	uint32_t gen;
	unsigned depth;
	/* scratch stacks: a type's children collect here and move to the table
	 * in one contiguous run once the type is complete */
	HM_VEC(hm_member) smembers;
	HM_VEC(uint64_t) sdims;
	HM_VEC(hm_type_id) sparams;
	HM_VEC(hm_enumerator) senums;
	/* statistics for the debug diagnostic */
	size_t nr_cus, nr_converted;
	/* `only` mode */
	size_t nr_only, nr_found;
	const char **only;
	unsigned char *found;	/* per name: 1 a typedef, 2 a struct found */
	int plain_cxx;		/* a plain name was met in a C++ unit */
	/* names of the aggregates seen by the `only` walk (pointers into
	 * .debug_str), for suggestions when a name is not found */
	const char **seen;
	size_t nseen, nseen_slots;
	/* C++ units: the namespaces and named classes of the unit as DIE
	 * offset ranges, in DIE order (dwarf-ns.c) */
	HM_VEC(struct dw_span) spans;
};

/* Reading the alt file: DIE offsets and file tables are its own. */
struct unit_ctx {
	Dwarf_Debug dbg;
	Dwarf_Die cu_die;
	uint64_t cu_start, cu_end, cu_die_off;
	unsigned cu_version;
	int in_alt;
};

/* dwarf-util.c */
int dw_set_err(struct loader *ld, int err);
/* Report corrupt DWARF once (the first error wins); returns -EBADMSG and frees e. */
int dw_bad(struct loader *ld, Dwarf_Error e, const char *what);
/* dw_bad() naming the DIE's offset: "DIE at offset 0x..: what". */
int dw_bad_die(struct loader *ld, Dwarf_Die die, const char *what);
Dwarf_Die dw_first_child(struct loader *ld, Dwarf_Die die);
/* Frees die and returns its next sibling (NULL at the end or on error). */
Dwarf_Die dw_next_sibling(struct loader *ld, Dwarf_Die die);

/* dwarf.c */
/* Whether a DIE of a tag that never has children (base type, pointer,
 * typedef, qualifier, member) says it has: a corrupt abbreviation. */
int dw_leaf_with_children(Dwarf_Die die, Dwarf_Half tag);
int dw_map_get(struct loader *ld, uint64_t off, uint32_t *id);
int dw_map_put(struct loader *ld, uint64_t off, uint32_t id);
/* Only a hint: the slot dw_map_get(ld, off) will read first. */
void dw_map_prefetch(const struct loader *ld, uint64_t off);
/* Start a new generation of the DIE offset map (a new unit's offsets). */
void dw_map_new_cu(struct loader *ld);
/* Convert a DIE whose offset is `off`; the caller checked the map. */
hm_type_id dw_convert_die(struct loader *ld, Dwarf_Die die, uint64_t off, int tag);
/* dw_convert_die() of a typedef from its attributes as read (by a worker),
 * name and decl_file interned. */
hm_type_id dw_convert_typedef(struct loader *ld, uint64_t off, const struct die_attrs *d,
			      const char *name, const char *decl_file);
/* The type at DIE offset off, converted on its first reference. */
hm_type_id dw_convert_off(struct loader *ld, uint64_t off);
/* `only` mode: the index of the requested name `name` (of the DIE at off:
 * a qualified request names its scope too) is, -1 if none (an aggregate's
 * name is then remembered for suggestions).  A plain name met in a C++
 * unit keeps the walk going: another scope may have a class of that name. */
int dw_wanted(struct loader *ld, const char *name, int aggregate, uint64_t off);
void dw_remember_name(struct loader *ld, const char *name);
/* A top-level type converted to id: list it (want: its `only` index or -1). */
void dw_note_root(struct loader *ld, int tag, hm_type_id id, int want);
/* A global variable's attributes, its declaration's merged in: 0 if it is
 * one to store (dw_store_variable()), -1 if not. */
int dw_variable_attrs(struct loader *ld, Dwarf_Die die, struct die_attrs *d);
void dw_store_variable(struct loader *ld, const struct die_attrs *d, const char *decl_file);

/* dwarf-walk.c */
/* Walk the top-level DIEs under parent: types, variables, imports. */
void dw_walk_children(struct loader *ld, Dwarf_Die parent, unsigned level);
/* Enter a unit (from its DIE); 0 or the error reported. */
int dw_unit_begin(struct loader *ld, Dwarf_Die cu, unsigned version, unsigned addr_size);
/* Count the unit entered in the table's state and start its offset map. */
void dw_unit_count(struct loader *ld, unsigned addr_size);
/* Walk it serially (its children, or its split DWARF file). */
void dw_unit_walk(struct loader *ld, Dwarf_Die cu, unsigned unit_type);
void dw_unit_end(struct loader *ld);
/* `only` mode without variables: every requested name was found. */
int dw_all_found(const struct loader *ld);
/* DW_TAG_imported_unit: walk an alt file partial unit, once. */
void dw_walk_imported(struct loader *ld, Dwarf_Die die, unsigned level);
/* Walk the .dwo file a skeleton unit names. */
void dw_walk_dwo(struct loader *ld, Dwarf_Die skel);
/* Walk every unit, one after the other; 0 or the error reported. */
int dw_walk_serial(struct loader *ld);

/* dwarf-par.c: the whole walk on `threads` threads, the same table as the
 * serial one (bar dwz files, which the caller walks serially). */
int dw_walk_parallel(struct loader *ld, unsigned threads);

/* dwarf-attr.c */
/* Read the attributes the loader uses into *d (want_loc: DW_AT_location too).
 * Returns 0, or a negative errno after reporting. */
int dw_read_attrs(struct loader *ld, Dwarf_Die die, struct die_attrs *d, int want_loc);
/* The unit's DW_AT_str_offsets_base (8, past the header, without one). */
uint64_t dw_stroff_base(struct loader *ld, Dwarf_Die cu);
/* decl_file index idx of the DIE at die_off (current dbg), interned. */
const char *dw_decl_file(struct loader *ld, uint64_t idx, uint64_t die_off);
void dw_ftab_clear(struct ftab *f);
/* Drop the file tables read through dbg (before it is closed). */
void dw_forget_dbg(struct loader *ld, Dwarf_Debug dbg);
/* A DIE's name, NULL if it has none (or it cannot be read). */
const char *dw_die_name(struct loader *ld, Dwarf_Die die);

/* dwarf-ns.c */
/* Index the namespaces and classes of the unit just entered (C++ only). */
void dw_spans_build(struct loader *ld, Dwarf_Die cu);
/* The qualified scope of the DIE at off in the unit entered ("std",
 * "outer::Inner"), interned; NULL at the unit's top level, in C, and
 * outside the unit. */
const char *dw_scope_of(struct loader *ld, uint64_t off);

/* dwarf-units.c */
void dw_ctx_save(const struct loader *ld, struct unit_ctx *c);
void dw_ctx_restore(struct loader *ld, const struct unit_ctx *c);
/* Switch to reading the dwz alt file (save the context first). */
void dw_enter_alt(struct loader *ld);
/* Whether a DWARF 4 compile unit is a GNU split-DWARF skeleton. */
int dw_has_dwo_name(struct loader *ld, Dwarf_Die cu);

#endif
