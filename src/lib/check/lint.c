/* lint: contention-prone members sharing a line, without any samples.
 *
 * A member is contention-prone when its type is (a typedef of) a lock or an
 * atomic, an array of them, or a struct that contains one.  Two of them on one
 * line bounce it between the CPUs that take them; one of them next to a
 * read-mostly member (a pointer, a const) makes every reader miss. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/check.h"
#include "check/check-int.h"
#include "base/diag.h"
#include "base/util.h"
#include "base/opts.h"

const char *const hm_lint_default_types[] = {
	/* locks */
	"spinlock_t", "raw_spinlock_t", "rwlock_t", "struct mutex", "struct rw_semaphore",
	"seqcount_t", "seqlock_t", "struct spinlock", "struct raw_spinlock",
	"pthread_mutex_t", "pthread_spinlock_t", "pthread_rwlock_t",
	/* atomics */
	"atomic_t", "atomic64_t", "atomic_long_t", "refcount_t", "_Atomic", "std::atomic",
	NULL,
};
/* Entries before this index are locks (weight 2), the rest atomics. */
#define NR_LOCK_TYPES 12

struct hmc_typeclass {
	const hm_types *t;
	const char *const *extra;
	size_t n;
	signed char *direct;	/* -1 unknown, else HMC_* */
	signed char *contains;	/* -1 unknown, else HMC_* */
	const char **why;
};

struct hmc_typeclass *hmc_typeclass_new(const hm_types *t, const char *const *extra)
{
	struct hmc_typeclass *tc = calloc(1, sizeof(*tc));

	if (!tc)
		return NULL;
	tc->t = t;
	tc->extra = extra;
	tc->n = hm_types_count(t);
	tc->direct = malloc(tc->n);
	tc->contains = malloc(tc->n);
	tc->why = calloc(tc->n, sizeof(char *));
	if (!tc->direct || !tc->contains || !tc->why) {
		hmc_typeclass_free(tc);
		return NULL;
	}
	memset(tc->direct, -1, tc->n);
	memset(tc->contains, -1, tc->n);
	return tc;
}

void hmc_typeclass_free(struct hmc_typeclass *tc)
{
	if (!tc)
		return;
	free(tc->direct);
	free(tc->contains);
	free(tc->why);
	free(tc);
}

/* Does a list entry name this type?  "struct X" entries match struct-like
 * types called X; bare entries match typedef names, and class names (C++
 * spells types without a tag). */
static int entry_matches(const char *e, const hm_type *ty)
{
	size_t tl;

	if (!ty->name)
		return 0;
	if (!strcmp(e, "std::atomic"))
		return ty->kind != HM_KIND_TYPEDEF && (!strncmp(ty->name, "atomic<", 7) ||
						       !strncmp(ty->name, "std::atomic<", 12));
	if (!strncmp(e, "struct ", 7) || !strncmp(e, "union ", 6) || !strncmp(e, "class ", 6)) {
		tl = strchr(e, ' ') - e + 1;
		return ty->kind != HM_KIND_TYPEDEF && !strcmp(e + tl, ty->name);
	}
	return !strcmp(e, ty->name);
}

static int match_name(struct hmc_typeclass *tc, const hm_type *ty, const char **why)
{
	const char *const *e;
	size_t i;

	for (i = 0; hm_lint_default_types[i]; i++) {
		if (entry_matches(hm_lint_default_types[i], ty)) {
			*why = hm_lint_default_types[i];
			return i < NR_LOCK_TYPES ? HMC_LOCK : HMC_ATOMIC;
		}
	}
	for (e = tc->extra; e && *e; e++) {
		if (entry_matches(*e, ty)) {
			*why = *e;
			return HMC_LOCK;
		}
	}
	return HMC_NONE;
}

/* Through typedefs, qualifiers and array dimensions to a named lock/atomic. */
static int direct(struct hmc_typeclass *tc, hm_type_id id0, const char **why)
{
	hm_type_id id = id0;
	int depth, r = HMC_NONE;

	if (id0 < tc->n && tc->direct[id0] >= 0) {
		*why = tc->why[id0];
		return tc->direct[id0];
	}
	*why = NULL;
	for (depth = 0; id != HM_TYPE_NONE && depth < 64; depth++) {
		const hm_type *ty = hm_types_get(tc->t, id);

		if (!ty)
			break;
		if (ty->kind == HM_KIND_TYPEDEF || hm_kind_is_record(ty->kind)) {
			r = match_name(tc, ty, why);
			if (r || ty->kind != HM_KIND_TYPEDEF)
				break;
		} else if (ty->kind == HM_KIND_ATOMIC) {
			r = HMC_ATOMIC;
			*why = "_Atomic";
			break;
		} else if (ty->kind != HM_KIND_CONST && ty->kind != HM_KIND_VOLATILE &&
			   ty->kind != HM_KIND_RESTRICT && ty->kind != HM_KIND_ARRAY) {
			break;
		}
		id = ty->target;
	}
	if (id0 < tc->n) {
		tc->direct[id0] = (signed char)r;
		tc->why[id0] = *why;
	}
	return r;
}

/* The struct-like type an id names through typedefs, const, volatile and
 * arrays, if it has a body; else NULL. */
static const hm_type *held_body(const hm_types *t, hm_type_id id)
{
	const hm_type *ty;
	unsigned hop = 0;

	/* the load checks end every such chain within 256 links */
	for (ty = hm_types_get(t, id);
	     ty && hop < 256 && (ty->kind == HM_KIND_TYPEDEF || ty->kind == HM_KIND_CONST ||
				 ty->kind == HM_KIND_VOLATILE || ty->kind == HM_KIND_ARRAY);
	     ty = hm_types_get(t, ty->target), hop++)
		;
	if (ty && hm_kind_is_record(ty->kind) && !ty->declaration)
		return ty;
	return NULL;
}

struct cframe {
	hm_type_id id;
	const hm_type *body;
	uint32_t i;		/* next member */
	int r;
	const char *why;
};

static int grow_frames(struct cframe **st, struct cframe *local, size_t *cap)
{
	struct cframe *n = *st == local ? malloc(*cap * 2 * sizeof(*n)) :
			   realloc(*st, *cap * 2 * sizeof(*n));

	if (!n)
		return 0;
	if (*st == local)
		memcpy(n, local, *cap * sizeof(*n));
	*st = n;
	*cap *= 2;
	return 1;
}

/* contains() of id when it needs no walk of members (returns 1 with *r and
 * *why set), else 0 with *body set: id is then marked as in progress, so a
 * cycle of members (corrupt input) ends there. */
static int contains_now(struct hmc_typeclass *tc, hm_type_id id, int *r, const char **why,
			const hm_type **body)
{
	*why = NULL;
	*r = HMC_NONE;
	if (id == HM_TYPE_NONE || id >= tc->n)
		return 1;
	if (tc->contains[id] >= 0) {
		*r = tc->contains[id];
		*why = tc->why[id];
		return 1;
	}
	if ((*r = direct(tc, id, why)))
		return 1;
	tc->contains[id] = HMC_NONE;
	tc->why[id] = NULL;
	*body = held_body(tc->t, id);
	return *body == NULL;
}

/* Whether a struct-like type (through typedefs, qualifiers, arrays) holds a
 * lock or atomic at any depth.  Depth-first with an explicit stack (nesting
 * depth is input-controlled), every type once per lint run. */
static int contains(struct hmc_typeclass *tc, hm_type_id id0, const char **why)
{
	struct cframe local[32], *st = local, *f;
	size_t sp = 0, cap = 32;
	const hm_type *body = NULL;
	int r;

	if (contains_now(tc, id0, &r, why, &body))
		return r;
	st[sp++] = (struct cframe){ id0, body, 0, HMC_NONE, NULL };
	while (sp) {
		const hm_member *m;
		const char *w;
		int d;

		f = &st[sp - 1];
		m = hm_types_members(tc->t, f->body);
		if (f->i < f->body->nr && f->r < HMC_LOCK) {
			if (m[f->i].flags & HM_MEMBER_STATIC) {
				f->i++;
				continue;
			}
			if (!contains_now(tc, m[f->i].type, &d, &w, &body)) {
				if (sp == cap && !grow_frames(&st, local, &cap)) {
					d = HMC_NONE;	/* out of memory: judged without it */
					w = NULL;
				} else {
					st[sp++] = (struct cframe){ m[f->i].type, body, 0, HMC_NONE, NULL };
					continue;
				}
			}
		} else {
			/* done: store, then hand the result to the parent */
			tc->contains[f->id] = (signed char)f->r;
			tc->why[f->id] = f->why;
			d = f->r;
			w = f->why;
			if (--sp == 0)
				break;
			f = &st[sp - 1];
		}
		if (d > f->r) {
			f->r = d;
			f->why = w;
		}
		f->i++;
	}
	if (st != local)
		free(st);
	*why = tc->why[id0];
	return tc->contains[id0];
}

static int is_array(const hm_types *t, hm_type_id id)
{
	const hm_type *ty;

	for (ty = hm_types_get(t, id); ty && (ty->kind == HM_KIND_TYPEDEF ||
		ty->kind == HM_KIND_CONST || ty->kind == HM_KIND_VOLATILE);
	     ty = hm_types_get(t, ty->target))
		;
	return ty && ty->kind == HM_KIND_ARRAY;
}

int hmc_hot_fields(struct hmc_typeclass *tc, const hm_layout *l, struct hmc_hot **out)
{
	const hm_field *f;
	struct hmc_hot *v = NULL;
	size_t n, i = 0, j, nv = 0, cap = 0;

	f = hm_layout_fields(l, &n);
	while (i < n) {
		const char *why;
		int w = direct(tc, f[i].type, &why);

		/* An array of structs is not expanded, nor is a leaf that a
		 * layout chose not to descend: judge them by what they hold. */
		if (!w && (is_array(tc->t, f[i].type) || (f[i].is_leaf && !f[i].nr_children)))
			w = contains(tc, f[i].type, &why);
		if (!w || !f[i].size) {
			i++;
			continue;
		}
		if (hm_grow((void **)&v, &cap, nv + 1, sizeof(*v))) {
			free(v);
			return -ENOMEM;
		}
		v[nv].field = (uint32_t)i;
		v[nv].weight = w;
		v[nv].why = why;
		nv++;
		for (j = i + 1; j < n && f[j].depth > f[i].depth; j++)
			;
		i = j;
	}
	*out = v;
	return (int)nv;
}

int hmc_read_mostly(const hm_types *t, hm_type_id id)
{
	const hm_type *ty;
	int depth;

	for (depth = 0; depth < 64 && (ty = hm_types_get(t, id)); depth++) {
		switch (ty->kind) {
		case HM_KIND_CONST:
		case HM_KIND_POINTER:
		case HM_KIND_REFERENCE:
		case HM_KIND_RVALUE_REFERENCE:
		case HM_KIND_PTR_TO_MEMBER:
			return 1;
		case HM_KIND_TYPEDEF:
		case HM_KIND_VOLATILE:
		case HM_KIND_RESTRICT:
			id = ty->target;
			break;
		default:
			return 0;
		}
	}
	return 0;
}

/* ---- the lint pass over one struct ---- */

static void type_name(const hm_types *t, hm_type_id id, char *buf, size_t len)
{
	if (hm_types_declare(t, id, NULL, buf, len) < 0)
		snprintf(buf, len, "?");
}

/* "    108    4  page_table_lock  spinlock_t" for each field. */
static char *detail_fields(const hm_layout *l, const uint32_t *idx, size_t n)
{
	const hm_types *t = hm_layout_types(l);
	const hm_field *f = hm_layout_fields(l, NULL);
	char *buf = NULL, ty[128];
	size_t len = 0, i, w = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	for (i = 0; i < n; i++)
		if (strlen(f[idx[i]].path) > w)
			w = strlen(f[idx[i]].path);
	for (i = 0; i < n; i++) {
		size_t room = 2 + 6 + 1 + 4 + 2 + w + 2 < 74 ? 74 - (2 + 6 + 1 + 4 + 2 + w + 2) : 12;

		type_name(t, f[idx[i]].type, ty, sizeof(ty));
		if (room < 12)
			room = 12;
		if (strlen(ty) > room)
			strcpy(ty + room - 3, "...");
		fprintf(m, "%s%6llu %4llu  %-*s  %s", i ? "\n" : "",
			(unsigned long long)f[idx[i]].offset, (unsigned long long)f[idx[i]].size,
			(int)w, f[idx[i]].path, ty);
	}
	fclose(m);
	return buf;
}

char *hmc_detail_fields(const hm_layout *l, const uint32_t *idx, size_t n)
{
	return detail_fields(l, idx, n);
}

/* ---- fields near a field ----
 *
 * A struct can have 100 000 members: lint must not test every hot field
 * against every other field.  Two fields may share a unit only if they lie
 * within one unit of each other, so the candidates, sorted by offset, are
 * searched in that window and only those are tested (hmc_may_share()). */
struct near {
	uint64_t off, size;
	uint32_t key;		/* what the caller knows it by, ascending in its order */
};

struct near_index {
	struct near *v;
	size_t n, cap;
	uint64_t max_size;
	uint32_t *keys;		/* query results */
	size_t nkeys, ckeys;
};

static int near_add(struct near_index *x, uint64_t off, uint64_t size, uint32_t key)
{
	if (hm_grow((void **)&x->v, &x->cap, x->n + 1, sizeof(*x->v)))
		return -ENOMEM;
	x->v[x->n++] = (struct near){ off, size, key };
	if (size > x->max_size)
		x->max_size = size;
	return 0;
}

static int near_cmp(const void *a, const void *b)
{
	const struct near *p = a, *q = b;

	if (p->off != q->off)
		return p->off < q->off ? -1 : 1;
	return p->key < q->key ? -1 : p->key > q->key;
}

static int key_cmp(const void *a, const void *b)
{
	uint32_t p = *(const uint32_t *)a, q = *(const uint32_t *)b;

	return p < q ? -1 : p > q;
}

static void near_sort(struct near_index *x)
{
	if (x->n > 1)
		qsort(x->v, x->n, sizeof(*x->v), near_cmp);
}

/* Keys above min_key of the entries that may share a unit with [off,
 * off+size), ascending, in x->keys. */
static int near_query(struct near_index *x, const struct hmc_geom *g, uint64_t off,
		      uint64_t size, uint32_t min_key)
{
	/* an entry may share only if it starts before off + size + unit and
	 * ends after off - unit: it starts after off - unit - max_size */
	uint64_t span = (uint64_t)g->unit + x->max_size, from = off > span ? off - span : 0;
	size_t lo = 0, hi = x->n;

	x->nkeys = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->v[mid].off < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < x->n && x->v[lo].off < off + size + g->unit; lo++) {
		const struct near *e = &x->v[lo];

		if (e->key <= min_key && min_key != UINT32_MAX)
			continue;
		if (!hmc_may_share(g, off, size, e->off, e->size))
			continue;
		if (hm_grow((void **)&x->keys, &x->ckeys, x->nkeys + 1, sizeof(*x->keys)))
			return -ENOMEM;
		x->keys[x->nkeys++] = e->key;
	}
	if (x->nkeys > 1)
		qsort(x->keys, x->nkeys, sizeof(*x->keys), key_cmp);
	return 0;
}

static void near_free(struct near_index *x)
{
	free(x->v);
	free(x->keys);
}

static int pair_finding(const hm_layout *l, const struct hmc_geom *g, const struct hmc_hot *h,
			size_t i, size_t j, hm_findings *out)
{
	const hm_field *f = hm_layout_fields(l, NULL);
	const hm_field *a = &f[h[i].field], *b = &f[h[j].field];
	uint32_t idx[2] = { h[i].field, h[j].field };
	hm_finding fi;
	char txt[128];
	int at0, r;

	at0 = hmc_share_text(l, g, a, b, txt, sizeof(txt));
	hmc_base(&fi, l, HM_SEV_WARNING, "lint-shared");
	fi.nr_members = 2;
	fi.members[0] = a->path;
	fi.members[1] = b->path;
	fi.line_first = a->line_first > b->line_first ? a->line_first : b->line_first;
	fi.line_last = a->line_last < b->line_last ? a->line_last : b->line_last;
	if (fi.line_last < fi.line_first)
		fi.line_last = fi.line_first;
	fi.score = 10.0 * (h[i].weight + h[j].weight) + at0;
	fi.detail = detail_fields(l, idx, 2);
	r = hm_findings_addf(out, &fi, "%s and %s %s", a->path, b->path, txt);
	free((char *)fi.detail);
	return r;
}

/* Every pair of hot fields that may share a unit, in field order. */
static int lint_pairs(const hm_layout *l, const struct hmc_geom *g, const struct hmc_hot *h,
		      size_t nh, hm_findings *out)
{
	const hm_field *f = hm_layout_fields(l, NULL);
	struct near_index x = { 0 };
	size_t i, k;
	int r = 0;

	for (i = 0; i < nh && !r; i++)
		r = near_add(&x, f[h[i].field].offset, f[h[i].field].size, (uint32_t)i);
	near_sort(&x);
	for (i = 0; i < nh && !r; i++) {
		r = near_query(&x, g, f[h[i].field].offset, f[h[i].field].size, (uint32_t)i);
		for (k = 0; k < x.nkeys && !r; k++)
			r = pair_finding(l, g, h, i, x.keys[k], out);
	}
	near_free(&x);
	return r;
}

static int lint_neighbours(const hm_layout *l, const struct hmc_geom *g,
			   const struct hmc_hot *h, size_t nh, const unsigned char *in_hot,
			   hm_finding *scratch, hm_findings *out)
{
	const hm_types *t = hm_layout_types(l);
	const hm_field *f;
	struct near_index x = { 0 };
	size_t n, i, k;
	int r = 0;

	f = hm_layout_fields(l, &n);
	/* only members of the struct itself: pointers inside an embedded
	 * list_head or work_struct are written */
	for (k = 0; k < n && !r; k++)
		if (!in_hot[k] && hmc_is_unit(&f[k], f) && f[k].size &&
		    hmc_read_mostly(t, f[k].type))
			r = near_add(&x, f[k].offset, f[k].size, (uint32_t)k);
	near_sort(&x);
	for (i = 0; i < nh && !r; i++) {
		const hm_field *a = &f[h[i].field];
		uint32_t idx[HM_FINDING_MAX_MEMBERS];
		size_t nr = 0, more = 0;

		idx[nr++] = h[i].field;
		if ((r = near_query(&x, g, a->offset, a->size, UINT32_MAX)))
			break;
		for (k = 0; k < x.nkeys; k++) {
			if (nr < HM_FINDING_MAX_MEMBERS)
				idx[nr++] = x.keys[k];
			else
				more++;
		}
		if (nr == 1)
			continue;
		hmc_base(scratch, l, HM_SEV_WARNING, "lint-read-mostly");
		scratch->nr_members = (unsigned)nr;
		for (k = 0; k < nr; k++)
			scratch->members[k] = f[idx[k]].path;
		scratch->line_first = a->line_first;
		scratch->line_last = a->line_last;
		scratch->score = 5.0 * h[i].weight;
		scratch->detail = detail_fields(l, idx, nr);
		r = hm_findings_addf(out, scratch, "%s (%s) shares a line with %zu read-mostly "
				     "member%s", a->path, h[i].why, nr - 1 + more,
				     nr - 1 + more > 1 ? "s" : "");
		free((char *)scratch->detail);
	}
	near_free(&x);
	return r;
}

/* Lint one struct into out. */
int hmc_lint_struct(struct hmc_typeclass *tc, const hm_layout *l,
		    const struct hm_check_opts *o, hm_findings *out)
{
	struct hmc_geom g;
	struct hmc_hot *h = NULL;
	unsigned char *in_hot;
	size_t n, i, j;
	hm_finding scratch;
	const hm_field *f = hm_layout_fields(l, &n);
	int nh, r;

	hmc_geom_init(&g, l, o, o->assume_aligned);
	nh = hmc_hot_fields(tc, l, &h);
	if (nh <= 0)
		return nh;
	in_hot = calloc(n ? n : 1, 1);
	if (!in_hot) {
		free(h);
		return -ENOMEM;
	}
	for (i = 0; i < (size_t)nh; i++) {
		j = h[i].field;
		in_hot[j] = 1;
		for (j++; j < n && f[j].depth > f[h[i].field].depth; j++)
			in_hot[j] = 1;
	}
	r = lint_pairs(l, &g, h, (size_t)nh, out);
	if (!r)
		r = lint_neighbours(l, &g, h, (size_t)nh, in_hot, &scratch, out);
	free(in_hot);
	free(h);
	return r;
}

static int lint_one(struct hmc_typeclass *tc, const hm_types *t, hm_type_id id,
		    const struct hm_check_opts *o, hm_findings *out)
{
	hm_layout *l = hmc_layout(t, id, o, o->assume_aligned);
	int r;

	if (!l)
		return errno == ENOMEM ? -ENOMEM : 0;
	r = hmc_lint_struct(tc, l, o, out);
	hm_layout_free(l);
	return r;
}

static int lint_run(const hm_types *t, const struct hm_check_opts *o, hm_findings *out)
{
	struct hmc_typeclass *tc = hmc_typeclass_new(t, o->contended_types);
	hm_type_id *ids;
	size_t i, n;
	int r = 0;

	if (!tc)
		return -ENOMEM;
	if (o->structs) {
		for (i = 0; o->structs[i] && !r; i++) {
			hm_type_id id = hm_types_find_struct(t, o->structs[i]);

			if (id == HM_TYPE_NONE) {
				const char *sim[3];
				size_t ns = hm_types_similar(t, o->structs[i], sim, 3), k;
				char buf[256] = "";

				for (k = 0; k < ns; k++)
					snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
						 "%s%s", k ? ", " : " (did you mean: ", sim[k]);
				r = hm_fail(ENOENT, "struct '%s' not found%s%s", o->structs[i],
					    buf, ns ? ")" : "");
				break;
			}
			r = lint_one(tc, t, id, o, out);
		}
	} else {
		n = hmc_sorted_structs(t, &ids);
		if (!ids)
			r = -ENOMEM;
		for (i = 0; i < n && !r; i++)
			r = lint_one(tc, t, ids[i], o, out);
		free(ids);
	}
	hmc_typeclass_free(tc);
	return r;
}

int hm_lint(const hm_types *t, const struct hm_check_opts *opts, hm_findings *out)
{
	struct hm_check_opts o;

	if (!opts || !HM_OPTS_VALID(opts, hm_check_opts))
		return -EINVAL;
	return lint_run(t, HM_OPTS_COPY(&o, opts, hm_check_opts), out);
}
