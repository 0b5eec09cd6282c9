/* The kcore copy of a perf.data directory (see kcore.h): the ELF core
 * file's PT_LOAD segments over the mapped file, and the kernel image's
 * symbols from the kallsyms beside it. */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "elf/kcore.h"
#include "base/diag.h"
#include "base/util.h"

struct seg {
	uint64_t vaddr, size;	/* file bytes only */
	uint64_t off;
};

struct ksym {
	uint64_t addr;
	const char *name;
	char type;
};

struct hm_kcore {
	char *path;		/* DIR/kcore */
	unsigned char *map;
	size_t size;
	int mapped;		/* map is ours to munmap */
	struct seg *segs;	/* sorted by vaddr */
	size_t nsegs;
	char *ktext;		/* kallsyms, names cut in place */
	struct ksym *syms;	/* the kernel image's, file order */
	size_t nsyms;
};

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static int cmp_seg(const void *x, const void *y)
{
	const struct seg *a = x, *b = y;

	return a->vaddr < b->vaddr ? -1 : a->vaddr > b->vaddr;
}

static int read_elf(hm_kcore *k)
{
	GElf_Ehdr eh;
	size_t n, i;
	Elf *e;
	int err = 0;

	elf_version(EV_CURRENT);
	e = elf_memory((char *)k->map, k->size);
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) || eh.e_type != ET_CORE) {
		hm_diag(HM_DIAG_ERROR, "%s: offset 0: not an ELF core file", k->path);
		err = -EBADMSG;
		goto out;
	}
	/* libelf counts no headers that do not fit: say that they do not */
	n = eh.e_phnum == PN_XNUM ? 0 : eh.e_phnum;
	if (eh.e_phoff > k->size || (uint64_t)n * eh.e_phentsize > k->size - eh.e_phoff) {
		hm_diag(HM_DIAG_ERROR, "%s: offset %" PRIu64 ": %zu program headers go past the end "
			"of the file (%zu bytes): cut short?", k->path, (uint64_t)eh.e_phoff, n, k->size);
		err = -EBADMSG;
		goto out;
	}
	if (elf_getphdrnum(e, &n) || (n && !(k->segs = calloc(n, sizeof(*k->segs))))) {
		hm_diag(HM_DIAG_ERROR, "%s: offset %" PRIu64 ": bad program headers", k->path,
			(uint64_t)eh.e_phoff);
		err = n ? -EBADMSG : -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph)) {
			hm_diag(HM_DIAG_ERROR, "%s: offset %" PRIu64 ": program header %zu cannot be read",
				k->path, (uint64_t)eh.e_phoff + i * eh.e_phentsize, i);
			err = -EBADMSG;
			goto out;
		}
		if (ph.p_type != PT_LOAD || !ph.p_filesz)
			continue;
		if (ph.p_offset > k->size || ph.p_filesz > k->size - ph.p_offset ||
		    ph.p_vaddr + ph.p_filesz < ph.p_vaddr) {
			hm_diag(HM_DIAG_ERROR, "%s: offset %" PRIu64 ": segment of %" PRIu64
				" bytes for 0x%" PRIx64 " goes past the end of the file (%zu bytes): cut short?",
				k->path, (uint64_t)ph.p_offset, (uint64_t)ph.p_filesz,
				(uint64_t)ph.p_vaddr, k->size);
			err = -EBADMSG;
			goto out;
		}
		k->segs[k->nsegs++] = (struct seg){ ph.p_vaddr, ph.p_filesz, ph.p_offset };
	}
	if (!k->nsegs) {
		hm_diag(HM_DIAG_ERROR, "%s: offset %" PRIu64 ": no loadable segment: no text to read",
			k->path, (uint64_t)eh.e_phoff);
		err = -EBADMSG;
		goto out;
	}
	qsort(k->segs, k->nsegs, sizeof(*k->segs), cmp_seg);
out:
	elf_end(e);
	return err;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* "ADDR TYPE NAME[\t[MODULE]]" lines; the kernel image's (no module)
 * kept. */
static int parse_kallsyms(hm_kcore *k, const char *path, size_t len);

static int read_kallsyms(hm_kcore *k, const char *path)
{
	FILE *f = hm_fopen_regular(path);	/* a FIFO is refused, not waited on */
	size_t len = 0, cap = 0;
	int err;

	if (!f) {
		err = -errno;
		hm_diag(HM_DIAG_ERROR, "%s: %s", path, hm_open_error(errno));
		return err;
	}
	for (;;) {
		size_t got;

		if (len + 4096 + 1 > cap) {
			char *t = realloc(k->ktext, cap = cap ? cap * 2 : 1 << 20);

			if (!t) {
				fclose(f);
				return -ENOMEM;
			}
			k->ktext = t;
		}
		got = fread(k->ktext + len, 1, cap - len - 1, f);
		len += got;
		if (!got)
			break;
	}
	if (ferror(f)) {
		hm_diag(HM_DIAG_ERROR, "%s: offset %zu: read error", path, len);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	k->ktext[len] = 0;
	return parse_kallsyms(k, path, len);
}

/* k->ktext, len bytes and a NUL: the symbols of its lines. */
static int parse_kallsyms(hm_kcore *k, const char *path, size_t len)
{
	size_t line = 0;
	char *p, *end;

	for (p = k->ktext; p < k->ktext + len; p = end + 1) {
		uint64_t addr = 0;
		char *q = p, type, *name;
		int digits = 0, h;

		line++;
		end = memchr(p, '\n', (size_t)(k->ktext + len - p));
		if (!end)
			end = k->ktext + len;
		*end = 0;
		if (p == end)
			continue;
		while ((h = hexval((unsigned char)*q)) >= 0 && digits < 17) {
			addr = addr << 4 | (uint64_t)h;
			q++;
			digits++;
		}
		if (!digits || digits > 16 || q[0] != ' ' || !q[1] || q[2] != ' ' || !q[3]) {
			hm_diag(HM_DIAG_ERROR, "%s:%zu:%d: not \"ADDRESS TYPE NAME\"", path, line,
				(int)(q - p) + 1);
			return -EBADMSG;
		}
		type = q[1];
		name = q + 3;
		q = strchr(name, '\t');
		if (q) {	/* a module's */
			continue;
		}
		if (k->nsyms % 4096 == 0) {
			struct ksym *v = realloc(k->syms, (k->nsyms + 4096) * sizeof(*v));

			if (!v)
				return -ENOMEM;
			k->syms = v;
		}
		k->syms[k->nsyms++] = (struct ksym){ addr, name, type };
	}
	return 0;
}

static int is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

int hm_kcore_open(const char *dir, hm_kcore **out)
{
	hm_kcore *k = calloc(1, sizeof(*k));
	char *ks = join(dir, "kallsyms");
	struct stat st;
	int fd = -1, err = 0;

	*out = NULL;
	if (!k || !ks || !(k->path = join(dir, "kcore"))) {
		err = -ENOMEM;
		goto out;
	}
	if (!is_file(k->path) || !is_file(ks)) {
		hm_diag(HM_DIAG_ERROR, "%s: no %s: not the kcore copy of perf record --kcore", dir,
			is_file(k->path) ? "kallsyms" : "kcore");
		err = -ENOENT;
		goto out;
	}
	/* O_NONBLOCK: a FIFO swapped in after the check still opens at once */
	fd = open(k->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st)) {
		err = -errno;
		hm_diag(HM_DIAG_ERROR, "%s: %s", k->path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		hm_diag(HM_DIAG_ERROR, "%s: not a regular file", k->path);
		err = -EINVAL;
		goto out;
	}
	if (!st.st_size) {
		hm_diag(HM_DIAG_ERROR, "%s: offset 0: empty file", k->path);
		err = -EBADMSG;
		goto out;
	}
	k->size = (size_t)st.st_size;
	k->map = mmap(NULL, k->size, PROT_READ, MAP_PRIVATE, fd, 0);
	k->mapped = k->map != MAP_FAILED;
	if (k->map == MAP_FAILED) {
		k->map = NULL;
		err = -errno;
		hm_diag(HM_DIAG_ERROR, "%s: %s", k->path, strerror(errno));
		goto out;
	}
	err = read_elf(k);
	if (!err)
		err = read_kallsyms(k, ks);
out:
	if (fd >= 0)
		close(fd);
	free(ks);
	if (err)
		hm_kcore_free(k);
	else
		*out = k;
	return err;
}

int hm_kcore_open_mem(const void *core, size_t size, const char *kallsyms, size_t klen,
		      const char *name, hm_kcore **out)
{
	hm_kcore *k = calloc(1, sizeof(*k));
	size_t n = strlen(name) + sizeof("/kallsyms");
	char *ks = malloc(n);
	int err;

	*out = NULL;
	if (!k || !ks || !(k->path = malloc(n)) || !(k->ktext = malloc(klen + 1))) {
		free(ks);
		hm_kcore_free(k);
		return -ENOMEM;
	}
	snprintf(k->path, n, "%s/kcore", name);
	snprintf(ks, n, "%s/kallsyms", name);
	k->map = (unsigned char *)core;
	k->size = size;
	memcpy(k->ktext, kallsyms, klen);
	k->ktext[klen] = 0;
	err = size ? read_elf(k) : -EBADMSG;
	if (!size)
		hm_diag(HM_DIAG_ERROR, "%s: offset 0: empty file", k->path);
	if (!err)
		err = parse_kallsyms(k, ks, klen);
	free(ks);
	if (err)
		hm_kcore_free(k);
	else
		*out = k;
	return err;
}

void hm_kcore_free(hm_kcore *k)
{
	if (!k)
		return;
	if (k->map && k->mapped)
		munmap(k->map, k->size);
	free(k->segs);
	free(k->ktext);
	free(k->syms);
	free(k->path);
	free(k);
}

const char *hm_kcore_path(const hm_kcore *k)
{
	return k->path;
}

const uint8_t *hm_kcore_bytes(const hm_kcore *k, uint64_t vaddr, size_t max, size_t *n)
{
	size_t lo = 0, hi = k ? k->nsegs : 0;
	const struct seg *s;
	uint64_t left;

	while (lo < hi) {	/* first segment past vaddr */
		size_t mid = lo + (hi - lo) / 2;

		if (k->segs[mid].vaddr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &k->segs[lo - 1];
	if (vaddr - s->vaddr >= s->size)
		return NULL;
	left = s->size - (vaddr - s->vaddr);
	*n = left < max ? (size_t)left : max;
	return k->map + s->off + (vaddr - s->vaddr);
}

int hm_kcore_symbol(const hm_kcore *k, const char *name, uint64_t *addr)
{
	for (size_t i = 0; i < k->nsyms; i++)
		if (!strcmp(k->syms[i].name, name)) {
			*addr = k->syms[i].addr;
			return 0;
		}
	return -ENOENT;
}

static int cmp_name(const void *x, const void *y)
{
	const struct ksym *const *a = x, *const *b = y;

	return strcmp((*a)->name, (*b)->name);
}

int hm_kcore_check(const hm_kcore *k, const hm_binary *vmlinux, uint64_t *kaslr, size_t *agree,
		   size_t *compared)
{
	const hm_symbol *vs = hm_binary_symbol(vmlinux, "_stext");
	const hm_symbol *ve = hm_binary_symbol(vmlinux, "_etext");
	const struct ksym **v;
	uint64_t ks, off;
	size_t n = 0, i, j;

	*agree = *compared = 0;
	if (!vs || hm_kcore_symbol(k, "_stext", &ks) || !ks)
		return -ENOENT;
	off = ks - vs->addr;
	*kaslr = off;
	v = malloc((k->nsyms + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	/* Text symbols inside the image's text (kallsyms also lists the
	 * entry trampolines and per-cpu symbols, which move otherwise). */
	for (i = 0; i < k->nsyms; i++) {
		char t = k->syms[i].type;

		if ((t == 'T' || t == 't') && k->syms[i].addr >= ks &&
		    (!ve || k->syms[i].addr - off < ve->addr))
			v[n++] = &k->syms[i];
	}
	qsort(v, n, sizeof(*v), cmp_name);
	for (i = 0; i < n; i = j) {
		const hm_symbol *s;

		for (j = i + 1; j < n && !strcmp(v[i]->name, v[j]->name); j++)
			;
		if (j - i > 1)	/* a name given twice: which is which is not known */
			continue;
		s = hm_binary_symbol(vmlinux, v[i]->name);
		if (!s || (s->type != STT_FUNC && s->type != STT_NOTYPE))
			continue;
		(*compared)++;
		if (s->addr + off == v[i]->addr)
			(*agree)++;
	}
	free(v);
	/* A few of the names may be another symbol's in the file (a local
	 * of the same name that kallsyms does not list); a kernel of
	 * another build disagrees on most. */
	return *compared && *compared - *agree <= *compared / 100 ? 0 : -ESRCH;
}
