/* The scope index's trees (dwarf-scope-int.h): a unit's top level walked
 * for its globals, abstract instances and subprograms' ranges, a
 * subprogram walked into scopes, variables and the segments naming the
 * innermost scope at each PC. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf/dwarf-scope-int.h"

static int add_var(hm_scopes *s, struct cu *c, Dwarf_Die die, uint32_t scope, int is_param)
{
	struct svar v = { 0 };
	int err = 0, rc;

	if (dws_has_attr(s, die, DW_AT_declaration))
		return 0;	/* `extern int x;` inside a function */
	rc = dws_var_locs(s, c, die, &v);
	if (rc < 0)
		return rc;
	/* names and types are resolved once the subprogram is walked, once
	 * per origin and type (the memo) */
	v.name = dws_die_name(s, die);
	v.has_toff = !dws_ref_off(s, die, DW_AT_type, &v.toff);
	if (!v.name || !v.has_toff || rc)
		v.has_origin = !dws_origin_off(s, die, &v.origin);
	/* no location of its own: a static local of an inlined function has
	 * it in the abstract instance only (gdb takes it from there too) */
	if (rc && !v.has_origin)
		return 0;
	(void)err;
	v.scope = scope;
	v.is_param = is_param;
	v.order = c->nvars;
	if (GROW(s, c->vars, c->nvars, c->cvars))
		return -ENOMEM;
	c->vars[c->nvars++] = v;
	return 0;
}

/* A variable of the unit's top level, defined or declared (`extern
 * __thread struct stats st;`): its name and type, resolved with the rest. */
static int add_global(hm_scopes *s, struct cu *c, Dwarf_Die die)
{
	struct svar v = { 0 };

	v.name = dws_die_name(s, die);
	v.has_toff = !dws_ref_off(s, die, DW_AT_type, &v.toff);
	if (!v.name || !v.has_toff)
		v.has_origin = !dws_origin_off(s, die, &v.origin);
	if (!v.has_toff && !v.has_origin)
		return 0;
	if (GROW(s, c->globs, c->nglobs, c->cglobs))
		return -ENOMEM;
	c->globs[c->nglobs++] = v;
	return 0;
}

static int add_scope(hm_scopes *s, struct cu *c, Dwarf_Die die, Dwarf_Half tag, int32_t parent)
{
	struct scope sc = { 0 };
	int err = 0;

	sc.parent = parent;
	sc.fb_reg = -1;
	if (tag == DW_TAG_subprogram) {
		sc.parent = -1;
		sc.func = dws_die_name(s, die);
		sc.has_origin = !dws_origin_off(s, die, &sc.origin);
		dws_frame_base(s, c, die, &sc);
	} else {
		const struct scope *p = &c->scopes[parent];

		sc.depth = p->depth + 1;
		sc.fn_depth = tag == DW_TAG_inlined_subroutine ? sc.depth : p->fn_depth;
		sc.fb_cfa = p->fb_cfa;
		sc.fb_reg = p->fb_reg;
		sc.inlined = p->inlined;
		sc.func = p->func;
		if (tag == DW_TAG_inlined_subroutine) {
			sc.inlined = 1;
			sc.func = dws_die_name(s, die);
			sc.has_origin = !dws_origin_off(s, die, &sc.origin);
		}
	}
	if (err)
		return dws_bad(s, NULL, "reference to a missing DIE");
	if (GROW(s, c->scopes, c->nscopes, c->cscopes))
		return -ENOMEM;
	c->scopes[c->nscopes] = sc;
	for (size_t i = 0; i < s->nrg; i++) {
		if (GROW(s, s->iv, s->niv, s->civ))
			return -ENOMEM;
		s->iv[s->niv].lo = s->rg[i].lo;
		s->iv[s->niv].hi = s->rg[i].hi;
		s->iv[s->niv].scope = c->nscopes;
		s->iv[s->niv++].depth = sc.depth;
	}
	return c->nscopes++;
}

/* Note whether die has a location of its own, for the variables that name
 * it as their origin (origin_locs()). */
static int note_die(hm_scopes *s, Dwarf_Die die, uint64_t off)
{
	struct memo *m;
	int fresh;

	if (dws_has_attr(s, die, DW_AT_location)) {
		if (!(m = dws_memo_get(s, off, MEMO_LOC, &fresh)))
			return -ENOMEM;
		m->has = 1;
	}
	return 0;
}

/* The locations of v from its origin, when the walk noted it has one. */
static int origin_locs(hm_scopes *s, struct cu *c, struct svar *v)
{
	int fresh, rc;
	struct memo *m = dws_memo_get(s, v->origin, MEMO_LOC, &fresh);
	Dwarf_Error e = NULL;
	Dwarf_Die d;

	if (!m)
		return -ENOMEM;
	if (!m->has)
		return 0;
	if (dwarf_offdie_b(s->dbg, v->origin, 1, &d, &e) != DW_DLV_OK)
		return dws_bad(s, e, "reference to a missing DIE");
	rc = dws_var_locs(s, c, d, v);
	dwarf_dealloc_die(d);
	return rc < 0 ? rc : 0;
}

/* A variable of an abstract instance with a location of its own: a static
 * local.  gdb counts it in scope in every concrete instance (inlined or
 * out of line) of the function, also where the instance has no DIE for it. */
static int note_static(hm_scopes *s, struct cu *c, Dwarf_Die die, uint64_t off, uint64_t sub)
{
	struct astat a = { 0 };
	size_t l0 = c->nlocs;
	int rc;

	if (!dws_has_attr(s, die, DW_AT_location) || dws_has_attr(s, die, DW_AT_declaration))
		return 0;
	/* read into the unit's arrays, which hold only what a subprogram's
	 * walk adds: moved to the notes' own */
	rc = dws_var_locs(s, c, die, &a.v);
	if (!rc) {
		a.v.loc_first = s->nalocs;
		for (size_t i = l0; i < c->nlocs && !rc; i++) {
			if (GROW(s, s->alocs, s->nalocs, s->calocs))
				rc = -ENOMEM;
			else
				s->alocs[s->nalocs++] = c->locs[i];
		}
	}
	c->nlocs = l0;
	if (rc)
		return rc < 0 ? rc : 0;
	a.v.name = dws_die_name(s, die);
	a.v.has_toff = !dws_ref_off(s, die, DW_AT_type, &a.v.toff);
	if (!a.v.name)
		return 0;
	a.sub = sub;
	a.var = off;
	if (GROW(s, s->astat, s->nastat, s->castat))
		return -ENOMEM;
	s->astat[s->nastat++] = a;
	return 0;
}

/* Add the static locals of abstract instances to the concrete instances
 * that have no DIE of their own for them. */
static int inherit_statics(hm_scopes *s, struct cu *c, size_t s0, size_t v0)
{
	uint32_t *fn;
	int err = 0;

	if (!s->nastat || c->nscopes <= s0)
		return 0;
	fn = malloc((c->nscopes - s0) * sizeof(*fn));
	if (!fn)
		return -ENOMEM;
	/* each scope's function body: the subprogram or inlined subroutine
	 * (the scopes from s0 are one subprogram's: their parents are too) */
	for (size_t i = s0; i < c->nscopes; i++)
		fn[i - s0] = c->scopes[i].depth == c->scopes[i].fn_depth ||
			     c->scopes[i].parent < (int32_t)s0 ? i : fn[c->scopes[i].parent - s0];
	for (size_t k = 0; k < s->nastat && !err; k++) {
		const struct astat *a = &s->astat[k];

		for (size_t i = s0; i < c->nscopes && !err; i++) {
			const struct scope *sc = &c->scopes[i];
			struct svar v;
			size_t j;

			if (fn[i - s0] != i || !sc->has_origin || sc->origin != a->sub)
				continue;
			for (j = v0; j < c->nvars; j++)
				if (c->vars[j].has_origin && c->vars[j].origin == a->var &&
				    fn[c->vars[j].scope - s0] == i)
					break;
			if (j < c->nvars)
				continue;
			v = a->v;
			v.scope = i;
			v.is_param = 0;
			v.order = c->nvars;
			v.loc_first = c->nlocs;
			for (uint32_t l = 0; l < a->v.nloc && !err; l++) {
				if (GROW(s, c->locs, c->nlocs, c->clocs))
					err = -ENOMEM;
				else
					c->locs[c->nlocs++] = s->alocs[a->v.loc_first + l];
			}
			if (err)
				break;
			if (v.has_toff)
				dws_var_type(s, v.toff, &v, &err);
			if (GROW(s, c->vars, c->nvars, c->cvars))
				err = -ENOMEM;
			else
				c->vars[c->nvars++] = v;
		}
	}
	free(fn);
	if (err == -ENOMEM)
		return err;
	return err ? dws_bad(s, NULL, "reference to a missing DIE") : 0;
}

/* Names and types of the variables and functions of the subprogram just
 * walked (the scopes from s0, the variables from v0), from their origins;
 * variables left without a name are dropped. */
static int resolve_sub(hm_scopes *s, struct cu *c, size_t s0, size_t v0)
{
	int err = 0;
	size_t w = v0;

	for (size_t i = s0; i < c->nscopes && !err; i++) {
		struct scope *sc = &c->scopes[i];

		if (!sc->func && sc->has_origin)
			sc->func = dws_origin_name_at(s, sc->origin, 1, &err);
		/* a lexical block's function is its parent's (parents first) */
		if (!sc->func && sc->parent >= 0 && sc->depth != sc->fn_depth)
			sc->func = c->scopes[sc->parent].func;
	}
	for (size_t i = v0; i < c->nvars && !err; i++) {
		struct svar v = c->vars[i];

		if (!v.nloc && v.has_origin) {
			int rc = origin_locs(s, c, &v);

			if (rc)
				return rc;
		}
		if (!v.nloc)
			continue;
		if (!v.name && v.has_origin)
			v.name = dws_origin_name_at(s, v.origin, 1, &err);
		if (!v.name)
			continue;
		if (!v.has_toff && v.has_origin)
			v.has_toff = !dws_typeof_at(s, v.origin, 1, &v.toff, &err);
		if (v.has_toff && !err)
			dws_var_type(s, v.toff, &v, &err);
		c->vars[w++] = v;
	}
	c->nvars = w;
	if (err == -ENOMEM)
		return err;
	if (err)
		return dws_bad(s, NULL, "reference to a missing DIE");
	return inherit_statics(s, c, s0, v0);
}

/* Names and types of the unit's top-level variables, from their origins. */
int dws_resolve_globs(hm_scopes *s, struct cu *c)
{
	int err = 0;
	size_t w = 0;

	for (size_t i = 0; i < c->nglobs && !err; i++) {
		struct svar v = c->globs[i];

		if (!v.name && v.has_origin)
			v.name = dws_origin_name_at(s, v.origin, 1, &err);
		if (!v.has_toff && v.has_origin)
			v.has_toff = !dws_typeof_at(s, v.origin, 1, &v.toff, &err);
		if (!v.name || !v.has_toff || err)
			continue;
		dws_var_type(s, v.toff, &v, &err);
		c->globs[w++] = v;
	}
	c->nglobs = w;
	if (err == -ENOMEM)
		return err;
	return err ? dws_bad(s, NULL, "reference to a missing DIE") : 0;
}

#define SKIP (-2)		/* frame scope: do not walk the children */
#define ABSTRACT (-3)		/* frame scope: in an abstract instance, note names */

struct frame {
	Dwarf_Die die;		/* the next DIE to look at on this level */
	int32_t scope;		/* the scope its variables belong to, -1 none */
	Dwarf_Off last;		/* offset of the previous DIE on this level */
	uint64_t abs_sub;	/* ABSTRACT: the abstract subprogram's offset */
};

static int cmp_var(const void *a, const void *b)
{
	const struct svar *x = a, *y = b;

	if (x->scope != y->scope)
		return x->scope < y->scope ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_ivl(const void *a, const void *b)
{
	const struct ivl *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return x->hi > y->hi ? -1 : x->hi < y->hi;
}

int dws_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Flatten the scopes' nested ranges into disjoint segments, each naming the
 * innermost scope covering it. */
static int build_segs(hm_scopes *s, struct sub *b)
{
	size_t n = s->niv, np = 0, top = 0, i = 0;
	uint64_t *pts;
	struct ivl **stack;

	if (!n)
		return 0;
	qsort(s->iv, n, sizeof(*s->iv), cmp_ivl);
	pts = malloc(2 * n * sizeof(*pts));
	stack = malloc(n * sizeof(*stack));
	b->segs = malloc(2 * n * sizeof(*b->segs));
	if (!pts || !stack || !b->segs) {
		free(pts);
		free(stack);
		return -ENOMEM;
	}
	for (size_t k = 0; k < n; k++) {
		pts[np++] = s->iv[k].lo;
		pts[np++] = s->iv[k].hi;
	}
	qsort(pts, np, sizeof(*pts), dws_cmp_u64);
	{
		size_t w = 0;

		for (size_t k = 0; k < np; k++)
			if (!w || pts[w - 1] != pts[k])
				pts[w++] = pts[k];
		np = w;
	}
	for (size_t k = 0; k < np; k++) {
		uint64_t p = pts[k];

		while (top && stack[top - 1]->hi <= p)
			top--;
		for (; i < n && s->iv[i].lo == p; i++) {
			while (top && stack[top - 1]->hi <= p)
				top--;
			stack[top++] = &s->iv[i];
		}
		size_t nx = k + 1;

		/* the next distinct point: one function's end is often the
		 * next one's start */
		while (nx < np && pts[nx] == p)
			nx++;
		if (top && nx < np) {
			struct seg *last = b->nsegs ? &b->segs[b->nsegs - 1] : NULL;
			uint64_t hi = pts[nx];

			if (last && last->hi == p && last->scope == stack[top - 1]->scope) {
				last->hi = hi;
			} else if (b->nsegs < 2 * n) {
				b->segs[b->nsegs].lo = p;
				b->segs[b->nsegs].hi = hi;
				b->segs[b->nsegs++].scope = stack[top - 1]->scope;
			}
		}
	}
	free(pts);
	free(stack);
	return 0;
}

/* Subprogram die at off of unit c, entered on its first PC; the sub owns
 * die when this succeeds. */
static int add_sub(hm_scopes *s, struct cu *c, Dwarf_Die die, uint64_t off)
{
	if (GROW(s, c->subs, c->nsubs, c->csubs))
		return -ENOMEM;
	c->subs[c->nsubs] = (struct sub){ .off = off, .die = die };
	for (size_t i = 0; i < s->nrg; i++) {
		if (GROW(s, c->sr, c->nsr, c->csr))
			return -ENOMEM;
		c->sr[c->nsr++] = (struct subrange){ s->rg[i].lo, s->rg[i].hi, c->nsubs };
	}
	c->nsubs++;
	return 0;
}

static int cmp_subrange(const void *a, const void *b)
{
	const struct subrange *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->hi != y->hi)
		return x->hi > y->hi ? -1 : 1;
	return x->sub < y->sub ? -1 : x->sub > y->sub;
}

/* Walk unit c.  Without b, its top level: the notes of its abstract
 * instances, its static locals of abstract instances, and, unless
 * renote (the unit is indexed, the notes are being made again), its
 * variables and the PC ranges of its subprograms, which are not entered.
 * With b, subprogram b alone: its scopes, variables and segments. */
int dws_walk_cu(hm_scopes *s, struct cu *c, struct sub *b, int renote)
{
	struct frame st[MAX_SCOPE_DEPTH];
	unsigned top = 0;
	Dwarf_Error e = NULL;
	Dwarf_Die child = NULL;
	size_t s0 = c->nscopes, v0 = c->nvars;
	int rc = 0;

	s->niv = 0;
	if (s->cur && s->cur != c)
		dws_leave(s, s->cur);
	s->cur = c;
	if ((rc = dws_attach(s, c)))
		return rc;
	if (b) {
		/* the walk deallocates it */
		child = b->die;
		b->die = NULL;
		if (!child && dwarf_offdie_b(s->dbg, b->off, 1, &child, &e) != DW_DLV_OK)
			return dws_bad(s, e, "unreadable DIE");
		st[top++] = (struct frame){ child, -1, b->off - 1, 0 };
	} else {
		s->nastat = 0;
		s->nalocs = 0;
		rc = dwarf_child(c->die, &child, &e);
		if (rc == DW_DLV_NO_ENTRY)
			return 0;
		if (rc != DW_DLV_OK)
			return dws_bad(s, e, "unreadable unit");
		st[top++] = (struct frame){ child, -1, c->die_off, 0 };
	}
	rc = 0;
	while (top) {
		struct frame *f = &st[top - 1];
		Dwarf_Die die = f->die, sib = NULL, kid = NULL;
		Dwarf_Half tag = 0;
		Dwarf_Off off = 0;
		int32_t scope = SKIP;	/* the scope to walk the children in */
		int kept = 0;		/* die is a sub's now */

		if (!die) {
			top--;
			continue;
		}
		if (dwarf_dieoffset(die, &off, &e) != DW_DLV_OK || dwarf_tag(die, &tag, &e) != DW_DLV_OK) {
			rc = dws_bad(s, e, "unreadable DIE");
			break;
		}
		/* sibling chains must move forward: a DW_AT_sibling pointing
		 * back would loop */
		if (off <= f->last) {
			rc = dws_bad(s, NULL, "DIE siblings out of order");
			break;
		}
		f->last = off;
		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_lexical_block:
		case DW_TAG_inlined_subroutine:
			if (tag == DW_TAG_subprogram && (rc = note_die(s, die, off)))
				break;
			if (f->scope == ABSTRACT) {
				scope = ABSTRACT;
				break;
			}
			if (tag != DW_TAG_subprogram && f->scope < 0)
				break;
			if ((rc = dws_die_ranges(s, c, die)))
				break;
			if (!s->nrg) {
				/* gdb reads a block without PC range attributes as
				 * part of the enclosing one, and drops one whose
				 * ranges are empty (code the linker discarded is
				 * at 0); an inlined subroutine without
				 * them has no code; a subprogram without them is
				 * an abstract instance (or a declaration), whose
				 * variables name those of its concrete ones */
				if (tag == DW_TAG_lexical_block && !s->rg_present)
					scope = f->scope;
				else if (tag == DW_TAG_subprogram)
					scope = ABSTRACT;
				break;
			}
			if (!b && tag == DW_TAG_subprogram && f->scope == -1) {
				/* entered on its first PC */
				if (!renote && !(rc = add_sub(s, c, die, off)))
					kept = 1;
				break;
			}
			rc = add_scope(s, c, die, tag, f->scope);
			if (rc >= 0) {
				scope = rc;
				rc = 0;
			}
			break;
		case DW_TAG_namespace:
			if (f->scope < 0)
				scope = -1;
			break;
		case DW_TAG_variable:
		case DW_TAG_formal_parameter:
			if (f->scope >= 0)
				rc = add_var(s, c, die, f->scope, tag == DW_TAG_formal_parameter);
			else if (f->scope == -1 && tag == DW_TAG_variable && !renote)
				rc = add_global(s, c, die);
			else if (f->scope == ABSTRACT && !(rc = note_die(s, die, off)) &&
				 tag == DW_TAG_variable)
				rc = note_static(s, c, die, off, f->abs_sub);
			break;
		default:
			break;
		}
		if (!rc && scope != SKIP) {
			int r = dwarf_child(die, &kid, &e);

			if (r == DW_DLV_ERROR)
				rc = dws_bad(s, e, "unreadable DIE");
		}
		if (!rc && !(b && top == 1)) {	/* b: not its siblings */
			int r = hm_dwarf_sibling(s->dbg, die, &sib, &e);

			if (r == DW_DLV_ERROR)
				rc = dws_bad(s, e, "unreadable DIE");
		}
		if (!kept)
			dwarf_dealloc_die(die);
		f->die = sib;
		if (rc) {
			if (kid)
				dwarf_dealloc_die(kid);
			break;
		}
		if (kid) {
			if (top == MAX_SCOPE_DEPTH) {
				dwarf_dealloc_die(kid);
				rc = dws_bad(s, NULL, "DIEs nested too deep");
				break;
			}
			st[top++] = (struct frame){ kid, scope, off,
						    scope == ABSTRACT && tag == DW_TAG_subprogram ?
						    off : f->abs_sub };
		}
	}
	while (top) {
		if (st[top - 1].die)
			dwarf_dealloc_die(st[top - 1].die);
		top--;
	}
	if (rc)
		return rc;
	if (!b) {
		if (renote)
			return 0;
		if (c->nsr)
			qsort(c->sr, c->nsr, sizeof(*c->sr), cmp_subrange);
		return 0;
	}
	if ((rc = resolve_sub(s, c, s0, v0)))
		return rc;
	/* each scope's variables in one run, in DIE order */
	if (c->nvars > v0)
		qsort(c->vars + v0, c->nvars - v0, sizeof(*c->vars), cmp_var);
	for (size_t i = v0; i < c->nvars; i++) {
		struct scope *sc = &c->scopes[c->vars[i].scope];

		if (!sc->nvars)
			sc->var_first = i;
		sc->nvars++;
	}
	return build_segs(s, b);
}

/* What the memo holds is one unit's notes and what was looked up from
 * them, almost always its own DIEs: keep the memory it costs to one unit's
 * worth. */
void dws_memo_clear(hm_scopes *s)
{
	if (s->nmemo) {
		memset(s->memo, 0, s->cmemo * sizeof(*s->memo));
		s->nmemo = 0;
	}
	s->noted = NULL;
}
