/* Shared by the fuzz targets: a diagnostics callback that enforces the
 * message contract (one non-empty line, no control characters) instead of
 * printing, so a malformed message counts as a crash the fuzzer reports. */
#ifndef HM_FUZZ_DIAG_H
#define HM_FUZZ_DIAG_H
#include <stdlib.h>
#include "hitmap/hitmap.h"

static void fuzz_diag(void *ctx, enum hm_diag_level level, const char *msg)
{
	const unsigned char *p = (const unsigned char *)msg;

	(void)ctx;
	(void)level;
	if (!*p)
		abort();
	for (; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			abort();
}

static inline void fuzz_init(void)
{
	static int done;

	if (!done) {
		hm_set_diag(fuzz_diag, NULL);
		done = 1;
	}
}
#endif
