/* evidence: the neutral form suggest works from, and its adapters from
 * profiles, rule files and lint findings (see suggest.h). */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/suggest.h"
#include "suggest/suggest-lib.h"
#include "base/util.h"
#include "base/opts.h"

struct hm_evidence {
	hm_arena arena;
	const char *name, *source;
	enum hm_evidence_kind kind;
	hm_ev_field *fields;
	size_t nfields, capfields;
	hm_ev_pair *pairs;
	size_t npairs, cappairs;
	hm_ev_group *groups;
	size_t ngroups, capgroups;
	unsigned true_groups : 1;	/* hmi_evidence_true_groups() */
	/* open-addressing indexes (entry + 1, 0 empty) that keep repeated
	 * fields and pairs from costing a scan each: lint of a wide struct
	 * adds tens of thousands */
	uint32_t *fslot, *pslot;
	size_t fcap, pcap;
};

static uint64_t str_hash(const char *s)
{
	return hm_hash_bytes(s, strlen(s), 0x9e3779b97f4a7c15ULL);
}

/* The hash of a pair, the same in either order. */
static uint64_t pair_hash(const char *a, const char *b)
{
	return str_hash(a) + str_hash(b);
}

/* Rebuild an index of n entries for cap slots; hash(i) of entry i. */
static int reindex(uint32_t **slot, size_t *cap, size_t n, const hm_evidence *ev,
		   uint64_t (*hash)(const hm_evidence *ev, size_t i))
{
	size_t c = *cap ? *cap : 64;
	uint32_t *t;

	while (c < 2 * (n + 1))
		c *= 2;
	if (!(t = calloc(c, sizeof(*t))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t k = hash(ev, i) & (c - 1);

		while (t[k])
			k = (k + 1) & (c - 1);
		t[k] = (uint32_t)(i + 1);
	}
	free(*slot);
	*slot = t;
	*cap = c;
	return 0;
}

static uint64_t field_key(const hm_evidence *ev, size_t i)
{
	return str_hash(ev->fields[i].path);
}

static uint64_t pair_key(const hm_evidence *ev, size_t i)
{
	return pair_hash(ev->pairs[i].a, ev->pairs[i].b);
}

static const char *dup(hm_evidence *ev, const char *s)
{
	return hm_arena_strndup(&ev->arena, s ? s : "", strlen(s ? s : ""));
}

hm_evidence *hmi_evidence_new(const char *name, enum hm_evidence_kind kind, const char *source)
{
	hm_evidence *ev = calloc(1, sizeof(*ev));

	if (!ev)
		return NULL;
	ev->kind = kind;
	ev->name = dup(ev, name);
	ev->source = dup(ev, source);
	if (!ev->name || !ev->source) {
		hm_evidence_free(ev);
		errno = ENOMEM;
		return NULL;
	}
	return ev;
}

void hm_evidence_free(hm_evidence *ev)
{
	if (!ev)
		return;
	free(ev->fields);
	free(ev->pairs);
	free(ev->groups);
	free(ev->fslot);
	free(ev->pslot);
	hm_arena_free(&ev->arena);
	free(ev);
}

int hmi_evidence_add_field(hm_evidence *ev, const char *path, uint64_t loads, uint64_t stores,
			   uint32_t nr_cpus)
{
	hm_ev_field *f;
	size_t k;

	if (2 * (ev->nfields + 1) > ev->fcap &&
	    reindex(&ev->fslot, &ev->fcap, ev->nfields, ev, field_key))
		return -ENOMEM;
	for (k = str_hash(path) & (ev->fcap - 1); ev->fslot[k]; k = (k + 1) & (ev->fcap - 1)) {
		f = &ev->fields[ev->fslot[k] - 1];
		if (!strcmp(f->path, path)) {
			f->loads += loads;
			f->stores += stores;
			if (nr_cpus > f->nr_cpus)
				f->nr_cpus = nr_cpus;
			return 0;
		}
	}
	if (hm_grow((void **)&ev->fields, &ev->capfields, ev->nfields + 1, sizeof(*f)))
		return -ENOMEM;
	f = &ev->fields[ev->nfields];
	*f = (hm_ev_field){ .path = dup(ev, path), .loads = loads, .stores = stores,
			    .nr_cpus = nr_cpus };
	if (!f->path)
		return -ENOMEM;
	ev->fslot[k] = (uint32_t)++ev->nfields;
	return 0;
}

int hm_evidence_add_pair(hm_evidence *ev, const char *a, const char *b, uint64_t weight)
{
	hm_ev_pair *p;
	size_t k;

	if (!strcmp(a, b))
		return 0;
	if (2 * (ev->npairs + 1) > ev->pcap &&
	    reindex(&ev->pslot, &ev->pcap, ev->npairs, ev, pair_key))
		return -ENOMEM;
	for (k = pair_hash(a, b) & (ev->pcap - 1); ev->pslot[k]; k = (k + 1) & (ev->pcap - 1)) {
		p = &ev->pairs[ev->pslot[k] - 1];
		if ((!strcmp(p->a, a) && !strcmp(p->b, b)) ||
		    (!strcmp(p->a, b) && !strcmp(p->b, a))) {
			p->weight += weight;
			return 0;
		}
	}
	if (hm_grow((void **)&ev->pairs, &ev->cappairs, ev->npairs + 1, sizeof(*p)))
		return -ENOMEM;
	p = &ev->pairs[ev->npairs];
	*p = (hm_ev_pair){ .a = dup(ev, a), .b = dup(ev, b), .weight = weight };
	if (!p->a || !p->b)
		return -ENOMEM;
	ev->pslot[k] = (uint32_t)++ev->npairs;
	return 0;
}

int hmi_evidence_add_group(hm_evidence *ev, const char *const *paths, size_t nr, uint64_t weight,
			   int strict)
{
	const char **copy;
	hm_ev_group *g;

	if (!nr)
		return 0;
	copy = hm_arena_alloc(&ev->arena, nr * sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++)
		if (!(copy[i] = dup(ev, paths[i])))
			return -ENOMEM;
	if (hm_grow((void **)&ev->groups, &ev->capgroups, ev->ngroups + 1, sizeof(*g)))
		return -ENOMEM;
	g = &ev->groups[ev->ngroups++];
	*g = (hm_ev_group){ .nr = nr, .paths = copy, .weight = weight, .strict = !!strict };
	return 0;
}

const char *hmi_evidence_name(const hm_evidence *ev) { return ev->name; }
enum hm_evidence_kind hmi_evidence_kind(const hm_evidence *ev) { return ev->kind; }
const char *hmi_evidence_source(const hm_evidence *ev) { return ev->source; }
int hmi_evidence_true_groups(const hm_evidence *ev) { return ev->true_groups; }

const hm_ev_field *hmi_evidence_fields(const hm_evidence *ev, size_t *n)
{
	*n = ev->nfields;
	return ev->fields;
}

const hm_ev_pair *hm_evidence_pairs(const hm_evidence *ev, size_t *n)
{
	*n = ev->npairs;
	return ev->pairs;
}

const hm_ev_group *hmi_evidence_groups(const hm_evidence *ev, size_t *n)
{
	*n = ev->ngroups;
	return ev->groups;
}

int hmi_evidence_empty(const hm_evidence *ev)
{
	return !ev->npairs && !ev->ngroups;
}

const char *hmi_evidence_kind_name(enum hm_evidence_kind kind)
{
	switch (kind) {
	case HM_EVIDENCE_PROFILE: return "profile";
	case HM_EVIDENCE_RULES: return "rules";
	default: return "lint";
	}
}

/* Contention a pair stands for: HITMs when the profile has them (what c2c
 * ranks by), else watchpoint line transfers, else plain samples. */
static uint64_t pair_weight(const hm_profile_pair *p)
{
	return p->hitm ? p->hitm : p->transfers ? p->transfers : p->samples;
}

int hmi_evidence_from_profile(const hm_profile_struct *ps, const char *source,
			      hm_evidence **out)
{
	hm_evidence *ev = hmi_evidence_new(ps->name, HM_EVIDENCE_PROFILE, source);
	int err = 0;

	if (!ev)
		return -ENOMEM;
	for (size_t i = 0; i < ps->nr_fields && !err; i++) {
		const hm_profile_field *f = &ps->fields[i];
		uint64_t st = f->c.stores + f->c.writes, ld = f->c.loads + f->c.reads;

		err = hmi_evidence_add_field(ev, f->path, ld, st, (uint32_t)f->nr_cpus);
	}
	for (size_t i = 0; i < ps->nr_pairs && !err; i++)
		err = hm_evidence_add_pair(ev, ps->pairs[i].a, ps->pairs[i].b,
					   pair_weight(&ps->pairs[i]));
	/* the fields a line truly shared stay together, away from the other
	 * hot fields: separating a lock from what it guards removes nothing */
	ev->true_groups = ps->nr_shared_groups > 0;
	for (size_t i = 0; i < ps->nr_shared_groups && !err; i++) {
		const hm_profile_shared_group *g = &ps->shared_groups[i];
		uint64_t w = g->hitm ? g->hitm : g->transfers ? g->transfers : g->samples;

		err = hmi_evidence_add_group(ev, g->fields, g->nr_fields, w, 0);
	}
	/* a profile from before the groups: each truly shared field alone */
	for (size_t i = 0; !ps->nr_shared_groups && i < ps->nr_shared && !err; i++) {
		const hm_profile_shared *s = &ps->shared[i];
		uint64_t w = s->hitm ? s->hitm : s->transfers ? s->transfers : s->samples;

		err = hmi_evidence_add_group(ev, &s->field, 1, w, 0);
	}
	if (err) {
		hm_evidence_free(ev);
		return err;
	}
	*out = ev;
	return 0;
}

int hmi_evidence_from_rules(const hm_ruleset *rs, const char *name, const char *source,
			    hm_evidence **out)
{
	hm_evidence *ev = hmi_evidence_new(name, HM_EVIDENCE_RULES, source);
	int err = 0;

	if (!ev)
		return -ENOMEM;
	for (size_t i = 0; i < hm_ruleset_count(rs) && !err; i++) {
		const hm_rule *r = hm_ruleset_rule(rs, i);

		if (r->global || !r->object || strcmp(r->object, name))
			continue;
		if (r->kind == HM_RULE_APART) {
			for (unsigned a = 0; a < r->nr_args && !err; a++)
				for (unsigned b = a + 1; b < r->nr_args && !err; b++)
					err = hm_evidence_add_pair(ev, r->args[a], r->args[b], 1);
		} else if (r->kind == HM_RULE_ALONE) {
			err = hmi_evidence_add_group(ev, r->args, r->nr_args, 1, 1);
		}
	}
	if (err) {
		hm_evidence_free(ev);
		return err;
	}
	*out = ev;
	return 0;
}

int hmi_evidence_from_findings(const hm_findings *f, const char *name, const char *source,
			       hm_evidence **out)
{
	hm_evidence *ev = hmi_evidence_new(name, HM_EVIDENCE_LINT, source);
	int err = 0;

	if (!ev)
		return -ENOMEM;
	for (size_t i = 0; i < hm_findings_count(f) && !err; i++) {
		const hm_finding *fi = hm_findings_get(f, i);

		int rm = fi->kind && !strcmp(fi->kind, "lint-read-mostly");

		if (fi->global || !fi->object || strcmp(fi->object, name) || !fi->nr_members)
			continue;
		/* with "lint-read-mostly" the first member is the contention-prone
		 * one and the others its read-mostly neighbours; else they are the
		 * contention-prone members of one line, every two a pair */
		err = hmi_evidence_add_field(ev, fi->members[0], 0, 1, 0);
		for (unsigned b = 1; b < fi->nr_members && !err; b++) {
			err = hmi_evidence_add_field(ev, fi->members[b], rm, !rm, 0);
			for (unsigned a = 0; a < (rm ? 1 : b) && !err; a++)
				err = hm_evidence_add_pair(ev, fi->members[a], fi->members[b], 1);
		}
	}
	if (err) {
		hm_evidence_free(ev);
		return err;
	}
	*out = ev;
	return 0;
}

int hm_evidence_pick(const char *name, const struct hm_evidence_inputs *user,
		     hm_evidence **out)
{
	struct hm_evidence_inputs in;
	const hm_profile_struct *ps;
	int err;

	if (!name || !out || HM_OPTS_TAKE(&in, user, hm_evidence_inputs))
		return -EINVAL;
	if (!in.profile && !in.rules && !in.lint)
		return -EINVAL;
	ps = in.profile ? hm_profile_find_struct(in.profile, name) : NULL;
	if (in.profile && (ps || (!in.rules && !in.lint))) {
		if (ps)
			return hmi_evidence_from_profile(ps, in.profile_source, out);
		*out = hmi_evidence_new(name, HM_EVIDENCE_PROFILE, in.profile_source);
		return *out ? 0 : -ENOMEM;
	}
	if (in.rules) {
		if (!in.lint)
			return hmi_evidence_from_rules(in.rules, name, in.rules_source, out);
		if ((err = hmi_evidence_from_rules(in.rules, name, in.rules_source, out)))
			return err;
		if (!hmi_evidence_empty(*out))
			return 0;
		hm_evidence_free(*out);
	}
	return hmi_evidence_from_findings(in.lint, name, in.lint_source, out);
}
