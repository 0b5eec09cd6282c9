/* debuginfo: find the file that holds a binary's DWARF (see hitmap/debuginfo.h).
 * The order is gdb's and elfutils': build-id first (it names exactly this
 * build), then the debuglink name (checked by CRC), then perf's cache, then
 * the network. */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "hitmap/debuginfo.h"
#include "base/diag.h"
#include "base/opts.h"
#include "elf/debuginfod-lib.h"
#include "elf/binary-lib.h"
#include "elf/debuginfo-int.h"

#define SYSTEM_DEBUG_DIR "/usr/lib/debug"

/* Every place looked at, for the message when nothing is found: a user who
 * installed the -dbg package into another root wants to see where hitmap
 * looked. */
struct tried {
	FILE *f;
	char *text;
	size_t len;
	unsigned n;
};

static void tried_add(struct tried *t, const char *place)
{
	if (!t || !t->f)
		return;
	fputs(t->n++ ? ", " : "", t->f);
	fputs(place, t->f);
}

const char *hmi_debug_source_name(enum hm_debug_source src)
{
	switch (src) {
	case HM_DEBUG_SELF: return "itself";
	case HM_DEBUG_BUILD_ID: return "build-id";
	case HM_DEBUG_DEBUGLINK: return "debuglink";
	case HM_DEBUG_PERF_CACHE: return "perf build-id cache";
	case HM_DEBUG_DEBUGINFOD: return "debuginfod";
	}
	return "?";
}

static int has_dwarf(const hm_binary *bin)
{
	size_t size = 0;

	return hmi_binary_has_section(bin, ".debug_info", &size) && size;
}

/* Open path quietly: a candidate that is missing or not ELF is just not it. */
static hm_binary *open_quiet(const char *path)
{
	struct hm_diag_count quiet = { 0 }, *prev;
	hm_binary *b;

	if (access(path, R_OK))
		return NULL;
	prev = hm_diag_divert(&quiet);
	b = hm_binary_open(path);
	hm_diag_divert(prev);
	return b;
}

static int same_build_id(const hm_binary *a, const char *hex)
{
	const char *id = hm_binary_build_id(a);

	return id && hex && !strcmp(id, hex);
}

/* DIR/.build-id/xx/rest SUFFIX */
static int build_id_path(char *buf, size_t n, const char *dir, const char *hex,
			 const char *suffix)
{
	int len = snprintf(buf, n, "%s/.build-id/%.2s/%s%s", dir, hex, hex + 2, suffix);

	return len > 0 && (size_t)len < n ? 0 : -1;
}

/* The dirs searched for build-id and debuglink places, in order. */
static size_t debug_dirs(const struct hm_debuginfo_opts *o, const char **v, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < o->ndebug_dirs && n < max; i++)
		if (o->debug_dirs[i] && *o->debug_dirs[i])
			v[n++] = o->debug_dirs[i];
	if (!o->no_system_dirs && n < max)
		v[n++] = SYSTEM_DEBUG_DIR;
	return n;
}

static const char *perf_cache_dir(const struct hm_debuginfo_opts *o, char *buf, size_t n)
{
	const char *home;

	if (o->buildid_dir)
		return *o->buildid_dir ? o->buildid_dir : NULL;
	home = getenv("HOME");
	if (!home || !*home || snprintf(buf, n, "%s/.debug", home) >= (int)n)
		return NULL;
	return buf;
}

/* PATH is bin's debug file when it is ELF with DWARF and bin's build-id. */
static int build_id_match(const char *path, const char *hex, struct tried *t)
{
	hm_binary *b;
	int ok;

	tried_add(t, path);
	if (!(b = open_quiet(path)))
		return 0;
	ok = same_build_id(b, hex) && has_dwarf(b);
	if (!ok)
		hm_diag(HM_DIAG_DEBUG, "%s: ignored: %s", path,
			has_dwarf(b) ? "another build-id" : "no .debug_info");
	hm_binary_close(b);
	return ok;
}

/* The build-id places: each debug dir, then perf's cache (whose "debug"
 * entry is the debug file perf copied, "elf" the binary itself — which is
 * worth it only when it kept its DWARF). */
static char *find_by_build_id(const char *hex, const struct hm_debuginfo_opts *o,
			      struct tried *t, enum hm_debug_source *src)
{
	const char *dirs[64], *cache;
	char path[PATH_MAX], cbuf[PATH_MAX];
	size_t nd = debug_dirs(o, dirs, 64);
	static const char *const cache_names[] = { "/debug", "/elf" };

	for (size_t i = 0; i < nd; i++) {
		if (!build_id_path(path, sizeof(path), dirs[i], hex, ".debug") &&
		    build_id_match(path, hex, t)) {
			*src = HM_DEBUG_BUILD_ID;
			return strdup(path);
		}
	}
	if ((cache = perf_cache_dir(o, cbuf, sizeof(cbuf)))) {
		for (size_t i = 0; i < 2; i++) {
			if (!build_id_path(path, sizeof(path), cache, hex, cache_names[i]) &&
			    build_id_match(path, hex, t)) {
				*src = HM_DEBUG_PERF_CACHE;
				return strdup(path);
			}
		}
	}
	return NULL;
}

struct progress_ctx {
	const struct hm_debuginfo_opts *o;
};

static int progress_cb(debuginfod_client *c, long done, long total)
{
	const struct hm_debuginfod_lib *lib = hm_debuginfod_open(NULL);
	struct progress_ctx *p = lib ? lib->get_user_data(c) : NULL;

	return p && p->o->progress ? p->o->progress(p->o->progress_ctx, done, total) : 0;
}

/* libdebuginfod reads DEBUGINFOD_URLS itself; without it there is nothing to
 * ask, and saying so beats a silent miss. */
static char *find_debuginfod(const char *hex, const struct hm_debuginfo_opts *o,
			     struct tried *t, enum hm_debug_source *src)
{
	const char *urls = getenv("DEBUGINFOD_URLS"), *why = NULL;
	const struct hm_debuginfod_lib *lib;
	struct progress_ctx pc = { o };
	debuginfod_client *c;
	char *path = NULL;
	int fd;

	if (o->offline) {
		tried_add(t, "debuginfod (offline)");
		return NULL;
	}
	if (!urls || !*urls) {
		tried_add(t, "debuginfod (DEBUGINFOD_URLS unset)");
		return NULL;
	}
	if (!(lib = hm_debuginfod_open(&why))) {
		char what[PATH_MAX + 256];

		snprintf(what, sizeof(what), "debuginfod at %s (no client library: %s)", urls,
			 why ? why : HM_DEBUGINFOD_SONAME);
		tried_add(t, what);
		return NULL;
	}
	if (!(c = lib->begin()))
		return NULL;
	lib->set_user_data(c, &pc);
	lib->set_progressfn(c, progress_cb);
	fd = lib->find_debuginfo(c, (const unsigned char *)hex, 0, &path);
	lib->end(c);
	if (fd < 0) {
		char what[PATH_MAX + 64];

		snprintf(what, sizeof(what), "debuginfod at %s (%s)", urls, strerror(-fd));
		tried_add(t, what);
		return NULL;
	}
	close(fd);
	*src = HM_DEBUG_DEBUGINFOD;
	return path;
}

/* zlib's CRC-32 of the whole file, as objcopy --add-gnu-debuglink wrote it. */
static int file_crc(const char *path, uint32_t *crc)
{
	unsigned char buf[1 << 16];
	uLong c = crc32(0L, Z_NULL, 0);
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {	/* a FIFO is never read */
		close(fd);
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		c = crc32(c, buf, (uInt)n);
	close(fd);
	if (n < 0)
		return -1;
	*crc = (uint32_t)c;
	return 0;
}

/* .gnu_debuglink: the name, NUL, padding to 4, then the CRC in the file's
 * byte order.  0; -1 when there is none; or -2 and *why when there is one
 * that cannot be used. */
static int read_debuglink(const hm_binary *bin, char *name, size_t n, uint32_t *crc,
			  const char **why)
{
	size_t size, len, off;
	const unsigned char *s = hmi_binary_section(bin, ".gnu_debuglink", &size);
	const unsigned char *c;

	if (!s || !size)
		return -1;
	len = strnlen((const char *)s, size);
	off = (len + 4) & ~(size_t)3;
	*why = !len ? "its name is empty" :
	       len == size ? "its name has no NUL" :
	       off + 4 > size ? "no room for its CRC after the name" :
	       len >= n ? "its name is too long" :
	       memchr(s, '/', len) ? "its name holds a '/' (a file name, not a path, is "
				     "looked for)" : NULL;
	if (*why)
		return -2;
	memcpy(name, s, len);
	name[len] = 0;
	c = s + off;
	*crc = hmi_binary_big_endian(bin) ?
	       (uint32_t)c[0] << 24 | (uint32_t)c[1] << 16 | (uint32_t)c[2] << 8 | c[3] :
	       (uint32_t)c[3] << 24 | (uint32_t)c[2] << 16 | (uint32_t)c[1] << 8 | c[0];
	return 0;
}

static char *find_debuglink(hm_binary *bin, const struct hm_debuginfo_opts *o,
			    struct tried *t, enum hm_debug_source *src)
{
	char name[NAME_MAX + 1], dir[PATH_MAX], path[PATH_MAX];
	const char *dirs[64], *p = hmi_binary_path(bin), *slash;
	char *real = NULL;
	size_t nd;
	uint32_t want;
	const char *why = NULL;

	if (read_debuglink(bin, name, sizeof(name), &want, &why) < 0) {
		/* there is one, refused: say so, and why (not "no .gnu_debuglink") */
		if (why) {
			char what[160];

			snprintf(what, sizeof(what), "its .gnu_debuglink (refused: %s)", why);
			tried_add(t, what);
		}
		return NULL;
	}
	/* the binary's folder, absolute: debug dirs mirror absolute paths */
	if ((real = realpath(p, NULL)))
		p = real;
	slash = strrchr(p, '/');
	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - p), p);
	else
		strcpy(dir, ".");
	free(real);
	nd = debug_dirs(o, dirs, 64);
	for (int place = 0; place < 2 + (int)nd; place++) {
		hm_binary *b;
		uint32_t crc;
		int len;

		if (place == 0)
			len = snprintf(path, sizeof(path), "%s/%s", dir, name);
		else if (place == 1)
			len = snprintf(path, sizeof(path), "%s/.debug/%s", dir, name);
		else
			len = snprintf(path, sizeof(path), "%s%s%s/%s", dirs[place - 2],
				       dir[0] == '/' ? "" : "/", dir, name);
		if (len < 0 || (size_t)len >= sizeof(path))
			continue;
		tried_add(t, path);
		if (!(b = open_quiet(path)))
			continue;
		if (!has_dwarf(b)) {	/* the stripped binary itself, say */
			hm_binary_close(b);
			continue;
		}
		hm_binary_close(b);
		if (file_crc(path, &crc) || crc != want) {
			/* another build's debug file: its types may differ */
			hm_diag(HM_DIAG_WARNING, "%s: ignored: its CRC does not match the "
				".gnu_debuglink of %s", path, hmi_binary_path(bin));
			continue;
		}
		*src = HM_DEBUG_DEBUGLINK;
		return strdup(path);
	}
	return NULL;
}

int hmi_debuginfo_find_by_id(const char *build_id, const struct hm_debuginfo_opts *opts,
			     char **path_out, enum hm_debug_source *src)
{
	struct hm_debuginfo_opts o;
	enum hm_debug_source s = HM_DEBUG_BUILD_ID;
	size_t n = build_id ? strlen(build_id) : 0;
	char *p;

	if (!path_out || HM_OPTS_TAKE(&o, opts, hm_debuginfo_opts) || n < 4 || n > 128 ||
	    strspn(build_id, "0123456789abcdef") != n)
		return -EINVAL;
	if (!(p = find_by_build_id(build_id, &o, NULL, &s)))
		p = find_debuginfod(build_id, &o, NULL, &s);
	if (!p)
		return -ENODATA;
	*path_out = p;
	if (src)
		*src = s;
	return 0;
}

int hmi_debuginfo_find(hm_binary *bin, const struct hm_debuginfo_opts *opts,
		       hm_binary **debug, enum hm_debug_source *src)
{
	struct hm_debuginfo_opts o;
	struct tried t = { 0 };
	enum hm_debug_source s = HM_DEBUG_SELF;
	const char *hex;
	char *path = NULL;
	hm_binary *b = NULL;
	int rc = 0;

	if (!bin || !debug || HM_OPTS_TAKE(&o, opts, hm_debuginfo_opts))
		return -EINVAL;
	if (has_dwarf(bin)) {
		*debug = bin;
		if (src)
			*src = HM_DEBUG_SELF;
		return 0;
	}
	if (!(t.f = open_memstream(&t.text, &t.len)))
		return -ENOMEM;
	hex = hm_binary_build_id(bin);
	if (hex)
		path = find_by_build_id(hex, &o, &t, &s);
	if (!path)
		path = find_debuglink(bin, &o, &t, &s);
	if (!path && hex)
		path = find_debuginfod(hex, &o, &t, &s);
	fclose(t.f);
	if (path && !(b = hm_binary_open(path)))
		rc = errno ? -errno : -ENOENT;
	else if (!path)
		rc = hm_fail(ENODATA, "%s: no DWARF debug info%s%s%s", hmi_binary_path(bin),
			     t.n ? "; tried " : "", t.n ? t.text : "",
			     hex || t.n ? "" : " (no build-id, no .gnu_debuglink: built without -g?)");
	free(path);
	free(t.text);
	if (rc)
		return rc;
	hm_diag(HM_DIAG_DEBUG, "%s: debug info from %s (%s)", hmi_binary_path(bin),
		hmi_binary_path(b), hmi_debug_source_name(s));
	*debug = b;
	if (src)
		*src = s;
	return 0;
}

void hmi_debuginfo_drop_packed(const hm_binary *bin)
{
	Elf *elf = hmi_binary_elf(bin);
	size_t n = 0;
	const char *base = elf ? elf_rawfile(elf, &n) : NULL;

	/* A compressed section's bytes are read once, by its inflation: the
	 * inflated copy is what is read after.  Left mapped, the file's
	 * pages count in the resident memory for nothing (4 MB of a C
	 * library's debug info); the kernel reads them back from its page
	 * cache for a section inflated later. */
	for (size_t i = 1; base && i < hmi_binary_section_count(bin); i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr sh;

		if (scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_COMPRESSED) &&
		    sh.sh_type != SHT_NOBITS && sh.sh_offset <= n && sh.sh_size <= n - sh.sh_offset)
			hmi_binary_drop_pages(bin, base + sh.sh_offset, sh.sh_size);
	}
}
