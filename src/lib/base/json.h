/* Internal: a streaming JSON writer.  Keeps commas and nesting right so emitters
 * only say what goes where.  Writes to a caller-owned FILE*. */
#ifndef HM_JSON_H
#define HM_JSON_H
#include <stdint.h>
#include <stdio.h>

#define HM_JSON_MAX_DEPTH 64

typedef struct hm_json {
	FILE *out;
	int depth;
	int pretty;
	unsigned char need_comma[HM_JSON_MAX_DEPTH];
	unsigned char after_key;
	/* bytes of strings that were not UTF-8, each written as the escape
	 * \udcXX (XX the byte, as Python's surrogateescape): the JSON stays
	 * valid, hitmap's reader turns the escape back into the byte, and
	 * hm_json_finish() warns once */
	unsigned long non_utf8;
	char first_non_utf8[96];	/* the first such string, bytes as \xNN */
} hm_json;

void hm_json_init(hm_json *j, FILE *out, int pretty);
void hm_json_begin_object(hm_json *j);
void hm_json_end_object(hm_json *j);
void hm_json_begin_array(hm_json *j);
void hm_json_end_array(hm_json *j);
void hm_json_key(hm_json *j, const char *key);
void hm_json_string(hm_json *j, const char *s);	/* NULL writes null */
void hm_json_int(hm_json *j, int64_t v);
void hm_json_uint(hm_json *j, uint64_t v);
void hm_json_double(hm_json *j, double v);
void hm_json_bool(hm_json *j, int v);
void hm_json_null(hm_json *j);
/* Shorthands: key plus value. */
void hm_json_kstr(hm_json *j, const char *key, const char *s);
void hm_json_kint(hm_json *j, const char *key, int64_t v);
void hm_json_kuint(hm_json *j, const char *key, uint64_t v);
void hm_json_kbool(hm_json *j, const char *key, int v);
/* Finish the document with a newline (and the warning about bytes that
 * were not UTF-8, if any). */
void hm_json_finish(hm_json *j);

#endif
