/* typecache: the persistent type index (see typecache.h).
 *
 * File layout: a fixed header, then one section per array of the table in
 * enum order, each starting 8-byte aligned.  Arrays are stored as they are
 * in memory (same host: the header pins endianness and record sizes), with
 * every string pointer replaced by its offset + 1 in the string section
 * (0 = NULL).  Reading is one pread per array into ordinary malloc'd
 * vectors, so a cached table can grow like a loaded one (typebuild.c). */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <libelf.h>
#include <dirent.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/diag.h"
#include "elf/binary-lib.h"
#include "load/typecache.h"
#include "types/types-int.h"

#define CACHE_MAGIC "HMTYPES"
/* Bump when the meaning of a stored array changes (a new hash function
 * for the name slots, a new flag) without its record size changing. */
#define CACHE_FORMAT 3	/* 2: hm_type.scope; 3: a checksum in four lanes */
#define CACHE_ENDIAN 0x01020304u

enum sect {
	S_STRS, S_TYPES, S_MEMBERS, S_DIMS, S_PARAMS, S_ENUMS, S_VARS, S_STRUCTS,
	S_STRUCT_NEXT, S_LISTED, S_STRUCT_SLOTS, S_TYPEDEF_SLOTS, S_VAR_SLOTS, NSECT
};

static const uint32_t elem_size[NSECT] = {
	[S_STRS] = 1, [S_TYPES] = sizeof(hm_type), [S_MEMBERS] = sizeof(hm_member),
	[S_DIMS] = sizeof(uint64_t), [S_PARAMS] = sizeof(hm_type_id),
	[S_ENUMS] = sizeof(hm_enumerator), [S_VARS] = sizeof(hm_variable),
	[S_STRUCTS] = sizeof(hm_type_id), [S_STRUCT_NEXT] = sizeof(uint32_t),
	[S_LISTED] = 1, [S_STRUCT_SLOTS] = sizeof(uint32_t),
	[S_TYPEDEF_SLOTS] = sizeof(hm_type_id), [S_VAR_SLOTS] = sizeof(uint32_t),
};

struct cache_hdr {
	char magic[8];
	uint32_t format, endian;
	char version[16];
	uint32_t elem[NSECT];
	uint32_t pointer_size;		/* the host's: pointers are stored */
	uint32_t table_pointer_size;	/* the binary's (hmi_types_pointer_size) */
	char build_id[132];
	uint64_t src_size;
	int64_t src_mtime, src_mtime_ns;
	uint64_t count[NSECT];
	uint64_t payload_size;
	uint64_t checksum;
	/* the build-id of the code that wrote it: the version string alone
	 * would let a rebuilt loader (a fix, a development tree) read tables
	 * an older one made */
	char lib_id[72];
};

/* ---- where ---- */

/* $XDG_CACHE_HOME/hitmap when XDG_CACHE_HOME is an absolute path, else
 * $HOME/.cache/hitmap.  0, or -ENOENT (neither is set), -ENAMETOOLONG. */
static int default_cache_dir(char *buf, size_t len)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	/* the XDG spec: a relative XDG_CACHE_HOME is invalid, ignore it */
	if (x && x[0] == '/')
		n = snprintf(buf, len, "%s/hitmap", x);
	else if (home && home[0] == '/')
		n = snprintf(buf, len, "%s/.cache/hitmap", home);
	else
		return -ENOENT;
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* Create dir (and, for the default one, the XDG directory above it). */
static int make_dir(const char *dir, int is_default)
{
	char parent[PATH_MAX];
	char *slash;

	if (is_default && strlen(dir) < sizeof(parent)) {
		strcpy(parent, dir);
		slash = strrchr(parent, '/');
		if (slash && slash != parent) {
			*slash = 0;
			if (mkdir(parent, 0700) < 0 && errno != EEXIST)
				return -errno;
		}
	}
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int hmi_cache_path(hm_binary *bin, const char *dir, const char *suffix, char *buf, size_t len)
{
	const char *id = hm_binary_build_id(bin);

	if (!id || !*id || strlen(id) >= sizeof(((struct cache_hdr *)0)->build_id) ||
	    strspn(id, "0123456789abcdef") != strlen(id))
		return -ENOENT;
	if (snprintf(buf, len, "%s/%s%s", dir, id, suffix) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

static int cache_path(hm_binary *bin, const char *dir, char *buf, size_t len)
{
	return hmi_cache_path(bin, dir, ".types", buf, len);
}

int hmi_cache_source_stat(hm_binary *bin, struct stat *st)
{
	size_t size = 0;

	if (stat(hmi_binary_path(bin), st) < 0 || !S_ISREG(st->st_mode))
		return -ENOENT;
	if (!elf_rawfile(hmi_binary_elf(bin), &size) || (off_t)size != st->st_size)
		return -ENOENT;
	return 0;
}

int hm_typecache_wanted(hm_binary *bin, const char *dir)
{
	char path[PATH_MAX], mark[PATH_MAX + 8];
	int fd;

	if (cache_path(bin, dir, path, sizeof(path)) || !access(path, F_OK))
		return 1;
	snprintf(mark, sizeof(mark), "%s.wanted", path);
	if (!access(mark, F_OK))
		return 1;
	fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
	if (fd >= 0)
		close(fd);
	return 0;
}

int hm_typecache_usable(hm_binary *bin, const struct hm_load_opts *opts, char *dir, size_t len)
{
	char path[PATH_MAX];
	struct stat st;

	if (opts->btf || !opts->cache)
		return 0;
	if (!hmi_binary_has_section(bin, ".debug_info", NULL) &&
	    !hmi_binary_has_section(bin, ".BTF", NULL))
		return 0;
	if (opts->cache_dir) {
		if (!*opts->cache_dir || strlen(opts->cache_dir) >= len)
			return 0;
		strcpy(dir, opts->cache_dir);
	} else if (default_cache_dir(dir, len)) {
		return 0;
	}
	if (cache_path(bin, dir, path, sizeof(path)) || hmi_cache_source_stat(bin, &st))
		return 0;
	/* a cache someone else fills (read-only for us) still serves */
	if (!opts->cache_write || make_dir(dir, !opts->cache_dir) || access(dir, W_OK | X_OK))
		return access(path, R_OK) ? 0 : HM_TYPECACHE_READ;
	return HM_TYPECACHE_READ | HM_TYPECACHE_WRITE;
}

/* ---- header, checksum ---- */

struct self {
	uintptr_t addr;
	char *hex;
	size_t len;
};

static void note_build_id(const unsigned char *p, size_t size, struct self *s)
{
	static const char digits[] = "0123456789abcdef";

	while (size >= sizeof(ElfW(Nhdr))) {
		const ElfW(Nhdr) *n = (const void *)p;
		size_t name = (n->n_namesz + 3) & ~(size_t)3, desc = (n->n_descsz + 3) & ~(size_t)3;

		if (name > size - sizeof(*n) || desc > size - sizeof(*n) - name)
			return;
		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
		    !memcmp(p + sizeof(*n), "GNU", 4)) {
			const unsigned char *d = p + sizeof(*n) + name;

			for (size_t i = 0; i < n->n_descsz && 2 * i + 2 < s->len; i++) {
				s->hex[2 * i] = digits[d[i] >> 4];
				s->hex[2 * i + 1] = digits[d[i] & 15];
			}
			return;
		}
		p += sizeof(*n) + name + desc;
		size -= sizeof(*n) + name + desc;
	}
}

/* The loaded object holding this code: read its build-id note. */
static int find_self(struct dl_phdr_info *info, size_t size, void *data)
{
	struct self *s = data;
	int mine = 0;

	for (int i = 0; i < info->dlpi_phnum && !mine; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		mine = ph->p_type == PT_LOAD && s->addr >= lo && s->addr - lo < ph->p_memsz;
	}
	if (!mine)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_NOTE)
			note_build_id((const void *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz, s);
	}
	return 1;
}

void hmi_cache_lib_id(char *buf, size_t len)
{
	struct self s = { (uintptr_t)&hmi_cache_lib_id, buf, len };

	memset(buf, 0, len);
	dl_iterate_phdr(find_self, &s);
}

static int make_header(hm_binary *bin, struct cache_hdr *h)
{
	struct stat st;

	memset(h, 0, sizeof(*h));
	if (hmi_cache_source_stat(bin, &st))
		return -ENOENT;
	memcpy(h->magic, CACHE_MAGIC, sizeof(CACHE_MAGIC));
	h->format = CACHE_FORMAT;
	h->endian = CACHE_ENDIAN;
	snprintf(h->version, sizeof(h->version), "%s", PACKAGE_VERSION);
	memcpy(h->elem, elem_size, sizeof(h->elem));
	h->pointer_size = sizeof(void *);
	snprintf(h->build_id, sizeof(h->build_id), "%s", hm_binary_build_id(bin));
	h->src_size = st.st_size;
	h->src_mtime = st.st_mtim.tv_sec;
	h->src_mtime_ns = st.st_mtim.tv_nsec;
	hmi_cache_lib_id(h->lib_id, sizeof(h->lib_id));
	return 0;
}

/* What differs between the header read and the one expected, or NULL. */
static const char *header_mismatch(const struct cache_hdr *got, const struct cache_hdr *want)
{
	if (memcmp(got->magic, want->magic, sizeof(got->magic)))
		return "not a hitmap type cache (bad magic)";
	if (got->format != want->format || got->endian != want->endian ||
	    memcmp(got->elem, want->elem, sizeof(got->elem)) ||
	    got->pointer_size != want->pointer_size)
		return "different cache format";
	if (memcmp(got->version, want->version, sizeof(got->version)) ||
	    memcmp(got->lib_id, want->lib_id, sizeof(got->lib_id)))
		return "written by another hitmap version or build";
	if (memcmp(got->build_id, want->build_id, sizeof(got->build_id)))
		return "different build-id";
	if (got->src_size != want->src_size || got->src_mtime != want->src_mtime ||
	    got->src_mtime_ns != want->src_mtime_ns)
		return "binary changed since it was cached (size or mtime)";
	return NULL;
}

#define SUM_K 0x9e3779b97f4a7c15ULL

static uint64_t sum_step(uint64_t h, uint64_t w)
{
	h = (h ^ w) * SUM_K;
	return h ^ (h >> 29);
}

/* Fast integrity check over the payload (not cryptographic: the reader
 * bounds-checks everything anyway).  Four lanes take the words of each
 * 32 bytes in turn, then fold into one: a single chain of multiplies
 * waited on itself, and checking the C library's 2.4 MB type cache was 9 %
 * of what a report spent on the library. */
uint64_t hmi_cache_checksum(const void *p, size_t n, uint64_t h)
{
	const unsigned char *s = p;
	uint64_t w[4], l[4] = { h, h ^ 1, h ^ 2, h ^ 3 };

	if (n >= 32) {
		for (; n >= 32; s += 32, n -= 32) {
			memcpy(w, s, 32);
			l[0] = sum_step(l[0], w[0]);
			l[1] = sum_step(l[1], w[1]);
			l[2] = sum_step(l[2], w[2]);
			l[3] = sum_step(l[3], w[3]);
		}
		h = sum_step(sum_step(sum_step(sum_step(h, l[0]), l[1]), l[2]), l[3]);
	}
	for (; n >= 8; s += 8, n -= 8) {
		memcpy(w, s, 8);
		h = sum_step(h, w[0]);
	}
	for (; n; s++, n--)
		h = (h ^ *s) * 0x100000001b3ULL;
	return h;
}

static uint64_t align8(uint64_t x)
{
	return (x + 7) & ~(uint64_t)7;
}

/* ---- writing ---- */

struct strmap {
	const char **key;
	uint64_t *off;
	size_t nslots, used;
	char *blob;
	size_t len, cap;
	int err;
};

static int strmap_grow(struct strmap *m)
{
	size_t n = m->nslots ? m->nslots * 2 : 1 << 14;
	const char **key = calloc(n, sizeof(*key));
	uint64_t *off = calloc(n, sizeof(*off));

	if (!key || !off) {
		free(key);
		free(off);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->nslots; i++) {
		size_t j;

		if (!m->key[i])
			continue;
		for (j = hm_hash_u64((uintptr_t)m->key[i]) & (n - 1); key[j]; j = (j + 1) & (n - 1))
			;
		key[j] = m->key[i];
		off[j] = m->off[i];
	}
	free(m->key);
	free(m->off);
	m->key = key;
	m->off = off;
	m->nslots = n;
	return 0;
}

/* A string pointer as stored: offset + 1 in the blob, NULL for NULL. */
static const char *enc(struct strmap *m, const char *s)
{
	size_t j, n;

	if (!s || m->err)
		return NULL;
	if ((m->used + 1) * 2 > m->nslots && strmap_grow(m)) {
		m->err = ENOMEM;
		return NULL;
	}
	for (j = hm_hash_u64((uintptr_t)s) & (m->nslots - 1); m->key[j]; j = (j + 1) & (m->nslots - 1))
		if (m->key[j] == s)
			return (const char *)(uintptr_t)(m->off[j] + 1);
	n = strlen(s) + 1;
	if (hm_grow((void **)&m->blob, &m->cap, m->len + n, 1)) {
		m->err = ENOMEM;
		return NULL;
	}
	memcpy(m->blob + m->len, s, n);
	m->key[j] = s;
	m->off[j] = m->len;
	m->used++;
	m->len += n;
	return (const char *)(uintptr_t)(m->off[j] + 1);
}

/* Field by field into zeroed records: no uninitialised padding reaches the
 * file (and its checksum). */
static hm_type *enc_types(const hm_types *t, struct strmap *m)
{
	hm_type *v = calloc(t->types.n, sizeof(*v));

	for (size_t i = 0; v && i < t->types.n; i++) {
		const hm_type *s = &t->types.v[i];
		hm_type *d = &v[i];

		d->kind = s->kind;
		d->name = enc(m, s->name);
		d->scope = enc(m, s->scope);
		d->size = s->size;
		d->alignment = s->alignment;
		d->target = s->target;
		d->nr = s->nr;
		d->first = s->first;
		d->decl_file = enc(m, s->decl_file);
		d->decl_line = s->decl_line;
		d->containing = s->containing;
		d->declaration = s->declaration;
		d->varargs = s->varargs;
		d->prototyped = s->prototyped;
		d->is_signed = s->is_signed;
		d->vector = s->vector;
	}
	return v;
}

static hm_member *enc_members(const hm_types *t, struct strmap *m)
{
	hm_member *v = calloc(t->members.n, sizeof(*v));

	for (size_t i = 0; v && i < t->members.n; i++) {
		const hm_member *s = &t->members.v[i];
		hm_member *d = &v[i];

		d->name = enc(m, s->name);
		d->type = s->type;
		d->flags = s->flags;
		d->offset = s->offset;
		d->bit_offset = s->bit_offset;
		d->bit_size = s->bit_size;
		d->byte_size = s->byte_size;
		d->alignment = s->alignment;
		d->decl_line = s->decl_line;
	}
	return v;
}

static hm_enumerator *enc_enums(const hm_types *t, struct strmap *m)
{
	hm_enumerator *v = calloc(t->enums.n, sizeof(*v));

	for (size_t i = 0; v && i < t->enums.n; i++) {
		v[i].name = enc(m, t->enums.v[i].name);
		v[i].value = t->enums.v[i].value;
	}
	return v;
}

static hm_variable *enc_vars(const hm_types *t, struct strmap *m)
{
	hm_variable *v = calloc(t->vars.n, sizeof(*v));

	for (size_t i = 0; v && i < t->vars.n; i++) {
		const hm_variable *s = &t->vars.v[i];

		v[i].name = enc(m, s->name);
		v[i].type = s->type;
		v[i].addr = s->addr;
		v[i].decl_file = enc(m, s->decl_file);
		v[i].decl_line = s->decl_line;
		v[i].external = s->external;
		v[i].has_addr = s->has_addr;
	}
	return v;
}

int hmi_cache_write_full(int fd, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		s += w;
		n -= w;
	}
	return 0;
}

static int write_file(const char *path, struct cache_hdr *h, const void *const *data)
{
	static const char zero[8];
	char tmp[PATH_MAX];
	uint64_t off = 0;
	int fd, err = 0;

	for (int s = 0; s < NSECT; s++) {
		off = align8(off);
		h->checksum = hmi_cache_checksum(data[s], h->count[s] * elem_size[s], h->checksum);
		off += h->count[s] * elem_size[s];
	}
	h->payload_size = off;
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	err = hmi_cache_write_full(fd, h, sizeof(*h));
	off = 0;
	for (int s = 0; s < NSECT && !err; s++) {
		size_t bytes = h->count[s] * elem_size[s];

		if (align8(off) != off)
			err = hmi_cache_write_full(fd, zero, align8(off) - off);
		off = align8(off);
		if (!err && bytes)
			err = hmi_cache_write_full(fd, data[s], bytes);
		off += bytes;
	}
	/* durable before it becomes visible under its real name */
	if (!err && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, path) < 0)
		err = -errno;
	if (err) {
		unlink(tmp);
		return err;
	}
	{
		char mark[PATH_MAX + 8];

		snprintf(mark, sizeof(mark), "%s.wanted", path);
		unlink(mark);
	}
	return 0;
}

/* The cache's size limit: HITMAP_CACHE_MAX_MB (MiB), default 1024.  A
 * machine that reads many builds would otherwise fill its disk. */
static uint64_t cache_limit(void)
{
	const char *e = getenv("HITMAP_CACHE_MAX_MB");
	char *end;
	unsigned long long mb;

	if (!e || !*e)
		return 1024ull << 20;
	mb = strtoull(e, &end, 10);
	return *end || mb > (1ull << 40) ? 1024ull << 20 : mb << 20;
}

struct centry {
	char name[80];
	off_t size;
	struct timespec mtime;
};

static int older(const void *a, const void *b)
{
	const struct centry *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Keep dir's BUILD-ID.types and .scopes files under the limit: the oldest (by the time
 * they were written or last read) go first, never `keep`, the one just
 * written.  Best effort: a file another process removed is skipped. */
void hmi_cache_prune(const char *dir, const char *keep)
{
	DIR *d = opendir(dir);
	struct centry *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t total = 0, limit = cache_limit();
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct stat st;

		if (len < 8 || len >= sizeof(v->name) ||
		    (strcmp(de->d_name + len - 6, ".types") && strcmp(de->d_name + len - 7, ".scopes")) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			struct centry *nv = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof(*v));

			if (!nv)
				break;
			v = nv;
		}
		memcpy(v[n].name, de->d_name, len + 1);
		v[n].size = st.st_size;
		v[n].mtime = st.st_mtim;
		total += (uint64_t)st.st_size;
		n++;
	}
	if (total > limit && n) {
		qsort(v, n, sizeof(*v), older);
		for (size_t i = 0; i < n && total > limit; i++) {
			if (!strcmp(v[i].name, keep) || unlinkat(dirfd(d), v[i].name, 0))
				continue;
			total -= (uint64_t)v[i].size;
			hm_diag(HM_DIAG_DEBUG, "%s/%s: type cache entry evicted (the cache is over "
				"its %llu MiB)", dir, v[i].name, (unsigned long long)(limit >> 20));
		}
	}
	closedir(d);
	free(v);
}

int hm_typecache_write(hm_binary *bin, const char *dir, const hm_types *t)
{
	struct strmap m = { 0 };
	struct cache_hdr h;
	char path[PATH_MAX];
	const void *data[NSECT];
	hm_type *types = NULL;
	hm_member *members = NULL;
	hm_enumerator *enums = NULL;
	hm_variable *vars = NULL;
	int err;

	if ((err = cache_path(bin, dir, path, sizeof(path))) || (err = make_header(bin, &h)))
		return err;
	types = enc_types(t, &m);
	members = enc_members(t, &m);
	enums = enc_enums(t, &m);
	vars = enc_vars(t, &m);
	err = -ENOMEM;
	if (m.err || (t->types.n && !types) || (t->members.n && !members) ||
	    (t->enums.n && !enums) || (t->vars.n && !vars))
		goto out;
	h.table_pointer_size = t->pointer_size;
	data[S_STRS] = m.blob;			h.count[S_STRS] = m.len;
	data[S_TYPES] = types;			h.count[S_TYPES] = t->types.n;
	data[S_MEMBERS] = members;		h.count[S_MEMBERS] = t->members.n;
	data[S_DIMS] = t->dims.v;		h.count[S_DIMS] = t->dims.n;
	data[S_PARAMS] = t->params.v;		h.count[S_PARAMS] = t->params.n;
	data[S_ENUMS] = enums;			h.count[S_ENUMS] = t->enums.n;
	data[S_VARS] = vars;			h.count[S_VARS] = t->vars.n;
	data[S_STRUCTS] = t->structs.v;		h.count[S_STRUCTS] = t->structs.n;
	data[S_STRUCT_NEXT] = t->struct_next.v;	h.count[S_STRUCT_NEXT] = t->struct_next.n;
	data[S_LISTED] = t->listed.v;		h.count[S_LISTED] = t->listed.n;
	data[S_STRUCT_SLOTS] = t->struct_slots;	h.count[S_STRUCT_SLOTS] = t->nstruct_slots;
	data[S_TYPEDEF_SLOTS] = t->typedef_slots; h.count[S_TYPEDEF_SLOTS] = t->ntypedef_slots;
	data[S_VAR_SLOTS] = t->var_slots;	h.count[S_VAR_SLOTS] = t->nvar_slots;
	err = write_file(path, &h, data);
out:
	if (err)
		hm_diag(HM_DIAG_DEBUG, "%s: type cache %s not written: %s", hmi_binary_path(bin),
			path, strerror(-err));
	else
		hm_diag(HM_DIAG_DEBUG, "%s: type cache %s written", hmi_binary_path(bin), path);
	if (!err)
		hmi_cache_prune(dir, strrchr(path, '/') + 1);
	free(types);
	free(members);
	free(enums);
	free(vars);
	free(m.key);
	free(m.off);
	free(m.blob);
	return err;
}

/* ---- reading ---- */

int hmi_cache_read_full(int fd, void *p, size_t n, off_t off)
{
	char *d = p;

	while (n) {
		ssize_t r = pread(fd, d, n, off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -EIO;
		d += r;
		n -= r;
		off += r;
	}
	return 0;
}

static int dec(const hm_types *t, const char **p)
{
	uintptr_t v = (uintptr_t)*p;

	if (!v)
		return 0;
	if (v - 1 >= t->blob_size)
		return -1;
	*p = t->blob + (v - 1);
	return 0;
}

/* Where a kind keeps its `nr` items, and how many there are (0: none). */
static size_t items_of(const hm_types *t, enum hm_type_kind k, int *ok)
{
	*ok = 1;
	switch (k) {
	case HM_KIND_STRUCT:
	case HM_KIND_UNION:
	case HM_KIND_CLASS:
		return t->members.n;
	case HM_KIND_ARRAY:
		return t->dims.n;
	case HM_KIND_FUNC:
		return t->params.n;
	case HM_KIND_ENUM:
		return t->enums.n;
	default:
		*ok = 0;
		return 0;
	}
}

static const char *check_types(hm_types *t)
{
	size_t n = t->types.n;

	if (!n || t->types.v[0].kind != HM_KIND_VOID)
		return "no void type";
	for (size_t i = 0; i < n; i++) {
		hm_type *ty = &t->types.v[i];
		size_t avail;
		int ok;

		if ((unsigned)ty->kind > HM_KIND_UNSPECIFIED || ty->target >= n ||
		    ty->containing >= n || dec(t, &ty->name) || dec(t, &ty->scope) ||
		    dec(t, &ty->decl_file))
			return "type out of range";
		avail = items_of(t, ty->kind, &ok);
		if (ty->nr && (!ok || ty->first > avail || ty->nr > avail - ty->first))
			return "type items out of range";
	}
	for (size_t i = 0; i < t->members.n; i++)
		if (t->members.v[i].type >= n || dec(t, &t->members.v[i].name))
			return "member out of range";
	for (size_t i = 0; i < t->params.n; i++)
		if (t->params.v[i] >= n)
			return "parameter out of range";
	for (size_t i = 0; i < t->enums.n; i++)
		if (dec(t, &t->enums.v[i].name))
			return "enumerator out of range";
	for (size_t i = 0; i < t->vars.n; i++) {
		hm_variable *v = &t->vars.v[i];

		if (v->type >= n || dec(t, &v->name) || dec(t, &v->decl_file) || !v->name)
			return "variable out of range";
	}
	return NULL;
}

/* An open-addressing table must keep a free slot (or lookups never end),
 * and every entry must be in range.  Returns the entries in use, or -1. */
static long check_slots(const uint32_t *slots, size_t n, size_t max)
{
	size_t used = 0;

	if (n & (n - 1))
		return -1;
	for (size_t j = 0; j < n; j++) {
		if (slots[j] > max)
			return -1;
		used += !!slots[j];
	}
	return n && used >= n ? -1 : (long)used;
}

static const char *check_index(hm_types *t)
{
	size_t ns = t->structs.n;
	long ntd;

	if (t->struct_next.n != ns || t->listed.n > t->types.n)
		return "struct list out of range";
	for (size_t i = 0; i < ns; i++) {
		hm_type_id id = t->structs.v[i];
		uint32_t next = t->struct_next.v[i];

		/* links only go forward: no cycles */
		if (!id || id >= t->types.n || !t->types.v[id].name || !hm_kind_is_record(t->types.v[id].kind) ||
		    (next && (next <= i + 1 || next > ns)))
			return "struct list out of range";
	}
	if (check_slots(t->struct_slots, t->nstruct_slots, ns) < 0 ||
	    check_slots(t->var_slots, t->nvar_slots, t->vars.n) < 0)
		return "name index out of range";
	ntd = check_slots(t->typedef_slots, t->ntypedef_slots, t->types.n - 1);
	if (ntd < 0)
		return "name index out of range";
	for (size_t j = 0; j < t->ntypedef_slots; j++)
		if (t->typedef_slots[j] && !t->types.v[t->typedef_slots[j]].name)
			return "name index out of range";
	t->ntypedefs = ntd;
	if (t->pointer_size < 1 || t->pointer_size > 16)
		return "bad pointer size";
	return NULL;
}

/* Read the sections of a validated header into t's vectors. */
static const char *read_sections(int fd, const struct cache_hdr *h, hm_types *t)
{
	void **dst[NSECT] = {
		(void **)&t->blob, (void **)&t->types.v, (void **)&t->members.v,
		(void **)&t->dims.v, (void **)&t->params.v, (void **)&t->enums.v,
		(void **)&t->vars.v, (void **)&t->structs.v, (void **)&t->struct_next.v,
		(void **)&t->listed.v, (void **)&t->struct_slots, (void **)&t->typedef_slots,
		(void **)&t->var_slots,
	};
	size_t *cnt[NSECT] = {
		&t->blob_size, &t->types.n, &t->members.n, &t->dims.n, &t->params.n,
		&t->enums.n, &t->vars.n, &t->structs.n, &t->struct_next.n, &t->listed.n,
		&t->nstruct_slots, &t->ntypedef_slots, &t->nvar_slots,
	};
	size_t *cap[NSECT] = {
		NULL, &t->types.cap, &t->members.cap, &t->dims.cap, &t->params.cap,
		&t->enums.cap, &t->vars.cap, &t->structs.cap, &t->struct_next.cap,
		&t->listed.cap, NULL, NULL, NULL,
	};
	uint64_t off = 0, sum = 0;

	for (int s = 0; s < NSECT; s++) {
		uint64_t bytes;

		off = align8(off);
		if (off > h->payload_size || h->count[s] > (h->payload_size - off) / elem_size[s])
			return "section past the end of the file";
		bytes = h->count[s] * elem_size[s];
		free(*dst[s]);
		*dst[s] = NULL;
		*cnt[s] = 0;
		if (bytes) {
			if (!(*dst[s] = malloc(bytes)))
				return "out of memory";
			if (hmi_cache_read_full(fd, *dst[s], bytes, sizeof(*h) + off))
				return "short read";
		}
		*cnt[s] = h->count[s];
		if (cap[s])
			*cap[s] = h->count[s];
		sum = hmi_cache_checksum(*dst[s], bytes, sum);
		off += bytes;
	}
	if (off != h->payload_size)
		return "file size does not match its sections";
	if (sum != h->checksum)
		return "checksum mismatch";
	if (!t->blob_size || t->blob[t->blob_size - 1])
		return "string section not terminated";
	return NULL;
}

static const char *read_file(int fd, hm_binary *bin, hm_types *t)
{
	struct cache_hdr h, want;
	struct stat st;
	const char *why;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size < sizeof(h))
		return "too short";
	if (hmi_cache_read_full(fd, &h, sizeof(h), 0))
		return "unreadable header";
	if (make_header(bin, &want))
		return "binary not a regular file";
	if ((why = header_mismatch(&h, &want)))
		return why;
	if (h.payload_size != (uint64_t)st.st_size - sizeof(h))
		return "file size does not match its header";
	t->pointer_size = h.table_pointer_size;
	if ((why = read_sections(fd, &h, t)) || (why = check_types(t)) || (why = check_index(t)))
		return why;
	return NULL;
}

int hm_typecache_read(hm_binary *bin, const char *dir, hm_types **out)
{
	char path[PATH_MAX];
	const char *why;
	hm_types *t;
	int fd;

	if (cache_path(bin, dir, path, sizeof(path)))
		return -ENOENT;
	/* O_NONBLOCK: a FIFO put there must not hang the open */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		hm_diag(HM_DIAG_DEBUG, "%s: type cache %s: %s", hmi_binary_path(bin), path,
			strerror(errno));
		return -ENOENT;
	}
	t = hm_types_new();
	why = t ? read_file(fd, bin, t) : "out of memory";
	if (!why)	/* used: the newest entry for the size limit's eviction */
		(void)futimens(fd, NULL);
	close(fd);
	if (why) {
		hm_diag(HM_DIAG_DEBUG, "%s: type cache %s ignored: %s", hmi_binary_path(bin),
			path, why);
		hm_types_free(t);
		return -ENOENT;
	}
	hm_diag(HM_DIAG_DEBUG, "%s: type cache %s used", hmi_binary_path(bin), path);
	*out = t;
	return 0;
}
