/* Internal: suggest's model of a struct, shared by suggest.c, patch.c and
 * output-suggest.c. */
#ifndef HM_SUGGEST_INT_H
#define HM_SUGGEST_INT_H
#include "hitmap/suggest.h"
#include "suggest/suggest-lib.h"
#include "base/util.h"

/* A unit that moves as a whole: one direct member, or a run of bitfields. */
struct sg_ent {
	const char *name;	/* the (first) member's name; NULL = anonymous */
	uint32_t first, nr;	/* its members in the original type */
	uint64_t off0;		/* today's offset */
	uint64_t size;		/* bytes it covers */
	uint64_t unit_end;	/* blocks: end of the last storage unit */
	uint32_t align;		/* natural alignment */
	uint32_t attr;		/* explicit alignment attribute today, 0 = none */
	uint64_t loads, stores;	/* evidence on it and its sub-fields */
	unsigned bitrun : 1;
	unsigned hot : 1;	/* named by the evidence */
	unsigned written : 1;	/* written-hot (or, without counts, contended) */
	unsigned read_mostly : 1;	/* loaded, never stored, per the evidence */
};

struct sg_slot {
	int ent;		/* -1: explicit padding */
	uint32_t attr;		/* alignment attribute in this variant (padding
				 * with one: CACHELINE_PADDING, 0 bytes) */
	uint64_t pad;		/* padding bytes */
	const char *pad_name;
	uint64_t off;		/* computed */
	/* this slot opens an anonymous struct of `wrap_n` slots with alignment
	 * attribute `wrap` (0: none) */
	uint32_t wrap, wrap_n;
	uint8_t pkind;		/* padding: enum sg_pad_kind */
};

/* What a padding slot is besides `char padN[K]` or CACHELINE_PADDING: the
 * members __cacheline_group_begin_aligned() and _end_aligned() expand to. */
enum sg_pad_kind {
	SG_PAD_PLAIN = 0,
	SG_PAD_GBEGIN,		/* __u8 __cacheline_group_begin__G[0] __aligned(L) */
	SG_PAD_GEND,		/* __u8 __cacheline_group_end__G[0] __aligned(sizeof(long)) */
	SG_PAD_GPAD,		/* struct { } __cacheline_group_pad__G __aligned(L) */
};

struct sg_var {
	struct sg_slot *s;
	size_t n, cap;
	hm_edit *edits;
	size_t nedits, ecap;
	uint64_t *pos;		/* offset of each entry, by entry index */
	hm_suggest_stats st;
	int64_t growth;
	uint64_t inner_size;	/* sizeof the struct being edited */
	uint32_t inner_align;
	uint64_t base_off;	/* its offset in the outermost struct */
	size_t order;		/* generation order, the last tie-breaker */
	unsigned repairs;	/* `apart` pairs broken today it parts */
	/* the last nfix edits, and the title from fix_at on, are what
	 * straddle_fix() added: combinations leave them out and redo them */
	size_t nfix, fix_at;
	char title[200];
};

struct sg_range {
	uint64_t off, size;
};

/* A resolved evidence path: inside entry `ent` at `inner`, `size` bytes. */
struct sg_ref {
	int ent;
	uint64_t inner, size;
};

struct sg_pref {
	struct sg_ref a, b;
	unsigned ok : 1;
};

struct sg_gref {
	size_t n;
	struct sg_ref *r;
	unsigned strict : 1;
	unsigned ok : 1;
};

struct sg_ctx {
	hm_types *t;
	hm_type_id id;
	const char *name;
	const hm_evidence *ev;
	struct hm_suggest_opts opts;
	unsigned L;
	hm_arena arena;
	hm_member *mem;
	uint32_t nmem;
	uint32_t type_align;
	uint64_t size0;
	struct sg_ent *ents;
	size_t nents;
	const hm_ev_pair *pairs;
	size_t npairs;
	struct sg_pref *pref;
	const hm_ev_group *groups;
	size_t ngroups;
	struct sg_gref *gref;
	struct sg_var *today;
	struct sg_var **vars;
	size_t nvars;
	unsigned npads;
	hm_type_id linepad_type;	/* struct cacheline_padding, once needed */
	hm_type_id u8_array, empty_struct;	/* __u8[0] and struct { } */
	unsigned idioms;	/* SG_IDIOM_* the struct's debug info shows in use */
	/* Working inside an anonymous struct member (the kernel's
	 * `struct { ... } __randomize_layout;`): the enclosing struct's model
	 * and that member's entry in it; sizes and lines are the outer's. */
	struct sg_ctx *outer;
	int outer_ent;
	/* memory the variants hold (each copies every member's slot) and
	 * how many clones the budget refused */
	size_t var_bytes, var_budget, refused;
	/* indexes over the direct members (sg_build_entries): entry of each,
	 * the named ones by name, the anonymous ones in order */
	int *ent_of;
	struct sg_named {
		const char *name;
		uint32_t idx;
	} *by_name;
	uint32_t nby_name, *anon, nanon;
};

/* The kernel's ways to give members a line, as the struct already uses
 * them: with any in use, kernel style proposes only those. */
enum {
	SG_IDIOM_WRAP = 1u << 0,	/* struct { ... } ____cacheline_aligned_in_smp; */
	SG_IDIOM_LINEPAD = 1u << 1,	/* CACHELINE_PADDING(_padN_); */
	SG_IDIOM_GROUP = 1u << 2,	/* __cacheline_group_begin_aligned(G); */
};
unsigned sg_idioms_scan(const struct sg_ctx *c);
/* Whether kernel style proposes `idiom` for this struct. */
int sg_idiom_ok(const struct sg_ctx *c, unsigned idiom);

/* Variants tried per struct, at most. */
#define SG_MAX_VARIANTS 4096
/* Their memory, at most: candidates grow with hot members times holes and
 * each variant with the members, so a wide struct would otherwise need
 * memory cubic in its width.  Past this the search stops and says so. */
#define SG_VAR_BUDGET (256u << 20)

static inline uint64_t sg_align_up(uint64_t v, uint64_t a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

/* suggest-model.c: the model. */
int sg_build_entries(struct sg_ctx *c);
struct sg_var *sg_var_today(struct sg_ctx *c);
struct sg_var *sg_var_clone(struct sg_ctx *c, const struct sg_var *b);
int sg_slot_of(const struct sg_var *v, int ent);
void sg_title_add(struct sg_var *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Edits: 1 when the variant changed (and the edit was recorded), else 0. */
int sg_op_align(struct sg_ctx *c, struct sg_var *v, int ent);
int sg_op_move(struct sg_ctx *c, struct sg_var *v, int ent, int anchor);
int sg_op_pad(struct sg_ctx *c, struct sg_var *v, int after, uint64_t bytes);
/* Entries `first` to `last`, adjacent in v, into a line-aligned anonymous
 * struct.  Moves and padding refuse a variant that has one, or a cacheline
 * group (sg_var_wrapped()). */
int sg_op_wrap(struct sg_ctx *c, struct sg_var *v, int first, int last);
/* CACHELINE_PADDING after entry `after`. */
int sg_op_linepad(struct sg_ctx *c, struct sg_var *v, int after);
/* Entries `first` to `last`, adjacent in v, into cacheline group `name`. */
int sg_op_group(struct sg_ctx *c, struct sg_var *v, int first, int last, const char *name);
int sg_var_wrapped(const struct sg_var *v);
/* Offsets by the C rules; -1 when the variant would repack bitfields. */
int sg_var_compute(struct sg_ctx *c, struct sg_var *v);
double sg_share_frac(const struct sg_ctx *c, const struct sg_var *v,
		     const struct sg_range *a, size_t na, const struct sg_range *b, size_t nb);
double sg_pair_frac(const struct sg_ctx *c, const struct sg_var *v, size_t p);
void sg_var_score(struct sg_ctx *c, struct sg_var *v);
int sg_ent_of_member(const struct sg_ctx *c, uint32_t idx);
int sg_bitrun_ok(const struct sg_ctx *c, const struct sg_var *v, size_t i);
int sg_member_named(const struct sg_ctx *c, const char *name);
int sg_ent_named(const struct sg_ctx *c, const char *name);
int sg_replay_edit(struct sg_ctx *c, struct sg_var *v, const hm_edit *e);
int sg_shares_before(const struct sg_ctx *c, const struct sg_var *v, int x);

/* suggest-cand.c: every proposal tried, into c->vars. */
void sg_candidates(struct sg_ctx *c, hm_suggestion *s);
int sg_resolve(const struct sg_ctx *c, const char *path, struct sg_ref *r);
/* The first opts.apart pair v leaves on one line at some start, or SIZE_MAX. */
size_t sg_breaks_apart(const struct sg_ctx *c, const struct sg_var *v);

struct hm_suggestion;
typedef struct hm_suggestion hm_suggestion;

/* What hm_suggestion holds. */
struct hm_suggestion {
	hm_arena arena;
	hm_type_id id;
	const char *name;
	const hm_evidence *ev;
	hm_suggest_stats today;
	double total;
	size_t nshared;
	const hm_ev_pair **shared;
	size_t nprop;
	hm_proposal *prop;
	const char *why;
	char whybuf[400];
	const char **notes;
	size_t nnotes, capnotes;
};

#endif
