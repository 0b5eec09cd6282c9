/* Internal: emitting diagnostics through the callback set by hm_set_diag(). */
#ifndef HM_DIAG_INTERNAL_H
#define HM_DIAG_INTERNAL_H
#include "hitmap/hitmap.h"

/* Format one diagnostic line and hand it to the callback. */
void hm_diag(enum hm_diag_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Report an error and return -err (err is a positive errno), so callers can write
 * `return hm_fail(EBADMSG, "%s: bad magic", name);` */
int hm_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Count this thread's diagnostics (by level) instead of passing them to the
 * callback while c is installed; NULL restores delivery.  Returns the
 * previous counter.  For a speculative attempt whose messages would only
 * confuse when it is abandoned (the type cache's full load). */
struct hm_diag_count {
	unsigned n[4];
};
struct hm_diag_count *hm_diag_divert(struct hm_diag_count *c);

/* How many errors, warnings and notes this thread has said (delivered or
 * diverted) since it started: what was computed while the count stood
 * still said nothing, so a cache of it loses no message. */
unsigned long hm_diag_said(void);

/* How many diagnostics c counted, of every level. */
static inline unsigned hm_diag_count_total(const struct hm_diag_count *c)
{
	return c->n[0] + c->n[1] + c->n[2] + c->n[3];
}

#endif
