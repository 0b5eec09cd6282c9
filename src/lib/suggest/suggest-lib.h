/* Internal to libhitmap, shared between its folders: what the printers read
 * of a suggestion beyond hitmap/suggest.h (suggest/suggest.c). */
#ifndef HM_SUGGEST_LIB_H
#define HM_SUGGEST_LIB_H
#include <stddef.h>
#include <stdint.h>
#include "hitmap/suggest.h"

/* The evidence the suggestion was made from. */
const hm_evidence *hmi_suggestion_evidence(const hm_suggestion *s);
/* The layout numbers of the struct as it is. */
const hm_suggest_stats *hmi_suggestion_today(const hm_suggestion *s);
/* Sum of the evidence weights (the denominator of every ratio). */
double hmi_suggestion_total(const hm_suggestion *s);
/* Pairs of the evidence that share a line today, heaviest first. */
const hm_ev_pair *const *hmi_suggestion_shared(const hm_suggestion *s, size_t *n);
/* Notes gathered while proposing (paths not found, constraints that removed
 * proposals), one line each, NULL-terminated. */
const char *const *hmi_suggestion_notes(const hm_suggestion *s);

/* The declaration text an ALIGN edit adds in `style` for alignment `bytes`
 * ("____cacheline_aligned_in_smp", "__attribute__((aligned(64)))",
 * "_Alignas(64)", "alignas(64)"), written to buf.  Returns the length. */
int hmi_suggest_align_text(enum hm_suggest_style style, unsigned line_size, uint64_t bytes,
			   char *buf, size_t len);

#endif
