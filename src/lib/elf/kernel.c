/* kernel: which file describes the running kernel's types (see
 * hm_kernel_find() in hitmap/debuginfo.h).  pahole reads the running kernel
 * when given no file; so does hitmap, and it prefers DWARF, which has what
 * BTF drops (alignment attributes, declaration files, variables). */
#include "config.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "hitmap/debuginfo.h"
#include "base/diag.h"
#include "base/util.h"
#include "elf/binary-lib.h"
#include "elf/debuginfo-int.h"

static const char *or_empty(const char *root)
{
	return root ? root : "";
}

/* /sys/kernel/notes holds the kernel's ELF notes as they are in memory: the
 * GNU build-id note (type 3) among them.  Native byte order. */
char *hm_kernel_build_id(const char *root)
{
	char path[PATH_MAX];
	unsigned char buf[4096];
	size_t n, off = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/kernel/notes", or_empty(root));
	if (!(f = hm_fopen_regular(path)))
		return NULL;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (off + 12 <= n) {
		uint32_t namesz, descsz, type;
		size_t name_off = off + 12, desc_off;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		if (namesz > n || descsz > n)
			break;
		desc_off = name_off + ((namesz + 3) & ~3u);
		if (desc_off + descsz > n)
			break;
		if (type == 3 && namesz == 4 && !memcmp(buf + name_off, "GNU", 4) &&
		    descsz >= 2 && descsz <= 64) {
			char *hex = malloc(descsz * 2 + 1);

			if (!hex)
				return NULL;
			for (uint32_t i = 0; i < descsz; i++)
				sprintf(hex + 2 * i, "%02x", buf[desc_off + i]);
			return hex;
		}
		off = desc_off + ((descsz + 3) & ~3u);
	}
	errno = ENODATA;
	return NULL;
}

/* A vmlinux candidate: readable ELF with DWARF and, when the running
 * kernel's build-id is known, the same build-id. */
static int good_vmlinux(const char *path, const char *want)
{
	struct hm_diag_count quiet = { 0 }, *prev;
	hm_binary *b;
	size_t size = 0;
	int ok;

	if (access(path, R_OK))
		return 0;
	prev = hm_diag_divert(&quiet);
	b = hm_binary_open(path);
	hm_diag_divert(prev);
	if (!b)
		return 0;
	ok = hmi_binary_has_section(b, ".debug_info", &size) && size;
	if (ok && want && (!hm_binary_build_id(b) || strcmp(hm_binary_build_id(b), want))) {
		hm_diag(HM_DIAG_DEBUG, "%s: not the running kernel (build-id %s, running %s)",
			path, hm_binary_build_id(b) ? hm_binary_build_id(b) : "none", want);
		ok = 0;
	}
	hm_binary_close(b);
	return ok;
}

int hm_kernel_find(const char *root, const struct hm_debuginfo_opts *opts,
		   char **path_out, int *is_btf)
{
	static const char *const places[] = {
		"/usr/lib/debug/boot/vmlinux-%s",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
		"/boot/vmlinux-%s",
		"/lib/modules/%s/build/vmlinux",
	};
	struct utsname u;
	char path[PATH_MAX], fmt[PATH_MAX];
	char *id, *p = NULL;
	int rc;

	if (!path_out || !is_btf)
		return -EINVAL;
	if (uname(&u))
		return -errno;
	id = hm_kernel_build_id(root);
	hm_diag(HM_DIAG_DEBUG, "the running kernel: %s, build-id %s", u.release,
		id ? id : "unknown");
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		snprintf(fmt, sizeof(fmt), "%s%s", or_empty(root), places[i]);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		snprintf(path, sizeof(path), fmt, u.release);
#pragma GCC diagnostic pop
		if (good_vmlinux(path, id)) {
			free(id);
			if (!(*path_out = strdup(path)))
				return -ENOMEM;
			*is_btf = 0;
			return 0;
		}
	}
	/* a debug file found by the kernel's build-id (-dbg package of another
	 * name, perf's cache, debuginfod) */
	if (id && !hmi_debuginfo_find_by_id(id, opts, &p, NULL)) {
		free(id);
		*path_out = p;
		*is_btf = 0;
		return 0;
	}
	free(id);
	snprintf(path, sizeof(path), "%s/sys/kernel/btf/vmlinux", or_empty(root));
	if (!access(path, R_OK)) {
		if (!(*path_out = strdup(path)))
			return -ENOMEM;
		*is_btf = 1;
		return 0;
	}
	rc = hm_fail(ENODATA, "the running kernel (%s): no vmlinux with DWARF "
		     "(/usr/lib/debug/boot/vmlinux-%s: install linux-image-%s-dbg) "
		     "and no %s", u.release, u.release, u.release, path);
	return rc;
}
