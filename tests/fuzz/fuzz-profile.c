/* libFuzzer target: the profile (JSON) loader, then a save of what was
 * loaded so the writer sees every value the loader accepted. */
#include "config.h"
#include <stddef.h>
#include <stdint.h>
#include "hitmap/heat.h"
#include "fuzz-diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hm_profile *p = NULL;
	hm_heat_counts c;
	char label[64];
	size_t i, j;

	fuzz_init();
	if (hm_profile_load_mem((const char *)data, size, "fuzz.json", &p) != 0)
		return 0;
	for (i = 0; i < p->nr_structs; i++) {
		const hm_profile_struct *s = &p->structs[i];

		if (hm_profile_find_struct(p, s->name) == NULL)
			__builtin_trap();
		for (j = 0; j < s->nr_fields; j++) {
			(void)hm_profile_find_field(s, s->fields[j].path);
			(void)hm_profile_member_counts(s, s->fields[j].path, &c);
			(void)hm_heat_field_label(s, s->fields[j].path, label,
						  sizeof(label));
		}
	}
	hm_profile_save(p, "/dev/null");
	hm_profile_free(p);
	return 0;
}
