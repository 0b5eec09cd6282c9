/* Internal: what check.c, lint.c and diff.c share — the line geometry that
 * implements "cacheline truth", the contention-prone member finder, and a few
 * helpers for naming fields in findings. */
#ifndef HM_CHECK_INT_H
#define HM_CHECK_INT_H
#include <stdint.h>
#include "hitmap/check.h"
#include "hitmap/layout.h"
#include "layout/layout-lib.h"
#include "check/check-lib.h"

/* Where an object may start relative to a line: at any multiple of `step`
 * below `unit`.  step == unit means the start is known to be line-aligned. */
struct hmc_geom {
	unsigned line;		/* cacheline size */
	unsigned unit;		/* line, or two lines with pair_lines */
	unsigned step;		/* the struct's alignment, capped at unit */
};

void hmc_geom_init(struct hmc_geom *g, const hm_layout *l, const struct hm_check_opts *o,
		   int assume_aligned);
/* Some start puts a byte of [a, a+as) and a byte of [b, b+bs) in one unit. */
int hmc_may_share(const struct hmc_geom *g, uint64_t a, uint64_t as, uint64_t b, uint64_t bs);
/* Some start makes [off, off+size) cross a line boundary. */
int hmc_may_straddle(const struct hmc_geom *g, uint64_t off, uint64_t size);
/* Every start puts off on a line boundary. */
int hmc_always_aligned(const struct hmc_geom *g, uint64_t off);
/* Every start keeps [lo, hi) inside one unit. */
int hmc_always_together(const struct hmc_geom *g, uint64_t lo, uint64_t hi);
/* Unit index of a byte when the object starts at a line boundary. */
static inline uint64_t hmc_unit_of(const struct hmc_geom *g, uint64_t off)
{
	return off / g->unit;
}

/* Read-mostly by type alone: pointers (data and function), const objects. */
int hmc_read_mostly(const hm_types *t, hm_type_id id);

/* ---- naming ---- */

/* Every struct of the table sorted by name (stable across compilers, whose
 * load orders differ); *out is malloc'ed, NULL on ENOMEM. */
size_t hmc_sorted_structs(const hm_types *t, hm_type_id **out);
/* A member as pahole lists it: named, every enclosing level anonymous. */
int hmc_is_unit(const hm_field *f, const hm_field *all);
/* Whether field a is b or one of b's ancestors (indices in one layout). */
int hmc_is_ancestor(const hm_layout *l, uint32_t a, uint32_t b);
/* A field found by path, accepting "name[3].x" by falling back to the array. */
const hm_field *hmc_find(const hm_layout *l, const char *path);
/* Layout with the options check uses (expanded).  NULL + errno. */
hm_layout *hmc_layout(const hm_types *t, hm_type_id id, const struct hm_check_opts *o,
		      int assume_aligned);
/* The base finding for a struct: object, decl file/line, no lines. */
void hmc_base(hm_finding *f, const hm_layout *l, enum hm_severity sev, const char *kind);
/* How a and b share (they may): "share cacheline 1", "share the cacheline
 * pair 2-3", "can share a cacheline (struct alignment 8)".  Returns 1 when
 * they share with the object at a line boundary, 0 when only some other start
 * puts them together. */
int hmc_share_text(const hm_layout *l, const struct hmc_geom *g, const hm_field *a,
		   const hm_field *b, char *buf, size_t len);
/* "    108    4  page_table_lock  spinlock_t", one line per field; malloc'ed. */
char *hmc_detail_fields(const hm_layout *l, const uint32_t *idx, size_t n);
/* check-groups.c: the implicit cacheline-group checks over every struct of
 * t (those in o->structs when set). */
int hmc_check_groups(const hm_types *t, const struct hm_check_opts *o, hm_findings *out);
/* Named struct types seen declaring pairs of an embedding struct. */
struct hmc_owned {
	hm_type_id *v;
	size_t n, cap;
};
/* lint.c: lint one laid-out struct into out; the pairs that a named struct
 * member declares are left to that struct's own lint, its type added to ow
 * (may be NULL). */
int hmc_lint_struct(struct hmi_typeclass *tc, const hm_layout *l,
		    const struct hm_check_opts *o, struct hmc_owned *ow, hm_findings *out);
/* The deepest common ancestor of fields a and b that is a named member of a
 * named struct type (*tid): the struct that declares them both.
 * HM_FIELD_NONE (and HM_TYPE_NONE) when it is the layout's own struct. */
uint32_t hmc_owner(const hm_layout *l, uint32_t a, uint32_t b, hm_type_id *tid);

/* Filling a findings list (check/findings.c).  hm_findings_addf() keeps its
 * public-looking name until its callers outside check/ are renamed. */
/* Append a copy of *finding (strings copied too).  Returns 0 or -ENOMEM. */
int hmi_findings_add(hm_findings *f, const hm_finding *finding);
/* Append a finding built from a printf format for the message; the other
 * fields come from *base.  Returns 0 or -ENOMEM. */
int hm_findings_addf(hm_findings *f, const hm_finding *base, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Replace finding i's detail with a copy of `detail` (NULL clears it).
 * Returns 0, -EINVAL (no such finding) or -ENOMEM. */
int hmi_findings_set_detail(hm_findings *f, size_t i, const char *detail);

#endif
