/* libFuzzer target: raw BTF (as /sys/kernel/btf/vmlinux), then a layout of
 * the structs it defines and their pahole-style printout, expanded (to
 * /dev/null: the printer walks types on its own, apart from the layout). */
#include "config.h"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "hitmap/layout.h"
#include "hitmap/output.h"
#include "hitmap/types.h"
#include "btf/btf.h"
#include "types/types-int.h"
#include "fuzz-diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hm_load_opts opts = { .sz = sizeof(opts), .variables = 1, .btf = 1 };
	HM_OPTS(hm_layout_opts, lo, .cacheline_size = 64);
	HM_OPTS(hm_print_opts, po, .cacheline_size = 64, .expand = 1, .annotate = 1);
	static FILE *null;
	const hm_type_id *ids;
	hm_types *t;
	size_t n, i;

	fuzz_init();
	if (!null && !(null = fopen("/dev/null", "w")))
		return 0;
	t = hm_types_new();
	if (!t)
		return 0;
	/* as hm_types_load_btf_file() does: loading, then the cycle checks */
	if (hm_btf_load_raw(data, size, "fuzz.btf", t, &opts) == 0 &&
	    hm_types_check_chains(t, "fuzz.btf") == 0) {
		n = hm_types_structs(t, &ids);
		for (i = 0; i < n && i < 64; i++) {
			hm_layout_free(hm_layout_new(t, ids[i], &lo));
			hm_layout_print(null, t, ids[i], &po);
		}
	}
	hm_types_free(t);
	return 0;
}
