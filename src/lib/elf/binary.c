/* binary: ELF files through libelf.  The whole file is mapped once; section
 * contents are handed out as pointers into that mapping, so a 600 MB vmlinux
 * costs page cache, not heap.  Compressed (SHF_COMPRESSED) sections are
 * inflated on first use and kept until close. */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif
#include "hitmap/binary.h"
#include "base/diag.h"
#include "base/util.h"
#include "elf/elf-lock.h"
#include "elf/binary-lib.h"

struct inflated {
	size_t idx;
	void *data;
	size_t size;
	size_t mapped;		/* data is an anonymous mapping of this length */
};

struct hm_binary {
	char *path;
	Elf *elf;
	const unsigned char *image;
	size_t image_size;
	int mapped;		/* image is our mmap */
	GElf_Ehdr ehdr;
	size_t shstrndx, nsections;
	char *build_id;
	const unsigned char *build_id_raw;
	size_t build_id_len;
	struct inflated *inflated;
	size_t nr_inflated, cap_inflated;
	/* symbols, built on first lookup */
	hm_symbol *syms;
	size_t nr_syms;
	int syms_loaded, syms_err;
	/* by name, built on the first lookup by name: most binaries a
	 * report reads are asked by address only (open addressing) */
	hm_symbol **by_name;
	size_t name_slots;
	int names_built, names_err;
	hm_symbol **by_addr;	/* objects sorted by addr */
	size_t nr_objs;
	hm_symbol **funcs;	/* functions sorted by addr */
	size_t nr_funcs;
	uint64_t *secaddr;	/* a kernel module's section addresses (module_layout) */
	/* The indices of the sections asked for by name while samples are
	 * attributed (every sample's binary is asked whether it has DWARF),
	 * found once at open: a lookup by name walks every section header
	 * and compares its name.  0: the file has none. */
	size_t debug_info_idx, btf_idx;
	/* the lazily built parts (symbol index, inflated sections) may be
	 * asked for from several threads */
	pthread_mutex_t lock;
};

/* The buffer a section is inflated into.  A large one is a mapping of its
 * own, filled in at once (transparent huge pages where the system gives
 * them, the pages faulted in by one call): writing megabytes into fresh
 * heap takes one page fault per 4 KB, and a fault costs more than the
 * inflation of its page on a virtual machine.  *mapped: the mapping's
 * length, 0 for the heap. */
#define SECTION_MAP_MIN (256u << 10)
static void *section_buf(size_t size, size_t *mapped)
{
	size_t len = (size + 4095) & ~(size_t)4095;
	void *p;

	*mapped = 0;
	if (size < SECTION_MAP_MIN)
		return malloc(size ? size : 1);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return malloc(size);
#ifdef MADV_HUGEPAGE
	(void)madvise(p, len, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
	(void)madvise(p, len, MADV_POPULATE_WRITE);
#endif
	*mapped = len;
	return p;
}

static void section_buf_free(void *p, size_t mapped)
{
	if (mapped)
		munmap(p, mapped);
	else
		free(p);
}

static int section_bounds(const hm_binary *bin, const GElf_Shdr *sh)
{
	if (sh->sh_type == SHT_NOBITS)
		return 0;
	return sh->sh_offset <= bin->image_size &&
	       sh->sh_size <= bin->image_size - sh->sh_offset;
}

static void find_build_id(hm_binary *bin)
{
	Elf_Scn *scn = NULL;
	static const char hex[] = "0123456789abcdef";

	while ((scn = elf_nextscn(bin->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t off = 0, noff, doff;
		GElf_Nhdr nh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !section_bounds(bin, &sh))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)d->d_buf + noff, "GNU", 4) || !nh.n_descsz)
				continue;
			bin->build_id_raw = (const unsigned char *)d->d_buf + doff;
			bin->build_id_len = nh.n_descsz;
			bin->build_id = malloc(2 * nh.n_descsz + 1);
			if (!bin->build_id)
				return;
			for (size_t i = 0; i < nh.n_descsz; i++) {
				bin->build_id[2 * i] = hex[bin->build_id_raw[i] >> 4];
				bin->build_id[2 * i + 1] = hex[bin->build_id_raw[i] & 15];
			}
			bin->build_id[2 * nh.n_descsz] = 0;
			return;
		}
	}
}

/* ---- kernel modules ----
 *
 * A .ko is relocatable: every section is at address 0 in the file.  The
 * kernel's module loader (kernel/module/main.c, layout_sections()) puts the
 * allocated sections into one "core" allocation, class after class (code;
 * read-only data; .data..ro_after_init and __jump_table; writable data),
 * each class in section-header order, every section at the next multiple of
 * its alignment, and each class but the last ending on a page boundary
 * (strict module RWX); the .init sections go elsewhere and are freed after
 * init, .modinfo, __versions and the per-CPU section are not loaded.  The
 * core starts with the first code section, which is what /proc/modules and
 * perf's module map give.  Those core offsets are the module's link
 * addresses here: symbols, instruction bytes and relocated DWARF use them.
 * Sections outside the core get addresses no module map reaches
 * (MODULE_AWAY + index << 32), so they never collide with core code. */
#define MODULE_PAGE 4096u
#define MODULE_AWAY 0x8000000000000000ull

static int is_module(hm_binary *bin)
{
	if (bin->ehdr.e_type != ET_REL)
		return 0;
	for (size_t i = 1; i < bin->nsections; i++) {
		const char *n = hmi_binary_section_name(bin, i);

		if (n && !strcmp(n, ".gnu.linkonce.this_module"))
			return 1;
	}
	return 0;
}

static int module_class(const char *n, const GElf_Shdr *sh)
{
	uint64_t f = sh->sh_flags;

	if (!(f & SHF_ALLOC) || !n || !strncmp(n, ".init", 5) || !strcmp(n, ".modinfo") ||
	    !strcmp(n, "__versions") || !strcmp(n, ".data..percpu"))
		return -1;
	if (f & SHF_EXECINSTR)
		return 0;
	if (!strcmp(n, ".data..ro_after_init") || !strcmp(n, "__jump_table"))
		return 2;
	return f & SHF_WRITE ? 3 : 1;
}

static int module_layout(hm_binary *bin)
{
	uint64_t size = 0;
	size_t i;
	int c;

	if (!is_module(bin))
		return 0;
	bin->secaddr = calloc(bin->nsections, sizeof(*bin->secaddr));
	if (!bin->secaddr)
		return hm_fail(ENOMEM, "%s: out of memory", bin->path);
	for (i = 1; i < bin->nsections; i++) {
		GElf_Shdr sh;
		Elf_Scn *scn = elf_getscn(bin->elf, i);

		if (scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC))
			bin->secaddr[i] = MODULE_AWAY | ((uint64_t)i << 32);
	}
	for (c = 0; c < 4; c++) {
		for (i = 1; i < bin->nsections; i++) {
			GElf_Shdr sh;
			Elf_Scn *scn = elf_getscn(bin->elf, i);
			uint64_t al;

			if (!scn || !gelf_getshdr(scn, &sh) ||
			    module_class(hmi_binary_section_name(bin, i), &sh) != c)
				continue;
			al = sh.sh_addralign > 1 ? sh.sh_addralign : 1;
			if (al & (al - 1) || al > MODULE_PAGE || sh.sh_size > UINT32_MAX) {
				/* not laid out as a module: its types still load */
				hm_diag(HM_DIAG_WARNING, "%s: section %zu: alignment or size no "
					"module has: not placed as the kernel would", bin->path, i);
				free(bin->secaddr);
				bin->secaddr = NULL;
				return 0;
			}
			size = (size + al - 1) & ~(al - 1);
			bin->secaddr[i] = size;
			size += sh.sh_size;
		}
		if (c < 3)
			size = (size + MODULE_PAGE - 1) & ~(uint64_t)(MODULE_PAGE - 1);
	}
	return 0;
}

uint64_t hmi_binary_section_addr(const hm_binary *bin, size_t idx)
{
	GElf_Shdr sh;
	Elf_Scn *scn;

	if (idx >= bin->nsections)
		return 0;
	if (bin->secaddr)
		return bin->secaddr[idx];
	scn = elf_getscn(bin->elf, idx);
	return scn && gelf_getshdr(scn, &sh) ? sh.sh_addr : 0;
}

int hmi_binary_is_module(const hm_binary *bin)
{
	return bin->secaddr != NULL;
}

void hmi_binary_drop_pages(const hm_binary *bin, const void *p, size_t n)
{
	uintptr_t lo = (uintptr_t)bin->image, hi = lo + bin->image_size, a, b;
	long pg = sysconf(_SC_PAGESIZE);

	/* The mapping is PROT_READ and MAP_PRIVATE: no page of it was ever
	 * written, so the kernel reads what is used again from the file (its
	 * page cache).  A binary in memory, or a decompressed or relocated
	 * section (heap), is no file mapping and is left alone; only whole
	 * pages inside [p, p + n) go. */
	if (!bin->mapped || pg <= 0)
		return;
	if (p) {
		a = (uintptr_t)p;
		if (a < lo || a >= hi)
			return;
		b = n < hi - a ? a + n : hi;
		a = (a + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
		b &= ~((uintptr_t)pg - 1);
	} else {
		a = lo;
		b = (hi + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
	}
	if (a < b)
		(void)madvise((void *)a, b - a, MADV_DONTNEED);
}

/* The index of the first section called name, 0 when there is none: a
 * walk over the section headers. */
static size_t section_scan(const hm_binary *bin, const char *name)
{
	for (size_t i = 1; i < bin->nsections; i++) {
		const char *n = hmi_binary_section_name(bin, i);

		if (n && !strcmp(n, name))
			return i;
	}
	return 0;
}

/* Look up once the sections named in section_named(). */
static void index_sections(hm_binary *bin)
{
	for (size_t i = 1; i < bin->nsections; i++) {
		const char *n = hmi_binary_section_name(bin, i);

		if (!n)
			continue;
		if (!bin->debug_info_idx && !strcmp(n, ".debug_info"))
			bin->debug_info_idx = i;
		else if (!bin->btf_idx && !strcmp(n, ".BTF"))
			bin->btf_idx = i;
	}
}

/* As section_scan(), the names index_sections() found from there. */
static size_t section_named(const hm_binary *bin, const char *name)
{
	if (!strcmp(name, ".debug_info"))
		return bin->debug_info_idx;
	if (!strcmp(name, ".BTF"))
		return bin->btf_idx;
	return section_scan(bin, name);
}

static hm_binary *open_image(hm_binary *bin)
{
	uint64_t shnum;

	elf_version(EV_CURRENT);
	bin->elf = elf_memory((char *)bin->image, bin->image_size);
	if (!bin->elf || elf_kind(bin->elf) != ELF_K_ELF) {
		const unsigned char *m = bin->image;

		/* a BTF file too short for its header is not taken for BTF:
		 * say so rather than only that it is no ELF */
		if (bin->image_size >= 2 && ((m[0] == 0x9f && m[1] == 0xeb) ||
					     (m[0] == 0xeb && m[1] == 0x9f)))
			hm_fail(EBADMSG, "%s: BTF magic at offset 0x0, but %zu bytes are too "
				"short to be BTF (its header is 24 bytes)", bin->path,
				bin->image_size);
		else
			hm_fail(EBADMSG, "%s: not an ELF file", bin->path);
		goto bad;
	}
	if (!gelf_getehdr(bin->elf, &bin->ehdr) ||
	    elf_getshdrstrndx(bin->elf, &bin->shstrndx) ||
	    elf_getshdrnum(bin->elf, &bin->nsections)) {
		hm_fail(EBADMSG, "%s: corrupt ELF header (%s)", bin->path, elf_errmsg(-1));
		goto bad;
	}
	shnum = bin->ehdr.e_shnum > bin->nsections ? bin->ehdr.e_shnum : bin->nsections;
	if (bin->ehdr.e_shoff > bin->image_size ||
	    shnum * bin->ehdr.e_shentsize > bin->image_size - bin->ehdr.e_shoff) {
		hm_fail(EBADMSG, "%s: truncated ELF file (section headers at offset 0x%llx, file "
			"size 0x%zx)", bin->path, (unsigned long long)bin->ehdr.e_shoff,
			bin->image_size);
		goto bad;
	}
	find_build_id(bin);
	index_sections(bin);
	if (module_layout(bin))
		goto bad;
	return bin;
bad:
	hm_binary_close(bin);
	errno = EBADMSG;
	return NULL;
}

hm_binary *hm_binary_open(const char *path)
{
	hm_binary *bin;
	struct stat st;
	void *map;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		err = errno;
		hm_fail(err, "%s: %s", path, err == ENOENT ? "no such file" :
			err == EACCES ? "permission denied" : strerror(err));
		errno = err;
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		err = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		hm_fail(err, "%s: not a regular file", path);
		close(fd);
		errno = err;
		return NULL;
	}
	if (st.st_size == 0) {
		close(fd);
		hm_fail(EBADMSG, "%s: empty file, not ELF", path);
		errno = EBADMSG;
		return NULL;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		err = errno;
		hm_fail(err, "%s: cannot map: %s", path, strerror(err));
		errno = err;
		return NULL;
	}
	bin = calloc(1, sizeof(*bin));
	if (!bin || !(bin->path = strdup(path))) {
		free(bin);
		munmap(map, st.st_size);
		errno = ENOMEM;
		return NULL;
	}
	bin->image = map;
	bin->image_size = st.st_size;
	bin->mapped = 1;
	pthread_mutex_init(&bin->lock, NULL);
	return open_image(bin);
}

hm_binary *hm_binary_open_mem(const void *buf, size_t len, const char *name)
{
	hm_binary *bin = calloc(1, sizeof(*bin));

	if (!bin || !(bin->path = strdup(name ? name : "<memory>"))) {
		free(bin);
		errno = ENOMEM;
		return NULL;
	}
	bin->image = buf;
	bin->image_size = len;
	pthread_mutex_init(&bin->lock, NULL);
	return open_image(bin);
}

void hm_binary_close(hm_binary *bin)
{
	if (!bin)
		return;
	if (bin->elf)
		elf_end(bin->elf);
	if (bin->mapped)
		munmap((void *)bin->image, bin->image_size);
	for (size_t i = 0; i < bin->nr_inflated; i++)
		section_buf_free(bin->inflated[i].data, bin->inflated[i].mapped);
	free(bin->inflated);
	free(bin->syms);
	free(bin->secaddr);
	free(bin->by_name);
	free(bin->by_addr);
	free(bin->funcs);
	free(bin->build_id);
	free(bin->path);
	pthread_mutex_destroy(&bin->lock);
	free(bin);
}

const char *hmi_binary_path(const hm_binary *bin)
{
	return bin->path;
}

unsigned hmi_binary_machine(const hm_binary *bin)
{
	return bin->ehdr.e_machine;
}

unsigned hmi_binary_elf_type(const hm_binary *bin)
{
	return bin->ehdr.e_type;
}

const char *hm_binary_arch(const hm_binary *bin)
{
	switch (bin->ehdr.e_machine) {
	case EM_X86_64: return "x86_64";
	case EM_386: return "i386";
	case EM_AARCH64: return "aarch64";
	case EM_ARM: return "arm";
	case EM_PPC64: return "ppc64";
	case EM_PPC: return "ppc";
	case EM_S390: return "s390x";
	case EM_RISCV: return "riscv";
	case EM_MIPS: return "mips";
	case EM_SPARCV9: return "sparc64";
	case EM_LOONGARCH: return "loongarch";
	default: return "unknown";
	}
}

int hmi_binary_is_64bit(const hm_binary *bin)
{
	return gelf_getclass(bin->elf) == ELFCLASS64;
}

int hmi_binary_big_endian(const hm_binary *bin)
{
	return bin->ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
}

unsigned hmi_arch_cacheline_size(const char *arch)
{
	if (arch && (!strncmp(arch, "ppc", 3) || !strncmp(arch, "powerpc", 7)))
		return 128;
	if (arch && !strncmp(arch, "s390", 4))
		return 256;
	return 64;
}

unsigned hm_binary_cacheline_size(const hm_binary *bin)
{
	return hmi_arch_cacheline_size(hm_binary_arch(bin));
}

const char *hm_binary_build_id(const hm_binary *bin)
{
	return bin->build_id;
}

size_t hmi_binary_build_id_raw(const hm_binary *bin, const unsigned char **id)
{
	if (id)
		*id = bin->build_id_raw;
	return bin->build_id_len;
}

/* A compressed section's header: its length (0 if the section is too short
 * or not zlib, which hitmap cannot read) and the inflated size. */
static size_t compression_header(const hm_binary *bin, const unsigned char *p, size_t size,
				 GElf_Chdr *ch)
{
	size_t hdr;

	if (hmi_binary_is_64bit(bin)) {
		Elf64_Chdr c;

		hdr = sizeof(c);
		if (size < hdr)
			return 0;
		memcpy(&c, p, sizeof(c));
		ch->ch_type = c.ch_type;
		ch->ch_size = c.ch_size;
	} else {
		Elf32_Chdr c;

		hdr = sizeof(c);
		if (size < hdr)
			return 0;
		memcpy(&c, p, sizeof(c));
		ch->ch_type = c.ch_type;
		ch->ch_size = c.ch_size;
	}
	if (ch->ch_type != ELFCOMPRESS_ZLIB || ch->ch_size > (1ull << 34))
		return 0;
	return hdr;
}

static const void *inflate_section(hm_binary *bin, size_t idx, const unsigned char *p,
				   size_t size, size_t *out)
{
	GElf_Chdr ch;
	size_t hdr;
	struct inflated *inf;
#ifndef HAVE_LIBDEFLATE
	z_stream zs = { 0 };
#endif
	size_t mapped;
	void *buf;
	int ok;

	for (size_t i = 0; i < bin->nr_inflated; i++) {
		if (bin->inflated[i].idx == idx) {
			*out = bin->inflated[i].size;
			return bin->inflated[i].data;
		}
	}
	if (!(hdr = compression_header(bin, p, size, &ch)))
		return NULL;
	buf = section_buf(ch.ch_size, &mapped);
	if (!buf || hm_grow((void **)&bin->inflated, &bin->cap_inflated,
			    bin->nr_inflated + 1, sizeof(*bin->inflated))) {
		section_buf_free(buf, mapped);
		return NULL;
	}
#ifdef HAVE_LIBDEFLATE
	/* the whole section in one call: several times zlib's speed */
	{
		struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
		size_t got = 0;

		ok = d && libdeflate_zlib_decompress(d, p + hdr, size - hdr, buf, ch.ch_size,
						     &got) == LIBDEFLATE_SUCCESS &&
		     got == ch.ch_size;
		if (d)
			libdeflate_free_decompressor(d);
	}
#else
	zs.next_in = (unsigned char *)p + hdr;
	zs.avail_in = size - hdr;
	zs.next_out = buf;
	zs.avail_out = ch.ch_size;
	ok = inflateInit(&zs) == Z_OK;
	ok = ok && inflate(&zs, Z_FINISH) == Z_STREAM_END && zs.total_out == ch.ch_size;
	inflateEnd(&zs);
#endif
	if (!ok) {
		section_buf_free(buf, mapped);
		return NULL;
	}
	inf = &bin->inflated[bin->nr_inflated++];
	inf->idx = idx;
	inf->data = buf;
	inf->size = ch.ch_size;
	inf->mapped = mapped;
	*out = ch.ch_size;
	return buf;
}

/* Section by index: contents (inflated if compressed), NULL if empty/NOBITS/bad. */
const void *hmi_binary_section_at(const hm_binary *cbin, size_t idx, size_t *size)
{
	hm_binary *bin = (hm_binary *)cbin;
	Elf_Scn *scn = elf_getscn(bin->elf, idx);
	GElf_Shdr sh;
	const unsigned char *p;

	*size = 0;
	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
	    !section_bounds(bin, &sh))
		return NULL;
	p = bin->image + sh.sh_offset;
	if (sh.sh_flags & SHF_COMPRESSED) {
		const void *out;

		pthread_mutex_lock(&bin->lock);
		out = inflate_section(bin, idx, p, sh.sh_size, size);
		pthread_mutex_unlock(&bin->lock);
		return out;
	}
	*size = sh.sh_size;
	return p;
}

/* 1 and *size when hmi_binary_section_at() would give contents, read from
 * the headers alone. */
static int section_size(const hm_binary *bin, size_t idx, size_t *size)
{
	Elf_Scn *scn = elf_getscn(bin->elf, idx);
	GElf_Shdr sh;
	GElf_Chdr ch;

	*size = 0;
	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
	    !section_bounds(bin, &sh))
		return 0;
	if (!(sh.sh_flags & SHF_COMPRESSED)) {
		*size = sh.sh_size;
		return 1;
	}
	if (!compression_header(bin, bin->image + sh.sh_offset, sh.sh_size, &ch))
		return 0;
	*size = ch.ch_size;
	return 1;
}

size_t hmi_binary_section_size_at(const hm_binary *bin, size_t idx)
{
	size_t size;

	section_size(bin, idx, &size);
	return size;
}

int hmi_binary_has_section(const hm_binary *bin, const char *name, size_t *size)
{
	size_t dummy, i = section_named(bin, name);

	if (!size)
		size = &dummy;
	*size = 0;
	return i ? section_size(bin, i, size) : 0;
}

int hmi_binary_section_in_file(const hm_binary *bin, size_t idx)
{
	Elf_Scn *scn = elf_getscn(bin->elf, idx);
	GElf_Shdr sh;

	return scn && gelf_getshdr(scn, &sh) && section_bounds(bin, &sh);
}

const char *hmi_binary_section_name(const hm_binary *bin, size_t idx)
{
	Elf_Scn *scn = elf_getscn(bin->elf, idx);
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh))
		return NULL;
	return elf_strptr(bin->elf, bin->shstrndx, sh.sh_name);
}

size_t hmi_binary_section_count(const hm_binary *bin)
{
	return bin->nsections;
}

const void *hmi_binary_section(const hm_binary *bin, const char *name, size_t *size)
{
	size_t dummy, i = section_named(bin, name);

	if (!size)
		size = &dummy;
	*size = 0;
	return i ? hmi_binary_section_at(bin, i, size) : NULL;
}

Elf *hmi_binary_elf(const hm_binary *bin)
{
	return bin->elf;
}

void hm_binary_elf_lock(const hm_binary *bin)
{
	pthread_mutex_lock(&((hm_binary *)bin)->lock);
}

void hm_binary_elf_unlock(const hm_binary *bin)
{
	pthread_mutex_unlock(&((hm_binary *)bin)->lock);
}

static int cmp_sym_addr(const void *a, const void *b)
{
	const hm_symbol *x = *(hm_symbol *const *)a, *y = *(hm_symbol *const *)b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* larger first so that a containing symbol wins over an alias of size 0 */
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* v[0..n) in cmp_sym_addr() order: by address with a radix sort (a C
 * library's debug file has thousands of symbols, and qsort's calls of the
 * comparator were 4 % of what a report spent on the library), then
 * each run of one address (aliases: a few symbols) by the comparator.
 * 0 or -ENOMEM. */
static int sort_by_addr(hm_symbol **v, size_t n)
{
	struct hmi_keyed *k;
	size_t i, j;

	if (n < 2)
		return 0;
	if (!(k = malloc(n * sizeof(*k))))
		return -ENOMEM;
	for (i = 0; i < n; i++)
		k[i] = (struct hmi_keyed){ v[i]->addr, v[i] };
	if (hmi_sort_keyed(k, n)) {
		free(k);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		v[i] = (hm_symbol *)k[i].p;
	free(k);
	for (i = 0; i < n; i = j) {	/* each run of one address */
		for (j = i + 1; j < n && v[j]->addr == v[i]->addr; j++)
			;
		if (j - i > 1)
			qsort(v + i, j - i, sizeof(*v), cmp_sym_addr);
	}
	return 0;
}

static Elf_Scn *find_symtab(hm_binary *bin, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr dsh;

	while ((scn = elf_nextscn(bin->elf, scn))) {
		if (!gelf_getshdr(scn, sh))
			continue;
		if (sh->sh_type == SHT_SYMTAB && section_bounds(bin, sh))
			return scn;
		if (sh->sh_type == SHT_DYNSYM && section_bounds(bin, sh)) {
			dyn = scn;
			dsh = *sh;
		}
	}
	if (dyn)
		*sh = dsh;
	return dyn;
}

static int load_symbols(hm_binary *bin)
{
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *d;
	size_t n, i;

	bin->syms_loaded = 1;
	scn = find_symtab(bin, &sh);
	if (!scn || !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
		return 0;
	n = sh.sh_size / sh.sh_entsize;
	bin->syms = calloc(n ? n : 1, sizeof(*bin->syms));
	if (!bin->syms)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;
		hm_symbol *o;

		if (!gelf_getsym(d, i, &s) || !s.st_name)
			continue;
		name = elf_strptr(bin->elf, sh.sh_link, s.st_name);
		if (!name || !*name)
			continue;
		/* the name stays in the mapped string table, as long
		 * as the binary (a vmlinux has some 150 000 of them) */
		o = &bin->syms[bin->nr_syms++];
		o->name = name;
		o->addr = s.st_value;
		if (bin->secaddr && s.st_shndx != SHN_UNDEF && s.st_shndx < bin->nsections)
			o->addr += bin->secaddr[s.st_shndx];
		o->size = s.st_size;
		o->type = GELF_ST_TYPE(s.st_info);
		o->bind = GELF_ST_BIND(s.st_info);
		o->shndx = s.st_shndx;
	}
	bin->by_addr = calloc(bin->nr_syms + 1, sizeof(*bin->by_addr));
	bin->funcs = calloc(bin->nr_syms + 1, sizeof(*bin->funcs));
	if (!bin->by_addr || !bin->funcs)
		return -ENOMEM;
	for (i = 0; i < bin->nr_syms; i++) {
		hm_symbol *s = &bin->syms[i];

		if (s->shndx == SHN_UNDEF)
			continue;
		if (s->type == STT_OBJECT || s->type == STT_TLS)
			bin->by_addr[bin->nr_objs++] = s;
		else if (s->type == STT_FUNC)
			bin->funcs[bin->nr_funcs++] = s;
	}
	if (sort_by_addr(bin->by_addr, bin->nr_objs) || sort_by_addr(bin->funcs, bin->nr_funcs))
		return -ENOMEM;
	return 0;
}

static int ensure_symbols(const hm_binary *cbin)
{
	hm_binary *bin = (hm_binary *)cbin;
	int rc;

	pthread_mutex_lock(&bin->lock);
	if (!bin->syms_loaded)
		bin->syms_err = load_symbols(bin);
	rc = bin->syms_err;
	pthread_mutex_unlock(&bin->lock);
	return rc;
}

/* The index by name (bin->lock held, the symbols loaded). */
static int build_names(hm_binary *bin)
{
	size_t i;

	bin->name_slots = 16;
	while (bin->name_slots < bin->nr_syms * 2)
		bin->name_slots *= 2;
	bin->by_name = calloc(bin->name_slots, sizeof(*bin->by_name));
	if (!bin->by_name)
		return -ENOMEM;
	for (i = 0; i < bin->nr_syms; i++) {
		hm_symbol *s = &bin->syms[i];
		size_t j = hmi_hash_str(s->name, strlen(s->name)) & (bin->name_slots - 1);

		/* first definition wins, but a global beats a local of the same name */
		while (bin->by_name[j] && strcmp(bin->by_name[j]->name, s->name))
			j = (j + 1) & (bin->name_slots - 1);
		if (!bin->by_name[j] || (s->shndx != SHN_UNDEF &&
		    (bin->by_name[j]->shndx == SHN_UNDEF ||
		     (bin->by_name[j]->bind == STB_LOCAL && s->bind != STB_LOCAL))))
			bin->by_name[j] = s;
	}
	return 0;
}

static int ensure_names(const hm_binary *cbin)
{
	hm_binary *bin = (hm_binary *)cbin;
	int rc = ensure_symbols(cbin);

	if (rc)
		return rc;
	pthread_mutex_lock(&bin->lock);
	if (!bin->names_built) {
		bin->names_err = build_names(bin);
		bin->names_built = 1;
	}
	rc = bin->names_err;
	pthread_mutex_unlock(&bin->lock);
	return rc;
}

const hm_symbol *hm_binary_symbol(const hm_binary *bin, const char *name)
{
	size_t j;

	if (ensure_names(bin) || !bin->nr_syms)
		return NULL;
	j = hmi_hash_str(name, strlen(name)) & (bin->name_slots - 1);
	for (; bin->by_name[j]; j = (j + 1) & (bin->name_slots - 1))
		if (!strcmp(bin->by_name[j]->name, name))
			return bin->by_name[j];
	return NULL;
}

/* The last symbol with addr <= a whose extent contains a; scans back a little
 * so that a big symbol followed by small aliases at the same start is found. */
static const hm_symbol *containing(hm_symbol *const *v, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid]->addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = 0; lo > 0 && k < 16; k++, lo--) {
		const hm_symbol *s = v[lo - 1];

		if (a >= s->addr && (a - s->addr < s->size || (a == s->addr && !s->size)))
			return s;
	}
	return NULL;
}

const hm_symbol *hm_binary_object_at(const hm_binary *bin, uint64_t addr)
{
	if (ensure_symbols(bin))
		return NULL;
	return containing(bin->by_addr, bin->nr_objs, addr);
}

const hm_symbol *hm_binary_func_at(const hm_binary *bin, uint64_t addr)
{
	if (ensure_symbols(bin))
		return NULL;
	return containing(bin->funcs, bin->nr_funcs, addr);
}

int hmi_binary_first_load(const hm_binary *bin, uint64_t *vaddr, uint64_t *offset)
{
	size_t n;
	int found = 0;

	if (elf_getphdrnum(bin->elf, &n))
		return -EBADMSG;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(bin->elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (!found || ph.p_vaddr < *vaddr) {
			*vaddr = ph.p_vaddr;
			*offset = ph.p_offset;
			found = 1;
		}
	}
	return found ? 0 : -ENOENT;
}
