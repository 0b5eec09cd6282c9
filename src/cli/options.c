/* The option layer of the hitmap command: see options.h. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/findings.h"
#include "cli.h"
#include "options.h"

#define HELP_COLUMN 24	/* where the help text of an option starts */
#define HELP_WIDTH 80

const struct cli_choice cli_fail_on_choices[] = {
	{ "error", HM_SEV_ERROR }, { "warn", HM_SEV_WARNING }, { "warning", HM_SEV_WARNING },
	{ NULL, 0 },
};

/* ---- did you mean ---- */

unsigned cli_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned *d, r;

	/* three rows: two back for transpositions */
	d = calloc(3 * (lb + 1), sizeof(*d));
	if (!d)
		return (unsigned)-1;
	for (j = 0; j <= lb; j++)
		d[j] = (unsigned)j;
	for (i = 1; i <= la; i++) {
		unsigned *cur = d + (i % 3) * (lb + 1), *prev = d + ((i - 1) % 3) * (lb + 1);
		unsigned *prev2 = d + ((i + 1) % 3) * (lb + 1);

		cur[0] = (unsigned)i;
		for (j = 1; j <= lb; j++) {
			unsigned cost = a[i - 1] != b[j - 1], v = prev[j - 1] + cost;

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
	}
	r = d[(la % 3) * (lb + 1) + lb];
	free(d);
	return r;
}

size_t cli_similar(const char *typed, const char *const *cands, size_t n, const char *prefix,
		   char *buf, size_t len)
{
	/* a third of what was typed may be wrong, and at least one character */
	size_t tl = strlen(typed);
	unsigned best = (unsigned)(tl / 3 > 1 ? tl / 3 : 1), dist;
	size_t i, found = 0, at = 0;

	for (i = 0; i < n; i++)
		if (cands[i] && (dist = cli_edit_distance(typed, cands[i])) < best)
			best = dist;
	buf[0] = 0;
	for (i = 0; i < n; i++) {
		if (!cands[i] || cli_edit_distance(typed, cands[i]) != best)
			continue;
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s'%s%s'", found ? ", " : "",
					       prefix, cands[i]);
		found++;
	}
	return found;
}

/* ---- errors ---- */

static void say(const char *what, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

static void say(const char *what, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* "error: ...", an optional "hint: did you mean ...?", the --help pointer. */
static int fail(const struct hm_cmd *cmd, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(const struct hm_cmd *cmd, const char *hint, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	say("error", fmt, ap);
	va_end(ap);
	if (hint && *hint)
		fprintf(stderr, "hint: did you mean %s?\n", hint);
	fprintf(stderr, "try 'hitmap %s --help'\n", cmd->name);
	return HM_EXIT_USAGE;
}

/* ---- the table ---- */

/* A wrong table is a bug of hitmap's, caught by the first run of a test. */
static void check_table(const struct hm_cmd *cmd)
{
	const struct cli_option *o;

	for (o = cmd->options; o && o->type != CLI_OPT_END; o++) {
		int ok = 1;

		switch (o->type) {
		case CLI_OPT_FLAG: case CLI_OPT_BOOL: case CLI_OPT_CHOICE:
			ok = o->size == sizeof(int);
			break;
		case CLI_OPT_UINT:
			ok = (o->size == 4 && o->umax <= UINT32_MAX) || o->size == 8;
			break;
		case CLI_OPT_STRING:
			ok = o->size == sizeof(char *);
			break;
		case CLI_OPT_LIST:
			ok = o->max ? o->size >= o->max * sizeof(char *) : o->size == sizeof(char **);
			break;
		default:
			break;
		}
		if (!ok) {
			fprintf(stderr, "hitmap %s: option table entry '%s' does not fit its member\n",
				cmd->name, o->long_name ? o->long_name : "?");
			abort();
		}
	}
}

static int takes_arg(const struct cli_option *o)
{
	return o->type != CLI_OPT_FLAG && o->type != CLI_OPT_BOOL && o->type != CLI_OPT_GROUP &&
	       !(o->type == CLI_OPT_CALLBACK && !o->argh);
}

static void put_int(void *base, const struct cli_option *o, int v)
{
	memcpy((char *)base + o->off, &v, sizeof(v));
}

static void put_uint(void *base, const struct cli_option *o, uint64_t v)
{
	if (o->size == 8) {
		memcpy((char *)base + o->off, &v, 8);
	} else {
		uint32_t w = (uint32_t)v;

		memcpy((char *)base + o->off, &w, 4);
	}
}

static int push(const struct hm_cmd *cmd, void *base, const struct cli_option *o,
		const char *name, const char *s)
{
	size_t *n = (size_t *)((char *)base + o->count_off);
	void *at = (char *)base + o->off;

	if (o->max) {
		if (*n >= o->max)
			return fail(cmd, NULL, "option '%s' takes at most %zu values", name, o->max);
		((const char **)at)[(*n)++] = s;
		return 0;
	} else {
		const char **v;

		memcpy(&v, at, sizeof(v));
		v = realloc(v, (*n + 2) * sizeof(*v));
		if (!v) {
			cli_error("out of memory");
			return HM_EXIT_INPUT;
		}
		v[(*n)++] = s;
		v[*n] = NULL;
		memcpy(at, &v, sizeof(v));
		return 0;
	}
}

static int choice(const struct hm_cmd *cmd, void *base, const struct cli_option *o,
		  const char *name, const char *arg)
{
	const char *names[32];
	char list[256], hint[256];
	size_t n = 0, at = 0;

	for (const struct cli_choice *c = o->choices; c->name; c++) {
		if (!strcmp(c->name, arg)) {
			put_int(base, o, c->value);
			return 0;
		}
		if (n < sizeof(names) / sizeof(names[0]))
			names[n++] = c->name;
	}
	list[0] = 0;
	for (size_t i = 0; i < n && at < sizeof(list); i++)
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", i ? ", " : "",
				       names[i]);
	cli_similar(arg, names, n, "", hint, sizeof(hint));
	return fail(cmd, hint, "option '%s' expects one of %s, not '%s'", name, list, arg);
}

/* Give option o (written `name` on the command line) its argument, or set
 * it (negated: its --no- form). */
static int apply(const struct hm_cmd *cmd, void *base, const struct cli_option *o,
		 const char *name, int negated, char *arg)
{
	uint64_t v;
	int rc;

	switch (o->type) {
	case CLI_OPT_FLAG:
		put_int(base, o, o->value);
		return 0;
	case CLI_OPT_BOOL:
		put_int(base, o, !negated);
		return 0;
	case CLI_OPT_UINT:
		if (cli_parse_u64(arg, o->min, o->umax, &v) ||
		    ((o->flags & CLI_POW2) && (v & (v - 1)))) {
			if (o->flags & CLI_POW2)
				return fail(cmd, NULL, "option '%s' expects a power of two from %llu "
					    "to %llu, not '%s'", name, (unsigned long long)o->min,
					    (unsigned long long)o->umax, arg);
			if (o->umax >= INT64_MAX)
				return fail(cmd, NULL, "option '%s' expects a number of at least "
					    "%llu, not '%s'", name, (unsigned long long)o->min, arg);
			return fail(cmd, NULL, "option '%s' expects a number from %llu to %llu, "
				    "not '%s'", name, (unsigned long long)o->min,
				    (unsigned long long)o->umax, arg);
		}
		put_uint(base, o, v);
		return 0;
	case CLI_OPT_STRING:
		memcpy((char *)base + o->off, &arg, sizeof(arg));
		return 0;
	case CLI_OPT_LIST:
		if (!(o->flags & CLI_COMMA))
			return push(cmd, base, o, name, arg);
		{
			char *tok = arg, *p;
			int any = 0, depth = 0;

			/* commas inside <...> or (...) belong to the name: a C++
			 * template's arguments, `Buf<short, 5>` */
			for (p = arg;; p++) {
				if (*p == '<' || *p == '(')
					depth++;
				else if ((*p == '>' || *p == ')') && depth > 0)
					depth--;
				else if ((*p == ',' && !depth) || !*p) {
					int end = !*p;

					*p = '\0';
					/* -C 'struct mm_struct': C's spelling of the tag */
					while (*tok == ' ')
						tok++;
					if (o->short_name == 'C')
						for (const char *const *kw = (const char *const[]){
							     "struct ", "union ", "class ", NULL };
						     *kw; kw++)
							if (!strncmp(tok, *kw, strlen(*kw))) {
								tok += strlen(*kw);
								while (*tok == ' ')
									tok++;
								break;
							}
					if (*tok) {
						if ((rc = push(cmd, base, o, name, tok)))
							return rc;
						any = 1;
					}
					if (end)
						break;
					tok = p + 1;
				}
			}
			if (!any)
				return fail(cmd, NULL, "option '%s' needs a value", name);
		}
		return 0;
	case CLI_OPT_CHOICE:
		return choice(cmd, base, o, name, arg);
	case CLI_OPT_CALLBACK:
		return o->cb(o, arg, base);
	default:
		return 0;
	}
}

/* The argument of an option: what follows in the same word, else the next
 * word, whatever it looks like (as getopt does). */
static int fetch_arg(const struct hm_cmd *cmd, const char *name, char *inword, int argc,
		     char **argv, int *i, char **arg)
{
	if (inword) {
		*arg = inword;
		return 0;
	}
	if (*i + 1 >= argc)
		return fail(cmd, NULL, "option '%s' needs an argument", name);
	*arg = argv[++*i];
	return 0;
}

/* Every spelling of every long option: NAME, and no-NAME for a BOOL.  An
 * option named no-X is a FLAG: a --X beside it would take over what was an
 * abbreviation of another option (--cache for --cacheline-size). */
struct spelling {
	const struct cli_option *o;	/* NULL: --help */
	char name[64];
	int negated;
};

static size_t spellings(const struct hm_cmd *cmd, struct spelling *s, size_t max)
{
	const struct cli_option *o;
	size_t n = 0;

	for (o = cmd->options; o && o->type != CLI_OPT_END && n + 2 < max; o++) {
		if (!o->long_name)
			continue;
		s[n] = (struct spelling){ .o = o };
		snprintf(s[n++].name, sizeof(s->name), "%s", o->long_name);
		if (o->type != CLI_OPT_BOOL)
			continue;
		s[n] = (struct spelling){ .o = o, .negated = 1 };
		snprintf(s[n++].name, sizeof(s->name), "no-%s", o->long_name);
	}
	s[n] = (struct spelling){ .o = NULL };
	snprintf(s[n++].name, sizeof(s->name), "help");
	return n;
}

static int parse_long(const struct hm_cmd *cmd, void *base, char *word, int argc, char **argv,
		      int *i)
{
	struct spelling sp[256];
	const char *names[256];
	size_t n = spellings(cmd, sp, 256), k, match = 0, nmatch = 0;
	char *key = word + 2, *eq = strchr(key, '='), *arg = NULL, dashed[80];
	size_t klen = eq ? (size_t)(eq - key) : strlen(key);
	char cands[512], hint[512];
	int rc;

	/* an exact spelling, else a prefix of exactly one (as getopt_long) */
	for (k = 0; k < n; k++)
		if (strlen(sp[k].name) == klen && !strncmp(sp[k].name, key, klen))
			break;
	if (k < n) {
		match = k;
		nmatch = 1;
	} else {
		size_t at = 0;

		cands[0] = 0;
		for (k = 0; k < n; k++) {
			if (strncmp(sp[k].name, key, klen))
				continue;
			if (nmatch && sp[k].o == sp[match].o)
				continue;	/* two spellings of one option */
			if (at < sizeof(cands))
				at += (size_t)snprintf(cands + at, sizeof(cands) - at, "%s--%s",
						       nmatch ? ", " : "", sp[k].name);
			match = k;
			nmatch++;
		}
	}
	if (nmatch > 1)
		return fail(cmd, NULL, "ambiguous option '--%.*s' (could be %s)", (int)klen, key,
			    cands);
	if (!nmatch) {
		if (eq)
			*eq = 0;
		for (k = 0; k < n; k++)
			names[k] = sp[k].name;
		cli_similar(key, names, n, "--", hint, sizeof(hint));
		return fail(cmd, hint, "unknown option '--%s'", key);
	}
	if (!sp[match].o) {
		if (eq)
			return fail(cmd, NULL, "option '--help' takes no value");
		return CLI_HELP;
	}
	snprintf(dashed, sizeof(dashed), "--%s", sp[match].name);
	if (!takes_arg(sp[match].o)) {
		if (eq)
			return fail(cmd, NULL, "option '%s' takes no value", dashed);
	} else if ((rc = fetch_arg(cmd, dashed, eq ? eq + 1 : NULL, argc, argv, i, &arg))) {
		return rc;
	}
	return apply(cmd, base, sp[match].o, dashed, sp[match].negated, arg);
}

static const struct cli_option *find_short(const struct hm_cmd *cmd, int c)
{
	for (const struct cli_option *o = cmd->options; o && o->type != CLI_OPT_END; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

static int has_long(const struct hm_cmd *cmd, const char *name)
{
	for (const struct cli_option *o = cmd->options; o && o->type != CLI_OPT_END; o++)
		if (o->long_name && !strcmp(o->long_name, name))
			return 1;
	return !strcmp(name, "help");
}

/* -x, bundled -xyz, -cN and -c N. */
static int parse_short(const struct hm_cmd *cmd, void *base, char *word, int argc, char **argv,
		       int *i)
{
	for (char *p = word + 1; *p; p++) {
		const struct cli_option *o = find_short(cmd, (unsigned char)*p);
		char name[3] = { '-', *p, 0 }, *arg = NULL, hint[128];
		int rc;

		if (!o && *p == 'h')
			return CLI_HELP;
		if (!o) {
			/* -json for --json */
			if (p == word + 1 && p[1] && has_long(cmd, p))
				snprintf(hint, sizeof(hint), "'-%s'", word);
			else
				hint[0] = 0;
			return fail(cmd, hint, "unknown option '-%c'", *p);
		}
		if (!takes_arg(o)) {
			if ((rc = apply(cmd, base, o, name, 0, NULL)))
				return rc;
			continue;
		}
		if ((rc = fetch_arg(cmd, name, p[1] ? p + 1 : NULL, argc, argv, i, &arg)))
			return rc;
		return apply(cmd, base, o, name, 0, arg);
	}
	return 0;
}

int cli_parse_options(const struct hm_cmd *cmd, int argc, char **argv, void *base,
		      unsigned flags, int *nargs)
{
	int i, n = 0, rc;

	check_table(cmd);
	for (i = 1; i < argc; i++) {
		char *w = argv[i];

		if (w[0] != '-' || !w[1]) {	/* an operand; "-" is stdin */
			if (flags & CLI_STOP_AT_OPERAND)
				break;
			argv[1 + n++] = w;
			continue;
		}
		if (!strcmp(w, "--")) {
			i++;
			break;
		}
		rc = w[1] == '-' ? parse_long(cmd, base, w, argc, argv, &i)
				 : parse_short(cmd, base, w, argc, argv, &i);
		if (rc)
			return rc;
	}
	for (; i < argc; i++)
		argv[1 + n++] = argv[i];
	argv[1 + n] = NULL;	/* argv + 1 can go to execvp */
	*nargs = n;
	return 0;
}

/* ---- --help ---- */

/* Words of s from column `col`, lines indented by `indent`, up to
 * HELP_WIDTH columns.  With `groups`, a [...] is one word (a synopsis). */
static void wrap(FILE *out, const char *s, size_t col, size_t indent, int groups)
{
	while (*s) {
		size_t w = 0;
		int depth = 0;

		while (s[w] && (s[w] != ' ' || depth > 0)) {
			if (groups && s[w] == '[')
				depth++;
			else if (groups && s[w] == ']' && depth)
				depth--;
			w++;
		}

		if (col > indent && col + 1 + w > HELP_WIDTH) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)w, s);
		col += w;
		s += w;
		while (*s == ' ')
			s++;
	}
	fputc('\n', out);
}

static void print_option(FILE *out, const struct cli_option *o)
{
	char left[128];
	int len;

	if (o->short_name && o->long_name)
		len = snprintf(left, sizeof(left), "  -%c, --", o->short_name);
	else if (o->short_name)
		len = snprintf(left, sizeof(left), "  -%c", o->short_name);
	else
		len = snprintf(left, sizeof(left), "      --");
	if (o->long_name)
		len += snprintf(left + len, sizeof(left) - (size_t)len, "%s%s",
				o->type == CLI_OPT_BOOL ? "[no-]" : "", o->long_name);
	if (o->argh)
		len += snprintf(left + len, sizeof(left) - (size_t)len, " %s", o->argh);
	fputs(left, out);
	if (len + 2 > HELP_COLUMN) {
		fprintf(out, "\n%*s", HELP_COLUMN, "");
	} else {
		fprintf(out, "%*s", HELP_COLUMN - len, "");
	}
	wrap(out, o->help ? o->help : "", HELP_COLUMN, HELP_COLUMN, 0);
}

void cli_print_help(const struct hm_cmd *cmd, FILE *out)
{
	const struct cli_option *o;
	const char *const *u;
	int short_h = 0;

	for (u = cmd->usage; u && *u; u++) {
		int col = fprintf(out, "%s hitmap %s ", u == cmd->usage ? "usage:" : "   or:",
				  cmd->name);

		wrap(out, *u, (size_t)col, (size_t)col, 1);
	}
	if (cmd->description)
		fprintf(out, "\n%s", cmd->description);
	fputc('\n', out);
	for (o = cmd->options; o && o->type != CLI_OPT_END; o++) {
		if (o->type == CLI_OPT_GROUP) {
			fprintf(out, "%s%s", o == cmd->options ? "" : "\n", o->help);
			continue;
		}
		short_h |= o->short_name == 'h';
		print_option(out, o);
	}
	fprintf(out, "  %s--help%*sthis text\n", short_h ? "    " : "-h, ", HELP_COLUMN - 12, "");
	if (cmd->epilog)
		fprintf(out, "\n%s", cmd->epilog);
}
