#include "config.h"
#include <inttypes.h>
#include <math.h>
#include "base/json.h"

void hm_json_init(hm_json *j, FILE *out, int pretty)
{
	j->out = out;
	j->depth = 0;
	j->pretty = pretty;
	j->need_comma[0] = 0;
	j->after_key = 0;
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

static void put_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	for (; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		default:
			/* Bytes >= 0x80 pass through; names from binaries are ASCII in
			 * practice and escaping UTF-8 would only hurt readability. */
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

void hm_json_key(hm_json *j, const char *key)
{
	prefix(j);
	put_string(j->out, key);
	fputs(j->pretty ? ": " : ":", j->out);
	j->after_key = 1;
}

void hm_json_string(hm_json *j, const char *s)
{
	prefix(j);
	if (s)
		put_string(j->out, s);
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
}
