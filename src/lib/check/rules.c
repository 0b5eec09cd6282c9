/* rules: the rule-file parser.  Line oriented: one directive per line, `#`
 * starts a comment, `{` and `}` are tokens of their own.  Every error is
 * reported with its line and column and parsing goes on, so one run shows
 * them all. */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "hitmap/rules.h"
#include "base/diag.h"
#include "base/util.h"

struct hm_ruleset {
	hm_strtab strs;
	hm_arena arena;
	hm_rule *rules;
	size_t n, cap;
	const char **structs;		/* NULL-terminated */
	size_t nstructs, capstructs;
	const char **ctypes;		/* NULL-terminated */
	size_t nctypes, capctypes;
	const char **aligned;		/* `placement line-aligned` structs, NULL-terminated */
	size_t naligned, capaligned;
	unsigned has_globals : 1;
};

static const char *const kind_names[] = {
	[HM_RULE_APART] = "apart",
	[HM_RULE_ALONE] = "alone",
	[HM_RULE_ALIGNED] = "aligned",
	[HM_RULE_TOGETHER] = "together",
	[HM_RULE_NO_STRADDLE] = "no-straddle",
	[HM_RULE_MAX_SIZE] = "max-size",
	[HM_RULE_MAX_LINES] = "max-lines",
};
#define NKINDS (sizeof(kind_names) / sizeof(kind_names[0]))

const char *hm_rule_kind_name(enum hm_rule_kind kind)
{
	return (unsigned)kind < NKINDS ? kind_names[kind] : "?";
}

hm_ruleset *hm_ruleset_new(void)
{
	hm_ruleset *rs = calloc(1, sizeof(*rs));

	if (!rs)
		return NULL;
	if (hm_grow((void **)&rs->structs, &rs->capstructs, 1, sizeof(char *)) ||
	    hm_grow((void **)&rs->ctypes, &rs->capctypes, 1, sizeof(char *)) ||
	    hm_grow((void **)&rs->aligned, &rs->capaligned, 1, sizeof(char *))) {
		hm_ruleset_free(rs);
		return NULL;
	}
	rs->structs[0] = NULL;
	rs->ctypes[0] = NULL;
	rs->aligned[0] = NULL;
	return rs;
}

void hm_ruleset_free(hm_ruleset *rs)
{
	if (!rs)
		return;
	hm_strtab_free(&rs->strs);
	hm_arena_free(&rs->arena);
	free(rs->rules);
	free(rs->structs);
	free(rs->ctypes);
	free(rs->aligned);
	free(rs);
}

size_t hm_ruleset_count(const hm_ruleset *rs)
{
	return rs ? rs->n : 0;
}

const hm_rule *hm_ruleset_rule(const hm_ruleset *rs, size_t i)
{
	return i < rs->n ? &rs->rules[i] : NULL;
}

const char *const *hm_ruleset_structs(const hm_ruleset *rs)
{
	return rs->structs;
}

const char *const *hm_ruleset_contended_types(const hm_ruleset *rs)
{
	return rs->ctypes;
}

int hm_ruleset_line_aligned(const hm_ruleset *rs, const char *name)
{
	size_t i;

	for (i = 0; rs && name && i < rs->naligned; i++)
		if (!strcmp(rs->aligned[i], name))
			return 1;
	return 0;
}

int hm_ruleset_has_globals(const hm_ruleset *rs)
{
	return rs && rs->has_globals;
}

/* Append to a NULL-terminated list of interned names unless already there. */
static int list_add(const char ***list, size_t *n, size_t *cap, const char *s)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*list)[i] == s)
			return 0;
	if (hm_grow((void **)list, cap, *n + 2, sizeof(char *)))
		return -ENOMEM;
	(*list)[(*n)++] = s;
	(*list)[*n] = NULL;
	return 0;
}

/* ---- the tokenizer ---- */

#define MAX_TOKENS 64

struct tok {
	const char *s;
	size_t len;
	unsigned col;		/* 1-based byte column */
};

struct parser {
	hm_ruleset *rs;
	const char *file;
	unsigned line;
	int errors;
	/* the open block, if any */
	const char *block;	/* interned struct name; NULL outside a block */
	unsigned block_line, block_col;
	unsigned block_require : 1;
	size_t block_first;	/* index of the block's first rule */
	/* the comment block being read, and the one the next rules carry */
	char *cmt;
	size_t cmtlen, cmtcap;
	const char *reason;
};

static void perr(struct parser *p, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void perr(struct parser *p, unsigned col, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	hm_diag(HM_DIAG_ERROR, "%s:%u:%u: error: %s", p->file, p->line, col, msg);
	p->errors++;
}

static size_t split(const char *s, size_t len, struct tok *t, size_t max)
{
	size_t i = 0, n = 0;

	while (i < len && n < max) {
		size_t start;

		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
			i++;
			continue;
		}
		if (s[i] == '#')
			break;
		start = i;
		if (s[i] == '{' || s[i] == '}')
			i++;
		else
			while (i < len && !strchr(" \t\r#{}", s[i]))
				i++;
		t[n].s = s + start;
		t[n].len = i - start;
		t[n].col = (unsigned)start + 1;
		n++;
	}
	return n;
}

static int tok_is(const struct tok *t, const char *w)
{
	return t->len == strlen(w) && !memcmp(t->s, w, t->len);
}

static const char *tok_str(struct parser *p, const struct tok *t)
{
	return hm_strtab_intern_n(&p->rs->strs, t->s, t->len);
}

static int is_ident(const char *s, size_t len)
{
	size_t i;

	if (!len || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (i = 1; i < len; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return 0;
	return 1;
}

/* A dotted member path: ident(.ident)* */
static int is_path(const struct tok *t)
{
	size_t i = 0, start = 0;

	for (i = 0; i <= t->len; i++) {
		if (i == t->len || t->s[i] == '.') {
			if (!is_ident(t->s + start, i - start))
				return 0;
			start = i + 1;
		}
	}
	return 1;
}

/* Struct names: C identifiers, plus C++ scope and template spellings. */
static int is_type_name(const struct tok *t)
{
	size_t i;

	if (!t->len || isdigit((unsigned char)t->s[0]))
		return 0;
	for (i = 0; i < t->len; i++)
		if (!(isalnum((unsigned char)t->s[i]) || strchr("_:<>,*&", t->s[i])))
			return 0;
	return 1;
}

/* The closest of `cands` to the token, within a small edit distance. */
static const char *did_you_mean(const struct tok *t, const char *const *cands)
{
	char word[64];
	const char *best = NULL;
	unsigned bestd = 3, d;
	size_t n = t->len < sizeof(word) - 1 ? t->len : sizeof(word) - 1;

	memcpy(word, t->s, n);
	word[n] = 0;
	for (; *cands; cands++) {
		d = hm_edit_distance(word, *cands, 2);
		if (d < bestd) {
			best = *cands;
			bestd = d;
		}
	}
	return best;
}

static const char *const block_words[] = {
	"apart", "alone", "aligned", "together", "no-straddle", "max-size", "max-lines",
	"require", "warn", "error", "placement", NULL,
};
static const char *const top_words[] = {
	"struct", "union", "class", "global", "contended-type", "warn", "error", NULL,
};

static void unknown(struct parser *p, const struct tok *t, const char *const *cands)
{
	const char *dym = did_you_mean(t, cands);

	if (dym)
		perr(p, t->col, "unknown directive '%.*s' (did you mean '%s'?)",
		     (int)t->len, t->s, dym);
	else
		perr(p, t->col, "unknown directive '%.*s'", (int)t->len, t->s);
}

static int kind_of(const struct tok *t)
{
	size_t k;

	for (k = 0; k < NKINDS; k++)
		if (tok_is(t, kind_names[k]))
			return (int)k;
	return -1;
}

static hm_rule *new_rule(struct parser *p)
{
	hm_ruleset *rs = p->rs;
	hm_rule *r;

	if (hm_grow((void **)&rs->rules, &rs->cap, rs->n + 1, sizeof(*rs->rules)))
		return NULL;
	r = &rs->rules[rs->n++];
	memset(r, 0, sizeof(*r));
	r->file = hm_strtab_intern(&rs->strs, p->file);
	r->reason = p->reason;
	r->line = p->line;
	r->severity = HM_SEV_ERROR;
	return r;
}

static int parse_number(struct parser *p, const struct tok *t, uint64_t *out)
{
	char buf[32], *end;
	unsigned long long v;

	if (t->len >= sizeof(buf) || !isdigit((unsigned char)t->s[0])) {
		perr(p, t->col, "'%.*s' is not a number", (int)t->len, t->s);
		return -1;
	}
	memcpy(buf, t->s, t->len);
	buf[t->len] = 0;
	errno = 0;
	v = strtoull(buf, &end, 0);
	if (errno || *end) {
		perr(p, t->col, "'%.*s' is not a number", (int)t->len, t->s);
		return -1;
	}
	*out = v;
	return 0;
}

/* A directive inside a struct block: t[0] is the directive word. */
static int block_directive(struct parser *p, const struct tok *t, size_t n,
			   enum hm_severity sev, unsigned col)
{
	int k = kind_of(&t[0]);
	const char *name = kind_names[k];
	const char **args;
	hm_rule *r;
	size_t i, min;
	uint64_t v = 0;

	if (k == HM_RULE_MAX_SIZE || k == HM_RULE_MAX_LINES) {
		if (n != 2) {
			perr(p, n < 2 ? t[0].col : t[2].col, n < 2 ? "'%s' needs a number" :
			     "'%s' takes one number", name);
			return 0;
		}
		if (parse_number(p, &t[1], &v))
			return 0;
		if (!(r = new_rule(p)))
			return -ENOMEM;
		r->kind = k;
		r->severity = sev;
		r->object = p->block;
		r->require = p->block_require;
		r->value = v;
		r->col = col;
		return 0;
	}
	min = (k == HM_RULE_APART || k == HM_RULE_TOGETHER) ? 2 : 1;
	if (n - 1 < min) {
		perr(p, t[0].col, "'%s' needs at least %s member%s", name,
		     min == 2 ? "two" : "one", min == 2 ? "s" : "");
		return 0;
	}
	for (i = 1; i < n; i++) {
		if (!is_path(&t[i])) {
			perr(p, t[i].col, "'%.*s' is not a member path", (int)t[i].len, t[i].s);
			return 0;
		}
	}
	args = hm_arena_alloc(&p->rs->arena, (n - 1) * sizeof(char *));
	if (!args)
		return -ENOMEM;
	for (i = 1; i < n; i++)
		if (!(args[i - 1] = tok_str(p, &t[i])))
			return -ENOMEM;
	if (!(r = new_rule(p)))
		return -ENOMEM;
	r->kind = k;
	r->severity = sev;
	r->object = p->block;
	r->require = p->block_require;
	r->nr_args = (unsigned)(n - 1);
	r->args = args;
	r->col = col;
	return 0;
}

static int open_block(struct parser *p, const struct tok *t, size_t n)
{
	const char *name;

	if (n < 2 || tok_is(&t[1], "{")) {
		perr(p, n < 2 ? t[0].col + (unsigned)t[0].len : t[1].col,
		     "expected a struct name after '%.*s'", (int)t[0].len, t[0].s);
		return 0;
	}
	if (!is_type_name(&t[1])) {
		perr(p, t[1].col, "'%.*s' is not a struct name", (int)t[1].len, t[1].s);
		return 0;
	}
	if (n < 3 || !tok_is(&t[2], "{")) {
		perr(p, n < 3 ? t[1].col + (unsigned)t[1].len : t[2].col,
		     "expected '{' after '%.*s %.*s'", (int)t[0].len, t[0].s,
		     (int)t[1].len, t[1].s);
		return 0;
	}
	if (n > 3) {
		perr(p, t[3].col, "unexpected '%.*s' after '{'", (int)t[3].len, t[3].s);
		return 0;
	}
	if (!(name = tok_str(p, &t[1])))
		return -ENOMEM;
	/* a comment above the block describes the struct, not its first rule */
	p->reason = NULL;
	p->block = name;
	p->block_line = p->line;
	p->block_col = t[0].col;
	p->block_require = 0;
	p->block_first = p->rs->n;
	return list_add(&p->rs->structs, &p->rs->nstructs, &p->rs->capstructs, name);
}

static int global_directive(struct parser *p, const struct tok *t, size_t n,
			    enum hm_severity sev, unsigned col)
{
	hm_rule *r;
	int k;

	if (n < 2) {
		perr(p, t[0].col, "'global' needs a variable name and a directive");
		return 0;
	}
	if (!is_ident(t[1].s, t[1].len)) {
		perr(p, t[1].col, "'%.*s' is not a variable name", (int)t[1].len, t[1].s);
		return 0;
	}
	if (n < 3) {
		perr(p, t[1].col + (unsigned)t[1].len,
		     "'global %.*s' needs one of alone, aligned, no-straddle",
		     (int)t[1].len, t[1].s);
		return 0;
	}
	k = kind_of(&t[2]);
	if (k != HM_RULE_ALONE && k != HM_RULE_ALIGNED && k != HM_RULE_NO_STRADDLE) {
		static const char *const g[] = { "alone", "aligned", "no-straddle", NULL };
		const char *dym = did_you_mean(&t[2], g);

		if (k >= 0)
			perr(p, t[2].col, "'%s' does not apply to a global (use alone, "
			     "aligned or no-straddle)", kind_names[k]);
		else if (dym)
			perr(p, t[2].col, "unknown directive '%.*s' (did you mean '%s'?)",
			     (int)t[2].len, t[2].s, dym);
		else
			perr(p, t[2].col, "unknown directive '%.*s'", (int)t[2].len, t[2].s);
		return 0;
	}
	if (n > 3) {
		perr(p, t[3].col, "unexpected '%.*s' after '%s'", (int)t[3].len, t[3].s,
		     kind_names[k]);
		return 0;
	}
	if (!(r = new_rule(p)))
		return -ENOMEM;
	r->kind = k;
	r->severity = sev;
	r->global = 1;
	r->col = col;
	if (!(r->object = tok_str(p, &t[1])))
		return -ENOMEM;
	p->rs->has_globals = 1;
	return 0;
}

/* `contended-type NAME` or `contended-type struct NAME`. */
static int contended_type(struct parser *p, const struct tok *t, size_t n)
{
	char buf[256];
	const char *s;
	int tag;

	if (n < 2) {
		perr(p, t[0].col, "'contended-type' needs a type name");
		return 0;
	}
	tag = tok_is(&t[1], "struct") || tok_is(&t[1], "union") || tok_is(&t[1], "class");
	if (n != 2 + (size_t)tag || (tag && n < 3)) {
		if (tag && n < 3)
			perr(p, t[1].col + (unsigned)t[1].len, "'contended-type %.*s' needs a name",
			     (int)t[1].len, t[1].s);
		else
			perr(p, t[2 + tag].col, "unexpected '%.*s' after the type name",
			     (int)t[2 + tag].len, t[2 + tag].s);
		return 0;
	}
	if (!is_type_name(&t[1 + tag])) {
		perr(p, t[1 + tag].col, "'%.*s' is not a type name", (int)t[1 + tag].len,
		     t[1 + tag].s);
		return 0;
	}
	if (tag)
		snprintf(buf, sizeof(buf), "%.*s %.*s", (int)t[1].len, t[1].s,
			 (int)t[2].len, t[2].s);
	else
		snprintf(buf, sizeof(buf), "%.*s", (int)t[1].len, t[1].s);
	if (!(s = hm_strtab_intern(&p->rs->strs, buf)))
		return -ENOMEM;
	return list_add(&p->rs->ctypes, &p->rs->nctypes, &p->rs->capctypes, s);
}

static int line_in_block(struct parser *p, struct tok *t, size_t n)
{
	enum hm_severity sev = HM_SEV_ERROR;
	unsigned col = t[0].col;
	size_t i;

	if (tok_is(&t[0], "}")) {
		if (n > 1)
			perr(p, t[1].col, "unexpected '%.*s' after '}'", (int)t[1].len, t[1].s);
		p->block = NULL;
		p->reason = NULL;
		return 0;
	}
	if (tok_is(&t[0], "require")) {
		if (n > 1) {
			perr(p, t[1].col, "unexpected '%.*s' after 'require'", (int)t[1].len,
			     t[1].s);
			return 0;
		}
		p->block_require = 1;
		/* applies to the whole block, also to rules above it */
		for (i = p->block_first; i < p->rs->n; i++)
			p->rs->rules[i].require = 1;
		return 0;
	}
	if (tok_is(&t[0], "placement")) {
		if (n < 2 || !(tok_is(&t[1], "line-aligned") || tok_is(&t[1], "natural"))) {
			perr(p, n < 2 ? t[0].col + (unsigned)t[0].len : t[1].col,
			     "'placement' needs line-aligned or natural");
			return 0;
		}
		if (n > 2) {
			perr(p, t[2].col, "unexpected '%.*s' after 'placement %.*s'",
			     (int)t[2].len, t[2].s, (int)t[1].len, t[1].s);
			return 0;
		}
		if (tok_is(&t[1], "natural"))
			return 0;
		return list_add(&p->rs->aligned, &p->rs->naligned, &p->rs->capaligned,
				p->block);
	}
	if (tok_is(&t[0], "struct") || tok_is(&t[0], "union") || tok_is(&t[0], "class")) {
		perr(p, t[0].col, "'%.*s' block inside the block of '%s' (missing '}'?)",
		     (int)t[0].len, t[0].s, p->block);
		return 0;
	}
	if (tok_is(&t[0], "warn") || tok_is(&t[0], "error")) {
		sev = tok_is(&t[0], "warn") ? HM_SEV_WARNING : HM_SEV_ERROR;
		if (n < 2 || kind_of(&t[1]) < 0) {
			if (n < 2)
				perr(p, t[0].col + (unsigned)t[0].len, "'%.*s' needs a directive",
				     (int)t[0].len, t[0].s);
			else
				unknown(p, &t[1], block_words);
			return 0;
		}
		t++;
		n--;
	}
	if (kind_of(&t[0]) < 0) {
		if (tok_is(&t[0], "global") || tok_is(&t[0], "contended-type"))
			perr(p, t[0].col, "'%.*s' inside the block of '%s' (missing '}'?)",
			     (int)t[0].len, t[0].s, p->block);
		else
			unknown(p, &t[0], block_words);
		return 0;
	}
	return block_directive(p, t, n, sev, col);
}

static int line_at_top(struct parser *p, struct tok *t, size_t n)
{
	enum hm_severity sev = HM_SEV_ERROR;
	unsigned col = t[0].col;

	if (tok_is(&t[0], "struct") || tok_is(&t[0], "union") || tok_is(&t[0], "class"))
		return open_block(p, t, n);
	if (tok_is(&t[0], "contended-type"))
		return contended_type(p, t, n);
	if (tok_is(&t[0], "}")) {
		perr(p, t[0].col, "'}' without a struct block");
		return 0;
	}
	if ((tok_is(&t[0], "warn") || tok_is(&t[0], "error")) && n > 1 &&
	    tok_is(&t[1], "global")) {
		sev = tok_is(&t[0], "warn") ? HM_SEV_WARNING : HM_SEV_ERROR;
		t++;
		n--;
	}
	if (tok_is(&t[0], "global"))
		return global_directive(p, t, n, sev, col);
	if (kind_of(&t[0]) >= 0 || tok_is(&t[0], "require") ||
	    ((tok_is(&t[0], "warn") || tok_is(&t[0], "error")) && n > 1 && kind_of(&t[1]) >= 0)) {
		perr(p, t[0].col, "'%.*s' outside a struct block", (int)t[0].len, t[0].s);
		return 0;
	}
	unknown(p, &t[0], top_words);
	return 0;
}

static int same_rule(const hm_rule *a, const hm_rule *b)
{
	unsigned i;

	if (a->kind != b->kind || a->object != b->object || a->global != b->global ||
	    a->value != b->value || a->nr_args != b->nr_args)
		return 0;
	for (i = 0; i < a->nr_args; i++)	/* paths are interned */
		if (a->args[i] != b->args[i])
			return 0;
	return 1;
}

/* A rule written twice is almost always a merge or copy-paste slip, and would
 * report every finding twice: refuse it, pointing at the first one. */
static void check_duplicate(struct parser *p, size_t first_new)
{
	hm_ruleset *rs = p->rs;
	size_t i, j;

	for (j = first_new; j < rs->n; j++) {
		for (i = 0; i < j; i++) {
			if (!same_rule(&rs->rules[i], &rs->rules[j]))
				continue;
			perr(p, rs->rules[j].col, "duplicate rule: same as %s:%u:%u",
			     rs->rules[i].file, rs->rules[i].line, rs->rules[i].col);
			break;
		}
	}
}

/* A line without tokens: a comment line adds its text to the comment block
 * being read (the reason check prints under the rules that follow it); a
 * blank line ends the block and what it explained. */
static int comment_line(struct parser *p, const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
		i++;
	if (i == len || s[i] != '#') {
		p->cmtlen = 0;
		p->reason = NULL;
		return 0;
	}
	i++;
	if (i < len && s[i] == ' ')
		i++;
	while (len > i && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	if (hm_grow((void **)&p->cmt, &p->cmtcap, p->cmtlen + (len - i) + 2, 1))
		return -ENOMEM;
	if (p->cmtlen)
		p->cmt[p->cmtlen++] = '\n';
	memcpy(p->cmt + p->cmtlen, s + i, len - i);
	p->cmtlen += len - i;
	p->cmt[p->cmtlen] = 0;
	return 0;
}

int hm_ruleset_parse(hm_ruleset *rs, const char *name, const char *text, size_t len)
{
	struct parser p = { .rs = rs, .file = name };
	struct tok t[MAX_TOKENS];
	size_t pos = 0, before, directives = 0;
	int r;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - (text + pos)) : len - pos, n;

		p.line++;
		if (memchr(text + pos, 0, ll)) {
			perr(&p, (unsigned)((const char *)memchr(text + pos, 0, ll) - (text + pos)) + 1,
			     "NUL byte in a rule file");
			r = -EBADMSG;
			goto out;
		}
		n = split(text + pos, ll, t, MAX_TOKENS);
		if (!n && (r = comment_line(&p, text + pos, ll)) < 0)
			goto out;
		if (n && p.cmtlen) {
			/* a comment block ends: it is the reason of the rules below */
			if (!(p.reason = hm_strtab_intern_n(&rs->strs, p.cmt, p.cmtlen))) {
				r = -ENOMEM;
				goto out;
			}
			p.cmtlen = 0;
		}
		pos += ll + 1;
		if (n == MAX_TOKENS) {
			perr(&p, t[MAX_TOKENS - 1].col, "too many words on one line (at most %d)",
			     MAX_TOKENS - 1);
			continue;
		}
		if (!n)
			continue;
		directives++;
		before = rs->n;
		r = p.block ? line_in_block(&p, t, n) : line_at_top(&p, t, n);
		if (r < 0)
			goto out;
		check_duplicate(&p, before);
	}
	if (p.block) {
		p.line = p.block_line;
		perr(&p, p.block_col, "block of '%s' is not closed (missing '}')", p.block);
	}
	/* a file of comments checks nothing: a wrong file, not "0 rules" */
	if (!directives && !p.errors) {
		p.line = 1;
		perr(&p, 1, "no rules in this file (only comments and blank lines)");
	}
	r = p.errors ? -EBADMSG : 0;
out:
	/* every way out frees the comment block being read */
	free(p.cmt);
	return r;
}

int hm_ruleset_load(hm_ruleset *rs, const char *path)
{
	FILE *f = hm_fopen_regular(path);
	char *buf = NULL;
	size_t len = 0, cap = 0, got;
	int r;

	if (!f)
		return hm_fail(errno, "%s: %s", path, hm_open_error(errno));
	for (;;) {
		if (hm_grow((void **)&buf, &cap, len + 4096, 1)) {
			fclose(f);
			free(buf);
			return -ENOMEM;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		r = hm_fail(EIO, "%s: read error", path);
	} else {
		r = hm_ruleset_parse(rs, path, buf, len);
	}
	fclose(f);
	free(buf);
	return r;
}
