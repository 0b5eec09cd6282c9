/* Instances and their containers.  Attribution by instruction names a heap
 * object by the type its pointer had at the sampled IP: glibc's
 * pthread_mutex_lock() sees a `pthread_mutex_t *`, the caller that embeds
 * the mutex a `struct outer *`.  Every such instance (type, base, size) is
 * noted here; before the verdicts, a row whose instance lies inside another
 * instance is renamed by the outer one (`outer.lock.__data.__lock`), but
 * only when the outer type's layout has a member of the inner type at
 * exactly that offset.  Inside another instance without such a member, the
 * row keeps its own type and is marked as in an unknown container: what
 * holds it is not known, and no guess is made.
 *
 * And explicit objects: a type the user places at an address
 * (hm_attr_add_object()) names the samples inside it. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attr/attribute-int.h"
#include "base/diag.h"
#include "heat/heat-int.h"

#define LIFT_DEPTH 8	/* containers of containers followed */

struct attr_inst {
	const char *object;	/* "TYPE@0xBASE", one per instance; lifting
				 * finds an instance by the name's bytes (a
				 * row's may be the heat's copy) */
	const char *sname;
	struct binent *b;	/* whose types have record id: loaded when
				 * lifting needs them (the run may have
				 * answered from the cache without them) */
	hm_type_id id;
	uint64_t base, size;
};

/* The instances by (struct, base): the name an instance goes by is a
 * function of the two, so a sample on an instance seen before needs no
 * formatting and no string hashing.  sname is interned: equal names are
 * one pointer.  A slot has a tag (a byte of the key's hash) beside the
 * index + 1 of its instance: a probe reads the tags, and an instance only
 * when its tag agrees (most samples of a page-fault recording are on an
 * instance not seen yet, whose probes would each be a cache miss). */
static uint64_t inst_hash(const char *sname, uint64_t base)
{
	return hm_hash_u64(base ^ ((uint64_t)(uintptr_t)sname << 20));
}

static uint8_t inst_tag(uint64_t hash)
{
	return (uint8_t)(hash >> 56) | 1;
}

/* Instances are kept in blocks of INST_BLK: growing moves none (a
 * doubled array was copied, and its new pages touched, each time). */
#define INST_BLK 4096

static struct attr_inst *inst_at(const hm_attr *a, size_t i)
{
	return &a->strat.inst_blk[i / INST_BLK][i % INST_BLK];
}

/* Twice the slots, filled in the instances' order (read one after the
 * other, not one cache miss each in the old table's order). */
static int inst_grow(hm_attr *a)
{
	size_t n = a->strat.inst_slots ? a->strat.inst_slots * 2 : 256, i;
	uint32_t *v = malloc(n * sizeof(*v));
	uint8_t *g = calloc(n, sizeof(*g));

	if (!v || !g) {
		free(v);
		free(g);
		return -ENOMEM;
	}
	for (i = 0; i < a->strat.ninsts; i++) {
		const struct attr_inst *x = inst_at(a, i);
		uint64_t h = inst_hash(x->sname, x->base);
		size_t j;

		for (j = h & (n - 1); g[j]; j = (j + 1) & (n - 1))
			;
		v[j] = (uint32_t)i + 1;
		g[j] = inst_tag(h);
	}
	free(a->strat.insts);
	free(a->strat.inst_tags);
	a->strat.insts = v;
	a->strat.inst_tags = g;
	a->strat.inst_slots = n;
	return 0;
}

size_t attr_inst_format(char *buf, size_t size, const char *sname, uint64_t base)
{
	static const char hex[] = "0123456789abcdef";
	/* hex digits: one for 0 */
	size_t n = strlen(sname), d = base ? (size_t)(67 - __builtin_clzll(base)) / 4 : 1;

	if (n + 3 + d >= size) {	/* truncated: as snprintf does it */
		snprintf(buf, size, "%s@0x%" PRIx64, sname, base);
		return strlen(buf);
	}
	memcpy(buf, sname, n);
	buf[n++] = '@';
	buf[n++] = '0';
	buf[n++] = 'x';
	for (size_t i = d; i-- > 0; base >>= 4)
		buf[n + i] = hex[base & 15];
	n += d;
	buf[n] = 0;
	return n;
}

const char *attr_inst_name(hm_attr *a, const char *sname, struct binent *b, hm_type_id id,
			   uint64_t base, uint64_t size)
{
	struct attr_inst *x;
	uint64_t h = inst_hash(sname, base);
	uint8_t tag = inst_tag(h);
	char obj[300];
	size_t j, mask;

	/* The samples of one object tend to come together: the instance
	 * named last, before a probe that is a cache miss or two. */
	x = (struct attr_inst *)a->strat.inst_last;
	if (x && x->base == base && x->sname == sname)
		return x->object;
	if (2 * (a->strat.ninsts + 1) > a->strat.inst_slots && inst_grow(a))
		return NULL;
	mask = a->strat.inst_slots - 1;
	for (j = h & mask; a->strat.inst_tags[j]; j = (j + 1) & mask) {
		if (a->strat.inst_tags[j] != tag)
			continue;
		x = inst_at(a, a->strat.insts[j] - 1);
		if (x->base == base && x->sname == sname) {
			a->strat.inst_last = x;
			return x->object;
		}
	}
	if (a->strat.ninsts >= UINT32_MAX - 1)
		return NULL;
	if (a->strat.ninsts / INST_BLK == a->strat.inst_nblk) {
		size_t nb = a->strat.inst_nblk;
		struct attr_inst **v = realloc(a->strat.inst_blk, (nb + 1) * sizeof(*v));

		if (!v)
			return NULL;
		a->strat.inst_blk = v;
		if (!(v[nb] = malloc(INST_BLK * sizeof(**v))))
			return NULL;
		a->strat.inst_nblk++;
	}
	x = inst_at(a, a->strat.ninsts);
	/* Not interned: this table makes it the one name of its instance.
	 * Another strategy's object of the same name (an explicit object,
	 * a slab object) is another pointer; what tells rows apart compares
	 * names by their bytes (heat_borrow_objects()). */
	*x = (struct attr_inst){ NULL, sname, b, id, base, size };
	x->object = hm_arena_strndup(&a->memo.rec_arena, obj,
				     attr_inst_format(obj, sizeof(obj), sname, base));
	if (!x->object)
		return NULL;
	a->strat.insts[j] = (uint32_t)(a->strat.ninsts + 1);
	a->strat.inst_tags[j] = tag;
	a->strat.ninsts++;
	a->strat.inst_last = x;
	return x->object;
}

/* An instance as lifting searches them: sorted by base, the key beside
 * the entry (a binary search reads no entry). */
struct lift_inst {
	uint64_t base, size;
	const struct attr_inst *x;
};

/* The instances by name: the rows keep the heat's copies of the names, so
 * an instance is found from a row by the name's bytes (open addressing,
 * nslots a power of two). */
struct inst_names {
	const struct attr_inst **v;
	size_t nslots;
};

static size_t name_hash(const char *object)
{
	return (size_t)hm_hash_bytes(object, strlen(object), 0);
}

static int names_init(struct inst_names *t, const struct lift_inst *insts, size_t n)
{
	t->nslots = 16;
	while (t->nslots < 2 * n)
		t->nslots *= 2;
	t->v = calloc(t->nslots, sizeof(*t->v));
	if (!t->v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t j = name_hash(insts[i].x->object) & (t->nslots - 1);

		while (t->v[j])
			j = (j + 1) & (t->nslots - 1);
		t->v[j] = insts[i].x;
	}
	return 0;
}

/* The instance called object, or NULL (names are unique: each is an
 * interned string noted once). */
static const struct attr_inst *inst_named(const struct inst_names *t, const char *object)
{
	size_t j;

	if (!object)
		return NULL;
	for (j = name_hash(object) & (t->nslots - 1); t->v[j]; j = (j + 1) & (t->nslots - 1))
		if (!strcmp(t->v[j]->object, object))
			return t->v[j];
	return NULL;
}

/* Whether type id (through its typedefs and qualifiers) is called name:
 * the typedef a member is declared with, or the record's own name. */
static int named(const hm_types *t, hm_type_id id, const char *name)
{
	for (unsigned hop = 0; hop < 64 && id; hop++) {
		const hm_type *ty = hm_types_get(t, id);

		if (!ty)
			return 0;
		if (ty->name && !strcmp(ty->name, name) &&
		    (ty->kind == HM_KIND_TYPEDEF || hm_kind_is_record(ty->kind)))
			return 1;
		if (ty->kind != HM_KIND_TYPEDEF && ty->kind != HM_KIND_CONST &&
		    ty->kind != HM_KIND_VOLATILE && ty->kind != HM_KIND_ATOMIC)
			return 0;
		id = ty->target;
	}
	return 0;
}

/* The path of a member of record id at byte off whose type is the record
 * `name` of `size` bytes, into sb: 1 found, 0 not.  Arrays are not
 * entered (which element is the address's, the layout alone says). */
static int embed_path(const hm_types *t, hm_type_id id, uint64_t off, const char *name,
		      uint64_t size, hm_sbuf *sb, unsigned depth)
{
	const hm_type *ty = hm_types_get(t, hm_types_resolve(t, id));
	const hm_member *m;

	if (!ty || !hm_kind_is_record(ty->kind) || depth > HM_NEST_MAX)
		return 0;
	m = hm_types_members(t, ty);
	for (uint32_t i = 0; m && i < ty->nr; i++) {
		uint64_t msz = hm_types_sizeof(t, m[i].type);
		size_t mark = sb->len;

		if (m[i].bit_size || off < m[i].offset || off >= m[i].offset + msz)
			continue;
		if (m[i].name) {
			hm_sbuf_puts(sb, sb->len ? "." : "");
			hm_sbuf_puts(sb, m[i].name);
		}
		if (off == m[i].offset && msz == size && named(t, m[i].type, name))
			return 1;
		if (embed_path(t, m[i].type, off - m[i].offset, name, size, sb, depth + 1))
			return 1;
		sb->len = mark;
		if (sb->p)
			sb->p[mark] = 0;
	}
	return 0;
}

static int by_base(const void *x, const void *y)
{
	const struct lift_inst *a = x, *b = y;
	int c;

	if (a->base != b->base)
		return a->base < b->base ? -1 : 1;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;	/* the larger first */
	/* one place, one size, two types: in a fixed order */
	c = strcmp(a->x->sname, b->x->sname);
	if (c)
		return c;
	return (a->x->id > b->x->id) - (a->x->id < b->x->id);
}

/* The instances of a, sorted by base (hmi_sort_keyed(): stable, and
 * qsort's comparisons through a function pointer were most of lifting's
 * cost on tens of thousands of instances), into *out (n of them; the
 * caller frees): 0 or -ENOMEM.  Only the keys move, 16 bytes an instance:
 * where no instance lies in another (a page-fault recording's, one per
 * allocation) lifting ends here, and the entries with their sizes are
 * built only when some may overlap. */
static int insts_by_base(const hm_attr *a, struct hmi_keyed **out)
{
	size_t i, n = a->strat.ninsts;
	struct hmi_keyed *k = malloc(n * sizeof(*k));

	if (!k)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct attr_inst *x = inst_at(a, i);

		k[i] = (struct hmi_keyed){ x->base, x };
	}
	if (hmi_sort_keyed(k, n)) {
		free(k);
		return -ENOMEM;
	}
	*out = k;
	return 0;
}

/* Each run of one base of v (sorted by base) ordered by by_base(). */
static void sort_runs(struct lift_inst *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {	/* insertion: runs of one base are short */
		struct lift_inst x = v[i];

		if (v[i - 1].base != x.base)
			continue;
		for (j = i; j > 0 && by_base(&v[j - 1], &x) > 0; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* The nearest instance that embeds x at its offset, in v (sorted by base,
 * the largest of one base first); the caller asks again for the container's
 * container.  *inside: x lies inside another instance at all. */
static const struct attr_inst *container_of_inst(const struct lift_inst *v, size_t n,
						 uint64_t maxsize, const struct attr_inst *x,
						 hm_sbuf *sb, int *inside)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {	/* the first instance starting above x */
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].base <= x->base)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0 && v[lo].base + maxsize > x->base) {
		const struct attr_inst *o = v[lo].x;

		/* the names are interned: one pointer, the same name */
		if (o == x || o->size <= x->size || o->base + o->size < x->base + x->size ||
		    o->sname == x->sname || !strcmp(o->sname, x->sname))
			continue;
		*inside = 1;
		sb->len = 0;
		if (sb->p)
			sb->p[0] = 0;
		if (!attr_binent_types(o->b) &&
		    embed_path(o->b->types, o->id, x->base - o->base, x->sname, x->size, sb, 0))
			return o;
	}
	return NULL;
}

/* Whether some instance of k (sorted by base) may lie in another: starts
 * at or before the end of one before it.  Where none does, lifting
 * changes nothing. */
static int insts_overlap(const struct hmi_keyed *k, size_t n)
{
	uint64_t end = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct attr_inst *x = k[i].p;

		if (i && x->base <= end)
			return 1;
		if (!i || x->base + x->size > end)
			end = x->base + x->size;
	}
	return 0;
}

/* What lifting reads and rewrites of a row or a compact line's key. */
struct lift {
	struct lift_inst *v;
	struct inst_names names;
	size_t n;
	uint64_t maxsize;
	hm_sbuf sb;
};

struct lift_field {
	const char *sname, *object, *path;
	uint64_t ssize, obj_base, foff;
	int container_unknown;
};

static int lift_one(hm_attr *a, struct lift *L, struct lift_field *f)
{
	const struct attr_inst *x = inst_named(&L->names, f->object), *o;
	int inside = 0;
	unsigned depth;

	for (depth = 0; x && depth < LIFT_DEPTH; depth++, x = o) {
		const char *p;

		o = container_of_inst(L->v, L->n, L->maxsize, x, &L->sb, &inside);
		if (!o)
			break;
		hm_sbuf_puts(&L->sb, f->path[0] ? "." : "");
		hm_sbuf_puts(&L->sb, f->path);
		p = L->sb.err ? NULL : hm_strtab_intern(&a->memo.strs, L->sb.p ? L->sb.p : "");
		if (!p)
			return -ENOMEM;
		f->path = p;
		f->foff += x->base - o->base;
		f->obj_base = o->base;
		f->object = o->object;
		f->sname = o->sname;
		f->ssize = o->size;
		inside = 0;
	}
	if (inside && depth == 0)
		f->container_unknown = 1;
	return 0;
}

int attr_lift_containers(hm_attr *a, hm_heat *h)
{
	struct lift L = { 0 };
	struct hmi_keyed *sorted;
	size_t i;
	int err = 0;

	if (a->strat.ninsts < 2)
		return 0;
	if (insts_by_base(a, &sorted))
		return -ENOMEM;
	if (!insts_overlap(sorted, a->strat.ninsts)) {
		free(sorted);
		return 0;
	}
	L.v = malloc(a->strat.ninsts * sizeof(*L.v));
	if (!L.v) {
		free(sorted);
		return -ENOMEM;
	}
	for (i = 0; i < a->strat.ninsts; i++) {
		const struct attr_inst *x = sorted[i].p;

		L.v[L.n++] = (struct lift_inst){ x->base, x->size, x };
		if (x->size > L.maxsize)
			L.maxsize = x->size;
	}
	free(sorted);
	sort_runs(L.v, L.n);
	if (names_init(&L.names, L.v, L.n)) {
		free(L.v);
		return -ENOMEM;
	}
	for (i = 0; i < h->nlines && !err; i++) {
		for (struct heat_row *r = h->lines[i]->rows; r && !err; r = r->next) {
			struct lift_field f = { r->sname, r->object, r->path, r->ssize,
						r->obj_base, r->foff, 0 };

			err = lift_one(a, &L, &f);
			r->sname = f.sname;
			r->object = f.object;
			r->path = f.path;
			r->ssize = f.ssize;
			r->obj_base = f.obj_base;
			r->foff = f.foff;
			if (f.container_unknown)
				r->container_unknown = 1;
		}
	}
	/* the lines kept as counts only, through their keys */
	for (i = 0; i < h->nckeys && !err; i++) {
		struct heat_ckey *k = heat_ckey_at(h, i);
		struct lift_field f = { k->f->sname, k->object, k->f->path, k->f->ssize,
					k->obj_base, k->f->foff, 0 };

		err = lift_one(a, &L, &f);
		if (!err)
			err = heat_ckey_relabel(h, k, f.sname, f.object, f.path, f.ssize,
						f.obj_base, f.foff);
		if (f.container_unknown)
			k->container_unknown = 1;
	}
	free(L.sb.p);
	free(L.names.v);
	free(L.v);
	return err;
}

void attr_insts_free(hm_attr *a)
{
	size_t i;

	for (i = 0; i < a->strat.inst_nblk; i++)
		free(a->strat.inst_blk[i]);
	free(a->strat.inst_blk);
	free(a->strat.insts);
	free(a->strat.inst_tags);
	a->strat.insts = NULL;
	a->strat.inst_tags = NULL;
	a->strat.inst_blk = NULL;
	a->strat.inst_last = NULL;
	a->strat.ninsts = a->strat.inst_slots = a->strat.inst_nblk = 0;
}

/* ---- explicit objects (hm_attr_add_object()) ---- */

static int find_type(hm_attr *a, const char *name, struct binent **where, hm_type_id *id)
{
	const char *sim[4] = { 0 };
	size_t i, nsim = 0;

	for (i = 0; i < a->bin.nbins; i++) {
		struct binent *b = a->bin.bins[i];

		if (!b->user || attr_binent_types(b))
			continue;
		*id = hm_types_find_struct(b->types, name);
		if (*id) {
			*where = b;
			return 0;
		}
		if (!nsim)
			nsim = hm_types_similar(b->types, name, sim, 3);
	}
	if (nsim)
		return hm_fail(ENOENT, "no struct '%s' in the binaries (did you mean '%s'?)",
			       name, sim[0]);
	return hm_fail(ENOENT, "no struct '%s' in the binaries given", name);
}

int hm_attr_add_object(hm_attr *a, const char *spec)
{
	const char *at = strrchr(spec, '@');
	char name[256], *end;
	struct binent *b = NULL;
	hm_type_id id;
	uint64_t addr;
	size_t n;
	int err;

	if (!at || at == spec || !at[1])
		return hm_fail(EINVAL, "object '%s': expected TYPE@ADDR", spec);
	n = (size_t)(at - spec);
	if (!strncmp(spec, "struct ", 7)) {
		spec += 7;
		n -= 7;
	}
	if (n >= sizeof(name) || !n)
		return hm_fail(EINVAL, "object '%s': bad type name", spec);
	memcpy(name, spec, n);
	name[n] = 0;
	errno = 0;
	addr = strtoull(at + 1, &end, 0);
	if (errno || *end)
		return hm_fail(EINVAL, "object '%s': bad address '%s'", spec, at + 1);
	err = find_type(a, name, &b, &id);
	if (err)
		return err;
	if (hm_grow((void **)&a->strat.objects, &a->strat.objects_cap, a->strat.nobjects + 1,
		    sizeof(*a->strat.objects)))
		return -ENOMEM;
	a->strat.objects[a->strat.nobjects++] = (struct xobject){ .bin = b, .type = id, .addr = addr,
						      .size = hm_types_sizeof(b->types, id),
						      .name = hm_strtab_intern(&a->memo.strs, name) };
	return 0;
}

const struct xobject *attr_object_at(const hm_attr *a, uint64_t addr)
{
	size_t i;

	for (i = 0; i < a->strat.nobjects; i++)
		if (addr - a->strat.objects[i].addr < a->strat.objects[i].size)
			return &a->strat.objects[i];
	return NULL;
}

int attr_object_resolve(hm_attr *a, const struct xobject *o, uint64_t addr, hm_attribution *out)
{
	struct cached c = { 0 };
	char obj[300];

	snprintf(obj, sizeof(obj), "%s@0x%" PRIx64, o->name, o->addr);
	c.bucket = HM_ATTR_OBJECT;
	c.sname = o->name;
	c.kind = HM_PROFILE_STRUCT;
	c.ssize = o->size;
	c.object = hm_strtab_intern(&a->memo.strs, obj);
	c.obj_base = o->addr;
	attr_describe(o->bin->types, o->type, addr - o->addr, &c.foff, &c.fsize, &c.path,
		      &a->memo.strs);
	if (!c.object || !c.path)
		return -ENOMEM;
	return attr_cached_fill(&c, 0, out);
}
