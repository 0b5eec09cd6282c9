/* Attribution: data address → mapped binary (load bias, KASLR) → global
 * variable (DWARF) → field path; explicit objects; the bucket of every sample. */
#include "config.h"
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "hitmap/attribute.h"
#include "hitmap/debuginfo.h"
#include "hitmap/binary.h"
#include "hitmap/types.h"
#include "attr/attribute-int.h"
#include "elf/kcore.h"
#include "base/diag.h"
#include "base/util.h"
#include "base/opts.h"

const char *hm_attr_bucket_name(enum hm_attr_bucket b)
{
	static const char *const names[HM_NR_BUCKETS] = {
		"global", "object", "no-addr", "no-map", "no-binary", "build-id-mismatch",
		"no-symbol", "no-type", "stack", "heap-unknown", "kernel-without-vmlinux",
		"instruction", "no-insn", "no-mem-operand", "no-variable", "untyped-pointer",
		"offset-outside-type", "ambiguous-type", "tls", "per-cpu", "unknown-index",
		"patched-text", "kmem-cache", "kmem-untyped",
		"regs-clobbered", "segment-base-unknown", "branch-target", "irq-deferred",
		"regs-missing",
	};

	return b < HM_NR_BUCKETS ? names[b] : "?";
}

int hm_attr_bucket_attributed(enum hm_attr_bucket b)
{
	return b == HM_ATTR_GLOBAL || b == HM_ATTR_OBJECT || b == HM_ATTR_INSN ||
	       b == HM_ATTR_TLS || b == HM_ATTR_PERCPU || b == HM_ATTR_KMEM;
}

int hm_attr_set_load_opts(hm_attr *a, const struct hm_load_opts *opts)
{
	struct hm_load_opts o;
	char *dir = NULL;

	if (!a || HM_OPTS_TAKE(&o, opts, hm_load_opts))
		return -EINVAL;
	if (o.cache_dir && !(dir = strdup(o.cache_dir)))
		return -ENOMEM;
	free(a->cache_dir);
	a->cache_dir = dir;
	a->load.cache = o.cache;
	a->load.cache_write = o.cache_write;
	a->load.cache_dir = dir;
	a->load.no_debuginfo_lookup = o.no_debuginfo_lookup;
	a->load.threads = o.threads;
	a->load.debuginfo = NULL;
	if (o.debuginfo) {
		if (HM_OPTS_TAKE(&a->dio, o.debuginfo, hm_debuginfo_opts))
			return -EINVAL;
		a->load.debuginfo = &a->dio;
	}
	return 0;
}

hm_attr *hm_attr_new(void)
{
	hm_attr *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->cache = calloc(ATTR_CACHE, sizeof(*a->cache));
	if (!a->cache) {
		free(a);
		errno = ENOMEM;
		return NULL;
	}
	a->kernel.pid = UINT32_MAX;
	a->load = (struct hm_load_opts){ .sz = sizeof(a->load), .variables = 1 };
	return a;
}

static void binent_free(struct binent *b)
{
	free(b->path);
	free(b->loads);
	free(b->vars);
	hm_lines_table_free(b->lines);
	attr_insn_free(b);
	hm_types_free(b->types);
	if (b->own_dbg)
		hm_binary_close(b->dbg);
	hm_binary_close(b->bin);
	free(b);
}

void hm_attr_free(hm_attr *a)
{
	size_t i;

	if (!a)
		return;
	attr_prefetch_stop(a);
	free(a->cache_dir);
	attr_allocs_free(a->allocs);
	attr_kmem_free(a);
	for (i = 0; i < a->nbins; i++)
		binent_free(a->bins[i]);
	free(a->bins);
	for (i = 0; i < a->nprocs; i++) {
		free(a->procs[i].images);
		free(a->procs[i].anon);
	}
	free(a->procs);
	free(a->kmods);
	free(a->kernel.images);
	free(a->objects);
	free(a->cache);
	free(a->recs);
	free(a->ires);
	attr_insts_free(a);
	attr_pokes_free(a);
	hm_kcore_free(a->kcore);
	hm_arena_free(&a->rec_arena);
	hm_strtab_free(&a->strs);
	free(a->sysroot);
	free(a);
}

int hm_attr_set_sysroot(hm_attr *a, const char *dir)
{
	free(a->sysroot);
	a->sysroot = strdup(dir);
	return a->sysroot ? 0 : -ENOMEM;
}

unsigned hm_attr_line_size(const hm_attr *a)
{
	return a->line_size ? a->line_size : 64;
}

/* ---- binaries ---- */

int attr_binent_phdrs(struct binent *b)
{
	Elf *elf = hm_binary_elf(b->bin);
	size_t n, i;

	if (!elf || elf_getphdrnum(elf, &n))
		return 0;
	b->loads = calloc(n + 1, sizeof(*b->loads));
	if (!b->loads)
		return -ENOMEM;
	b->lo = UINT64_MAX;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		b->loads[b->nloads++] = (struct seg){ ph.p_vaddr, ph.p_memsz, ph.p_offset,
						      ph.p_filesz, ph.p_flags };
		if (ph.p_vaddr < b->lo)
			b->lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > b->hi)
			b->hi = ph.p_vaddr + ph.p_memsz;
	}
	if (!b->nloads)
		b->lo = b->hi = 0;
	return 0;
}

struct binent *attr_binent_new(hm_attr *a, const char *path, hm_binary *bin, int status)
{
	struct binent *b = calloc(1, sizeof(*b));

	if (b)
		b->load = &a->load;
	if (!b || hm_grow((void **)&a->bins, &a->bins_cap, a->nbins + 1, sizeof(*a->bins))) {
		free(b);
		hm_binary_close(bin);
		return NULL;
	}
	b->path = strdup(path);
	b->bin = bin;
	b->status = status;
	if (!b->path || (bin && attr_binent_phdrs(b))) {
		binent_free(b);
		return NULL;
	}
	a->bins[a->nbins++] = b;
	return b;
}

/* A binary the user named: its machine decides the line size. */
static struct binent *binent_add(hm_attr *a, const char *path, hm_binary *bin, int status)
{
	struct binent *b = attr_binent_new(a, path, bin, status);

	if (b && bin && !a->line_size)
		a->line_size = hm_binary_cacheline_size(bin);
	return b;
}

int hm_attr_add_binary(hm_attr *a, const char *path)
{
	hm_binary *bin = hm_binary_open(path);
	struct binent *b;

	if (!bin)
		return -errno;
	b = binent_add(a, path, bin, BIN_OK);
	if (!b)
		return -ENOMEM;
	b->user = 1;
	return 0;
}

int hm_attr_set_vmlinux(hm_attr *a, const char *path)
{
	hm_binary *bin = hm_binary_open(path);

	if (!bin)
		return -errno;
	a->vmlinux = binent_add(a, path, bin, BIN_OK);
	if (!a->vmlinux)
		return -ENOMEM;
	a->vmlinux->user = 1;
	return 0;
}

static int cmp_var(const void *pa, const void *pb)
{
	const struct var_ref *x = pa, *y = pb;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Load the types and the address-sorted variables of b, once. */
int attr_binent_types(struct binent *b)
{
	struct hm_load_opts o = *b->load;
	size_t i, n;
	int err;

	if (b->types)
		return 0;
	if (b->types_err)
		return b->types_err;
	/* Stripped system libraries are common: their debug info is looked
	 * for where distributions keep it (libc6-dbg: by build-id), quietly:
	 * a miss is one note from the caller, not the list of places tried. */
	if (!b->dbg && !hm_binary_section(b->bin, ".debug_info", NULL) &&
	    !hm_binary_section(b->bin, ".BTF", NULL)) {
		struct hm_diag_count quiet = { 0 }, *prev = hm_diag_divert(&quiet);
		hm_binary *dbg = NULL;
		enum hm_debug_source src;

		err = hm_debuginfo_find(b->bin, o.debuginfo, &dbg, &src);
		hm_diag_divert(prev);
		if (err || dbg == b->bin)
			return b->types_err = -ENODATA;
		hm_diag(HM_DIAG_DEBUG, "%s: debug info from %s (%s)", b->path,
			hm_binary_path(dbg), hm_debug_source_name(src));
		b->dbg = dbg;
		b->own_dbg = 1;
	}
	err = hm_types_load(b->dbg ? b->dbg : b->bin, &o, &b->types);
	if (err) {
		b->types_err = err;
		return err;
	}
	n = hm_types_nr_variables(b->types);
	b->vars = calloc(n + 1, sizeof(*b->vars));
	if (!b->vars)
		return b->types_err = -ENOMEM;
	for (i = 0; i < n; i++) {
		const hm_variable *v = hm_types_variable(b->types, i);
		uint64_t size;

		if (!v->has_addr || !v->type)
			continue;
		size = hm_types_sizeof(b->types, v->type);
		b->vars[b->nvars++] = (struct var_ref){ v->addr, size ? size : 1, v };
	}
	qsort(b->vars, b->nvars, sizeof(*b->vars), cmp_var);
	return 0;
}

/* The variable whose extent contains link address x. */
const struct var_ref *attr_var_at(const struct binent *b, uint64_t x)
{
	size_t lo = 0, hi = b->nvars, k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->vars[mid].addr <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Several variables can start at one address (aliases): the last
	 * candidates are checked, the largest that contains x wins. */
	for (k = 0; lo > 0 && k < 8; k++, lo--) {
		const struct var_ref *v = &b->vars[lo - 1];

		if (x - v->addr < v->size)
			return v;
	}
	return NULL;
}

/* ---- explicit objects ---- */

static int find_type(hm_attr *a, const char *name, struct binent **where, hm_type_id *id)
{
	const char *sim[4] = { 0 };
	size_t i, nsim = 0;

	for (i = 0; i < a->nbins; i++) {
		struct binent *b = a->bins[i];

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
	if (hm_grow((void **)&a->objects, &a->objects_cap, a->nobjects + 1, sizeof(*a->objects)))
		return -ENOMEM;
	a->objects[a->nobjects++] = (struct xobject){ .bin = b, .type = id, .addr = addr,
						      .size = hm_types_sizeof(b->types, id),
						      .name = hm_strtab_intern(&a->strs, name) };
	return 0;
}

/* ---- field paths ---- */

struct desc {
	char path[512];
	size_t len;
	uint64_t foff, fsize;
};

/* Append n bytes of s to the path, cut at the buffer's end (as snprintf
 * would: every new address of a sample builds a path, so no formatting). */
static void path_put(struct desc *d, const char *s, size_t n)
{
	size_t room = sizeof(d->path) - 1 - d->len;

	if (n > room)
		n = room;
	memcpy(d->path + d->len, s, n);
	d->len += n;
	d->path[d->len] = 0;
}

/* Append ".name" (or "name" first) to the path. */
static void path_name(struct desc *d, const char *s)
{
	if (d->len)
		path_put(d, ".", 1);
	path_put(d, s, strlen(s));
}

static void path_index(struct desc *d, uint64_t idx)
{
	char buf[24], *p = buf + sizeof(buf);

	*--p = ']';
	do
		*--p = (char)('0' + idx % 10);
	while (idx /= 10);
	*--p = '[';
	path_put(d, p, (size_t)(buf + sizeof(buf) - p));
}

static uint64_t member_size(const hm_types *t, const hm_member *m)
{
	if (m->flags & HM_MEMBER_BITFIELD)
		return m->byte_size;
	return hm_types_sizeof(t, m->type);
}

static const hm_member *member_at(const hm_types *t, const hm_type *ty, uint64_t off)
{
	const hm_member *m = hm_types_members(t, ty);
	uint32_t i;

	for (i = 0; m && i < ty->nr; i++) {
		uint64_t sz;

		if (m[i].flags & (HM_MEMBER_STATIC | HM_MEMBER_VIRTUAL_BASE))
			continue;
		if (m[i].flags & HM_MEMBER_BITFIELD) {
			/* The bytes its bits are in, not its whole storage
			 * unit: a byte access names the bitfield it touches. */
			uint64_t lo = m[i].offset + m[i].bit_offset / 8;
			uint64_t hi = m[i].offset + (m[i].bit_offset + m[i].bit_size + 7) / 8;

			if (off >= lo && off < hi)
				return &m[i];
			continue;
		}
		sz = member_size(t, &m[i]);
		if (off >= m[i].offset && off - m[i].offset < sz)
			return &m[i];
	}
	return NULL;
}

/* Step into an array at offset *off: append the indices, leave *off inside
 * the element, return the element type (HM_TYPE_NONE if it has no size). */
static hm_type_id array_step(const hm_types *t, const hm_type *ty, uint64_t *off, struct desc *d)
{
	const uint64_t *dims = hm_types_dims(t, ty);
	uint64_t esize = hm_types_sizeof(t, ty->target);
	uint32_t i, j;

	if (!esize)
		return HM_TYPE_NONE;
	for (i = 0; i < ty->nr; i++) {
		uint64_t stride = esize, idx;

		for (j = i + 1; j < ty->nr; j++)
			if (dims[j] && dims[j] != HM_DIM_FLEXIBLE)
				stride *= dims[j];
		idx = *off / stride;
		*off %= stride;
		d->foff += idx * stride;
		path_index(d, idx);
	}
	return ty->target;
}

/* Walk type `id` down to the deepest member containing byte `off`. */
static void describe(const hm_types *t, hm_type_id id, uint64_t off, struct desc *d)
{
	int depth;

	for (depth = 0; depth < 64; depth++) {
		const hm_type *ty = hm_types_get(t, hm_types_resolve(t, id));
		const hm_member *m;

		if (ty && ty->kind == HM_KIND_ARRAY) {
			id = array_step(t, ty, &off, d);
			if (id)
				continue;
			break;
		}
		if (!ty || !hm_kind_is_record(ty->kind))
			break;
		m = member_at(t, ty, off);
		if (!m) {
			path_name(d, "(padding)");
			d->foff += off;
			d->fsize = 1;
			return;
		}
		if (m->name)
			path_name(d, m->name);
		d->foff += m->offset;
		off -= m->offset;
		if (m->flags & HM_MEMBER_BITFIELD) {
			d->fsize = m->byte_size;
			return;
		}
		id = m->type;
	}
	d->fsize = hm_types_sizeof(t, id);
	if (!d->fsize)
		d->fsize = 1;
}

void attr_describe(const hm_types *t, hm_type_id id, uint64_t off, uint64_t *foff,
		   uint64_t *fsize, const char **path, hm_strtab *strs)
{
	struct desc d = { .len = 0 };

	describe(t, id, off, &d);
	d.path[d.len] = 0;
	*foff = d.foff;
	*fsize = d.fsize;
	*path = hm_strtab_intern(strs, d.path);
}

/* Attribution of link address x inside variable v of binary b (bias 0). */
void attr_describe_var(hm_attr *a, struct binent *b, const hm_variable *v, uint64_t x,
			 struct cached *c)
{
	const hm_types *t = b->types;
	const hm_type *ty = hm_types_get(t, hm_types_resolve(t, v->type));
	uint64_t off = x - v->addr;
	struct desc d = { .len = 0 };
	char obj[600];

	c->bucket = HM_ATTR_GLOBAL;
	c->obj_base = v->addr;
	c->ssize = hm_types_sizeof(t, v->type);
	if (ty && ty->kind == HM_KIND_ARRAY) {
		/* An array of structs: each element is an object of that struct. */
		hm_type_id el = ty->target;
		const hm_type *et;

		while ((et = hm_types_get(t, hm_types_resolve(t, el))) && et->kind == HM_KIND_ARRAY)
			el = et->target;
		if (et && hm_kind_is_record(et->kind) && et->name && hm_types_sizeof(t, el)) {
			array_step(t, ty, &off, &d);
			snprintf(obj, sizeof(obj), "%s%s", v->name, d.path);
			c->object = hm_strtab_intern(&a->strs, obj);
			c->obj_base = v->addr + d.foff;
			c->sname = hm_strtab_intern(&a->strs, et->name);
			c->kind = HM_PROFILE_STRUCT;
			c->ssize = hm_types_sizeof(t, el);
			d = (struct desc){ .len = 0 };
			describe(t, el, off, &d);
			goto done;
		}
	}
	c->object = hm_strtab_intern(&a->strs, v->name);
	if (ty && hm_kind_is_record(ty->kind) && ty->name) {
		c->sname = hm_strtab_intern(&a->strs, ty->name);
		c->kind = HM_PROFILE_STRUCT;
	} else {
		c->sname = c->object;
		c->kind = HM_PROFILE_VARIABLE;
	}
	describe(t, v->type, off, &d);
done:
	d.path[d.len] = 0;
	c->path = hm_strtab_intern(&a->strs, d.path);
	c->foff = d.foff;
	c->fsize = d.fsize;
	if (!c->path || !c->object || !c->sname)
		c->bucket = HM_NR_BUCKETS;	/* out of memory */
}

static void resolve_link(hm_attr *a, struct binent *b, uint64_t x, struct cached *c)
{
	const struct var_ref *v;

	if (b->status == BIN_MISMATCH) {
		c->bucket = HM_UNATTR_BUILD_ID;
		return;
	}
	if (b->status != BIN_OK) {
		c->bucket = HM_UNATTR_NO_BINARY;
		return;
	}
	if (attr_binent_types(b)) {
		if (!b->warned_types) {
			b->warned_types = 1;
			hm_diag(HM_DIAG_NOTE, "%s: no debug info: its samples are "
				"unattributed", b->path);
		}
		c->bucket = hm_binary_object_at(b->bin, x) ? HM_UNATTR_NO_TYPE : HM_UNATTR_NO_SYMBOL;
		return;
	}
	v = attr_var_at(b, x);
	if (!v) {
		c->bucket = hm_binary_object_at(b->bin, x) ? HM_UNATTR_NO_TYPE : HM_UNATTR_NO_SYMBOL;
		return;
	}
	attr_describe_var(a, b, v->var, x, c);
}

static uint64_t rec_hash(const struct cached *c)
{
	return hm_hash_u64(c->obj_base * 31 + c->foff * 7 + (uintptr_t)c->path + c->bucket +
			   (uintptr_t)c->bin);
}

static int rec_same(const struct cached *x, const struct cached *y)
{
	return x->bucket == y->bucket && x->bin == y->bin && x->obj_base == y->obj_base &&
	       x->foff == y->foff && x->fsize == y->fsize && x->path == y->path &&
	       x->object == y->object && x->sname == y->sname && x->kind == y->kind &&
	       x->ssize == y->ssize;
}

static int recs_grow(hm_attr *a)
{
	size_t n = a->nrecs_slots ? a->nrecs_slots * 2 : 1024, i, j;
	const struct cached **t = calloc(n, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (i = 0; i < a->nrecs_slots; i++) {
		if (!a->recs[i])
			continue;
		for (j = rec_hash(a->recs[i]) & (n - 1); t[j]; j = (j + 1) & (n - 1))
			;
		t[j] = a->recs[i];
	}
	free(a->recs);
	a->recs = t;
	a->nrecs_slots = n;
	return 0;
}

/* One shared copy of each distinct attribution. */
static const struct cached *rec_intern(hm_attr *a, const struct cached *c)
{
	struct cached *n;
	size_t j;

	if (2 * (a->nrecs + 1) > a->nrecs_slots && recs_grow(a))
		return NULL;
	for (j = rec_hash(c) & (a->nrecs_slots - 1); a->recs[j]; j = (j + 1) & (a->nrecs_slots - 1))
		if (rec_same(a->recs[j], c))
			return a->recs[j];
	n = hm_arena_alloc(&a->rec_arena, sizeof(*n));
	if (!n)
		return NULL;
	*n = *c;
	a->recs[j] = n;
	a->nrecs++;
	return n;
}

static const struct cached oom_rec = { .bucket = HM_NR_BUCKETS };

/* Cached attribution of (binary, link address). */
static const struct cached *lookup_link(hm_attr *a, struct binent *b, uint64_t x)
{
	size_t slot = hm_hash_u64(x ^ (uintptr_t)b) & (ATTR_CACHE - 1);
	struct cache_slot *cs = &a->cache[slot];
	struct cached c = { 0 };

	if (cs->rec && cs->bin == b && cs->link == x)
		return cs->rec;
	resolve_link(a, b, x, &c);
	c.bin = b;	/* records are per binary; the address is not part of them */
	cs->rec = rec_intern(a, &c);
	if (!cs->rec)
		return &oom_rec;
	cs->bin = b;
	cs->link = x;
	return cs->rec;
}

static int fill_from_cache(const struct cached *c, uint64_t bias, hm_attribution *out)
{
	out->bucket = c->bucket;
	if (c->bucket == HM_NR_BUCKETS)
		return -ENOMEM;
	if (c->bucket != HM_ATTR_GLOBAL && c->bucket != HM_ATTR_OBJECT)
		return 0;
	out->sname = c->sname;
	out->kind = c->kind;
	out->ssize = c->ssize;
	out->object = c->object;
	out->obj_base = c->obj_base + bias;
	out->path = c->path;
	out->foff = c->foff;
	out->fsize = c->fsize;
	return 1;
}

static int resolve_object(hm_attr *a, const struct xobject *o, uint64_t addr,
			  hm_attribution *out)
{
	struct cached c = { 0 };
	struct desc d = { .len = 0 };
	char obj[300];

	describe(o->bin->types, o->type, addr - o->addr, &d);
	d.path[d.len] = 0;
	snprintf(obj, sizeof(obj), "%s@0x%" PRIx64, o->name, o->addr);
	c.bucket = HM_ATTR_OBJECT;
	c.sname = o->name;
	c.kind = HM_PROFILE_STRUCT;
	c.ssize = o->size;
	c.object = hm_strtab_intern(&a->strs, obj);
	c.obj_base = o->addr;
	c.path = hm_strtab_intern(&a->strs, d.path);
	c.foff = d.foff;
	c.fsize = d.fsize;
	if (!c.object || !c.path)
		return -ENOMEM;
	return fill_from_cache(&c, 0, out);
}

/* ---- processes and their mappings ---- */

static int is_kernel_addr(uint64_t x)
{
	return x >> 63;
}

/* Whether link address x is in the kernel image: its segments at kernel
 * addresses.  The per-CPU segment is linked at 0 (offsets from %gs), so the
 * image's lowest to highest address would cover the direct map, vmalloc and
 * every slab object. */
static int in_kernel_image(const struct binent *b, uint64_t x)
{
	size_t i;

	for (i = 0; i < b->nloads; i++)
		if (is_kernel_addr(b->loads[i].vaddr) && x - b->loads[i].vaddr < b->loads[i].memsz)
			return 1;
	return 0;
}

int hm_attr_resolve(hm_attr *a, const hm_sample *s, uint64_t addr, hm_attribution *out)
{
	const struct kmod *k;
	const struct image *im;
	struct proc *p;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!addr) {
		out->bucket = HM_UNATTR_NO_ADDR;
		return 0;
	}
	for (i = 0; i < a->nobjects; i++)
		if (addr - a->objects[i].addr < a->objects[i].size)
			return resolve_object(a, &a->objects[i], addr, out);
	if (is_kernel_addr(addr) && (k = attr_kmod_at(a, addr)))
		return fill_from_cache(lookup_link(a, k->b, addr - k->start), k->start, out);
	if (is_kernel_addr(addr))
		a->kaddr_resolved = 1;
	if (is_kernel_addr(addr) && a->kmem &&
	    (!a->vmlinux || !in_kernel_image(a->vmlinux, addr - a->kaslr))) {
		int r;

		if (s->has & HM_HAS_TIME)
			a->answer_timed = 1;
		r = attr_kmem_resolve(a, s, addr, out);

		if (r != -ENOENT)
			return r;
	}
	if (is_kernel_addr(addr)) {
		if (!a->vmlinux) {
			out->bucket = HM_UNATTR_KERNEL_NO_VMLINUX;
			return 0;
		}
		if (!a->kaslr_known && !a->warned_kaslr) {
			a->warned_kaslr = 1;
			hm_diag(HM_DIAG_WARNING, "%s: no kernel map in the recording: assuming "
				"no KASLR offset", a->vmlinux->path);
		}
		if (!in_kernel_image(a->vmlinux, addr - a->kaslr)) {
			out->bucket = HM_UNATTR_HEAP;
			return 0;
		}
		return fill_from_cache(lookup_link(a, a->vmlinux, addr - a->kaslr), a->kaslr, out);
	}
	p = attr_proc(a, s->pid, 0);
	im = p ? proc_image_at(p, addr) : NULL;
	if (im)
		return fill_from_cache(lookup_link(a, im->bin, addr - im->bias), im->bias, out);
	out->bucket = p ? proc_anon_bucket(p, addr) : HM_UNATTR_NO_MAP;
	return 0;
}

int hm_attr_mapped(hm_attr *a, const hm_sample *s, uint64_t addr)
{
	struct proc *p;

	if (is_kernel_addr(addr))
		return a->kernel_seen;
	p = attr_proc(a, s->pid, 0);
	return p && (proc_image_at(p, addr) || proc_anon_bucket(p, addr) != HM_UNATTR_NO_MAP);
}

int hm_attr_ip(hm_attr *a, const hm_sample *s, const void **bin, uint64_t *link)
{
	const struct kmod *k;
	const struct image *im;
	struct proc *p;

	if (is_kernel_addr(s->ip) && (k = attr_kmod_at(a, s->ip))) {
		*bin = k->b;
		*link = s->ip - k->start;
		return 0;
	}
	if (is_kernel_addr(s->ip)) {
		if (!a->vmlinux)
			return -ENOENT;
		*bin = a->vmlinux;
		*link = s->ip - a->kaslr;
		return 0;
	}
	p = attr_proc(a, s->pid, 0);
	im = p ? proc_image_at(p, s->ip) : NULL;
	if (!im || im->bin->status != BIN_OK)
		return -ENOENT;
	*bin = im->bin;
	*link = s->ip - im->bias;
	return 0;
}

int hm_attr_code_label(hm_attr *a, const void *vb, uint64_t link, uint64_t ip, char *buf,
		       size_t len)
{
	const struct binent *b = vb;
	const hm_symbol *f = b ? hm_binary_func_at(attr_binent_dwarf(b), link) : NULL;
	char where[300] = "";

	if (!f)
		return snprintf(buf, len, "0x%" PRIx64, ip);
	if (!a->lines_failed && hm_lines_lookup(a, b, link, where, sizeof(where)) < 0)
		where[0] = 0;
	return snprintf(buf, len, "%s+0x%" PRIx64 "%s%s%s", f->name, link - f->addr,
			where[0] ? " (" : "", where, where[0] ? ")" : "");
}
