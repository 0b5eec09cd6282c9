/* patch: a proposal as a unified diff against the struct's declaring source.
 *
 * The edit works on whole lines: each member's declaration is the run of lines
 * from its DWARF decl_line to the `;` that ends it.  A member moves with what
 * belongs to it: the comment block (kerneldoc) directly above it, a trailing
 * comment that runs on past its line, and an `#ifdef` ... `#endif` that holds
 * nothing else.  Anything the line model cannot see through — a member name
 * the text does not spell (a macro made it), two declarations on one line, a
 * move out of or into an #if block shared with other members — refuses the
 * patch rather than guess. */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "hitmap/suggest.h"
#include "base/diag.h"
#include "base/util.h"
#include "suggest/suggest-lib.h"

/* A patch hitmap will not write is not a failure of the run: a warning, and
 * the caller prints the layout instead. */
#define refuse(err, ...) (hm_diag(HM_DIAG_WARNING, __VA_ARGS__), -(err))

struct src {
	char *buf;		/* the file, NULs at line ends */
	char **line;		/* 0-based */
	char **code;		/* same lines, comments and strings blanked */
	unsigned char *incom;	/* line starts inside a comment; n + 1 entries */
	size_t n;
	int last_nl;		/* file ends with a newline */
	const char *rel;	/* path for the diff headers */
};

/* One line of the new text: an original line, or a new one. */
struct nl {
	long orig;		/* index into src lines, -1 for new text */
	char *text;
};

struct ed {
	struct src s;
	struct nl *nl;
	size_t n, cap;
	size_t body0, body1;	/* '{' line and '}' line */
	const char *sname;
};

static void blank_code(char *code, int *in_comment)
{
	char q = 0;

	for (char *c = code; *c; c++) {
		if (*in_comment) {
			if (c[0] == '*' && c[1] == '/') {
				*in_comment = 0;
				*c++ = ' ';
			}
			*c = ' ';
		} else if (q) {
			if (*c == '\\' && c[1])
				*c++ = ' ';
			else if (*c == q)
				q = 0;
			*c = ' ';
		} else if (c[0] == '/' && c[1] == '*') {
			*in_comment = 1;
			*c++ = ' ';
			*c = ' ';
		} else if (c[0] == '/' && c[1] == '/') {
			memset(c, ' ', strlen(c));
			return;
		} else if (*c == '"' || *c == '\'') {
			q = *c;
			*c = ' ';
		}
	}
}

static int read_source(const char *path, struct src *s)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, cap = 0;
	int inc = 0;

	if (!f)
		return -errno;
	for (;;) {
		if (hm_grow((void **)&s->buf, &cap, len + 4097, 1)) {
			fclose(f);
			return -ENOMEM;
		}
		size_t got = fread(s->buf + len, 1, 4096, f);

		len += got;
		if (got < 4096)
			break;
	}
	fclose(f);
	s->buf[len] = 0;
	s->last_nl = !len || s->buf[len - 1] == '\n';
	s->line = calloc(len + 2, sizeof(*s->line));
	s->code = calloc(len + 2, sizeof(*s->code));
	s->incom = calloc(len + 2, 1);
	if (!s->line || !s->code || !s->incom)
		return -ENOMEM;
	for (char *p = s->buf; p < s->buf + len;) {
		char *e = strchr(p, '\n');

		s->line[s->n] = p;
		if (e)
			*e = 0;
		if (!(s->code[s->n] = strdup(p)))
			return -ENOMEM;
		s->incom[s->n] = (unsigned char)inc;
		blank_code(s->code[s->n], &inc);
		s->incom[++s->n] = (unsigned char)inc;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

static void free_source(struct src *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->code[i]);
	free(s->code);
	free(s->incom);
	free(s->line);
	free(s->buf);
}

static int has_ident(const char *code, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(code, name); p; p = strstr(p + 1, name)) {
		int before = p > code && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
		int after = isalnum((unsigned char)p[n]) || p[n] == '_';

		if (!before && !after)
			return 1;
	}
	return 0;
}

/* The last line and the `;` of the declaration of `name` starting at line
 * `first`.  -1 when it is not one plain declaration of `name`.  Preprocessor
 * lines are allowed only inside the braces of the member's own type
 * (`struct { ... #ifdef ... } lru_gen;`), which move with it. */
static int decl_span(const struct ed *e, size_t first, const char *name, size_t *b,
		     size_t *semi)
{
	int depth = 0, found = 0;

	for (size_t l = first; l < e->body1 && l < first + 64; l++) {
		const char *c = e->s.code[l];

		found |= has_ident(c, name);
		if (c[strspn(c, " \t")] == '#') {
			if (depth > 0)
				continue;
			return -1;
		}
		for (const char *p = c; *p; p++) {
			if (*p == '(' || *p == '[' || *p == '{')
				depth++;
			else if (*p == ')' || *p == ']' || *p == '}')
				depth--;
			else if (*p == ',' && !depth)
				return -1;	/* several declarators */
			else if (*p == ';' && !depth) {
				if (strchr(p + 1, ';'))
					return -1;	/* more than one declaration */
				if (!found)
					return -1;
				*b = l;
				*semi = (size_t)(p - c);
				return 0;
			}
		}
	}
	return -1;
}

enum { PP_NONE, PP_IF, PP_ELSE, PP_ENDIF, PP_OTHER };

static int pp_kind(const struct ed *e, size_t l)
{
	const char *c = e->s.code[l] + strspn(e->s.code[l], " \t");

	if (*c != '#')
		return PP_NONE;
	c += 1 + strspn(c + 1, " \t");
	if (!strncmp(c, "if", 2))
		return PP_IF;
	if (!strncmp(c, "endif", 5))
		return PP_ENDIF;
	if (!strncmp(c, "el", 2))
		return PP_ELSE;
	return PP_OTHER;
}

static int is_blank(const struct ed *e, size_t l)
{
	const char *t = e->s.line[l];

	return !t[strspn(t, " \t\r")];
}

/* A line that holds a comment and nothing else. */
static int comment_only(const struct ed *e, size_t l)
{
	const char *c = e->s.code[l];

	return !c[strspn(c, " \t\r")] && !is_blank(e, l);
}

/* The #if nesting of every line relative to the struct's '{' line. */
static int pp_depth(const struct ed *e, size_t line)
{
	int d = 0;

	for (size_t l = e->body0; l < line; l++) {
		const char *c = e->s.line[l] + strspn(e->s.line[l], " \t");

		if (*c != '#')
			continue;
		c += 1 + strspn(c + 1, " \t");
		if (!strncmp(c, "if", 2))
			d++;
		else if (!strncmp(c, "endif", 5))
			d--;
		else if (!strncmp(c, "el", 2))
			d += 100;	/* an #else branch: never the same block */
	}
	return d;
}

static int find_body(struct ed *e, uint32_t decl_line)
{
	int depth = 0, open = 0;

	if (!decl_line || decl_line > e->s.n)
		return -1;
	for (size_t l = decl_line - 1; l < e->s.n; l++) {
		for (const char *p = e->s.code[l]; *p; p++) {
			if (*p == '{') {
				if (!open++) {
					e->body0 = l;
					if (p[1 + strspn(p + 1, " \t")])
						return -1;	/* members on the '{' line */
				}
				depth++;
			} else if (*p == '}') {
				if (--depth == 0 && open) {
					e->body1 = l;
					return 0;
				}
			}
		}
		if (!open && l > decl_line + 2)
			return -1;
	}
	return -1;
}

/* ---- the new text ---- */

static int nl_insert(struct ed *e, size_t at, long orig, char *text)
{
	if (hm_grow((void **)&e->nl, &e->cap, e->n + 1, sizeof(*e->nl)))
		return -ENOMEM;
	memmove(&e->nl[at + 1], &e->nl[at], (e->n - at) * sizeof(*e->nl));
	e->nl[at] = (struct nl){ .orig = orig, .text = text };
	e->n++;
	return 0;
}

/* A member's lines: its declaration a..b (the `;` at column semi of b), the
 * trailing comment that runs on to t1, and the block c0..c1 that moves with
 * it: the comment block directly above it and, when the member is alone in
 * an `#if` ... `#endif`, those two lines (cond). */
struct span {
	const char *name;
	size_t a, b, semi, t1, c0, c1;
	int cond;
};

/* The '{' line that opens the type of a member declared as `} name;`. */
static long open_brace(const struct ed *e, size_t close)
{
	int depth = 0;

	for (size_t l = close + 1; l-- > e->body0 + 1;) {
		const char *c = e->s.code[l];

		for (size_t k = strlen(c); k-- > 0;)
			if (c[k] == '}')
				depth++;
			else if (c[k] == '{' && --depth == 0)
				return (long)l;
	}
	return -1;
}

static void block_span(const struct ed *e, struct span *sp)
{
	sp->t1 = sp->b;
	while (sp->t1 + 1 < e->body1 && e->s.incom[sp->t1 + 1])
		sp->t1++;
	sp->c0 = sp->a;
	while (sp->c0 - 1 > e->body0 && comment_only(e, sp->c0 - 1))
		sp->c0--;
	/* the tail of the comment of the member above is not ours */
	while (sp->c0 < sp->a && e->s.incom[sp->c0])
		sp->c0++;
	sp->c1 = sp->t1;
	sp->cond = sp->c0 - 1 > e->body0 && sp->c1 + 1 < e->body1 &&
		   pp_kind(e, sp->c0 - 1) == PP_IF && pp_kind(e, sp->c1 + 1) == PP_ENDIF;
	if (sp->cond) {
		sp->c0--;
		sp->c1++;
	}
}

static int member_span(struct ed *e, const hm_types *t, hm_type_id id, const char *name,
		       struct span *sp)
{
	const hm_type *ty = hm_types_get(t, id);
	const hm_member *m = hm_types_members(t, ty);

	for (uint32_t i = 0; i < ty->nr; i++) {
		const char *c;

		if (!m[i].name || strcmp(m[i].name, name))
			continue;
		sp->name = m[i].name;
		sp->a = m[i].decl_line ? m[i].decl_line - 1 : 0;
		/* `struct { ... } name;`: the compilers give the line of name */
		if (m[i].decl_line && sp->a > e->body0 && sp->a < e->body1 &&
		    *(c = e->s.code[sp->a] + strspn(e->s.code[sp->a], " \t")) == '}') {
			long o = open_brace(e, sp->a);

			sp->a = o > (long)e->body0 ? (size_t)o : 0;
		}
		if (!m[i].decl_line || sp->a <= e->body0 || sp->a >= e->body1 ||
		    decl_span(e, sp->a, name, &sp->b, &sp->semi))
			return refuse(ENOTSUP, "%s:%u: the declaration of %s.%s is not one plain "
				       "declaration hitmap can edit (macro, several declarators "
				       "or preprocessor lines)", e->s.rel, m[i].decl_line,
				       e->sname, name);
		block_span(e, sp);
		return 0;
	}
	return refuse(ENOTSUP, "struct %s: no member %s in the debug info", e->sname, name);
}

/* Index in e->nl of the line at which an original line now lives, whether
 * or not it was changed. */
static long nl_find_any(const struct ed *e, size_t orig)
{
	for (size_t i = 0; i < e->n; i++)
		if (e->nl[i].orig == (long)orig || e->nl[i].orig == -2 - (long)orig)
			return (long)i;
	return -1;
}

static int edit_align(struct ed *e, const struct span *sp, const char *attr, int prefix)
{
	long i = nl_find_any(e, prefix ? sp->a : sp->b);
	const char *old;
	char *text;
	size_t ind;

	if (i < 0)
		return -ENOTSUP;
	old = e->nl[i].text;
	if (prefix) {
		ind = strspn(old, " \t");
		if (asprintf(&text, "%.*s%s %s", (int)ind, old, attr, old + ind) < 0)
			return -ENOMEM;
	} else {
		size_t at = sp->semi;

		while (at && (old[at - 1] == ' ' || old[at - 1] == '\t'))
			at--;
		if (asprintf(&text, "%.*s %s%s", (int)at, old, attr, old + at) < 0)
			return -ENOMEM;
	}
	if (e->nl[i].orig < 0)
		free(e->nl[i].text);
	e->nl[i].text = text;
	e->nl[i].orig = -2 - (long)(prefix ? sp->a : sp->b);	/* changed line */
	return 0;
}

/* Where a member moved after `anchor` goes: after the anchor's block and
 * the `#endif` lines that close conditionals it ends, so that the member
 * lands outside them.  An original line index, or -1 when the anchor sits
 * inside a conditional that goes on after it. */
static long after_anchor(const struct ed *e, const struct span *anchor)
{
	size_t at = anchor->c1 + 1;

	while (at < e->body1 && pp_depth(e, at) > 0 && pp_kind(e, at) == PP_ENDIF)
		at++;
	return pp_depth(e, at) == 0 ? (long)at : -1;
}

static int edit_move(struct ed *e, const struct span *sp, const struct span *anchor)
{
	size_t first = sp->c0, nlines;
	struct nl *tmp;
	long from, to, at = 0;
	int lead;

	if (pp_depth(e, sp->c0) != 0)
		return refuse(ENOTSUP, "%s:%zu: moving %s.%s out of preprocessor conditionals "
			      "it shares with other members is not safe to do blindly",
			      e->s.rel, sp->a + 1, e->sname, sp->name);
	if (anchor && (at = after_anchor(e, anchor)) < 0)
		return refuse(ENOTSUP, "%s:%zu: moving %s.%s after %s, inside preprocessor "
			      "conditionals, is not safe to do blindly", e->s.rel,
			      anchor->a + 1, e->sname, sp->name, anchor->name);
	/* a commented member is a paragraph: the blank line above it goes
	 * along when one below keeps today's place apart from its neighbour */
	lead = sp->c0 < sp->a && first - 1 > e->body0 && is_blank(e, first - 1) &&
	       sp->c1 + 1 < e->body1 && is_blank(e, sp->c1 + 1);
	first -= lead;
	nlines = sp->c1 - first + 1;
	from = nl_find_any(e, first);
	if (from < 0 || (size_t)from + nlines > e->n)
		return -ENOTSUP;
	for (size_t k = 0; k < nlines; k++) {
		long o = e->nl[from + k].orig;

		if (o != (long)(first + k) && o != -2 - (long)(first + k))
			return refuse(ENOTSUP, "%s:%zu: the lines of %s.%s were edited already",
				      e->s.rel, sp->a + 1, e->sname, sp->name);
	}
	if (!(tmp = malloc(nlines * sizeof(*tmp))))
		return -ENOMEM;
	memcpy(tmp, &e->nl[from], nlines * sizeof(*tmp));
	memmove(&e->nl[from], &e->nl[from + nlines], (e->n - from - nlines) * sizeof(*tmp));
	e->n -= nlines;
	to = anchor ? nl_find_any(e, (size_t)at - 1) + 1 : nl_find_any(e, e->body0) + 1;
	if (to <= 0) {
		free(tmp);
		return -ENOTSUP;
	}
	if (lead && !anchor) {
		/* at the top: the blank line separates it from what follows */
		struct nl blank = tmp[0];

		memmove(&tmp[0], &tmp[1], (nlines - 1) * sizeof(*tmp));
		tmp[nlines - 1] = blank;
	}
	for (size_t k = 0; k < nlines; k++)
		if (nl_insert(e, (size_t)to + k, tmp[k].orig, tmp[k].text)) {
			free(tmp);
			return -ENOMEM;
		}
	free(tmp);
	return 0;
}

/* Line l's indentation, then a, b and c; NULL when out of memory. */
static char *indented(const char *l, const char *a, const char *b, const char *c)
{
	char *t;

	return asprintf(&t, "%.*s%s%s%s", (int)strspn(l, " \t"), l, a, b, c) < 0 ? NULL : t;
}

/* New lines `open` before line `from` of the new text and `close` after
 * line `to`, around what a wrap or a group encloses.  Takes both lines,
 * NULL for one that could not be made. */
static int insert_around(struct ed *e, long from, long to, char *open, char *close)
{
	if (!open || !close || nl_insert(e, (size_t)to + 1, -1, close)) {
		free(open);
		free(close);
		return -ENOMEM;
	}
	return nl_insert(e, (size_t)from, -1, open) ? (free(open), -ENOMEM) : 0;
}

static int edit_pad(struct ed *e, const struct span *sp, const char *name, uint64_t bytes)
{
	long at = nl_find_any(e, sp->c1);
	const char *l = e->s.line[sp->a];
	char n[32], *text;

	if (at < 0)
		return -ENOTSUP;
	snprintf(n, sizeof(n), "[%llu];", (unsigned long long)bytes);
	text = bytes ? indented(l, "char ", name, n) : indented(l, "CACHELINE_PADDING(", name, ");");
	if (!text)
		return -ENOMEM;
	return nl_insert(e, (size_t)at + 1, -1, text);
}

/* Lines from `first`'s declaration to `last`'s, adjacent in the new text,
 * indented one more level between `struct {` and `} ATTR;` lines. */
static int edit_wrap(struct ed *e, const struct span *first, const struct span *last,
		     const char *attr)
{
	long from = nl_find_any(e, first->cond ? first->a : first->c0);
	long to = nl_find_any(e, last->t1);
	const char *l = e->s.line[first->a];
	int ind = (int)strspn(l, " \t");

	if (from < 0 || to < from)
		return refuse(ENOTSUP, "%s:%zu: %s.%s does not precede %s", e->s.rel,
			      first->a + 1, e->sname, e->s.line[first->a] + ind,
			      e->s.line[last->a]);
	for (long i = from; i <= to; i++) {
		const char *t = e->nl[i].text;
		char *nt;

		if (t[strspn(t, " \t")] == '#')
			return refuse(ENOTSUP, "%s:%zu: wrapping members of %s around "
				      "preprocessor lines is not safe to do blindly",
				      e->s.rel, first->a + 1, e->sname);
		if (!*t)
			continue;
		if (asprintf(&nt, "\t%s", t) < 0)
			return -ENOMEM;
		if (e->nl[i].orig < 0)
			free(e->nl[i].text);
		else
			e->nl[i].orig = -2 - e->nl[i].orig;
		e->nl[i].text = nt;
	}
	return insert_around(e, from, to, indented(l, "struct {", "", ""),
			     indented(l, "} ", attr, ";"));
}

/* __cacheline_group_begin_aligned(NAME); before `first`'s declaration and
 * __cacheline_group_end_aligned(NAME); after `last`'s. */
static int edit_group(struct ed *e, const struct span *first, const struct span *last,
		      const char *name)
{
	long from = nl_find_any(e, first->cond ? first->a : first->c0);
	long to = nl_find_any(e, last->t1);
	const char *l = e->s.line[first->a];

	if (from < 0 || to < from)
		return refuse(ENOTSUP, "%s:%zu: the members of group %s are not in order",
			      e->s.rel, first->a + 1, name);
	return insert_around(e, from, to,
			     indented(l, "__cacheline_group_begin_aligned(", name, ");"),
			     indented(l, "__cacheline_group_end_aligned(", name, ");"));
}

static int apply(struct ed *e, const hm_types *t, hm_type_id id, const hm_proposal *p,
		 enum hm_suggest_style style, unsigned line_size)
{
	int err = 0;

	for (size_t i = 0; i < e->s.n; i++)
		if ((err = nl_insert(e, e->n, (long)i, e->s.line[i])))
			return err;
	for (size_t k = 0; k < p->nr_edits && !err; k++) {
		const hm_edit *ed = &p->edits[k];
		struct span sp, an;
		char attr[64];

		if ((err = member_span(e, t, id, ed->member, &sp)))
			return err;
		switch (ed->kind) {
		case HM_EDIT_ALIGN:
			hmi_suggest_align_text(style, line_size, ed->value, attr, sizeof(attr));
			err = edit_align(e, &sp, attr, style == HM_STYLE_C11 ||
					 style == HM_STYLE_CXX);
			break;
		case HM_EDIT_MOVE:
			if (ed->anchor && (err = member_span(e, t, id, ed->anchor, &an)))
				return err;
			err = edit_move(e, &sp, ed->anchor ? &an : NULL);
			break;
		case HM_EDIT_PAD:
			err = edit_pad(e, &sp, ed->pad_name, ed->value);
			break;
		case HM_EDIT_LINEPAD:
			err = edit_pad(e, &sp, ed->pad_name, 0);
			break;
		case HM_EDIT_GROUP:
			if ((err = member_span(e, t, id, ed->anchor, &an)))
				return err;
			if (pp_depth(e, sp.a) != pp_depth(e, an.a))
				return refuse(ENOTSUP, "%s:%zu: a group of %s across preprocessor "
					      "conditionals is not safe to do blindly", e->s.rel,
					      sp.a + 1, e->sname);
			err = edit_group(e, &sp, &an, ed->pad_name);
			break;
		case HM_EDIT_WRAP:
			if ((err = member_span(e, t, id, ed->anchor, &an)))
				return err;
			if (pp_depth(e, sp.a) != 0 || pp_depth(e, an.a) != 0)
				return refuse(ENOTSUP, "%s:%zu: wrapping members of %s inside "
					      "preprocessor conditionals is not safe to do "
					      "blindly", e->s.rel, sp.a + 1, e->sname);
			hmi_suggest_align_text(style, line_size, ed->value, attr, sizeof(attr));
			err = edit_wrap(e, &sp, &an, attr);
			break;
		}
	}
	return err;
}

/* ---- unified diff ---- */

struct op {
	char c;			/* ' ', '-', '+' */
	const char *text;
	size_t oline, nline;	/* 1-based numbers in old/new */
};

static int same(const struct ed *e, size_t oi, size_t ni)
{
	return e->nl[ni].orig == (long)oi;
}

/* Edit script by longest common subsequence over the whole files (struct
 * bodies are small; the prefix and suffix are trimmed first). */
static int script(const struct ed *e, struct op **ops, size_t *nops)
{
	size_t N = e->s.n, M = e->n, pre = 0, suf = 0, n, m, k = 0;
	uint32_t *dp;
	struct op *o;

	while (pre < N && pre < M && same(e, pre, pre))
		pre++;
	while (suf < N - pre && suf < M - pre && same(e, N - 1 - suf, M - 1 - suf))
		suf++;
	n = N - pre - suf;
	m = M - pre - suf;
	if (n > 4000 || m > 4000)
		return -ENOTSUP;
	dp = calloc((n + 1) * (m + 1), sizeof(*dp));
	o = calloc(N + M + 1, sizeof(*o));
	if (!dp || !o) {
		free(dp);
		free(o);
		return -ENOMEM;
	}
#define DP(i, j) dp[(i) * (m + 1) + (j)]
	for (size_t i = n; i-- > 0;)
		for (size_t j = m; j-- > 0;)
			DP(i, j) = same(e, pre + i, pre + j) ? DP(i + 1, j + 1) + 1 :
				   DP(i + 1, j) > DP(i, j + 1) ? DP(i + 1, j) : DP(i, j + 1);
	for (size_t i = 0; i < pre; i++)
		o[k++] = (struct op){ ' ', e->s.line[i], i + 1, i + 1 };
	for (size_t i = 0, j = 0; i < n || j < m;) {
		if (i < n && j < m && same(e, pre + i, pre + j)) {
			o[k++] = (struct op){ ' ', e->s.line[pre + i], pre + i + 1, pre + j + 1 };
			i++, j++;
		} else if (i < n && (j == m || DP(i + 1, j) >= DP(i, j + 1))) {
			o[k++] = (struct op){ '-', e->s.line[pre + i], pre + i + 1, pre + j + 1 };
			i++;
		} else {
			o[k++] = (struct op){ '+', e->nl[pre + j].text, pre + i + 1, pre + j + 1 };
			j++;
		}
	}
#undef DP
	for (size_t i = 0; i < suf; i++)
		o[k++] = (struct op){ ' ', e->s.line[N - suf + i], N - suf + i + 1,
				      M - suf + i + 1 };
	free(dp);
	*ops = o;
	*nops = k;
	return 0;
}

static void hunks(FILE *f, const struct op *o, size_t n)
{
	const size_t C = 3;

	for (size_t i = 0; i < n;) {
		size_t first, last, k, a, b, oc = 0, nc = 0;

		while (i < n && o[i].c == ' ')
			i++;
		if (i == n)
			break;
		first = last = i;
		/* changes closer than 2*C context lines share a hunk */
		for (k = i + 1; k < n;) {
			size_t run = 0;

			if (o[k].c != ' ') {
				last = k++;
				continue;
			}
			while (k + run < n && o[k + run].c == ' ')
				run++;
			if (k + run == n || run > 2 * C)
				break;
			k += run;
		}
		a = first > C ? first - C : 0;
		b = last + 1 + C < n ? last + 1 + C : n;
		for (k = a; k < b; k++) {
			oc += o[k].c != '+';
			nc += o[k].c != '-';
		}
		fprintf(f, "@@ -%zu,%zu +%zu,%zu @@\n", oc ? o[a].oline : o[a].oline - 1, oc,
			nc ? o[a].nline : o[a].nline - 1, nc);
		for (k = a; k < b; k++)
			fprintf(f, "%c%s\n", o[k].c, o[k].text);
		i = b;
	}
}

int hm_suggest_patch(const hm_types *t, hm_type_id id, const hm_proposal *p,
		     enum hm_suggest_style style, unsigned line_size,
		     const char *source_root, char **out)
{
	const hm_type *ty = hm_types_get(t, id);
	/* the anonymous struct inside a kernel struct is named by its
	 * enclosing struct, whose copy p->type is */
	const hm_type *named = ty && ty->name ? ty : hm_types_get(t, p->type);
	struct ed e = { .sname = named && named->name ? named->name : "(anonymous)" };
	struct op *ops = NULL;
	size_t nops = 0, len = 0;
	char *path = NULL, *buf = NULL;
	FILE *f;
	int err;

	if (!ty || !ty->decl_file)
		return refuse(ENOENT, "struct %s: the debug info names no declaring file",
			       e.sname);
	if (!(path = hm_source_find(source_root, ty->decl_file, &e.s.rel)))
		return refuse(ENOENT, "%s: not found under %s", ty->decl_file, source_root);
	err = read_source(path, &e.s);
	if (!err && find_body(&e, ty->decl_line))
		err = refuse(ENOTSUP, "%s:%u: no struct body hitmap can edit there "
			      "(macro, or members on the line of the brace)", e.s.rel,
			      ty->decl_line);
	if (!err)
		err = apply(&e, t, id, p, style, line_size);
	if (!err)
		err = script(&e, &ops, &nops);
	if (!err && !(f = open_memstream(&buf, &len)))
		err = -ENOMEM;
	if (!err) {
		fprintf(f, "--- a/%s\n+++ b/%s\n", e.s.rel, e.s.rel);
		hunks(f, ops, nops);
		if (!e.s.last_nl && nops && ops[nops - 1].c != ' ')
			fprintf(f, "\\ No newline at end of file\n");
		fclose(f);
		*out = buf;
	}
	for (size_t i = 0; i < e.n; i++)
		if (e.nl[i].orig < 0)
			free(e.nl[i].text);
	free(e.nl);
	free(ops);
	free_source(&e.s);
	free(path);
	return err;
}
