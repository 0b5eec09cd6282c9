/* The scope index's DIE reading (dwarf-scope-int.h): names and attributes,
 * the handle's place in its unit iteration, and the names and types of
 * origins and variables, memoised by DIE offset. */
#include "config.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include "dwarf/dwarf-scope-int.h"
#include "dwarf/dwarf-x3.h"
#include "elf/binary-lib.h"

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

const char *dws_die_name(hm_scopes *s, Dwarf_Die die)
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

int dws_has_attr(hm_scopes *s, Dwarf_Die die, Dwarf_Half at)
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
void dws_leave(hm_scopes *s, const struct cu *c)
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
void dws_position(hm_scopes *s, const struct cu *c)
{
	Dwarf_Error e = NULL;

	for (ptrdiff_t steps = 0; s->at != AT_LOST && s->at != c->iter; steps++) {
		int rc = steps > 2 * s->niter + 2 ? DW_DLV_ERROR : hm_dwarf_skip_cu(s->dbg, &e);

		if (rc == DW_DLV_NO_ENTRY && s->at != -1) {
			s->at = -1;
			s->went_round = 1;
		} else if (rc != DW_DLV_OK || ++s->at >= s->niter) {
			hm_dwarf_free_error(s->dbg, e);
			s->at = AT_LOST;
		}
	}
}

/* The handle at unit c, with c's DIE, for a build: the handle of
 * hm_scopes_open() is closed once it has read the units' headers
 * (dws_release()); the first build opens another.  0, or a negative errno
 * (reported). */
int dws_attach(hm_scopes *s, struct cu *c)
{
	Dwarf_Error e = NULL;
	int rc;

	if (!s->dbg) {
		if ((rc = hm_dwarf_reopen(s->obj, &s->dbg)))
			return rc;
		s->at = -1;	/* a new handle starts at the first unit */
		s->went_round = 0;
	}
	/* A unit behind the handle's place is found without moving it, by a
	 * walk of libdwarf's list of the units read so far: going round would
	 * make the handle read every unit after its place, which a profile
	 * touching a few units (a C library's) never builds.  That walk is
	 * made once per DIE looked up by offset: a profile that comes back
	 * to earlier units often (a kernel's, in file order) goes round as
	 * before, after MAX_UNMOVED builds. */
	if (s->at != AT_LOST && c->iter < s->at && !s->went_round && s->unmoved < MAX_UNMOVED)
		s->unmoved++;
	else
		dws_position(s, c);
	if (!c->die && dwarf_offdie_b(s->dbg, c->die_off, 1, &c->die, &e) != DW_DLV_OK) {
		c->die = NULL;
		return dws_bad(s, e, "unreadable unit");
	}
	return 0;
}

/* libdwarf keeps what it read of every unit (its context, the
 * abbreviations of its DIE) as long as its handle lives: 5 MB for the 4126
 * units of a C library, of which a profile builds a few.  The index keeps
 * the units' headers and ranges; the handle and the units' DIEs go, and
 * with them the heap they took (trimmed: what the report allocates next is
 * no smaller for it). */
void dws_release(hm_scopes *s)
{
	for (size_t i = 0; i < s->ncus; i++) {
		if (s->cus[i].die)
			dwarf_dealloc_die(s->cus[i].die);
		s->cus[i].die = NULL;
	}
	hm_dwarf_close(s->dbg, NULL);
	s->dbg = NULL;
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

/* ---- names and types, memoised by DIE offset ----
 *
 * Inlined instances name their abstract origins, and variables share a
 * handful of types: each origin's name and each type chain is resolved
 * once per unit, not once per use, by looking the DIE up by offset with the
 * handle kept at the unit (dws_position()).  A kernel unit's top level holds
 * thousands of types and declarations from its headers, of which its
 * variables use a few: they are read when used, not noted on the walk.
 * What the walk notes is which abstract variables have a location of their
 * own (MEMO_LOC).  The memo is dropped when another unit is walked. */


struct memo *dws_memo_get(hm_scopes *s, uint64_t off, unsigned kind, int *fresh)
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
int dws_ref_off(hm_scopes *s, Dwarf_Die die, Dwarf_Half at, uint64_t *out)
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
int dws_origin_off(hm_scopes *s, Dwarf_Die die, uint64_t *off)
{
	return dws_ref_off(s, die, DW_AT_abstract_origin, off) &&
	       dws_ref_off(s, die, DW_AT_specification, off);
}

/* The name of die, or of its abstract origin or specification (a pointer
 * into the section data, valid while the index is open). */
static const char *origin_name_hops(hm_scopes *s, Dwarf_Die die, unsigned hops, int *err)
{
	const char *name = dws_die_name(s, die);
	uint64_t off;

	if (name || hops >= MAX_REF_HOPS || dws_origin_off(s, die, &off))
		return name;
	return dws_origin_name_at(s, off, hops + 1, err);
}

const char *dws_origin_name_at(hm_scopes *s, uint64_t off, unsigned hops, int *err)
{
	int fresh;
	struct memo *m = dws_memo_get(s, off, MEMO_NAME, &fresh);
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
	m = dws_memo_get(s, off, MEMO_NAME, &fresh);
	if (m)
		m->name = name;
	return name;
}

/* The offset of die's type, from it or its origin: 0, 1 when none. */
static int typeof_die(hm_scopes *s, Dwarf_Die die, unsigned hops, uint64_t *toff, int *err)
{
	uint64_t off;

	if (!dws_ref_off(s, die, DW_AT_type, toff))
		return 0;
	if (hops >= MAX_REF_HOPS || dws_origin_off(s, die, &off))
		return 1;
	return dws_typeof_at(s, off, hops + 1, toff, err);
}

int dws_typeof_at(hm_scopes *s, uint64_t off, unsigned hops, uint64_t *toff, int *err)
{
	int fresh, rc;
	struct memo *m = dws_memo_get(s, off, MEMO_TYPEOF, &fresh);
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
	m = dws_memo_get(s, off, MEMO_TYPEOF, &fresh);
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

/* What a type DIE says: its tag, the type it modifies, a record's name and
 * size. */
static void type_fill(hm_scopes *s, Dwarf_Die die, int tag, struct memo *st)
{
	Dwarf_Error e = NULL;
	Dwarf_Unsigned size;

	st->tag = tag;
	if (is_modifier(tag)) {
		st->has = !dws_ref_off(s, die, DW_AT_type, &st->off);
		/* `typedef union { ... } pthread_mutex_t`: the record is
		 * known by the typedef's name alone */
		if (tag == DW_TAG_typedef)
			st->name = dws_die_name(s, die);
	} else if (dw_is_aggregate(tag)) {
		st->name = dws_die_name(s, die);
		if (dwarf_bytesize(die, &size, &e) == DW_DLV_OK)
			st->record_size = size;
		hm_dwarf_free_error(s->dbg, e);
	}
}

static int type_step(hm_scopes *s, uint64_t off, struct memo *st)
{
	int fresh;
	struct memo *m = dws_memo_get(s, off, MEMO_STEP, &fresh);
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
void dws_var_type(hm_scopes *s, uint64_t off, struct svar *v, int *err)
{
	int fresh;
	struct memo *m = dws_memo_get(s, off, MEMO_TYPE, &fresh), r = { 0 };
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
		if (dw_is_aggregate(st.tag)) {
			r.name = st.name ? st.name : tdname;
			r.record_kind = st.tag;
			r.record_size = st.record_size;
		}
		break;
	}
	/* type_step() may have grown the table */
	if (!(m = dws_memo_get(s, off, MEMO_TYPE, &fresh))) {
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
