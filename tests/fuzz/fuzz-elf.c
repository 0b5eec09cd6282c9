/* libFuzzer target: ELF + DWARF loading from memory, then a layout of every
 * struct found (the layout walks whatever the loader accepted).  The printer
 * is left to fuzz-btf: on inputs that hit its 16 MiB cap it takes 0.5 s in
 * an ordinary build but over 10 s with sanitizers and coverage. */
#include "config.h"
#include <stddef.h>
#include <stdint.h>
#include "hitmap/binary.h"
#include "hitmap/layout.h"
#include "hitmap/types.h"
#include "fuzz-diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hm_load_opts opts = { .variables = 1, .no_cache = 1 };
	struct hm_layout_opts lo = { .cacheline_size = 64 };
	hm_binary *bin;
	const hm_type_id *ids;
	hm_types *t = NULL;
	size_t n, i;

	fuzz_init();
	bin = hm_binary_open_mem(data, size, "fuzz.elf");
	if (!bin)
		return 0;
	if (hm_types_load(bin, &opts, &t) == 0) {
		n = hm_types_structs(t, &ids);
		for (i = 0; i < n && i < 64; i++)
			hm_layout_free(hm_layout_new(t, ids[i], &lo));
		hm_types_free(t);
	}
	hm_binary_close(bin);
	return 0;
}
