/* output-suggest: suggest's proposals as text (fits 80 columns, pastes into a
 * review) and as JSON (schema hitmap/1). */
#include "config.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/output.h"
#include "hitmap/suggest.h"
#include "base/json.h"
#include "base/opts.h"
#include "suggest/suggest-lib.h"
#include "elf/binary-lib.h"

#define SHOW_SHARED 8

static void weight(FILE *out, double w)
{
	if (fabs(w - llround(w)) < 1e-6)
		fprintf(out, "%lld", (long long)llround(w));
	else
		fprintf(out, "%.2f", w);
}

static unsigned line_size(const struct hm_suggest_opts *o)
{
	return o && o->cacheline_size ? o->cacheline_size : hmi_arch_cacheline_size(NULL);
}

/* The struct's name, as hm_suggest() read it from t. */
static const char *suggestion_name(const hm_suggestion *s, const hm_types *t)
{
	const hm_type *ty = hm_types_get(t, hm_suggestion_type(s));

	return ty && ty->name ? ty->name : "(anonymous)";
}

static void evidence_line(FILE *out, const hm_suggestion *s)
{
	const hm_evidence *ev = hmi_suggestion_evidence(s);

	switch (hmi_evidence_kind(ev)) {
	case HM_EVIDENCE_PROFILE:
		fprintf(out, "evidence: %s (weights are samples: HITMs, or line transfers)\n",
			hmi_evidence_source(ev));
		break;
	case HM_EVIDENCE_RULES:
		fprintf(out, "evidence: %s (no measurement: each pair weighs 1)\n",
			hmi_evidence_source(ev));
		break;
	default:
		fprintf(out, "evidence: %s\n  (the weakest kind: a guess from member types, "
			"no measurement;\n  each pair weighs 1)\n", hmi_evidence_source(ev));
		break;
	}
}

static void stats_line(FILE *out, const char *what, const hm_suggest_stats *st)
{
	fprintf(out, "%s%llu bytes, %u cacheline%s, %u hole%s (%llu bytes)\n", what,
		(unsigned long long)st->size, st->cachelines, st->cachelines == 1 ? "" : "s",
		st->holes, st->holes == 1 ? "" : "s", (unsigned long long)st->sum_holes);
}

static void base_note(FILE *out, const hm_suggest_stats *st, unsigned L, const char *ind)
{
	if (st->base_known)
		return;
	fprintf(out, "%sobject start not pinned to a line: weights averaged over the\n"
		"%s%u starts its %u-byte alignment allows\n", ind, ind,
		L / (st->alignment ? st->alignment : 1), st->alignment);
}

static void edit_line(FILE *out, const hm_edit *e, const struct hm_suggest_opts *o)
{
	char a[64];

	switch (e->kind) {
	case HM_EDIT_ALIGN:
		hmi_suggest_align_text(o ? o->style : HM_STYLE_GNU, line_size(o), e->value, a,
				       sizeof(a));
		fprintf(out, "     %s: add %s\n", e->member, a);
		break;
	case HM_EDIT_MOVE:
		if (e->anchor)
			fprintf(out, "     %s: move after %s\n", e->member, e->anchor);
		else
			fprintf(out, "     %s: move to the top\n", e->member);
		break;
	case HM_EDIT_PAD:
		fprintf(out, "     %s: add char %s[%llu] after it\n", e->member, e->pad_name,
			(unsigned long long)e->value);
		break;
	case HM_EDIT_LINEPAD:
		fprintf(out, "     %s: add CACHELINE_PADDING(%s) after it\n", e->member,
			e->pad_name);
		break;
	case HM_EDIT_GROUP:
		fprintf(out, "     %s to %s: between __cacheline_group_begin_aligned(%s) and "
			"_end_aligned(%s)\n", e->member, e->anchor, e->pad_name, e->pad_name);
		break;
	case HM_EDIT_WRAP:
		hmi_suggest_align_text(o ? o->style : HM_STYLE_GNU, line_size(o), e->value, a,
				       sizeof(a));
		if (strcmp(e->member, e->anchor))
			fprintf(out, "     %s to %s: wrap in struct { ... } %s;\n", e->member,
				e->anchor, a);
		else
			fprintf(out, "     %s: wrap in struct { ... } %s;\n", e->member, a);
		break;
	}
}

/* Words of `text` after `first`, wrapped at 79 columns, later lines indented
 * by `indent` spaces. */
static void wrapped(FILE *out, const char *first, const char *text, int indent)
{
	int col = fprintf(out, "%s", first), fresh = !*first;

	while (*text) {
		int n = (int)strcspn(text, " ");

		if (!fresh && col > indent && col + 1 + n > 79) {
			col = fprintf(out, "\n%*s", indent, "") - 1;
			fresh = 1;
		}
		if (!fresh) {
			fputc(' ', out);
			col++;
		}
		col += fprintf(out, "%.*s", n, text);
		fresh = 0;
		text += n;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

static void separates(FILE *out, const hm_proposal *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (!p->nr_separated || !(m = open_memstream(&buf, &len)))
		return;
	for (size_t i = 0; i < p->nr_separated; i++)
		fprintf(m, "%s%s/%s", i ? ", " : "", p->separated[i]->a, p->separated[i]->b);
	fclose(m);
	wrapped(out, "   separates:", buf, 6);
	free(buf);
}

static void cost_line(FILE *out, const hm_suggestion *s, const hm_proposal *p)
{
	const hm_suggest_stats *t = hmi_suggestion_today(s), *n = &p->stats;

	fprintf(out, "   cost: %+lld bytes (sizeof %llu -> %llu), cachelines %u -> %u,\n"
		"         holes %u -> %u (%+lld bytes)\n", (long long)p->growth,
		(unsigned long long)t->size, (unsigned long long)n->size, t->cachelines,
		n->cachelines, t->holes, n->holes,
		(long long)n->sum_holes - (long long)t->sum_holes);
}

static void remaining_line(FILE *out, const hm_suggestion *s, const hm_proposal *p)
{
	const hm_suggest_stats *t = hmi_suggestion_today(s), *n = &p->stats;

	fprintf(out, "   remaining contention: ");
	weight(out, n->remaining);
	fprintf(out, " of ");
	weight(out, t->remaining);
	fprintf(out, " today (%.0f%%)\n", t->remaining > 0 ? 100 * n->remaining / t->remaining : 0);
}

/* A proposal in the list: title, cost, what it leaves. */
static void proposal_head(FILE *out, const hm_suggestion *s, const hm_proposal *p, size_t rank)
{
	char head[32];

	snprintf(head, sizeof(head), "#%zu", rank);
	wrapped(out, head, p->title, 3);
	cost_line(out, s, p);
	remaining_line(out, s, p);
}

static void proposal_text(FILE *out, const hm_suggestion *s, const hm_proposal *p,
			  size_t rank, const struct hm_suggest_opts *o)
{
	const hm_suggest_stats *n = &p->stats;
	char head[32];

	snprintf(head, sizeof(head), "#%zu", rank);
	wrapped(out, head, p->title, 3);
	cost_line(out, s, p);
	separates(out, p);
	remaining_line(out, s, p);
	if (n->remaining > 0)
		base_note(out, n, line_size(o), "   ");
	fprintf(out, "   edits:\n");
	for (size_t i = 0; i < p->nr_edits; i++)
		edit_line(out, &p->edits[i], o);
}

int hm_suggest_print_layout(FILE *out, const hm_suggestion *s, const hm_types *t,
			    const struct hm_suggest_opts *uo, size_t i)
{
	struct hm_suggest_opts oc;
	const struct hm_suggest_opts *opts;

	if (!HM_OPTS_VALID(uo, hm_suggest_opts) || i >= hm_suggestion_count(s))
		return -EINVAL;
	opts = HM_OPTS_COPY(&oc, uo, hm_suggest_opts);
	HM_OPTS(hm_print_opts, po, .cacheline_size = line_size(opts), .annotate = 1);
	return hm_layout_print(out, t, hm_suggestion_get(s, i)->type, &po);
}

static int print_text(FILE *out, const hm_suggestion *s, const hm_types *t,
		      const struct hm_suggest_opts *o, size_t only)
{
	const char *const *notes = hmi_suggestion_notes(s);
	size_t nshared;
	const hm_ev_pair *const *shared = hmi_suggestion_shared(s, &nshared);
	int err = 0;

	fprintf(out, "struct %s\n", suggestion_name(s, t));
	evidence_line(out, s);
	if (hmi_suggestion_today(s)->size)
		stats_line(out, "today: ", hmi_suggestion_today(s));
	/* the heaviest pairs; the rest counted, so the text stays a screen */
	for (size_t i = 0; i < nshared && i < SHOW_SHARED; i++) {
		fprintf(out, "  shares a line: %s / %s (weight ", shared[i]->a, shared[i]->b);
		weight(out, (double)shared[i]->weight);
		fprintf(out, ")\n");
	}
	if (nshared > SHOW_SHARED)
		fprintf(out, "  ... and %zu more pairs sharing a line (--json lists them)\n",
			nshared - SHOW_SHARED);
	if (hmi_suggestion_today(s)->remaining > 0) {
		fprintf(out, "  contention on shared lines: ");
		weight(out, hmi_suggestion_today(s)->remaining);
		fprintf(out, " of ");
		weight(out, hmi_suggestion_total(s));
		fprintf(out, "\n");
		base_note(out, hmi_suggestion_today(s), line_size(o), "  ");
	}
	for (; *notes; notes++)
		fprintf(out, "note: %s\n", *notes);
	if (!hm_suggestion_count(s)) {
		wrapped(out, "", hm_suggestion_why(s) ? hm_suggestion_why(s) : "nothing to do", 0);
		return 0;
	}
	fprintf(out, "%zu proposal%s, best first (contention removed per byte added)\n",
		hm_suggestion_count(s), hm_suggestion_count(s) == 1 ? "" : "s");
	for (size_t i = 0; i < hm_suggestion_count(s) && !err; i++) {
		if (only && i + 1 != only)
			continue;
		fputc('\n', out);
		if (!only && hm_suggestion_count(s) > 1) {
			/* the list: what each costs and leaves; one at a time in full */
			proposal_head(out, s, hm_suggestion_get(s, i), i + 1);
			continue;
		}
		proposal_text(out, s, hm_suggestion_get(s, i), i + 1, o);
		fputc('\n', out);
		err = hm_suggest_print_layout(out, s, t, o, i);
	}
	if (!only && hm_suggestion_count(s) > 1)
		fprintf(out, "\n--proposal K shows proposal K's edits and layout, --patch its "
			"patch\n");
	return err ? err : ferror(out) ? -EIO : 0;
}

int hm_suggest_print_text(FILE *out, const hm_suggestion *s, const hm_types *t,
			  const struct hm_suggest_opts *opts, size_t only)
{
	struct hm_suggest_opts oc;

	if (!HM_OPTS_VALID(opts, hm_suggest_opts))
		return -EINVAL;
	return print_text(out, s, t, HM_OPTS_COPY(&oc, opts, hm_suggest_opts), only);
}

static void json_stats(hm_json *j, const hm_suggest_stats *st)
{
	hm_json_kuint(j, "size", st->size);
	hm_json_kuint(j, "alignment", st->alignment);
	hm_json_kuint(j, "cachelines", st->cachelines);
	hm_json_kuint(j, "holes", st->holes);
	hm_json_kuint(j, "sum_holes", st->sum_holes);
	hm_json_kuint(j, "padding", st->padding);
	hm_json_key(j, "remaining");
	hm_json_double(j, st->remaining);
	hm_json_kbool(j, "base_known", st->base_known);
}

static void json_edit(hm_json *j, const hm_edit *e, const struct hm_suggest_opts *o)
{
	static const char *const kinds[] = { "align", "move", "pad", "wrap",
						     "cacheline_padding", "cacheline_group" };
	char a[64];

	hm_json_begin_object(j);
	hm_json_kstr(j, "kind", kinds[e->kind]);
	hm_json_kstr(j, "member", e->member);
	if (e->kind == HM_EDIT_ALIGN) {
		hm_json_kuint(j, "bytes", e->value);
		hmi_suggest_align_text(o ? o->style : HM_STYLE_GNU, line_size(o), e->value, a,
				       sizeof(a));
		hm_json_kstr(j, "text", a);
	} else if (e->kind == HM_EDIT_MOVE) {
		hm_json_kstr(j, "after", e->anchor);
	} else if (e->kind == HM_EDIT_GROUP) {
		hm_json_kstr(j, "last", e->anchor);
		hm_json_kstr(j, "name", e->pad_name);
		hm_json_kuint(j, "bytes", e->value);
	} else if (e->kind == HM_EDIT_LINEPAD) {
		hm_json_kstr(j, "name", e->pad_name);
		hm_json_kuint(j, "bytes", e->value);
	} else if (e->kind == HM_EDIT_WRAP) {
		hm_json_kstr(j, "last", e->anchor);
		hm_json_kuint(j, "bytes", e->value);
		hmi_suggest_align_text(o ? o->style : HM_STYLE_GNU, line_size(o), e->value, a,
				       sizeof(a));
		hm_json_kstr(j, "text", a);
	} else {
		hm_json_kstr(j, "name", e->pad_name);
		hm_json_kuint(j, "bytes", e->value);
	}
	hm_json_end_object(j);
}

static void json_pair(hm_json *j, const hm_ev_pair *p)
{
	hm_json_begin_object(j);
	hm_json_kstr(j, "a", p->a);
	hm_json_kstr(j, "b", p->b);
	hm_json_kuint(j, "weight", p->weight);
	hm_json_end_object(j);
}

/* The proposed layout as text, the way `hitmap layout` prints it. */
static void json_layout_text(hm_json *j, const hm_suggestion *s, const hm_types *t,
			     const struct hm_suggest_opts *o, size_t i)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (m) {
		hm_suggest_print_layout(m, s, t, o, i);
		fclose(m);
	}
	hm_json_kstr(j, "layout", buf ? buf : "");
	free(buf);
}

static void json_proposal(hm_json *j, const hm_suggestion *s, const hm_types *t,
			  const struct hm_suggest_opts *o, size_t i)
{
	const hm_proposal *p = hm_suggestion_get(s, i);
	const hm_suggest_stats *today = hmi_suggestion_today(s);

	hm_json_begin_object(j);
	hm_json_kuint(j, "rank", i + 1);
	hm_json_kstr(j, "title", p->title);
	hm_json_key(j, "edits");
	hm_json_begin_array(j);
	for (size_t e = 0; e < p->nr_edits; e++)
		json_edit(j, &p->edits[e], o);
	hm_json_end_array(j);
	hm_json_kint(j, "growth", p->growth);
	json_stats(j, &p->stats);
	hm_json_kint(j, "holes_created", (int64_t)p->stats.holes - (int64_t)today->holes);
	hm_json_key(j, "remaining_ratio");
	hm_json_double(j, today->remaining > 0 ? p->stats.remaining / today->remaining : 0);
	hm_json_key(j, "separates");
	hm_json_begin_array(j);
	for (size_t k = 0; k < p->nr_separated; k++)
		json_pair(j, p->separated[k]);
	hm_json_end_array(j);
	json_layout_text(j, s, t, o, i);
	hm_json_end_object(j);
}

static void json_struct(hm_json *j, const hm_suggestion *s, const hm_types *t,
			const struct hm_suggest_opts *o)
{
	const char *const *notes = hmi_suggestion_notes(s);
	size_t nshared;
	const hm_ev_pair *const *shared = hmi_suggestion_shared(s, &nshared);

	hm_json_begin_object(j);
	hm_json_kstr(j, "name", suggestion_name(s, t));
	hm_json_key(j, "evidence");
	hm_json_begin_object(j);
	hm_json_kstr(j, "kind", hmi_evidence_kind_name(hmi_evidence_kind(hmi_suggestion_evidence(s))));
	hm_json_kstr(j, "source", hmi_evidence_source(hmi_suggestion_evidence(s)));
	hm_json_key(j, "total");
	hm_json_double(j, hmi_suggestion_total(s));
	hm_json_end_object(j);
	hm_json_key(j, "today");
	hm_json_begin_object(j);
	json_stats(j, hmi_suggestion_today(s));
	hm_json_key(j, "shared");
	hm_json_begin_array(j);
	for (size_t i = 0; i < nshared; i++)
		json_pair(j, shared[i]);
	hm_json_end_array(j);
	hm_json_end_object(j);
	hm_json_kstr(j, "nothing_to_do", hm_suggestion_why(s));
	hm_json_key(j, "notes");
	hm_json_begin_array(j);
	for (; *notes; notes++)
		hm_json_string(j, *notes);
	hm_json_end_array(j);
	hm_json_key(j, "proposals");
	hm_json_begin_array(j);
	for (size_t i = 0; i < hm_suggestion_count(s); i++)
		json_proposal(j, s, t, o, i);
	hm_json_end_array(j);
	hm_json_end_object(j);
}

static int print_json(FILE *out, const struct hm_json_binary *bin,
		      const hm_suggestion *const *s, size_t n, const hm_types *t,
		      const struct hm_suggest_opts *o)
{
	hm_json j;

	hm_json_init(&j, out, 1);
	hm_json_begin_object(&j);
	hm_json_kstr(&j, "schema", "hitmap/1");
	hm_json_kstr(&j, "command", "suggest");
	hm_json_key(&j, "binary");
	hm_json_begin_object(&j);
	hm_json_kstr(&j, "path", bin->path);
	hm_json_kstr(&j, "build_id", bin->build_id);
	hm_json_kstr(&j, "arch", bin->arch);
	hm_json_kuint(&j, "cacheline_size", bin->cacheline_size);
	hm_json_end_object(&j);
	hm_json_key(&j, "structs");
	hm_json_begin_array(&j);
	for (size_t i = 0; i < n; i++)
		json_struct(&j, s[i], t, o);
	hm_json_end_array(&j);
	hm_json_end_object(&j);
	hm_json_finish(&j);
	return ferror(out) ? -EIO : 0;
}

int hm_suggest_print_json(FILE *out, const struct hm_json_binary *bin,
			  const hm_suggestion *const *s, size_t n, const hm_types *t,
			  const struct hm_suggest_opts *opts)
{
	struct hm_suggest_opts oc;

	if (!HM_OPTS_VALID(opts, hm_suggest_opts))
		return -EINVAL;
	return print_json(out, bin, s, n, t, HM_OPTS_COPY(&oc, opts, hm_suggest_opts));
}
