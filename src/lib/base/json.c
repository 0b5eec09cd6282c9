#include "config.h"
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "base/json.h"
#include "base/diag.h"
#include "base/util.h"

void hm_json_init(hm_json *j, FILE *out, int pretty)
{
	j->out = out;
	j->depth = 0;
	j->pretty = pretty;
	j->need_comma[0] = 0;
	j->after_key = 0;
	j->non_utf8 = 0;
	j->first_non_utf8[0] = 0;
}

static void indent(hm_json *j)
{
	int i;

	if (!j->pretty)
		return;
	fputc('\n', j->out);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

/* Called before every value or key: separators belong to what comes next. */
static void prefix(hm_json *j)
{
	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (j->need_comma[j->depth])
		fputc(',', j->out);
	if (j->depth > 0)
		indent(j);
	j->need_comma[j->depth] = 1;
}

static void open(hm_json *j, int c)
{
	prefix(j);
	fputc(c, j->out);
	if (j->depth + 1 < HM_JSON_MAX_DEPTH)
		j->depth++;
	j->need_comma[j->depth] = 0;
}

static void close_(hm_json *j, int c)
{
	int had = j->need_comma[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had)
		indent(j);
	fputc(c, j->out);
}

void hm_json_begin_object(hm_json *j) { open(j, '{'); }
void hm_json_end_object(hm_json *j) { close_(j, '}'); }
void hm_json_begin_array(hm_json *j) { open(j, '['); }
void hm_json_end_array(hm_json *j) { close_(j, ']'); }

/* The first string with bytes that are not UTF-8, for the warning: its
 * bytes >= 0x80 and controls as \xNN, cut to fit. */
static void note_first(hm_json *j, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, cap = sizeof(j->first_non_utf8);

	for (; *p && o + 5 < cap; p++)
		if (*p < 0x20 || *p >= 0x7f)
			o += (size_t)snprintf(j->first_non_utf8 + o, cap - o, "\\x%02x", *p);
		else
			j->first_non_utf8[o++] = (char)*p;
	j->first_non_utf8[o] = 0;
}

static void put_string(hm_json *j, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	FILE *out = j->out;
	int bad = 0;

	fputc('"', out);
	while (*p) {
		size_t n;

		switch (*p) {
		case '"': fputs("\\\"", out); p++; continue;
		case '\\': fputs("\\\\", out); p++; continue;
		case '\n': fputs("\\n", out); p++; continue;
		case '\t': fputs("\\t", out); p++; continue;
		case '\r': fputs("\\r", out); p++; continue;
		}
		if (*p < 0x20) {
			fprintf(out, "\\u%04x", *p++);
			continue;
		}
		/* UTF-8 passes through; a byte that is not (a file or DWARF
		 * name in another encoding, or corrupt) is escaped reversibly */
		if ((n = hm_utf8_len(p, strnlen((const char *)p, 4)))) {
			fwrite(p, 1, n, out);
			p += n;
			continue;
		}
		fprintf(out, "\\udc%02x", *p++);
		bad = 1;
	}
	fputc('"', out);
	if (bad && !j->non_utf8++)
		note_first(j, s);
}

void hm_json_key(hm_json *j, const char *key)
{
	prefix(j);
	put_string(j, key);
	fputs(j->pretty ? ": " : ":", j->out);
	j->after_key = 1;
}

void hm_json_string(hm_json *j, const char *s)
{
	prefix(j);
	if (s)
		put_string(j, s);
	else
		fputs("null", j->out);
}

void hm_json_int(hm_json *j, int64_t v)
{
	prefix(j);
	fprintf(j->out, "%" PRId64, v);
}

void hm_json_uint(hm_json *j, uint64_t v)
{
	prefix(j);
	fprintf(j->out, "%" PRIu64, v);
}

void hm_json_double(hm_json *j, double v)
{
	prefix(j);
	if (isfinite(v))
		fprintf(j->out, "%.6g", v);
	else
		fputs("null", j->out);
}

void hm_json_bool(hm_json *j, int v)
{
	prefix(j);
	fputs(v ? "true" : "false", j->out);
}

void hm_json_null(hm_json *j)
{
	prefix(j);
	fputs("null", j->out);
}

void hm_json_kstr(hm_json *j, const char *k, const char *s) { hm_json_key(j, k); hm_json_string(j, s); }
void hm_json_kint(hm_json *j, const char *k, int64_t v) { hm_json_key(j, k); hm_json_int(j, v); }
void hm_json_kuint(hm_json *j, const char *k, uint64_t v) { hm_json_key(j, k); hm_json_uint(j, v); }
void hm_json_kbool(hm_json *j, const char *k, int v) { hm_json_key(j, k); hm_json_bool(j, v); }

void hm_json_finish(hm_json *j)
{
	fputc('\n', j->out);
	fflush(j->out);
	if (j->non_utf8)
		hm_diag(HM_DIAG_WARNING, "%s: %lu string%s of the JSON output hold bytes that "
			"are not UTF-8: each such byte written as the escape \\udcXX (XX the "
			"byte), which hitmap reads back as the byte", j->first_non_utf8,
			j->non_utf8, j->non_utf8 == 1 ? "" : "s");
}
