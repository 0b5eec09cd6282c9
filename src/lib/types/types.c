/* types: the type table — storage, dedup, queries, sizeof/alignof and the C
 * declarator printer. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "types/types-int.h"
#include "types/declare.h"
#include "types/types-lib.h"
#include "elf/binary-lib.h"

hm_types *hm_types_new(void)
{
	hm_types *t = calloc(1, sizeof(*t));
	hm_type v = { .kind = HM_KIND_VOID, .name = "void" };

	if (!t)
		return NULL;
	t->pointer_size = 8;
	if (hm_vec_push(t->types, v) < 0) {
		free(t);
		errno = ENOMEM;
		return NULL;
	}
	return t;
}

void hm_types_free(hm_types *t)
{
	if (!t)
		return;
	free(t->types.v);
	free(t->members.v);
	free(t->dims.v);
	free(t->params.v);
	free(t->enums.v);
	free(t->vars.v);
	free(t->structs.v);
	free(t->struct_next.v);
	free(t->listed.v);
	free(t->hints.v);
	free(t->struct_slots);
	free(t->typedef_slots);
	free(t->var_slots);
	free(t->dedup);
	hm_strtab_free(&t->strs);
	free(t->blob);
	free(t->memo);
	free(t->tb_arrays);
	free(t);
}

/* The cached strings enter the intern table only when something is added
 * to the table: a query-only run never pays for hashing them. */
static int intern_blob(hm_types *t)
{
	for (size_t off = 0; off < t->blob_size; off += strlen(t->blob + off) + 1)
		if (!hm_strtab_adopt(&t->strs, t->blob + off))
			return -ENOMEM;
	t->blob_interned = 1;
	return 0;
}

const char *hm_types_intern(hm_types *t, const char *s)
{
	if (t->blob && !t->blob_interned && s && intern_blob(t))
		return NULL;
	return s ? hm_strtab_intern(&t->strs, s) : NULL;
}

/* Room in the memo for one more id, once the table has a memo. */
static int memo_grow(hm_types *t)
{
	size_t n = t->nmemo * 2 > t->types.n + 1 ? t->nmemo * 2 : t->types.n + 1;
	uint32_t *m;

	if (!t->memo || t->types.n < t->nmemo)
		return 0;
	m = realloc(t->memo, n * HM_MEMO_SLOTS * sizeof(*m));
	if (!m)
		return -ENOMEM;
	memset(m + t->nmemo * HM_MEMO_SLOTS, 0, (n - t->nmemo) * HM_MEMO_SLOTS * sizeof(*m));
	t->memo = m;
	t->nmemo = n;
	return 0;
}

int hm_types_memo_reset(hm_types *t)
{
	size_t n = t->types.cap > t->types.n ? t->types.cap : t->types.n;
	uint32_t *m = calloc(n ? n : 1, HM_MEMO_SLOTS * sizeof(*m));

	if (!m)
		return -ENOMEM;
	free(t->memo);
	t->memo = m;
	t->nmemo = n;
	return 0;
}

hm_type_id hm_types_add(hm_types *t, const hm_type *ty)
{
	long idx;

	if (t->types.n >= UINT32_MAX - 1 || memo_grow(t))
		return 0;
	idx = hm_vec_push(t->types, *ty);
	return idx < 0 ? 0 : (hm_type_id)idx;
}

size_t hm_types_count(const hm_types *t)
{
	return t->types.n;
}

const hm_type *hm_types_get(const hm_types *t, hm_type_id id)
{
	if (id >= t->types.n)
		return NULL;
	return &t->types.v[id];
}

const hm_member *hm_types_members(const hm_types *t, const hm_type *ty)
{
	return ty->nr ? &t->members.v[ty->first] : NULL;
}

const uint64_t *hmi_types_dims(const hm_types *t, const hm_type *ty)
{
	return ty->nr ? &t->dims.v[ty->first] : NULL;
}

const hm_type_id *hmi_types_params(const hm_types *t, const hm_type *ty)
{
	return ty->nr ? &t->params.v[ty->first] : NULL;
}

const hm_enumerator *hmi_types_enumerators(const hm_types *t, const hm_type *ty)
{
	return ty->nr ? &t->enums.v[ty->first] : NULL;
}

unsigned hmi_types_pointer_size(const hm_types *t)
{
	return t->pointer_size;
}

unsigned hm_types_cacheline_size(const hm_types *t, unsigned asked)
{
	if (asked)
		return asked;
	/* a table of no known machine (a BTF blob, a JSON document) */
	return t && t->cacheline_size ? t->cacheline_size : hmi_arch_cacheline_size(NULL);
}

/* ---- dedup ---- */

static int named_kind(enum hm_type_kind k)
{
	return hm_kind_is_record(k) || k == HM_KIND_ENUM || k == HM_KIND_TYPEDEF ||
	       k == HM_KIND_BASE || k == HM_KIND_UNSPECIFIED;
}

/* Anonymous structs and unions are told apart by their members too: macros
 * (the kernel's struct_group(), DECLARE_FLEX_ARRAY()) put several different
 * ones on one source line. */
static int by_content(const hm_type *ty)
{
	return !ty->name && !ty->declaration && hm_kind_is_record(ty->kind);
}

static uint64_t members_hash(const hm_member *m, uint32_t n, uint64_t h)
{
	for (uint32_t i = 0; i < n; i++) {
		h = hm_hash_u64(h ^ (uintptr_t)m[i].name ^ ((uint64_t)m[i].type << 40));
		h = hm_hash_u64(h ^ m[i].offset ^ ((uint64_t)m[i].bit_offset << 32) ^
				((uint64_t)m[i].bit_size << 48) ^ ((uint64_t)m[i].flags << 56));
	}
	return h;
}

static int members_same(const hm_member *a, const hm_member *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (a[i].name != b[i].name || a[i].type != b[i].type ||
		    a[i].offset != b[i].offset || a[i].bit_offset != b[i].bit_offset ||
		    a[i].bit_size != b[i].bit_size || a[i].byte_size != b[i].byte_size ||
		    a[i].flags != b[i].flags || a[i].alignment != b[i].alignment)
			return 0;
	}
	return 1;
}

static uint64_t type_hash(const hm_type *ty, const uint64_t *dims, const hm_type_id *params,
			  const hm_member *members)
{
	uint64_t h = hm_hash_u64(ty->kind * 0x9e3779b97f4a7c15ULL + ty->size);

	if (named_kind(ty->kind)) {
		h = hm_hash_u64(h ^ (uintptr_t)ty->name ^ ((uint64_t)(uintptr_t)ty->scope << 17));
		/* a declaration has no body to tell apart: one per kind, scope
		 * and name */
		if (ty->declaration)
			return hm_hash_u64(h ^ 1);
		h = hm_hash_u64(h ^ (uintptr_t)ty->decl_file ^ ((uint64_t)ty->decl_line << 32));
		if (ty->kind == HM_KIND_TYPEDEF)
			h = hm_hash_u64(h ^ ty->target);
		if (by_content(ty))
			h = members_hash(members, ty->nr, hm_hash_u64(h ^ ty->nr));
		return hm_hash_u64(h ^ ty->declaration);
	}
	h = hm_hash_u64(h ^ ty->target ^ ((uint64_t)ty->containing << 32));
	if (ty->kind == HM_KIND_ARRAY)
		h = hm_hash_bytes(dims, ty->nr * sizeof(*dims), hm_hash_u64(h ^ ty->vector));
	else if (ty->kind == HM_KIND_FUNC) {
		h = hm_hash_bytes(params, ty->nr * sizeof(*params), h);
		h = hm_hash_u64(h ^ (ty->varargs | ty->prototyped << 1));
	}
	return h;
}

static int type_same(const hm_types *t, const hm_type *a, const hm_type *b,
		     const uint64_t *dims, const hm_type_id *params, const hm_member *members)
{
	if (a->kind != b->kind || a->size != b->size)
		return 0;
	if (named_kind(a->kind) && a->scope != b->scope)
		return 0;
	if (named_kind(a->kind) && (a->declaration || b->declaration))
		return a->name == b->name && a->declaration == b->declaration;
	if (by_content(a))
		return a->name == b->name && a->decl_file == b->decl_file &&
		       a->decl_line == b->decl_line && a->nr == b->nr &&
		       (!a->nr || members_same(&t->members.v[a->first], members, a->nr));
	if (named_kind(a->kind))
		return a->name == b->name && a->decl_file == b->decl_file &&
		       a->decl_line == b->decl_line && a->declaration == b->declaration &&
		       a->is_signed == b->is_signed &&
		       (a->kind != HM_KIND_TYPEDEF || a->target == b->target);
	if (a->target != b->target || a->containing != b->containing || a->nr != b->nr)
		return 0;
	if (a->kind == HM_KIND_ARRAY)
		return a->vector == b->vector &&
		       (!a->nr || !memcmp(&t->dims.v[a->first], dims, a->nr * sizeof(*dims)));
	if (a->kind == HM_KIND_FUNC)
		return a->varargs == b->varargs && a->prototyped == b->prototyped &&
		       (!a->nr || !memcmp(&t->params.v[a->first], params,
					  a->nr * sizeof(*params)));
	return 1;
}

hm_type_id hm_types_dedup_find(hm_types *t, const hm_type *ty, const uint64_t *dims,
			       const hm_type_id *params, const hm_member *members,
			       uint64_t *hash)
{
	size_t j;

	*hash = type_hash(ty, dims, params, members);
	if (!t->ndedup)
		return 0;
	/* the stored hash spares a visit to the type entry (a cache miss) for
	 * every slot probed on the way */
	for (j = *hash & (t->ndedup - 1); t->dedup[j].id; j = (j + 1) & (t->ndedup - 1)) {
		if (t->dedup[j].hash == *hash &&
		    type_same(t, &t->types.v[t->dedup[j].id], ty, dims, params, members))
			return t->dedup[j].id;
	}
	return 0;
}

uint64_t hm_types_dedup_prefetch(const hm_types *t, const hm_type *ty, int step)
{
	uint64_t hash = type_hash(ty, NULL, NULL, NULL);
	const struct hm_dedup_slot *s;

	if (!t->ndedup)
		return hash;
	s = &t->dedup[hash & (t->ndedup - 1)];
	if (!step)
		__builtin_prefetch(s);
	else if (s->id && s->hash == hash)
		__builtin_prefetch(&t->types.v[s->id]);
	return hash;
}

static void dedup_put(struct hm_dedup_slot *slots, size_t n, hm_type_id id, uint64_t hash)
{
	size_t j;

	for (j = hash & (n - 1); slots[j].id; j = (j + 1) & (n - 1))
		;
	slots[j].id = id;
	slots[j].hash = hash;
}

int hm_types_dedup_insert(hm_types *t, hm_type_id id, uint64_t hash)
{
	if ((t->ndedup_used + 1) * 2 > t->ndedup) {
		size_t n = t->ndedup ? t->ndedup * 2 : 4096;
		struct hm_dedup_slot *slots = calloc(n, sizeof(*slots));

		if (!slots)
			return -ENOMEM;
		for (size_t i = 0; i < t->ndedup; i++)
			if (t->dedup[i].id)
				dedup_put(slots, n, t->dedup[i].id, t->dedup[i].hash);
		free(t->dedup);
		t->dedup = slots;
		t->ndedup = n;
	}
	dedup_put(t->dedup, t->ndedup, id, hash);
	t->ndedup_used++;
	return 0;
}

/* ---- struct list and name index ---- */

static uint64_t name_hash(const char *s)
{
	return hm_hash_bytes(s, strlen(s), 0x5151);
}

/* The first list entry (+1) for a name, 0 if none. */
static uint32_t struct_first(const hm_types *t, const char *name)
{
	size_t j;

	if (!t->nstruct_slots || !name)
		return 0;
	for (j = name_hash(name) & (t->nstruct_slots - 1); t->struct_slots[j];
	     j = (j + 1) & (t->nstruct_slots - 1)) {
		uint32_t pos = t->struct_slots[j] - 1;

		if (!strcmp(t->types.v[t->structs.v[pos]].name, name))
			return t->struct_slots[j];
	}
	return 0;
}

/* Split a name at its last "::" outside template arguments and
 * parentheses ("std::vector<int, std::allocator<int> >" is scope "std"):
 * *last is the plain name, q[0, *scope_len) the scope.  0 for a plain name;
 * a leading "::" (the global scope) is a qualified name of scope "". */
int hm_types_split_name(const char *q, const char **last, size_t *scope_len)
{
	const char *cut = NULL;
	unsigned depth = 0;

	for (const char *p = q; *p; p++) {
		if (*p == '<' || *p == '(')
			depth++;
		else if ((*p == '>' || *p == ')') && depth)
			depth--;
		else if (!depth && p[0] == ':' && p[1] == ':')
			cut = p++;
	}
	*last = cut ? cut + 2 : q;
	*scope_len = cut ? (size_t)(cut - q) : 0;
	return cut != NULL;
}

static int scope_is(const hm_type *ty, const char *scope, size_t len)
{
	if (!len)
		return !ty->scope;
	return ty->scope && strlen(ty->scope) == len && !memcmp(ty->scope, scope, len);
}

/* Whether a query (plain or qualified) names ty. */
static int names_type(const char *q, const hm_type *ty)
{
	const char *last;
	size_t len;
	int qual = hm_types_split_name(q, &last, &len);

	return ty->name && !strcmp(ty->name, last) && (!qual || scope_is(ty, q, len));
}

int hm_type_qualify(const hm_type *ty, char *buf, size_t len)
{
	return snprintf(buf, len, "%s%s%s", ty->scope ? ty->scope : "", ty->scope ? "::" : "",
			ty->name ? ty->name : "");
}

/* The first listed struct a query names.  A plain name means what it means
 * in C++ at file scope, the global one, and else the first of that name in
 * load order whatever its scope (pahole's choice, and all of C). */
static hm_type_id struct_lookup(const hm_types *t, const char *q)
{
	const char *last;
	size_t len;
	uint32_t pos, first;

	if (!q)
		return 0;
	if (!hm_types_split_name(q, &last, &len)) {
		first = pos = struct_first(t, q);
		for (; pos; pos = t->struct_next.v[pos - 1])
			if (!t->types.v[t->structs.v[pos - 1]].scope)
				return t->structs.v[pos - 1];
		return first ? t->structs.v[first - 1] : 0;
	}
	for (pos = struct_first(t, last); pos; pos = t->struct_next.v[pos - 1])
		if (scope_is(&t->types.v[t->structs.v[pos - 1]], q, len))
			return t->structs.v[pos - 1];
	return 0;
}

/* The first listed struct of that name in exactly that scope (interned). */
static hm_type_id struct_lookup_scoped(const hm_types *t, const char *name, const char *scope)
{
	for (uint32_t pos = struct_first(t, name); pos; pos = t->struct_next.v[pos - 1])
		if (t->types.v[t->structs.v[pos - 1]].scope == scope)
			return t->structs.v[pos - 1];
	return 0;
}

static uint32_t nr_data_members(const hm_types *t, const hm_type *ty)
{
	const hm_member *m = hm_types_members(t, ty);
	uint32_t n = 0;

	for (uint32_t i = 0; i < ty->nr; i++)
		n += !(m[i].flags & HM_MEMBER_STATIC);
	return n;
}

/* pahole's type__compare(): equal name, size, member count, and per member
 * name (when both have one), bit offset and bit size — not member types. */
static int pahole_same(const hm_types *t, const hm_type *a, const hm_type *b)
{
	const hm_member *ma = hm_types_members(t, a), *mb = hm_types_members(t, b);
	uint32_t i = 0, k = 0;

	if (a->scope != b->scope)
		return 0;	/* C++: another name (ns::X is not X) */
	if (a->size != b->size || nr_data_members(t, a) != nr_data_members(t, b))
		return 0;
	for (;; i++, k++) {
		while (i < a->nr && (ma[i].flags & HM_MEMBER_STATIC))
			i++;
		while (k < b->nr && (mb[k].flags & HM_MEMBER_STATIC))
			k++;
		if (i >= a->nr || k >= b->nr)
			return 1;
		if (ma[i].name && mb[k].name && ma[i].name != mb[k].name)
			return 0;
		if (ma[i].offset * 8 + ma[i].bit_offset != mb[k].offset * 8 + mb[k].bit_offset ||
		    ma[i].bit_size != mb[k].bit_size)
			return 0;
	}
}

static int struct_slots_grow(hm_types *t)
{
	size_t n = t->nstruct_slots ? t->nstruct_slots * 2 : 1024;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->nstruct_slots; i++) {
		uint32_t v = t->struct_slots[i];
		size_t j;

		if (!v)
			continue;
		j = name_hash(t->types.v[t->structs.v[v - 1]].name) & (n - 1);
		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = v;
	}
	free(t->struct_slots);
	t->struct_slots = slots;
	t->nstruct_slots = n;
	return 0;
}

int hm_types_note_struct(hm_types *t, hm_type_id id)
{
	const hm_type *ty = &t->types.v[id];
	uint32_t pos, last = 0;
	size_t j;

	if (!ty->name || ty->declaration)
		return 0;
	if (hm_grow((void **)&t->listed.v, &t->listed.cap, t->types.n, 1))
		return -ENOMEM;
	if (t->listed.n < t->types.n) {
		memset(t->listed.v + t->listed.n, 0, t->types.n - t->listed.n);
		t->listed.n = t->types.n;
	}
	if (t->listed.v[id])
		return 0;
	for (pos = struct_first(t, ty->name); pos; pos = t->struct_next.v[pos - 1]) {
		if (pahole_same(t, &t->types.v[t->structs.v[pos - 1]], ty)) {
			t->listed.v[id] = 1;
			return 0;
		}
		last = pos;
	}
	if ((t->structs.n + 1) * 2 > t->nstruct_slots && struct_slots_grow(t))
		return -ENOMEM;
	if (hm_vec_push(t->struct_next, 0) < 0)
		return -ENOMEM;
	if (hm_vec_push(t->structs, id) < 0) {
		t->struct_next.n--;
		return -ENOMEM;
	}
	t->listed.v[id] = 1;
	if (last) {
		t->struct_next.v[last - 1] = t->structs.n;
		return 0;
	}
	for (j = name_hash(ty->name) & (t->nstruct_slots - 1); t->struct_slots[j];
	     j = (j + 1) & (t->nstruct_slots - 1))
		;
	t->struct_slots[j] = t->structs.n;
	return 0;
}

static int named_in(const char *const *only, const hm_type *ty)
{
	for (; ty->name && *only; only++)
		if (names_type(*only, ty))
			return 1;
	return 0;
}

int hm_types_keep_structs(hm_types *t, const char *const *only)
{
	size_t n = t->types.n, nstack = 0, nkeep = 0;
	unsigned char *seen = calloc(n ? n : 1, 1);
	hm_type_id *stack = malloc((n ? n : 1) * sizeof(*stack));
	hm_type_id *keep = malloc((t->structs.n ? t->structs.n : 1) * sizeof(*keep));
	int err = 0;

	if (!seen || !stack || !keep) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < t->structs.n; i++) {
		hm_type_id id = t->structs.v[i];

		if (!named_in(only, &t->types.v[id]))
			continue;
		keep[nkeep++] = id;
		seen[id] = 1;
		stack[nstack++] = id;
	}
	/* an explicit stack: input decides how deep types nest */
	while (nstack) {
		const hm_type *ty = &t->types.v[stack[--nstack]];
		int rec = ty->kind == HM_KIND_STRUCT || ty->kind == HM_KIND_UNION ||
			  ty->kind == HM_KIND_CLASS;
		const hm_member *m = rec ? hm_types_members(t, ty) : NULL;
		const hm_type_id *pa = ty->kind == HM_KIND_FUNC ? hmi_types_params(t, ty) : NULL;
		hm_type_id refs[2] = { ty->target, ty->kind == HM_KIND_PTR_TO_MEMBER ?
				       ty->containing : 0 };

		for (size_t k = 0; k < 2; k++)
			if (refs[k] && refs[k] < n && !seen[refs[k]]) {
				seen[refs[k]] = 1;
				stack[nstack++] = refs[k];
			}
		for (uint32_t k = 0; m && k < ty->nr; k++)
			if (m[k].type && m[k].type < n && !seen[m[k].type]) {
				seen[m[k].type] = 1;
				stack[nstack++] = m[k].type;
			}
		for (uint32_t k = 0; pa && k < ty->nr; k++)
			if (pa[k] && pa[k] < n && !seen[pa[k]]) {
				seen[pa[k]] = 1;
				stack[nstack++] = pa[k];
			}
	}
	/* what drops out of the list still serves "did you mean", as the
	 * loader's hints do for names it did not load */
	for (size_t i = 0; i < t->structs.n && !err; i++) {
		hm_type_id id = t->structs.v[i];

		if (!seen[id] && hm_vec_push(t->hints, t->types.v[id].name) < 0)
			err = -ENOMEM;
	}
	t->structs.n = 0;
	t->struct_next.n = 0;
	memset(t->listed.v, 0, t->listed.n);
	memset(t->struct_slots, 0, t->nstruct_slots * sizeof(*t->struct_slots));
	for (size_t i = 0; !err && i < nkeep; i++)
		err = hm_types_note_struct(t, keep[i]);
	for (size_t i = 1; !err && i < n; i++) {
		const hm_type *ty = &t->types.v[i];

		if (seen[i] && (ty->kind == HM_KIND_STRUCT || ty->kind == HM_KIND_UNION ||
				ty->kind == HM_KIND_CLASS) && !ty->declaration && ty->name)
			err = hm_types_note_struct(t, (hm_type_id)i);
	}
out:
	free(seen);
	free(stack);
	free(keep);
	return err;
}

int hm_types_note_typedef(hm_types *t, hm_type_id id)
{
	const hm_type *ty = &t->types.v[id];
	size_t j;

	if (!ty->name)
		return 0;
	for (j = name_hash(ty->name) & (t->ntypedef_slots - 1); t->ntypedef_slots && t->typedef_slots[j];
	     j = (j + 1) & (t->ntypedef_slots - 1)) {
		const hm_type *o = &t->types.v[t->typedef_slots[j]];

		if (o->scope == ty->scope && !strcmp(o->name, ty->name))
			return 0;	/* the first of a scope and name is the one */
	}
	if ((t->ntypedefs + 1) * 2 > t->ntypedef_slots) {
		size_t n = t->ntypedef_slots ? t->ntypedef_slots * 2 : 1024;
		hm_type_id *slots = calloc(n, sizeof(*slots));

		if (!slots)
			return -ENOMEM;
		for (size_t i = 0; i < t->ntypedef_slots; i++) {
			hm_type_id o = t->typedef_slots[i];

			if (!o)
				continue;
			for (j = name_hash(t->types.v[o].name) & (n - 1); slots[j]; j = (j + 1) & (n - 1))
				;
			slots[j] = o;
		}
		free(t->typedef_slots);
		t->typedef_slots = slots;
		t->ntypedef_slots = n;
	}
	for (j = name_hash(ty->name) & (t->ntypedef_slots - 1); t->typedef_slots[j];
	     j = (j + 1) & (t->ntypedef_slots - 1))
		;
	t->typedef_slots[j] = id;
	t->ntypedefs++;
	return 0;
}

hm_type_id hm_types_find_typedef(const hm_types *t, const char *name)
{
	const char *last;
	size_t j, len;
	hm_type_id best = 0;

	if (!t->ntypedef_slots || !name)
		return 0;
	hm_types_split_name(name, &last, &len);
	/* one per scope and name: of several scopes, the first loaded */
	for (j = name_hash(last) & (t->ntypedef_slots - 1); t->typedef_slots[j];
	     j = (j + 1) & (t->ntypedef_slots - 1)) {
		hm_type_id id = t->typedef_slots[j];

		if (names_type(name, &t->types.v[id]) && (!best || id < best))
			best = id;
	}
	return best;
}

size_t hm_types_find_structs(const hm_types *t, const char *name, hm_type_id *out, size_t max)
{
	const char *last;
	size_t len, n = 0;
	hm_type_id one;

	if (!name)
		return 0;
	if (hm_types_split_name(name, &last, &len)) {
		one = hm_types_find_struct(t, name);
		if (one && max)
			out[0] = one;
		return one != 0;
	}
	for (uint32_t pos = struct_first(t, name); pos; pos = t->struct_next.v[pos - 1]) {
		hm_type_id id = t->structs.v[pos - 1];
		const char *sc = t->types.v[id].scope;
		size_t k;

		if (!sc) {	/* the global one: what the plain name means */
			if (max)
				out[0] = id;
			return 1;
		}
		for (k = 0; k < n && k < max && t->types.v[out[k]].scope != sc; k++)
			;
		if (k < n)
			continue;
		if (n < max)
			out[n] = id;
		n++;
	}
	if (!n && (one = hm_types_find_struct(t, name))) {
		if (max)
			out[0] = one;
		n = 1;
	}
	return n;
}

hm_type_id hm_types_find_struct(const hm_types *t, const char *name)
{
	hm_type_id id = struct_lookup(t, name);

	if (id || !name)
		return id;
	/* not listed: a C++ class nested in another that the walk did not
	 * note (a table from an older loader's rules) */
	for (size_t i = 1; i < t->types.n; i++) {
		const hm_type *ty = &t->types.v[i];

		if (hm_kind_is_record(ty->kind) && !ty->declaration && names_type(name, ty))
			return i;
	}
	return 0;
}

size_t hm_types_structs(const hm_types *t, const hm_type_id **ids)
{
	*ids = t->structs.v;
	return t->structs.n;
}

size_t hm_types_similar(const hm_types *t, const char *name, const char **out, size_t max)
{
	unsigned best[16];
	size_t n = 0;
	unsigned cap = strlen(name) / 3 + 1;

	if (max > 16)
		max = 16;
	for (size_t i = 0; i < t->structs.n + t->hints.n && max; i++) {
		const char *s = i < t->structs.n ? t->types.v[t->structs.v[i]].name :
			       t->hints.v[i - t->structs.n];
		unsigned d = hm_edit_distance(name, s, cap);
		size_t k;

		if (d > cap)
			continue;
		for (k = 0; k < n && out[k] != s; k++)
			;
		if (k < n)
			continue;	/* interned: a hint may also be a loaded struct */
		if (n == max && d >= best[n - 1])
			continue;
		/* insertion into the sorted top list; ties keep load order */
		k = n < max ? n++ : n - 1;
		while (k > 0 && best[k - 1] > d) {
			best[k] = best[k - 1];
			out[k] = out[k - 1];
			k--;
		}
		best[k] = d;
		out[k] = s;
	}
	return n;
}

/* ---- declarations resolved to definitions ---- */

static hm_type_id redirect(const hm_type_id *map, hm_type_id id)
{
	return map[id] ? map[id] : id;
}

int hm_types_finish(hm_types *t)
{
	hm_type_id *map = calloc(t->types.n, sizeof(*map));
	size_t i;
	int any = 0;

	if (!map)
		return -ENOMEM;
	for (i = 1; i < t->types.n; i++) {
		hm_type *ty = &t->types.v[i];
		hm_type_id def;

		if (!ty->declaration || !ty->name)
			continue;
		if (!hm_kind_is_record(ty->kind) && ty->kind != HM_KIND_ENUM)
			continue;
		/* of its own scope: std::X's declaration is not other::X */
		def = struct_lookup_scoped(t, ty->name, ty->scope);
		if (def && t->types.v[def].kind == ty->kind) {
			map[i] = def;
			any = 1;
		}
	}
	if (any) {
		for (i = 1; i < t->types.n; i++) {
			t->types.v[i].target = redirect(map, t->types.v[i].target);
			t->types.v[i].containing = redirect(map, t->types.v[i].containing);
		}
		for (i = 0; i < t->members.n; i++)
			t->members.v[i].type = redirect(map, t->members.v[i].type);
		for (i = 0; i < t->params.n; i++)
			t->params.v[i] = redirect(map, t->params.v[i]);
		for (i = 0; i < t->vars.n; i++)
			t->vars.v[i].type = redirect(map, t->vars.v[i].type);
	}
	free(map);
	/* variable name index */
	free(t->var_slots);
	t->var_slots = NULL;
	t->nvar_slots = 0;
	if (t->vars.n) {
		size_t n = 16;

		while (n < t->vars.n * 2)
			n *= 2;
		t->var_slots = calloc(n, sizeof(*t->var_slots));
		if (!t->var_slots)
			return -ENOMEM;
		t->nvar_slots = n;
		for (i = 0; i < t->vars.n; i++) {
			size_t j = name_hash(t->vars.v[i].name) & (n - 1);
			int dup = 0;

			for (; t->var_slots[j]; j = (j + 1) & (n - 1))
				if (t->vars.v[t->var_slots[j] - 1].name == t->vars.v[i].name) {
					dup = 1;
					break;
				}
			if (!dup)
				t->var_slots[j] = i + 1;
		}
	}
	/* loading may have rewritten any type: nothing computed before holds */
	return hm_types_memo_reset(t);
}

/* ---- variables ---- */

size_t hm_types_nr_variables(const hm_types *t)
{
	return t->vars.n;
}

const hm_variable *hm_types_variable(const hm_types *t, size_t idx)
{
	return idx < t->vars.n ? &t->vars.v[idx] : NULL;
}

const hm_variable *hmi_types_find_variable(const hm_types *t, const char *name)
{
	size_t j;

	if (!t->nvar_slots)
		return NULL;
	for (j = name_hash(name) & (t->nvar_slots - 1); t->var_slots[j];
	     j = (j + 1) & (t->nvar_slots - 1))
		if (!strcmp(t->vars.v[t->var_slots[j] - 1].name, name))
			return &t->vars.v[t->var_slots[j] - 1];
	return NULL;
}

/* ---- sizeof / alignof ---- */

static int is_qual(enum hm_type_kind k)
{
	return k == HM_KIND_CONST || k == HM_KIND_VOLATILE || k == HM_KIND_RESTRICT ||
	       k == HM_KIND_ATOMIC;
}

hm_type_id hm_types_resolve(const hm_types *t, hm_type_id id)
{
	for (unsigned guard = 0; id && id < t->types.n && guard < 256; guard++) {
		const hm_type *ty = &t->types.v[id];

		if (ty->kind != HM_KIND_TYPEDEF && !is_qual(ty->kind))
			return id;
		id = ty->target;
	}
	return id < t->types.n ? id : 0;
}

/* How many array levels sizeof follows before it gives up (0): real
 * types nest far less, corrupt ones may loop. */
#define SIZEOF_DEPTH 64

static uint64_t sizeof_depth(const hm_types *t, hm_type_id id, unsigned depth)
{
	const hm_type *ty;
	uint64_t n = 1;

	id = hm_types_resolve(t, id);
	if (!id || depth > SIZEOF_DEPTH)
		return 0;
	ty = &t->types.v[id];
	switch (ty->kind) {
	case HM_KIND_ARRAY:
		if (ty->size)
			return ty->size;
		for (uint32_t i = 0; i < ty->nr; i++) {
			uint64_t d = t->dims.v[ty->first + i];

			if (d == HM_DIM_FLEXIBLE)
				return 0;
			if (__builtin_mul_overflow(n, d, &n))
				return 0;	/* corrupt dims: size unknown */
		}
		/* Bounded like DWARF sizes (dwarf.c, 1 TiB) so that layout's bit
		 * arithmetic cannot overflow on corrupt dims. */
		if (__builtin_mul_overflow(n, sizeof_depth(t, ty->target, depth + 1), &n) || n >> 40)
			return 0;
		return n;
	case HM_KIND_REFERENCE:
	case HM_KIND_RVALUE_REFERENCE:
		return ty->size ? ty->size : t->pointer_size;
	case HM_KIND_FUNC:
		return 0;
	default:
		return ty->size;
	}
}

uint64_t hm_types_sizeof(const hm_types *t, hm_type_id id)
{
	return sizeof_depth(t, id, 0);
}

/* ---- memoised folds ---- */

static uint32_t memo_get(const hm_types *t, hm_type_id id, enum hm_memo_slot s)
{
	if (id >= t->nmemo)
		return 0;
	return __atomic_load_n(&t->memo[(size_t)id * HM_MEMO_SLOTS + s], __ATOMIC_RELAXED);
}

static void memo_put(const hm_types *t, hm_type_id id, enum hm_memo_slot s, uint32_t v)
{
	if (id < t->nmemo)
		__atomic_store_n(&t->memo[(size_t)id * HM_MEMO_SLOTS + s], v, __ATOMIC_RELAXED);
}

struct fold_frame {
	hm_type_id id;
	uint32_t i;	/* next member */
	uint64_t acc;
};

/* Room for one more frame: the first ones live on the C stack. */
static int fold_room(struct fold_frame **st, struct fold_frame *local, size_t *cap, size_t sp)
{
	struct fold_frame *n;

	if (sp < *cap)
		return 1;
	if (*st == local) {
		n = malloc(*cap * 2 * sizeof(*n));
		if (n)
			memcpy(n, local, sp * sizeof(*n));
	} else {
		n = realloc(*st, *cap * 2 * sizeof(*n));
	}
	if (!n)
		return 0;
	*st = n;
	*cap *= 2;
	return 1;
}

uint32_t hm_types_fold(const hm_types *t, hm_type_id rec, const struct hm_fold *f)
{
	struct fold_frame local[32], *st = local, *fr;
	size_t sp = 0, cap = 32;
	uint32_t v;
	int keep = 1;	/* out of memory, a value was guessed: store no more */

	if (!rec || rec >= t->types.n)
		return 1;
	if ((v = memo_get(t, rec, f->slot)))
		return v;
	st[sp++] = (struct fold_frame){ rec, 0, 0 };
	for (;;) {
		const hm_type *ty;
		hm_type_id need = 0;

		fr = &st[sp - 1];
		ty = &t->types.v[fr->id];
		if (fr->i < ty->nr) {
			v = f->member(t, ty, fr->i, &need);
			if (!v && need)
				v = need < t->types.n ? memo_get(t, need, f->slot) : 1;
			if (!v && need) {
				/* a path of more records than the table has is a cycle */
				if (sp < t->types.n && fold_room(&st, local, &cap, sp)) {
					st[sp++] = (struct fold_frame){ need, 0, 0 };
					continue;
				}
				keep &= sp >= t->types.n;
				v = 1;
			}
			if (v)
				f->join(t, ty, fr->i, v, &fr->acc);
			fr->i++;
			continue;
		}
		v = f->finish(t, ty, fr->acc);
		if (keep)
			memo_put(t, fr->id, f->slot, v);
		if (--sp == 0)
			break;
		fr = &st[sp - 1];
		f->join(t, &t->types.v[fr->id], fr->i, v, &fr->acc);
		fr->i++;
	}
	if (st != local)
		free(st);
	return v;
}

/* ---- alignof ---- */

/* Types that hold no record: bases, pointers, enums and the like. */
static uint32_t scalar_align(const hm_types *t, const hm_type *ty)
{
	switch (ty->kind) {
	case HM_KIND_BASE:
		if (ty->alignment)
			return ty->alignment;
		if (ty->name && strstr(ty->name, "complex") && ty->size >= 2)
			return ty->size / 2;
		return ty->size > 16 ? 16 : ty->size ? (uint32_t)ty->size : 1;
	case HM_KIND_FUNC:
	case HM_KIND_VOID:
		return 1;
	case HM_KIND_REFERENCE:
	case HM_KIND_RVALUE_REFERENCE:
		return t->pointer_size;
	case HM_KIND_PTR_TO_MEMBER:
		return ty->size >= t->pointer_size ? t->pointer_size : ty->size ? ty->size : 1;
	default:
		if (ty->alignment)
			return ty->alignment;
		return ty->size > 16 ? 16 : ty->size ? (uint32_t)ty->size : 1;
	}
}

/* The alignment of type id, or 0 with *rec set to the record (through
 * typedefs, qualifiers and arrays) whose alignment it is.  DW_AT_alignment
 * on a typedef or qualified type wins.  The load checks bound every such
 * chain (hm_types_check_chains()); the hop limit guards an unchecked table. */
static uint32_t align_or_record(const hm_types *t, hm_type_id id, hm_type_id *rec)
{
	for (unsigned hop = 0; hop < 512; hop++) {
		const hm_type *ty;

		if (!id || id >= t->types.n)
			return 1;
		ty = &t->types.v[id];
		if (ty->kind == HM_KIND_TYPEDEF || is_qual(ty->kind)) {
			if (ty->alignment)
				return ty->alignment;
			id = ty->target;
		} else if (ty->kind == HM_KIND_ARRAY) {
			id = ty->target;
		} else if (hm_kind_is_record(ty->kind)) {
			*rec = id;
			return 0;
		} else {
			return scalar_align(t, ty);
		}
	}
	return 1;
}

static uint32_t align_member(const hm_types *t, const hm_type *rec, uint32_t i,
			     hm_type_id *need)
{
	const hm_member *m = &hm_types_members(t, rec)[i];
	uint32_t a;

	if (m->flags & HM_MEMBER_STATIC)
		return 0;
	if ((m->flags & HM_MEMBER_BITFIELD) && !m->name)
		return 0;	/* unnamed bitfields don't align the struct */
	a = align_or_record(t, m->type, need);
	return a || *need ? a : 1;	/* pointer size 0: as good as 1 here */
}

#define ALIGN_PACKED (1ULL << 32)

/* acc: the largest member alignment so far, ALIGN_PACKED once a member sits
 * off its alignment */
static void align_join(const hm_types *t, const hm_type *rec, uint32_t i, uint32_t a,
		       uint64_t *acc)
{
	const hm_member *m = &hm_types_members(t, rec)[i];

	if (m->alignment > a)
		a = m->alignment;
	if (!(m->flags & (HM_MEMBER_BITFIELD | HM_MEMBER_VIRTUAL_BASE)) &&
	    a > 1 && m->offset % a)
		*acc |= ALIGN_PACKED;
	if (a > (uint32_t)*acc)
		*acc = (*acc & ALIGN_PACKED) | a;
}

static uint32_t align_finish(const hm_types *t, const hm_type *ty, uint64_t acc)
{
	uint32_t al = (uint32_t)acc ? (uint32_t)acc : 1;
	int packed = !!(acc & ALIGN_PACKED);

	if (ty->size % al)
		packed = 1;
	if (packed)
		al = 1;
	if (ty->alignment > al || (packed && ty->alignment))
		al = ty->alignment;
	return al;
}

static const struct hm_fold align_fold = {
	.slot = HM_MEMO_ALIGN,
	.member = align_member,
	.join = align_join,
	.finish = align_finish,
};

uint32_t hm_types_alignof(const hm_types *t, hm_type_id id)
{
	hm_type_id rec = 0;
	uint32_t a = align_or_record(t, id, &rec);

	return a || !rec ? a : hm_types_fold(t, rec, &align_fold);
}

/* ---- C declarations: the one speller (types/declare.h) ---- */

/* HM_DECL_C's bound on declarator operators and qualifier runs: past it
 * the type is a loop (corrupt input), -ELOOP. */
#define DECL_DEPTH 128

struct speller {
	const hm_types *t;
	enum hm_decl_style style;
};

static const char *qual_word(enum hm_type_kind k)
{
	switch (k) {
	case HM_KIND_CONST: return "const";
	case HM_KIND_VOLATILE: return "volatile";
	case HM_KIND_RESTRICT: return "restrict";
	case HM_KIND_ATOMIC: return "_Atomic";
	default: return "";
	}
}

static const enum hm_type_kind qual_order[] = {
	HM_KIND_CONST, HM_KIND_VOLATILE, HM_KIND_RESTRICT, HM_KIND_ATOMIC,
};

static void sb_prepend(hm_sbuf *b, const char *s)
{
	hm_sbuf_insert(b, 0, s, strlen(s));
}

static void sb_wrap(hm_sbuf *b)
{
	sb_prepend(b, "(");
	hm_sbuf_puts(b, ")");
}

/* HM_DECL_C: whether the declarator starts with a qualifier word. */
static int starts_qual(const hm_sbuf *d)
{
	for (unsigned k = 0; k < sizeof(qual_order) / sizeof(qual_order[0]); k++) {
		const char *w = qual_word(qual_order[k]);
		size_t n = strlen(w);

		if (d->len >= n && !strncmp(d->p, w, n) && (d->p[n] == ' ' || !d->p[n]))
			return 1;
	}
	return 0;
}

/* HM_DECL_C: whether an array or function operator applied now needs the
 * declarator in parentheses (it starts with a pointer or member pointer). */
static int starts_pointer(const hm_sbuf *d)
{
	return d->len && (d->p[0] == '*' || d->p[0] == '&' ||
			  (d->len > 3 && strstr(d->p, "::*") && d->p[0] != '('));
}

/* HM_DECL_BODY sees ids as the body printer does: 0 is no type. */
static const hm_type *body_type(const hm_types *t, hm_type_id id)
{
	return id ? hm_types_get(t, id) : NULL;
}

static enum hm_type_kind body_kind(const hm_types *t, hm_type_id id)
{
	const hm_type *ty = body_type(t, id);

	return ty ? ty->kind : HM_KIND_VOID;
}

static hm_type_id body_skip_quals(const hm_types *t, hm_type_id id)
{
	const hm_type *ty;
	unsigned guard = 0;

	while ((ty = body_type(t, id)) && is_qual(ty->kind) && guard++ < 16)
		id = ty->target;
	return id;
}

static int spell(const struct speller *s, hm_type_id id, unsigned qmask, hm_sbuf *spec,
		 hm_sbuf *decl, unsigned depth);

/* "(int, char *)": parameters from `first` on (a member function's type
 * lists `this` first). */
static void spell_params(const struct speller *s, const hm_type *fn, uint32_t first,
			 hm_sbuf *decl, unsigned depth)
{
	const hm_type_id *p = hmi_types_params(s->t, fn);
	uint32_t n = fn->nr - first;

	hm_sbuf_puts(decl, "(");
	for (uint32_t i = first; i < fn->nr; i++) {
		hm_sbuf ps = { 0 }, pd = { 0 };

		if (i > first)
			hm_sbuf_puts(decl, ", ");
		/* a parameter that cannot be spelled keeps what it got */
		spell(s, p[i], 0, &ps, &pd, depth + 1);
		hm_sbuf_puts(decl, ps.p ? ps.p : "");
		if (pd.len) {
			if (s->style != HM_DECL_C || pd.p[0] != '[')
				hm_sbuf_puts(decl, " ");
			hm_sbuf_puts(decl, pd.p);
		}
		if (!decl->err)
			decl->err = ps.err ? ps.err : pd.err;
		free(ps.p);
		free(pd.p);
	}
	if (s->style != HM_DECL_C)
		hm_sbuf_puts(decl, n ? (fn->varargs ? ", ...)" : ")") :
				   fn->prototyped ? "void)" : ")");
	else if (fn->varargs && !n && !fn->prototyped)
		hm_sbuf_puts(decl, ")");	/* gcc marks `void f()` with unspecified parameters */
	else if (fn->varargs)
		hm_sbuf_puts(decl, n ? ", ...)" : "...)");
	else
		hm_sbuf_puts(decl, !n && fn->prototyped ? "void)" : ")");
}

int hmi_types_tag_name(const hm_type *ty, hm_sbuf *out)
{
	switch (ty->kind) {
	case HM_KIND_VOID:
		hm_sbuf_puts(out, "void");
		return 1;
	case HM_KIND_BASE:
	case HM_KIND_TYPEDEF:
		hm_sbuf_puts(out, ty->name ? ty->name : "");
		return 1;
	case HM_KIND_UNSPECIFIED:
		hm_sbuf_puts(out, ty->name ? ty->name : "void");
		return 1;
	case HM_KIND_STRUCT:
	case HM_KIND_UNION:
	case HM_KIND_CLASS:
	case HM_KIND_ENUM:
		hm_sbuf_puts(out, ty->kind == HM_KIND_ENUM ? "enum " : ty->kind == HM_KIND_UNION ?
			     "union " : ty->kind == HM_KIND_CLASS ? "class " : "struct ");
		hm_sbuf_puts(out, ty->name ? ty->name : "");
		return 1;
	default:
		return 0;
	}
}

/* The specifier of a type that is not a declarator operator, with the
 * qualifiers HM_DECL_C kept for it in qmask. */
static void spell_specifier(const struct speller *s, const hm_type *ty, unsigned qmask,
			    hm_sbuf *spec, unsigned depth)
{
	if (s->style == HM_DECL_C) {
		for (unsigned k = 0; k < sizeof(qual_order) / sizeof(qual_order[0]); k++) {
			if (qmask & (1u << qual_order[k])) {
				hm_sbuf_puts(spec, qual_word(qual_order[k]));
				hm_sbuf_puts(spec, " ");
			}
		}
		switch (ty->kind) {
		case HM_KIND_STRUCT: hm_sbuf_puts(spec, "struct "); break;
		case HM_KIND_UNION: hm_sbuf_puts(spec, "union "); break;
		case HM_KIND_CLASS: hm_sbuf_puts(spec, "class "); break;
		case HM_KIND_ENUM: hm_sbuf_puts(spec, "enum "); break;
		case HM_KIND_VOID: hm_sbuf_puts(spec, "void"); return;
		default: hm_sbuf_puts(spec, ty->name ? ty->name : "<anon>"); return;
		}
		hm_sbuf_puts(spec, ty->name ? ty->name : "{...}");
		return;
	}
	/* pahole's __tag__name, which counts a level of its own */
	if (depth + 1 > HM_NEST_MAX) {
		hm_sbuf_puts(spec, "void");
		return;
	}
	hmi_types_tag_name(ty, spec);
}

/* A run of qualifiers at id. */
static int spell_quals(const struct speller *s, hm_type_id id, const hm_type *ty, unsigned qmask,
		       hm_sbuf *spec, hm_sbuf *decl, unsigned depth)
{
	const hm_types *t = s->t;

	if (s->style == HM_DECL_C) {
		int on_ptr = 0;
		unsigned hop = 0;

		/* look through further qualifiers to what they qualify (bounded:
		 * corrupt input can chain them in a cycle) */
		for (hm_type_id x = ty->target; x && x < t->types.n && hop < DECL_DEPTH; hop++) {
			const hm_type *w = &t->types.v[x];

			if (is_qual(w->kind)) {
				x = w->target;
				continue;
			}
			on_ptr = w->kind == HM_KIND_POINTER || w->kind == HM_KIND_PTR_TO_MEMBER ||
				 w->kind == HM_KIND_REFERENCE || w->kind == HM_KIND_RVALUE_REFERENCE;
			break;
		}
		if (on_ptr) {
			if (decl->len)
				sb_prepend(decl, " ");
			sb_prepend(decl, qual_word(ty->kind));
		} else {
			qmask |= 1u << ty->kind;
		}
		return spell(s, ty->target, qmask, spec, decl, depth + 1);
	} else {
		hm_sbuf words = { 0 };
		hm_type_id under = id;
		unsigned guard = 0;
		const hm_type *q;

		/* the whole run (up to 16) at once, as DWARF chains it */
		while ((q = body_type(t, under)) && is_qual(q->kind) && guard++ < 16) {
			hm_sbuf_puts(&words, " ");
			hm_sbuf_puts(&words, qual_word(q->kind));
			under = q->target;
		}
		if (words.err)
			return words.err;
		if (body_kind(t, under) == HM_KIND_POINTER) {
			/* "*const p": qualifiers follow the star */
			if (decl->len)
				sb_prepend(decl, " ");
			sb_prepend(decl, words.p + 1);
		} else {
			hm_sbuf_puts(spec, words.p + 1);
			hm_sbuf_puts(spec, " ");
		}
		free(words.p);
		return spell(s, under, 0, spec, decl, depth + 1);
	}
}

/* Build the specifier into spec and the declarator around what decl holds,
 * from the outermost operator in. */
static int spell(const struct speller *s, hm_type_id id, unsigned qmask, hm_sbuf *spec,
		 hm_sbuf *decl, unsigned depth)
{
	const hm_types *t = s->t;
	int c = s->style == HM_DECL_C;
	const hm_type *ty;

	if (c) {
		if (depth >= DECL_DEPTH)
			return -ELOOP;
		if (id >= t->types.n)
			return -EINVAL;
		ty = &t->types.v[id];
	} else {
		ty = body_type(t, id);
		if (!ty || depth > HM_NEST_MAX) {
			hm_sbuf_puts(spec, "void");
			return spec->err ? spec->err : decl->err;
		}
	}
	switch (ty->kind) {
	case HM_KIND_CONST:
	case HM_KIND_VOLATILE:
	case HM_KIND_RESTRICT:
	case HM_KIND_ATOMIC:
		return spell_quals(s, id, ty, qmask, spec, decl, depth);
	case HM_KIND_POINTER:
	case HM_KIND_REFERENCE:
	case HM_KIND_RVALUE_REFERENCE: {
		const char *op = ty->kind == HM_KIND_POINTER ? "*" :
				 ty->kind == HM_KIND_REFERENCE ? "&" : "&&";

		if (c) {
			/* "int * const p": a qualified pointer gets a space after the star;
			 * parentheses come with the array or function operator */
			sb_prepend(decl, ty->kind == HM_KIND_POINTER && starts_qual(decl) ? "* " : op);
		} else {
			enum hm_type_kind k = body_kind(t, body_skip_quals(t, ty->target));

			sb_prepend(decl, op);
			if (k == HM_KIND_ARRAY || k == HM_KIND_FUNC)
				sb_wrap(decl);
		}
		return spell(s, ty->target, qmask, spec, decl, depth + 1);
	}
	case HM_KIND_PTR_TO_MEMBER: {
		const hm_type *cls, *fn;

		if (c) {
			cls = ty->containing < t->types.n ? &t->types.v[ty->containing] : NULL;
			sb_prepend(decl, "::*");
			sb_prepend(decl, cls && cls->name ? cls->name : "<anon>");
			return spell(s, ty->target, qmask, spec, decl, depth + 1);
		}
		cls = body_type(t, ty->containing);
		fn = body_type(t, body_skip_quals(t, ty->target));
		sb_prepend(decl, "::*");
		sb_prepend(decl, cls && cls->name ? cls->name : "");
		sb_wrap(decl);
		if (fn && fn->kind == HM_KIND_FUNC) {
			spell_params(s, fn, fn->nr ? 1 : 0, decl, depth);
			return spell(s, fn->target, 0, spec, decl, depth + 1);
		}
		return spell(s, ty->target, 0, spec, decl, depth + 1);
	}
	case HM_KIND_ARRAY: {
		const uint64_t *dims = hmi_types_dims(t, ty);

		if (ty->vector) {	/* GNU C: the attribute follows the declarator */
			uint64_t bytes = hm_types_sizeof(t, ty->target);

			for (uint32_t i = 0; i < ty->nr; i++)
				bytes *= dims[i] == HM_DIM_FLEXIBLE ? 0 : dims[i];
			hm_sbuf_printf(decl, decl->len ? " %s((vector_size(%llu)))" :
				       "%s((vector_size(%llu)))", "__attribute__",
				       (unsigned long long)bytes);
			return spell(s, ty->target, qmask, spec, decl, depth + 1);
		}
		if (c && starts_pointer(decl))
			sb_wrap(decl);
		for (uint32_t i = 0; i < ty->nr; i++) {
			if (dims[i] == HM_DIM_FLEXIBLE)
				hm_sbuf_puts(decl, "[]");
			else
				hm_sbuf_printf(decl, "[%llu]", (unsigned long long)dims[i]);
		}
		if (c && !ty->nr)
			hm_sbuf_puts(decl, "[]");
		return spell(s, ty->target, qmask, spec, decl, depth + 1);
	}
	case HM_KIND_FUNC:
		if (c && starts_pointer(decl))
			sb_wrap(decl);
		spell_params(s, ty, 0, decl, depth);
		return spell(s, ty->target, qmask, spec, decl, depth + 1);
	default:
		spell_specifier(s, ty, qmask, spec, depth);
		return spec->err ? spec->err : decl->err;
	}
}

int hm_types_declare_into(const hm_types *t, hm_type_id id, enum hm_decl_style style,
			  hm_sbuf *spec, hm_sbuf *decl)
{
	struct speller s = { .t = t, .style = style };

	return spell(&s, id, 0, spec, decl, 0);
}

static int copy_out(const hm_sbuf *b, char *buf, size_t len)
{
	const char *s = b->p ? b->p : "";

	if (len) {
		size_t n = b->len < len - 1 ? b->len : len - 1;

		memcpy(buf, s, n);
		buf[n] = 0;
	}
	return (int)b->len;
}

int hm_types_declare_split(const hm_types *t, hm_type_id id, const char *name,
			   char *type_buf, size_t type_len, char *decl_buf, size_t decl_len)
{
	hm_sbuf spec = { 0 }, decl = { 0 };
	int err, n;

	if (name)
		hm_sbuf_puts(&decl, name);
	err = hm_types_declare_into(t, id, HM_DECL_C, &spec, &decl);
	if (!err) {
		n = copy_out(&decl, decl_buf, decl_len);
		err = copy_out(&spec, type_buf, type_len);
		if (n > err)
			err = n;
	}
	free(spec.p);
	free(decl.p);
	return err;
}

int hm_types_declare(const hm_types *t, hm_type_id id, const char *name, char *buf, size_t len)
{
	hm_sbuf spec = { 0 }, decl = { 0 };
	int err;

	if (name)
		hm_sbuf_puts(&decl, name);
	err = hm_types_declare_into(t, id, HM_DECL_C, &spec, &decl);
	if (!err) {
		/* "int x", "char (*p)[16]", "int * const", but "int[4]" */
		if (decl.len && decl.p[0] != '[')
			hm_sbuf_puts(&spec, " ");
		if (decl.len)
			hm_sbuf_puts(&spec, decl.p);
		err = spec.err ? spec.err : copy_out(&spec, buf, len);
	}
	free(spec.p);
	free(decl.p);
	return err;
}
