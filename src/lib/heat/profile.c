/* Profiles: saving and loading per-field heat as JSON (format in heat.h). */
#include "config.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "hitmap/heat.h"
#include "base/diag.h"
#include "base/json.h"
#include "heat/heat-int.h"
#include "base/jsonparse.h"
#include "heat/profile-int.h"
#include "elf/binary-lib.h"

#define PROFILE_SCHEMA "hitmap-profile/1"
#define PROFILE_MAX_BYTES (1024u * 1024 * 1024)

hm_profile *hm_profile_alloc(void)
{
	struct hm_profile_impl *pi = calloc(1, sizeof(*pi));

	return pi ? &pi->p : NULL;
}

hm_arena *hm_profile_arena(hm_profile *p)
{
	return &((struct hm_profile_impl *)p)->arena;
}

void hm_profile_free(hm_profile *p)
{
	struct hm_profile_impl *pi = (struct hm_profile_impl *)p;

	if (!pi)
		return;
	hm_arena_free(&pi->arena);
	free(pi);
}

/* ---- saving ---- */

static void save_u32_list(hm_json *j, const char *key, const uint32_t *v, size_t n)
{
	size_t i;

	hm_json_key(j, key);
	hm_json_begin_array(j);
	for (i = 0; i < n; i++)
		hm_json_uint(j, v[i]);
	hm_json_end_array(j);
}

void hmi_profile_json_counts(struct hm_json *j, const hm_heat_counts *c)
{
	hm_json_kuint(j, "samples", c->samples);
	hm_json_kuint(j, "loads", c->loads);
	hm_json_kuint(j, "stores", c->stores);
	hm_json_kuint(j, "lcl_hitm", c->lcl_hitm);
	hm_json_kuint(j, "rmt_hitm", c->rmt_hitm);
	hm_json_kuint(j, "lcl_peer", c->lcl_peer);
	hm_json_kuint(j, "rmt_peer", c->rmt_peer);
	hm_json_kuint(j, "st_l1hit", c->st_l1hit);
	hm_json_kuint(j, "st_l1miss", c->st_l1miss);
	hm_json_kuint(j, "reads", c->reads);
	hm_json_kuint(j, "writes", c->writes);
	hm_json_kuint(j, "transfers", c->transfers);
}

/* The evidence a contending pair and a truly shared field both carry. */
static void save_sharing(hm_json *j, uint64_t samples, uint64_t hitm, uint64_t transfers,
			 uint64_t lines, const uint32_t *cpus, size_t nr_cpus)
{
	hm_json_kuint(j, "samples", samples);
	hm_json_kuint(j, "hitm", hitm);
	hm_json_kuint(j, "transfers", transfers);
	hm_json_kuint(j, "lines", lines);
	save_u32_list(j, "cpus", cpus, nr_cpus);
}

static void save_struct(hm_json *j, const hm_profile_struct *s)
{
	size_t i;

	hm_json_begin_object(j);
	hm_json_kstr(j, "name", s->name);
	hm_json_kstr(j, "kind", s->kind == HM_PROFILE_VARIABLE ? "variable" : "struct");
	hm_json_kuint(j, "size", s->size);
	hm_json_key(j, "objects");
	hm_json_begin_array(j);
	for (i = 0; i < s->nr_objects; i++)
		hm_json_string(j, s->objects[i]);
	hm_json_end_array(j);
	hm_json_key(j, "fields");
	hm_json_begin_array(j);
	for (i = 0; i < s->nr_fields; i++) {
		const hm_profile_field *f = &s->fields[i];

		hm_json_begin_object(j);
		hm_json_kstr(j, "path", f->path);
		hm_json_kuint(j, "offset", f->offset);
		hm_json_kuint(j, "size", f->size);
		hmi_profile_json_counts(j, &f->c);
		save_u32_list(j, "cpus", f->cpus, f->nr_cpus);
		save_u32_list(j, "threads", f->threads, f->nr_threads);
		hm_json_end_object(j);
	}
	hm_json_end_array(j);
	hm_json_key(j, "pairs");
	hm_json_begin_array(j);
	for (i = 0; i < s->nr_pairs; i++) {
		const hm_profile_pair *q = &s->pairs[i];

		hm_json_begin_object(j);
		hm_json_kstr(j, "a", q->a);
		hm_json_kstr(j, "b", q->b);
		save_sharing(j, q->samples, q->hitm, q->transfers, q->lines, q->cpus,
			     q->nr_cpus);
		hm_json_end_object(j);
	}
	hm_json_end_array(j);
	hm_json_key(j, "true_shared");
	hm_json_begin_array(j);
	for (i = 0; i < s->nr_shared; i++) {
		const hm_profile_shared *q = &s->shared[i];

		hm_json_begin_object(j);
		hm_json_kstr(j, "field", q->field);
		save_sharing(j, q->samples, q->hitm, q->transfers, q->lines, q->cpus,
			     q->nr_cpus);
		hm_json_end_object(j);
	}
	hm_json_end_array(j);
	/* the same fields as the lines shared them: what must stay together */
	hm_json_key(j, "true_shared_groups");
	hm_json_begin_array(j);
	for (i = 0; i < s->nr_shared_groups; i++) {
		const hm_profile_shared_group *q = &s->shared_groups[i];

		hm_json_begin_object(j);
		hm_json_key(j, "fields");
		hm_json_begin_array(j);
		for (size_t k = 0; k < q->nr_fields; k++)
			hm_json_string(j, q->fields[k]);
		hm_json_end_array(j);
		save_sharing(j, q->samples, q->hitm, q->transfers, q->lines, q->cpus,
			     q->nr_cpus);
		hm_json_end_object(j);
	}
	hm_json_end_array(j);
	hm_json_end_object(j);
}

void hmi_profile_json_truncation(struct hm_json *j, const hm_profile_truncation *t)
{
	hm_json_begin_object(j);
	hm_json_kstr(j, "what", t->what);
	hm_json_kuint(j, "offset", t->offset);
	hm_json_kuint(j, "samples_kept", t->samples_kept);
	if (t->features_lost)
		hm_json_kstr(j, "features_lost", t->features_lost);
	hm_json_end_object(j);
}

int hm_profile_write(const hm_profile *p, FILE *out)
{
	hm_json j;
	size_t i;

	hm_json_init(&j, out, 1);
	hm_json_begin_object(&j);
	hm_json_kstr(&j, "schema", PROFILE_SCHEMA);
	hm_json_key(&j, "source");
	hm_json_begin_object(&j);
	hm_json_kstr(&j, "input", p->input);
	hm_json_kstr(&j, "kind", p->kind ? p->kind : "hitm");
	hm_json_kuint(&j, "samples", p->samples);
	hm_json_kuint(&j, "attributed", p->attributed);
	if (p->nr_builds) {
		hm_json_key(&j, "builds");
		hm_json_begin_array(&j);
		for (i = 0; i < p->nr_builds; i++) {
			hm_json_begin_object(&j);
			hm_json_kstr(&j, "file", p->builds[i].file);
			hm_json_kstr(&j, "build_id", p->builds[i].build_id);
			hm_json_end_object(&j);
		}
		hm_json_end_array(&j);
	}
	hm_json_end_object(&j);
	if (p->truncated) {
		hm_json_key(&j, "truncated");
		hmi_profile_json_truncation(&j, p->truncated);
	}
	hm_json_kuint(&j, "cacheline_size", p->cacheline_size);
	hm_json_key(&j, "structs");
	hm_json_begin_array(&j);
	for (i = 0; i < p->nr_structs; i++)
		save_struct(&j, &p->structs[i]);
	hm_json_end_array(&j);
	hm_json_end_object(&j);
	hm_json_finish(&j);
	return ferror(out) ? -EIO : 0;
}

int hm_profile_save(const hm_profile *p, const char *path)
{
	FILE *out;
	int err;

	if (!strcmp(path, "-"))
		return hm_profile_write(p, stdout);
	out = fopen(path, "w");
	if (!out)
		return hm_fail(errno, "%s: cannot create: %s", path, strerror(errno));
	err = hm_profile_write(p, out);
	if (fclose(out) && !err)
		err = -errno;
	if (err)
		return hm_fail(-err, "%s: write failed: %s", path, strerror(-err));
	return 0;
}

/* ---- loading ---- */

struct loader {
	const char *name;
	hm_arena *arena;
};

static int bad(const struct loader *ld, const hm_jp_value *v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(const struct loader *ld, const hm_jp_value *v, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return hm_fail(EBADMSG, "%s:%u:%u: %s", ld->name, v->line, v->col, msg);
}

/* Optional member of a given type: 0 absent, 1 present, <0 wrong type. */
static int member(const struct loader *ld, const hm_jp_value *obj, const char *key,
		  enum hm_jp_type type, const hm_jp_value **out)
{
	const hm_jp_value *v = hm_jp_get(obj, key);
	static const char *const tn[] = { "null", "boolean", "boolean", "number",
					  "string", "array", "object" };
	char msg[96];

	*out = v;
	if (!v)
		return 0;
	if (v->type != type && !(type == HM_JP_STRING && v->type == HM_JP_NULL)) {
		snprintf(msg, sizeof(msg), "\"%s\" must be %s %s", key,
			 type == HM_JP_ARRAY || type == HM_JP_OBJECT ? "an" : "a", tn[type]);
		return bad(ld, v, "%s", msg);
	}
	return 1;
}

static int get_u64(const struct loader *ld, const hm_jp_value *obj, const char *key,
		   uint64_t *out)
{
	const hm_jp_value *v;
	int r = member(ld, obj, key, HM_JP_NUMBER, &v);

	if (r <= 0)
		return r;
	if (!v->is_uint)
		return bad(ld, v, "\"%s\" must be a non-negative integer", key);
	*out = v->u64;
	return 0;
}

static int get_str(const struct loader *ld, const hm_jp_value *obj, const char *key,
		   int required, const char **out)
{
	const hm_jp_value *v;
	int r = member(ld, obj, key, HM_JP_STRING, &v);

	if (r < 0)
		return r;
	if (!r || v->type == HM_JP_NULL) {
		if (required)
			return bad(ld, obj, "missing string \"%s\"", key);
		*out = NULL;
		return 0;
	}
	*out = hm_arena_strndup(ld->arena, v->str, v->len);
	return *out ? 0 : -ENOMEM;
}

static int get_u32_list(const struct loader *ld, const hm_jp_value *obj, const char *key,
			const uint32_t **out, size_t *n)
{
	const hm_jp_value *v, *c;
	uint32_t *a;
	int r = member(ld, obj, key, HM_JP_ARRAY, &v);

	*out = NULL;
	*n = 0;
	if (r <= 0)
		return r;
	a = hm_arena_alloc(ld->arena, (v->len + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	for (c = v->child; c; c = c->next) {
		if (c->type != HM_JP_NUMBER || !c->is_uint || c->u64 > UINT32_MAX)
			return bad(ld, c, "\"%s\" entries must be integers below 2^32", key);
		a[(*n)++] = (uint32_t)c->u64;
	}
	*out = a;
	return 0;
}

static int load_counts(const struct loader *ld, const hm_jp_value *o, hm_heat_counts *c)
{
	static const struct { const char *key; size_t off; } keys[] = {
#define K(n) { #n, offsetof(hm_heat_counts, n) }
		K(samples), K(loads), K(stores), K(lcl_hitm), K(rmt_hitm), K(lcl_peer),
		K(rmt_peer), K(st_l1hit), K(st_l1miss), K(reads), K(writes), K(transfers),
#undef K
	};
	size_t i;
	int err;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		err = get_u64(ld, o, keys[i].key, (uint64_t *)((char *)c + keys[i].off));
		if (err)
			return err;
	}
	return 0;
}

/* An array member's elements, each checked to be an object. */
static int get_objects(const struct loader *ld, const hm_jp_value *obj, const char *key,
		       const hm_jp_value **first, size_t *n)
{
	const hm_jp_value *v, *c;
	int r = member(ld, obj, key, HM_JP_ARRAY, &v);

	*first = NULL;
	*n = 0;
	if (r <= 0)
		return r;
	for (c = v->child; c; c = c->next)
		if (c->type != HM_JP_OBJECT)
			return bad(ld, c, "\"%s\" entries must be objects", key);
	*first = v->child;
	*n = v->len;
	return 0;
}

static int load_field(const struct loader *ld, const hm_jp_value *o, hm_profile_field *f)
{
	int err;

	if ((err = get_str(ld, o, "path", 1, &f->path)) ||
	    (err = get_u64(ld, o, "offset", &f->offset)) ||
	    (err = get_u64(ld, o, "size", &f->size)) ||
	    (err = load_counts(ld, o, &f->c)) ||
	    (err = get_u32_list(ld, o, "cpus", &f->cpus, &f->nr_cpus)) ||
	    (err = get_u32_list(ld, o, "threads", &f->threads, &f->nr_threads)))
		return err;
	return 0;
}

/* What a pair and a truly shared field both carry: where they contended. */
static int load_contention(const struct loader *ld, const hm_jp_value *o, uint64_t *samples,
			   uint64_t *hitm, uint64_t *transfers, uint32_t *lines,
			   const uint32_t **cpus, size_t *nr_cpus)
{
	uint64_t n = 0;
	int err;

	if ((err = get_u64(ld, o, "samples", samples)) || (err = get_u64(ld, o, "hitm", hitm)) ||
	    (err = get_u64(ld, o, "transfers", transfers)) ||
	    (err = get_u64(ld, o, "lines", &n)) || (err = get_u32_list(ld, o, "cpus", cpus, nr_cpus)))
		return err;
	*lines = (uint32_t)n;
	return 0;
}

static int load_pair(const struct loader *ld, const hm_jp_value *o, hm_profile_pair *q)
{
	int err;

	if ((err = get_str(ld, o, "a", 1, &q->a)) || (err = get_str(ld, o, "b", 1, &q->b)))
		return err;
	return load_contention(ld, o, &q->samples, &q->hitm, &q->transfers, &q->lines, &q->cpus,
			       &q->nr_cpus);
}

static int load_shared(const struct loader *ld, const hm_jp_value *o, hm_profile_shared *q)
{
	int err;

	if ((err = get_str(ld, o, "field", 1, &q->field)))
		return err;
	return load_contention(ld, o, &q->samples, &q->hitm, &q->transfers, &q->lines, &q->cpus,
			       &q->nr_cpus);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A truly shared group: its "fields", at least one, each named once. */
static int load_group(const struct loader *ld, const hm_jp_value *o, hm_profile_shared_group *q)
{
	const hm_jp_value *v, *c;
	const char **names;
	int r = member(ld, o, "fields", HM_JP_ARRAY, &v);

	if (r < 0)
		return r;
	if (!r || !v->len)
		return bad(ld, r ? v : o, "%s", "a true sharing group needs \"fields\"");
	if (!(names = hm_arena_alloc(ld->arena, (v->len + 1) * sizeof(*names))))
		return -ENOMEM;
	for (c = v->child; c; c = c->next) {
		if (c->type != HM_JP_STRING)
			return bad(ld, c, "\"%s\" entries must be strings", "fields");
		names[q->nr_fields] = hm_arena_strndup(ld->arena, c->str, c->len);
		if (!names[q->nr_fields])
			return -ENOMEM;
		for (size_t k = 0; k < q->nr_fields; k++)
			if (!strcmp(names[k], names[q->nr_fields]))
				return bad(ld, c, "field \"%s\" twice in a group", names[k]);
		q->nr_fields++;
	}
	qsort(names, q->nr_fields, sizeof(*names), name_cmp);
	q->fields = names;
	return load_contention(ld, o, &q->samples, &q->hitm, &q->transfers, &q->lines, &q->cpus,
			       &q->nr_cpus);
}

static int load_objects(const struct loader *ld, const hm_jp_value *o, hm_profile_struct *s)
{
	const hm_jp_value *v, *c;
	const char **names;
	int r = member(ld, o, "objects", HM_JP_ARRAY, &v);

	if (r <= 0)
		return r;
	names = hm_arena_alloc(ld->arena, (v->len + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	for (c = v->child; c; c = c->next) {
		if (c->type != HM_JP_STRING)
			return bad(ld, c, "\"%s\" entries must be strings", "objects");
		names[s->nr_objects] = hm_arena_strndup(ld->arena, c->str, c->len);
		if (!names[s->nr_objects++])
			return -ENOMEM;
	}
	s->objects = names;
	return 0;
}

/* Load an array of objects into a freshly allocated C array via `fn`. */
#define LOAD_ARRAY(ld, o, key, type, fn, outp, outn)                                 \
	({                                                                             \
		const hm_jp_value *first_, *c_;                                        \
		size_t n_, i_ = 0;                                                     \
		type *a_;                                                              \
		int e_ = get_objects(ld, o, key, &first_, &n_);                        \
		if (!e_) {                                                             \
			a_ = hm_arena_alloc((ld)->arena, (n_ + 1) * sizeof(type));     \
			if (!a_)                                                       \
				e_ = -ENOMEM;                                          \
			for (c_ = first_; !e_ && c_; c_ = c_->next)                    \
				e_ = fn(ld, c_, &a_[i_++]);                            \
			*(outp) = a_;                                                  \
			*(outn) = n_;                                                  \
		}                                                                      \
		e_;                                                                    \
	})

static int load_struct(const struct loader *ld, const hm_jp_value *o, hm_profile_struct *s)
{
	const char *kind = NULL;
	int err;

	if ((err = get_str(ld, o, "name", 1, &s->name)) ||
	    (err = get_str(ld, o, "kind", 0, &kind)) ||
	    (err = get_u64(ld, o, "size", &s->size)) ||
	    (err = load_objects(ld, o, s)))
		return err;
	if (!kind || !strcmp(kind, "struct"))
		s->kind = HM_PROFILE_STRUCT;
	else if (!strcmp(kind, "variable"))
		s->kind = HM_PROFILE_VARIABLE;
	else
		return bad(ld, hm_jp_get(o, "kind"), "unknown kind \"%s\"", kind);
	if ((err = LOAD_ARRAY(ld, o, "fields", hm_profile_field, load_field, &s->fields,
			      &s->nr_fields)) ||
	    (err = LOAD_ARRAY(ld, o, "pairs", hm_profile_pair, load_pair, &s->pairs,
			      &s->nr_pairs)) ||
	    (err = LOAD_ARRAY(ld, o, "true_shared", hm_profile_shared, load_shared,
			      &s->shared, &s->nr_shared)) ||
	    (err = LOAD_ARRAY(ld, o, "true_shared_groups", hm_profile_shared_group, load_group,
			      &s->shared_groups, &s->nr_shared_groups)))
		return err;
	return 0;
}

static int load_build(const struct loader *ld, const hm_jp_value *o, hm_profile_build *b)
{
	int err;

	if ((err = get_str(ld, o, "file", 1, &b->file)) ||
	    (err = get_str(ld, o, "build_id", 1, &b->build_id)))
		return err;
	return 0;
}

static int load_truncation(const struct loader *ld, const hm_jp_value *root, hm_profile *p)
{
	const hm_jp_value *o;
	hm_profile_truncation *t;
	int err = member(ld, root, "truncated", HM_JP_OBJECT, &o);

	if (err < 0 || !o)
		return err < 0 ? err : 0;
	if (!(t = hm_arena_alloc(ld->arena, sizeof(*t))))
		return -ENOMEM;
	memset(t, 0, sizeof(*t));
	if ((err = get_str(ld, o, "what", 1, &t->what)) ||
	    (err = get_u64(ld, o, "offset", &t->offset)) ||
	    (err = get_u64(ld, o, "samples_kept", &t->samples_kept)) ||
	    (err = get_str(ld, o, "features_lost", 0, &t->features_lost)))
		return err;
	p->truncated = t;
	return 0;
}

static int load_root(const struct loader *ld, const hm_jp_value *root, hm_profile *p)
{
	const hm_jp_value *schema, *src;
	uint64_t ls = 0;
	int err;

	if (root->type != HM_JP_OBJECT)
		return bad(ld, root, "%s", "a profile must be a JSON object");
	if (member(ld, root, "schema", HM_JP_STRING, &schema) <= 0 || schema->type != HM_JP_STRING)
		return bad(ld, schema ? schema : root, "%s", "missing \"schema\": \"" PROFILE_SCHEMA "\"");
	if (strcmp(schema->str, PROFILE_SCHEMA))
		return bad(ld, schema, "unsupported schema \"%s\" (want " PROFILE_SCHEMA ")",
			   schema->str);
	err = member(ld, root, "source", HM_JP_OBJECT, &src);
	if (err < 0)
		return err;
	if (src && ((err = get_str(ld, src, "input", 0, &p->input)) ||
		    (err = get_str(ld, src, "kind", 0, &p->kind)) ||
		    (err = get_u64(ld, src, "samples", &p->samples)) ||
		    (err = get_u64(ld, src, "attributed", &p->attributed)) ||
		    (err = LOAD_ARRAY(ld, src, "builds", hm_profile_build, load_build,
				      &p->builds, &p->nr_builds))))
		return err;
	if ((err = load_truncation(ld, root, p)) ||
	    (err = get_u64(ld, root, "cacheline_size", &ls)))
		return err;
	if (ls > UINT32_MAX || (ls & (ls - 1)))
		return bad(ld, hm_jp_get(root, "cacheline_size"), "%s",
			   "\"cacheline_size\" must be a power of two");
	p->cacheline_size = ls ? (uint32_t)ls : hmi_arch_cacheline_size(NULL);
	return LOAD_ARRAY(ld, root, "structs", hm_profile_struct, load_struct,
			  &p->structs, &p->nr_structs);
}

int hm_profile_load_mem(const char *buf, size_t len, const char *name, hm_profile **out)
{
	hm_jp_doc doc;
	hm_profile *p;
	struct loader ld = { .name = name };
	int err;

	err = hm_jp_parse(buf, len, name, &doc);
	if (err)
		return err;
	p = hm_profile_alloc();
	if (!p) {
		hm_jp_free(&doc);
		return -ENOMEM;
	}
	ld.arena = hm_profile_arena(p);
	err = load_root(&ld, doc.root, p);
	hm_jp_free(&doc);
	if (err) {
		hm_profile_free(p);
		return err;
	}
	*out = p;
	return 0;
}

int hm_profile_load(const char *path, hm_profile **out)
{
	FILE *f = hm_fopen_regular(path);
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int err;

	if (!f)
		return hm_fail(errno, "%s: cannot open: %s", path, hm_open_error(errno));
	for (;;) {
		if (len + 65536 > cap) {
			char *nb;

			cap = cap ? cap * 2 : 65536 * 2;
			if (cap > PROFILE_MAX_BYTES || !(nb = realloc(buf, cap))) {
				free(buf);
				fclose(f);
				return hm_fail(ENOMEM, "%s: too large", path);
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	err = ferror(f) ? -EIO : 0;
	fclose(f);
	if (err) {
		free(buf);
		return hm_fail(EIO, "%s: read error", path);
	}
	err = hm_profile_load_mem(buf, len, path, out);
	free(buf);
	return err;
}

int hm_profile_set_builds(hm_profile *p, const hm_profile_build *b, size_t n)
{
	hm_arena *a = hm_profile_arena(p);
	hm_profile_build *v = hm_arena_alloc(a, (n + 1) * sizeof(*v));
	size_t i;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		v[i].file = hm_arena_strndup(a, b[i].file, strlen(b[i].file));
		v[i].build_id = hm_arena_strndup(a, b[i].build_id, strlen(b[i].build_id));
		if (!v[i].file || !v[i].build_id)
			return -ENOMEM;
	}
	p->builds = v;
	p->nr_builds = n;
	return 0;
}

int hm_profile_set_truncated(hm_profile *p, const hm_profile_truncation *t)
{
	hm_arena *a = hm_profile_arena(p);
	hm_profile_truncation *c;

	if (!t) {
		p->truncated = NULL;
		return 0;
	}
	if (!(c = hm_arena_alloc(a, sizeof(*c))))
		return -ENOMEM;
	*c = *t;
	c->what = hm_arena_strndup(a, t->what, strlen(t->what));
	c->features_lost = t->features_lost ?
			   hm_arena_strndup(a, t->features_lost, strlen(t->features_lost)) : NULL;
	if (!c->what || (t->features_lost && !c->features_lost))
		return -ENOMEM;
	p->truncated = c;
	return 0;
}

/* ---- lookups ---- */

const hm_profile_struct *hm_profile_find_struct(const hm_profile *p, const char *name)
{
	size_t i;

	for (i = 0; p && i < p->nr_structs; i++)
		if (!strcmp(p->structs[i].name, name))
			return &p->structs[i];
	return NULL;
}

const hm_profile_field *hm_profile_find_field(const hm_profile_struct *s, const char *path)
{
	size_t i;

	for (i = 0; s && i < s->nr_fields; i++)
		if (!strcmp(s->fields[i].path, path))
			return &s->fields[i];
	return NULL;
}

/* Whether field path f is `path` itself or one of its sub-fields / elements. */
size_t hm_profile_member_counts(const hm_profile_struct *s, const char *path,
				hm_heat_counts *out)
{
	size_t i, n = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; s && i < s->nr_fields; i++) {
		if (!hm_profile_path_within(s->fields[i].path, path))
			continue;
		heat_counts_add(out, &s->fields[i].c);
		n++;
	}
	return n;
}

int hm_heat_field_label(const hm_profile_struct *s, const char *path, char *buf, size_t len)
{
	hm_heat_counts c;
	size_t i, cpus = 0;
	int w;

	if (!len)
		return 0;
	buf[0] = 0;
	if (!hm_profile_member_counts(s, path, &c) || !c.samples)
		return 0;
	for (i = 0; i < s->nr_fields; i++)
		if (hm_profile_path_within(s->fields[i].path, path) && s->fields[i].nr_cpus > cpus)
			cpus = s->fields[i].nr_cpus;
	if (c.transfers || c.reads || c.writes)
		w = snprintf(buf, len, "xfer %llu wr %llu cpus %zu",
			     (unsigned long long)c.transfers, (unsigned long long)c.writes, cpus);
	else if (c.loads || c.stores)
		w = snprintf(buf, len, "hitm %llu st %llu cpus %zu",
			     (unsigned long long)(c.lcl_hitm + c.rmt_hitm),
			     (unsigned long long)c.stores, cpus);
	else
		w = snprintf(buf, len, "samples %llu cpus %zu", (unsigned long long)c.samples, cpus);
	return w < 0 ? 0 : (size_t)w >= len ? (int)len - 1 : w;
}
