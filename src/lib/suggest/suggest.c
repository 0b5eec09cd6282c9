/* suggest: evidence mapped onto a struct's members, the proposals ranked and
 * filtered, each one added to the type table as a hypothetical struct, and
 * the public API (see suggest.h).  The layout model is in suggest-model.c,
 * the proposals tried in suggest-cand.c.  The model is trusted only after it
 * replays the compiler's own offsets for today's member list. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/suggest.h"
#include "types/typebuild-lib.h"
#include "base/diag.h"
#include "suggest/suggest-int.h"
#include "base/util.h"
#include "base/opts.h"
#include "suggest/suggest-lib.h"
#include "check/check-lib.h"
#include "elf/binary-lib.h"

/* ---- evidence paths ---- */

/* Member `name` (n bytes) of record `rid`, looking through anonymous members.
 * Sets *idx to the direct member of rid that holds it and *off, *m. */
static int find_member(const hm_types *t, hm_type_id rid, const char *name, size_t n,
		       uint32_t *idx, uint64_t *off, hm_member *m)
{
	const hm_type *ty = hm_types_get(t, hm_types_resolve(t, rid));
	const hm_member *mm;

	if (!ty || !hm_kind_is_record(ty->kind))
		return -ENOENT;
	mm = hm_types_members(t, ty);
	for (uint32_t i = 0; i < ty->nr; i++) {
		uint32_t sub;
		uint64_t so;

		if (mm[i].name && strlen(mm[i].name) == n && !strncmp(mm[i].name, name, n)) {
			*idx = i;
			*off = mm[i].offset;
			*m = mm[i];
			return 0;
		}
		if (!mm[i].name && !find_member(t, mm[i].type, name, n, &sub, &so, m)) {
			*idx = i;
			*off = mm[i].offset + so;
			return 0;
		}
	}
	return -ENOENT;
}

/* find_member() on the struct being edited, through its indexes: a named
 * member wins unless an anonymous one before it holds the name. */
static int find_top(const struct sg_ctx *c, const char *name, size_t n, uint32_t *idx,
		    uint64_t *off, hm_member *m)
{
	uint32_t lo = 0, hi = c->nby_name, named = UINT32_MAX;
	uint32_t sub;
	uint64_t so;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int r = strncmp(c->by_name[mid].name, name, n);

		if (!r && c->by_name[mid].name[n])
			r = 1;	/* longer: sorts after name */
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->nby_name && !strncmp(c->by_name[lo].name, name, n) &&
	    !c->by_name[lo].name[n])
		named = c->by_name[lo].idx;
	for (uint32_t k = 0; k < c->nanon && c->anon[k] < named; k++) {
		const hm_member *am = &c->mem[c->anon[k]];

		if (!find_member(c->t, am->type, name, n, &sub, &so, m)) {
			*idx = c->anon[k];
			*off = am->offset + so;
			return 0;
		}
	}
	if (named == UINT32_MAX)
		return -ENOENT;
	*idx = named;
	*off = c->mem[named].offset;
	*m = c->mem[named];
	return 0;
}

/* The bytes member m at *off covers: its type's size, or for a bitfield
 * the bytes its bits touch (*off moves to the first). */
static void member_bytes(const struct sg_ctx *c, const hm_member *m, uint64_t *off,
			 uint64_t *size)
{
	*size = hm_types_sizeof(c->t, m->type);
	if (m->flags & HM_MEMBER_BITFIELD) {
		uint64_t b0 = *off * 8 + m->bit_offset;

		*off = b0 / 8;
		*size = (b0 + m->bit_size + 7) / 8 - *off;
	}
}

static int resolve(const struct sg_ctx *c, const char *path, struct sg_ref *r)
{
	size_t n = strcspn(path, ".[");
	uint32_t idx;
	uint64_t off;
	hm_member m;
	hm_type_id ty;

	if (!n || (c->by_name ? find_top(c, path, n, &idx, &off, &m) :
		   find_member(c->t, c->id, path, n, &idx, &off, &m)))
		return -ENOENT;
	r->ent = sg_ent_of_member(c, idx);
	if (r->ent < 0)
		return -ENOENT;
	ty = m.type;
	member_bytes(c, &m, &off, &r->size);
	for (path += n; *path;) {
		const hm_type *at;
		uint64_t so;

		if (*path == '.') {
			path++;
			n = strcspn(path, ".[");
			if (!n || find_member(c->t, ty, path, n, &idx, &so, &m))
				return -ENOENT;
			off += so;
			ty = m.type;
			member_bytes(c, &m, &off, &r->size);
			path += n;
			continue;
		}
		/* "[i]": one element of a one-dimensional array */
		at = hm_types_get(c->t, hm_types_resolve(c->t, ty));
		if (*path != '[' || !at || at->kind != HM_KIND_ARRAY || at->nr != 1)
			break;
		{
			char *end;
			unsigned long long i = strtoull(path + 1, &end, 10);
			uint64_t es = hm_types_sizeof(c->t, at->target);

			if (*end != ']')
				return -ENOENT;
			off += i * es;
			r->size = es;
			ty = at->target;
			path = end + 1;
		}
	}
	r->inner = off - c->ents[r->ent].off0;
	return 0;
}

/* ---- evidence onto entries ---- */

static int note(hm_suggestion *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int note(hm_suggestion *s, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (hm_grow((void **)&s->notes, &s->capnotes, s->nnotes + 2, sizeof(*s->notes)))
		return -ENOMEM;
	if (!(s->notes[s->nnotes] = hm_arena_strndup(&s->arena, buf, strlen(buf))))
		return -ENOMEM;
	s->notes[++s->nnotes] = NULL;
	return 0;
}

/* Whether entry e is a lock, or holds one, as lint judges its type. */
static int ent_is_lock(const struct sg_ctx *c, struct hmi_typeclass *tc, int e)
{
	const char *why;

	return !c->ents[e].bitrun && c->ents[e].nr &&
	       hmi_type_unit(tc, c->mem[c->ents[e].first].type, &why) == HMI_LOCK;
}

static uint64_t ent_accesses(const struct sg_ctx *c, int e)
{
	return c->ents[e].loads + c->ents[e].stores;
}

/* The lock entry fields of truly shared group g without a lock of their own
 * go with: the hottest lock of g, or else of all the groups (a lock and the
 * fields it guards on the next line, when the object straddled lines). */
static int guard_of(const struct sg_ctx *c, const char *lock, size_t g)
{
	int best = -1;

	for (int pass = 0; pass < 2 && best < 0; pass++)
		for (size_t h = pass ? 0 : g; h < (pass ? c->ngroups : g + 1); h++) {
			if (c->groups[h].strict || !c->gref[h].ok)
				continue;
			for (size_t k = 0; k < c->gref[h].n; k++) {
				int e = c->gref[h].r[k].ent;

				if (lock[e] && (best < 0 || ent_accesses(c, e) > ent_accesses(c, best) ||
						(ent_accesses(c, e) == ent_accesses(c, best) && e < best)))
					best = e;
			}
		}
	return best;
}

/* Two locks are two data, however alike the threads that take them: a
 * profile's truly shared groups (same actors, same line) may hold both
 * mm_struct's mmap_lock and page_table_lock, and keeping those on one line
 * is the seed regression, not a cure.  So the truly shared fields are
 * regrouped by lock: one group per lock member, with the fields its profile
 * group saw beside it (beside the hottest lock when it saw several, or
 * none); each new group weighs its share of the accesses of the groups it
 * took fields from.  The regrouping depends on the fields the profile names,
 * not on which line of which boot they met on.  No lock among them, or a
 * profile from before the groups (each truly shared field alone, as it
 * was): the groups stay as they are. */
static int regroup_by_lock(struct sg_ctx *c)
{
	struct hmi_typeclass *tc;
	char *lock = hm_arena_alloc(&c->arena, c->nents + 1);
	int *slot = hm_arena_alloc(&c->arena, (c->nents + 1) * sizeof(*slot));
	size_t nlocks = 0, nout = 0, n;
	hm_ev_group *ng;
	struct sg_gref *nr;
	const char ***paths;
	double *w;

	if (!hmi_evidence_true_groups(c->ev))
		return 0;
	if (!lock || !slot)
		return -ENOMEM;
	if (!(tc = hmi_typeclass_new(c->t, NULL)))
		return -ENOMEM;
	memset(lock, 0, c->nents + 1);
	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t k = 0; !c->groups[g].strict && c->gref[g].ok && k < c->gref[g].n; k++) {
			int e = c->gref[g].r[k].ent;

			if (!lock[e] && ent_is_lock(c, tc, e)) {
				lock[e] = 1;
				nlocks++;
			}
		}
	hmi_typeclass_free(tc);
	if (!nlocks)
		return 0;
	/* the lock groups first, by member order; then the others as they were */
	n = nlocks + c->ngroups;
	ng = hm_arena_alloc(&c->arena, (n + 1) * sizeof(*ng));
	nr = hm_arena_alloc(&c->arena, (n + 1) * sizeof(*nr));
	paths = hm_arena_alloc(&c->arena, (n + 1) * sizeof(*paths));
	w = hm_arena_alloc(&c->arena, (n + 1) * sizeof(*w));
	if (!ng || !nr || !paths || !w)
		return -ENOMEM;
	for (size_t e = 0; e < c->nents; e++) {
		slot[e] = -1;
		if (!lock[e])
			continue;
		slot[e] = (int)nout;
		ng[nout] = (hm_ev_group){ 0 };
		nr[nout] = (struct sg_gref){ .ok = 1 };
		if (!(nr[nout].r = hm_arena_alloc(&c->arena, 16 * sizeof(*nr[nout].r))) ||
		    !(paths[nout] = hm_arena_alloc(&c->arena, 16 * sizeof(**paths))))
			return -ENOMEM;
		w[nout++] = 0;
	}
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct sg_gref *gr = &c->gref[g];
		uint64_t all = 0;
		int guard;

		if (c->groups[g].strict || !gr->ok) {
			ng[nout] = c->groups[g];
			nr[nout++] = *gr;
			continue;
		}
		guard = guard_of(c, lock, g);
		for (size_t k = 0; k < gr->n; k++)
			all += ent_accesses(c, gr->r[k].ent);
		for (size_t k = 0; k < gr->n; k++) {
			int e = gr->r[k].ent, to = slot[lock[e] ? e : guard];
			struct sg_gref *t = &nr[to];

			w[to] += (double)c->groups[g].weight *
				 (all ? (double)ent_accesses(c, e) / (double)all : 1.0 / (double)gr->n);
			if (t->n == 16)
				continue;
			paths[to][t->n] = c->groups[g].paths[k];
			t->r[t->n++] = gr->r[k];
		}
	}
	for (size_t i = 0; i < nlocks; i++) {
		ng[i].nr = nr[i].n;
		ng[i].paths = paths[i];
		ng[i].weight = w[i] < 1 ? 1 : (uint64_t)(w[i] + 0.5);
	}
	c->groups = ng;
	c->gref = nr;
	c->ngroups = nout;
	return 0;
}

static int map_evidence(struct sg_ctx *c, hm_suggestion *s)
{
	size_t nf;
	const hm_ev_field *f = hmi_evidence_fields(c->ev, &nf);
	/* loads and stores known (a profile; lint's guesses): writers and
	 * readers told apart; otherwise (rules) every named member is contended */
	int counts = hmi_evidence_kind(c->ev) == HM_EVIDENCE_PROFILE || nf > 0;
	struct sg_ref r;

	c->pairs = hm_evidence_pairs(c->ev, &c->npairs);
	c->groups = hmi_evidence_groups(c->ev, &c->ngroups);
	c->pref = hm_arena_alloc(&c->arena, (c->npairs + 1) * sizeof(*c->pref));
	c->gref = hm_arena_alloc(&c->arena, (c->ngroups + 1) * sizeof(*c->gref));
	if (!c->pref || !c->gref)
		return -ENOMEM;
	for (size_t i = 0; i < nf; i++) {
		if (resolve(c, f[i].path, &r))
			continue;
		c->ents[r.ent].loads += f[i].loads;
		c->ents[r.ent].stores += f[i].stores;
		c->ents[r.ent].hot = 1;
	}
	for (size_t i = 0; i < c->npairs; i++) {
		struct sg_pref *p = &c->pref[i];
		const char *bad = resolve(c, c->pairs[i].a, &p->a) ? c->pairs[i].a :
				  resolve(c, c->pairs[i].b, &p->b) ? c->pairs[i].b : NULL;

		if (bad) {
			if (!c->outer && note(s, "struct %s has no member %s: pair %s/%s ignored",
					      c->name, bad, c->pairs[i].a, c->pairs[i].b))
				return -ENOMEM;
			continue;
		}
		p->ok = 1;
		c->ents[p->a.ent].hot = c->ents[p->b.ent].hot = 1;
	}
	for (size_t g = 0; g < c->ngroups; g++) {
		struct sg_gref *gr = &c->gref[g];

		gr->r = hm_arena_alloc(&c->arena, c->groups[g].nr * sizeof(*gr->r));
		if (!gr->r)
			return -ENOMEM;
		gr->strict = c->groups[g].strict;
		gr->ok = 1;
		for (size_t k = 0; k < c->groups[g].nr && k < 16; k++) {
			if (resolve(c, c->groups[g].paths[k], &gr->r[gr->n])) {
				gr->ok = 0;
				if (!c->outer && note(s, "struct %s has no member %s: ignored",
						      c->name, c->groups[g].paths[k]))
					return -ENOMEM;
				break;
			}
			c->ents[gr->r[gr->n++].ent].hot = 1;
		}
	}
	if (regroup_by_lock(c))
		return -ENOMEM;
	for (size_t i = 0; i < c->nents; i++) {
		struct sg_ent *e = &c->ents[i];

		e->read_mostly = counts && e->loads && !e->stores;
		e->written = 0;
	}
	for (size_t i = 0; i < c->npairs; i++) {
		if (!c->pref[i].ok)
			continue;
		for (int side = 0; side < 2; side++) {
			struct sg_ent *e = &c->ents[side ? c->pref[i].b.ent : c->pref[i].a.ent];

			if (!counts || e->stores)
				e->written = 1;
		}
	}
	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t k = 0; c->gref[g].ok && k < c->gref[g].n; k++)
			c->ents[c->gref[g].r[k].ent].written = 1;
	return 0;
}

/* ---- ranking ---- */

/* Predicted benefit per byte: the contention a proposal removes over the
 * bytes it adds plus one line, so that a free proposal is not infinitely
 * better than one that costs a line and removes far more. */
static double per_byte(const struct sg_var *v, const struct sg_ctx *c)
{
	double gain = c->today->st.remaining - v->st.remaining;

	return gain / ((double)(v->growth > 0 ? v->growth : 0) + (double)c->L);
}

static int var_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct sg_var *a = *(struct sg_var *const *)pa, *b = *(struct sg_var *const *)pb;
	double x = per_byte(a, ctx), y = per_byte(b, ctx);

	if (x > y + 1e-12)
		return -1;
	if (x < y - 1e-12)
		return 1;
	if (a->st.remaining < b->st.remaining - 1e-9)
		return -1;
	if (a->st.remaining > b->st.remaining + 1e-9)
		return 1;
	if (a->growth != b->growth)
		return a->growth < b->growth ? -1 : 1;
	if (a->nedits != b->nedits)
		return a->nedits < b->nedits ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static int same_layout(const struct sg_var *a, const struct sg_var *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (a->s[i].ent != b->s[i].ent || a->s[i].attr != b->s[i].attr ||
		    a->s[i].pad != b->s[i].pad || a->s[i].wrap != b->s[i].wrap ||
		    a->s[i].wrap_n != b->s[i].wrap_n || a->s[i].pkind != b->s[i].pkind)
			return 0;
	return 1;
}

static int same_edit(const hm_edit *a, const hm_edit *b)
{
	return a->kind == b->kind && !strcmp(a->member, b->member) && a->value == b->value &&
	       (a->anchor == b->anchor || (a->anchor && b->anchor && !strcmp(a->anchor, b->anchor)));
}

/* q does at least as well as v with a subset of v's edits: v adds nothing. */
static int dominated(const struct sg_var *q, const struct sg_var *v)
{
	if (q->st.remaining > v->st.remaining + 1e-9 || q->growth > v->growth)
		return 0;
	for (size_t i = 0; i < q->nedits; i++) {
		int found = 0;

		for (size_t k = 0; k < v->nedits && !found; k++)
			found = same_edit(&q->edits[i], &v->edits[k]);
		if (!found)
			return 0;
	}
	return 1;
}

/* Sort, then drop what repeats or adds nothing to a better one. */
static size_t rank_unique(struct sg_ctx *c, struct sg_var **v, size_t nv)
{
	size_t n = 0;

	qsort_r(v, nv, sizeof(*v), var_cmp, c);
	for (size_t i = 0; i < nv; i++) {
		int dup = 0;

		for (size_t k = 0; k < n && !dup; k++)
			dup = same_layout(v[k], v[i]) || dominated(v[k], v[i]);
		if (!dup)
			v[n++] = v[i];
	}
	return n;
}

/* Drop what does not help, breaks a constraint, or repeats a better one. */
int sg_resolve(const struct sg_ctx *c, const char *path, struct sg_ref *r)
{
	return resolve(c, path, r);
}

/* The first pair the evidence shows contended that v puts on one line
 * where today's layout does not (at no start), or SIZE_MAX.  Measured or
 * stated evidence only: lint's guesses name most pairs of a kernel struct,
 * and there they only weigh in the remaining contention. */
static size_t creates_pair(const struct sg_ctx *c, const struct sg_var *v)
{
	if (hmi_evidence_kind(c->ev) == HM_EVIDENCE_LINT)
		return SIZE_MAX;
	for (size_t i = 0; i < c->npairs; i++)
		if (c->pref[i].ok && sg_pair_frac(c, v, i) > 0 && sg_pair_frac(c, c->today, i) == 0)
			return i;
	return SIZE_MAX;
}

static int select_vars(struct sg_ctx *c, hm_suggestion *s)
{
	struct sg_var **out = hm_arena_alloc(&c->arena, (c->nvars + 1) * sizeof(*out));
	size_t n = 0, over = 0, apart = 0, first = SIZE_MAX, made = 0, mfirst = SIZE_MAX;

	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < c->nvars; i++) {
		struct sg_var *v = c->vars[i];
		size_t k;

		/* no less contention: kept only when it repairs a broken
		 * `apart` pair (mmap_lock's count and owner on one line) */
		if (v->st.remaining + 1e-9 >= c->today->st.remaining &&
		    (!v->repairs || v->st.remaining > c->today->st.remaining + 1e-9))
			continue;
		if ((k = sg_breaks_apart(c, v)) != SIZE_MAX) {
			if (!apart++)
				first = k;
			continue;
		}
		/* a move that trades one contended pair for another is no fix */
		if ((k = creates_pair(c, v)) != SIZE_MAX) {
			if (!made++)
				mfirst = k;
			continue;
		}
		if ((c->opts.keep_size && v->growth != 0) ||
		    (v->growth > 0 && (uint64_t)v->growth > c->opts.max_growth))
			out[over++] = v;
		else
			c->vars[n++] = v;
	}
	c->nvars = rank_unique(c, c->vars, n);
	over = rank_unique(c, out, over);
	if (apart && note(s, "%zu proposal%s left out: they leave %s and %s on one line, which "
			  "the rules keep apart", apart, apart == 1 ? "" : "s",
			  c->opts.apart[2 * first], c->opts.apart[2 * first + 1]))
		return -ENOMEM;
	if (made && note(s, "%zu proposal%s left out: they put %s and %s, contended per the "
			 "evidence, on one line", made, made == 1 ? "" : "s",
			 c->pairs[mfirst].a, c->pairs[mfirst].b))
		return -ENOMEM;
	if (over && (c->opts.keep_size ?
		     note(s, "%zu proposal%s left out: they change sizeof", over,
			  over == 1 ? "" : "s") :
		     note(s, "%zu proposal%s left out: they grow the struct by more than %" PRIu64
			  " bytes", over, over == 1 ? "" : "s", c->opts.max_growth)))
		return -ENOMEM;
	return 0;
}

/* ---- hypothetical structs ---- */

static void sg_set_type_align(hm_types *t, hm_type_id id, uint32_t align)
{
	/* the type was made here and nothing else points at it yet */
	hm_type *ty = (hm_type *)hm_types_get(t, id);

	if (ty)
		ty->alignment = align;
}

static hm_type_id build_outer(struct sg_ctx *c, const struct sg_var *v, hm_type_id inner,
			      int inner_user);

/* `struct cacheline_padding { char x[0]; } ____cacheline_internodealigned_in_smp;`
 * as include/linux/cache.h declares it: the binary's own when it has one. */
static hm_type_id linepad_type(struct sg_ctx *c)
{
	hm_member x = { .name = "x" };
	hm_type_id ch;

	if (c->linepad_type)
		return c->linepad_type;
	if ((c->linepad_type = hm_types_find_struct(c->t, "cacheline_padding")))
		return c->linepad_type;
	if (!(ch = hmi_types_char(c->t)) || !(x.type = hmi_types_add_array(c->t, ch, 0)))
		return HM_TYPE_NONE;
	return c->linepad_type = hmi_types_add_struct(c->t, "cacheline_padding", &x, 1, 0, c->L);
}

/* The types of a cacheline group's markers: `__u8[0]` and an empty struct. */
static hm_type_id group_type(struct sg_ctx *c, uint8_t kind)
{
	hm_type_id u8;

	if (kind == SG_PAD_GPAD) {
		if (!c->empty_struct)
			c->empty_struct = hmi_types_add_struct(c->t, NULL, NULL, 0, 0, 0);
		return c->empty_struct;
	}
	if (!c->u8_array && (u8 = hmi_types_typedef_base(c->t, "__u8", "unsigned char", 1, 0)))
		c->u8_array = hmi_types_add_array(c->t, u8, 0);
	return c->u8_array;
}

/* The members of the slot's entry, at `off` less the entry's offset today. */
static uint32_t ent_members(const struct sg_ctx *c, const struct sg_slot *sl, uint64_t off,
			    hm_member *mm)
{
	const struct sg_ent *e = &c->ents[sl->ent];

	for (uint32_t k = 0; k < e->nr; k++) {
		mm[k] = c->mem[e->first + k];
		mm[k].offset = off + (mm[k].offset - e->off0);
		if (!e->bitrun)
			mm[k].alignment = sl->attr;
	}
	return e->nr;
}

/* The anonymous struct opened at slot i: its members at offsets from its
 * start, its size a multiple of its alignment. */
static hm_type_id build_wrap(struct sg_ctx *c, const struct sg_var *v, size_t i)
{
	const struct sg_slot *s0 = &v->s[i], *sl = &v->s[i + s0->wrap_n - 1];
	hm_member *mm = calloc(c->nmem + 1, sizeof(*mm));
	uint32_t n = 0, al = s0->wrap;
	uint64_t end = sl->off + c->ents[sl->ent].size - s0->off;
	hm_type_id id;

	if (!mm)
		return HM_TYPE_NONE;
	for (size_t k = i; k < i + s0->wrap_n; k++) {
		const struct sg_ent *e = &c->ents[v->s[k].ent];

		al = e->align > al ? e->align : al;
		al = v->s[k].attr > al ? v->s[k].attr : al;
		n += ent_members(c, &v->s[k], v->s[k].off - s0->off, &mm[n]);
	}
	id = hmi_types_add_struct(c->t, NULL, mm, n, sg_align_up(end, al), s0->wrap);
	free(mm);
	return id;
}

static hm_type_id build_type(struct sg_ctx *c, const struct sg_var *v)
{
	hm_member *mm = calloc(c->nmem + v->n + 1, sizeof(*mm));
	hm_type_id id = HM_TYPE_NONE, ch = HM_TYPE_NONE;
	uint32_t n = 0;
	int user = 0;

	if (!mm)
		return HM_TYPE_NONE;
	for (size_t i = 0; i < v->n; i++) {
		const struct sg_slot *sl = &v->s[i];

		if (sl->ent < 0 && sl->pkind) {
			hm_type_id gt = group_type(c, sl->pkind);

			if (!gt)
				goto out;
			mm[n++] = (hm_member){ .name = sl->pad_name, .offset = sl->off,
					       .type = gt, .alignment = sl->attr };
			continue;
		}
		if (sl->ent < 0 && sl->attr) {
			hm_type_id lp = linepad_type(c);

			if (!lp)
				goto out;
			/* both compilers put the type's alignment on the member */
			mm[n++] = (hm_member){ .name = sl->pad_name, .offset = sl->off,
					       .type = lp, .alignment = sl->attr };
			continue;
		}
		if (sl->ent < 0) {
			if (!ch && !(ch = hmi_types_char(c->t)))
				goto out;
			mm[n++] = (hm_member){ .name = sl->pad_name, .offset = sl->off,
					       .type = hmi_types_add_array(c->t, ch, sl->pad) };
			if (!mm[n - 1].type)
				goto out;
			continue;
		}
		if (sl->wrap) {
			hm_type_id w = build_wrap(c, v, i);

			if (!w)
				goto out;
			/* both compilers put the attribute on the member too */
			mm[n++] = (hm_member){ .type = w, .offset = sl->off,
					       .alignment = sl->wrap,
					       .decl_line = c->mem[c->ents[sl->ent].first].decl_line };
			i += sl->wrap_n - 1;
			continue;
		}
		n += ent_members(c, sl, sl->off, &mm[n]);
	}
	id = hmi_types_add_struct_like(c->t, c->id, mm, n, v->inner_size);
	if (id && c->opts.records_struct_align) {
		for (uint32_t k = 0; k < n; k++)
			user |= mm[k].alignment != 0;
		if (user || c->type_align)
			sg_set_type_align(c->t, id, v->inner_align);
	}
	if (id && c->outer)
		id = build_outer(c, v, id, c->opts.records_struct_align && (user || c->type_align));
out:
	free(mm);
	return id;
}

/* The enclosing struct around a new anonymous member type `inner`.  GCC
 * marks a member whose type carries an alignment attribute as aligned too
 * (inner_user). */
static hm_type_id build_outer(struct sg_ctx *c, const struct sg_var *v, hm_type_id inner,
			      int inner_user)
{
	struct sg_ctx *o = c->outer;
	struct sg_ent *oe = &o->ents[c->outer_ent], saved = *oe;
	struct sg_var *ov = o->today;
	hm_member *mm = calloc(o->nmem + 1, sizeof(*mm));
	hm_type_id id = HM_TYPE_NONE;
	int user = 0;

	if (!mm)
		return HM_TYPE_NONE;
	oe->size = v->inner_size;
	oe->align = v->inner_align;
	if (sg_var_compute(o, ov) == 0) {
		for (uint32_t k = 0; k < o->nmem; k++) {
			int e = sg_ent_of_member(o, k);

			mm[k] = o->mem[k];
			mm[k].offset = ov->pos[e] + (o->mem[k].offset - o->ents[e].off0);
			if (e == c->outer_ent) {
				mm[k].type = inner;
				if (inner_user && v->inner_align > mm[k].alignment)
					mm[k].alignment = v->inner_align;
			}
			user |= mm[k].alignment != 0;
		}
		id = hmi_types_add_struct_like(c->t, o->id, mm, o->nmem, ov->st.size);
		if (id && c->opts.records_struct_align &&
		    (user || o->type_align || v->inner_align > saved.align))
			sg_set_type_align(c->t, id, ov->st.alignment);
	}
	*oe = saved;
	free(mm);
	return id;
}

static int fill_proposal(struct sg_ctx *c, hm_suggestion *s, const struct sg_var *v,
			 hm_proposal *p)
{
	hm_edit *ed = hm_arena_alloc(&s->arena, (v->nedits + 1) * sizeof(*ed));
	const hm_ev_pair **sep = hm_arena_alloc(&s->arena, (c->npairs + 1) * sizeof(*sep));

	p->title = hm_arena_strndup(&s->arena, v->title, strlen(v->title));
	if (!ed || !sep || !p->title)
		return -ENOMEM;
	for (size_t i = 0; i < v->nedits; i++) {
		ed[i] = v->edits[i];
		if (ed[i].pad_name &&
		    !(ed[i].pad_name = hm_arena_strndup(&s->arena, ed[i].pad_name,
							strlen(ed[i].pad_name))))
			return -ENOMEM;
	}
	p->edits = ed;
	p->nr_edits = v->nedits;
	p->stats = v->st;
	p->growth = v->growth;
	for (size_t i = 0; i < c->npairs; i++)
		if (c->pref[i].ok && sg_pair_frac(c, c->today, i) > 0 && sg_pair_frac(c, v, i) == 0)
			sep[p->nr_separated++] = &c->pairs[i];
	p->separated = sep;
	p->type = build_type(c, v);
	p->edit_type = c->id;
	return p->type ? 0 : -ENOMEM;
}

static int today_shared(struct sg_ctx *c, hm_suggestion *s)
{
	s->shared = hm_arena_alloc(&s->arena, (c->npairs + 1) * sizeof(*s->shared));
	if (!s->shared)
		return -ENOMEM;
	for (size_t i = 0; i < c->npairs; i++) {
		s->total += c->pairs[i].weight;
		if (c->pref[i].ok && sg_pair_frac(c, c->today, i) > 0)
			s->shared[s->nshared++] = &c->pairs[i];
	}
	for (size_t g = 0; g < c->ngroups; g++)
		s->total += c->groups[g].weight;
	/* heaviest first */
	for (size_t i = 1; i < s->nshared; i++)
		for (size_t k = i; k && s->shared[k]->weight > s->shared[k - 1]->weight; k--) {
			const hm_ev_pair *x = s->shared[k];

			s->shared[k] = s->shared[k - 1];
			s->shared[k - 1] = x;
		}
	return 0;
}

/* Nothing shares a line today, yet the evidence has truly shared groups:
 * say that their contention is true sharing, which no layout removes (a
 * lock and what it guards stay together). */
static void true_sharing_why(struct sg_ctx *c, hm_suggestion *s)
{
	size_t n = 0, g, k;
	int w;

	for (g = 0; g < c->ngroups && !c->groups[g].strict; g++)
		;
	if (!c->ngroups || g < c->ngroups || c->npairs || s->nshared)
		return;
	w = snprintf(s->whybuf, sizeof(s->whybuf), "the contention is true sharing of ");
	for (g = 0; g < c->ngroups && w > 0 && (size_t)w < sizeof(s->whybuf); g++)
		for (k = 0; k < c->groups[g].nr && (size_t)w < sizeof(s->whybuf); k++)
			w += snprintf(s->whybuf + w, sizeof(s->whybuf) - (size_t)w, "%s%s",
				      n++ ? (k ? ", " : "; ") : "", c->groups[g].paths[k]);
	if (w > 0 && (size_t)w < sizeof(s->whybuf))
		snprintf(s->whybuf + w, sizeof(s->whybuf) - (size_t)w,
			 " (kept together): no layout removes it: nothing to do");
	if (w > 0 && (size_t)w < sizeof(s->whybuf) - 60)
		s->why = s->whybuf;
}

/* Whether the C rules give back today's offsets.  When they do not, s->why
 * names the first member that disagrees. */
static int replay_ok(struct sg_ctx *c, hm_suggestion *s)
{
	const char *why = NULL;
	char buf[256];

	if (sg_var_compute(c, c->today) < 0)
		why = "a run of bitfields the rules cannot place";
	for (size_t i = 0; !why && i < c->nents; i++) {
		if (c->today->pos[i] == c->ents[i].off0)
			continue;
		snprintf(buf, sizeof(buf), "%s is at %llu, the rules give %llu",
			 c->ents[i].name ? c->ents[i].name : "an anonymous member",
			 (unsigned long long)c->ents[i].off0,
			 (unsigned long long)c->today->pos[i]);
		why = buf;
	}
	if (!why && (c->today->inner_size != c->size0 ||
		     (c->outer && c->today->st.size != c->outer->size0))) {
		snprintf(buf, sizeof(buf), "sizeof is %llu, the rules give %llu",
			 (unsigned long long)(c->outer ? c->outer->size0 : c->size0),
			 (unsigned long long)(c->outer ? c->today->st.size : c->today->inner_size));
		why = buf;
	}
	if (!why)
		return 1;
	snprintf(s->whybuf, sizeof(s->whybuf), "its layout does not follow the plain C "
		 "rules (%s; packed?): no proposals", why);
	s->why = s->whybuf;
	return 0;
}

/* The member that holds every member the evidence names, or -1. */
static int common_ent(const struct sg_ctx *c)
{
	int a = -2;

	for (size_t i = 0; i < c->npairs; i++)
		if (c->pref[i].ok) {
			for (int side = 0; side < 2; side++) {
				int e = side ? c->pref[i].b.ent : c->pref[i].a.ent;

				if (a != -2 && e != a)
					return -1;
				a = e;
			}
		}
	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t k = 0; c->gref[g].ok && k < c->gref[g].n; k++) {
			if (a != -2 && c->gref[g].r[k].ent != a)
				return -1;
			a = c->gref[g].r[k].ent;
		}
	return a < 0 || c->ents[a].bitrun ? -1 : a;
}

/* The anonymous struct member that holds every member the evidence names,
 * or -1. */
static int common_anon(const struct sg_ctx *c)
{
	int a = common_ent(c);

	if (a < 0 || c->ents[a].name)
		return -1;
	if (hm_types_get(c->t, hm_types_resolve(c->t, c->mem[c->ents[a].first].type))->kind !=
	    HM_KIND_STRUCT)
		return -1;
	return a;
}

/* Why nothing helps: when every contending member is inside one named
 * member, no placement of this struct's members can part them. */
static void why_nothing(struct sg_ctx *c, hm_suggestion *s)
{
	int a = common_ent(c);
	const hm_type *ty;

	s->why = "no placement helps within the constraints";
	if (a < 0 || !c->ents[a].name)
		return;
	ty = hm_types_get(c->t, hm_types_resolve(c->t, c->mem[c->ents[a].first].type));
	if (!ty || !ty->name || (ty->kind != HM_KIND_STRUCT && ty->kind != HM_KIND_CLASS))
		return;
	snprintf(s->whybuf, sizeof(s->whybuf), "every contending member is inside %s "
		 "(struct %s): no placement of this struct's members parts them; try "
		 "-C %s", c->ents[a].name, ty->name, ty->name);
	s->why = s->whybuf;
}

static int run(struct sg_ctx *c, hm_suggestion *s)
{
	size_t max = c->opts.max_proposals ? c->opts.max_proposals : 8;
	int err, a;

	if ((err = sg_build_entries(c)) || (err = map_evidence(c, s)))
		return err;
	if (!(c->today = sg_var_today(c)))
		return -ENOMEM;
	if (!c->outer && (a = common_anon(c)) >= 0) {
		/* work on the anonymous struct's members, size the outer one */
		struct sg_ctx *in = hm_arena_alloc(&c->arena, sizeof(*in));

		if (!in)
			return -ENOMEM;
		if (!replay_ok(c, s))
			return 0;
		*in = (struct sg_ctx){ .t = c->t, .ev = c->ev, .opts = c->opts, .L = c->L,
				       .name = c->name, .outer = c, .outer_ent = a,
				       .id = hm_types_resolve(c->t, c->mem[c->ents[a].first].type) };
		err = run(in, s);
		hm_arena_free(&in->arena);
		return err;
	}
	if (!replay_ok(c, s))
		return 0;
	sg_var_score(c, c->today);
	s->today = c->today->st;
	if ((err = today_shared(c, s)))
		return err;
	if (hmi_evidence_empty(c->ev)) {
		s->why = "no evidence of contention: nothing to do";
		return 0;
	}
	if (c->today->st.remaining < 1e-9) {
		s->why = "no contending pair shares a line today: nothing to do";
		true_sharing_why(c, s);
		return 0;
	}
	c->vars = hm_arena_alloc(&c->arena, SG_MAX_VARIANTS * sizeof(*c->vars));
	if (!c->vars)
		return -ENOMEM;
	if (c->opts.style == HM_STYLE_KERNEL && (c->idioms = sg_idioms_scan(c))) {
		static const char *const names[] = { "aligned anonymous structs",
						     "CACHELINE_PADDING", "cacheline groups" };
		char buf[128] = "";

		for (unsigned k = 0; k < 3; k++)
			if (c->idioms & (1u << k))
				snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
					 *buf ? ", " : "", names[k]);
		if (note(s, "the struct already uses %s: of the kernel idioms, only that is "
			 "proposed", buf))
			return -ENOMEM;
	}
	sg_candidates(c, s);
	if (c->refused && note(s, "search stopped at %u MiB of variants (%zu members each): "
			       "these are the best of %zu tried", SG_VAR_BUDGET >> 20, c->nents,
			       c->nvars))
		return -ENOMEM;
	for (size_t i = 0; i < c->nvars; i++)
		c->vars[i]->order = i;
	if ((err = select_vars(c, s)))
		return err;
	if (!c->nvars) {
		why_nothing(c, s);
		return 0;
	}
	if (c->nvars > max)
		c->nvars = max;
	s->prop = hm_arena_alloc(&s->arena, c->nvars * sizeof(*s->prop));
	if (!s->prop)
		return -ENOMEM;
	for (size_t i = 0; i < c->nvars; i++, s->nprop++)
		if ((err = fill_proposal(c, s, c->vars[i], &s->prop[i])))
			return err;
	return 0;
}

int hm_suggest(hm_types *t, hm_type_id id, const hm_evidence *ev,
	       const struct hm_suggest_opts *opts, hm_suggestion **out)
{
	const hm_type *ty = hm_types_get(t, id);
	struct sg_ctx c = { .t = t, .id = id, .ev = ev };
	const char *where;
	hm_suggestion *s;
	int err;

	if (!HM_OPTS_VALID(opts, hm_suggest_opts))
		return -EINVAL;
	if (!ty || ty->declaration || !hm_kind_is_record(ty->kind))
		return hm_fail(EINVAL, "type %u: not a complete struct", id);
	if (opts)
		HM_OPTS_COPY(&c.opts, opts, hm_suggest_opts);
	c.L = c.opts.cacheline_size ? c.opts.cacheline_size : hmi_arch_cacheline_size(NULL);
	c.name = ty->name ? ty->name : "(anonymous)";
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->id = id;
	s->name = c.name;
	s->ev = ev;
	/* a kernel object from a SLAB_HWCACHE_ALIGN cache starts a line, as
	 * `placement line-aligned` or --assume-aligned would say */
	if (c.opts.style == HM_STYLE_KERNEL && !c.opts.assume_aligned &&
	    (where = hmi_kslab_where(ty->name)) && hm_types_sizeof(t, id) > c.L / 2) {
		c.opts.assume_aligned = 1;
		if (note(s, "%s objects start a cacheline: their slab cache is created with "
			 "SLAB_HWCACHE_ALIGN (%s)", c.name, where)) {
			hm_suggestion_free(s);
			return -ENOMEM;
		}
	}
	if (ty->kind == HM_KIND_UNION)
		s->why = "a union: its members share their bytes, nothing to move";
	err = ty->kind == HM_KIND_UNION ? 0 : run(&c, s);
	hm_arena_free(&c.arena);
	if (err) {
		hm_suggestion_free(s);
		return err;
	}
	*out = s;
	return 0;
}

void hm_suggestion_free(hm_suggestion *s)
{
	if (!s)
		return;
	free(s->notes);
	hm_arena_free(&s->arena);
	free(s);
}

hm_type_id hm_suggestion_type(const hm_suggestion *s) { return s->id; }
const hm_evidence *hmi_suggestion_evidence(const hm_suggestion *s) { return s->ev; }
const hm_suggest_stats *hmi_suggestion_today(const hm_suggestion *s) { return &s->today; }
double hmi_suggestion_total(const hm_suggestion *s) { return s->total; }
size_t hm_suggestion_count(const hm_suggestion *s) { return s->nprop; }
const char *hm_suggestion_why(const hm_suggestion *s) { return s->nprop ? NULL : s->why; }

const hm_ev_pair *const *hmi_suggestion_shared(const hm_suggestion *s, size_t *n)
{
	*n = s->nshared;
	return s->shared;
}

const hm_proposal *hm_suggestion_get(const hm_suggestion *s, size_t i)
{
	return i < s->nprop ? &s->prop[i] : NULL;
}

const char *const *hmi_suggestion_notes(const hm_suggestion *s)
{
	static const char *const none[] = { NULL };

	return s->nnotes ? s->notes : none;
}

int hmi_suggest_align_text(enum hm_suggest_style style, unsigned line_size, uint64_t bytes,
			   char *buf, size_t len)
{
	switch (style) {
	case HM_STYLE_KERNEL:
		if (bytes == line_size)
			return snprintf(buf, len, "____cacheline_aligned_in_smp");
		return snprintf(buf, len, "__aligned(%llu)", (unsigned long long)bytes);
	case HM_STYLE_C11:
		return snprintf(buf, len, "_Alignas(%llu)", (unsigned long long)bytes);
	case HM_STYLE_CXX:
		return snprintf(buf, len, "alignas(%llu)", (unsigned long long)bytes);
	default:
		return snprintf(buf, len, "__attribute__((aligned(%llu)))",
				(unsigned long long)bytes);
	}
}
