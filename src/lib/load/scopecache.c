/* scopecache: answers kept by build-id (typecache.h): the scope index's
 * (BUILD-ID.scopes) and the attribution's (BUILD-ID.attr).
 *
 * A report reads a binary's scopes to name the samples of a few hundred
 * instructions; for a system library (libc6-dbg's C library) opening them
 * is most of a small report's time, and answering its questions about
 * globals and instructions needs its types and a decoder.  The answers are
 * saved beside the type cache, under the same checks: the format, the code
 * that wrote them (its build-id: another build may answer differently), the
 * DWARF file's build-id, size and mtime, and a checksum.  The answers' own
 * bytes are checked again by what reads them (dwarf-scope-answers.c,
 * attribute-answers.c). */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/diag.h"
#include "elf/binary-lib.h"
#include "load/typecache.h"

#define SCOPES_ENDIAN 0x01020304u

/* What a kind of answers is called, and its limit. */
struct kind {
	const char *magic, *suffix, *what;
	uint32_t format;
	uint64_t max;
};

static const struct kind scopes_kind = {
	"HMSCOPE", ".scopes", "scope answers",
	2,		/* 2: a checksum in four lanes */
	64u << 20,	/* a kernel's answers take some 560 bytes a PC (Debian
			 * 6.1), a C library's fewer: over 100 000 PCs */
};
static const struct kind attr_kind = {
	"HMATTRA", ".attr", "attribution answers",
	1,
	64u << 20,	/* 120 bytes an answer and its names: some 400 000 */
};

struct scopes_hdr {
	char magic[8];
	uint32_t format, endian;
	char version[16];
	char lib_id[72];
	char build_id[132];
	uint32_t pointer_size;
	uint64_t src_size;
	int64_t src_mtime, src_mtime_ns;
	uint64_t payload_size;
	uint64_t checksum;
};

static int make_header(const struct kind *k, hm_binary *bin, struct scopes_hdr *h)
{
	struct stat st;

	memset(h, 0, sizeof(*h));
	if (hmi_cache_source_stat(bin, &st))
		return -ENOENT;
	snprintf(h->magic, sizeof(h->magic), "%s", k->magic);
	h->format = k->format;
	h->endian = SCOPES_ENDIAN;
	snprintf(h->version, sizeof(h->version), "%s", PACKAGE_VERSION);
	hmi_cache_lib_id(h->lib_id, sizeof(h->lib_id));
	snprintf(h->build_id, sizeof(h->build_id), "%s", hm_binary_build_id(bin));
	h->pointer_size = sizeof(void *);
	h->src_size = st.st_size;
	h->src_mtime = st.st_mtim.tv_sec;
	h->src_mtime_ns = st.st_mtim.tv_nsec;
	return 0;
}

static const char *read_file(const struct kind *k, int fd, hm_binary *bin, void **blob,
			     size_t *len)
{
	struct scopes_hdr h, want;
	struct stat st;
	void *p;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size < sizeof(h))
		return "too short";
	if (hmi_cache_read_full(fd, &h, sizeof(h), 0))
		return "unreadable header";
	if (make_header(k, bin, &want))
		return "binary not a regular file";
	if (memcmp(h.magic, want.magic, sizeof(h.magic)) || h.format != want.format ||
	    h.endian != want.endian || h.pointer_size != want.pointer_size)
		return "different format";
	if (memcmp(h.version, want.version, sizeof(h.version)) ||
	    memcmp(h.lib_id, want.lib_id, sizeof(h.lib_id)))
		return "written by another hitmap version or build";
	if (memcmp(h.build_id, want.build_id, sizeof(h.build_id)))
		return "different build-id";
	if (h.src_size != want.src_size || h.src_mtime != want.src_mtime ||
	    h.src_mtime_ns != want.src_mtime_ns)
		return "binary changed since it was cached (size or mtime)";
	if (h.payload_size != (uint64_t)st.st_size - sizeof(h) || h.payload_size > k->max)
		return "file size does not match its header";
	if (!(p = malloc(h.payload_size ? h.payload_size : 1)))
		return "out of memory";
	if (hmi_cache_read_full(fd, p, h.payload_size, sizeof(h)) ||
	    hmi_cache_checksum(p, h.payload_size, 0) != h.checksum) {
		free(p);
		return "checksum mismatch";
	}
	*blob = p;
	*len = h.payload_size;
	return NULL;
}

static int cache_read(const struct kind *k, hm_binary *bin, const char *dir, void **blob,
		      size_t *len)
{
	char path[PATH_MAX];
	const char *why;
	int fd;

	*blob = NULL;
	*len = 0;
	if (hmi_cache_path(bin, dir, k->suffix, path, sizeof(path)))
		return -ENOENT;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		hm_diag(HM_DIAG_DEBUG, "%s: %s %s: %s", hmi_binary_path(bin), k->what, path,
			strerror(errno));
		return -ENOENT;
	}
	why = read_file(k, fd, bin, blob, len);
	if (!why)	/* used: the newest entry for the size limit's eviction */
		(void)futimens(fd, NULL);
	close(fd);
	if (why) {
		hm_diag(HM_DIAG_DEBUG, "%s: %s %s ignored: %s", hmi_binary_path(bin), k->what,
			path, why);
		return -ENOENT;
	}
	hm_diag(HM_DIAG_DEBUG, "%s: %s %s used", hmi_binary_path(bin), k->what, path);
	return 0;
}

int hm_scopecache_read(hm_binary *bin, const char *dir, void **blob, size_t *len)
{
	return cache_read(&scopes_kind, bin, dir, blob, len);
}

int hm_attrcache_read(hm_binary *bin, const char *dir, void **blob, size_t *len)
{
	return cache_read(&attr_kind, bin, dir, blob, len);
}

static int cache_write(const struct kind *k, hm_binary *bin, const char *dir, const void *blob,
		       size_t len)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	struct scopes_hdr h;
	int fd, err;

	if ((err = hmi_cache_path(bin, dir, k->suffix, path, sizeof(path))) ||
	    (err = make_header(k, bin, &h)))
		return err;
	if (len > k->max)
		return -E2BIG;
	h.payload_size = len;
	h.checksum = hmi_cache_checksum(blob, len, 0);
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	if ((fd = mkstemp(tmp)) < 0) {
		err = -errno;
		goto out;
	}
	err = hmi_cache_write_full(fd, &h, sizeof(h));
	if (!err && len)
		err = hmi_cache_write_full(fd, blob, len);
	/* whole before it is seen under its name: a concurrent run reads
	 * the old file or the new one */
	if (!err && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, path) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
out:
	if (err)
		hm_diag(HM_DIAG_DEBUG, "%s: %s %s not written: %s", hmi_binary_path(bin), k->what,
			path, strerror(-err));
	else
		hm_diag(HM_DIAG_DEBUG, "%s: %s %s written", hmi_binary_path(bin), k->what, path);
	if (!err)
		hmi_cache_prune(dir, strrchr(path, '/') + 1);
	return err;
}

int hm_scopecache_write(hm_binary *bin, const char *dir, const void *blob, size_t len)
{
	return cache_write(&scopes_kind, bin, dir, blob, len);
}

int hm_attrcache_write(hm_binary *bin, const char *dir, const void *blob, size_t len)
{
	return cache_write(&attr_kind, bin, dir, blob, len);
}
