#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include "diag.h"

static hm_diag_fn diag_fn;
static void *diag_ctx;

void hm_set_diag(hm_diag_fn fn, void *ctx)
{
	diag_fn = fn;
	diag_ctx = ctx;
}

static void vdiag(enum hm_diag_level level, const char *fmt, va_list ap)
{
	char buf[1024];

	if (!diag_fn)
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	diag_fn(diag_ctx, level, buf);
}

void hm_diag(enum hm_diag_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(level, fmt, ap);
	va_end(ap);
}

int hm_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(HM_DIAG_ERROR, fmt, ap);
	va_end(ap);
	return -err;
}
