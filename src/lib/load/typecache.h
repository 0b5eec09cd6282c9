/* Internal: the persistent type index.  A binary's whole type table (every
 * struct, variable and string) is saved under $XDG_CACHE_HOME/hitmap (else
 * ~/.cache/hitmap), named by the binary's build-id, so that later runs read
 * it back instead of walking the DWARF again.  Where, and whether it may be
 * written, the caller's hm_load_opts say; `dir` below is the directory
 * hm_typecache_usable() resolved.
 *
 * A cache file is only trusted after its header (magic, format, hitmap
 * version, record sizes, build-id, the source file's size and mtime) and a
 * checksum over the payload match, and every index in it is in range;
 * anything else is a miss (a debug diagnostic says why).  Files are written
 * to a temporary name in the same directory, synced and renamed, so
 * concurrent runs only ever see whole files.
 */
#ifndef HM_TYPECACHE_H
#define HM_TYPECACHE_H
#include <sys/types.h>
#include "hitmap/types.h"

/* How loads of bin with opts may use the cache: 0 not at all (opts->btf,
 * no opts->cache, no build-id, no debug info, not a regular file); else
 * HM_TYPECACHE_READ, plus HM_TYPECACHE_WRITE when opts->cache_write and the
 * cache directory exists or can be created and is writable (without them,
 * only an existing file is read).  The directory goes to dir[len]. */
#define HM_TYPECACHE_READ 1
#define HM_TYPECACHE_WRITE 2
int hm_typecache_usable(hm_binary *bin, const struct hm_load_opts *opts, char *dir, size_t len);

/* Whether a whole-table load of bin is worth its cost for a query that
 * asked for less (opts.only): yes when its cache file exists (stale or
 * corrupt: rebuild it) or an earlier such query left a BUILD-ID.types.wanted
 * mark; otherwise no, and the mark is left for the next one.  A bisection
 * meets each build-id once and keeps the fast path; a second look at the
 * same binary builds the index. */
int hm_typecache_wanted(hm_binary *bin, const char *dir);

/* Read bin's table from the cache.  0 and *out (the caller frees it with
 * hm_types_free()) on a hit; -ENOENT on a miss or an unusable file. */
int hm_typecache_read(hm_binary *bin, const char *dir, hm_types **out);

/* Save t (a full load of bin) to the cache.  Failures are not errors for the
 * caller (a debug diagnostic says why); returns 0 or a negative errno. */
int hm_typecache_write(hm_binary *bin, const char *dir, const hm_types *t);

/* What the scope answers' file (scopecache.c) shares with this one: the
 * file's name (dir/BUILD-ID SUFFIX), the stat of the file bin was opened
 * from (-ENOENT: none, or not the file read), the build-id of the code
 * running (the cache's writer), the payload checksum, whole reads and
 * writes, and the size limit's pruning of dir (every file but keep). */
struct stat;
int hmi_cache_path(hm_binary *bin, const char *dir, const char *suffix, char *buf, size_t len);
int hmi_cache_source_stat(hm_binary *bin, struct stat *st);
void hmi_cache_lib_id(char *buf, size_t len);
uint64_t hmi_cache_checksum(const void *p, size_t n, uint64_t h);
int hmi_cache_write_full(int fd, const void *p, size_t n);
int hmi_cache_read_full(int fd, void *p, size_t n, off_t off);
void hmi_cache_prune(const char *dir, const char *keep);

/* The scope index's answers for bin (dwarf-scope.h: hm_scopes_answers()),
 * kept in dir as BUILD-ID.scopes beside its type cache, under the same
 * header checks as the type cache.  read: 0 and *blob (malloc'd) on a hit,
 * -ENOENT on a miss or an unusable file (a debug diagnostic says why).
 * write: 0 or a negative errno, never an error for the caller. */
int hm_scopecache_read(hm_binary *bin, const char *dir, void **blob, size_t *len);
int hm_scopecache_write(hm_binary *bin, const char *dir, const void *blob, size_t len);
/* The same for the attribution's answers (attribute-answers.c), kept as
 * BUILD-ID.attr. */
int hm_attrcache_read(hm_binary *bin, const char *dir, void **blob, size_t *len);
int hm_attrcache_write(hm_binary *bin, const char *dir, const void *blob, size_t len);

#endif
