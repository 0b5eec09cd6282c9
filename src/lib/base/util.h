/* Internal helpers shared by every module: growable arrays, an arena, string
 * interning, a string builder, hashing.  None of them print. */
#ifndef HM_UTIL_H
#define HM_UTIL_H
#include <stddef.h>
#include <stdint.h>

/* How deep a walk of a type follows its nesting (a record in a record, a
 * pointer to a pointer): pahole's own limit for spelling a type's name,
 * past which the name is "void", and the deepest level a layout lists.
 * Input decides depths; this bounds the recursion. */
#define HM_NEST_MAX 32

/* Make room for `need` elements of `elem` bytes in *ptr (capacity *cap, in
 * elements), growing geometrically.  Returns 0 or -ENOMEM (then *ptr is unchanged). */
int hm_grow(void **ptr, size_t *cap, size_t need, size_t elem);

/* Arena: many small allocations freed together.  Memory is zeroed. */
struct hm_arena_block;
typedef struct hm_arena {
	struct hm_arena_block *head;
	size_t used, avail;
} hm_arena;
void *hm_arena_alloc(hm_arena *a, size_t size);	/* NULL on ENOMEM; 16-byte aligned */
char *hm_arena_strndup(hm_arena *a, const char *s, size_t n);	/* not aligned */
void hm_arena_free(hm_arena *a);		/* frees every block; a stays usable */

/* Large zeroed memory for tables probed at random on a hot path (counting
 * samples): its own mapping, backed by huge pages where the system allows
 * (one TLB entry per 2 MiB instead of 512).  hm_huge_free() with the same
 * size.  NULL on ENOMEM. */
void *hm_huge_alloc(size_t size);
void hm_huge_free(void *p, size_t size);

/* String interning: equal strings get the same pointer, owned by the table and
 * valid until hm_strtab_free().  Lets the type table compare names by pointer. */
typedef struct hm_strtab {
	hm_arena arena;
	const char **slots;
	uint32_t *hashes;	/* each slot's string's hash: a probe reads a
				 * string only when they agree, and growing
				 * hashes nothing again */
	size_t nslots, count;
} hm_strtab;
const char *hm_strtab_intern(hm_strtab *t, const char *s);	/* NULL on ENOMEM */
const char *hm_strtab_intern_n(hm_strtab *t, const char *s, size_t n);
void hm_strtab_free(hm_strtab *t);
/* Make s itself (not a copy: the caller keeps it alive as long as t) the
 * interned string for its contents, unless an equal one is there already;
 * returns the interned pointer, NULL on ENOMEM.  For strings loaded in bulk
 * (the type cache's string blob). */
const char *hm_strtab_adopt(hm_strtab *t, const char *s);

uint64_t hm_hash_bytes(const void *p, size_t n, uint64_t seed);
/* A hash of the n bytes of s, eight a step (not hm_hash_bytes()'s values:
 * for tables in memory only). */
uint64_t hmi_hash_str(const char *s, size_t n);

static inline uint64_t hm_hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* A pointer with the key it is sorted by. */
struct hmi_keyed {
	uint64_t key;
	const void *p;
};
/* v[0..n) in ascending order of key, stable (equal keys keep their order):
 * a radix sort, a pass per byte in which the keys differ.  0 or -ENOMEM. */
int hmi_sort_keyed(struct hmi_keyed *v, size_t n);

/* String builder: a growable NUL-terminated string.  Start from { 0 }; p stays
 * NULL until something is added and is the caller's to free().  The first
 * error sticks and stops further additions: -ENOMEM, or -EFBIG when the string
 * would pass HM_SBUF_MAX (printouts of corrupt debug info can grow
 * exponentially; no real one comes near). */
#define HM_SBUF_MAX (16u << 20)
typedef struct hm_sbuf {
	char *p;
	size_t len, cap;
	int err;	/* 0 or a negative errno */
} hm_sbuf;
void hm_sbuf_insert(hm_sbuf *b, size_t at, const char *s, size_t n);
void hm_sbuf_putn(hm_sbuf *b, const char *s, size_t n);
void hm_sbuf_puts(hm_sbuf *b, const char *s);
void hm_sbuf_printf(hm_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Edit distance, for "did you mean" suggestions.  Capped at `max`+1. */
/* Length of the valid UTF-8 sequence at s, of at most n bytes, 0 if it is
 * not one: no overlong forms, no surrogates, nothing past U+10FFFF. */
size_t hm_utf8_len(const unsigned char *s, size_t n);

unsigned hm_edit_distance(const char *a, const char *b, unsigned max);

/* A declaration's file (as the debug info spells it) under a source tree:
 * the longest tail of decl that is a regular file under root.  Returns the
 * full path (malloc'd) with *rel pointing into decl at that tail, or NULL
 * (errno ENOENT, or ENOMEM). */
char *hm_source_find(const char *root, const char *decl, const char **rel);

#endif

/* Open an input file read-only, refusing anything but a regular file: a FIFO
 * or device named on a command line would block or never end.  NULL + errno
 * (EISDIR for a directory, ENODEV for other non-regular files);
 * hm_open_error() spells errno for messages. */
#include <stdio.h>
FILE *hm_fopen_regular(const char *path);
const char *hm_open_error(int err);
