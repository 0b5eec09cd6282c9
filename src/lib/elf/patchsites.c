/* The patch sites of a kernel image (see patchsites.h): each table located
 * by its start and end symbols, inside one section of the file, read entry
 * by entry with every byte bounded by that section; then sorted, and the
 * ranges merged into disjoint intervals so that a lookup is one binary
 * search whatever the input's overlaps. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include "elf/patchsites.h"
#include "base/diag.h"
#include "elf/elf-lock.h"
#include "elf/reloc.h"
#include "elf/binary-lib.h"

struct ival {
	uint64_t lo, hi;	/* [lo, hi) */
	size_t site;		/* the first site of the interval */
};

struct hm_patch_sites {
	struct hm_patch_site *v;
	size_t n, cap;
	struct ival *iv;
	size_t niv;
};

/* How each table is laid out (x86-64 Linux 6.1, checked against the
 * kernel's DWARF by tests/vmlinux/patchsites.test). */
struct table {
	enum hm_patch_kind kind;
	const char *start, *end;	/* the linker's symbols around it */
	size_t entsize;
	const char *section;	/* a module's: the whole section */
};

static const struct table tables[] = {
	{ HM_PATCH_ALT, "__alt_instructions", "__alt_instructions_end", 12, ".altinstructions" },
	{ HM_PATCH_PARAVIRT, "__parainstructions", "__parainstructions_end", 16, ".parainstructions" },
	{ HM_PATCH_STATIC_CALL, "__start_static_call_sites", "__stop_static_call_sites", 8,
	  ".static_call_sites" },
	{ HM_PATCH_JUMP, "__start___jump_table", "__stop___jump_table", 16, "__jump_table" },
	{ HM_PATCH_RETPOLINE, "__retpoline_sites", "__retpoline_sites_end", 4, ".retpoline_sites" },
	{ HM_PATCH_RETURN, "__return_sites", "__return_sites_end", 4, ".return_sites" },
};

static int32_t rd_s32(const unsigned char *p)
{
	uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		     (uint32_t)p[3] << 24;

	return (int32_t)u;
}

static uint64_t rd_u64(const unsigned char *p)
{
	uint64_t u = 0;

	for (int i = 7; i >= 0; i--)
		u = u << 8 | p[i];
	return u;
}

static int push(hm_patch_sites *s, uint64_t addr, uint32_t len, enum hm_patch_kind k)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		struct hm_patch_site *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = (struct hm_patch_site){ addr, len, (uint8_t)k };
	return 0;
}

/* The bytes at link addresses [lo, hi) of code: inside one section's file
 * bytes, or NULL. */
static const unsigned char *bytes_at(const hm_binary *code, uint64_t lo, uint64_t hi)
{
	size_t n = hmi_binary_section_count(code);

	for (size_t i = 1; i < n; i++) {
		uint64_t a = hmi_binary_section_addr(code, i);
		const unsigned char *p;
		size_t size;

		if (!a || lo < a || !hmi_binary_section_in_file(code, i))
			continue;
		p = hmi_binary_section_at(code, i, &size);
		if (p && hi - a <= size)
			return p + (lo - a);
	}
	return NULL;
}

/* A table that cannot be read: a warning, since what it costs is that no
 * IP is checked against the tables (the caller goes on without them). */
static int bad(const hm_binary *code, const struct table *t, uint64_t at, const char *why)
{
	hm_diag(HM_DIAG_WARNING, "%s: patch-site table %s at 0x%" PRIx64 ": %s; its sites are not known",
		hmi_binary_path(code), t->start, at, why);
	return -EBADMSG;
}

/* The entries of table t, size bytes at p, the first at link address
 * base. */
static int read_entries(hm_patch_sites *s, const struct table *t, const unsigned char *p,
			uint64_t base, uint64_t size)
{
	int err;

	for (uint64_t off = 0; off < size; off += t->entsize) {
		const unsigned char *e = p + off;
		uint64_t at = base + off, site;
		uint32_t len = 0;

		switch (t->kind) {
		case HM_PATCH_ALT:	/* s32 instr_offset, s32 repl_offset, u16 cpuid,
					 * u8 instrlen, u8 replacementlen */
			site = at + (uint64_t)(int64_t)rd_s32(e);
			len = e[10];
			break;
		case HM_PATCH_PARAVIRT:	/* u8 *instr, u8 type, u8 len */
			site = rd_u64(e);
			len = e[9];
			break;
		case HM_PATCH_JUMP:	/* s32 code, s32 target, long key */
		case HM_PATCH_STATIC_CALL:	/* s32 addr, s32 key */
		case HM_PATCH_RETPOLINE:	/* s32 */
		case HM_PATCH_RETURN:
		default:
			site = at + (uint64_t)(int64_t)rd_s32(e);
			break;
		}
		/* A site of no bytes patches nothing (an alternative whose
		 * original is empty). */
		if ((t->kind == HM_PATCH_ALT || t->kind == HM_PATCH_PARAVIRT) && !len)
			continue;
		err = push(s, site, len, t->kind);
		if (err)
			return err;
	}
	return 0;
}

static int read_table(hm_patch_sites *s, const hm_binary *code, const hm_binary *syms,
		      const struct table *t)
{
	const hm_symbol *a = hm_binary_symbol(syms, t->start), *b = hm_binary_symbol(syms, t->end);
	const unsigned char *p;
	uint64_t size;

	if (!a || !b)
		return 0;
	if (b->addr < a->addr || (b->addr - a->addr) % t->entsize)
		return bad(code, t, a->addr, "its end symbol is not a whole number of entries after it");
	size = b->addr - a->addr;
	if (!size)
		return 0;
	p = bytes_at(code, a->addr, b->addr);
	if (!p)
		return bad(code, t, a->addr, "it is in no section of the file");
	return read_entries(s, t, p, a->addr, size);
}

/* A kernel module's table: its whole section, relocated as the module
 * loader relocates it (PC-relative entries against the sections' load
 * addresses, hmi_binary_section_addr), read from a copy. */
static int read_module_table(hm_patch_sites *s, const hm_binary *code, const struct table *t)
{
	size_t n = hmi_binary_section_count(code), i, size;
	const unsigned char *p = NULL;
	unsigned char *c;
	int err;

	for (i = 1; i < n; i++) {
		const char *name = hmi_binary_section_name(code, i);

		if (name && !strcmp(name, t->section))
			break;
	}
	if (i >= n)
		return 0;
	if (hmi_binary_section_in_file(code, i))
		p = hmi_binary_section_at(code, i, &size);
	if (!p) {
		if (hmi_binary_section_in_file(code, i))
			return bad(code, t, 0, "its section cannot be read");
		return 0;	/* NOBITS: a debug file's copy of it */
	}
	if (size % t->entsize)
		return bad(code, t, hmi_binary_section_addr(code, i),
			   "its section is not a whole number of entries");
	if (!size)
		return 0;
	c = malloc(size);
	if (!c)
		return -ENOMEM;
	memcpy(c, p, size);
	hm_binary_elf_lock(code);
	err = hm_binary_relocate(code, i, c, size, HM_RELOC_PCREL);
	hm_binary_elf_unlock(code);
	if (!err)
		err = read_entries(s, t, c, hmi_binary_section_addr(code, i), size);
	else
		err = bad(code, t, 0, "its relocations cannot be read");
	free(c);
	return err;
}

static int cmp_site(const void *x, const void *y)
{
	const struct hm_patch_site *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return a->len < b->len ? -1 : a->len > b->len;
}

/* One entry per (address, length, kind): ALTERNATIVE_2 and its kin list a
 * site once per alternative. */
static void dedup(hm_patch_sites *s)
{
	size_t i, j = 0;

	for (i = 0; i < s->n; i++)
		if (!j || cmp_site(&s->v[j - 1], &s->v[i]))
			s->v[j++] = s->v[i];
	s->n = j;
}

static int merge(hm_patch_sites *s)
{
	if (!s->n)
		return 0;
	s->iv = malloc(s->n * sizeof(*s->iv));
	if (!s->iv)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		uint64_t lo = s->v[i].addr, hi = lo + (s->v[i].len ? s->v[i].len : 1);

		if (hi < lo)	/* wraps: up to the end of the address space */
			hi = UINT64_MAX;
		if (s->niv && lo < s->iv[s->niv - 1].hi) {
			if (hi > s->iv[s->niv - 1].hi)
				s->iv[s->niv - 1].hi = hi;
			continue;
		}
		s->iv[s->niv++] = (struct ival){ lo, hi, i };
	}
	return 0;
}

int hm_patch_sites_read(const hm_binary *code, const hm_binary *syms, hm_patch_sites **out)
{
	hm_patch_sites *s;
	int err = 0;

	*out = NULL;
	if (!syms)
		syms = code;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	/* x86-64 kernels are linked as executables and modules are
	 * relocatable: a shared object or a PIE is user space, whose text no
	 * kernel table patches.  Looking for the tables' symbols in one would
	 * index the whole symbol table of every library a sample ran in by
	 * name, for nothing. */
	if (hmi_binary_elf_type(code) == ET_DYN) {
		*out = s;
		return 0;
	}
	if ((hmi_binary_elf_type(code) == ET_REL && !hmi_binary_is_module(code)) ||
	    hmi_binary_machine(code) != EM_X86_64 || hmi_binary_big_endian(code) ||
	    !hmi_binary_is_64bit(code)) {
		/* Another layout (or an object no loader lays out): say so
		 * if the tables are there, else there is nothing to patch. */
		if (hm_binary_symbol(syms, tables[0].start) ||
		    hmi_binary_section(code, ".altinstructions", NULL) ||
		    hmi_binary_section(code, "__jump_table", NULL))
			err = -ENOTSUP;
	} else {
		int module = hmi_binary_elf_type(code) == ET_REL;

		for (size_t i = 0; !err && i < sizeof(tables) / sizeof(tables[0]); i++)
			err = module ? read_module_table(s, code, &tables[i])
				     : read_table(s, code, syms, &tables[i]);
		if (!err) {
			if (s->n)
				qsort(s->v, s->n, sizeof(*s->v), cmp_site);
			dedup(s);
			err = merge(s);
		}
	}
	if (err) {
		hm_patch_sites_free(s);
		return err;
	}
	*out = s;
	return 0;
}

void hm_patch_sites_free(hm_patch_sites *s)
{
	if (!s)
		return;
	free(s->v);
	free(s->iv);
	free(s);
}

/* The interval holding pc, or NULL. */
static const struct ival *ival_at(const hm_patch_sites *s, uint64_t pc)
{
	size_t lo = 0, hi = s->niv;

	while (lo < hi) {	/* first interval with lo > pc */
		size_t mid = lo + (hi - lo) / 2;

		if (s->iv[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || pc >= s->iv[lo - 1].hi)
		return NULL;
	return &s->iv[lo - 1];
}

const struct hm_patch_site *hm_patch_sites_find(const hm_patch_sites *s, uint64_t pc)
{
	const struct ival *v = s ? ival_at(s, pc) : NULL;

	return v ? &s->v[v->site] : NULL;
}

const struct hm_patch_site *hm_patch_sites_ending(const hm_patch_sites *s, uint64_t pc)
{
	const struct ival *v = s && pc ? ival_at(s, pc - 1) : NULL;
	size_t i;

	if (!v)
		return NULL;
	/* A one-instruction site's end is not known here: only ranges. */
	for (i = v->site; i < s->n && s->v[i].addr < v->hi; i++)
		if (s->v[i].len && s->v[i].addr <= pc - 1 && pc - 1 - s->v[i].addr < s->v[i].len)
			return &s->v[i];
	return NULL;
}

const struct hm_patch_site *hm_patch_sites_insn_before(const hm_patch_sites *s, uint64_t pc)
{
	size_t lo = 0, hi = s ? s->n : 0;

	while (lo < hi) {	/* first site with addr >= pc */
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].addr < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* No instruction is longer than 15 bytes: the walk is bounded by the
	 * distinct sites in the 15 bytes before pc. */
	while (lo-- > 0 && pc - s->v[lo].addr < 16)
		if (!s->v[lo].len)
			return &s->v[lo];
	return NULL;
}

size_t hm_patch_sites_count(const hm_patch_sites *s, const struct hm_patch_site **sites)
{
	if (sites)
		*sites = s ? s->v : NULL;
	return s ? s->n : 0;
}
