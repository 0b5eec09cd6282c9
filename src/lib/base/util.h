/* Internal helpers shared by every module: growable arrays, an arena, string
 * interning, hashing.  None of them print. */
#ifndef HM_UTIL_H
#define HM_UTIL_H
#include <stddef.h>
#include <stdint.h>

/* Make room for `need` elements of `elem` bytes in *ptr (capacity *cap, in
 * elements), growing geometrically.  Returns 0 or -ENOMEM (then *ptr is unchanged). */
int hm_grow(void **ptr, size_t *cap, size_t need, size_t elem);

/* Public options structs start with `size_t sz`, the caller's sizeof: copy
 * `src` (may be NULL: all zeros) into dst[dsz], reading no further than its
 * sz (an older, smaller struct ends in zeros).  -EINVAL when sz cannot hold
 * sz itself, or names bytes past dsz that are not all zero (a newer caller
 * asking for what this library does not know). */
int hm_opts_copy(void *dst, size_t dsz, const void *src);

/* Arena: many small allocations freed together.  Memory is zeroed. */
struct hm_arena_block;
typedef struct hm_arena {
	struct hm_arena_block *head;
	size_t used, avail;
} hm_arena;
void *hm_arena_alloc(hm_arena *a, size_t size);	/* NULL on ENOMEM; 16-byte aligned */
char *hm_arena_strndup(hm_arena *a, const char *s, size_t n);
void hm_arena_free(hm_arena *a);		/* frees every block; a stays usable */

/* String interning: equal strings get the same pointer, owned by the table and
 * valid until hm_strtab_free().  Lets the type table compare names by pointer. */
typedef struct hm_strtab {
	hm_arena arena;
	const char **slots;
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
static inline uint64_t hm_hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* Edit distance, for "did you mean" suggestions.  Capped at `max`+1. */
unsigned hm_edit_distance(const char *a, const char *b, unsigned max);

#endif

/* Open an input file read-only, refusing anything but a regular file: a FIFO
 * or device named on a command line would block or never end.  NULL + errno
 * (EISDIR for a directory, ENODEV for other non-regular files);
 * hm_open_error() spells errno for messages. */
#include <stdio.h>
FILE *hm_fopen_regular(const char *path);
const char *hm_open_error(int err);
