/* Which variables and parameters are where at a PC (dwarf-scope.h).
 *
 * hm_scopes_open() reads only the compile units' headers and PC ranges
 * (cheap even for a vmlinux), then lets libdwarf's handle go, which holds
 * what it read of every unit (dws_release()); the first lookup of a PC in
 * a unit walks the unit's top level: its globals, the abstract instances
 * its inlined code names, and the PC ranges of its subprograms, which it
 * does not enter.  The first lookup of a PC in a subprogram walks that
 * one's lexical blocks and inlined subroutines, decodes the locations of
 * their variables and flattens the nested PC ranges into sorted, disjoint
 * segments naming the innermost scope: a kernel unit has hundreds of
 * functions and a profile touches a few, so the cost follows the functions
 * sampled, not the units.
 * Every later lookup is binary searches and a walk up the scope's parents.
 * Ranges (.debug_ranges, .debug_rnglists) are read by hitmap, bounded;
 * location lists through libdwarf, once checked.  The files of the index:
 * dwarf-scope-int.h.
 *
 * One thread looks PCs up; another may build ahead of it
 * (hm_scopes_prefetch()).  Building holds one lock (the libdwarf handle,
 * the memo and the scratch are shared); what is built is published by its
 * state, stored last (release), and never changes after: a lookup reads a
 * built unit or subprogram without a lock.  A subprogram's scopes,
 * variables and locations are its own arrays, so that building the next
 * one of a unit moves nothing a lookup is reading. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf/dwarf-scope-int.h"
#include "elf/binary-lib.h"

/* ---- open: the units' ranges ---- */

static int cmp_curange(const void *a, const void *b)
{
	const struct curange *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int add_cu(hm_scopes *s, Dwarf_Die cu_die, unsigned version, unsigned addr_size)
{
	Dwarf_Error e = NULL;
	Dwarf_Off off;
	Dwarf_Addr lo;
	struct cu *c;
	uint64_t v;
	int rc;

	if (dwarf_dieoffset(cu_die, &off, &e) != DW_DLV_OK)
		return dws_bad(s, e, "unreadable unit");
	if (GROW(s, s->cus, s->ncus, s->ccus))
		return -ENOMEM;
	c = &s->cus[s->ncus];
	memset(c, 0, sizeof(*c));
	c->die_off = off;
	c->version = version;
	c->addr_size = addr_size == 4 ? 4 : 8;
	rc = dwarf_lowpc(cu_die, &lo, &e);
	if (rc == DW_DLV_ERROR)
		return dws_bad(s, e, "unreadable DW_AT_low_pc of a unit");
	if (rc == DW_DLV_OK)
		c->base = lo;
	if (!dws_attr_uval(s, cu_die, DW_AT_addr_base, &v, NULL))
		c->addr_base = v;
	else
		c->addr_base = 8;	/* past a DWARF 5 .debug_addr header */
	if (!dws_attr_uval(s, cu_die, DW_AT_rnglists_base, &v, NULL)) {
		c->rnglists_base = v;
		c->has_rnglists_base = 1;
	}
	c->stroff_base = dws_attr_uval(s, cu_die, DW_AT_str_offsets_base, &v, NULL) ? 8 : v;
	if (!dws_attr_uval(s, cu_die, DW_AT_loclists_base, &v, NULL)) {
		c->loclists_base = v;
		c->has_loclists_base = 1;
	}
	rc = dws_die_ranges(s, c, cu_die);
	if (rc)
		return rc;
	for (size_t i = 0; i < s->nrg; i++) {
		if (GROW(s, s->cr, s->ncr, s->ccr))
			return -ENOMEM;
		s->cr[s->ncr].lo = s->rg[i].lo;
		s->cr[s->ncr].hi = s->rg[i].hi;
		s->cr[s->ncr++].cu = s->ncus;
	}
	s->ncus++;
	return 0;
}

/* Open the DWARF of s->bin and read its units' ranges.  On failure what
 * was made stays for hm_scopes_free(). */
static int index_open(hm_scopes *s)
{
	Dwarf_Error e = NULL;
	int rc;

	s->opened = 1;
	rc = hm_dwarf_open_flags(s->bin, HM_DWARF_LOCATIONS, &s->dbg, &s->obj);
	if (rc)
		return rc;
	s->ranges = hm_dwarf_obj_section(s->obj, ".debug_ranges", &s->ranges_sz);
	s->rnglists = hm_dwarf_obj_section(s->obj, ".debug_rnglists", &s->rnglists_sz);
	s->addr = hm_dwarf_obj_section(s->obj, ".debug_addr", &s->addr_sz);
	s->x3 = hm_dwarf_widened(s->obj);
	s->strs.big_endian = s->big;
	s->strs.str = hm_dwarf_obj_section(s->obj, ".debug_str", &s->strs.nstr);
	s->strs.str_offsets = hm_dwarf_obj_section(s->obj, ".debug_str_offsets",
						   &s->strs.nstr_offsets);
	s->info = hm_dwarf_obj_section(s->obj, ".debug_info", &s->info_sz);
	for (ptrdiff_t idx = 0;; idx++) {
		Dwarf_Half version, addr_size, unit_type;
		Dwarf_Die cu_die = NULL;
		Dwarf_Half tag = 0;

		rc = hm_dwarf_next_cu(s->dbg, &version, &addr_size, &unit_type, &cu_die, &e);
		if (rc == DW_DLV_NO_ENTRY)
			break;
		if (rc != DW_DLV_OK)
			return dws_bad(s, e, "unreadable unit header");
		/* full units only: partial units (dwz) and skeletons (split
		 * DWARF) keep their scopes elsewhere */
		rc = dwarf_tag(cu_die, &tag, &e);
		if (rc != DW_DLV_OK) {
			dwarf_dealloc_die(cu_die);
			return dws_bad(s, e, "unreadable unit");
		}
		rc = tag == DW_TAG_compile_unit ? add_cu(s, cu_die, version, addr_size) : 0;
		if (!rc && tag == DW_TAG_compile_unit) {
			s->cus[s->ncus - 1].die = cu_die;
			s->cus[s->ncus - 1].iter = idx;
		} else {
			dwarf_dealloc_die(cu_die);
		}
		if (rc)
			return rc;
		s->niter = idx + 1;
	}
	s->at = -1;	/* past the last unit, libdwarf starts again */
	for (size_t i = 0; i < s->ncus; i++)
		s->cus[i].end_off = i + 1 < s->ncus ? s->cus[i + 1].die_off : s->info_sz;
	if (s->ncr)
		qsort(s->cr, s->ncr, sizeof(*s->cr), cmp_curange);
	pthread_mutex_init(&s->build, NULL);
	s->locks = 1;
	dws_release(s);
	return 0;
}

static hm_scopes *scopes_new(hm_binary *bin)
{
	hm_scopes *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->bin = bin;
	s->path = hmi_binary_path(bin);
	s->big = hmi_binary_big_endian(bin) == 1;
	return s;
}

/* Open s's index now; with answers to keep, what the open says taints
 * them: a run answered from them would not say it. */
static int open_now(hm_scopes *s)
{
	unsigned long said = hm_diag_said();
	int rc = index_open(s);

	if (s->answers && hm_diag_said() != said)
		s->answers->tainted = 1;
	return rc;
}

int hm_scopes_open(hm_binary *bin, hm_scopes **out)
{
	hm_scopes *s = scopes_new(bin);
	int rc;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	if ((rc = open_now(s))) {
		hm_scopes_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

int hm_scopes_open_answers(hm_binary *bin, const void *blob, size_t len, hm_scopes **out)
{
	struct answers *x = NULL;
	hm_scopes *s;
	int rc;

	*out = NULL;
	if (blob ? (rc = dws_answers_parse(blob, len, &x)) :
		   (x = calloc(1, sizeof(*x))) ? (rc = 0) : (rc = -ENOMEM))
		return rc;
	if (!(s = scopes_new(bin))) {
		dws_answers_free(x);
		return -ENOMEM;
	}
	s->answers = x;
	if (!blob && (rc = open_now(s))) {
		hm_scopes_free(s);
		return rc;
	}
	s->lazy = !!blob;
	*out = s;
	return 0;
}

/* The index, for a question the answers do not answer: opened now when
 * it was left for then. */
static int index_ready(hm_scopes *s, uint64_t pc)
{
	long n;

	if (!s->lazy || s->opened)
		return s->open_err;
	/* said under -v: where a report answered from the cache still reads
	 * the DWARF, and why */
	if (pc == HM_SCOPES_ANY_UNIT)
		hm_diag(HM_DIAG_DEBUG, "%s: scope answers do not hold a global: reading the DWARF",
			s->path);
	else
		hm_diag(HM_DIAG_DEBUG, "%s: scope answers do not hold %#" PRIx64 ": reading the DWARF",
			s->path, pc);
	s->open_err = open_now(s);
	/* what a prefetch started from now on may leave alone: a snapshot,
	 * as the answers grow under the looking-up thread (none, out of
	 * memory: a prefetch builds those too, uselessly but rightly) */
	if (!s->open_err && (n = dws_answers_pcs(s->answers, &s->answered)) > 0)
		s->nanswered = (size_t)n;
	return s->open_err;
}

int hm_scopes_dwarf_ready(const hm_scopes *s)
{
	return (!s->lazy || s->opened) && !s->open_err;
}

void hm_scopes_free(hm_scopes *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ncus; i++) {
		dws_cu_free(&s->cus[i]);
		if (s->cus[i].die)
			dwarf_dealloc_die(s->cus[i].die);
	}
	if (s->locks)
		pthread_mutex_destroy(&s->build);
	hm_strtab_free(&s->names);
	free(s->cus);
	free(s->cr);
	free(s->out);
	free(s->rg);
	free(s->iv);
	free(s->lltab);
	free(s->memo);
	free(s->astat);
	free(s->alocs);
	free(s->answered);
	hm_dwarf_close(s->dbg, s->obj);
	dws_answers_free(s->answers);
	free(s);
}

/* ---- lookups ---- */

/* The last element of a sorted array whose lo <= pc, or -1. */
#define LAST_LE(arr, n, pc)						\
	({								\
		size_t lo_ = 0, hi_ = (n);				\
		while (lo_ < hi_) {					\
			size_t mid_ = lo_ + (hi_ - lo_) / 2;		\
			if ((arr)[mid_].lo <= (pc))			\
				lo_ = mid_ + 1;				\
			else						\
				hi_ = mid_;				\
		}							\
		(ptrdiff_t)lo_ - 1;					\
	})

/* The segment of unit c (built) holding pc, its subprogram built (*sub);
 * NULL when none, *rc an error. */
static const struct seg *seg_at(hm_scopes *s, struct cu *c, uint64_t pc, int *rc,
			       const struct hm_diag_count *q, const struct sub **sub)
{
	ptrdiff_t k = LAST_LE(c->sr, c->nsr, pc);

	*rc = 0;
	/* subprograms rarely overlap (code the linker discarded, at 0):
	 * look back a little for one that holds pc */
	for (unsigned tries = 0; k >= 0 && tries < 16; k--, tries++) {
		struct sub *b;
		ptrdiff_t j;

		if (pc >= c->sr[k].hi)
			continue;
		b = &c->subs[c->sr[k].sub];
		if ((*rc = dws_build_sub(s, c, b, q)))
			return NULL;
		j = LAST_LE(b->segs, b->nsegs, pc);
		if (j >= 0 && pc < b->segs[j].hi) {
			*sub = b;
			return &b->segs[j];
		}
	}
	return NULL;
}

static int emit(hm_scopes *s, const struct sub *c, const struct seg *g, uint64_t pc, size_t *n)
{
	int32_t sc;

	for (sc = g->scope; sc >= 0; sc = c->scopes[sc].parent) {
		const struct scope *p = &c->scopes[sc];

		for (uint32_t i = 0; i < p->nvars; i++) {
			const struct svar *v = &c->vars[p->var_first + i];
			const struct sloc *l = NULL;
			struct hm_scope_var *o;

			for (uint32_t j = 0; j < v->nloc; j++) {
				const struct sloc *x = &c->locs[v->loc_first + j];

				if (x->lo <= pc && pc < x->hi) {
					l = x;
					break;
				}
			}
			if (!l)
				continue;
			if (GROW(s, s->out, *n, s->cout))
				return -ENOMEM;
			o = &s->out[(*n)++];
			o->name = v->name;
			o->func = p->func;
			o->is_param = v->is_param;
			o->inlined = p->inlined;
			o->fb_cfa = p->fb_cfa;
			o->kind = l->kind;
			o->reg = l->reg;
			o->off = l->off;
			o->fb_reg = l->kind == HM_VLOC_FBREG ? p->fb_reg : -1;
			o->ptr_depth = v->ptr_depth;
			o->record = v->record;
			o->record_kind = v->record_kind;
			o->record_size = v->record_size;
			o->depth = p->depth;
			o->fn_depth = p->fn_depth;
		}
		if (c->scopes[sc].parent >= sc)
			break;	/* parents come first: never loop */
	}
	return 0;
}

/* The unit whose scopes cover pc (built), or NULL; *rc an error. */
static struct cu *cu_at(hm_scopes *s, uint64_t pc, const struct seg **seg,
			const struct sub **sub, int *rc, const struct hm_diag_count *q)
{
	ptrdiff_t k = LAST_LE(s->cr, s->ncr, pc);

	*rc = 0;
	/* unit ranges rarely overlap; look back a little for one that does */
	for (unsigned tries = 0; k >= 0 && tries < 16; k--, tries++) {
		struct cu *c;

		if (pc >= s->cr[k].hi)
			continue;
		c = &s->cus[s->cr[k].cu];
		if ((*rc = dws_build_cu(s, c, q)))
			return NULL;
		if ((*seg = seg_at(s, c, pc, rc, q, sub)))
			return c;
		if (*rc)
			return NULL;
	}
	return NULL;
}

int hm_scopes_prefetch(hm_scopes *s, uint64_t pc, const struct hm_diag_count *quiet)
{
	const struct seg *g;
	const struct sub *b;
	int rc;

	/* an index opened lazily is the looking-up thread's alone until its
	 * DWARF is open (a prefetch starts after, hm_scopes_dwarf_ready());
	 * then the PCs the answers held are not built: no lookup will */
	if (!hm_scopes_dwarf_ready(s) ||
	    (s->nanswered &&
	     bsearch(&pc, s->answered, s->nanswered, sizeof(*s->answered), dws_cmp_u64)))
		return 0;
	cu_at(s, pc, &g, &b, &rc, quiet);
	return rc;
}

static int scope_at(hm_scopes *s, uint64_t pc, const char **func, unsigned *depth,
		    unsigned *fn_depth)
{
	const struct seg *g;
	const struct sub *b;
	int rc;
	struct cu *c = cu_at(s, pc, &g, &b, &rc, NULL);
	const struct scope *p;

	if (!c)
		return rc;
	p = &b->scopes[g->scope];
	*func = p->func;
	*depth = p->depth;
	*fn_depth = p->fn_depth;
	return 1;
}

int hm_scopes_scope_at(hm_scopes *s, uint64_t pc, const char **func, unsigned *depth,
		       unsigned *fn_depth)
{
	const struct answer *a = dws_answer_find(s->answers, ANS_SCOPE, pc, NULL);
	unsigned long said;
	int rc;

	if (a) {
		if (a->rc) {
			*func = a->func;
			*depth = a->depth;
			*fn_depth = a->fn_depth;
		}
		return a->rc;
	}
	if ((rc = index_ready(s, pc)))
		return rc;
	said = hm_diag_said();
	rc = scope_at(s, pc, func, depth, fn_depth);
	if (hm_diag_said() == said)
		dws_answer_note(s->answers, ANS_SCOPE, pc, NULL, rc, NULL, rc == 1 ? *func : NULL,
				rc == 1 ? *depth : 0, rc == 1 ? *fn_depth : 0);
	return rc;
}

static int scopes_at(hm_scopes *s, uint64_t pc, const struct hm_scope_var **vars);

int hm_scopes_at(hm_scopes *s, uint64_t pc, const struct hm_scope_var **vars)
{
	const struct answer *a = dws_answer_find(s->answers, ANS_AT, pc, NULL);
	unsigned long said;
	int rc;

	*vars = NULL;
	if (a)
		return dws_answer_vars(s, a, vars);
	if ((rc = index_ready(s, pc)))
		return rc;
	said = hm_diag_said();
	rc = scopes_at(s, pc, vars);
	if (hm_diag_said() == said)
		dws_answer_note(s->answers, ANS_AT, pc, NULL, rc, *vars, NULL, 0, 0);
	return rc;
}

static int scopes_at(hm_scopes *s, uint64_t pc, const struct hm_scope_var **vars)
{
	ptrdiff_t k = LAST_LE(s->cr, s->ncr, pc);
	size_t n = 0;

	*vars = NULL;
	/* unit ranges rarely overlap; look back a little for one that does */
	for (unsigned tries = 0; k >= 0 && tries < 16; k--, tries++) {
		struct cu *c;
		const struct seg *g;
		const struct sub *b;
		int rc;

		if (pc >= s->cr[k].hi)
			continue;
		c = &s->cus[s->cr[k].cu];
		rc = dws_build_cu(s, c, NULL);
		if (rc)
			return rc;
		g = seg_at(s, c, pc, &rc, NULL, &b);
		if (rc)
			return rc;
		if (!g)
			continue;
		rc = emit(s, b, g, pc, &n);
		if (rc)
			return rc;
		if (n)
			break;
	}
	*vars = s->out;
	return (int)n;
}

static int cu_global(hm_scopes *s, struct cu *c, const char *name, struct hm_scope_var *out);

static int scopes_global(hm_scopes *s, uint64_t pc, const char *name, struct hm_scope_var *out);

int hm_scopes_global(hm_scopes *s, uint64_t pc, const char *name, struct hm_scope_var *out)
{
	const struct answer *a = dws_answer_find(s->answers, ANS_GLOBAL, pc, name);
	unsigned long said;
	int rc;

	if (a) {
		if (a->rc)
			*out = s->answers->vars[a->first];
		return a->rc;
	}
	if ((rc = index_ready(s, pc)))
		return rc;
	said = hm_diag_said();
	rc = scopes_global(s, pc, name, out);
	if (hm_diag_said() == said)
		dws_answer_note(s->answers, ANS_GLOBAL, pc, name, rc, out, NULL, 0, 0);
	return rc;
}

static int scopes_global(hm_scopes *s, uint64_t pc, const char *name, struct hm_scope_var *out)
{
	const struct seg *g;
	const struct sub *b;
	int rc;
	struct cu *c;

	if (pc == HM_SCOPES_ANY_UNIT) {
		for (size_t i = 0; i < s->ncus; i++) {
			if ((rc = dws_build_cu(s, &s->cus[i], NULL)) == -ENOMEM)
				return rc;
			if (!rc)	/* a unit that is unreadable is skipped */
				rc = cu_global(s, &s->cus[i], name, out);
			if (rc == 1 || rc == -ENOMEM)
				return rc;
		}
		return 0;
	}
	c = cu_at(s, pc, &g, &b, &rc, NULL);
	if (!c)
		return rc;
	return cu_global(s, c, name, out);
}

static int cu_global(hm_scopes *s, struct cu *c, const char *name, struct hm_scope_var *out)
{
	if (!c->globs_state) {
		pthread_mutex_lock(&s->build);
		s->cur = c;
		c->globs_state = dws_attach(s, c) ?: dws_resolve_globs(s, c) ?:
				 dws_own_names(s, NULL, 0, c->globs, c->nglobs) ?: 1;
		pthread_mutex_unlock(&s->build);
	}
	if (c->globs_state < 0)
		return c->globs_state;
	for (size_t i = 0; i < c->nglobs; i++) {
		const struct svar *v = &c->globs[i];

		if (strcmp(v->name, name))
			continue;
		memset(out, 0, sizeof(*out));
		out->name = v->name;
		out->kind = HM_VLOC_ADDR;
		out->reg = out->fb_reg = -1;
		out->ptr_depth = v->ptr_depth;
		out->record = v->record;
		out->record_kind = v->record_kind;
		out->record_size = v->record_size;
		return 1;
	}
	return 0;
}
