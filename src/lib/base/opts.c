/* Options structs that carry their size: see base/opts.h. */
#include "config.h"
#include <errno.h>
#include <string.h>
#include "base/diag.h"
#include "base/opts.h"

int hm_opts_check(const void *opts, size_t sz, size_t known, const char *type)
{
	const unsigned char *p = opts;
	size_t i;

	if (!opts)
		return 0;
	/* Not even the sz member: a struct declared without HM_OPTS. */
	if (sz < sizeof(size_t))
		return hm_fail(EINVAL, "%s: sz %zu is too small (declare it with HM_OPTS)", type, sz);
	for (i = known; i < sz; i++)
		if (p[i])
			return hm_fail(EINVAL, "%s: byte %zu is set, past the %zu bytes this libhitmap knows",
				       type, i, known);
	return 0;
}

void *hm_opts_copy(void *dst, const void *opts, size_t sz, size_t known)
{
	if (!opts)
		return NULL;
	if (sz > known)
		sz = known;
	memset(dst, 0, known);
	memcpy(dst, opts, sz);
	/* The copy is sz bytes long now, whatever the caller's struct was: it
	 * may be handed on to another public function. */
	memcpy(dst, &sz, sizeof(sz));
	return dst;
}

int hm_opts_take(void *dst, const void *opts, size_t sz, size_t known, const char *type)
{
	int rc = hm_opts_check(opts, sz, known, type);

	if (rc)
		return rc;
	if (!hm_opts_copy(dst, opts, sz, known)) {
		memset(dst, 0, known);
		memcpy(dst, &known, sizeof(known));
	}
	return 0;
}
