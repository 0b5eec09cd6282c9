/* findings: the list every check, lint and diff result goes into. */
#include "config.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/findings.h"
#include "base/util.h"
#include "check/check-int.h"

struct hm_findings {
	hm_arena arena;
	hm_finding *v;
	size_t n, cap;
	size_t *order;		/* scratch for the sort, n entries */
};

hm_findings *hm_findings_new(void)
{
	return calloc(1, sizeof(hm_findings));
}

void hm_findings_free(hm_findings *f)
{
	if (!f)
		return;
	hm_arena_free(&f->arena);
	free(f->v);
	free(f->order);
	free(f);
}

static const char *dup(hm_findings *f, const char *s, int *err)
{
	const char *d;

	if (!s)
		return NULL;
	d = hm_arena_strndup(&f->arena, s, strlen(s));
	if (!d)
		*err = 1;
	return d;
}

int hmi_findings_add(hm_findings *f, const hm_finding *in)
{
	hm_finding *o;
	unsigned i;
	int err = 0;

	if (hm_grow((void **)&f->v, &f->cap, f->n + 1, sizeof(*f->v)))
		return -ENOMEM;
	o = &f->v[f->n];
	*o = *in;
	o->kind = dup(f, in->kind, &err);
	o->object = dup(f, in->object, &err);
	o->message = dup(f, in->message, &err);
	o->detail = dup(f, in->detail, &err);
	o->rule_file = dup(f, in->rule_file, &err);
	o->decl_file = dup(f, in->decl_file, &err);
	o->reason = dup(f, in->reason, &err);
	if (o->nr_members > HM_FINDING_MAX_MEMBERS)
		o->nr_members = HM_FINDING_MAX_MEMBERS;
	for (i = 0; i < o->nr_members; i++)
		o->members[i] = dup(f, in->members[i], &err);
	if (err)
		return -ENOMEM;
	f->n++;
	return 0;
}

int hm_findings_addf(hm_findings *f, const hm_finding *base, const char *fmt, ...)
{
	hm_finding tmp = *base;
	char *msg = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	tmp.message = msg;
	r = hmi_findings_add(f, &tmp);
	free(msg);
	return r;
}

int hmi_findings_set_detail(hm_findings *f, size_t i, const char *detail)
{
	int err = 0;
	const char *d;

	if (i >= f->n)
		return -EINVAL;
	d = dup(f, detail, &err);
	if (err)
		return -ENOMEM;
	f->v[i].detail = d;
	return 0;
}

size_t hm_findings_count(const hm_findings *f)
{
	return f ? f->n : 0;
}

const hm_finding *hm_findings_get(const hm_findings *f, size_t i)
{
	return i < f->n ? &f->v[i] : NULL;
}

size_t hm_findings_count_at_least(const hm_findings *f, enum hm_severity sev)
{
	size_t i, n = 0;

	for (i = 0; i < f->n; i++)
		n += f->v[i].severity >= sev && !f->v[i].summary;
	return n;
}

static int cmp(const void *pa, const void *pb, void *ctx)
{
	const hm_findings *f = ctx;
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	const hm_finding *a = &f->v[ia], *b = &f->v[ib];

	if (a->summary != b->summary)
		return a->summary ? -1 : 1;
	if (a->severity != b->severity)
		return a->severity > b->severity ? -1 : 1;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	return ia < ib ? -1 : ia > ib;
}

/* Sorts an index array (the insertion order breaks ties, which keeps the sort
 * stable), then permutes the records. */
void hm_findings_sort(hm_findings *f)
{
	hm_finding *v;
	size_t i;

	if (f->n < 2)
		return;
	v = malloc(f->n * sizeof(*v));
	free(f->order);
	f->order = malloc(f->n * sizeof(*f->order));
	if (!v || !f->order) {
		free(v);
		return;
	}
	for (i = 0; i < f->n; i++)
		f->order[i] = i;
	qsort_r(f->order, f->n, sizeof(*f->order), cmp, f);
	for (i = 0; i < f->n; i++)
		v[i] = f->v[f->order[i]];
	free(f->v);
	f->v = v;
	f->cap = f->n;
}

const char *hm_severity_name(enum hm_severity sev)
{
	switch (sev) {
	case HM_SEV_ERROR:
		return "error";
	case HM_SEV_WARNING:
		return "warning";
	default:
		return "note";
	}
}
