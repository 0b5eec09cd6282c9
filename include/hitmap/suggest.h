/* suggest: where the members of a struct should go, what each placement costs
 * in bytes, how much of the measured (or declared) contention it leaves, and a
 * patch against the declaring source.
 *
 * The engine works on evidence in one neutral form, whatever produced it:
 *  - hot fields: a member path with its loads, stores and CPU count;
 *  - contending pairs: two member paths seen fighting over a line, with a
 *    weight (samples from a profile; 1 for a rule or a lint finding);
 *  - written-hot groups: members that want a line to themselves (a truly
 *    shared field, an `alone` rule, a set of per-thread counters).
 * Adapters fill it from a profile (heat.h), from rule files (rules.h: `apart`
 * and `alone`) and from lint findings (findings.h) — the weakest kind, which
 * the output names as such.
 *
 * Proposals are computed on a model of the C layout rules: the engine first
 * replays the struct's own member list and refuses to propose anything when
 * the replay does not give back the compiler's offsets exactly (packed
 * structs; C++ bases are refused outright).  Runs of bitfields, with any
 * ordinary member sharing their storage, stay in one piece.  Each
 * proposal is also added to the type table as a hypothetical struct (same
 * name, edited member list) so that hm_layout_new() and the
 * normal printer show it exactly as `hitmap layout` would show the patched
 * build.
 *
 * Predicted remaining contention: every pair's weight re-mapped onto the
 * proposed layout, counted when the pair still shares a line.  When the
 * object's start is not pinned to a line boundary (alignment below the line
 * size, no assume_aligned), the weight is spread evenly over every start the
 * alignment allows, so a pair that shares a line for 1 start of 8 keeps 1/8 of
 * its weight.
 *
 * Ownership: hm_evidence_new() and the adapters return evidence freed with
 * hm_evidence_free(); it copies every string it is given, and must outlive
 * any suggestion made from it (proposals point at its pairs).  hm_suggest()
 * returns a suggestion freed with hm_suggestion_free(); every pointer reachable
 * from it is owned by it, except the hypothetical struct types, which live in
 * the hm_types table passed in (that table must outlive the suggestion).
 */
#ifndef HITMAP_SUGGEST_H
#define HITMAP_SUGGEST_H
#include <stdbool.h>
#include <stddef.h>
#include "hitmap/hitmap.h"
#include <stdint.h>
#include <stdio.h>
#include "hitmap/binary.h"
#include "hitmap/types.h"
#include "hitmap/layout.h"
#include "hitmap/heat.h"
#include "hitmap/rules.h"
#include "hitmap/findings.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Evidence ---- */

enum hm_evidence_kind {
	HM_EVIDENCE_PROFILE = 0,	/* measured samples */
	HM_EVIDENCE_RULES = 1,		/* a human said so */
	HM_EVIDENCE_LINT = 2,		/* static guess from member types: weakest */
};

typedef struct hm_ev_field {
	const char *path;
	uint64_t loads, stores;
	uint32_t nr_cpus;
} hm_ev_field;

typedef struct hm_ev_pair {
	const char *a, *b;
	uint64_t weight;	/* samples, or 1 per rule / lint finding */
} hm_ev_pair;

typedef struct hm_ev_group {
	size_t nr;
	const char *const *paths;	/* members that want their line(s) alone */
	uint64_t weight;
	/* 1: nothing else may share their lines (an `alone` rule); 0: no other
	 * field of the evidence may (a truly shared field in a profile) */
	unsigned strict : 1;
} hm_ev_group;

typedef struct hm_evidence hm_evidence;

void hm_evidence_free(hm_evidence *ev);
/* Add a pair (either order adds to its weight).  0 or -ENOMEM. */
int hm_evidence_add_pair(hm_evidence *ev, const char *a, const char *b, uint64_t weight);
const hm_ev_pair *hm_evidence_pairs(const hm_evidence *ev, size_t *n);

/* The evidence a run has, for hm_evidence_pick().  Any of profile, rules
 * and lint may be NULL; each label is the `source` its evidence carries. */
struct hm_evidence_inputs {
	size_t sz;			/* sizeof(struct hm_evidence_inputs) */
	const hm_profile *profile;
	const char *profile_source;	/* "profile FILE" */
	const hm_ruleset *rules;
	const char *rules_source;	/* "rules FILE" */
	const hm_findings *lint;
	const char *lint_source;	/* "lint (...)" */
};

/* The strongest evidence about struct `name`, by a fixed precedence: the
 * profile when it has the struct (or when there is nothing else: then empty
 * profile evidence, so the output says the profile saw nothing); else the
 * rules, unless they say nothing about it and there is lint; else lint.
 * 0 and *out, or a negative errno (-EINVAL: bad sz, or no input at all). */
int hm_evidence_pick(const char *name, const struct hm_evidence_inputs *in,
		     hm_evidence **out);

/* ---- Proposals ---- */

enum hm_suggest_style {
	HM_STYLE_AUTO = 0,	/* kernel for a vmlinux, else gnu (hm_suggest_opts_defaults()) */
	HM_STYLE_KERNEL,	/* ____cacheline_aligned_in_smp */
	HM_STYLE_GNU,		/* __attribute__((aligned(N))) */
	HM_STYLE_C11,		/* _Alignas(N) */
	HM_STYLE_CXX,		/* alignas(N) */
};

struct hm_suggest_opts {
	size_t sz;			/* sizeof(struct hm_suggest_opts): declare with HM_OPTS */
	unsigned cacheline_size;	/* 0 = 64 */
	/* spelling, and three proposal kinds: the aligned anonymous struct
	 * (HM_EDIT_WRAP), CACHELINE_PADDING (HM_EDIT_LINEPAD) and cacheline
	 * groups (HM_EDIT_GROUP) are tried in kernel style only */
	enum hm_suggest_style style;
	/* bytes sizeof may grow; UINT64_MAX = any (hm_suggest_opts_defaults()
	 * reads it as left open: two lines) */
	uint64_t max_growth;
	bool keep_size;		/* sizeof must not change */
	bool assume_aligned;	/* objects start on a line boundary */
	/* The compiler records a struct's alignment in its debug info once a
	 * member carries an alignment attribute (GCC does, clang does not), so
	 * the hypothetical struct must say it too to print like the rebuild.
	 * hm_suggest_opts_defaults() tells from the binary. */
	bool records_struct_align;
	unsigned max_proposals;		/* 0 = 8 */
	/* Pairs of member paths no proposal may leave on one line (the
	 * `apart` rules): apart[2k] and apart[2k + 1].  Where the object
	 * starts a line (assume_aligned, or a line-aligned struct), a proposal
	 * that does is left out, with a note, and padding is added before a
	 * member whose own two words are such a pair so that they straddle. */
	const char *const *apart;
	size_t nr_apart;
};

enum hm_edit_kind {
	HM_EDIT_ALIGN = 0,	/* member gets alignment `value` (a line) */
	HM_EDIT_MOVE,		/* member goes after `anchor` (NULL = to the top) */
	HM_EDIT_PAD,		/* `value` bytes of explicit padding after member */
	/* members `member` to `anchor` (the last, itself when one), adjacent,
	 * go into an anonymous struct with alignment `value` (a line): the
	 * kernel's `struct { ... } ____cacheline_aligned_in_smp;` */
	HM_EDIT_WRAP,
	/* the kernel's `CACHELINE_PADDING(pad_name);` after member: an empty
	 * member aligned to `value` (a line), so what follows starts a line */
	HM_EDIT_LINEPAD,
	/* members `member` to `anchor`, adjacent, between Linux 6.x's
	 * `__cacheline_group_begin_aligned(pad_name);` and
	 * `__cacheline_group_end_aligned(pad_name);` (alignment `value`) */
	HM_EDIT_GROUP,
};

typedef struct hm_edit {
	enum hm_edit_kind kind;
	const char *member;	/* a direct member of the struct */
	const char *anchor;	/* MOVE: the member it follows, NULL = first;
				 * WRAP, GROUP: the last member in it */
	const char *pad_name;	/* PAD, LINEPAD: the new member's name;
				 * GROUP: the group's */
	uint64_t value;		/* ALIGN, WRAP, LINEPAD: alignment in bytes; PAD: bytes */
} hm_edit;

/* Layout numbers of one variant (today's or a proposal's). */
typedef struct hm_suggest_stats {
	uint64_t size;
	uint32_t alignment;
	uint32_t cachelines;
	uint32_t holes;		/* holes between members (not tail padding) */
	uint64_t sum_holes;
	uint64_t padding;	/* tail padding */
	double remaining;	/* evidence weight still on shared lines */
	unsigned base_known : 1;	/* object start pinned to a line boundary */
} hm_suggest_stats;

typedef struct hm_proposal {
	const char *title;	/* "align mmap_lock", "move mmap_lock to the top" */
	size_t nr_edits;
	const hm_edit *edits;
	hm_suggest_stats stats;
	int64_t growth;		/* stats.size - today's size */
	size_t nr_separated;
	const hm_ev_pair *const *separated;	/* pairs sharing today, apart here */
	hm_type_id type;	/* the hypothetical struct in the table */
	/* The struct whose members the edits name: the struct itself, or the
	 * anonymous struct inside it that holds every member the evidence
	 * names (what hm_suggest_patch() edits). */
	hm_type_id edit_type;
} hm_proposal;

typedef struct hm_suggestion hm_suggestion;

/* Propose placements for struct `id` of `t` given `ev`.  When every member
 * the evidence names sits inside one anonymous struct member (the kernel's
 * `struct { ... } __randomize_layout;`), the proposals move members inside
 * it and sizes are those of the outer struct.  The hypothetical structs are
 * appended to `t`, which is why it is not const: every hm_type and
 * hm_member pointer taken from `t` earlier, and every hm_layout built
 * earlier, is invalid afterwards (ids and names stay valid).  Returns 0
 * and sets *out — a suggestion with zero proposals when the evidence is
 * empty, nothing shares a line today, the type is a union, its layout is
 * not the plain C rules (packed), or nothing helps within the constraints
 * (hm_suggestion_why() says which) — or -EINVAL (not a struct, C++ bases;
 * reported), -ENOMEM. */
int hm_suggest(hm_types *t, hm_type_id id, const hm_evidence *ev,
	       const struct hm_suggest_opts *opts, hm_suggestion **out);
void hm_suggestion_free(hm_suggestion *s);

hm_type_id hm_suggestion_type(const hm_suggestion *s);
/* Proposals, best first: most contention removed per byte added (the
 * bytes plus one line, so free proposals compare too), then least remaining
 * contention, fewest bytes added, fewest edits. */
size_t hm_suggestion_count(const hm_suggestion *s);
const hm_proposal *hm_suggestion_get(const hm_suggestion *s, size_t i);
/* Why there are no proposals (NULL when there are). */
const char *hm_suggestion_why(const hm_suggestion *s);

/* Fill in what opts leaves to the binary, as `hitmap suggest` does, for
 * the types `t` read from `bin` (NULL: a raw BTF file, a kernel's):
 * cacheline_size 0 becomes the line size of t's machine
 * (hm_types_cacheline_size()); max_growth UINT64_MAX becomes two lines;
 * style HM_STYLE_AUTO becomes HM_STYLE_KERNEL for a Linux kernel (bin
 * defines linux_banner, or is NULL) and HM_STYLE_GNU otherwise;
 * records_struct_align is set to whether bin's compiler records a
 * struct's alignment (GCC does, clang does not; raw BTF: GCC, the
 * kernel's).  Call it before hm_suggest(), after setting what the caller
 * chose.  0, or -EINVAL (t or opts NULL, or opts of a size this library
 * does not know). */
int hm_suggest_opts_defaults(const hm_types *t, const hm_binary *bin,
			     struct hm_suggest_opts *opts);

/* ---- Patch ---- */

/* A unified diff, applying with `patch -p1` in `source_root`, that turns the
 * declaration of struct `id` (its decl_file:decl_line) into proposal p.
 * *out is a malloc'd string the caller frees.  Returns 0, -ENOENT when the
 * declaring file cannot be found under source_root, -ENOTSUP when a member's
 * declaration cannot be edited safely (macros, several declarators on a line,
 * preprocessor conditionals); the reason goes to the diagnostics callback. */
int hm_suggest_patch(const hm_types *t, hm_type_id id, const hm_proposal *p,
		     enum hm_suggest_style style, unsigned line_size,
		     const char *source_root, char **out);

/* ---- Output ---- */

/* Text: the evidence, today's contention, then each proposal with its edits,
 * cost, pairs separated, remaining contention and its layout as `hitmap
 * layout` prints it.  `only` > 0 prints proposal `only` (1-based) alone. */
int hm_suggest_print_text(FILE *out, const hm_suggestion *s, const hm_types *t,
			  const struct hm_suggest_opts *opts, size_t only);
/* The layout of proposal i (0-based), exactly as `hitmap layout` prints it. */
int hm_suggest_print_layout(FILE *out, const hm_suggestion *s, const hm_types *t,
			    const struct hm_suggest_opts *opts, size_t i);

/* One JSON document (schema "hitmap/1", command "suggest") for the
 * suggestions s[0..n) about binary `bin`; each proposal carries its layout
 * text as `hitmap layout` prints it. */
int hm_suggest_print_json(FILE *out, const struct hm_json_binary *bin,
			  const hm_suggestion *const *s, size_t n, const hm_types *t,
			  const struct hm_suggest_opts *opts);

/* The same as one self-contained HTML page (see hm_layouts_print_html() in
 * output.h): for each proposal, today's layout and the proposal's side by
 * side, with its byte cost, the pairs it separates and the contention left;
 * the suggest JSON (hm_suggest_print_json()) is in the page as it is. */
int hm_suggest_print_html(FILE *out, const struct hm_json_binary *bin,
		    const hm_suggestion *const *s, size_t n, const hm_types *t,
		    const struct hm_suggest_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
