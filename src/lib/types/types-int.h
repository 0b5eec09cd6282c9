/* Internal: the type table's storage, shared by types.c (queries, printing)
 * and the loaders (dwarf.c, load.c).  Outside the types area only the
 * memoised fold below is used (layout.c). */
#ifndef HM_TYPES_INT_H
#define HM_TYPES_INT_H
#include "hitmap/types.h"
#include "types/types-lib.h"
#include "base/util.h"

/* A growable array of `elem`-sized items. */
#define HM_VEC(T) struct { T *v; size_t n, cap; }

struct hm_types {
	HM_VEC(hm_type) types;
	HM_VEC(hm_member) members;
	HM_VEC(uint64_t) dims;
	HM_VEC(hm_type_id) params;
	HM_VEC(hm_enumerator) enums;
	HM_VEC(hm_variable) vars;
	/* complete named struct/union/class definitions in walk order, one per
	 * name (pahole's choice), and a name index over them */
	HM_VEC(hm_type_id) structs;
	HM_VEC(uint32_t) struct_next;	/* per list entry: next with its name, +1 */
	HM_VEC(unsigned char) listed;	/* per type id: already in the list */
	uint32_t *struct_slots;		/* name -> first list entry, +1 */
	size_t nstruct_slots;
	/* typedefs by name, the first met by the walk */
	hm_type_id *typedef_slots;
	size_t ntypedef_slots, ntypedefs;
	/* variables by name */
	uint32_t *var_slots;
	size_t nvar_slots;
	/* dedup: ids hashed by their identity (kind+name+size+file+line for named
	 * types, kind+target(+dims/params) for the rest) */
	struct hm_dedup_slot {
		uint64_t hash;
		hm_type_id id;
	} *dedup;
	size_t ndedup, ndedup_used;
	/* names of structs not loaded (`only` mode) that are close to a requested
	 * name that was not found: candidates for hm_types_similar() */
	HM_VEC(const char *) hints;
	hm_strtab strs;
	unsigned pointer_size;
	/* the line size of the machine the table was loaded for, 0 when it
	 * names none (hm_types_cacheline_size()) */
	unsigned cacheline_size;
	/* A table read from the type cache keeps its strings in one block
	 * (freed with the table); they join `strs` on the first intern, so
	 * names added later still compare by pointer. */
	char *blob;
	size_t blob_size;
	int blob_interned;
	/* Values a record takes from everything it holds by value (alignment,
	 * natural alignment, emptiness), computed on demand by hm_types_fold():
	 * HM_MEMO_SLOTS words per id, 0 = not known yet.  Sized when the table
	 * is finished (hm_types_memo_reset()) and grown by hm_types_add(), so
	 * queries on a shared const table only store into it (relaxed atomics:
	 * every writer stores the same value). */
	uint32_t *memo;
	size_t nmemo;		/* ids covered */
	/* typebuild.c: the char type once met, and the one-dimensional arrays
	 * by element and bound, the first of each (ids below tb_seen are in) */
	hm_type_id tb_char;
	struct hm_tb_array {
		hm_type_id elem, id;
		uint64_t dim;
	} *tb_arrays;
	size_t ntb_arrays, ntb_used, tb_seen;
};

/* Append items to a vector; return the index of the first or -ENOMEM. */
#define hm_vec_push(vec, item) \
	(hm_grow((void **)&(vec).v, &(vec).cap, (vec).n + 1, sizeof(*(vec).v)) ? -ENOMEM : \
	 ((vec).v[(vec).n] = (item), (long)(vec).n++))

/* Add a type (copied); returns its id or 0 on ENOMEM. */
hm_type_id hm_types_add(hm_types *t, const hm_type *ty);

/* Dedup: the id of an already-stored type with the same identity as `ty`
 * (dims/params/members compared through the table; members matter only for
 * anonymous structs and unions; a declaration matches any declaration of the
 * same kind and name), or 0.  The probe hash is
 * returned in *hash for hm_types_dedup_insert(). */
hm_type_id hm_types_dedup_find(hm_types *t, const hm_type *ty, const uint64_t *dims,
			       const hm_type_id *params, const hm_member *members,
			       uint64_t *hash);
int hm_types_dedup_insert(hm_types *t, hm_type_id id, uint64_t hash);
/* Ask the cache for what hm_types_dedup_find() of a type whose identity
 * is its header (named, or a declaration; no dims, params or members)
 * will read: its index slot (step 0), then, once that has arrived, the
 * type entry the slot holds (step 1).  Only a hint; returns the hash. */
uint64_t hm_types_dedup_prefetch(const hm_types *t, const hm_type *ty, int step);

/* Record a complete struct/union/class met by the walk.  It joins the
 * hm_types_structs() list unless a listed struct has the same name, size and
 * members (names, bit offsets, bit sizes): pahole's rule for printing a name
 * again. */
int hm_types_note_struct(hm_types *t, hm_type_id id);

/* Shrink the hm_types_structs() list of a whole table (read from the cache)
 * to what a load of `only` lists: the structs so named, then every complete
 * named record they reach through member, pointer, array, typedef and
 * function types, in id order; the names dropped stay for
 * hm_types_similar().  0 or -ENOMEM. */
int hm_types_keep_structs(hm_types *t, const char *const *only);
/* Record a typedef met by the walk (the first per name is the one found). */
int hm_types_note_typedef(hm_types *t, hm_type_id id);

/* After loading: point references to declarations at a definition with the
 * same kind and name, and index variables by name. */
int hm_types_finish(hm_types *t);

/* Split a C++ name at its last "::" outside template arguments: *last is
 * the plain name, q[0, *scope_len) its scope; 0 for a plain name (a
 * leading "::" gives scope ""). */
int hm_types_split_name(const char *q, const char **last, size_t *scope_len);
/* Interned string (NULL in, NULL out; NULL on ENOMEM with s != NULL). */
const char *hm_types_intern(hm_types *t, const char *s);

/* types-check.c, after loading (every loader): -EBADMSG, reported as
 * "NAME: corrupt debug info: ...", when a typedef/qualifier/pointer/array
 * chain is a cycle or a struct holds itself by value. */
int hm_types_check_chains(const hm_types *t, const char *name);
/* The struct/union/class a member of type id holds by value (through
 * typedefs, qualifiers and arrays), or 0. */
hm_type_id hm_types_held_record(const hm_types *t, hm_type_id id);

/* ---- memoised folds over nesting ----
 *
 * A record's alignment (or natural alignment, or emptiness) depends on the
 * records it holds by value, which hold others: walked naively, `struct S2
 * { struct S1 a, b; }` visits S0 four times and a nesting n deep 2^n times.
 * hm_types_fold() visits every record once per table: depth-first with an
 * explicit stack (nesting depth is input-controlled), each value stored in
 * its memo slot.  Only a chain of records longer than the table — a cycle,
 * which the load checks reject — is cut, the record closing it counting 1. */
enum hm_memo_slot {
	HM_MEMO_ALIGN,		/* hm_types_alignof() of a record */
	HM_MEMO_NATURAL,	/* hmi_layout_natural_align() of a record (layout.c) */
	HM_MEMO_EMPTY,		/* 2: an empty base (layout.c), 1: not */
	HM_MEMO_SLOTS
};

struct hm_fold {
	enum hm_memo_slot slot;
	/* Member i of record rec: its value (> 0), 0 to skip it, or 0 with
	 * *need set to the record whose value it takes (then passed to join). */
	uint32_t (*member)(const hm_types *t, const hm_type *rec, uint32_t i, hm_type_id *need);
	/* Fold member i's value v into acc (0 at the start of a record). */
	void (*join)(const hm_types *t, const hm_type *rec, uint32_t i, uint32_t v,
		     uint64_t *acc);
	/* The record's value (> 0) from acc. */
	uint32_t (*finish)(const hm_types *t, const hm_type *rec, uint64_t acc);
};

/* The value of record `rec` under fold f, memoised with everything below. */
uint32_t hm_types_fold(const hm_types *t, hm_type_id rec, const struct hm_fold *f);

/* (Re)size the memo to the table, every value unknown: when loading is
 * done (hm_types_finish(), a table read from the cache).  0 or -ENOMEM. */
int hm_types_memo_reset(hm_types *t);

#endif
