#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include "base/diag.h"

static hm_diag_fn diag_fn;
static void *diag_ctx;

void hm_set_diag(hm_diag_fn fn, void *ctx)
{
	diag_fn = fn;
	diag_ctx = ctx;
}

/* Messages quote names taken from input files (perf.data MMAP names, rule
 * tokens, DWARF strings): control bytes are escaped as \xNN so a hostile file
 * can neither split a diagnostic line nor drive the terminal. */
static void escape_ctl(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (; *in && o + 5 < len; in++) {
		unsigned char c = (unsigned char)*in;

		if (c < 0x20 || c == 0x7f)
			o += snprintf(out + o, len - o, "\\x%02x", c);
		else
			out[o++] = (char)c;
	}
	out[o] = 0;
}

/* per thread: a loader's speculative attempt must not disturb another
 * thread's messages */
static __thread struct hm_diag_count *diverted;
static __thread unsigned long said;

unsigned long hm_diag_said(void)
{
	return said;
}

struct hm_diag_count *hm_diag_divert(struct hm_diag_count *c)
{
	struct hm_diag_count *prev = diverted;

	diverted = c;
	return prev;
}

static void vdiag(enum hm_diag_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void vdiag(enum hm_diag_level level, const char *fmt, va_list ap)
{
	char buf[1024], esc[1024];

	if (level != HM_DIAG_DEBUG)
		said++;
	if (diverted) {
		if ((unsigned)level < 4)
			diverted->n[level]++;
		return;
	}
	if (!diag_fn)
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	escape_ctl(buf, esc, sizeof(esc));
	diag_fn(diag_ctx, level, esc);
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
