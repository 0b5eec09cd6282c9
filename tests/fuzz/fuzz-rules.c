/* libFuzzer target: the rule-file parser, through the same entry point
 * `hitmap check --rules` uses after reading the file. */
#include "config.h"
#include <stddef.h>
#include <stdint.h>
#include "hitmap/rules.h"
#include "fuzz-diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hm_ruleset *rs;
	const char *const *names;
	size_t i, n;

	fuzz_init();
	rs = hm_ruleset_new();
	if (!rs)
		return 0;
	if (hm_ruleset_parse(rs, "fuzz.rules", (const char *)data, size) == 0) {
		/* Touch everything a consumer reads. */
		n = hm_ruleset_count(rs);
		for (i = 0; i < n; i++) {
			const hm_rule *r = hm_ruleset_rule(rs, i);
			unsigned a;

			for (a = 0; a < r->nr_args; a++)
				if (!r->args[a])
					__builtin_trap();
			(void)hm_rule_kind_name(r->kind);
		}
		for (names = hm_ruleset_structs(rs); names && *names; names++)
			;
		for (names = hm_ruleset_contended_types(rs); names && *names; names++)
			;
		(void)hm_ruleset_has_globals(rs);
	}
	hm_ruleset_free(rs);
	return 0;
}
