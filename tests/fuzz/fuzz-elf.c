/* libFuzzer target: ELF + DWARF loading from memory, then a layout of every
 * struct found (the layout walks whatever the loader accepted), and every
 * line table of .debug_line run the way report's code locations run it, and
 * the kernel patch-site tables (elf/patchsites.c: a vmlinux's by their
 * symbols; a module's, ET_REL with .gnu.linkonce.this_module, through
 * their relocations, elf/reloc.c; seed fx-patch-mod.o), and the input as
 * a kcore copy (elf/kcore.c: an ELF core file; seed kcore-fx) and as its
 * kallsyms beside a fixed one-segment core.  The printer
 * is left to fuzz-btf: on inputs that hit its 16 MiB cap it takes 0.5 s in
 * an ordinary build but over 10 s with sanitizers and coverage. */
#include "config.h"
#include <stddef.h>
#include <stdint.h>
#include "hitmap/binary.h"
#include "hitmap/layout.h"
#include "hitmap/types.h"
#include "dwarf/dwline.h"
#include <elf.h>
#include <string.h>
#include "elf/patchsites.h"
#include "elf/kcore.h"
#include "fuzz-diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int row(void *arg, const struct hm_dwl_row *r)
{
	const struct hm_dwl_unit *u = arg;
	char buf[256];

	hm_dwl_path(u, r->file, "/comp", buf, sizeof(buf));
	return 0;
}

static void line_tables(hm_binary *bin)
{
	struct hm_dwl_secs s;
	uint64_t off = 0;

	hm_dwl_secs_of(bin, &s);
	while (s.line && off < s.nline) {
		struct hm_dwl_unit u;
		const char *what;

		if (hm_dwl_unit_read(&s, off, &u, &what))
			break;
		hm_dwl_rows(&u, row, &u);
		off = (uint64_t)(u.end - s.line);
		hm_dwl_unit_free(&u);
	}
}

/* A kernel's patch-site tables, and lookups at and around each site. */
static void patch_sites(hm_binary *bin)
{
	const struct hm_patch_site *v;
	hm_patch_sites *ps;
	size_t n, i;

	if (hm_patch_sites_read(bin, NULL, &ps))
		return;
	n = hm_patch_sites_count(ps, &v);
	for (i = 0; i < n && i < 256; i++) {
		hm_patch_sites_find(ps, v[i].addr + v[i].len);
		hm_patch_sites_ending(ps, v[i].addr + v[i].len);
		hm_patch_sites_ending(ps, v[i].addr);
	}
	hm_patch_sites_free(ps);
}

/* The input as perf record --kcore's kcore (with a fixed kallsyms), its
 * bytes looked up around each segment's start, checked against bin; then
 * as the kallsyms of a fixed core. */
static void kcore(const uint8_t *data, size_t size, const hm_binary *bin)
{
	static const char ks[] = "ffffffff81000000 T _stext\nffffffff81000010 t f\n"
				 "ffffffff81000010 t f\nffffffffc0000000 t m\t[mod]\n";
	static unsigned char core[sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr) + 32];
	size_t n, agree, compared;
	uint64_t off;
	hm_kcore *k;

	if (!hm_kcore_open_mem(data, size, ks, sizeof(ks) - 1, "fuzz", &k)) {
		hm_kcore_bytes(k, 0xffffffff81000000, 16, &n);
		hm_kcore_bytes(k, 0, 1, &n);
		hm_kcore_bytes(k, UINT64_MAX, 16, &n);
		if (bin)
			hm_kcore_check(k, bin, &off, &agree, &compared);
		hm_kcore_free(k);
	}
	if (!core[0]) {
		Elf64_Ehdr eh = { .e_type = ET_CORE, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
				  .e_phoff = sizeof(Elf64_Ehdr), .e_ehsize = sizeof(Elf64_Ehdr),
				  .e_phentsize = sizeof(Elf64_Phdr), .e_phnum = 1 };
		Elf64_Phdr ph = { .p_type = PT_LOAD, .p_flags = PF_R | PF_X,
				  .p_offset = sizeof(eh) + sizeof(ph), .p_vaddr = 0xffffffff81000000,
				  .p_filesz = 32, .p_memsz = 32 };

		memcpy(eh.e_ident, ELFMAG, SELFMAG);
		eh.e_ident[EI_CLASS] = ELFCLASS64;
		eh.e_ident[EI_DATA] = ELFDATA2LSB;
		eh.e_ident[EI_VERSION] = EV_CURRENT;
		memcpy(core, &eh, sizeof(eh));
		memcpy(core + sizeof(eh), &ph, sizeof(ph));
	}
	if (!hm_kcore_open_mem(core, sizeof(core), (const char *)data, size, "fuzz", &k)) {
		hm_kcore_symbol(k, "_stext", &off);
		if (bin)
			hm_kcore_check(k, bin, &off, &agree, &compared);
		hm_kcore_free(k);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* no search of the file system for a debug file: a fuzzed debuglink
	 * would make the run depend on the folder it runs in */
	struct hm_load_opts opts = { .sz = sizeof(opts), .variables = 1, .no_debuginfo_lookup = 1 };
	HM_OPTS(hm_layout_opts, lo, .cacheline_size = 64);
	hm_binary *bin;
	const hm_type_id *ids;
	hm_types *t = NULL;
	size_t n, i;

	fuzz_init();
	bin = hm_binary_open_mem(data, size, "fuzz.elf");
	kcore(data, size, bin);
	if (!bin)
		return 0;
	line_tables(bin);
	patch_sites(bin);
	if (hm_types_load(bin, &opts, &t) == 0) {
		n = hm_types_structs(t, &ids);
		for (i = 0; i < n && i < 64; i++)
			hm_layout_free(hm_layout_new(t, ids[i], &lo));
		hm_types_free(t);
	}
	hm_binary_close(bin);
	return 0;
}
