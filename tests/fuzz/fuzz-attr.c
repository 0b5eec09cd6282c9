/* libFuzzer target: the attribution's answers kept across runs (the
 * payload of a BUILD-ID.attr file, attribute-answers.c), read as a run
 * reads them (each found by its key, its names interned, an instruction's
 * made into a resolution) and saved again; what was saved must read back
 * to as many answers and save to the same bytes. */
#include "config.h"
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "attr/attribute-lib.h"
#include "fuzz-diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	void *a = NULL, *b = NULL;
	size_t na, nb;
	int n, m;

	fuzz_init();
	n = hmi_attr_answers_check(data, size, &a, &na);
	if (n == -EPROTO)
		__builtin_trap();	/* an answer not found by its key */
	if (n < 0)
		return 0;
	m = hmi_attr_answers_check(a, na, &b, &nb);
	if (m != n || nb != na || memcmp(a, b, na))
		__builtin_trap();	/* what was saved does not read back */
	free(a);
	free(b);
	return 0;
}
