/* suggest-cand: the proposals tried for a struct — alignment, moves,
 * one line per written member, isolation of groups, and their combination. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/suggest.h"
#include "suggest/suggest-int.h"

static int apart_refs(const struct sg_ctx *c, size_t k, struct sg_ref *a, struct sg_ref *b)
{
	return c->opts.apart[2 * k] && c->opts.apart[2 * k + 1] &&
	       !sg_resolve(c, c->opts.apart[2 * k], a) && !sg_resolve(c, c->opts.apart[2 * k + 1], b);
}

static int shares(const struct sg_ctx *c, const struct sg_var *v, const struct sg_ref *a,
		  const struct sg_ref *b)
{
	struct sg_range ra = { .off = v->pos[a->ent] + a->inner, .size = a->size };
	struct sg_range rb = { .off = v->pos[b->ent] + b->inner, .size = b->size };

	return sg_share_frac(c, v, &ra, 1, &rb, 1) > 0;
}

size_t sg_breaks_apart(const struct sg_ctx *c, const struct sg_var *v)
{
	struct sg_ref a, b;

	/* where the object starts is unknown: almost any two members can
	 * share a line at some start, and the pair weighs as contention */
	if (!v->st.base_known)
		return SIZE_MAX;
	for (size_t k = 0; k < c->opts.nr_apart; k++)
		if (apart_refs(c, k, &a, &b) && shares(c, v, &a, &b))
			return k;
	return SIZE_MAX;
}

static size_t n_broken(const struct sg_ctx *c, const struct sg_var *v);

/* Entry x is named by an apart rule. */
static int in_apart(const struct sg_ctx *c, int x)
{
	struct sg_ref a, b;

	for (size_t k = 0; k < c->opts.nr_apart; k++)
		if (apart_refs(c, k, &a, &b) && (a.ent == x || b.ent == x))
			return 1;
	return 0;
}

/* The pair a, b inside entry x parted by a move rather than padding, as
 * upstream's 2e3025434a6b moved write_protect_seq past mmap_lock: a member
 * no evidence and no apart rule names, moved from after x to just before
 * it or from before x to just after it.  Of those that part the pair and
 * leave fewer apart pairs on one line: the fewest cachelines, then the
 * smallest member (a scalar rather than a struct), then the nearest.  1 when v changed (and is computed). */
static int straddle_move(struct sg_ctx *c, struct sg_var *v, int x, const struct sg_ref *a,
			 const struct sg_ref *b, const char *pa, const char *pb)
{
	size_t n = v->n, ne = v->nedits, nb0 = n_broken(c, v), bdist = SIZE_MAX;
	struct sg_slot *save = malloc(n * sizeof(*save));
	int i = sg_slot_of(v, x), best = -1, banchor = -1;
	uint64_t bms = UINT64_MAX;
	uint32_t bcl = UINT32_MAX;

	if (!save || i <= 0) {
		free(save);
		return 0;
	}
	memcpy(save, v->s, n * sizeof(*save));
	for (size_t sl = 0; sl < n; sl++) {
		int j = save[sl].ent, anchor = sl > (size_t)i ? save[i - 1].ent : x;
		size_t dist = sl > (size_t)i ? sl - (size_t)i : (size_t)i - sl;
		const struct sg_ent *e = j >= 0 ? &c->ents[j] : NULL;
		int ok;

		if (!e || j == x || anchor < 0 || anchor == j || !e->name || e->bitrun || e->hot ||
		    e->attr || e->size >= c->L || in_apart(c, j))
			continue;
		ok = sg_op_move(c, v, j, anchor) && sg_var_compute(c, v) >= 0 &&
		     !shares(c, v, a, b) && n_broken(c, v) < nb0;
		if (ok && (v->st.cachelines < bcl ||
			   (v->st.cachelines == bcl && (e->size < bms ||
						       (e->size == bms && dist < bdist))))) {
			best = j;
			banchor = anchor;
			bcl = v->st.cachelines;
			bms = e->size;
			bdist = dist;
		}
		memcpy(v->s, save, n * sizeof(*save));
		v->n = n;
		v->nedits = ne;
	}
	free(save);
	if (best < 0 || !sg_op_move(c, v, best, banchor) || sg_var_compute(c, v) < 0) {
		sg_var_compute(c, v);
		return 0;
	}
	sg_title_add(v, "%smove %s %s %s so that %s and %s straddle a line",
		     v->title[0] ? "then " : "", c->ents[best].name,
		     banchor == x ? "after" : "before", c->ents[x].name, pa, pb);
	return 1;
}

/* Two words of one member kept apart (mmap_lock's count and owner, which
 * include/linux/mm_types.h wants on two lines): when the object starts a
 * line, a move that puts a line boundary between them (straddle_move()),
 * else the least padding before that member that does, as upstream's fix
 * placed it.  v is computed. */
static void straddle_fix(struct sg_ctx *c, struct sg_var *v)
{
	struct sg_ref a, b;
	size_t ne = v->nedits, tl = strlen(v->title);

	if (!v->st.base_known)
		return;
	for (size_t k = 0; k < c->opts.nr_apart; k++) {
		uint64_t al, o, lo, hi;
		int i;

		if (!apart_refs(c, k, &a, &b) || a.ent != b.ent || !shares(c, v, &a, &b))
			continue;
		i = sg_slot_of(v, a.ent);
		al = c->ents[a.ent].align ? c->ents[a.ent].align : 1;
		if (i <= 0 || v->s[i - 1].ent < 0 || c->ents[a.ent].attr >= c->L)
			continue;
		if (straddle_move(c, v, a.ent, &a, &b, c->opts.apart[2 * k],
				  c->opts.apart[2 * k + 1])) {
			if (!shares(c, c->today, &a, &b) || !shares(c, v, &a, &b))
				v->repairs++;
			continue;
		}
		lo = a.inner < b.inner ? a.inner + a.size : b.inner + b.size;
		hi = a.inner < b.inner ? b.inner : a.inner;
		o = v->pos[a.ent];
		for (uint64_t p = al; p < c->L; p += al)
			/* a boundary in (o + p + lo - 1, o + p + hi] */
			if ((o + p + lo - 1) / c->L != (o + p + hi) / c->L) {
				if (sg_op_pad(c, v, v->s[i - 1].ent, p) && sg_var_compute(c, v) >= 0) {
					sg_title_add(v, "pad %llu bytes before %s so that %s and %s "
						     "straddle a line", (unsigned long long)p,
						     c->ents[a.ent].name, c->opts.apart[2 * k],
						     c->opts.apart[2 * k + 1]);
					if (!shares(c, c->today, &a, &b) || !shares(c, v, &a, &b))
						v->repairs++;
				}
				break;
			}
	}
	if (v->nedits > ne) {
		v->nfix = v->nedits - ne;
		v->fix_at = tl;
	}
}

static int keep(struct sg_ctx *c, struct sg_var *v)
{
	if (!v || !v->nedits || c->nvars >= SG_MAX_VARIANTS)
		return 0;
	if (sg_var_compute(c, v) < 0)
		return 0;
	if (c->opts.nr_apart)
		straddle_fix(c, v);
	sg_var_score(c, v);
	c->vars[c->nvars++] = v;
	return 1;
}

static void cand_align(struct sg_ctx *c, int x)
{
	struct sg_var *v = sg_var_clone(c, c->today);
	int i;

	if (v && sg_op_align(c, v, x)) {
		sg_title_add(v, "align %s", c->ents[x].name);
		keep(c, v);
	}
	/* the way kernel code isolates a hot member: align it and the next one */
	v = sg_var_clone(c, c->today);
	i = v ? sg_slot_of(v, x) : -1;
	if (i >= 0 && (size_t)i + 1 < v->n && v->s[i + 1].ent >= 0) {
		int nx = v->s[i + 1].ent;
		int a1 = sg_op_align(c, v, x), a2 = sg_op_align(c, v, nx);

		if (a1 && a2) {
			sg_title_add(v, "align %s and the member after it (%s)", c->ents[x].name,
				  c->ents[nx].name);
			keep(c, v);
		}
	}
	/* the kernel's other way: `struct { ... } ____cacheline_aligned_in_smp;`
	 * ends the line after the member as well as starting it */
	if (!sg_idiom_ok(c, SG_IDIOM_WRAP))
		return;
	v = sg_var_clone(c, c->today);
	if (v && sg_op_wrap(c, v, x, x)) {
		sg_title_add(v, "%s in an aligned anonymous struct", c->ents[x].name);
		keep(c, v);
	}
}

static void cand_moves(struct sg_ctx *c, int x)
{
	const struct sg_var *t = c->today;
	struct sg_var *v;

	v = sg_var_clone(c, t);
	if (v && sg_op_move(c, v, x, -1)) {
		sg_title_add(v, "move %s to the top", c->ents[x].name);
		keep(c, v);
	}
	v = sg_var_clone(c, t);
	if (v && t->n && sg_op_move(c, v, x, t->s[t->n - 1].ent)) {
		sg_title_add(v, "move %s to the end", c->ents[x].name);
		keep(c, v);
	}
	/* into an existing hole */
	for (size_t i = 0; i + 1 < t->n && !c->refused; i++) {
		const struct sg_slot *s = &t->s[i], *n = &t->s[i + 1];
		const struct sg_ent *e = &c->ents[x];
		uint64_t end, at;

		if (s->ent < 0 || s->ent == x || n->ent == x)
			continue;
		end = s->off + c->ents[s->ent].size;
		at = sg_align_up(end, e->align > e->attr ? e->align : e->attr);
		if (n->off <= end || at + e->size > n->off)
			continue;
		v = sg_var_clone(c, t);
		if (v && sg_op_move(c, v, x, s->ent)) {
			sg_title_add(v, "move %s into the hole after %s", e->name,
				  c->ents[s->ent].name);
			keep(c, v);
		}
	}
	/* next to what it is read with: a claim only measured loads back */
	if (!c->ents[x].read_mostly || hmi_evidence_kind(c->ev) != HM_EVIDENCE_PROFILE)
		return;
	for (size_t m = 0; m < c->nents && !c->refused; m++) {
		if ((int)m == x || !c->ents[m].read_mostly)
			continue;
		v = sg_var_clone(c, t);
		if (v && sg_op_move(c, v, x, (int)m)) {
			sg_title_add(v, "move %s next to %s (read with it)", c->ents[x].name,
				  c->ents[m].name);
			keep(c, v);
		}
	}
}

/* Written-hot entries: one line each, by alignment or by explicit padding,
 * with everything else (the read-mostly neighbours) grouped before them. */
static void cand_per_line(struct sg_ctx *c)
{
	const struct sg_var *t = c->today;
	struct sg_var *va, *vp;
	int w[64], nw = 0, last = -1, ok = 1;

	/* written members that contend with another written member: members of
	 * one `alone` group are written together and may share their line */
	unsigned char *rival = hm_arena_alloc(&c->arena, c->nents ? c->nents : 1);

	if (!rival)
		return;
	memset(rival, 0, c->nents ? c->nents : 1);
	for (size_t p = 0; p < c->npairs; p++) {
		const struct sg_pref *r = &c->pref[p];

		if (r->ok && c->ents[r->a.ent].written && c->ents[r->b.ent].written &&
		    r->a.ent != r->b.ent)
			rival[r->a.ent] = rival[r->b.ent] = 1;
	}
	for (size_t i = 0; i < t->n && nw < 64; i++)
		if (t->s[i].ent >= 0 && rival[t->s[i].ent])
			w[nw++] = t->s[i].ent;
	if (nw < 2 || !t->n)
		return;
	for (size_t i = t->n; i-- > 0 && last < 0;) {
		int in_w = 0;

		for (int k = 0; k < nw; k++)
			in_w |= w[k] == t->s[i].ent;
		if (t->s[i].ent >= 0 && !in_w)
			last = t->s[i].ent;
	}
	va = sg_var_clone(c, t);
	vp = sg_var_clone(c, t);
	if (!va || !vp)
		return;
	for (int k = 0, prev = last; k < nw; prev = w[k], k++) {
		if (prev >= 0) {
			sg_op_move(c, va, w[k], prev);
			sg_op_move(c, vp, w[k], prev);
		} else if (k) {
			ok = 0;
		}
		sg_op_align(c, va, w[k]);
	}
	sg_title_add(va, "one line per written member (%d members aligned)", nw);
	keep(c, va);
	if (!ok || sg_var_compute(c, vp) < 0)
		return;
	/* the least padding in front of each written member that keeps it off
	 * every line of what precedes it, for every start the alignment allows */
	for (int k = 0; k < nw; k++) {
		int i = sg_slot_of(vp, w[k]);
		uint64_t pad = 0;

		if (i <= 0 || vp->s[i - 1].ent < 0)
			continue;
		while (pad <= 2 * c->L) {
			struct sg_var *tv = sg_var_clone(c, vp);
			unsigned names = c->npads;	/* trials use no names */

			if (!tv || (pad && !sg_op_pad(c, tv, tv->s[i - 1].ent, pad)) ||
			    sg_var_compute(c, tv) < 0)
				return;
			c->npads = names;
			if (!sg_shares_before(c, tv, w[k]))
				break;
			pad++;
		}
		if (pad > 2 * c->L)
			return;
		if (pad) {
			/* end the padding where the member starts: no hole after it */
			uint64_t end = vp->s[i - 1].off + c->ents[vp->s[i - 1].ent].size;
			uint32_t a = c->ents[w[k]].align > vp->s[i].attr ?
				     c->ents[w[k]].align : vp->s[i].attr;

			pad = sg_align_up(end + pad, a) - end;
		}
		if (pad && !sg_op_pad(c, vp, vp->s[i - 1].ent, pad))
			return;
		if (sg_var_compute(c, vp) < 0)
			return;
	}
	sg_title_add(vp, "one line per written member (explicit padding)");
	keep(c, vp);
}

static void cand_group_padded(struct sg_ctx *c, const struct sg_gref *gr);
static void cand_group_wrapped(struct sg_ctx *c, const struct sg_gref *gr, int top);
static void cand_group_linepad(struct sg_ctx *c, const struct sg_gref *gr);
static void cand_group_cgroup(struct sg_ctx *c, const struct sg_gref *gr);

static void cand_groups(struct sg_ctx *c)
{
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct sg_gref *gr = &c->gref[g];
		struct sg_var *v;
		int first, lastslot, i;

		if (!gr->ok)
			continue;
		v = sg_var_clone(c, c->today);
		if (!v)
			return;
		first = gr->r[0].ent;
		/* pull the others right behind the first */
		for (size_t k = 1, prev = first; k < gr->n; prev = gr->r[k].ent, k++)
			if (gr->r[k].ent != gr->r[k - 1].ent)
				sg_op_move(c, v, gr->r[k].ent, (int)prev);
		lastslot = sg_slot_of(v, gr->r[gr->n - 1].ent);
		sg_op_align(c, v, first);
		i = lastslot + 1;
		if (i > 0 && (size_t)i < v->n && v->s[i].ent >= 0)
			sg_op_align(c, v, v->s[i].ent);
		sg_title_add(v, "give %s a line of its own", c->ents[first].name);
		keep(c, v);
		cand_group_padded(c, gr);
		cand_group_wrapped(c, gr, 0);
		cand_group_wrapped(c, gr, 1);
		cand_group_linepad(c, gr);
		cand_group_cgroup(c, gr);
	}
}

/* Kernel style: the group pulled together between two CACHELINE_PADDINGs
 * (none needed at the top or at the end). */
static void cand_group_linepad(struct sg_ctx *c, const struct sg_gref *gr)
{
	struct sg_var *v;
	int first = gr->r[0].ent, last = first, i, j;

	if (!sg_idiom_ok(c, SG_IDIOM_LINEPAD) || !(v = sg_var_clone(c, c->today)))
		return;
	for (size_t k = 1, prev = first; k < gr->n; prev = gr->r[k].ent, k++)
		if (gr->r[k].ent != gr->r[k - 1].ent)
			sg_op_move(c, v, gr->r[k].ent, (int)prev);
	for (size_t k = 0; k < gr->n; k++)
		if (sg_slot_of(v, gr->r[k].ent) > sg_slot_of(v, last))
			last = gr->r[k].ent;
	i = sg_slot_of(v, first);
	if (i > 0 && v->s[i - 1].ent >= 0)
		sg_op_linepad(c, v, v->s[i - 1].ent);
	j = sg_slot_of(v, last);
	if (j >= 0 && (size_t)j + 1 < v->n)
		sg_op_linepad(c, v, last);
	sg_title_add(v, "give %s a line of its own (CACHELINE_PADDING)", c->ents[first].name);
	keep(c, v);
}

/* Kernel style, Linux 6.x networking's way: the group pulled together
 * between __cacheline_group_begin_aligned() and _end_aligned(), named after
 * its first member. */
static void cand_group_cgroup(struct sg_ctx *c, const struct sg_gref *gr)
{
	struct sg_var *v;
	int first = gr->r[0].ent, last = first;

	if (!sg_idiom_ok(c, SG_IDIOM_GROUP) || !(v = sg_var_clone(c, c->today)))
		return;
	for (size_t k = 1, prev = first; k < gr->n; prev = gr->r[k].ent, k++)
		if (gr->r[k].ent != gr->r[k - 1].ent)
			sg_op_move(c, v, gr->r[k].ent, (int)prev);
	for (size_t k = 0; k < gr->n; k++)
		if (sg_slot_of(v, gr->r[k].ent) > sg_slot_of(v, last))
			last = gr->r[k].ent;
	if (!sg_op_group(c, v, first, last, c->ents[first].name))
		return;
	sg_title_add(v, "give %s a line of its own (cacheline group)", c->ents[first].name);
	keep(c, v);
}

/* Kernel style: the group, pulled together, in an aligned anonymous struct,
 * where it is or at the top (the mm_count fix: the hole in front of an
 * aligned member at the top is none). */
static void cand_group_wrapped(struct sg_ctx *c, const struct sg_gref *gr, int top)
{
	struct sg_var *v;
	int first = gr->r[0].ent, last = first;
	size_t distinct = 0;

	if (!sg_idiom_ok(c, SG_IDIOM_WRAP) || !(v = sg_var_clone(c, c->today)))
		return;
	if (top && !sg_op_move(c, v, first, -1))
		return;
	for (size_t k = 1, prev = first; k < gr->n; prev = gr->r[k].ent, k++)
		if (gr->r[k].ent != gr->r[k - 1].ent)
			sg_op_move(c, v, gr->r[k].ent, (int)prev);
	for (size_t k = 0; k < gr->n; k++) {
		distinct += !k || gr->r[k].ent != gr->r[k - 1].ent;
		if (sg_slot_of(v, gr->r[k].ent) > sg_slot_of(v, last))
			last = gr->r[k].ent;
	}
	/* the moves could not make the group one run: wrapping would take in
	 * what lies between */
	if ((size_t)(sg_slot_of(v, last) - sg_slot_of(v, first) + 1) != distinct ||
	    !sg_op_wrap(c, v, first, last))
		return;
	if (last != first)
		sg_title_add(v, "%s%s to %s in an aligned anonymous struct", top ? "at the top, " :
			     "", c->ents[first].name, c->ents[last].name);
	else
		sg_title_add(v, "%s%s in an aligned anonymous struct", top ? "at the top, " : "",
			     c->ents[first].name);
	keep(c, v);
}

/* The other way to keep the next member off the line: align the group's
 * first member, then pad up to the next line boundary after its last. */
static void cand_group_padded(struct sg_ctx *c, const struct sg_gref *gr)
{
	struct sg_var *v = sg_var_clone(c, c->today);
	int first = gr->r[0].ent, last;
	uint64_t end;

	if (!v)
		return;
	for (size_t k = 1, prev = first; k < gr->n; prev = gr->r[k].ent, k++)
		if (gr->r[k].ent != gr->r[k - 1].ent)
			sg_op_move(c, v, gr->r[k].ent, (int)prev);
	sg_op_align(c, v, first);
	last = gr->r[gr->n - 1].ent;
	if (sg_slot_of(v, last) + 1 >= (int)v->n || sg_var_compute(c, v) < 0)
		return;
	end = v->pos[last] + c->ents[last].size;
	if (!sg_op_pad(c, v, last, sg_align_up(end, c->L) - end))
		return;
	sg_title_add(v, "give %s a line of its own (padding after it)", c->ents[first].name);
	keep(c, v);
}

static void title_cat(char *dst, size_t cap, const char *s)
{
	size_t len = strlen(dst), n = strlen(s);

	if (len + n >= cap)
		n = cap - len - 1;
	memcpy(dst + len, s, n);
	dst[len + n] = 0;
}

/* Several pairs: keep applying the best single proposal while it helps. */
static void cand_combined(struct sg_ctx *c, size_t nsingle)
{
	struct sg_var *cur = sg_var_clone(c, c->today);
	int steps = 0;

	if (!cur)
		return;
	cur->st = c->today->st;
	for (int round = 0; round < 4 && cur->st.remaining > 1e-9; round++) {
		struct sg_var *best = NULL;

		for (size_t i = 0; i < nsingle; i++) {
			struct sg_var *v = sg_var_clone(c, cur);
			int ok = !!v;

			for (size_t e = 0; ok && e < c->vars[i]->nedits; e++)
				ok = sg_replay_edit(c, v, &c->vars[i]->edits[e]);
			if (!ok || sg_var_compute(c, v) < 0)
				continue;
			sg_var_score(c, v);
			if (v->st.remaining + 1e-9 >= cur->st.remaining)
				continue;
			if (!best || v->st.remaining < best->st.remaining - 1e-9 ||
			    (v->st.remaining < best->st.remaining + 1e-9 &&
			     v->growth < best->growth)) {
				v->title[0] = 0;
				title_cat(v->title, sizeof(v->title), steps ? "" : "combined: ");
				title_cat(v->title, sizeof(v->title), cur->title);
				title_cat(v->title, sizeof(v->title), steps ? "; " : "");
				title_cat(v->title, sizeof(v->title), c->vars[i]->title);
				best = v;
			}
		}
		if (!best)
			break;
		cur = best;
		steps++;
	}
	if (steps > 1)
		keep(c, cur);
}

static size_t n_broken(const struct sg_ctx *c, const struct sg_var *v)
{
	struct sg_ref a, b;
	size_t n = 0;

	if (!v->st.base_known)
		return 0;
	for (size_t k = 0; k < c->opts.nr_apart; k++)
		n += apart_refs(c, k, &a, &b) && shares(c, v, &a, &b);
	return n;
}

/* Proposals that leave a pair the rules keep apart on one line are left
 * out; so that some remain, each single proposal is completed by the
 * others that part those pairs (fewest left on one line, then the least
 * contention), up to three more steps. */
static void cand_apart(struct sg_ctx *c, size_t nsingle)
{
	size_t tries = nsingle < 24 ? nsingle : 24;

	for (size_t i = 0; i < tries && !c->refused; i++) {
		const struct sg_var *cur = c->vars[i];
		char title[200];
		size_t nb = n_broken(c, cur);

		snprintf(title, sizeof(title), "%s", cur->title);
		if (cur->nfix && cur->fix_at < sizeof(title))
			title[cur->fix_at] = 0;
		for (int round = 0; round < 3 && nb && !c->refused; round++) {
			struct sg_var *best = NULL;
			size_t bnb = nb, bj = 0;

			for (size_t j = 0; j < nsingle; j++) {
				/* from today: every move so far and this one, then the
				 * padding straddle_fix finds for them, once */
				struct sg_var *v = j != i ? sg_var_clone(c, c->today) : NULL;
				int ok = !!v;
				size_t vnb;

				for (size_t e = 0; ok && e < cur->nedits - cur->nfix; e++)
					if (cur->edits[e].kind != HM_EDIT_PAD)
						ok = sg_replay_edit(c, v, &cur->edits[e]);
				for (size_t e = 0; ok && e < c->vars[j]->nedits - c->vars[j]->nfix; e++)
					if (c->vars[j]->edits[e].kind != HM_EDIT_PAD)
						ok = sg_replay_edit(c, v, &c->vars[j]->edits[e]);
				if (!ok || sg_var_compute(c, v) < 0)
					continue;
				v->title[0] = 0;
				straddle_fix(c, v);
				sg_var_score(c, v);
				vnb = n_broken(c, v);
				if (vnb < bnb || (best && vnb == bnb &&
						  v->st.remaining < best->st.remaining - 1e-9)) {
					best = v;
					bnb = vnb;
					bj = j;
				}
			}
			if (!best)
				break;
			{
				char pad[200], part[200];

				snprintf(pad, sizeof(pad), "%s", best->title);
				snprintf(part, sizeof(part), "%s", c->vars[bj]->title);
				if (c->vars[bj]->nfix && c->vars[bj]->fix_at < sizeof(part))
					part[c->vars[bj]->fix_at] = 0;
				title_cat(title, sizeof(title), "; ");
				title_cat(title, sizeof(title), part);
				best->title[0] = 0;
				title_cat(best->title, sizeof(best->title), title);
				if (pad[0])
					title_cat(best->title, sizeof(best->title), ", ");
				title_cat(best->title, sizeof(best->title), pad);
			}
			cur = best;
			nb = bnb;
		}
		if (!nb && cur != c->vars[i] && c->nvars < SG_MAX_VARIANTS)
			c->vars[c->nvars++] = (struct sg_var *)cur;
	}
}

/* Apply an edit recorded on another variant.  1 when it changed v. */
int sg_replay_edit(struct sg_ctx *c, struct sg_var *v, const hm_edit *e)
{
	int x = sg_ent_named(c, e->member), a;

	if (x < 0)
		return 0;
	switch (e->kind) {
	case HM_EDIT_ALIGN:
		return sg_op_align(c, v, x);
	case HM_EDIT_MOVE:
		a = e->anchor ? sg_ent_named(c, e->anchor) : -1;
		if (e->anchor && a < 0)
			return 0;
		return sg_op_move(c, v, x, a);
	case HM_EDIT_WRAP:
		a = sg_ent_named(c, e->anchor);
		return a >= 0 && sg_op_wrap(c, v, x, a);
	case HM_EDIT_LINEPAD:
		return sg_op_linepad(c, v, x);
	case HM_EDIT_GROUP:
		a = sg_ent_named(c, e->anchor);
		return a >= 0 && sg_op_group(c, v, x, a, e->pad_name);
	default:
		return sg_op_pad(c, v, x, e->value);
	}
}

/* Entries in a pair that shares a line today or in a group: one pass over
 * the pairs and groups, not one per entry. */
static unsigned char *shared_entries(struct sg_ctx *c)
{
	unsigned char *in = hm_arena_alloc(&c->arena, c->nents ? c->nents : 1);

	if (!in)
		return NULL;
	memset(in, 0, c->nents ? c->nents : 1);
	for (size_t p = 0; p < c->npairs; p++)
		if (c->pref[p].ok && sg_pair_frac(c, c->today, p) > 0) {
			in[c->pref[p].a.ent] = 1;
			in[c->pref[p].b.ent] = 1;
		}
	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t k = 0; c->gref[g].ok && k < c->gref[g].n; k++)
			in[c->gref[g].r[k].ent] = 1;
	return in;
}

void sg_candidates(struct sg_ctx *c, hm_suggestion *s)
{
	unsigned char *in_shared = shared_entries(c);
	size_t nsingle;

	if (!in_shared)
		return;
	/* a quarter of the memory budget is kept for the combinations */
	c->var_budget = SG_VAR_BUDGET / 4 * 3;
	for (size_t i = 0; i < c->nents && !c->refused; i++) {
		if (!in_shared[i])
			continue;
		cand_align(c, (int)i);
		cand_moves(c, (int)i);
	}
	cand_groups(c);
	cand_per_line(c);
	if (c->opts.nr_apart && c->nvars < SG_MAX_VARIANTS) {
		/* the repair alone: today's layout, the padding added */
		struct sg_var *v = sg_var_clone(c, c->today);

		if (v && sg_var_compute(c, v) >= 0) {
			straddle_fix(c, v);
			keep(c, v);
		}
	}
	nsingle = c->nvars;
	c->var_budget = SG_VAR_BUDGET;
	if (s->nshared + c->ngroups > 1)
		cand_combined(c, nsingle);
	if (c->opts.nr_apart)
		cand_apart(c, nsingle);
}

/* ---- idioms in use ---- */

static unsigned idioms_of(const hm_types *t, const hm_member *m, uint32_t nr, unsigned L)
{
	unsigned in = 0, k;
	char tail;

	for (uint32_t i = 0; i < nr; i++) {
		const hm_type *ty = hm_types_get(t, hm_types_resolve(t, m[i].type));

		if (m[i].name && !strncmp(m[i].name, "__cacheline_group_begin__", 25))
			in |= SG_IDIOM_GROUP;
		if ((m[i].name && sscanf(m[i].name, "_pad%u%c", &k, &tail) == 2 && tail == '_') ||
		    (ty && ty->name && !strcmp(ty->name, "cacheline_padding")))
			in |= SG_IDIOM_LINEPAD;
		if (!m[i].name && ty && ty->kind == HM_KIND_STRUCT && ty->alignment >= L)
			in |= SG_IDIOM_WRAP;
	}
	return in;
}

/* From the debug info: members named as the macros name them, the
 * padding type, anonymous structs with a line's alignment; in the struct
 * edited and, for an anonymous struct member, the one around it. */
unsigned sg_idioms_scan(const struct sg_ctx *c)
{
	unsigned in = idioms_of(c->t, c->mem, c->nmem, c->L);

	if (c->outer)
		in |= idioms_of(c->t, c->outer->mem, c->outer->nmem, c->L);
	return in;
}

int sg_idiom_ok(const struct sg_ctx *c, unsigned idiom)
{
	return c->opts.style == HM_STYLE_KERNEL && (!c->idioms || (c->idioms & idiom));
}
