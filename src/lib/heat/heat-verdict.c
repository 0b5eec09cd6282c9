/* The verdict of one cacheline: is it shared at all (an evidence floor on
 * its transfers), and if so, which fields are falsely shared (different
 * actors on different fields: separating them removes transfers) and which
 * truly (the same actors on the same fields: a layout cannot help).
 * hitmap-report(1), VERDICTS, states the rules; the constants are in
 * heat-int.h.
 *
 * Actors are threads for watchpoint data (every access of the program's own
 * threads is seen) and CPUs for memory samples (a HITM is a transfer between
 * caches, whichever task ran there).  An actor counts for a field only when
 * it made a tenth of an even share of the field's accesses, and a field
 * counts only with 1 % of the line's accesses: ld.so relocating a pointer at
 * start-up, or main() reading the results once at the end, make no actor
 * and no field. */
#include "config.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "heat/heat-int.h"

int heat_actors_add(struct heat_actors *s, uint32_t id, int write)
{
	uint32_t lo = 0, hi = s->n;
	struct heat_actor *a;

	if (s->n && s->v[s->last].id == id) {
		a = &s->v[s->last];
		goto count;
	}
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (s->v[mid].id == id) {
			s->last = mid;
			a = &s->v[mid];
			goto count;
		}
		if (s->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (s->n == s->cap) {
		uint32_t cap = s->cap ? s->cap * 2 : 4;
		struct heat_actor *n = s->inl ? malloc(cap * sizeof(*n))
					      : realloc(s->v, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		if (s->inl)
			memcpy(n, s->v, s->n * sizeof(*n));
		s->inl = 0;
		s->v = n;
		s->cap = cap;
	}
	memmove(s->v + lo + 1, s->v + lo, (s->n - lo) * sizeof(*s->v));
	s->v[lo] = (struct heat_actor){ .id = id };
	s->n++;
	s->last = lo;
	a = &s->v[lo];
count:
	a->n++;
	a->w += write != 0;
	return 0;
}

const char *heat_rule_text(enum heat_rule r)
{
	static const char *const texts[] = {
		"samples carry no load/store kind",
		"one actor makes the line's accesses",
		"no field written",
		"transfer rate below 1 % (95 % upper bound)",
		"fewer than 5 transfers or a transfer rate not above 1 % (95 % lower bound)",
		"no false or true sharing part with 5 transfers and 10 % of the line's",
		"5 or more transfers, transfer rate above 1 % (95 % lower bound), "
		"each part 5 or more transfers and 10 % of the line's",
		"HITM transfers above the floor, but one CPU or no store sampled: "
		"the writers went unsampled",
		"sampled registers: no 1 ms window in which two threads on two CPUs "
		"access the line and one writes",
		"sampled registers: fewer than 5 shared 1 ms windows (two threads on two "
		"CPUs, one writing)",
		"sampled registers: no false or true sharing part with 5 shared windows "
		"and 10 % of the line's",
		"sampled registers: 5 or more shared 1 ms windows (two threads on two CPUs "
		"access the line, one writes); false sharing: they access fields of "
		"different groups, true sharing: fields of one shared group; each part 5 "
		"or more windows and 10 % of the line's",
		"sampled registers: no shared 1 ms window, but too few accesses to tell: "
		"one thread seen in fewer than 5 windows, or threads whose accesses are "
		"too few to have met in 5 (their writes in 20) had they met at random",
	};

	return texts[r];
}

static uint64_t row_accesses(const struct heat_row *r, int watch)
{
	return watch ? r->c.reads + r->c.writes : r->c.loads + r->c.stores;
}

static uint64_t row_transfers(const struct heat_row *r, int watch)
{
	return watch ? r->c.transfers
		     : r->c.lcl_hitm + r->c.rmt_hitm + r->c.lcl_peer + r->c.rmt_peer;
}

/* Whether actor a counts for the row (see the top of the file). */
static int actor_counts(const struct heat_row *r, const struct heat_actor *a, int watch)
{
	return a->n * 10 * r->acts.n >= row_accesses(r, watch);
}

static int same_actors(const struct heat_row *x, const struct heat_row *y, int watch)
{
	uint32_t i = 0, j = 0;

	for (;;) {
		while (i < x->acts.n && !actor_counts(x, &x->acts.v[i], watch))
			i++;
		while (j < y->acts.n && !actor_counts(y, &y->acts.v[j], watch))
			j++;
		if (i == x->acts.n || j == y->acts.n)
			return i == x->acts.n && j == y->acts.n;
		if (x->acts.v[i].id != y->acts.v[j].id)
			return 0;
		i++;
		j++;
	}
}

/* 95 % Wilson score interval of a binomial proportion k/n. */
static void wilson(uint64_t k, uint64_t n, double *lo, double *hi)
{
	const double z = 1.959964, z2 = z * z;
	double p, d, c, r;

	if (!n) {
		*lo = 0;
		*hi = 1;
		return;
	}
	if (k > n)
		k = n;
	p = (double)k / (double)n;
	d = 1 + z2 / (double)n;
	c = p + z2 / (2.0 * (double)n);
	r = z * sqrt(p * (1 - p) / (double)n + z2 / (4.0 * (double)n * (double)n));
	*lo = (c - r) / d;
	*hi = (c + r) / d;
	if (*lo < 0)
		*lo = 0;
	if (*hi > 1)
		*hi = 1;
}

struct group {
	uint32_t actors;
	unsigned written : 1, shared : 1;	/* shared: >= 2 actors and written */
};

static int part_passes(uint64_t part, uint64_t all)
{
	return part >= HEAT_MIN_TRANSFERS && (double)part >= HEAT_MIN_PART * (double)all;
}

/* Group a line's fields by their actors, fields with the same actors being
 * one group: each row's group number (0: too few of the line's accesses to
 * count), each group's actors and whether it is written, the line's actors
 * (ev.actors) and groups (ev.groups).  named: only rows that name a field
 * count.  *gp grows with *ngp; the caller frees it and line_acts->v, also
 * on an error (-ENOMEM). */
static int group_fields(struct heat_line *l, int watch, int named, struct group **gp,
			uint32_t *ngp, struct heat_actors *line_acts, uint32_t *nwritten)
{
	struct heat_evidence *e = &l->ev;
	struct group *g = *gp;
	uint32_t ng = *ngp, i;
	struct heat_row *r, *q;
	int err = 0;

	for (r = l->rows; r; r = r->next) {
		uint64_t acc = row_accesses(r, watch);
		struct group *gr;

		if ((named && !r->sname) || !acc || acc * 100 < e->accesses)
			continue;
		for (q = l->rows; q != r; q = q->next)
			if (q->group && same_actors(q, r, watch))
				break;
		if (q != r) {
			r->group = q->group;
		} else {
			struct group *n = realloc(g, (ng + 1) * sizeof(*n));

			if (!n) {
				err = -ENOMEM;
				goto out;
			}
			g = n;
			g[ng] = (struct group){ 0 };
			r->group = ++ng;
		}
		gr = &g[r->group - 1];
		gr->actors = 0;
		for (i = 0; i < r->acts.n; i++) {
			const struct heat_actor *a = &r->acts.v[i];

			if (!actor_counts(r, a, watch))
				continue;
			gr->actors++;
			if (a->w)
				gr->written = 1;
			if (heat_actors_add(line_acts, a->id, 0)) {
				err = -ENOMEM;
				goto out;
			}
		}
	}
	for (i = 0; i < ng; i++) {
		g[i].shared = g[i].actors >= 2 && g[i].written;
		*nwritten += g[i].written;
	}
	e->actors = line_acts->n;
	e->groups = ng;
out:
	*gp = g;
	*ngp = ng;
	return err;
}

int heat_line_verdict(struct heat_line *l, int watch)
{
	struct heat_evidence *e = &l->ev;
	struct heat_actors line_acts = { 0 };
	struct group *g = NULL;
	struct heat_row *r;
	uint32_t ng = 0, nwritten = 0, i;
	int err = 0;

	memset(e, 0, sizeof(*e));
	e->kind = watch ? HEAT_EV_WATCH : HEAT_EV_HITM;
	for (r = l->rows; r; r = r->next) {
		e->accesses += row_accesses(r, watch);
		e->transfers += row_transfers(r, watch);
		r->group = 0;
		r->in_fs = r->in_ts = 0;
	}
	wilson(e->transfers, e->accesses, &e->lo, &e->hi);

	/* Groups: fields with the same actors. */
	if ((err = group_fields(l, watch, 0, &g, &ng, &line_acts, &nwritten)))
		goto out;

	/* A HITM says another cache held the line modified: with transfers
	 * above the floor, one CPU or no sampled store means the writers went
	 * unsampled, not that nobody wrote. */
	if ((e->actors < 2 || !nwritten) && !watch && e->transfers >= HEAT_MIN_TRANSFERS &&
	    e->lo >= HEAT_MIN_RATE) {
		l->verdict = HEAT_INSUFFICIENT;
		e->rule = HEAT_RULE_UNSEEN_WRITER;
		goto out;
	}
	if (e->actors < 2) {
		l->verdict = HEAT_PRIVATE;
		e->rule = HEAT_RULE_ONE_ACTOR;
		goto out;
	}
	if (!nwritten) {
		l->verdict = HEAT_READ_SHARED;
		e->rule = HEAT_RULE_NO_WRITES;
		goto out;
	}
	if (e->transfers < HEAT_MIN_TRANSFERS || e->lo < HEAT_MIN_RATE) {
		l->verdict = e->hi < HEAT_MIN_RATE ? HEAT_PRIVATE : HEAT_INSUFFICIENT;
		e->rule = e->hi < HEAT_MIN_RATE ? HEAT_RULE_BELOW_RATE : HEAT_RULE_FEW;
		goto out;
	}

	/* The parts.  Watchpoints: each transfer by its cause — a write to a
	 * field of another group (false) or of its own shared group (true).
	 * Memory samples carry no cause: a HITM on a field of a shared group
	 * counts as true sharing, on any other field of a line with two
	 * groups or more as false sharing. */
	if (watch) {
		for (i = 0; i < l->nxp; i++) {
			struct heat_xpair *x = &l->xp[i];

			if (!x->src || !x->src->group || !x->dst->group)
				continue;
			if (x->src->group != x->dst->group) {
				e->fs_transfers += x->n;
				x->src->in_fs = x->dst->in_fs = 1;
			} else if (g[x->dst->group - 1].shared) {
				e->ts_transfers += x->n;
				x->src->in_ts = x->dst->in_ts = 1;
			}
		}
	} else {
		for (r = l->rows; r; r = r->next) {
			if (!r->group)
				continue;
			if (g[r->group - 1].shared) {
				e->ts_transfers += row_transfers(r, watch);
				r->in_ts = 1;
			} else if (ng >= 2) {
				e->fs_transfers += row_transfers(r, watch);
				r->in_fs = 1;
			}
		}
	}
	/* The false sharing part names the fields to move apart: those
	 * outside shared groups, when the transfers touch any (the lock a
	 * counter suffers from stays with the true sharing part). */
	for (r = l->rows; r; r = r->next)
		if (r->in_fs && !g[r->group - 1].shared)
			break;
	if (r)
		for (r = l->rows; r; r = r->next)
			if (r->in_fs && g[r->group - 1].shared)
				r->in_fs = 0;
	if (!part_passes(e->fs_transfers, e->transfers))
		for (r = l->rows; r; r = r->next)
			r->in_fs = 0;
	if (!part_passes(e->ts_transfers, e->transfers))
		for (r = l->rows; r; r = r->next)
			r->in_ts = 0;
	if (part_passes(e->fs_transfers, e->transfers))
		l->verdict = part_passes(e->ts_transfers, e->transfers) ? HEAT_MIXED
									: HEAT_FALSE_SHARING;
	else if (part_passes(e->ts_transfers, e->transfers))
		l->verdict = HEAT_TRUE_SHARING;
	else {
		l->verdict = HEAT_INSUFFICIENT;
		e->rule = HEAT_RULE_NO_PART;
		goto out;
	}
	e->rule = HEAT_RULE_PARTS;
out:
	free(g);
	free(line_acts.v);
	return err;
}

/* ---- verdicts from sampled registers ----
 *
 * Timer samples see a subset of the accesses, each with its time, CPU and
 * thread.  Actors are threads (a thread moving between CPUs stays one
 * actor); fields are grouped by their actors as above.  Time is cut in
 * windows of HEAT_WINDOW_NS: a window is shared when two accesses in it
 * come from different threads on different CPUs and one of them writes.
 * A shared window pairing fields of two groups counts for false sharing,
 * one pairing fields of one shared group (the same bytes, or a lock and
 * what it guards) for true sharing.  Shared windows stand for transfers
 * in the floors: fewer than HEAT_MIN_TRANSFERS is insufficient evidence,
 * none at all is no sharing (the threads never met on the line), unless
 * the accesses are too few for the threads to have met even at random
 * (regs_random_meetings(); for the writes, HEAT_NO_OVERLAP_MEETINGS): that
 * too is insufficient evidence. */

struct rev {
	uint64_t win;
	const struct heat_row *row;
	uint32_t cpu, tid, n;
	uint8_t w;
};

static int rev_cmp(const void *x, const void *y)
{
	const struct rev *a = x, *b = y;

	return a->win < b->win ? -1 : a->win > b->win;
}

static int add_cost(struct heat_evidence *e, uint32_t cpu, uint64_t n)
{
	uint32_t i;
	struct heat_cost *v;

	for (i = 0; i < e->ncost; i++)
		if (e->cost[i].cpu == cpu) {
			e->cost[i].line += n;
			return 0;
		}
	v = realloc(e->cost, (e->ncost + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	e->cost = v;
	for (i = e->ncost; i > 0 && v[i - 1].cpu > cpu; i--)
		v[i] = v[i - 1];
	v[i] = (struct heat_cost){ cpu, n, 0 };
	e->ncost++;
	return 0;
}

/* The shared windows a line's threads would show if their accesses met at
 * random: a thread seen in nA of the W windows the line's accesses span
 * meets one seen in nB about nA * nB / W times.  A timer samples few of
 * the accesses (under emulation, only those at the start of a translated
 * block), and when even random meetings would stay below the floor, no
 * shared window is no evidence that the threads never meet.  *all counts
 * every meeting; *wr only those a shared window needs, where one of the
 * two wrote (wA of A's windows with a write: nA * nB - (nA - wA) * (nB -
 * wB) pairs of windows): threads that read the line often and write it
 * seldom meet often but share a window seldom.  EV is sorted by window. */
static int regs_random_meetings(const struct rev *ev, size_t nev, double *all, double *wr)
{
	struct { uint32_t tid; uint64_t n, w; } *t = NULL, *v;
	size_t nt = 0, k, j, a, b, i;
	double sum = 0, sq = 0, pairs_w = 0, span;

	*all = *wr = 0;
	if (!nev)
		return 0;
	for (k = 0; k < nev; k = j) {
		for (j = k; j < nev && ev[j].win == ev[k].win; j++)
			;
		for (a = k; a < j; a++) {
			int w = 0;

			for (b = k; b < a && ev[b].tid != ev[a].tid; b++)
				;
			if (b < a)	/* the thread is counted in this window already */
				continue;
			for (b = a; b < j; b++)
				w |= ev[b].tid == ev[a].tid && ev[b].w;
			for (i = 0; i < nt && t[i].tid != ev[a].tid; i++)
				;
			if (i == nt) {
				v = realloc(t, (nt + 1) * sizeof(*t));
				if (!v) {
					free(t);
					return -ENOMEM;
				}
				t = v;
				t[nt].tid = ev[a].tid;
				t[nt].n = t[nt].w = 0;
				nt++;
			}
			t[i].n++;
			t[i].w += w;
		}
	}
	for (i = 0; i < nt; i++) {
		sum += t[i].n;
		sq += (double)t[i].n * t[i].n;
		for (k = i + 1; k < nt; k++)
			pairs_w += (double)t[i].n * t[k].n -
				   (double)(t[i].n - t[i].w) * (t[k].n - t[k].w);
	}
	free(t);
	span = (double)(ev[nev - 1].win - ev[0].win + 1);
	*all = (sum * sum - sq) / 2 / span;
	*wr = pairs_w / span;
	return 0;
}

int heat_line_verdict_regs(struct heat_line *l, const hm_heat *h)
{
	struct heat_evidence *e = &l->ev;
	struct heat_actors line_acts = { 0 };
	struct group *g = NULL;
	struct rev *ev = NULL;
	struct heat_row *r;
	uint32_t ng = 0, nwritten = 0, i;
	size_t nev = 0, nwin, k, j, a, b;
	double meet, meet_w;
	int err = 0;

	free(e->cost);
	memset(e, 0, sizeof(*e));
	e->kind = HEAT_EV_REGS;
	for (r = l->rows; r; r = r->next) {
		e->accesses += row_accesses(r, 1);
		nev += r->nrw;
		r->group = 0;
		r->in_fs = r->in_ts = 0;
	}
	e->lo = 0;
	e->hi = 1;
	if ((err = group_fields(l, 1, 1, &g, &ng, &line_acts, &nwritten)))
		goto out;

	/* the accesses by window, and the cost */
	ev = nev ? malloc(nev * sizeof(*ev)) : NULL;
	if (nev && !ev) {
		err = -ENOMEM;
		goto out;
	}
	nev = 0;
	for (r = l->rows; r; r = r->next)
		for (i = 0; i < r->nrw; i++) {
			const struct heat_rwin *x = &r->rw[i];

			if ((err = add_cost(e, x->cpu, x->n)))
				goto out;
			if (r->group)
				ev[nev++] = (struct rev){ x->win, r, x->cpu, x->tid, x->n, x->w };
		}
	for (i = 0; i < e->ncost; i++)
		e->cost[i].all = e->cost[i].cpu < h->ncpu_samples ? h->cpu_samples[e->cost[i].cpu] : 0;
	if (nev)	/* no array at all when no row has a window */
		qsort(ev, nev, sizeof(*ev), rev_cmp);
	for (k = 0; k < nev; k = j) {
		int shared = 0, fs = 0, ts = 0;

		for (j = k; j < nev && ev[j].win == ev[k].win; j++)
			;
		for (a = k; a < j; a++)
			for (b = a + 1; b < j; b++) {
				const struct rev *x = &ev[a], *y = &ev[b];

				if (x->cpu == y->cpu || x->tid == y->tid || !(x->w || y->w))
					continue;
				shared = 1;
				if (x->row->group != y->row->group) {
					fs = 1;
					((struct heat_row *)x->row)->in_fs = 1;
					((struct heat_row *)y->row)->in_fs = 1;
				} else if (g[x->row->group - 1].shared) {
					ts = 1;
					((struct heat_row *)x->row)->in_ts = 1;
					((struct heat_row *)y->row)->in_ts = 1;
				}
			}
		e->transfers += shared;
		e->fs_transfers += fs;
		e->ts_transfers += ts;
	}
	if ((err = regs_random_meetings(ev, nev, &meet, &meet_w)))
		goto out;

	for (k = 0, nwin = 0; k < nev; k++)
		nwin += !k || ev[k].win != ev[k - 1].win;
	if (e->actors < 2 && nwin < HEAT_MIN_TRANSFERS) {
		/* a timer sees few of the accesses: one thread in a window or
		 * two says nothing of the others (a kernel lock's second CPU) */
		l->verdict = HEAT_INSUFFICIENT;
		e->rule = HEAT_RULE_SPARSE_WINDOWS;
	} else if (e->actors < 2) {
		l->verdict = HEAT_PRIVATE;
		e->rule = HEAT_RULE_ONE_ACTOR;
	} else if (!e->transfers && meet < HEAT_MIN_TRANSFERS) {
		l->verdict = HEAT_INSUFFICIENT;
		e->rule = HEAT_RULE_SPARSE_WINDOWS;
	} else if (!nwritten) {
		l->verdict = HEAT_READ_SHARED;
		e->rule = HEAT_RULE_NO_WRITES;
	} else if (!e->transfers && meet_w < HEAT_NO_OVERLAP_MEETINGS) {
		/* written too seldom in the samples for a shared window to be
		 * expected: no shared window says nothing.  The floor is
		 * higher than a verdict's: in the Debian 6.1 guest under QEMU
		 * on a loaded host, two threads writing two fields of one
		 * struct file (tests/lab, fshare) promised 7 random meetings
		 * and met in none, while watchpoints on the same workload
		 * saw false sharing: the vCPUs had run together in 365 of
		 * 1229 busy milliseconds. */
		l->verdict = HEAT_INSUFFICIENT;
		e->rule = HEAT_RULE_SPARSE_WINDOWS;
	} else if (!e->transfers) {
		l->verdict = HEAT_PRIVATE;
		e->rule = HEAT_RULE_NO_OVERLAP;
	} else if (e->transfers < HEAT_MIN_TRANSFERS) {
		l->verdict = HEAT_INSUFFICIENT;
		e->rule = HEAT_RULE_FEW_WINDOWS;
	} else if (part_passes(e->fs_transfers, e->transfers)) {
		l->verdict = part_passes(e->ts_transfers, e->transfers) ? HEAT_MIXED
									: HEAT_FALSE_SHARING;
		e->rule = HEAT_RULE_PARTS_WINDOWS;
	} else if (part_passes(e->ts_transfers, e->transfers)) {
		l->verdict = HEAT_TRUE_SHARING;
		e->rule = HEAT_RULE_PARTS_WINDOWS;
	} else {
		l->verdict = HEAT_INSUFFICIENT;
		e->rule = HEAT_RULE_NO_PART_WINDOWS;
	}
	/* the parts name fields only when they pass; the false sharing
	 * part leaves out a shared group (the lock stays with the true part) */
	for (r = l->rows; r; r = r->next) {
		if (!part_passes(e->fs_transfers, e->transfers) ||
		    (r->group && g[r->group - 1].shared && l->verdict == HEAT_MIXED))
			r->in_fs = 0;
		if (!part_passes(e->ts_transfers, e->transfers))
			r->in_ts = 0;
		if (l->verdict != HEAT_FALSE_SHARING && l->verdict != HEAT_TRUE_SHARING &&
		    l->verdict != HEAT_MIXED)
			r->in_fs = r->in_ts = 0;
	}
out:
	free(ev);
	free(g);
	free(line_acts.v);
	return err;
}
