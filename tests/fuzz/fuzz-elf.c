/* libFuzzer target: ELF + DWARF loading from memory, then a layout of every
 * struct found (the layout walks whatever the loader accepted), and every
 * line table of .debug_line run the way report's code locations run it, and
 * the kernel patch-site tables (elf/patchsites.c: a vmlinux's by their
 * symbols; a module's, ET_REL with .gnu.linkonce.this_module, through
 * their relocations, elf/reloc.c; seed fx-patch-mod.o).  The printer
 * is left to fuzz-btf: on inputs that hit its 16 MiB cap it takes 0.5 s in
 * an ordinary build but over 10 s with sanitizers and coverage. */
#include "config.h"
#include <stddef.h>
#include <stdint.h>
#include "hitmap/binary.h"
#include "hitmap/layout.h"
#include "hitmap/types.h"
#include "dwarf/dwline.h"
#include "elf/patchsites.h"
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
