/* The scope index's building and publishing (dwarf-scope-int.h): a unit or
 * a subprogram is built under the build lock and published by its state,
 * stored last (release), so that a lookup reads it without a lock; a
 * prefetch's build that fails or speaks is undone. */
#include "config.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf/dwarf-scope-int.h"

void dws_cu_free(struct cu *c)
{
	free(c->scopes);
	free(c->vars);
	free(c->locs);
	for (size_t i = 0; i < c->nsubs; i++) {
		free(c->subs[i].segs);
		free(c->subs[i].scopes);
		free(c->subs[i].vars);
		free(c->subs[i].locs);
		if (c->subs[i].die)
			dwarf_dealloc_die(c->subs[i].die);
	}
	free(c->subs);
	free(c->sr);
	free(c->globs);
	free(c->lnotes);
	free(c->kastat);
	free(c->kalocs);
}

/* What a prefetch (hm_scopes_prefetch()) is told: NULL for a lookup.  A
 * build that a prefetch makes and that fails or says anything (its
 * messages counted in *q, not printed) is undone, left for the lookup that
 * needs it to make again and report: what is printed, and when, is what a
 * lookup alone does. */
static unsigned said(const struct hm_diag_count *q)
{
	return q ? hm_diag_count_total(q) : 0;
}

/* A state as a lookup sees it: set last, once what it says is built. */
static int published(const int *state)
{
	return __atomic_load_n(state, __ATOMIC_ACQUIRE);
}

static void publish(int *state, int v)
{
	__atomic_store_n(state, v, __ATOMIC_RELEASE);
}

/* *dst (capacity *cap) made a copy of the n elements at src: 0 or -ENOMEM. */
static int copy_array(void **dst, size_t *cap, const void *src, size_t n, size_t elem)
{
	if (n && hm_grow(dst, cap, n, elem))
		return -ENOMEM;
	if (n)
		memcpy(*dst, src, n * elem);
	return 0;
}

/* Keep what unit c's top-level walk noted, just made (the memo's DIEs with
 * a location, the static locals of its abstract instances), for
 * restore_notes().  Out of memory, nothing is kept: the walk is made again
 * instead. */
static void keep_notes(hm_scopes *s, struct cu *c)
{
	size_t cn = 0, ca = 0, cl = 0;

	for (size_t i = 0; i < s->cmemo; i++) {
		const struct memo *m = &s->memo[i];

		if (!m->key || (m->key & 7) != MEMO_LOC || !m->has)
			continue;
		if (GROW(s, c->lnotes, c->nlnotes, cn))
			goto fail;
		c->lnotes[c->nlnotes++] = m->key >> 3;
	}
	if (copy_array((void **)&c->kastat, &ca, s->astat, s->nastat, sizeof(*s->astat)) ||
	    copy_array((void **)&c->kalocs, &cl, s->alocs, s->nalocs, sizeof(*s->alocs)))
		goto fail;
	c->nkastat = s->nastat;
	c->nkalocs = s->nalocs;
	c->notes_kept = 1;
	return;
fail:
	free(c->lnotes);
	free(c->kastat);
	free(c->kalocs);
	c->lnotes = NULL, c->kastat = NULL, c->kalocs = NULL;
	c->nlnotes = 0;
}

/* Make c's kept notes the current ones (the memo cleared): what its
 * top-level walk made again would note.  0 or -ENOMEM. */
static int restore_notes(hm_scopes *s, struct cu *c)
{
	int fresh;

	s->nastat = 0;
	s->nalocs = 0;
	for (size_t i = 0; i < c->nlnotes; i++) {
		struct memo *m = dws_memo_get(s, c->lnotes[i], MEMO_LOC, &fresh);

		if (!m)
			return -ENOMEM;
		m->has = 1;
	}
	if (copy_array((void **)&s->astat, &s->castat, c->kastat, c->nkastat, sizeof(*s->astat)) ||
	    copy_array((void **)&s->alocs, &s->calocs, c->kalocs, c->nkalocs, sizeof(*s->alocs)))
		return -ENOMEM;
	s->nastat = c->nkastat;
	s->nalocs = c->nkalocs;
	return 0;
}

/* The top level of unit c: its variables and its subprograms' ranges. */
int dws_build_cu(hm_scopes *s, struct cu *c, const struct hm_diag_count *q)
{
	unsigned n0 = said(q);
	int rc = published(&c->state);

	if (rc)
		return rc < 0 ? rc : 0;
	pthread_mutex_lock(&s->build);
	if ((rc = c->state)) {	/* the other thread built it meanwhile */
		pthread_mutex_unlock(&s->build);
		return rc < 0 ? rc : 0;
	}
	dws_memo_clear(s);
	rc = dws_walk_cu(s, c, NULL, 0);
	if (rc || said(q) != n0) {
		dws_memo_clear(s);
		dws_cu_free(c);
		c->scopes = NULL, c->vars = NULL, c->locs = NULL, c->subs = NULL;
		c->sr = NULL, c->globs = NULL;
		c->nscopes = c->nvars = c->nlocs = c->nsubs = c->nsr = c->nglobs = 0;
		c->cscopes = c->cvars = c->clocs = c->csubs = c->csr = c->cglobs = 0;
		c->lnotes = NULL, c->kastat = NULL, c->kalocs = NULL;
		c->nlnotes = c->nkastat = c->nkalocs = 0;
		c->notes_kept = 0;
		if (!q)
			publish(&c->state, rc);
		pthread_mutex_unlock(&s->build);
		return rc ? rc : -EAGAIN;
	}
	s->noted = c;
	keep_notes(s, c);
	publish(&c->state, 1);
	pthread_mutex_unlock(&s->build);
	return 0;
}

/* The names of scopes sc and variables v, made s's own: 0 or -ENOMEM. */
int dws_own_names(hm_scopes *s, struct scope *sc, size_t nsc, struct svar *v, size_t nv)
{
	for (size_t i = 0; i < nsc; i++)
		if (sc[i].func && !(sc[i].func = hm_strtab_intern(&s->names, sc[i].func)))
			return -ENOMEM;
	for (size_t i = 0; i < nv; i++) {
		if (v[i].name && !(v[i].name = hm_strtab_intern(&s->names, v[i].name)))
			return -ENOMEM;
		if (v[i].record && !(v[i].record = hm_strtab_intern(&s->names, v[i].record)))
			return -ENOMEM;
	}
	return 0;
}

/* Empty the unit's arrays, which hold the subprogram being built. */
static void cu_scratch_drop(struct cu *c)
{
	free(c->scopes);
	free(c->vars);
	free(c->locs);
	c->scopes = NULL, c->vars = NULL, c->locs = NULL;
	c->nscopes = c->nvars = c->nlocs = 0;
	c->cscopes = c->cvars = c->clocs = 0;
}

/* Subprogram b of unit c (built): its scopes, variables and segments, with
 * the unit's notes made again when the memo holds another unit's.  They
 * are built in the unit's arrays (empty), then handed to b. */
int dws_build_sub(hm_scopes *s, struct cu *c, struct sub *b, const struct hm_diag_count *q)
{
	unsigned n0 = said(q);
	int rc = published(&b->state);

	if (rc)
		return rc < 0 ? rc : 0;
	pthread_mutex_lock(&s->build);
	if ((rc = b->state)) {
		pthread_mutex_unlock(&s->build);
		return rc < 0 ? rc : 0;
	}
	if (s->noted != c) {
		dws_memo_clear(s);
		if (c->notes_kept)
			rc = restore_notes(s, c);
		else
			rc = dws_walk_cu(s, c, NULL, 1);
		if (rc || said(q) != n0) {
			dws_memo_clear(s);
			if (!q)
				publish(&b->state, rc);
			pthread_mutex_unlock(&s->build);
			return rc ? rc : -EAGAIN;
		}
		s->noted = c;
	}
	cu_scratch_drop(c);	/* empty: a unit's own walk adds nothing there */
	rc = dws_walk_cu(s, c, b, 0);
	if (!rc && said(q) != n0)
		rc = -EAGAIN;
	if (!rc)
		rc = dws_own_names(s, c->scopes, c->nscopes, c->vars, c->nvars);
	if (rc) {
		/* what the failed build added belongs to no segment: drop it */
		free(b->segs);
		b->segs = NULL;
		b->nsegs = 0;
		cu_scratch_drop(c);
		if (!q)
			publish(&b->state, rc);
		pthread_mutex_unlock(&s->build);
		return rc;
	}
	b->scopes = c->scopes;
	b->vars = c->vars;
	b->locs = c->locs;
	c->scopes = NULL, c->vars = NULL, c->locs = NULL;
	c->nscopes = c->nvars = c->nlocs = 0;
	c->cscopes = c->cvars = c->clocs = 0;
	publish(&b->state, 1);
	pthread_mutex_unlock(&s->build);
	return 0;
}
