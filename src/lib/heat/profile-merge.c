/* profile merge: profiles recorded on many hosts or runs summed into one
 * (see hm_profile_merge() in heat.h).  Everything is keyed by name — struct
 * and field path, as check and suggest read profiles — and folded by
 * sorting: inputs concatenated, sorted by key, equal keys summed. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/heat.h"
#include "heat/heat-int.h"
#include "heat/profile-int.h"
#include "base/diag.h"
#include "base/opts.h"
#include "base/util.h"

struct ref {
	const void *x;		/* an input's struct, field, pair or shared entry */
	size_t in;		/* which input */
};

struct mg {
	const hm_profile *const *in;
	const char *const *names;
	size_t n;
	int force;
	hm_arena *a;
};

static const char *nm(const struct mg *m, size_t i)
{
	return m->names && m->names[i] ? m->names[i] : "(profile)";
}

/* A difference the inputs must not have: refused unless forced. */
static int differ(const struct mg *m, size_t i, size_t j, const char *what,
		  const char *va, const char *vb)
{
	if (m->force)
		return 0;
	return hm_fail(EINVAL, "%s and %s differ: %s (%s vs %s); --force sums them anyway",
		       nm(m, i), nm(m, j), what, va, vb);
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Sorted union of sets; *v grows in the heap, the result goes to the arena. */
struct set {
	uint32_t *v;
	size_t n, cap;
};

static int set_add(struct set *s, const uint32_t *v, size_t n)
{
	if (hm_grow((void **)&s->v, &s->cap, s->n + n + 1, sizeof(*s->v)))
		return -ENOMEM;
	if (n)
		memcpy(s->v + s->n, v, n * sizeof(*v));
	s->n += n;
	return 0;
}

static const uint32_t *set_done(struct mg *m, struct set *s, size_t *n)
{
	uint32_t *o;
	size_t i, k = 0;

	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), u32_cmp);
	for (i = 0; i < s->n; i++)
		if (!k || s->v[k - 1] != s->v[i])
			s->v[k++] = s->v[i];
	s->n = 0;
	*n = k;
	o = hm_arena_alloc(m->a, (k + 1) * sizeof(*o));
	if (o && k)
		memcpy(o, s->v, k * sizeof(*o));
	return o;
}

static const char *dup(struct mg *m, const char *s)
{
	return s ? hm_arena_strndup(m->a, s, strlen(s)) : NULL;
}

/* ---- sort keys ---- */

static int by_in(const struct ref *a, const struct ref *b)
{
	return (a->in > b->in) - (a->in < b->in);
}

static int by_struct(const void *a, const void *b)
{
	const hm_profile_struct *x = ((const struct ref *)a)->x, *y = ((const struct ref *)b)->x;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->kind != y->kind)
		return (int)x->kind - (int)y->kind;
	return by_in(a, b);
}

static int field_key(const void *a, const void *b)
{
	return strcmp(((const hm_profile_field *)a)->path, ((const hm_profile_field *)b)->path);
}

static int pair_key(const void *a, const void *b)
{
	const hm_profile_pair *x = a, *y = b;
	int c = strcmp(x->a, y->a);

	return c ? c : strcmp(x->b, y->b);
}

static int shared_key(const void *a, const void *b)
{
	return strcmp(((const hm_profile_shared *)a)->field, ((const hm_profile_shared *)b)->field);
}

/* groups: by their sorted field lists */
static int group_key(const void *a, const void *b)
{
	const hm_profile_shared_group *x = a, *y = b;
	int c = 0;

	for (size_t k = 0; !c && k < x->nr_fields && k < y->nr_fields; k++)
		c = strcmp(x->fields[k], y->fields[k]);
	return c ? c : (x->nr_fields > y->nr_fields) - (x->nr_fields < y->nr_fields);
}

/* output orders, as the profile writer keeps them */
static int field_order(const void *a, const void *b)
{
	const hm_profile_field *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return strcmp(x->path, y->path);
}

static int pair_order(const void *a, const void *b)
{
	const hm_profile_pair *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->hitm != y->hitm)
		return x->hitm > y->hitm ? -1 : 1;
	return strcmp(x->a, y->a) ? strcmp(x->a, y->a) : strcmp(x->b, y->b);
}

static int shared_order(const void *a, const void *b)
{
	const hm_profile_shared *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->hitm != y->hitm)
		return x->hitm > y->hitm ? -1 : 1;
	return strcmp(x->field, y->field);
}

static int group_order(const void *a, const void *b)
{
	const hm_profile_shared_group *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->hitm != y->hitm)
		return x->hitm > y->hitm ? -1 : 1;
	if (x->transfers != y->transfers)
		return x->transfers > y->transfers ? -1 : 1;
	return group_key(a, b);
}

static uint64_t struct_samples(const hm_profile_struct *s)
{
	uint64_t t = 0;
	size_t i;

	for (i = 0; i < s->nr_fields; i++)
		t += s->fields[i].c.samples;
	return t;
}

static int struct_order(const void *a, const void *b)
{
	const hm_profile_struct *x = a, *y = b;
	uint64_t sx = struct_samples(x), sy = struct_samples(y);

	if (sx != sy)
		return sx > sy ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* ---- a struct's fields, pairs and shared fields ---- */

/* One struct being merged: what summing its entries needs. */
struct fold {
	struct mg *m;
	const char *name;	/* the struct's, for messages */
	struct set *cpus, *thr;
};

/* Fields, pairs and shared fields are merged the same way (merge_entries()):
 * every input's entries gathered, sorted by key, each run of one key summed
 * into one entry, the entries put in the profile writer's order.  What
 * differs between them is here. */
struct entries {
	size_t size;	/* of one entry */
	const void *(*list)(const hm_profile_struct *s, size_t *n);
	int (*key)(const void *a, const void *b);
	/* adds entry r->x into d; d takes its key from the run's first, r0 */
	int (*add)(struct fold *f, void *d, const struct ref *r0, const struct ref *r);
	/* after a run: d's sets, and whether anything d holds is missing */
	int (*close)(struct fold *f, void *d);
	int (*order)(const void *a, const void *b);
};

static int by_key(const void *a, const void *b, void *e)
{
	int c = ((const struct entries *)e)->key(((const struct ref *)a)->x,
						 ((const struct ref *)b)->x);

	return c ? c : by_in(a, b);
}

static const void *fields_of(const hm_profile_struct *s, size_t *n)
{
	*n = s->nr_fields;
	return s->fields;
}

static int field_add(struct fold *f, void *dv, const struct ref *r0, const struct ref *r)
{
	hm_profile_field *d = dv;
	const hm_profile_field *f0 = r0->x, *q = r->x;
	char a[32], b[32], what[600];
	int err = 0;

	if (r == r0) {
		d->path = dup(f->m, f0->path);
		d->offset = f0->offset;
		d->size = f0->size;
	}
	if (q->offset != f0->offset || q->size != f0->size) {
		snprintf(a, sizeof(a), "%llu+%llu", (unsigned long long)f0->offset,
			 (unsigned long long)f0->size);
		snprintf(b, sizeof(b), "%llu+%llu", (unsigned long long)q->offset,
			 (unsigned long long)q->size);
		snprintf(what, sizeof(what), "where %s.%s is (offset+size)", f->name, f0->path);
		err = differ(f->m, r0->in, r->in, what, a, b);
	}
	heat_counts_add(&d->c, &q->c);
	return err ?: set_add(f->cpus, q->cpus, q->nr_cpus) ?:
		      set_add(f->thr, q->threads, q->nr_threads);
}

static int field_close(struct fold *f, void *dv)
{
	hm_profile_field *d = dv;

	d->cpus = set_done(f->m, f->cpus, &d->nr_cpus);
	d->threads = set_done(f->m, f->thr, &d->nr_threads);
	return !d->path || !d->cpus || !d->threads ? -ENOMEM : 0;
}

static const struct entries fields = {
	sizeof(hm_profile_field), fields_of, field_key, field_add, field_close, field_order,
};

static const void *pairs_of(const hm_profile_struct *s, size_t *n)
{
	*n = s->nr_pairs;
	return s->pairs;
}

static int pair_add(struct fold *f, void *dv, const struct ref *r0, const struct ref *r)
{
	hm_profile_pair *d = dv;
	const hm_profile_pair *q = r->x;

	if (r == r0) {
		d->a = dup(f->m, q->a);
		d->b = dup(f->m, q->b);
	}
	d->samples += q->samples;
	d->hitm += q->hitm;
	d->transfers += q->transfers;
	d->lines += q->lines;
	return set_add(f->cpus, q->cpus, q->nr_cpus);
}

static int pair_close(struct fold *f, void *dv)
{
	hm_profile_pair *d = dv;

	d->cpus = set_done(f->m, f->cpus, &d->nr_cpus);
	return !d->a || !d->b || !d->cpus ? -ENOMEM : 0;
}

static const struct entries pairs = {
	sizeof(hm_profile_pair), pairs_of, pair_key, pair_add, pair_close, pair_order,
};

static const void *shared_of(const hm_profile_struct *s, size_t *n)
{
	*n = s->nr_shared;
	return s->shared;
}

static int shared_add(struct fold *f, void *dv, const struct ref *r0, const struct ref *r)
{
	hm_profile_shared *d = dv;
	const hm_profile_shared *q = r->x;

	if (r == r0)
		d->field = dup(f->m, q->field);
	d->samples += q->samples;
	d->hitm += q->hitm;
	d->transfers += q->transfers;
	d->lines += q->lines;
	return set_add(f->cpus, q->cpus, q->nr_cpus);
}

static int shared_close(struct fold *f, void *dv)
{
	hm_profile_shared *d = dv;

	d->cpus = set_done(f->m, f->cpus, &d->nr_cpus);
	return !d->field || !d->cpus ? -ENOMEM : 0;
}

static const struct entries shared = {
	sizeof(hm_profile_shared), shared_of, shared_key, shared_add, shared_close,
	shared_order,
};

static const void *groups_of(const hm_profile_struct *s, size_t *n)
{
	*n = s->nr_shared_groups;
	return s->shared_groups;
}

static int group_add(struct fold *f, void *dv, const struct ref *r0, const struct ref *r)
{
	hm_profile_shared_group *d = dv;
	const hm_profile_shared_group *q = r->x;

	if (r == r0) {
		const char **v = hm_arena_alloc(f->m->a, (q->nr_fields + 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		for (size_t k = 0; k < q->nr_fields; k++)
			if (!(v[k] = dup(f->m, q->fields[k])))
				return -ENOMEM;
		d->fields = v;
		d->nr_fields = q->nr_fields;
	}
	d->samples += q->samples;
	d->hitm += q->hitm;
	d->transfers += q->transfers;
	d->lines += q->lines;
	return set_add(f->cpus, q->cpus, q->nr_cpus);
}

static int group_close(struct fold *f, void *dv)
{
	hm_profile_shared_group *d = dv;

	d->cpus = set_done(f->m, f->cpus, &d->nr_cpus);
	return !d->fields || !d->cpus ? -ENOMEM : 0;
}

static const struct entries groups = {
	sizeof(hm_profile_shared_group), groups_of, group_key, group_add, group_close,
	group_order,
};

/* The merged entries of kind e of the inputs' structs r[0..n), into *out
 * (the profile's arena) and *nr.  The first error stops the summing, so a
 * difference is told once. */
static int merge_entries(struct fold *f, const struct ref *r, size_t n, const struct entries *e,
			 void **out, size_t *nr)
{
	struct ref *v;
	const char *l;
	char *o, *d;
	size_t i, k, c, t = 0, nv = 0;
	int err = 0, cerr;

	for (i = 0; i < n; i++) {
		e->list(r[i].x, &c);
		t += c;
	}
	if (!(v = malloc((t + 1) * sizeof(*v))))
		return -ENOMEM;
	for (i = 0; i < n; i++)
		for (l = e->list(r[i].x, &c), k = 0; k < c; k++)
			v[nv++] = (struct ref){ l + k * e->size, r[i].in };
	qsort_r(v, nv, sizeof(*v), by_key, (void *)e);
	if (!(o = hm_arena_alloc(f->m->a, (nv + 1) * e->size))) {
		free(v);
		return -ENOMEM;
	}
	for (i = 0; i < nv && !err; i = k) {
		d = o + (*nr)++ * e->size;
		memset(d, 0, e->size);
		for (k = i; k < nv && !e->key(v[i].x, v[k].x); k++)
			if (!err)
				err = e->add(f, d, &v[i], &v[k]);
		cerr = e->close(f, d);	/* empties the sets whatever err is */
		if (!err)
			err = cerr;
	}
	free(v);
	if (!err)
		qsort(o, *nr, e->size, e->order);
	*out = o;
	return err;
}

/* ---- one struct, from the inputs' entries r[0..n) (same name and kind) ---- */

static int merge_struct(struct mg *m, const struct ref *r, size_t n, hm_profile_struct *o,
			struct set *cpus, struct set *thr)
{
	const hm_profile_struct *s0 = r[0].x;
	struct fold f = { m, s0->name, cpus, thr };
	size_t i, k, t;
	const char **objs;
	void *fo = NULL, *po = NULL, *so = NULL, *go = NULL;
	char a[32], b[32], what[600];
	int err = 0;

	o->name = dup(m, s0->name);
	o->kind = s0->kind;
	o->size = s0->size;
	for (i = 1; i < n && !err; i++) {
		const hm_profile_struct *s = r[i].x;

		if (s->size != s0->size) {
			snprintf(a, sizeof(a), "%llu", (unsigned long long)s0->size);
			snprintf(b, sizeof(b), "%llu", (unsigned long long)s->size);
			snprintf(what, sizeof(what), "the size of %s", s0->name);
			err = differ(m, r[0].in, r[i].in, what, a, b);
		}
	}
	/* objects: union by name */
	for (i = 0, t = 0; i < n; i++)
		t += ((const hm_profile_struct *)r[i].x)->nr_objects;
	objs = hm_arena_alloc(m->a, (t + 1) * sizeof(*objs));
	if (!o->name || !objs || err)
		return err ? err : -ENOMEM;
	for (i = 0; i < n; i++) {
		const hm_profile_struct *s = r[i].x;

		for (k = 0; k < s->nr_objects; k++) {
			size_t j;

			for (j = 0; j < o->nr_objects && strcmp(objs[j], s->objects[k]); j++)
				;
			if (j == o->nr_objects && !(objs[o->nr_objects++] = dup(m, s->objects[k])))
				return -ENOMEM;
		}
	}
	o->objects = objs;

	err = merge_entries(&f, r, n, &fields, &fo, &o->nr_fields);
	o->fields = fo;
	if (!err)
		err = merge_entries(&f, r, n, &pairs, &po, &o->nr_pairs);
	o->pairs = po;
	/* truly shared fields */
	if (!err)
		err = merge_entries(&f, r, n, &shared, &so, &o->nr_shared);
	o->shared = so;
	/* truly shared groups (none from a profile older than them) */
	if (!err)
		err = merge_entries(&f, r, n, &groups, &go, &o->nr_shared_groups);
	o->shared_groups = go;
	return err;
}

/* ---- the whole profile ---- */

static int check_heads(struct mg *m)
{
	const hm_profile *p0 = m->in[0];
	char a[16], b[16];
	size_t i, k, j, l;
	int err;

	for (i = 1; i < m->n; i++) {
		const hm_profile *p = m->in[i];
		const char *k0 = p0->kind ? p0->kind : "hitm", *k1 = p->kind ? p->kind : "hitm";

		if (strcmp(k0, k1) && (err = differ(m, 0, i, "the data kind", k0, k1)))
			return err;
		if (p->cacheline_size != p0->cacheline_size) {
			snprintf(a, sizeof(a), "%u", p0->cacheline_size);
			snprintf(b, sizeof(b), "%u", p->cacheline_size);
			if ((err = differ(m, 0, i, "the cacheline size", a, b)))
				return err;
		}
	}
	/* one file, two build-ids: not the same build */
	for (i = 0; i < m->n; i++)
		for (j = i + 1; j < m->n; j++)
			for (k = 0; k < m->in[i]->nr_builds; k++)
				for (l = 0; l < m->in[j]->nr_builds; l++) {
					const hm_profile_build *x = &m->in[i]->builds[k];
					const hm_profile_build *y = &m->in[j]->builds[l];
					char what[600];

					if (strcmp(x->file, y->file) ||
					    !strcmp(x->build_id, y->build_id))
						continue;
					snprintf(what, sizeof(what), "the build of %s", x->file);
					if ((err = differ(m, i, j, what, x->build_id, y->build_id)))
						return err;
				}
	return 0;
}

static int build_cmp(const void *a, const void *b)
{
	const hm_profile_build *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	return c ? c : strcmp(x->build_id, y->build_id);
}

static int merge_builds(struct mg *m, hm_profile *o)
{
	hm_profile_build *v;
	size_t i, k, t = 0, n = 0;
	int err;

	for (i = 0; i < m->n; i++)
		t += m->in[i]->nr_builds;
	if (!(v = malloc((t + 1) * sizeof(*v))))
		return -ENOMEM;
	for (i = 0; i < m->n; i++)
		for (k = 0; k < m->in[i]->nr_builds; k++)
			v[n++] = m->in[i]->builds[k];
	if (n)
		qsort(v, n, sizeof(*v), build_cmp);
	for (i = k = 0; i < n; i++)
		if (!k || build_cmp(&v[k - 1], &v[i]))
			v[k++] = v[i];
	err = hm_profile_set_builds(o, v, k);
	free(v);
	return err;
}

int hm_profile_merge(const hm_profile *const *in, const char *const *names, size_t n,
		     const struct hm_profile_merge_opts *opts, hm_profile **out)
{
	struct hm_profile_merge_opts o;
	struct mg m = { .in = in, .names = names, .n = n };
	struct set cpus = { 0 }, thr = { 0 };
	struct ref *r = NULL;
	hm_profile_struct *so;
	hm_profile *p;
	size_t i, k, t = 0, nr = 0;
	hm_sbuf inp = { 0 };
	int err;

	if (HM_OPTS_TAKE(&o, opts, hm_profile_merge_opts) || !in || !n || !out)
		return -EINVAL;
	m.force = o.force;
	if ((err = check_heads(&m)))
		return err;
	if (!(p = hm_profile_alloc()))
		return -ENOMEM;
	m.a = hm_profile_arena(p);
	p->kind = dup(&m, in[0]->kind);
	p->cacheline_size = in[0]->cacheline_size;
	for (i = 0; i < n; i++) {
		p->samples += in[i]->samples;
		p->attributed += in[i]->attributed;
		t += in[i]->nr_structs;
		hm_sbuf_printf(&inp, "%s%s", i ? " + " : "",
			       names && names[i] ? names[i] :
			       in[i]->input ? in[i]->input : "?");
	}
	err = inp.err;
	if (!err && inp.len)
		p->input = hm_arena_strndup(m.a, inp.p, inp.len);
	free(inp.p);
	if (!err)
		err = merge_builds(&m, p);
	/* a sum with a part of a recording in it is partial too: the first
	 * cut is kept, so that check and suggest still refuse the sum */
	for (i = 0; !err && i < n; i++)
		if (in[i]->truncated) {
			err = hm_profile_set_truncated(p, in[i]->truncated);
			break;
		}
	if (!err && !(r = malloc((t + 1) * sizeof(*r))))
		err = -ENOMEM;
	for (i = 0; !err && i < n; i++)
		for (k = 0; k < in[i]->nr_structs; k++)
			r[nr++] = (struct ref){ &in[i]->structs[k], i };
	so = err ? NULL : hm_arena_alloc(m.a, (nr + 1) * sizeof(*so));
	if (!err && !so)
		err = -ENOMEM;
	if (!err && nr)
		qsort(r, nr, sizeof(*r), by_struct);
	for (i = 0; !err && i < nr; i = k) {
		const hm_profile_struct *s0 = r[i].x;

		for (k = i + 1; k < nr; k++) {
			const hm_profile_struct *s = r[k].x;

			if (strcmp(s->name, s0->name) || s->kind != s0->kind)
				break;
		}
		memset(&so[p->nr_structs], 0, sizeof(*so));
		err = merge_struct(&m, &r[i], k - i, &so[p->nr_structs++], &cpus, &thr);
	}
	if (!err) {
		qsort(so, p->nr_structs, sizeof(*so), struct_order);
		p->structs = so;
	}
	free(r);
	free(cpus.v);
	free(thr.v);
	if (err) {
		hm_profile_free(p);
		return err;
	}
	*out = p;
	return 0;
}
