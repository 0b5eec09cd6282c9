/* libFuzzer target: the scope index's answers kept across runs (the
 * payload of a BUILD-ID.scopes file, dwarf-scope-answers.c), then every
 * answer asked back through the lookups, then a save and a read of what
 * was saved, which must hold as many answers (and the one noted). */
#include "config.h"
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf/dwarf-scope-int.h"
#include "hitmap/binary.h"
#include "fuzz-diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t touch(const char *s)
{
	return s ? strlen(s) : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the index needs a binary to open on a miss; every question
	 * below is one the answers hold, so it is never read */
	static hm_binary *bin;
	struct answers *y;
	hm_scopes *s;
	size_t n, len, sum = 0;
	void *blob;

	fuzz_init();
	/* no bytes would open the binary's DWARF (blob NULL): not this */
	if (!size)
		return 0;
	if (!bin && !(bin = hm_binary_open("/proc/self/exe")))
		return 0;
	if (hm_scopes_open_answers(bin, data, size, &s))
		return 0;
	n = s->answers->n;
	for (size_t i = 0; i < n; i++) {
		const struct answer a = s->answers->v[i];
		const struct hm_scope_var *v;
		struct hm_scope_var g;
		const char *f;
		unsigned d, fd;
		int rc;

		switch (a.kind) {
		case ANS_AT:
			rc = hm_scopes_at(s, a.pc, &v);
			for (int k = 0; k < rc; k++)
				sum += touch(v[k].name) + touch(v[k].func) + touch(v[k].record);
			break;
		case ANS_SCOPE:
			rc = hm_scopes_scope_at(s, a.pc, &f, &d, &fd);
			sum += rc == 1 ? touch(f) : 0;
			break;
		case ANS_GLOBAL:
			rc = hm_scopes_global(s, a.pc, a.name, &g);
			sum += rc == 1 ? touch(g.name) + touch(g.record) : 0;
			break;
		default:
			rc = hm_scopes_line_answer(s, a.pc, &f);
			sum += rc == 1 ? touch(f) : 0;
			break;
		}
		if (rc != a.rc || s->answers->n != n)
			__builtin_trap();	/* a lookup missed its answer */
	}
	(void)sum;
	hm_scopes_line_note(s, UINT64_MAX - 1, "fuzz.c:1");
	if (s->answers->n == n + 1) {
		if (hm_scopes_answers(s, &blob, &len) != 1)
			__builtin_trap();
		if (dws_answers_parse(blob, len, &y) || y->n != n + 1)
			__builtin_trap();	/* what was saved does not read back */
		dws_answers_free(y);
		free(blob);
	}
	hm_scopes_free(s);
	return 0;
}
