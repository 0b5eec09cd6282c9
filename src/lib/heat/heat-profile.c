/* Heat → profile: merging the per-line rows of each struct into fields,
 * and the contending pairs, truly shared fields and truly shared groups of
 * its lines. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "heat/heat-int.h"
#include "heat/profile-int.h"

struct pb_pair {		/* a contending pair or a truly shared field */
	const char *a, *b;
	uint64_t samples, hitm, transfers;
	uint32_t lines;
	struct heat_cpuset cpus;
};

/* The fields of one struct in one line's true sharing part, and what the
 * lines where that set was truly shared add up to (in c, whose a is the
 * first path). */
struct pb_group {
	const char **paths;	/* sorted by name, distinct; heap */
	size_t n;
	struct pb_pair c;
};

struct pb_struct {
	const char *name;
	enum hm_profile_kind kind;
	uint64_t size, total;
	struct heat_row **rows;
	size_t nrows, rows_cap;
	struct pb_pair *pairs, *shared;
	size_t npairs, pairs_cap, nshared, shared_cap;
	struct pb_group *groups;
	size_t ngroups, groups_cap;
};

struct pb {
	hm_heat *h;
	hm_arena *arena;
	struct pb_struct *s;
	size_t ns, s_cap;
};

static struct pb_struct *pb_struct_of(struct pb *b, const struct heat_row *r)
{
	size_t i;

	for (i = 0; i < b->ns; i++)
		if (b->s[i].name == r->sname && b->s[i].kind == r->kind)
			return &b->s[i];
	if (hm_grow((void **)&b->s, &b->s_cap, b->ns + 1, sizeof(*b->s)))
		return NULL;
	memset(&b->s[b->ns], 0, sizeof(b->s[0]));
	b->s[b->ns].name = r->sname;
	b->s[b->ns].kind = r->kind;
	b->s[b->ns].size = r->ssize;
	return &b->s[b->ns++];
}

static uint64_t row_hitm(const struct heat_row *r)
{
	return r->c.lcl_hitm + r->c.rmt_hitm;
}

static int pb_note(struct pb_pair **arr, size_t *n, size_t *cap, const struct heat_row *x,
		   const struct heat_row *y)
{
	const char *a = x->path, *b = y ? y->path : NULL;
	struct pb_pair *p = NULL;
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*arr)[i].a == a && (*arr)[i].b == b) {
			p = &(*arr)[i];
			break;
		}
	if (!p) {
		if (hm_grow((void **)arr, cap, *n + 1, sizeof(**arr)))
			return -ENOMEM;
		p = &(*arr)[(*n)++];
		memset(p, 0, sizeof(*p));
		p->a = a;
		p->b = b;
	}
	p->lines++;
	p->samples += x->c.samples + (y ? y->c.samples : 0);
	p->hitm += row_hitm(x) + (y ? row_hitm(y) : 0);
	p->transfers += x->c.transfers + (y ? y->c.transfers : 0);
	if (heat_cpuset_union(&p->cpus, &x->cpus) || (y && heat_cpuset_union(&p->cpus, &y->cpus)))
		return -ENOMEM;
	return 0;
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int pb_count(struct pb_pair *p, const struct heat_row *x)
{
	p->samples += x->c.samples;
	p->hitm += row_hitm(x);
	p->transfers += x->c.transfers;
	return heat_cpuset_union(&p->cpus, &x->cpus);
}

/* The truly shared rows of x's struct on line l (x the first of them) as
 * one group: the set of their paths, noted once per line. */
static int pb_group_note(struct pb_struct *s, const struct heat_line *l, const struct heat_row *x)
{
	const struct heat_row *y;
	const char **v;
	struct pb_group *g = NULL;
	size_t n = 0, k, i;

	for (y = x; y; y = y->next)
		n += y->in_ts && y->sname == x->sname && y->kind == x->kind;
	if (!(v = malloc(n * sizeof(*v))))
		return -ENOMEM;
	for (n = 0, y = x; y; y = y->next)
		if (y->in_ts && y->c.samples && y->group && y->sname == x->sname &&
		    y->kind == x->kind)
			v[n++] = y->path;
	qsort(v, n, sizeof(*v), path_cmp);
	for (i = k = 0; i < n; i++)
		if (!k || strcmp(v[k - 1], v[i]))
			v[k++] = v[i];
	n = k;
	for (i = 0; i < s->ngroups && !g; i++) {
		g = &s->groups[i];
		for (k = 0; g->n == n && k < n && !strcmp(g->paths[k], v[k]); k++)
			;
		if (g->n != n || k < n)
			g = NULL;
	}
	if (g) {
		free(v);
	} else {
		if (hm_grow((void **)&s->groups, &s->groups_cap, s->ngroups + 1, sizeof(*g))) {
			free(v);
			return -ENOMEM;
		}
		g = &s->groups[s->ngroups++];
		memset(g, 0, sizeof(*g));
		g->paths = v;
		g->n = n;
		g->c.a = v[0];
	}
	g->c.lines++;
	for (y = l->rows; y; y = y->next)
		if (y->in_ts && y->c.samples && y->group && y->sname == x->sname &&
		    y->kind == x->kind && pb_count(&g->c, y))
			return -ENOMEM;
	return 0;
}

static int pb_line(struct pb *b, const struct heat_line *l)
{
	const struct heat_row *x, *y;
	struct pb_struct *s;

	if (l->verdict != HEAT_FALSE_SHARING && l->verdict != HEAT_TRUE_SHARING &&
	    l->verdict != HEAT_MIXED)
		return 0;
	for (x = l->rows; x; x = x->next) {
		if (!x->sname || !x->c.samples || !x->group)
			continue;
		if (!(s = pb_struct_of(b, x)))
			return -ENOMEM;
		if (x->in_ts && pb_note(&s->shared, &s->nshared, &s->shared_cap, x, NULL))
			return -ENOMEM;
		/* the first truly shared row of its struct on the line notes
		 * the group of them all */
		for (y = l->rows; x->in_ts && y != x; y = y->next)
			if (y->in_ts && y->c.samples && y->group && y->sname == x->sname &&
			    y->kind == x->kind)
				break;
		if (x->in_ts && y == x && pb_group_note(s, l, x))
			return -ENOMEM;
		/* Contending pairs: fields of different groups (different
		 * actors), one of them written, on the false sharing part. */
		for (y = x->next; y; y = y->next) {
			if (!y->sname || !y->c.samples || y->sname != x->sname || y->kind != x->kind)
				continue;
			if (!y->group || y->group == x->group || !(x->in_fs || y->in_fs))
				continue;
			if (!heat_row_written(x) && !heat_row_written(y))
				continue;
			if (x->path == y->path && x->object == y->object)
				continue;
			if (pb_note(&s->pairs, &s->npairs, &s->pairs_cap, x, y))
				return -ENOMEM;
		}
	}
	return 0;
}

static int cmp_rows(const void *pa, const void *pb)
{
	const struct heat_row *a = *(struct heat_row *const *)pa, *b = *(struct heat_row *const *)pb;
	int c;

	if (a->foff != b->foff)
		return a->foff < b->foff ? -1 : 1;
	c = strcmp(a->path, b->path);
	if (c)
		return c;
	return a->object && b->object ? strcmp(a->object, b->object) : 0;
}

static uint32_t *pb_cpus(struct pb *b, const struct heat_cpuset *s, size_t *n)
{
	uint32_t *v = hm_arena_alloc(b->arena, (s->count + 1) * sizeof(*v));

	if (v)
		*n = heat_cpuset_list(s, v, s->count);
	return v;
}

static char *pb_str(struct pb *b, const char *s)
{
	return s ? hm_arena_strndup(b->arena, s, strlen(s)) : NULL;
}

/* Merge the rows of one struct (sorted) into fields. */
static int pb_fields(struct pb *b, struct pb_struct *ps, hm_profile_struct *out)
{
	hm_profile_field *f = hm_arena_alloc(b->arena, (ps->nrows + 1) * sizeof(*f));
	const char **objs = hm_arena_alloc(b->arena, (ps->nrows + 1) * sizeof(*objs));
	struct heat_cpuset cpus = { 0 };
	struct heat_tidset tids = { 0 };
	size_t i = 0, j, k, n = 0;
	int err = 0;

	if (!f || !objs)
		return -ENOMEM;
	if (ps->nrows)
		qsort(ps->rows, ps->nrows, sizeof(*ps->rows), cmp_rows);
	while (i < ps->nrows && !err) {
		const struct heat_row *r = ps->rows[i];
		hm_profile_field *fld = &f[n++];
		uint32_t *tv;

		heat_cpuset_clear(&cpus);
		tids.n = 0;
		fld->path = pb_str(b, r->path);
		fld->offset = r->foff;
		fld->size = r->fsize;
		for (j = i; j < ps->nrows && ps->rows[j]->foff == r->foff &&
			    !strcmp(ps->rows[j]->path, r->path); j++) {
			const struct heat_row *q = ps->rows[j];

			heat_counts_add(&fld->c, &q->c);
			if (heat_cpuset_union(&cpus, &q->cpus))
				err = -ENOMEM;
			for (k = 0; k < q->tids.n; k++)
				if (heat_tidset_add(&tids, q->tids.v[k]))
					err = -ENOMEM;
			for (k = 0; q->object && k < out->nr_objects; k++)
				if (!strcmp(objs[k], q->object))
					break;
			if (q->object && k == out->nr_objects)
				objs[out->nr_objects++] = pb_str(b, q->object);
		}
		fld->cpus = pb_cpus(b, &cpus, &fld->nr_cpus);
		tv = hm_arena_alloc(b->arena, (tids.n + 1) * sizeof(*tv));
		if (!fld->path || !fld->cpus || !tv) {
			err = -ENOMEM;
			break;
		}
		if (tids.n)
			memcpy(tv, tids.v, tids.n * sizeof(*tv));
		fld->threads = tv;
		fld->nr_threads = tids.n;
		ps->total += fld->c.samples;
		i = j;
	}
	heat_cpuset_free(&cpus);
	free(tids.v);
	out->fields = f;
	out->nr_fields = n;
	out->objects = objs;
	return err;
}

static int cmp_pairs(const void *pa, const void *pb)
{
	const struct pb_pair *a = pa, *b = pb;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (a->hitm != b->hitm)
		return a->hitm > b->hitm ? -1 : 1;
	if (a->transfers != b->transfers)
		return a->transfers > b->transfers ? -1 : 1;
	return strcmp(a->a, b->a) ? strcmp(a->a, b->a) : strcmp(a->b ? a->b : "", b->b ? b->b : "");
}

static int cmp_groups(const void *pa, const void *pb)
{
	const struct pb_group *a = pa, *b = pb;
	int c = cmp_pairs(&a->c, &b->c);

	for (size_t k = 0; !c && k < a->n && k < b->n; k++)
		c = strcmp(a->paths[k], b->paths[k]);
	return c ? c : (a->n > b->n) - (a->n < b->n);
}

static int pb_groups(struct pb *b, struct pb_struct *ps, hm_profile_struct *out)
{
	hm_profile_shared_group *sg = hm_arena_alloc(b->arena, (ps->ngroups + 1) * sizeof(*sg));

	if (!sg)
		return -ENOMEM;
	if (ps->ngroups)
		qsort(ps->groups, ps->ngroups, sizeof(*ps->groups), cmp_groups);
	for (size_t i = 0; i < ps->ngroups; i++) {
		const struct pb_group *g = &ps->groups[i];
		const char **f = hm_arena_alloc(b->arena, (g->n + 1) * sizeof(*f));

		if (!f)
			return -ENOMEM;
		for (size_t k = 0; k < g->n; k++)
			if (!(f[k] = pb_str(b, g->paths[k])))
				return -ENOMEM;
		sg[i] = (hm_profile_shared_group){ .nr_fields = g->n, .fields = f,
						   .samples = g->c.samples, .hitm = g->c.hitm,
						   .transfers = g->c.transfers,
						   .lines = g->c.lines };
		sg[i].cpus = pb_cpus(b, &g->c.cpus, &sg[i].nr_cpus);
		if (!sg[i].cpus)
			return -ENOMEM;
	}
	out->shared_groups = sg;
	out->nr_shared_groups = ps->ngroups;
	return 0;
}

static int pb_pairs(struct pb *b, struct pb_struct *ps, hm_profile_struct *out)
{
	hm_profile_pair *pp = hm_arena_alloc(b->arena, (ps->npairs + 1) * sizeof(*pp));
	hm_profile_shared *sh = hm_arena_alloc(b->arena, (ps->nshared + 1) * sizeof(*sh));
	size_t i;

	if (!pp || !sh)
		return -ENOMEM;
	if (ps->npairs)
		qsort(ps->pairs, ps->npairs, sizeof(*ps->pairs), cmp_pairs);
	if (ps->nshared)
		qsort(ps->shared, ps->nshared, sizeof(*ps->shared), cmp_pairs);
	for (i = 0; i < ps->npairs; i++) {
		const struct pb_pair *q = &ps->pairs[i];

		pp[i] = (hm_profile_pair){ .a = pb_str(b, q->a), .b = pb_str(b, q->b),
					   .samples = q->samples, .hitm = q->hitm,
					   .transfers = q->transfers, .lines = q->lines };
		pp[i].cpus = pb_cpus(b, &q->cpus, &pp[i].nr_cpus);
		if (!pp[i].a || !pp[i].b || !pp[i].cpus)
			return -ENOMEM;
	}
	for (i = 0; i < ps->nshared; i++) {
		const struct pb_pair *q = &ps->shared[i];

		sh[i] = (hm_profile_shared){ .field = pb_str(b, q->a), .samples = q->samples,
					     .hitm = q->hitm, .transfers = q->transfers,
					     .lines = q->lines };
		sh[i].cpus = pb_cpus(b, &q->cpus, &sh[i].nr_cpus);
		if (!sh[i].field || !sh[i].cpus)
			return -ENOMEM;
	}
	out->pairs = pp;
	out->nr_pairs = ps->npairs;
	out->shared = sh;
	out->nr_shared = ps->nshared;
	return pb_groups(b, ps, out);
}

static int cmp_structs(const void *pa, const void *pb)
{
	const hm_profile_struct *a = pa, *b = pb;
	hm_heat_counts ca, cb;

	hm_profile_member_counts(a, "", &ca);
	hm_profile_member_counts(b, "", &cb);
	if (ca.samples != cb.samples)
		return ca.samples > cb.samples ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void pb_free(struct pb *b)
{
	size_t i, j;

	for (i = 0; i < b->ns; i++) {
		for (j = 0; j < b->s[i].npairs; j++)
			heat_cpuset_free(&b->s[i].pairs[j].cpus);
		for (j = 0; j < b->s[i].nshared; j++)
			heat_cpuset_free(&b->s[i].shared[j].cpus);
		for (j = 0; j < b->s[i].ngroups; j++) {
			heat_cpuset_free(&b->s[i].groups[j].c.cpus);
			free(b->s[i].groups[j].paths);
		}
		free(b->s[i].groups);
		free(b->s[i].pairs);
		free(b->s[i].shared);
		free(b->s[i].rows);
	}
	free(b->s);
}

/* One line's rows into their structs, and its pairs. */
static int pb_line_rows(struct pb *b, struct heat_line *l)
{
	struct heat_row *r;

	for (r = l->rows; r; r = r->next) {
		struct pb_struct *s;

		if (!r->sname)
			continue;
		if (!(s = pb_struct_of(b, r)) ||
		    hm_grow((void **)&s->rows, &s->rows_cap, s->nrows + 1, sizeof(*s->rows)))
			return -ENOMEM;
		s->rows[s->nrows++] = r;
	}
	return pb_line(b, l);
}

static int pb_build(struct pb *b, hm_profile *p)
{
	hm_profile_struct *out;
	struct heat_line **lines;
	long k, n = heat_lines_all(b->h, &lines);
	size_t i;
	int err = 0;

	if (n < 0)
		return (int)n;
	for (k = 0; k < n && !err; k++)
		err = pb_line_rows(b, lines[k]);
	free(lines);
	if (err)
		return err;
	out = hm_arena_alloc(b->arena, (b->ns + 1) * sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (i = 0; i < b->ns; i++) {
		out[i].name = pb_str(b, b->s[i].name);
		out[i].kind = b->s[i].kind;
		out[i].size = b->s[i].size;
		if (!out[i].name || (err = pb_fields(b, &b->s[i], &out[i])) ||
		    (err = pb_pairs(b, &b->s[i], &out[i])))
			return err ? err : -ENOMEM;
	}
	if (b->ns)
		qsort(out, b->ns, sizeof(*out), cmp_structs);
	p->structs = out;
	p->nr_structs = b->ns;
	return 0;
}

hm_profile *hm_heat_profile(const hm_heat *h, const char *input, const char *kind,
			    uint64_t samples, uint64_t attributed)
{
	hm_profile *p = hm_profile_alloc();
	struct pb b = { .h = (hm_heat *)h };
	int err;

	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	b.arena = hm_profile_arena(p);
	p->input = pb_str(&b, input);
	p->kind = pb_str(&b, kind);
	p->samples = samples;
	p->attributed = attributed;
	p->cacheline_size = h->line_size;
	err = pb_build(&b, p);
	pb_free(&b);
	if (err) {
		hm_profile_free(p);
		errno = -err;
		return NULL;
	}
	return p;
}
