/* Internal to the scope index (dwarf-scope.h): its data and what its files
 * share.  Each file calls only those above it:
 *   dwarf-scope-ranges.c   range and location lists, read bounded
 *   dwarf-scope-names.c    names, attributes, the unit iteration's place, the
 *                          memo of origins' names and variables' types
 *   dwarf-scope-loc.c      location descriptions and frame bases, decoded
 *   dwarf-scope-tree.c     a unit's top level and a subprogram's scope tree
 *   dwarf-scope-publish.c  building under the lock, publishing lock-free
 *   dwarf-scope-answers.c  the answers given, kept across runs
 *   dwarf-scope.c          open, free and the lookups */
#ifndef HM_DWARF_SCOPE_INT_H
#define HM_DWARF_SCOPE_INT_H
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "dwarf/dwarf-scope.h"
#include "dwarf/dwarf-compat.h"
#include "dwarf/dwline.h"
#include "base/diag.h"
#include "base/util.h"

#define MAX_SCOPE_DEPTH 256	/* nesting of DIEs walked; deeper is corrupt */
#define MAX_REF_HOPS 16		/* abstract_origin / specification chains */
#define MAX_TYPE_HOPS 64	/* typedef / qualifier / pointer chains */
#define MAX_LOC_ENTRIES (1u << 20)
#define MAX_UNMOVED 16	/* builds behind the handle before it goes round */

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
	Dwarf_Die die;		/* the unit's DIE, read by its first build */
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

/* ---- dwarf-scope-answers.c ---- */

enum { ANS_AT = 1, ANS_SCOPE, ANS_GLOBAL, ANS_LINE };

struct answer {
	uint64_t pc;
	const char *name;	/* ANS_GLOBAL: the name asked */
	uint32_t kind;
	int32_t rc;		/* what the lookup returned (>= 0) */
	uint32_t first;		/* ANS_AT, ANS_GLOBAL: the first of its vars */
	unsigned depth, fn_depth;	/* ANS_SCOPE */
	const char *func;		/* ANS_SCOPE; ANS_LINE: the label */
};

struct answers {
	struct answer *v;
	size_t n, cap;
	struct hm_scope_var *vars;
	size_t nvars, cvars;
	uint32_t *slots;	/* index + 1 into v, by (kind, pc, name) */
	size_t nslots;
	size_t nloaded;		/* v[0..nloaded) came from the saved bytes */
	void *blob;		/* those bytes: their strings */
	hm_strtab strs;		/* the names asked, copied */
	int tainted;		/* something was said: record nothing, save nothing */
};

int dws_answers_parse(const void *blob, size_t len, struct answers **out);
void dws_answers_free(struct answers *x);
const struct answer *dws_answer_find(const struct answers *x, unsigned kind, uint64_t pc,
				     const char *name);
void dws_answer_note(struct answers *x, unsigned kind, uint64_t pc, const char *name, int rc,
		     const struct hm_scope_var *vars, const char *func, unsigned depth,
		     unsigned fn_depth);
int dws_answer_vars(hm_scopes *s, const struct answer *a, const struct hm_scope_var **vars);
/* qsort()'s and bsearch()'s order of uint64_t values (dwarf-scope-tree.c). */
int dws_cmp_u64(const void *a, const void *b);
/* The PCs x answers variables or a scope for, sorted and distinct, into
 * *pcs (malloc'd; NULL when none): their number, or -ENOMEM. */
long dws_answers_pcs(const struct answers *x, uint64_t **pcs);

struct hm_scopes {
	/* the answers given (and those of earlier runs); lazy: the DWARF
	 * below is opened on the first question they do not answer, with
	 * open_err its result */
	struct answers *answers;
	int lazy, opened, open_err;
	/* lazy, once opened: the PCs the answers held then, sorted, which a
	 * prefetch leaves alone (the lookups will not build for them) */
	uint64_t *answered;
	size_t nanswered;
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
	/* the location lists, read on the first list a variable has (most
	 * lookups name variables with a single expression, and .debug_loclists
	 * is the C library's second largest section) */
	const unsigned char *loc, *loclists;
	size_t loc_sz, loclists_sz;
	int loc_read;
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
	int went_round;		/* the handle has read every unit's header */
	unsigned unmoved;	/* builds behind its place that did not move it */
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

#define AT_LOST (-2)

#define GROW(s, arr, n, cap)							\
	hm_grow((void **)&(arr), &(cap), (n) + 1, sizeof(*(arr)))

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

/* ---- dwarf-scope-ranges.c ---- */

int dws_bad(hm_scopes *s, Dwarf_Error e, const char *what);
int dws_attr_uval(hm_scopes *s, Dwarf_Die die, Dwarf_Half at, uint64_t *v, Dwarf_Half *form);
int dws_die_ranges(hm_scopes *s, const struct cu *c, Dwarf_Die die);
int dws_check_locattr(hm_scopes *s, const struct cu *c, Dwarf_Die die, Dwarf_Half at);

/* ---- dwarf-scope-names.c ---- */

const char *dws_die_name(hm_scopes *s, Dwarf_Die die);
int dws_has_attr(hm_scopes *s, Dwarf_Die die, Dwarf_Half at);
void dws_leave(hm_scopes *s, const struct cu *c);
void dws_position(hm_scopes *s, const struct cu *c);
int dws_attach(hm_scopes *s, struct cu *c);
void dws_release(hm_scopes *s);
struct memo *dws_memo_get(hm_scopes *s, uint64_t off, unsigned kind, int *fresh);
int dws_ref_off(hm_scopes *s, Dwarf_Die die, Dwarf_Half at, uint64_t *out);
int dws_origin_off(hm_scopes *s, Dwarf_Die die, uint64_t *off);
const char *dws_origin_name_at(hm_scopes *s, uint64_t off, unsigned hops, int *err);
int dws_typeof_at(hm_scopes *s, uint64_t off, unsigned hops, uint64_t *toff, int *err);
void dws_var_type(hm_scopes *s, uint64_t off, struct svar *v, int *err);

/* ---- dwarf-scope-loc.c ---- */

int dws_var_locs(hm_scopes *s, struct cu *c, Dwarf_Die die, struct svar *v);
void dws_frame_base(hm_scopes *s, const struct cu *c, Dwarf_Die die, struct scope *sc);

/* ---- dwarf-scope-tree.c ---- */

int dws_resolve_globs(hm_scopes *s, struct cu *c);
int dws_walk_cu(hm_scopes *s, struct cu *c, struct sub *b, int renote);
void dws_memo_clear(hm_scopes *s);

/* ---- dwarf-scope-publish.c ---- */

void dws_cu_free(struct cu *c);
int dws_build_cu(hm_scopes *s, struct cu *c, const struct hm_diag_count *q);
int dws_own_names(hm_scopes *s, struct scope *sc, size_t nsc, struct svar *v, size_t nv);
int dws_build_sub(hm_scopes *s, struct cu *c, struct sub *b, const struct hm_diag_count *q);

#endif
