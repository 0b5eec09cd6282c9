/* libFuzzer target: raw BTF (as /sys/kernel/btf/vmlinux), then a layout of
 * the structs it defines. */
#include "config.h"
#include <stddef.h>
#include <stdint.h>
#include "hitmap/layout.h"
#include "hitmap/types.h"
#include "btf.h"
#include "fuzz-diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hm_load_opts opts = { .variables = 1, .btf = 1, .no_cache = 1 };
	struct hm_layout_opts lo = { .cacheline_size = 64 };
	const hm_type_id *ids;
	hm_types *t;
	size_t n, i;

	fuzz_init();
	t = hm_types_new();
	if (!t)
		return 0;
	if (hm_btf_load_raw(data, size, "fuzz.btf", t, &opts) == 0) {
		n = hm_types_structs(t, &ids);
		for (i = 0; i < n && i < 64; i++)
			hm_layout_free(hm_layout_new(t, ids[i], &lo));
	}
	hm_types_free(t);
	return 0;
}
