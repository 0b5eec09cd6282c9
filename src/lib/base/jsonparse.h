/* Internal: a small strict JSON parser (RFC 8259) producing a tree in an arena.
 *
 * Strict: no comments, no trailing commas, no leading zeros, no control
 * characters in strings, valid UTF-8 and \u escapes (surrogates paired),
 * one value per document.  Nesting is bounded (HM_JP_MAX_DEPTH) so hostile
 * input cannot exhaust the stack.  Errors go to the diagnostics callback as
 * "NAME:LINE:COL: what" (1-based, columns in bytes).
 *
 * Ownership: the tree lives in doc->arena; hm_jp_free() releases it.
 */
#ifndef HM_JSONPARSE_H
#define HM_JSONPARSE_H
#include <stddef.h>
#include <stdint.h>
#include "base/util.h"

#define HM_JP_MAX_DEPTH 64

enum hm_jp_type {
	HM_JP_NULL, HM_JP_FALSE, HM_JP_TRUE, HM_JP_NUMBER, HM_JP_STRING,
	HM_JP_ARRAY, HM_JP_OBJECT,
};

typedef struct hm_jp_value {
	enum hm_jp_type type;
	uint32_t line, col;		/* where the value starts */
	const char *key;		/* member name when inside an object */
	const char *str;		/* strings: decoded, NUL-terminated */
	size_t len;			/* strings: bytes; arrays/objects: children */
	double num;			/* numbers */
	uint64_t u64;			/* numbers that are non-negative integers */
	unsigned is_uint : 1;		/* u64 is exact */
	struct hm_jp_value *child;	/* first element / member */
	struct hm_jp_value *next;	/* next sibling */
} hm_jp_value;

typedef struct hm_jp_doc {
	hm_arena arena;
	hm_jp_value *root;
} hm_jp_doc;

/* Parse buf[0..len).  name is used in messages.  0 or -EBADMSG / -ENOMEM. */
int hm_jp_parse(const char *buf, size_t len, const char *name, hm_jp_doc *doc);
void hm_jp_free(hm_jp_doc *doc);

/* The member `key` of an object, or NULL. */
const hm_jp_value *hm_jp_get(const hm_jp_value *obj, const char *key);

#endif
