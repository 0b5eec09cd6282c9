/* A strict JSON parser; see jsonparse.h. */
#include "config.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "base/jsonparse.h"
#include "base/util.h"

struct jp {
	const char *buf, *name;
	size_t len, pos;
	uint32_t line;
	size_t line_start;
	hm_arena *arena;
	int err;
};

static uint32_t col_of(const struct jp *p, size_t pos)
{
	return (uint32_t)(pos - p->line_start + 1);
}

static int jp_error(struct jp *p, size_t pos, const char *what)
{
	if (!p->err)
		p->err = hm_fail(EBADMSG, "%s:%u:%u: %s", p->name, p->line, col_of(p, pos), what);
	return p->err;
}

static void skip_ws(struct jp *p)
{
	while (p->pos < p->len) {
		char c = p->buf[p->pos];

		if (c == '\n') {
			p->line++;
			p->line_start = p->pos + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			return;
		}
		p->pos++;
	}
}

static hm_jp_value *new_value(struct jp *p, enum hm_jp_type type)
{
	hm_jp_value *v = hm_arena_alloc(p->arena, sizeof(*v));

	if (!v) {
		p->err = -ENOMEM;
		return NULL;
	}
	v->type = type;
	v->line = p->line;
	v->col = col_of(p, p->pos);
	return v;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static long read_u4(struct jp *p, size_t at)
{
	long v = 0;
	int i;

	if (at + 4 > p->len)
		return -1;
	for (i = 0; i < 4; i++) {
		int h = hexval(p->buf[at + i]);

		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

static size_t put_utf8(char *out, unsigned long cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static int parse_escape(struct jp *p, char *out, size_t *o)
{
	char c = p->buf[p->pos + 1];
	const char *map = "\"\"\\\\//b\bf\fn\nr\rt\t";
	const char *m;
	long cp, lo;

	if (c == 'u') {
		cp = read_u4(p, p->pos + 2);
		if (cp < 0)
			return jp_error(p, p->pos, "invalid \\u escape");
		p->pos += 6;
		/* \udc80-\udcff: a byte that was not UTF-8, as hitmap's
		 * writer escapes it (base/json.c): the byte itself again */
		if (cp >= 0xdc80 && cp <= 0xdcff) {
			out[(*o)++] = (char)(cp & 0xff);
			return 0;
		}
		if (cp >= 0xdc00 && cp <= 0xdfff)
			return jp_error(p, p->pos - 6, "unpaired surrogate in \\u escape");
		if (cp >= 0xd800 && cp <= 0xdbff) {
			if (p->pos + 1 >= p->len || p->buf[p->pos] != '\\' ||
			    p->buf[p->pos + 1] != 'u' || (lo = read_u4(p, p->pos + 2)) < 0xdc00 ||
			    lo > 0xdfff)
				return jp_error(p, p->pos - 6, "unpaired surrogate in \\u escape");
			p->pos += 6;
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		}
		*o += put_utf8(out + *o, (unsigned long)cp);
		return 0;
	}
	for (m = map; *m; m += 2) {
		if (*m == c) {
			out[(*o)++] = m[1];
			p->pos += 2;
			return 0;
		}
	}
	return jp_error(p, p->pos, "invalid escape in string");
}

static int parse_string(struct jp *p, const char **str, size_t *len)
{
	size_t start = p->pos, o = 0, end = start + 1;
	char *out;

	/* Decoded text is never longer than its source up to the closing quote. */
	while (end < p->len && p->buf[end] != '"')
		end += p->buf[end] == '\\' ? 2 : 1;
	p->pos++;	/* opening quote */
	out = hm_arena_alloc(p->arena, (end < p->len ? end : p->len) - start + 1);
	if (!out)
		return p->err = -ENOMEM;
	for (;;) {
		unsigned char c;
		size_t n;

		if (p->pos >= p->len)
			return jp_error(p, start, "unterminated string");
		c = (unsigned char)p->buf[p->pos];
		if (c == '"')
			break;
		if (c < 0x20)
			return jp_error(p, p->pos, "control character in string");
		if (c == '\\') {
			if (p->pos + 1 >= p->len)
				return jp_error(p, start, "unterminated string");
			if (parse_escape(p, out, &o))
				return p->err;
			continue;
		}
		n = hm_utf8_len((const unsigned char *)p->buf + p->pos, p->len - p->pos);
		if (!n)
			return jp_error(p, p->pos, "invalid UTF-8 in string");
		memcpy(out + o, p->buf + p->pos, n);
		o += n;
		p->pos += n;
	}
	p->pos++;
	out[o] = 0;
	*str = out;
	*len = o;
	return 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int parse_number(struct jp *p, hm_jp_value *v)
{
	size_t start = p->pos, i = p->pos;
	int integer = 1, neg = 0;
	char tmp[64];
	uint64_t u = 0;
	int overflow = 0;

	if (i < p->len && p->buf[i] == '-')
		neg = 1, i++;
	if (i >= p->len || !is_digit(p->buf[i]))
		return jp_error(p, start, "invalid number");
	if (p->buf[i] == '0' && i + 1 < p->len && is_digit(p->buf[i + 1]))
		return jp_error(p, start, "leading zero in number");
	for (; i < p->len && is_digit(p->buf[i]); i++) {
		unsigned d = (unsigned)(p->buf[i] - '0');

		if (u > (UINT64_MAX - d) / 10)
			overflow = 1;
		u = u * 10 + d;
	}
	if (i < p->len && p->buf[i] == '.') {
		integer = 0;
		if (++i >= p->len || !is_digit(p->buf[i]))
			return jp_error(p, start, "invalid number");
		while (i < p->len && is_digit(p->buf[i]))
			i++;
	}
	if (i < p->len && (p->buf[i] == 'e' || p->buf[i] == 'E')) {
		integer = 0;
		i++;
		if (i < p->len && (p->buf[i] == '+' || p->buf[i] == '-'))
			i++;
		if (i >= p->len || !is_digit(p->buf[i]))
			return jp_error(p, start, "invalid number");
		while (i < p->len && is_digit(p->buf[i]))
			i++;
	}
	if (i - start >= sizeof(tmp))
		return jp_error(p, start, "number too long");
	memcpy(tmp, p->buf + start, i - start);
	tmp[i - start] = 0;
	v->num = strtod(tmp, NULL);
	if (!isfinite(v->num))
		return jp_error(p, start, "number out of range");
	v->is_uint = integer && !neg && !overflow;
	v->u64 = v->is_uint ? u : 0;
	p->pos = i;
	return 0;
}

static hm_jp_value *parse_value(struct jp *p, int depth);

static int parse_members(struct jp *p, hm_jp_value *v, int depth, char close)
{
	hm_jp_value **tail = &v->child;
	int is_obj = close == '}';

	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->buf[p->pos] == close) {
		p->pos++;
		return 0;
	}
	for (;;) {
		const char *key = NULL;
		size_t klen;
		hm_jp_value *c;

		skip_ws(p);
		if (is_obj) {
			if (p->pos >= p->len || p->buf[p->pos] != '"')
				return jp_error(p, p->pos, "expected member name string");
			if (parse_string(p, &key, &klen))
				return p->err;
			skip_ws(p);
			if (p->pos >= p->len || p->buf[p->pos] != ':')
				return jp_error(p, p->pos, "expected ':' after member name");
			p->pos++;
			skip_ws(p);
		}
		c = parse_value(p, depth + 1);
		if (!c)
			return p->err;
		c->key = key;
		*tail = c;
		tail = &c->next;
		v->len++;
		skip_ws(p);
		if (p->pos >= p->len)
			return jp_error(p, p->pos, is_obj ? "unterminated object" : "unterminated array");
		if (p->buf[p->pos] == close) {
			p->pos++;
			return 0;
		}
		if (p->buf[p->pos] != ',')
			return jp_error(p, p->pos, is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
		p->pos++;
		skip_ws(p);
		if (p->pos < p->len && p->buf[p->pos] == close)
			return jp_error(p, p->pos, "trailing comma");
	}
}

static int match_word(struct jp *p, const char *w)
{
	size_t n = strlen(w);

	if (p->len - p->pos < n || memcmp(p->buf + p->pos, w, n))
		return 0;
	p->pos += n;
	return 1;
}

static hm_jp_value *parse_value(struct jp *p, int depth)
{
	hm_jp_value *v;
	char c;

	if (depth > HM_JP_MAX_DEPTH) {
		jp_error(p, p->pos, "nesting too deep");
		return NULL;
	}
	skip_ws(p);
	if (p->pos >= p->len) {
		jp_error(p, p->pos, "unexpected end of input");
		return NULL;
	}
	c = p->buf[p->pos];
	v = new_value(p, HM_JP_NULL);
	if (!v)
		return NULL;
	switch (c) {
	case '{':
	case '[':
		v->type = c == '{' ? HM_JP_OBJECT : HM_JP_ARRAY;
		if (parse_members(p, v, depth, c == '{' ? '}' : ']'))
			return NULL;
		return v;
	case '"':
		v->type = HM_JP_STRING;
		return parse_string(p, &v->str, &v->len) ? NULL : v;
	case 't':
		v->type = HM_JP_TRUE;
		break;
	case 'f':
		v->type = HM_JP_FALSE;
		break;
	case 'n':
		break;
	default:
		if (c == '-' || is_digit(c)) {
			v->type = HM_JP_NUMBER;
			return parse_number(p, v) ? NULL : v;
		}
		jp_error(p, p->pos, "unexpected character");
		return NULL;
	}
	if (!match_word(p, v->type == HM_JP_TRUE ? "true" : v->type == HM_JP_FALSE ? "false" : "null")) {
		jp_error(p, p->pos, "invalid literal");
		return NULL;
	}
	return v;
}

int hm_jp_parse(const char *buf, size_t len, const char *name, hm_jp_doc *doc)
{
	struct jp p = { .buf = buf, .name = name, .len = len, .line = 1 };

	memset(doc, 0, sizeof(*doc));
	p.arena = &doc->arena;
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		jp_error(&p, 0, "byte order mark not allowed");
		goto fail;
	}
	doc->root = parse_value(&p, 0);
	if (!doc->root)
		goto fail;
	skip_ws(&p);
	if (p.pos < p.len) {
		jp_error(&p, p.pos, "trailing characters after the document");
		goto fail;
	}
	return 0;
fail:
	hm_arena_free(&doc->arena);
	doc->root = NULL;
	return p.err ? p.err : -EBADMSG;
}

void hm_jp_free(hm_jp_doc *doc)
{
	if (!doc)
		return;
	hm_arena_free(&doc->arena);
	doc->root = NULL;
}

const hm_jp_value *hm_jp_get(const hm_jp_value *obj, const char *key)
{
	const hm_jp_value *c;

	if (!obj || obj->type != HM_JP_OBJECT)
		return NULL;
	for (c = obj->child; c; c = c->next)
		if (!strcmp(c->key, key))
			return c;
	return NULL;
}
