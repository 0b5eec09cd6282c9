/* output: findings as text (for people and email), JSON (hitmap/1) and SARIF
 * 2.1.0 (for code-scanning UIs, located at the struct's declaration). */
#include "config.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "hitmap/hitmap.h"
#include "hitmap/findings.h"
#include <stdlib.h>
#include "base/json.h"
#include "base/util.h"

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* "SEVERITY: OBJECT: message", broken at a space before column 80 when too
 * long; the rest is indented by four. */
static void print_wrapped(FILE *out, const hm_finding *x)
{
	char line[1024];
	int n = x->summary && !x->object ?
		snprintf(line, sizeof(line), "%s: %s", hm_severity_name(x->severity), x->message) :
		snprintf(line, sizeof(line), "%s: %s%s: %s", hm_severity_name(x->severity),
			 x->global ? "global " : "", x->object ? x->object : "-", x->message);
	const char *p = line, *brk;
	int width = 80;

	if (n < 0)
		return;
	while ((int)strlen(p) > width) {
		/* never between a word and its number ("cacheline 1") */
		for (brk = p + width; brk > p && (*brk != ' ' ||
						  (brk[1] >= '0' && brk[1] <= '9')); brk--)
			;
		if (brk == p)
			break;
		fprintf(out, "%.*s\n    ", (int)(brk - p), p);
		p = brk + 1;
		width = 76;
	}
	fprintf(out, "%s\n", p);
}

static void print_text(const hm_findings *f, FILE *out, const struct hm_findings_meta *m)
{
	size_t i, n = hm_findings_count(f), c[3] = { 0, 0, 0 };
	const char *cmd;

	size_t shown = 0, hidden = 0, tables = 0;
	int brief = m && m->brief;
	size_t limit = m ? (m->limit ? m->limit : brief ? 40 : 0) : 0;

	for (i = 0; i < n; i++) {
		const hm_finding *x = hm_findings_get(f, i);
		const char *d = x->detail, *nl;

		c[x->severity] += !x->summary;
		if (!x->summary && ((brief && x->severity == HM_SEV_NOTE) ||
				    (limit && shown++ >= limit))) {
			hidden++;
			continue;
		}
		print_wrapped(out, x);
		if (x->rule_file)
			fprintf(out, "  rule %s:%u:%u (%s)\n", x->rule_file, x->rule_line,
				x->rule_col, x->kind);
		/* the rule's own comment: the fix it protects, for the reviewer */
		for (d = x->severity > HM_SEV_NOTE && strcmp(x->kind, "absent") ? x->reason : NULL;
		     d && *d;) {
			nl = strchr(d, '\n');
			fprintf(out, "  # %.*s\n", (int)(nl ? nl - d : (int)strlen(d)), d);
			d = nl ? nl + 1 : NULL;
		}
		d = x->detail;
		if (brief && d && tables++ >= 3)
			d = NULL;
		while (d && *d) {
			nl = strchr(d, '\n');
			fprintf(out, "  %.*s\n", (int)(nl ? nl - d : (int)strlen(d)), d);
			d = nl ? nl + 1 : NULL;
		}
	}
	cmd = m && m->command ? m->command : "check";
	if (hidden && brief)
		fprintf(out, "... %zu more %s not shown (--all shows everything)\n", hidden,
			plural(hidden, "finding", "findings"));
	else if (hidden)
		fprintf(out, "... %zu more %s not shown (limit %zu)\n", hidden,
			plural(hidden, "finding", "findings"), m->limit);
	if (m && m->has_rules)
		fprintf(out, "hitmap %s: %zu %s: %zu passed, %zu failed, %zu skipped\n", cmd,
			m->rules, plural(m->rules, "rule", "rules"), m->rules_passed,
			m->rules_failed, m->rules_skipped);
	fprintf(out, "hitmap %s: %zu %s, %zu %s, %zu %s\n", cmd, c[2],
		plural(c[2], "error", "errors"), c[1], plural(c[1], "warning", "warnings"), c[0],
		plural(c[0], "note", "notes"));
}

static void json_finding(hm_json *j, const hm_finding *x)
{
	unsigned k;

	hm_json_begin_object(j);
	hm_json_kstr(j, "severity", hm_severity_name(x->severity));
	hm_json_kstr(j, "kind", x->kind);
	hm_json_kstr(j, "object", x->object);
	hm_json_kbool(j, "global", x->global);
	hm_json_kbool(j, "summary", x->summary);
	hm_json_key(j, "members");
	hm_json_begin_array(j);
	for (k = 0; k < x->nr_members; k++)
		hm_json_string(j, x->members[k]);
	hm_json_end_array(j);
	hm_json_kstr(j, "message", x->message);
	hm_json_key(j, "cachelines");
	if (x->line_first == UINT32_MAX) {
		hm_json_null(j);
	} else {
		hm_json_begin_array(j);
		hm_json_uint(j, x->line_first);
		hm_json_uint(j, x->line_last);
		hm_json_end_array(j);
	}
	hm_json_key(j, "rule");
	if (x->rule_file) {
		hm_json_begin_object(j);
		hm_json_kstr(j, "file", x->rule_file);
		hm_json_kuint(j, "line", x->rule_line);
		hm_json_kuint(j, "column", x->rule_col);
		hm_json_end_object(j);
	} else {
		hm_json_null(j);
	}
	hm_json_key(j, "decl");
	if (x->decl_file) {
		hm_json_begin_object(j);
		hm_json_kstr(j, "file", x->decl_file);
		hm_json_kuint(j, "line", x->decl_line);
		hm_json_end_object(j);
	} else {
		hm_json_null(j);
	}
	hm_json_key(j, "score");
	hm_json_double(j, x->score);
	hm_json_kstr(j, "detail", x->detail);
	hm_json_kstr(j, "reason", x->reason);
	hm_json_end_object(j);
}

static void print_json(const hm_findings *f, FILE *out, const struct hm_findings_meta *m)
{
	size_t i, n = hm_findings_count(f);
	const char *const *in;
	hm_json j;

	hm_json_init(&j, out, 1);
	hm_json_begin_object(&j);
	hm_json_kstr(&j, "schema", "hitmap/1");
	hm_json_kstr(&j, "command", m && m->command ? m->command : "check");
	hm_json_key(&j, "inputs");
	hm_json_begin_array(&j);
	for (in = m ? m->inputs : NULL; in && *in; in++)
		hm_json_string(&j, *in);
	hm_json_end_array(&j);
	hm_json_key(&j, "summary");
	hm_json_begin_object(&j);
	hm_json_kuint(&j, "errors", hm_findings_count_at_least(f, HM_SEV_ERROR));
	hm_json_kuint(&j, "warnings", hm_findings_count_at_least(f, HM_SEV_WARNING) -
		      hm_findings_count_at_least(f, HM_SEV_ERROR));
	hm_json_kuint(&j, "notes", hm_findings_count_at_least(f, HM_SEV_NOTE) -
		      hm_findings_count_at_least(f, HM_SEV_WARNING));
	if (m && m->has_rules) {
		hm_json_key(&j, "rules");
		hm_json_begin_object(&j);
		hm_json_kuint(&j, "total", m->rules);
		hm_json_kuint(&j, "passed", m->rules_passed);
		hm_json_kuint(&j, "failed", m->rules_failed);
		hm_json_kuint(&j, "skipped", m->rules_skipped);
		hm_json_end_object(&j);
	}
	hm_json_end_object(&j);
	hm_json_key(&j, "findings");
	hm_json_begin_array(&j);
	for (i = 0; i < n; i++)
		json_finding(&j, hm_findings_get(f, i));
	hm_json_end_array(&j);
	hm_json_end_object(&j);
	hm_json_finish(&j);
}

/* ---- SARIF 2.1.0 ---- */

static const char *sarif_level(enum hm_severity s)
{
	return s == HM_SEV_ERROR ? "error" : s == HM_SEV_WARNING ? "warning" : "note";
}

static void sarif_uri(hm_json *j, const char *path)
{
	char buf[4096];
	size_t o = 0;
	const char *p;

	if (path[0] == '/')
		o = (size_t)snprintf(buf, sizeof(buf), "file://");
	for (p = path; *p && o + 4 < sizeof(buf); p++) {
		unsigned char ch = (unsigned char)*p;

		if (ch <= ' ' || ch >= 0x7f || strchr("%#?\"<>\\^`{|}[]", ch))
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%%%02X", ch);
		else
			buf[o++] = (char)ch;
	}
	buf[o] = 0;
	hm_json_kstr(j, "uri", buf);
}

static void sarif_location(hm_json *j, const char *file, uint32_t line, uint32_t col,
			   const char *root)
{
	const char *rel = NULL;
	char *full = NULL;

	/* a declaration under the source root is named from there, so that
	 * code-scanning UIs find it in the repository whatever the build folder */
	if (root)
		full = hm_source_find(root, file, &rel);
	hm_json_begin_object(j);
	hm_json_key(j, "physicalLocation");
	hm_json_begin_object(j);
	hm_json_key(j, "artifactLocation");
	hm_json_begin_object(j);
	sarif_uri(j, full ? rel : file);
	if (full)
		hm_json_kstr(j, "uriBaseId", "SRCROOT");
	free(full);
	hm_json_end_object(j);
	if (line) {
		hm_json_key(j, "region");
		hm_json_begin_object(j);
		hm_json_kuint(j, "startLine", line);
		if (col)
			hm_json_kuint(j, "startColumn", col);
		hm_json_end_object(j);
	}
	hm_json_end_object(j);
	hm_json_end_object(j);
}

static void sarif_result(hm_json *j, const hm_finding *x, size_t rule_index,
			 const char *root)
{
	char msg[1024];
	unsigned k;

	snprintf(msg, sizeof(msg), "%s%s: %s", x->global ? "global " : "",
		 x->object ? x->object : "-", x->message);
	hm_json_begin_object(j);
	hm_json_kstr(j, "ruleId", x->kind);
	if (rule_index != SIZE_MAX)
		hm_json_kuint(j, "ruleIndex", rule_index);
	hm_json_kstr(j, "level", sarif_level(x->severity));
	hm_json_key(j, "message");
	hm_json_begin_object(j);
	hm_json_kstr(j, "text", msg);
	hm_json_end_object(j);
	hm_json_key(j, "locations");
	hm_json_begin_array(j);
	if (x->decl_file) {
		sarif_location(j, x->decl_file, x->decl_line, 0, root);
	} else if (x->rule_file) {
		sarif_location(j, x->rule_file, x->rule_line, x->rule_col, NULL);
	}
	hm_json_end_array(j);
	if (x->rule_file && x->decl_file) {
		hm_json_key(j, "relatedLocations");
		hm_json_begin_array(j);
		sarif_location(j, x->rule_file, x->rule_line, x->rule_col, NULL);
		hm_json_end_array(j);
	}
	hm_json_key(j, "properties");
	hm_json_begin_object(j);
	hm_json_kstr(j, "object", x->object);
	hm_json_key(j, "members");
	hm_json_begin_array(j);
	for (k = 0; k < x->nr_members; k++)
		hm_json_string(j, x->members[k]);
	hm_json_end_array(j);
	if (x->line_first != UINT32_MAX) {
		hm_json_kuint(j, "firstCacheline", x->line_first);
		hm_json_kuint(j, "lastCacheline", x->line_last);
	}
	if (x->detail)
		hm_json_kstr(j, "detail", x->detail);
	if (x->summary)
		hm_json_kbool(j, "summary", 1);
	hm_json_key(j, "score");
	hm_json_double(j, x->score);
	if (x->reason)
		hm_json_kstr(j, "reason", x->reason);
	hm_json_end_object(j);
	hm_json_end_object(j);
}

static void print_sarif(const hm_findings *f, FILE *out, const char *root)
{
	size_t i, k, n = hm_findings_count(f), nk = 0;
	const char *kinds[64];
	char *abs;
	hm_json j;

	for (i = 0; i < n; i++) {
		const char *kd = hm_findings_get(f, i)->kind;

		for (k = 0; k < nk && strcmp(kinds[k], kd); k++)
			;
		if (k == nk && nk < 64)
			kinds[nk++] = kd;
	}
	hm_json_init(&j, out, 1);
	hm_json_begin_object(&j);
	hm_json_kstr(&j, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
	hm_json_kstr(&j, "version", "2.1.0");
	hm_json_key(&j, "runs");
	hm_json_begin_array(&j);
	hm_json_begin_object(&j);
	hm_json_key(&j, "tool");
	hm_json_begin_object(&j);
	hm_json_key(&j, "driver");
	hm_json_begin_object(&j);
	hm_json_kstr(&j, "name", "hitmap");
	hm_json_kstr(&j, "version", HM_VERSION);
	hm_json_key(&j, "rules");
	hm_json_begin_array(&j);
	for (k = 0; k < nk; k++) {
		hm_json_begin_object(&j);
		hm_json_kstr(&j, "id", kinds[k]);
		hm_json_end_object(&j);
	}
	hm_json_end_array(&j);
	hm_json_end_object(&j);
	hm_json_end_object(&j);
	if (root && (abs = realpath(root, NULL))) {
		char uri[4200];

		snprintf(uri, sizeof(uri), "file://%s%s", abs,
			 abs[strlen(abs) - 1] == '/' ? "" : "/");
		hm_json_key(&j, "originalUriBaseIds");
		hm_json_begin_object(&j);
		hm_json_key(&j, "SRCROOT");
		hm_json_begin_object(&j);
		hm_json_kstr(&j, "uri", uri);
		hm_json_end_object(&j);
		hm_json_end_object(&j);
		free(abs);
	}
	hm_json_key(&j, "results");
	hm_json_begin_array(&j);
	for (i = 0; i < n; i++) {
		const hm_finding *x = hm_findings_get(f, i);

		for (k = 0; k < nk && strcmp(kinds[k], x->kind); k++)
			;
		sarif_result(&j, x, k < nk ? k : SIZE_MAX, root);
	}
	hm_json_end_array(&j);
	hm_json_end_object(&j);
	hm_json_end_array(&j);
	hm_json_end_object(&j);
	hm_json_finish(&j);
}

int hm_findings_print(FILE *out, const hm_findings *f, enum hm_findings_format fmt,
		      const struct hm_findings_meta *meta)
{
	switch (fmt) {
	case HM_FINDINGS_JSON:
		print_json(f, out, meta);
		break;
	case HM_FINDINGS_SARIF:
		print_sarif(f, out, meta ? meta->source_root : NULL);
		break;
	default:
		print_text(f, out, meta);
	}
	return ferror(out) ? -EIO : 0;
}
