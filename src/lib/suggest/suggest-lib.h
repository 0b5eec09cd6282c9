/* Internal to libhitmap, shared between its folders: building and reading
 * the evidence suggest works from (suggest/evidence.c), beyond what
 * hitmap/suggest.h gives the command (hm_evidence_pick() and the pairs),
 * and what the printers read of a suggestion (suggest/suggest.c). */
#ifndef HM_SUGGEST_LIB_H
#define HM_SUGGEST_LIB_H
#include <stddef.h>
#include <stdint.h>
#include "hitmap/suggest.h"

/* New, empty evidence about struct `name`; `source` says where it came from
 * ("profile p.json", "rules mm.rules") and is copied.  NULL + ENOMEM. */
hm_evidence *hmi_evidence_new(const char *name, enum hm_evidence_kind kind, const char *source);

/* Add a hot field, a group (a pair: hm_evidence_add_pair()).  0 or
 * -ENOMEM.  A field added twice has its counters summed. */
int hmi_evidence_add_field(hm_evidence *ev, const char *path, uint64_t loads, uint64_t stores,
			   uint32_t nr_cpus);
int hmi_evidence_add_group(hm_evidence *ev, const char *const *paths, size_t nr,
			   uint64_t weight, int strict);

const char *hmi_evidence_name(const hm_evidence *ev);
enum hm_evidence_kind hmi_evidence_kind(const hm_evidence *ev);
const char *hmi_evidence_source(const hm_evidence *ev);
const hm_ev_field *hmi_evidence_fields(const hm_evidence *ev, size_t *n);
const hm_ev_group *hmi_evidence_groups(const hm_evidence *ev, size_t *n);
/* Whether its non-strict groups are a profile's truly shared groups (the
 * fields each line truly shared, together), not a profile's truly shared
 * fields one by one, as profiles written before the groups give them. */
int hmi_evidence_true_groups(const hm_evidence *ev);
/* Whether there is any contention to act on (a pair or a group). */
int hmi_evidence_empty(const hm_evidence *ev);
/* "profile", "rules", "lint" */
const char *hmi_evidence_kind_name(enum hm_evidence_kind kind);

/* Adapters.  Each returns 0 and sets *out (possibly empty evidence), or a
 * negative errno.  `source` is copied into the evidence. */

/* A profile struct: every field with its loads/stores/CPUs (watchpoint reads
 * and writes count as loads and stores), every contending pair weighing its
 * HITMs when the profile has them, else its line transfers, else its
 * samples, and every truly shared group (the fields a line truly shared
 * together) as a non-strict group; a profile without groups (older than
 * them) gives each truly shared field as a group of one. */
int hmi_evidence_from_profile(const hm_profile_struct *ps, const char *source,
			      hm_evidence **out);

/* Rules about struct `name`: `apart A B C` gives the pairs (A,B) (A,C) (B,C)
 * with weight 1, `alone A B` a strict group of weight 1.  Other directives
 * are not placement evidence and are skipped. */
int hmi_evidence_from_rules(const hm_ruleset *rs, const char *name, const char *source,
			    hm_evidence **out);

/* Lint findings about struct `name`: the first member a finding names (the
 * contention-prone one) paired with each of the others, weight 1; with
 * "lint-read-mostly" findings the others count as read-mostly (a load, no
 * store), otherwise as written. */
int hmi_evidence_from_findings(const hm_findings *f, const char *name, const char *source,
			       hm_evidence **out);

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

/* kslab.c: for a kernel struct whose slab cache is created with
 * SLAB_HWCACHE_ALIGN, the file:line that creates it; else NULL. */
const char *hmi_kslab_where(const char *type);

#endif
