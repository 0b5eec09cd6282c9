/* The scope index's answers, kept across runs (dwarf-scope.h,
 * hm_scopes_open_answers()).
 *
 * A report asks a binary's scopes about the few hundred PCs its samples
 * hit, and to answer the first question the index opens the DWARF: for the
 * C library of libc6-dbg that is inflating megabytes of compressed
 * sections and reading every unit's header, most of the time a small
 * report takes.  The answers themselves are small, and the same program
 * is profiled again and again: each answer the index gives is recorded
 * here, the caller saves them (load/scopecache.c keys the file by the
 * DWARF file's build-id and the code that wrote it), and the next run
 * answers from them, opening the DWARF only on a PC it has not seen.
 *
 * What is recorded is what the lookup returned, nothing it only touched:
 * an answer made while a diagnostic was said (a corrupt unit skipped, an
 * error) is not kept, so that the run that asks again says it again.
 *
 * The saved bytes: a header (counts), the answers, the variables they
 * list, then the strings they name (offset + 1 into the strings, 0 for
 * none), all in the host's byte order (the file's header pins it).  Every
 * count, index and offset is checked on reading: a file that fails is no
 * answers, never a wrong one. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf/dwarf-scope-int.h"

struct ans_hdr {
	uint32_t nans, nvars;
	uint64_t nstrs;
};

struct ans_rec {
	uint64_t pc;
	uint32_t kind;
	int32_t rc;
	uint32_t name, first, depth, fn_depth, func, pad;
};

struct var_rec {
	uint32_t name, func, record, flags;
	int64_t off;
	uint64_t record_size;
	int32_t reg, fb_reg, record_kind;
	uint32_t kind, ptr_depth, depth, fn_depth, pad;
};

#define MAX_ANSWERS (1u << 22)	/* a file that large is not ours */

static uint64_t ans_hash(unsigned kind, uint64_t pc, const char *name)
{
	uint64_t h = hm_hash_u64(pc * 4 + kind);

	return name ? hm_hash_bytes(name, strlen(name), h) : h;
}

static int same(const struct answer *a, unsigned kind, uint64_t pc, const char *name)
{
	return a->kind == kind && a->pc == pc &&
	       (a->name == name || (a->name && name && !strcmp(a->name, name)));
}

static int slots_grow(struct answers *x)
{
	size_t n = x->nslots ? 2 * x->nslots : 256;
	uint32_t *t = calloc(n, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < x->n; i++) {
		const struct answer *a = &x->v[i];
		size_t j = ans_hash(a->kind, a->pc, a->name) & (n - 1);

		while (t[j])
			j = (j + 1) & (n - 1);
		t[j] = (uint32_t)i + 1;
	}
	free(x->slots);
	x->slots = t;
	x->nslots = n;
	return 0;
}

const struct answer *dws_answer_find(const struct answers *x, unsigned kind, uint64_t pc,
				     const char *name)
{
	size_t j;

	if (!x || !x->nslots)
		return NULL;
	for (j = ans_hash(kind, pc, name) & (x->nslots - 1); x->slots[j];
	     j = (j + 1) & (x->nslots - 1))
		if (same(&x->v[x->slots[j] - 1], kind, pc, name))
			return &x->v[x->slots[j] - 1];
	return NULL;
}

/* Append a (its vars already appended at a->first) and index it. */
static int add(struct answers *x, const struct answer *a)
{
	size_t j;

	if (x->n >= MAX_ANSWERS)
		return -E2BIG;
	if (2 * (x->n + 1) > x->nslots && slots_grow(x))
		return -ENOMEM;
	if (hm_grow((void **)&x->v, &x->cap, x->n + 1, sizeof(*x->v)))
		return -ENOMEM;
	x->v[x->n] = *a;
	for (j = ans_hash(a->kind, a->pc, a->name) & (x->nslots - 1); x->slots[j];
	     j = (j + 1) & (x->nslots - 1))
		;
	x->slots[j] = (uint32_t)++x->n;
	return 0;
}

static int add_vars(struct answers *x, const struct hm_scope_var *v, size_t n, uint32_t *first)
{
	if (x->nvars + n > MAX_ANSWERS)
		return -E2BIG;
	if (hm_grow((void **)&x->vars, &x->cvars, x->nvars + n, sizeof(*x->vars)))
		return -ENOMEM;
	memcpy(x->vars + x->nvars, v, n * sizeof(*v));
	*first = (uint32_t)x->nvars;
	x->nvars += n;
	return 0;
}

long dws_answers_pcs(const struct answers *x, uint64_t **pcs)
{
	size_t i, n = 0, k;
	uint64_t *v;

	*pcs = NULL;
	for (i = 0; x && i < x->n; i++)
		n += x->v[i].kind == ANS_AT || x->v[i].kind == ANS_SCOPE;
	if (!n)
		return 0;
	if (!(v = malloc(n * sizeof(*v))))
		return -ENOMEM;
	for (i = 0, n = 0; i < x->n; i++)
		if (x->v[i].kind == ANS_AT || x->v[i].kind == ANS_SCOPE)
			v[n++] = x->v[i].pc;
	qsort(v, n, sizeof(*v), dws_cmp_u64);
	for (i = 1, k = 1; i < n; i++)
		if (v[i] != v[k - 1])
			v[k++] = v[i];
	*pcs = v;
	return (long)k;
}

void dws_answer_note(struct answers *x, unsigned kind, uint64_t pc, const char *name, int rc,
		     const struct hm_scope_var *vars, const char *func, unsigned depth,
		     unsigned fn_depth)
{
	struct answer a = { pc, NULL, kind, rc, 0, depth, fn_depth, func };
	size_t nv = kind == ANS_AT ? (size_t)rc : kind == ANS_GLOBAL && rc == 1;

	if (!x || x->tainted || rc < 0 || dws_answer_find(x, kind, pc, name))
		return;
	/* the name asked and a line's label are the caller's: keep copies */
	if (name && !(a.name = hm_strtab_intern(&x->strs, name)))
		return;
	if (kind == ANS_LINE && func && !(a.func = hm_strtab_intern(&x->strs, func)))
		return;
	if (nv && add_vars(x, vars, nv, &a.first))
		return;
	add(x, &a);
}

int dws_answer_vars(hm_scopes *s, const struct answer *a, const struct hm_scope_var **vars)
{
	size_t n = (size_t)a->rc;

	if (GROW(s, s->out, n, s->cout))
		return -ENOMEM;
	if (n)	/* none: the answers may have no vars at all */
		memcpy(s->out, s->answers->vars + a->first, n * sizeof(*s->out));
	*vars = s->out;
	return a->rc;
}

void dws_answers_free(struct answers *x)
{
	if (!x)
		return;
	free(x->v);
	free(x->vars);
	free(x->slots);
	free(x->blob);
	hm_strtab_free(&x->strs);
	free(x);
}

/* ---- reading ---- */

/* The string at reference r (offset + 1, 0 none) of strs[n]; *bad on a
 * reference out of range.  strs[n - 1] is NUL (checked): every string
 * ends inside. */
static const char *str_at(const char *strs, uint64_t n, uint32_t r, int *bad)
{
	if (!r)
		return NULL;
	if (r > n) {
		*bad = 1;
		return NULL;
	}
	return strs + r - 1;
}

int dws_answers_parse(const void *blob, size_t len, struct answers **out)
{
	struct answers *x = calloc(1, sizeof(*x));
	const struct ans_rec *ar;
	const struct var_rec *vr;
	struct ans_hdr h;
	const char *strs;
	int bad = 0;

	*out = NULL;
	if (!x)
		return -ENOMEM;
	if (len < sizeof(h))
		goto bad;
	memcpy(&h, blob, sizeof(h));
	if (h.nans > MAX_ANSWERS || h.nvars > MAX_ANSWERS ||
	    h.nstrs != len - sizeof(h) - (uint64_t)h.nans * sizeof(*ar) -
			   (uint64_t)h.nvars * sizeof(*vr) ||
	    len < sizeof(h) + (uint64_t)h.nans * sizeof(*ar) + (uint64_t)h.nvars * sizeof(*vr))
		goto bad;
	/* the records are read in place from a copy that is kept (it holds
	 * the strings the answers point to): malloc aligns it */
	if (!(x->blob = malloc(len ? len : 1)))
		goto nomem;
	memcpy(x->blob, blob, len);
	ar = (const void *)((const char *)x->blob + sizeof(h));
	vr = (const void *)(ar + h.nans);
	strs = (const char *)(vr + h.nvars);
	if (h.nstrs && strs[h.nstrs - 1])
		goto bad;
	if (h.nvars && !(x->vars = calloc(h.nvars, sizeof(*x->vars))))
		goto nomem;
	x->cvars = x->nvars = h.nvars;
	for (uint32_t i = 0; i < h.nvars; i++) {
		const struct var_rec *r = &vr[i];
		struct hm_scope_var *v = &x->vars[i];

		/* what the index can give, no more: a consumer may count on it */
		if (r->kind > HM_VLOC_ADDR || r->flags > 7 || !r->name ||
		    r->ptr_depth > MAX_TYPE_HOPS || r->depth > MAX_SCOPE_DEPTH ||
		    r->fn_depth > r->depth ||
		    (r->record_kind && r->record_kind != DW_TAG_structure_type &&
		     r->record_kind != DW_TAG_union_type && r->record_kind != DW_TAG_class_type))
			goto bad;
		v->name = str_at(strs, h.nstrs, r->name, &bad);
		v->func = str_at(strs, h.nstrs, r->func, &bad);
		v->record = str_at(strs, h.nstrs, r->record, &bad);
		v->is_param = r->flags & 1;
		v->inlined = r->flags >> 1 & 1;
		v->fb_cfa = r->flags >> 2 & 1;
		v->kind = r->kind;
		v->reg = r->reg;
		v->off = r->off;
		v->fb_reg = r->fb_reg;
		v->ptr_depth = r->ptr_depth;
		v->record_kind = r->record_kind;
		v->record_size = r->record_size;
		v->depth = r->depth;
		v->fn_depth = r->fn_depth;
	}
	for (uint32_t i = 0; i < h.nans; i++) {
		const struct ans_rec *r = &ar[i];
		struct answer a = { r->pc, NULL, r->kind, r->rc, r->first, r->depth, r->fn_depth,
				    NULL };
		uint64_t nv;

		if (r->kind < ANS_AT || r->kind > ANS_LINE || r->rc < 0 ||
		    (r->kind != ANS_AT && r->rc > 1) || (r->kind == ANS_GLOBAL) != !!r->name ||
		    (r->kind == ANS_LINE && r->rc && !r->func) ||
		    r->depth > MAX_SCOPE_DEPTH || r->fn_depth > r->depth)
			goto bad;
		nv = r->kind == ANS_AT ? (uint64_t)r->rc : r->kind == ANS_GLOBAL && r->rc == 1;
		if (nv && (uint64_t)r->first + nv > h.nvars)
			goto bad;
		a.name = str_at(strs, h.nstrs, r->name, &bad);
		a.func = str_at(strs, h.nstrs, r->func, &bad);
		if (bad || dws_answer_find(x, a.kind, a.pc, a.name))
			goto bad;
		if (add(x, &a))
			goto nomem;
	}
	if (bad)
		goto bad;
	x->nloaded = x->n;
	*out = x;
	return 0;
bad:
	dws_answers_free(x);
	return -EBADMSG;
nomem:
	dws_answers_free(x);
	return -ENOMEM;
}

/* ---- writing ---- */

struct strsave {
	const char **key;	/* the strings written, by content */
	uint32_t *ref;
	size_t nslots, used;
	char *buf;
	size_t len, cap;
};

static uint32_t str_ref(struct strsave *m, const char *s, int *err)
{
	size_t n, j;

	if (!s)
		return 0;
	n = strlen(s);
	if (2 * (m->used + 1) > m->nslots) {
		size_t ns = m->nslots ? 2 * m->nslots : 512;
		const char **key = calloc(ns, sizeof(*key));
		uint32_t *ref = calloc(ns, sizeof(*ref));

		if (!key || !ref) {
			free(key);
			free(ref);
			*err = -ENOMEM;
			return 0;
		}
		for (size_t i = 0; i < m->nslots; i++) {
			if (!m->key[i])
				continue;
			for (j = hm_hash_bytes(m->key[i], strlen(m->key[i]), 0) & (ns - 1); key[j];
			     j = (j + 1) & (ns - 1))
				;
			key[j] = m->key[i];
			ref[j] = m->ref[i];
		}
		free(m->key);
		free(m->ref);
		m->key = key;
		m->ref = ref;
		m->nslots = ns;
	}
	for (j = hm_hash_bytes(s, n, 0) & (m->nslots - 1); m->key[j]; j = (j + 1) & (m->nslots - 1))
		if (!strcmp(m->key[j], s))
			return m->ref[j];
	if (m->len + n + 1 > UINT32_MAX - 1 ||
	    hm_grow((void **)&m->buf, &m->cap, m->len + n + 1, 1)) {
		*err = -ENOMEM;
		return 0;
	}
	memcpy(m->buf + m->len, s, n + 1);
	m->key[j] = s;
	m->ref[j] = (uint32_t)m->len + 1;
	m->len += n + 1;
	m->used++;
	return m->ref[j];
}

int hm_scopes_answers(hm_scopes *s, void **blob, size_t *len)
{
	const struct answers *x = s->answers;
	struct strsave m = { 0 };
	struct ans_rec *ar = NULL;
	struct var_rec *vr = NULL;
	struct ans_hdr h;
	char *p;
	int err = 0;

	*blob = NULL;
	*len = 0;
	if (!x || x->tainted || x->n == x->nloaded)
		return 0;
	ar = calloc(x->n + 1, sizeof(*ar));
	vr = calloc(x->nvars + 1, sizeof(*vr));
	if (!ar || !vr) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < x->nvars; i++) {
		const struct hm_scope_var *v = &x->vars[i];

		vr[i] = (struct var_rec){
			str_ref(&m, v->name, &err), str_ref(&m, v->func, &err),
			str_ref(&m, v->record, &err),
			v->is_param | v->inlined << 1 | v->fb_cfa << 2, v->off, v->record_size,
			v->reg, v->fb_reg, v->record_kind, v->kind, v->ptr_depth, v->depth,
			v->fn_depth, 0 };
	}
	for (size_t i = 0; i < x->n; i++) {
		const struct answer *a = &x->v[i];

		ar[i] = (struct ans_rec){ a->pc, a->kind, a->rc, str_ref(&m, a->name, &err),
					  a->first, a->depth, a->fn_depth,
					  str_ref(&m, a->func, &err), 0 };
	}
	if (err)
		goto out;
	h = (struct ans_hdr){ (uint32_t)x->n, (uint32_t)x->nvars, m.len };
	*len = sizeof(h) + x->n * sizeof(*ar) + x->nvars * sizeof(*vr) + m.len;
	if (!(p = malloc(*len))) {
		*len = 0;
		err = -ENOMEM;
		goto out;
	}
	*blob = p;
	memcpy(p, &h, sizeof(h));
	p += sizeof(h);
	memcpy(p, ar, x->n * sizeof(*ar));
	p += x->n * sizeof(*ar);
	memcpy(p, vr, x->nvars * sizeof(*vr));
	p += x->nvars * sizeof(*vr);
	if (m.len)
		memcpy(p, m.buf, m.len);
out:
	free(ar);
	free(vr);
	free(m.key);
	free(m.ref);
	free(m.buf);
	return err ? err : 1;
}

/* ---- code locations ---- */

int hm_scopes_line_answer(hm_scopes *s, uint64_t pc, const char **label)
{
	const struct answer *a = dws_answer_find(s->answers, ANS_LINE, pc, NULL);

	if (!a)
		return -ENOENT;
	*label = a->func;
	return a->rc;
}

void hm_scopes_line_note(hm_scopes *s, uint64_t pc, const char *label)
{
	dws_answer_note(s->answers, ANS_LINE, pc, NULL, !!label, NULL, label, 0, 0);
}
