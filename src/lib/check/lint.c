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

/* The built-in contention-prone type names, NULL-terminated. */
static const char *const lint_default_types[] = {
	/* locks */
	"spinlock_t", "raw_spinlock_t", "rwlock_t", "struct mutex", "struct rw_semaphore",
	"seqcount_t", "seqlock_t", "struct spinlock", "struct raw_spinlock",
	"pthread_mutex_t", "pthread_spinlock_t", "pthread_rwlock_t",
	"struct percpu_rw_semaphore", "struct rt_mutex", "struct ww_mutex", "local_lock_t",
	"seqcount_spinlock_t", "seqcount_raw_spinlock_t", "seqcount_rwlock_t",
	"seqcount_mutex_t", "seqcount_latch_t",
	/* atomics */
	"atomic_t", "atomic64_t", "atomic_long_t", "refcount_t", "_Atomic", "std::atomic",
	NULL,
};
/* Entries before this index are locks (weight 2), the rest atomics. */
#define NR_LOCK_TYPES 21

struct hmi_typeclass {
	const hm_types *t;
	const char *const *extra;
	size_t n;
	signed char *direct;	/* -1 unknown, else HMC_* */
	signed char *contains;	/* -1 unknown, else HMC_* */
	const char **why;
};

struct hmi_typeclass *hmi_typeclass_new(const hm_types *t, const char *const *extra)
{
	struct hmi_typeclass *tc = calloc(1, sizeof(*tc));

	if (!tc)
		return NULL;
	tc->t = t;
	tc->extra = extra;
	tc->n = hm_types_count(t);
	tc->direct = malloc(tc->n);
	tc->contains = malloc(tc->n);
	tc->why = calloc(tc->n, sizeof(char *));
	if (!tc->direct || !tc->contains || !tc->why) {
		hmi_typeclass_free(tc);
		return NULL;
	}
	memset(tc->direct, -1, tc->n);
	memset(tc->contains, -1, tc->n);
	return tc;
}

void hmi_typeclass_free(struct hmi_typeclass *tc)
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

static int match_name(struct hmi_typeclass *tc, const hm_type *ty, const char **why)
{
	const char *const *e;
	size_t i;

	for (i = 0; lint_default_types[i]; i++) {
		if (entry_matches(lint_default_types[i], ty)) {
			*why = lint_default_types[i];
			return i < NR_LOCK_TYPES ? HMI_LOCK : HMI_ATOMIC;
		}
	}
	for (e = tc->extra; e && *e; e++) {
		if (entry_matches(*e, ty)) {
			*why = *e;
			return HMI_LOCK;
		}
	}
	return HMI_NONE;
}

/* Through typedefs, qualifiers and array dimensions to a named lock/atomic. */
static int direct(struct hmi_typeclass *tc, hm_type_id id0, const char **why)
{
	hm_type_id id = id0;
	int depth, r = HMI_NONE;

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
			r = HMI_ATOMIC;
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
static int contains_now(struct hmi_typeclass *tc, hm_type_id id, int *r, const char **why,
			const hm_type **body)
{
	*why = NULL;
	*r = HMI_NONE;
	if (id == HM_TYPE_NONE || id >= tc->n)
		return 1;
	if (tc->contains[id] >= 0) {
		*r = tc->contains[id];
		*why = tc->why[id];
		return 1;
	}
	if ((*r = direct(tc, id, why)))
		return 1;
	tc->contains[id] = HMI_NONE;
	tc->why[id] = NULL;
	*body = held_body(tc->t, id);
	return *body == NULL;
}

/* Whether a struct-like type (through typedefs, qualifiers, arrays) holds a
 * lock or atomic at any depth.  Depth-first with an explicit stack (nesting
 * depth is input-controlled), every type once per lint run. */
static int contains(struct hmi_typeclass *tc, hm_type_id id0, const char **why)
{
	struct cframe local[32], *st = local, *f;
	size_t sp = 0, cap = 32;
	const hm_type *body = NULL;
	int r;

	if (contains_now(tc, id0, &r, why, &body))
		return r;
	st[sp++] = (struct cframe){ id0, body, 0, HMI_NONE, NULL };
	while (sp) {
		const hm_member *m;
		const char *w;
		int d;

		f = &st[sp - 1];
		m = hm_types_members(tc->t, f->body);
		if (f->i < f->body->nr && f->r < HMI_LOCK) {
			if (m[f->i].flags & HM_MEMBER_STATIC) {
				f->i++;
				continue;
			}
			if (!contains_now(tc, m[f->i].type, &d, &w, &body)) {
				if (sp == cap && !grow_frames(&st, local, &cap)) {
					d = HMI_NONE;	/* out of memory: judged without it */
					w = NULL;
				} else {
					st[sp++] = (struct cframe){ m[f->i].type, body, 0, HMI_NONE, NULL };
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

int hmi_hot_fields(struct hmi_typeclass *tc, const hm_layout *l, struct hmi_hot **out)
{
	const hm_field *f;
	struct hmi_hot *v = NULL;
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

int hmi_type_unit(struct hmi_typeclass *tc, hm_type_id id, const char **why)
{
	return contains(tc, id, why);
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

/* --assume-aligned, or `placement line-aligned` for this struct in the rules
 * (a slab cache made with SLAB_HWCACHE_ALIGN): its lines are then exact,
 * and no pair is a finding only by another placement. */
static int line_aligned(const struct hm_check_opts *o, const char *name)
{
	return o->assume_aligned || hm_ruleset_line_aligned(o->rules, name);
}

static void type_name(const hm_types *t, hm_type_id id, char *buf, size_t len)
{
	if (hm_types_declare(t, id, NULL, buf, len) < 0)
		snprintf(buf, len, "?");
}

/* "    108    4  page_table_lock  spinlock_t" for each field. */
static char *detail_fields(const hm_layout *l, const uint32_t *idx, size_t n)
{
	const hm_types *t = hmi_layout_types(l);
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

/* ---- one finding per (struct, line) ----
 *
 * Every pair of contention-prone members that may share a line, and every
 * such member with read-mostly members on its line, is a relation counted on
 * one line (the one they share with the object at a line boundary, else the
 * first of the two they straddle).  The relations of a line make one
 * finding, scored so that lines rank by what they cost: each pair adds
 * wa * wb (a lock weighs 2, an atomic 1), doubled when the pair shares a line
 * wherever the object starts; each contention-prone member with read-mostly
 * neighbours adds its weight.  hitmap-lint(1) states the same rule.
 *
 * A pair held by one member whose type is a named struct (mm->mmap_lock's
 * count and wait_lock, dev.power's lock and usage_count) is that struct's
 * finding: it is reported when that struct is linted, once, not again in
 * every struct embedding it — unless it is only the embedding (an aligned
 * struct placed off a line boundary) that brings the two together.
 *
 * Two members of different alternatives of one union are no relation: the
 * union holds one of them at a time (alternatives()). */

struct lrel {
	uint32_t line;
	uint32_t hot;		/* index in h[] */
	uint32_t other;		/* index in h[] (pair), else a read-mostly field */
	unsigned pair : 1;
	unsigned certain : 1;	/* shares at every start of the object */
	unsigned at0 : 1;	/* shares with the object at a line boundary */
};

/* Every start of the object puts a byte of each range in one unit. */
static int always_share(const struct hmc_geom *g, uint64_t a, uint64_t as, uint64_t b,
			uint64_t bs)
{
	uint64_t s;

	if (!as || !bs)
		return 0;
	for (s = 0; s < g->unit; s += g->step) {
		uint64_t a0 = (s + a) / g->unit, a1 = (s + a + as - 1) / g->unit;
		uint64_t b0 = (s + b) / g->unit, b1 = (s + b + bs - 1) / g->unit;

		if (!(a0 <= b1 && b0 <= a1))
			return 0;
	}
	return 1;
}

/* The line a relation is counted on, the object at a line boundary: the
 * line the two share; when only another start of the object brings them
 * together, for a pair the last line of the earlier one (the boundary
 * they would share), for a contention-prone member a and a read-mostly
 * neighbour b the line of a that b is nearest (a member at 80 with a
 * pointer at 24 is on line 1, not 0).  Each finding is one line. */
static void rel_line(const hm_field *a, const hm_field *b, int pair, struct lrel *r)
{
	uint32_t lf = a->line_first > b->line_first ? a->line_first : b->line_first;
	uint32_t ll = a->line_last < b->line_last ? a->line_last : b->line_last;

	r->at0 = lf <= ll;
	if (r->at0)
		r->line = lf;
	else if (pair)
		r->line = ll;
	else
		r->line = b->offset < a->offset ? a->line_first : a->line_last;
}

/* The type a member is through typedefs and qualifiers (not arrays), NULL
 * for none; *id becomes its id. */
static const hm_type *strip(const hm_types *t, hm_type_id *id)
{
	const hm_type *ty;
	unsigned hop = 0;

	for (ty = hm_types_get(t, *id);
	     ty && hop < 256 && (ty->kind == HM_KIND_TYPEDEF || ty->kind == HM_KIND_CONST ||
				 ty->kind == HM_KIND_VOLATILE);
	     *id = ty->target, ty = hm_types_get(t, *id), hop++)
		;
	return ty;
}

/* The named struct type a member is (through typedefs and qualifiers, not
 * arrays), or HM_TYPE_NONE. */
static hm_type_id named_record(const hm_types *t, hm_type_id id)
{
	const hm_type *ty = strip(t, &id);

	if (ty && hm_kind_is_record(ty->kind) && !ty->declaration && ty->name)
		return id;
	return HM_TYPE_NONE;
}

/* Whether fields a and b lie in two different members of one union (the
 * struct linted may be the union): the union holds one of them at a time,
 * so they never contend, whatever bytes they share.  Members of one
 * alternative (a struct in the union) coexist. */
static int alternatives(const hm_layout *l, uint32_t a, uint32_t b)
{
	const hm_field *f = hm_layout_fields(l, NULL);
	const hm_type *ty;
	hm_type_id id;
	uint32_t p;

	if (hmc_is_ancestor(l, a, b) || hmc_is_ancestor(l, b, a))
		return 0;
	/* their innermost common container: a's first ancestor holding b */
	for (p = f[a].parent; p != HM_FIELD_NONE && !hmc_is_ancestor(l, p, b); p = f[p].parent)
		;
	id = p == HM_FIELD_NONE ? hm_layout_type(l) : f[p].type;
	ty = strip(hmi_layout_types(l), &id);
	return ty && ty->kind == HM_KIND_UNION;
}

uint32_t hmc_owner(const hm_layout *l, uint32_t a, uint32_t b, hm_type_id *tid)
{
	const hm_field *f = hm_layout_fields(l, NULL);
	const hm_types *t = hmi_layout_types(l);
	uint32_t p;

	for (p = f[a].parent; p != HM_FIELD_NONE; p = f[p].parent) {
		if (!f[p].name || !hmc_is_ancestor(l, p, b))
			continue;
		if ((*tid = named_record(t, f[p].type)) != HM_TYPE_NONE)
			return p;
	}
	*tid = HM_TYPE_NONE;
	return HM_FIELD_NONE;
}

static int owned_add(struct hmc_owned *ow, hm_type_id id)
{
	size_t i;

	if (!ow)
		return 0;
	for (i = 0; i < ow->n; i++)
		if (ow->v[i] == id)
			return 0;
	if (hm_grow((void **)&ow->v, &ow->cap, ow->n + 1, sizeof(*ow->v)))
		return -ENOMEM;
	ow->v[ow->n++] = id;
	return 0;
}

/* Whether the pair is the finding of a struct embedded in this one. */
static int embedded_pair(const hm_layout *l, const struct hmc_geom *g,
			 const struct hm_check_opts *o, uint32_t a, uint32_t b,
			 struct hmc_owned *ow, int *err)
{
	const hm_field *f = hm_layout_fields(l, NULL);
	hm_type_id tid;
	uint32_t e = hmc_owner(l, a, b, &tid);
	struct hmc_geom gt = *g;
	unsigned al;

	if (e == HM_FIELD_NONE)
		return 0;
	al = hm_types_alignof(hmi_layout_types(l), tid);
	gt.step = line_aligned(o, hm_types_get(hmi_layout_types(l), tid)->name) ? gt.line :
		  al ? (al < gt.unit ? al : gt.unit) : 1;
	if (!hmc_may_share(&gt, f[a].offset - f[e].offset, f[a].size,
			   f[b].offset - f[e].offset, f[b].size))
		return 0;
	*err = owned_add(ow, tid);
	return 1;
}

static int rel_add(struct lrel **v, size_t *n, size_t *cap, const struct lrel *r)
{
	if (hm_grow((void **)v, cap, *n + 1, sizeof(**v)))
		return -ENOMEM;
	(*v)[(*n)++] = *r;
	return 0;
}

/* Pairs of contention-prone fields that may share a unit, in field order. */
static int lint_pairs(const hm_layout *l, const struct hmc_geom *g,
		      const struct hm_check_opts *o, const struct hmi_hot *h, size_t nh,
		      struct hmc_owned *ow, struct lrel **rv, size_t *nr, size_t *cr)
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
		for (k = 0; k < x.nkeys && !r; k++) {
			const hm_field *a = &f[h[i].field], *b = &f[h[x.keys[k]].field];
			struct lrel rel = { .hot = (uint32_t)i, .other = x.keys[k], .pair = 1 };

			if (alternatives(l, h[i].field, h[x.keys[k]].field) ||
			    embedded_pair(l, g, o, h[i].field, h[x.keys[k]].field, ow, &r))
				continue;
			rel_line(a, b, 1, &rel);
			rel.certain = always_share(g, a->offset, a->size, b->offset, b->size);
			r = rel_add(rv, nr, cr, &rel);
		}
	}
	near_free(&x);
	return r;
}

/* Each contention-prone field with the struct's own read-mostly members
 * (not pointers inside an embedded list_head or work_struct: those are
 * written) that may share its line. */
static int lint_neighbours(const hm_layout *l, const struct hmc_geom *g,
			   const struct hmi_hot *h, size_t nh, const unsigned char *in_hot,
			   struct lrel **rv, size_t *nr, size_t *cr)
{
	const hm_types *t = hmi_layout_types(l);
	const hm_field *f;
	struct near_index x = { 0 };
	size_t n, i, k;
	int r = 0;

	f = hm_layout_fields(l, &n);
	for (k = 0; k < n && !r; k++)
		if (!in_hot[k] && hmc_is_unit(&f[k], f) && f[k].size &&
		    hmc_read_mostly(t, f[k].type))
			r = near_add(&x, f[k].offset, f[k].size, (uint32_t)k);
	near_sort(&x);
	for (i = 0; i < nh && !r; i++) {
		const hm_field *a = &f[h[i].field];

		if ((r = near_query(&x, g, a->offset, a->size, UINT32_MAX)))
			break;
		for (k = 0; k < x.nkeys && !r; k++) {
			struct lrel rel = { .hot = (uint32_t)i, .other = x.keys[k] };

			if (alternatives(l, h[i].field, x.keys[k]))
				continue;
			rel_line(a, &f[x.keys[k]], 0, &rel);
			r = rel_add(rv, nr, cr, &rel);
		}
	}
	near_free(&x);
	return r;
}

static int rel_cmp(const void *pa, const void *pb)
{
	const struct lrel *p = pa, *q = pb;

	if (p->line != q->line)
		return p->line < q->line ? -1 : 1;
	if (p->pair != q->pair)
		return p->pair ? -1 : 1;
	if (p->hot != q->hot)
		return p->hot < q->hot ? -1 : 1;
	return p->other < q->other ? -1 : p->other > q->other;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t p = *(const uint32_t *)a, q = *(const uint32_t *)b;

	return p < q ? -1 : p > q;
}

/* Sort and drop repeats; returns the new count. */
static size_t uniq_u32(uint32_t *v, size_t n)
{
	size_t i, w = 0;

	if (n > 1)
		qsort(v, n, sizeof(*v), u32_cmp);
	for (i = 0; i < n; i++)
		if (!w || v[w - 1] != v[i])
			v[w++] = v[i];
	return w;
}

static const char *weight_name(int w)
{
	return w == HMI_LOCK ? "lock" : "atomic";
}

/* One line's relations r[0..nr) into one finding. */
static int line_finding(const hm_layout *l, const struct hmc_geom *g,
			const struct hm_check_opts *o, const struct hmi_hot *h,
			const struct lrel *r, size_t nr, uint32_t *hot, uint32_t *rm,
			hm_findings *out)
{
	const hm_field *f = hm_layout_fields(l, NULL);
	size_t i, nhot = 0, nrm = 0, npairs = 0, nlock = 0, natom = 0, k, shown;
	int any_at0 = 0, r2 = 0;
	double score = 0;
	char *names = NULL, *detail = NULL;
	size_t nl = 0, dl = 0;
	FILE *m;
	hm_finding fi;

	for (i = 0; i < nr; i++) {
		hot[nhot++] = r[i].hot;
		if (r[i].pair) {
			hot[nhot++] = r[i].other;
			npairs++;
			score += (double)h[r[i].hot].weight * h[r[i].other].weight *
				 (r[i].certain ? 2 : 1);
			any_at0 |= r[i].at0;
		} else {
			rm[nrm++] = r[i].other;
		}
	}
	nhot = uniq_u32(hot, nhot);
	nrm = uniq_u32(rm, nrm);
	if (!npairs)
		any_at0 = 1;	/* a member and its readers: counted where it starts */
	for (i = 0; i < nhot; i++) {
		if (h[hot[i]].weight == HMI_LOCK)
			nlock++;
		else
			natom++;
	}
	/* a member's read-mostly neighbours add its weight once */
	for (i = 0; i < nr; i++)
		if (!r[i].pair && (i == 0 || r[i - 1].pair || r[i - 1].hot != r[i].hot))
			score += h[r[i].hot].weight;
	hmc_base(&fi, l, HM_SEV_WARNING, npairs ? "lint-shared" : "lint-read-mostly");
	fi.line_first = fi.line_last = r[0].line;
	fi.score = score;
	for (i = 0; i < nhot && fi.nr_members < HM_FINDING_MAX_MEMBERS; i++)
		fi.members[fi.nr_members++] = f[h[hot[i]].field].path;
	if (!npairs)	/* suggest reads members[1..] as the readers */
		for (i = 0; i < nrm && fi.nr_members < HM_FINDING_MAX_MEMBERS; i++)
			fi.members[fi.nr_members++] = f[rm[i]].path;
	if (!(m = open_memstream(&names, &nl)))
		return -ENOMEM;
	/* the locks by name, all of them, then atomics up to three names in
	 * all: a lock is what a reader acts on, never one of "N more" */
	shown = nhot > 4 ? (nlock > 3 ? nlock : 3) : nhot;
	if (shown + 1 == nhot)
		shown = nhot;
	for (k = 0, i = 0; i < nhot && k < shown; i++) {
		if (h[hot[i]].weight != HMI_LOCK)
			continue;
		fprintf(m, "%s%s", k ? (k + 1 == nhot ? " and " : ", ") : "",
			f[h[hot[i]].field].path);
		k++;
	}
	for (i = 0; i < nhot && k < shown; i++) {
		if (h[hot[i]].weight == HMI_LOCK)
			continue;
		fprintf(m, "%s%s", k ? (k + 1 == nhot ? " and " : ", ") : "",
			f[h[hot[i]].field].path);
		k++;
	}
	if (shown < nhot)
		fprintf(m, " and %zu more atomic%s", nhot - shown, nhot - shown == 1 ? "" : "s");
	if (npairs)
		fprintf(m, " (%zu lock%s, %zu atomic%s, %zu pair%s)", nlock, nlock == 1 ? "" : "s",
			natom, natom == 1 ? "" : "s", npairs, npairs == 1 ? "" : "s");
	else if (nhot > 1)
		fprintf(m, " (%zu lock%s, %zu atomic%s)", nlock, nlock == 1 ? "" : "s",
			natom, natom == 1 ? "" : "s");
	else
		fprintf(m, " (%s)", h[hot[0]].why);
	if (nrm)
		fprintf(m, "%s %zu read-mostly member%s", npairs ? "," : " next to", nrm,
			nrm == 1 ? "" : "s");
	fclose(m);
	if (o->explain) {
		uint32_t *idx = malloc((nhot + nrm) * sizeof(*idx));

		if (!idx || !(m = open_memstream(&detail, &dl))) {
			free(idx);
			free(names);
			return -ENOMEM;
		}
		for (i = 0; i < nhot; i++)
			idx[i] = h[hot[i]].field;
		for (i = 0; i < nrm; i++)
			idx[nhot + i] = rm[i];
		k = uniq_u32(idx, nhot + nrm);	/* field order is offset order */
		fi.detail = detail_fields(l, idx, k);
		fprintf(m, "%s", fi.detail ? fi.detail : "");
		free((char *)fi.detail);
		free(idx);
		for (i = 0; i < nr; i++) {
			const struct hmi_hot *a = &h[r[i].hot];

			if (r[i].pair)
				fprintf(m, "\npair %s + %s: %s + %s, +%d%s", f[a->field].path,
					f[h[r[i].other].field].path, weight_name(a->weight),
					weight_name(h[r[i].other].weight),
					a->weight * h[r[i].other].weight * (r[i].certain ? 2 : 1),
					r[i].certain ? " (wherever the object starts)" :
					r[i].at0 ? "" : " (by placement)");
			else if (i == 0 || r[i - 1].pair || r[i - 1].hot != r[i].hot)
				fprintf(m, "\n%s beside read-mostly members: +%d",
					f[a->field].path, a->weight);
		}
		fclose(m);
		fi.detail = detail;
	}
	if (any_at0)
		r2 = hm_findings_addf(out, &fi, "cacheline %u: %s; score %g", r[0].line, names,
				      score);
	else
		r2 = hm_findings_addf(out, &fi, "cacheline %u by placement (alignment %u): "
				      "%s; score %g", r[0].line, hm_layout_summary(l)->alignment,
				      names, score);
	(void)g;
	free(names);
	free(detail);
	return r2;
}

/* Lint one struct into out. */
int hmc_lint_struct(struct hmi_typeclass *tc, const hm_layout *l,
		    const struct hm_check_opts *o, struct hmc_owned *ow, hm_findings *out)
{
	struct hmc_geom g;
	struct hmi_hot *h = NULL;
	struct lrel *rv = NULL;
	unsigned char *in_hot;
	uint32_t *hot = NULL, *rm = NULL;
	size_t n, i, j, nr = 0, cr = 0;
	const hm_field *f = hm_layout_fields(l, &n);
	int nh, r;

	hmc_geom_init(&g, l, o, line_aligned(o, hmi_layout_name(l)));
	nh = hmi_hot_fields(tc, l, &h);
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
	r = lint_pairs(l, &g, o, h, (size_t)nh, ow, &rv, &nr, &cr);
	if (!r)
		r = lint_neighbours(l, &g, h, (size_t)nh, in_hot, &rv, &nr, &cr);
	if (!r && nr) {
		qsort(rv, nr, sizeof(*rv), rel_cmp);
		hot = malloc(2 * nr * sizeof(*hot));
		rm = malloc(nr * sizeof(*rm));
		if (!hot || !rm)
			r = -ENOMEM;
	}
	for (i = 0; !r && i < nr; i = j) {
		for (j = i + 1; j < nr && rv[j].line == rv[i].line; j++)
			;
		r = line_finding(l, &g, o, h, rv + i, j - i, hot, rm, out);
	}
	free(hot);
	free(rm);
	free(rv);
	free(in_hot);
	free(h);
	return r;
}

static int lint_one(struct hmi_typeclass *tc, const hm_types *t, hm_type_id id,
		    const struct hm_check_opts *o, struct hmc_owned *ow, hm_findings *out)
{
	const hm_type *ty = hm_types_get(t, id);
	hm_layout *l = hmc_layout(t, id, o, line_aligned(o, ty ? ty->name : NULL));
	int r;

	if (!l)
		return errno == ENOMEM ? -ENOMEM : 0;
	r = hmc_lint_struct(tc, l, o, ow, out);
	hm_layout_free(l);
	return r;
}

/* The record an id names through typedefs, qualifiers and arrays, if it
 * has a body; else HM_TYPE_NONE. */
static hm_type_id body_id(const hm_types *t, hm_type_id id)
{
	const hm_type *ty;
	unsigned hop = 0;

	for (ty = hm_types_get(t, id);
	     ty && hop < 256 && (ty->kind == HM_KIND_TYPEDEF || ty->kind == HM_KIND_CONST ||
				 ty->kind == HM_KIND_VOLATILE || ty->kind == HM_KIND_ARRAY);
	     id = ty->target, ty = hm_types_get(t, id), hop++)
		;
	return ty && hm_kind_is_record(ty->kind) && !ty->declaration ? id : HM_TYPE_NONE;
}

/* Mark in unit[] every struct that is a lock or atomic type or lies inside
 * one (struct rw_semaphore, and the struct qspinlock and struct
 * optimistic_spin_queue in it): a lock is a unit, its internals are no one's
 * to rearrange, so those structs are not linted on their own. */
static int mark_units(struct hmi_typeclass *tc, unsigned char *unit)
{
	hm_type_id *st = NULL, id;
	size_t sp = 0, cap = 0, i;
	const char *why;

	for (i = 0; i < tc->n; i++) {
		const hm_type *ty = hm_types_get(tc->t, (hm_type_id)i);

		if (!ty || (ty->kind != HM_KIND_TYPEDEF && !hm_kind_is_record(ty->kind)) ||
		    !direct(tc, (hm_type_id)i, &why))
			continue;
		if (hm_grow((void **)&st, &cap, sp + 1, sizeof(*st))) {
			free(st);
			return -ENOMEM;
		}
		st[sp++] = (hm_type_id)i;
		while (sp) {
			const hm_type *b;
			const hm_member *m;

			id = body_id(tc->t, st[--sp]);
			if (id == HM_TYPE_NONE || id >= tc->n || unit[id])
				continue;
			unit[id] = 1;
			b = hm_types_get(tc->t, id);
			m = hm_types_members(tc->t, b);
			if (hm_grow((void **)&st, &cap, sp + b->nr, sizeof(*st))) {
				free(st);
				return -ENOMEM;
			}
			for (uint32_t k = 0; k < b->nr; k++)
				st[sp++] = m[k].type;
		}
	}
	free(st);
	return 0;
}

static int lint_run(const hm_types *t, const struct hm_check_opts *o, hm_findings *out)
{
	struct hmi_typeclass *tc = hmi_typeclass_new(t, o->contended_types);
	struct hmc_owned ow = { 0 };
	hm_type_id *ids;
	unsigned char *unit = NULL;
	size_t i, n, nnamed;
	int r = 0;

	if (!tc)
		return -ENOMEM;
	if (o->structs) {
		/* the named structs first, then the structs embedded in them
		 * that declare some of their pairs (each once) */
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
			r = owned_add(&ow, id);
		}
		nnamed = ow.n;
		/* the structs named are linted as asked; those they embed
		 * only when they are not a lock's or an atomic's insides */
		unit = calloc(tc->n ? tc->n : 1, 1);
		if (!unit || (r = mark_units(tc, unit)))
			r = r ? r : -ENOMEM;
		for (i = 0; i < ow.n && !r; i++)
			if (i < nnamed || ow.v[i] >= tc->n || !unit[ow.v[i]])
				r = lint_one(tc, t, ow.v[i], o, &ow, out);
	} else {
		n = hmc_sorted_structs(t, &ids);
		unit = calloc(tc->n ? tc->n : 1, 1);
		if (!ids || !unit || (r = mark_units(tc, unit)))
			r = r ? r : -ENOMEM;
		for (i = 0; i < n && !r; i++)
			if (ids[i] >= tc->n || !unit[ids[i]])
				r = lint_one(tc, t, ids[i], o, NULL, out);
		free(ids);
	}
	free(unit);
	free(ow.v);
	hmi_typeclass_free(tc);
	return r;
}

int hm_lint(const hm_types *t, const struct hm_check_opts *opts, hm_findings *out)
{
	struct hm_check_opts o;

	if (HM_OPTS_TAKE(&o, opts, hm_check_opts))
		return -EINVAL;
	return lint_run(t, &o, out);
}
