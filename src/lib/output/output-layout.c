/* output-layout: the pahole-compatible text body.
 *
 * The spacing rules are pahole 1.24's (columns of 26 and 23, 8 fewer per
 * nesting level, the quirks of its type names such as "const char  *"), so a
 * kernel developer can diff hitmap's output against pahole's.  Where pahole
 * prints something that is not the C truth — qualifiers on pointers, lost
 * declarators, `const struct {…} name`, `_Atomic`, union summaries, C++ base
 * accounting — hitmap prints the truth instead (hitmap-layout(1) lists them;
 * tests/layout/pahole-faults.sh proves each one with the compiler). */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/output.h"
#include "base/opts.h"
#include "base/util.h"
#include "layout/layout-lib.h"
#include "output/output-int.h"
#include "types/declare.h"
#include "types/types-lib.h"

#define GROUP_BEGIN "__cacheline_group_begin__"
#define GROUP_END "__cacheline_group_end__"

/* The library's string builder (base/util.h), by the short names this
 * printer has always used for it. */
#define sb hm_sbuf
#define sb_putn hm_sbuf_putn
#define sb_puts hm_sbuf_puts
#define sb_printf hm_sbuf_printf

static void sb_spaces(struct sb *b, int n)
{
	while (n-- > 0)
		sb_putn(b, " ", 1);
}

/* "%-*s" (a negative width, as deep nesting gives, counts as positive) */
static void sb_pad(struct sb *b, const char *s, int width)
{
	int n = (int)strlen(s);

	if (width < 0)
		width = -width;
	sb_putn(b, s, (size_t)n);
	sb_spaces(b, width - n);
}

static void sb_tabs(struct sb *b, int n)
{
	if (n > 16)	/* pahole's limit: deeper levels stay at 16 tabs */
		n = 16;
	while (n-- > 0)
		sb_putn(b, "\t", 1);
}

/* ---- printing context ---- */

struct pctx {
	const hm_types *t;
	unsigned line;
	int annotate;
	struct sb *b;
	const struct hm_print_hooks *hooks;	/* NULL: none */
	hm_type_id top;				/* the id the caller asked for */
};

/* Where hmi_print_note() writes: after a member's line (a new line first),
 * or before a closing line (a whole line). */
struct hm_print_notes {
	const struct pctx *c;
	int indent;
	int before_close;
};

struct pconf {
	int indent;
	int type_spacing, name_spacing;
	uint64_t base_offset;
	uint32_t *cachelinep;
	const char *suffix;
	const char *prefix;
	/* the path of this level's members (as hm_field.path) for the hooks;
	 * NULL when nothing addresses them */
	const char *path;
	const char *member_path;	/* the member being printed's */
	unsigned plevel;		/* hm_field.depth of this level's members */
	uint64_t union_size;		/* size of the union whose members these are, else 0 */
	unsigned emit_stats : 1;
	unsigned expand : 1;
	unsigned rel_offset : 1;
	unsigned union_member : 1;
	unsigned first_member : 1;
	unsigned last_member : 1;
	unsigned member_packed : 1;	/* this member sits off its alignment */
};

static const hm_type *T(const struct pctx *c, hm_type_id id)
{
	return id ? hm_types_get(c->t, id) : NULL;
}

static int is_qual(enum hm_type_kind k)
{
	return k == HM_KIND_CONST || k == HM_KIND_VOLATILE || k == HM_KIND_RESTRICT ||
	       k == HM_KIND_ATOMIC;
}

/* Skip qualifiers (not typedefs). */
static hm_type_id skip_quals(const struct pctx *c, hm_type_id id)
{
	unsigned guard = 0;
	const hm_type *ty;

	while ((ty = T(c, id)) && is_qual(ty->kind) && guard++ < 16)
		id = ty->target;
	return id;
}

static enum hm_type_kind kind_of(const struct pctx *c, hm_type_id id)
{
	const hm_type *ty = T(c, id);

	return ty ? ty->kind : HM_KIND_VOID;
}

static int is_structlike(enum hm_type_kind k)
{
	return hm_kind_is_record(k) || k == HM_KIND_ENUM;
}

static const char *qual_word(enum hm_type_kind k)
{
	switch (k) {
	case HM_KIND_CONST: return "const";
	case HM_KIND_VOLATILE: return "volatile";
	case HM_KIND_RESTRICT: return "restrict";
	case HM_KIND_ATOMIC: return "_Atomic";
	default: return "";
	}
}

static void tname(const struct pctx *c, hm_type_id id, struct sb *o, unsigned depth);
static void ftype(const struct pctx *c, hm_type_id fn, const char *name, int is_pointer,
		  int spacing, struct sb *o, unsigned depth);

/* Words of a run of qualifiers that applies to a pointer: " const volatile". */
static hm_type_id qual_run(const struct pctx *c, hm_type_id id, struct sb *words)
{
	const hm_type *ty;
	unsigned guard = 0;

	while ((ty = T(c, id)) && is_qual(ty->kind) && guard++ < 16) {
		sb_puts(words, " ");
		sb_puts(words, qual_word(ty->kind));
		id = ty->target;
	}
	return id;
}

/* pahole's tag__ptr_name: "TARGET *", "TARGET const *", "void *". */
static void ptr_name(const struct pctx *c, const hm_type *ptr, const char *suffix, struct sb *o,
		     unsigned depth)
{
	hm_type_id tid = ptr->target;
	struct sb words = { 0 };
	hm_type_id under;

	if (!tid) {
		sb_puts(o, "void ");
		sb_puts(o, suffix);
		return;
	}
	under = qual_run(c, tid, &words);
	if (words.len && kind_of(c, under) == HM_KIND_POINTER) {
		/* qualifiers of the pointed-to pointer follow it */
		tname(c, under, o, depth + 1);
		sb_puts(o, words.p);
		sb_puts(o, " ");
	} else {
		tname(c, tid, o, depth + 1);
		sb_puts(o, " ");
	}
	sb_puts(o, suffix);
	free(words.p);
}

/* pahole's __tag__name, with qualifiers of pointers placed after them. */
static void tname(const struct pctx *c, hm_type_id id, struct sb *o, unsigned depth)
{
	const hm_type *ty = T(c, id);

	if (!ty || depth > HM_NEST_MAX) {
		sb_puts(o, "void");
		return;
	}
	if (hmi_types_tag_name(ty, o))
		return;
	switch (ty->kind) {
	case HM_KIND_POINTER:
		ptr_name(c, ty, "*", o, depth);
		break;
	case HM_KIND_REFERENCE:
		ptr_name(c, ty, "&", o, depth);
		break;
	case HM_KIND_RVALUE_REFERENCE:
		ptr_name(c, ty, "&&", o, depth);
		break;
	case HM_KIND_PTR_TO_MEMBER: {
		const hm_type *cls = T(c, ty->containing);
		struct sb suf = { 0 };

		sb_printf(&suf, "%s::*", cls && cls->name ? cls->name : "");
		ptr_name(c, ty, suf.p ? suf.p : "::*", o, depth);
		free(suf.p);
		break;
	}
	case HM_KIND_CONST:
	case HM_KIND_VOLATILE:
	case HM_KIND_RESTRICT:
	case HM_KIND_ATOMIC: {
		struct sb words = { 0 };
		hm_type_id under = qual_run(c, id, &words);

		if (kind_of(c, under) == HM_KIND_POINTER) {
			tname(c, under, o, depth + 1);
			sb_puts(o, words.p);
		} else if (ty->kind == HM_KIND_RESTRICT) {
			tname(c, ty->target, o, depth + 1);
			sb_puts(o, " restrict");
		} else {
			sb_puts(o, qual_word(ty->kind));
			sb_puts(o, " ");
			tname(c, ty->target, o, depth + 1);
		}
		sb_puts(o, " ");
		free(words.p);
		break;
	}
	case HM_KIND_ARRAY:
		tname(c, ty->target, o, depth + 1);
		break;
	case HM_KIND_FUNC:
		ftype(c, id, NULL, 0, 0, o, depth + 1);
		break;
	default:	/* the leaves: hmi_types_tag_name() */
		break;
	}
}

static int needs_declarator(const struct pctx *c, hm_type_id id, int derived, unsigned depth);

static void params(const struct pctx *c, const hm_type *fn, struct sb *o, unsigned depth)
{
	const hm_type_id *p = hmi_types_params(c->t, fn);

	sb_puts(o, "(");
	for (uint32_t i = 0; i < fn->nr && !o->err; i++) {
		const hm_type *pt = T(c, p[i]);

		if (i)
			sb_puts(o, ", ");
		if (pt && pt->kind == HM_KIND_POINTER && kind_of(c, pt->target) == HM_KIND_FUNC)
			ftype(c, pt->target, NULL, 1, 0, o, depth + 1);
		else if (pt && pt->kind == HM_KIND_FUNC)
			ftype(c, p[i], NULL, 0, 0, o, depth + 1);
		else
			tname(c, p[i], o, depth + 1);
	}
	if (!fn->nr)
		sb_puts(o, fn->prototyped ? "void)" : ")");
	else if (fn->varargs)
		sb_puts(o, ", ...)");
	else
		sb_puts(o, ")");
}

/* pahole's ftype__fprintf: "RET (*name)(params)" with RET padded. */
static void ftype(const struct pctx *c, hm_type_id fn, const char *name, int is_pointer,
		  int spacing, struct sb *o, unsigned depth)
{
	const hm_type *ty = T(c, fn);
	struct sb ret = { 0 };

	/* a function whose parameter is itself (corrupt BTF or DWARF) is met
	 * here without passing tname()'s bound: stop at the same depth, and
	 * once the printout is past its cap (each parameter can fan out) */
	if (!ty || depth > HM_NEST_MAX || o->err) {
		sb_puts(o, "void");
		return;
	}
	tname(c, ty->target, &ret, depth + 1);
	sb_pad(o, ret.p ? ret.p : "", spacing);
	sb_printf(o, " (%s%s)", is_pointer ? "*" : "", name ? name : "");
	params(c, ty, o, depth);
	free(ret.p);
}

/* ---- C declarators, where pahole's spelling loses parts ---- */

/* Whether `id` needs a real C declarator: a pointer to an array, a function
 * pointer below another pointer or an array, a function whose return type or
 * parameters need one. */
/* How many pointers, arrays and parameters deep needs_declarator() looks:
 * a declarator worth C's syntax is shallower, and the bound stops a
 * corrupt chain. */
#define DECLARATOR_DEPTH 16

static int needs_declarator(const struct pctx *c, hm_type_id id, int derived, unsigned depth)
{
	const hm_type *ty;

	ty = T(c, id);
	if (ty && is_qual(ty->kind) && !derived) {
		/* a qualified function pointer: "(*const fn)(void)" */
		const hm_type *u = T(c, skip_quals(c, id));

		if (u && u->kind == HM_KIND_POINTER &&
		    kind_of(c, skip_quals(c, u->target)) == HM_KIND_FUNC)
			return 1;
	}
	id = skip_quals(c, id);
	ty = T(c, id);
	if (!ty || depth > DECLARATOR_DEPTH)
		return 0;
	switch (ty->kind) {
	case HM_KIND_POINTER: {
		hm_type_id tg = skip_quals(c, ty->target);
		enum hm_type_kind k = kind_of(c, tg);

		if (k == HM_KIND_ARRAY)
			return 1;
		if (k == HM_KIND_FUNC)
			return derived || needs_declarator(c, tg, 0, depth + 1);
		return needs_declarator(c, tg, 1, depth + 1);
	}
	case HM_KIND_ARRAY:
		return needs_declarator(c, ty->target, 1, depth + 1);
	case HM_KIND_PTR_TO_MEMBER:
		return kind_of(c, skip_quals(c, ty->target)) == HM_KIND_FUNC;
	case HM_KIND_FUNC: {
		const hm_type_id *p = hmi_types_params(c->t, ty);
		hm_type_id r = skip_quals(c, ty->target);
		enum hm_type_kind rk = kind_of(c, r);

		if (rk == HM_KIND_POINTER || rk == HM_KIND_ARRAY || rk == HM_KIND_FUNC)
			if (needs_declarator(c, r, 1, depth + 1) ||
			    kind_of(c, skip_quals(c, T(c, r)->target)) == HM_KIND_FUNC)
				return 1;
		for (uint32_t i = 0; i < ty->nr; i++) {
			hm_type_id pi = skip_quals(c, p[i]);

			if (kind_of(c, pi) == HM_KIND_POINTER &&
			    kind_of(c, skip_quals(c, T(c, pi)->target)) == HM_KIND_ARRAY)
				return 1;
		}
		return 0;
	}
	default:
		return 0;
	}
}

/* ---- structs, unions, enums ---- */

static void type_fp(const struct pctx *c, hm_type_id id, const char *name, struct pconf *conf,
		    unsigned depth);
/* Print recursion: type_fp and class_fp take a level each per nesting. */
#define EXPAND_DEPTH 400	/* -E expands 200 levels of named types */
#define PRINT_DEPTH 800		/* anonymous ones nested deeper are left out */
static void class_fp(const struct pctx *c, hm_type_id id, struct pconf *conf, unsigned depth);
static void union_fp(const struct pctx *c, hm_type_id id, struct pconf *conf, unsigned depth);

static void enum_fp(const struct pctx *c, const hm_type *ty, const struct pconf *conf)
{
	struct sb *o = c->b;
	const hm_enumerator *e = hmi_types_enumerators(c->t, ty);
	int w = 0;

	sb_printf(o, "enum%s%s", ty->name ? " " : "", ty->name ? ty->name : "");
	if (!ty->nr)
		return;
	for (uint32_t i = 0; i < ty->nr; i++)	/* corrupt input: a nameless enumerator */
		if (e[i].name && (int)strlen(e[i].name) > w)
			w = (int)strlen(e[i].name);
	sb_puts(o, " {\n");
	for (uint32_t i = 0; i < ty->nr; i++) {
		sb_tabs(o, conf->indent);
		sb_puts(o, "\t");
		sb_pad(o, e[i].name ? e[i].name : "", w);
		if (ty->is_signed)
			sb_printf(o, " = %" PRId64 ",\n", e[i].value);
		else
			sb_printf(o, " = %" PRIu64 ",\n", (uint64_t)e[i].value);
	}
	sb_tabs(o, conf->indent);
	sb_puts(o, "}");
	if (ty->size != 4)
		sb_puts(o, " __attribute__((__packed__))");
	if (conf->suffix)
		sb_printf(o, " %s", conf->suffix);
}

/* The element type an array's printout goes on with: pahole drops the const
 * of a flexible array's elements. */
static hm_type_id array_elem(const struct pctx *c, const hm_type *ty)
{
	const uint64_t *dims = hmi_types_dims(c->t, ty);
	hm_type_id elem = ty->target;

	if (ty->nr && (dims[0] == 0 || dims[0] == HM_DIM_FLEXIBLE) &&
	    kind_of(c, elem) == HM_KIND_CONST)
		elem = T(c, elem)->target;
	return elem;
}

static void array_fp(const struct pctx *c, const hm_type *ty, const char *name,
		     struct pconf *conf, unsigned depth)
{
	const uint64_t *dims = hmi_types_dims(c->t, ty);
	hm_type_id elem = array_elem(c, ty);
	int single = conf->last_member && conf->first_member;

	conf->path = NULL;	/* an element has no member path */
	conf->union_size = 0;	/* nor is it a member of a union */
	type_fp(c, elem, name, conf, depth + 1);
	if (ty->vector) {	/* pahole's spelling of a GNU vector */
		uint64_t bytes = hm_types_sizeof(c->t, ty->target);

		for (uint32_t i = 0; i < ty->nr; i++)
			bytes *= dims[i] == HM_DIM_FLEXIBLE ? 0 : dims[i];
		sb_printf(c->b, " __attribute__ ((__vector_size__ (%llu)))",
			  (unsigned long long)bytes);
		return;
	}
	for (uint32_t i = 0; i < ty->nr; i++) {
		uint64_t n = dims[i] == HM_DIM_FLEXIBLE ? 0 : dims[i];

		if (n || !conf->last_member || single || conf->union_member)
			sb_printf(c->b, "[%u]", (unsigned)n);
		else
			sb_puts(c->b, "[]");
	}
}

/* Whether the qualifiers at id qualify an array whose elements are pointers
 * already carrying each of them: `const char *const groups[4]` comes from
 * gcc as const(array(const pointer)), and the array's const says again what
 * the pointer's says.  Printed in front it would land on the pointee. */
static int array_quals_redundant(const struct pctx *c, hm_type_id id)
{
	hm_type_id under = skip_quals(c, id), elem;
	const hm_type *ut = T(c, under), *q;
	unsigned outer = 0, inner = 0, guard = 0;

	if (!ut || ut->kind != HM_KIND_ARRAY)
		return 0;
	while ((q = T(c, id)) && is_qual(q->kind) && guard++ < 16) {
		outer |= 1u << q->kind;
		id = q->target;
	}
	elem = ut->target;
	while ((q = T(c, elem)) && is_qual(q->kind) && guard++ < 32) {
		inner |= 1u << q->kind;
		elem = q->target;
	}
	return kind_of(c, elem) == HM_KIND_POINTER && inner && (outer & ~inner) == 0;
}

/* Whether a pointer's printout is its pointee's body: pahole prints a
 * pointer to an anonymous struct, union or enum as `struct {...} * name`. */
static int pointee_inline(const struct pctx *c, const hm_type *ptr)
{
	const hm_type *pt = T(c, ptr->target);

	return pt && is_structlike(pt->kind) && !pt->name;
}

/* Whether the qualifiers at id print with the type's name (a pointer's
 * follow it; restrict; pahole's plain volatile), rather than in front of
 * what they qualify, which then prints on as if unqualified. */
static int quals_by_name(const struct pctx *c, hm_type_id id)
{
	const hm_type *ty = T(c, id), *ut = T(c, skip_quals(c, id));
	int anon = ut && is_structlike(ut->kind) && !ut->name;

	return (ut && ut->kind == HM_KIND_POINTER) || ty->kind == HM_KIND_RESTRICT ||
	       (ty->kind == HM_KIND_VOLATILE && !anon);
}

/* pahole's type__fprintf. */
static void type_fp(const struct pctx *c, hm_type_id id, const char *name, struct pconf *conf,
		    unsigned depth)
{
	struct sb *o = c->b;
	struct pconf tc = *conf;
	const hm_type *ty = T(c, id);
	char *namebuf = NULL;
	int expand = conf->expand;

	if (depth > PRINT_DEPTH || c->b->err)
		return;
	/* past EXPAND_DEPTH named types print by name: 3000 levels of valid
	 * nesting would need a deeper C stack than anyone should rely on */
	if (depth > EXPAND_DEPTH)
		expand = 0;
	if (ty && expand) {
		int first = 1, guard = 0;

		/* bounded: corrupt DWARF can make typedefs a cycle */
		while (ty && ty->kind == HM_KIND_TYPEDEF && guard++ < 256) {
			sb_printf(o, first ? "/* typedef %s" : " -> %s", ty->name ? ty->name : "");
			first = 0;
			id = ty->target;
			ty = T(c, id);
		}
		if (!first)
			sb_puts(o, " */ ");
	}
	if (ty && (is_structlike(ty->kind) ||
		   (is_qual(ty->kind) && is_structlike(kind_of(c, skip_quals(c, id)))))) {
		tc.prefix = NULL;
		tc.suffix = name;
		tc.emit_stats = 0;
	}
	/* the C truth where pahole's spelling loses declarator parts */
	if (ty && needs_declarator(c, id, 0, 0)) {
		struct sb spec = { 0 }, decl = { 0 };

		sb_puts(&decl, name ? name : "");
		hm_types_declare_into(c->t, id, HM_DECL_BODY, &spec, &decl);
		sb_pad(o, spec.p ? spec.p : "", tc.type_spacing);
		sb_printf(o, " %s", decl.p ? decl.p : "");
		free(spec.p);
		free(decl.p);
		return;
	}
next:
	if (!ty) {
		struct sb n = { 0 };

		tname(c, id, &n, 0);
		sb_pad(o, n.p ? n.p : "", tc.type_spacing);
		sb_printf(o, " %s", name ? name : "");
		free(n.p);
		free(namebuf);
		return;
	}
	switch (ty->kind) {
	case HM_KIND_POINTER: {
		const hm_type *pt = T(c, ty->target);

		if (pt && pt->kind == HM_KIND_FUNC) {
			ftype(c, ty->target, name, 1, tc.type_spacing, o, depth);
			break;
		}
		if (pointee_inline(c, ty)) {
			size_t n = strlen(name ? name : "") + 3;

			free(namebuf);
			namebuf = malloc(n);
			if (!namebuf) {
				o->err = -ENOMEM;
				break;
			}
			snprintf(namebuf, n, "* %s", name ? name : "");
			name = namebuf;
			tc.path = NULL;	/* a pointee is not part of the object */
			tc.union_size = 0;
			tc.rel_offset = 1;
			tc.type_spacing -= 8;
			tc.prefix = NULL;
			tc.suffix = name;
			tc.emit_stats = 0;
			id = ty->target;
			ty = pt;
			goto next;
		}
	}
		/* fall through */
	default: {
		struct sb n = { 0 };

		tname(c, id, &n, 0);
		sb_pad(o, n.p ? n.p : "", tc.type_spacing);
		sb_printf(o, " %s", name ? name : "");
		free(n.p);
		break;
	}
	case HM_KIND_FUNC:
		ftype(c, id, name, 0, tc.type_spacing, o, depth);
		break;
	case HM_KIND_CONST:
	case HM_KIND_ATOMIC:
	case HM_KIND_VOLATILE:
	case HM_KIND_RESTRICT: {
		const hm_type *ut = T(c, skip_quals(c, id));
		int anon = ut && is_structlike(ut->kind) && !ut->name;

		if (quals_by_name(c, id)) {
			/* qualifiers of a pointer follow it; pahole's plain volatile */
			struct sb n = { 0 };

			tname(c, id, &n, 0);
			sb_pad(o, n.p ? n.p : "", tc.type_spacing);
			sb_printf(o, " %s", name ? name : "");
			free(n.p);
			break;
		}
		if (!array_quals_redundant(c, id)) {
			sb_printf(o, "%s ", qual_word(ty->kind));
			if (!anon)
				tc.type_spacing -= (int)strlen(qual_word(ty->kind)) + 1;
		}
		id = ty->target;
		ty = T(c, id);
		goto next;
	}
	case HM_KIND_ARRAY:
		array_fp(c, ty, name, &tc, depth);
		break;
	case HM_KIND_STRUCT:
	case HM_KIND_CLASS:
		if (ty->name && !expand) {
			sb_printf(o, "%s ", ty->kind == HM_KIND_CLASS ? "class" : "struct");
			sb_pad(o, ty->name, tc.type_spacing - 7);
			sb_printf(o, " %s", name ? name : "");
		} else {
			tc.type_spacing -= 8;
			class_fp(c, id, &tc, depth + 1);
		}
		break;
	case HM_KIND_UNION:
		if (ty->name && !expand) {
			sb_puts(o, "union ");
			sb_pad(o, ty->name, tc.type_spacing - 6);
			sb_printf(o, " %s", name ? name : "");
		} else {
			tc.type_spacing -= 8;
			union_fp(c, id, &tc, depth + 1);
		}
		break;
	case HM_KIND_ENUM:
		if (ty->name) {	/* pahole -E keeps named enums by name */
			sb_puts(o, "enum ");
			sb_pad(o, ty->name, tc.type_spacing - 5);
			sb_printf(o, " %s", name ? name : "");
		} else {
			enum_fp(c, ty, &tc);
		}
		break;
	}
	free(namebuf);
}

static void cacheline_boundary(const struct pctx *c, const struct pconf *conf, uint64_t off)
{
	uint32_t cl = (uint32_t)(off / c->line);

	if (cl > *conf->cachelinep) {
		uint32_t pos = (uint32_t)(off % c->line);

		if (!pos)
			sb_printf(c->b, "/* --- cacheline %u boundary (%" PRIu64 " bytes) --- */\n",
				  cl, off);
		else
			sb_printf(c->b, "/* --- cacheline %u boundary (%" PRIu64 " bytes) was %u "
				  "byte%s ago --- */\n", cl, off - pos, pos, pos > 1 ? "s" : "");
		sb_tabs(c->b, conf->indent);
		*conf->cachelinep = cl;
	}
}

static int inline_type(const struct pctx *c, hm_type_id id)
{
	const hm_type *ty = T(c, id);

	if (ty && is_qual(ty->kind))
		ty = T(c, skip_quals(c, id));
	return ty && is_structlike(ty->kind);
}

/* pahole's union__infer_packed_attributes: a struct member of a union whose
 * size is not a multiple of the struct's natural alignment must be packed
 * (an array of such unions would misalign it), though nothing else in its
 * offsets says so -- mac80211's ieee80211_mgmt.u.action.u.addba_req. */
static int union_forces_packed(const struct pctx *c, hm_type_id id, uint64_t union_size)
{
	const hm_type *ty = T(c, hmi_layout_strip(c->t, id));
	uint32_t na;

	if (!union_size || !ty || ty->kind == HM_KIND_UNION || !is_structlike(ty->kind))
		return 0;
	na = hmi_layout_natural_align(c->t, hmi_layout_strip(c->t, id));
	return na > 1 && union_size % na != 0;
}

static int record_is_packed(const struct pctx *c, const hm_type *ty)
{
	struct hmi_layout_holes *h;
	int packed;

	if (ty->kind == HM_KIND_UNION || hmi_layout_holes_new(c->t, ty, &h))
		return 0;
	packed = hmi_layout_holes_packed(c->t, ty, h);
	hmi_layout_holes_free(h);
	return packed;
}

/* pahole's class_member__fprintf; returns the member's absolute offset. */
static uint64_t member_fp(const struct pctx *c, const hm_member *m, uint64_t size, int union_member,
			  struct pconf *conf, unsigned depth)
{
	struct sb *o = c->b;
	struct pconf sc = *conf;
	uint64_t off = m->offset;
	const char *name = m->name;
	size_t start;
	int malign = 0, is_inline = inline_type(c, m->type);

	if (!sc.rel_offset) {
		off += sc.base_offset;
		if (!union_member)
			sc.base_offset = off;
	}
	/* pahole: once inside a union, nested levels count as union members */
	if (union_member)
		sc.union_member = 1;
	sc.member_packed = 0;
	/* an inline record's members: under this member's path, or its
	 * parent's for an anonymous one */
	if (c->hooks && sc.path) {
		sc.path = m->name ? conf->member_path : conf->path;
		if (++sc.plevel > HM_NEST_MAX)	/* hm_layout lists no deeper */
			sc.path = NULL;
	}
	if (!(m->flags & HM_MEMBER_VIRTUAL_BASE))
		cacheline_boundary(c, conf, off);
	start = o->len;
	if (m->flags & HM_MEMBER_INHERITANCE) {
		name = "<ancestor>";
		sb_puts(o, "/* ");
	}
	if (m->flags & HM_MEMBER_STATIC)
		sb_puts(o, "static ");
	if (is_inline) {
		type_fp(c, m->type, NULL, &sc, depth + 1);
		if (name) {
			const hm_type *st = T(c, skip_quals(c, m->type));

			if (!st || !st->name)
				sb_puts(o, " ");
			sb_puts(o, name);
		}
	} else {
		type_fp(c, m->type, name, &sc, depth + 1);
	}
	if (m->flags & HM_MEMBER_BITFIELD)
		sb_printf(o, ":%u", m->bit_size);
	if (conf->member_packed)
		sb_puts(o, " __attribute__((__packed__))");
	if (m->alignment) {
		size_t before = o->len;

		sb_printf(o, " __attribute__((__aligned__(%u)))", m->alignment);
		malign = (int)(o->len - before);
	}
	sb_puts(o, ";");
	if (is_inline && !(T(c, skip_quals(c, m->type))->name)) {
		int slen = malign + (m->name ? (int)strlen(m->name) : -1);
		const hm_type *st = T(c, skip_quals(c, m->type));

		if (st->kind != HM_KIND_UNION && st->kind != HM_KIND_ENUM &&
		    (record_is_packed(c, st) ||
		     (union_member && union_forces_packed(c, m->type, conf->union_size))))
			slen += (int)sizeof("__attribute__((__packed__))");
		int w = sc.type_spacing + sc.name_spacing - slen - 3;

		/* printf's "%*s" of " ": a negative width left-justifies */
		sb_spaces(o, w < 0 ? -w : w > 1 ? w : 1);
	} else {
		int spacing = sc.type_spacing + sc.name_spacing - (int)(o->len - start);

		if (m->flags & HM_MEMBER_INHERITANCE) {
			sb_puts(o, " */");
			spacing -= 3;
		}
		sb_spaces(o, spacing > 1 ? spacing : 1);
	}
	if (m->flags & HM_MEMBER_VIRTUAL_BASE)	/* placed at run time */
		sb_printf(o, "/*     ? %5" PRIu64 " */", hm_types_sizeof(c->t, m->type));
	else if (m->flags & HM_MEMBER_BITFIELD)
		sb_printf(o, "/* %5" PRIu64 ":%2u %2" PRIu64 " */", off, m->bit_offset, size);
	else
		sb_printf(o, "/* %5" PRIu64 " %5" PRIu64 " */", off, size);
	return off;
}

/* hitmap's own lines: a member whose bytes cross a line boundary. */
static void note_straddle(const struct pctx *c, const struct pconf *conf, const hm_member *m,
			  uint64_t off, uint64_t size)
{
	uint64_t first, last;

	/* a member larger than a line crosses boundaries by necessity: only
	 * those that would fit in one line but are split are worth a note */
	if (!c->annotate || !size || size > c->line || (m->flags & HM_MEMBER_STATIC))
		return;
	first = off / c->line;
	last = (off + size - 1) / c->line;
	if (first == last)
		return;
	sb_puts(c->b, "\n");
	sb_tabs(c->b, conf->indent);
	sb_printf(c->b, HM_NOTE_PREFIX "%s straddles cachelines %" PRIu64 "-%" PRIu64
		  " (bytes %" PRIu64 "..%" PRIu64 ") */",
		  m->name ? m->name : "member", first, last, off, off + size - 1);
}

static int starts_with(const char *s, const char *p)
{
	return s && strncmp(s, p, strlen(p)) == 0;
}

/* hitmap's own lines: a kernel cacheline group closed by this member. */
static void note_group(const struct pctx *c, const struct pconf *conf, const hm_member *mm,
		       uint32_t i)
{
	const char *g;

	if (!c->annotate || !starts_with(mm[i].name, GROUP_END))
		return;
	g = mm[i].name + strlen(GROUP_END);
	for (uint32_t j = i; j-- > 0;) {
		uint64_t b, e;

		if (!starts_with(mm[j].name, GROUP_BEGIN) || strcmp(mm[j].name + strlen(GROUP_BEGIN), g))
			continue;
		b = conf->base_offset + mm[j].offset;
		e = conf->base_offset + mm[i].offset;
		sb_puts(c->b, "\n");
		sb_tabs(c->b, conf->indent);
		if (e > b)
			sb_printf(c->b, HM_NOTE_PREFIX "group %s: bytes %" PRIu64 "..%" PRIu64
				  " (%" PRIu64 " bytes), cachelines %" PRIu64 "-%" PRIu64 " */",
				  g, b, e - 1, e - b, b / c->line, (e - 1) / c->line);
		else
			sb_printf(c->b, HM_NOTE_PREFIX "group %s: empty, at byte %" PRIu64 " */",
				  g, b);
		return;
	}
}

static void note_unterminated(const struct pctx *c, const struct pconf *conf, const hm_type *rec)
{
	const hm_member *mm = hm_types_members(c->t, rec);

	if (!c->annotate)
		return;
	for (uint32_t j = 0; j < rec->nr; j++) {
		const char *g;
		uint32_t k;

		if (!starts_with(mm[j].name, GROUP_BEGIN))
			continue;
		g = mm[j].name + strlen(GROUP_BEGIN);
		for (k = j + 1; k < rec->nr; k++)
			if (starts_with(mm[k].name, GROUP_END) && !strcmp(mm[k].name + strlen(GROUP_END), g))
				break;
		if (k < rec->nr)
			continue;
		sb_tabs(c->b, conf->indent);
		sb_printf(c->b, HM_NOTE_PREFIX "group %s: begins at byte %" PRIu64 ", no end marker */\n",
			  g, conf->base_offset + mm[j].offset);
	}
}

/* pahole's `if (!newline++) fputc('\n')`: one blank line before a run of
 * comments. */
static void newline_once(struct sb *o, int *newline)
{
	if (!(*newline)++)
		sb_puts(o, "\n");
}

struct class_sums {
	uint64_t sum_bytes, sum_bits, sum_holes, sum_bit_holes;
	uint32_t nr_forced, nr_forced_holes;
	uint64_t sum_forced_holes;
	uint32_t nr_paddings;
	uint64_t sum_paddings;
	/* pahole 1.26's "member types with holes" (hitmap lines here) */
	uint32_t nr_types_holes, nr_types_bit_holes;
	uint64_t sum_types_holes, sum_types_bit_holes;
};

static void class_stats(const struct pctx *c, const hm_type *ty, const struct hmi_layout_holes *h,
			const struct class_sums *s, const struct pconf *cc, uint32_t members)
{
	struct sb *o = c->b;
	uint64_t last;

	sb_printf(o, "\n");
	sb_tabs(o, cc->indent);
	sb_printf(o, "/* size: %" PRIu64 ", cachelines: %" PRIu64 ", members: %u */\n", ty->size,
		  (ty->size + c->line - 1) / c->line, members);
	if (s->sum_holes > 0 || s->sum_bit_holes > 0) {
		if (s->sum_bytes > 0) {
			sb_tabs(o, cc->indent);
			sb_printf(o, "/* sum members: %" PRIu64, s->sum_bytes);
			if (s->sum_holes > 0)
				sb_printf(o, ", holes: %u, sum holes: %" PRIu64, hmi_layout_holes_count(h),
					  s->sum_holes);
			sb_puts(o, " */\n");
		}
		if (s->sum_bits > 0) {
			sb_tabs(o, cc->indent);
			sb_printf(o, "/* sum bitfield members: %" PRIu64 " bits", s->sum_bits);
			if (s->sum_bit_holes > 0)
				sb_printf(o, ", bit holes: %u, sum bit holes: %" PRIu64 " bits",
					  hmi_layout_holes_bit_count(h), s->sum_bit_holes);
			else
				sb_printf(o, " (%" PRIu64 " bytes)", s->sum_bits / 8);
			sb_puts(o, " */\n");
		}
	}
	if (hmi_layout_holes_padding(h) > 0) {
		sb_tabs(o, cc->indent);
		sb_printf(o, "/* padding: %" PRIu64 " */\n", hmi_layout_holes_padding(h));
	}
	if (s->nr_types_holes || s->nr_types_bit_holes) {
		/* where pahole 1.26 prints it, as a line of ours: the body
		 * stays pahole 1.24's */
		sb_tabs(o, cc->indent);
		sb_puts(o, "/* hitmap: member types with holes: ");
		if (s->nr_types_holes)
			sb_printf(o, "%u, total: %" PRIu64, s->nr_types_holes, s->sum_types_holes);
		if (s->nr_types_bit_holes)
			sb_printf(o, "%sbit holes: %u, total: %" PRIu64, s->nr_types_holes ? ", " : "",
				  s->nr_types_bit_holes, s->sum_types_bit_holes);
		sb_puts(o, " */\n");
	}
	if (s->nr_paddings > 0) {
		sb_tabs(o, cc->indent);
		sb_printf(o, "/* paddings: %u, sum paddings: %" PRIu64 " */\n", s->nr_paddings,
			  s->sum_paddings);
	}
	if (hmi_layout_holes_bit_padding(h) > 0) {
		sb_tabs(o, cc->indent);
		sb_printf(o, "/* bit_padding: %u bits */\n", hmi_layout_holes_bit_padding(h));
	}
	if (s->nr_forced) {
		sb_tabs(o, cc->indent);
		sb_printf(o, "/* forced alignments: %u", s->nr_forced);
		if (s->nr_forced_holes)
			sb_printf(o, ", forced holes: %u, sum forced holes: %" PRIu64,
				  s->nr_forced_holes, s->sum_forced_holes);
		sb_puts(o, " */\n");
	}
	last = (cc->base_offset + ty->size) % c->line;
	if (last) {
		sb_tabs(o, cc->indent);
		sb_printf(o, "/* last cacheline: %" PRIu64 " bytes */\n", last);
	}
}

/* "XXX last struct has N bytes of padding" after a struct-typed member;
 * then, as a line of ours, the holes in it that pahole 1.26 adds to that
 * line ("..., 2 holes", or "XXX last struct has 1 hole" alone).  The
 * hitmap line takes no blank line of its own, so that without it the
 * text is pahole 1.24's. */
static void member_type_padding(const struct pctx *c, hm_type_id id, struct class_sums *s,
				int *newline, const struct pconf *cc)
{
	const hm_type *ty = T(c, id);
	struct hmi_layout_holes *h;
	uint64_t padding;
	uint32_t holes, bit_holes;

	if (!ty || (ty->kind != HM_KIND_STRUCT && ty->kind != HM_KIND_CLASS) || ty->declaration)
		return;
	if (hmi_layout_holes_new(c->t, ty, &h))
		return;
	padding = hmi_layout_holes_padding(h);
	holes = hmi_layout_holes_count(h);
	bit_holes = hmi_layout_holes_bit_count(h);
	hmi_layout_holes_free(h);
	if (padding) {
		newline_once(c->b, newline);
		sb_puts(c->b, "\n");
		sb_tabs(c->b, cc->indent);
		sb_printf(c->b, "/* XXX last struct has %" PRIu64 " byte%s of padding */", padding,
			  padding != 1 ? "s" : "");
		s->nr_paddings++;
		s->sum_paddings += padding;
	}
	if (holes || bit_holes) {
		sb_puts(c->b, "\n");
		sb_tabs(c->b, cc->indent);
		sb_puts(c->b, "/* hitmap: last struct has ");
		if (holes)
			sb_printf(c->b, "%u hole%s", holes, holes != 1 ? "s" : "");
		if (bit_holes)
			sb_printf(c->b, "%s%u bit hole%s", holes ? ", " : "", bit_holes,
				  bit_holes != 1 ? "s" : "");
		sb_puts(c->b, " */");
	}
	if (holes) {
		s->nr_types_holes++;
		s->sum_types_holes += holes;
	}
	if (bit_holes) {
		s->nr_types_bit_holes++;
		s->sum_types_bit_holes += bit_holes;
	}
}

static void bitfield_filler(const struct pctx *c, const hm_member *last, uint32_t bits,
			    const hm_member *pos, struct pconf *cc, unsigned depth)
{

	if (last->offset != pos->offset) {
		sb_puts(c->b, "\n");
		sb_tabs(c->b, cc->indent);
		sb_puts(c->b, "/* Force alignment to the next boundary: */\n");
		bits = 0;
	}
	sb_tabs(c->b, cc->indent);
	type_fp(c, pos->type, "", cc, depth + 1);
	sb_printf(c->b, ":%u;\n", bits);
}

/* A member off its natural alignment in a struct that is not packed as a
 * whole was declared __attribute__((packed)) itself. */
static int member_misaligned(const struct pctx *c, const hm_member *m)
{
	const hm_type *ty = T(c, hmi_layout_strip(c->t, m->type));
	uint32_t al;

	/* a struct member's own type may be the packed one: DWARF cannot say */
	if (!ty || (ty->kind != HM_KIND_BASE && ty->kind != HM_KIND_POINTER &&
		    ty->kind != HM_KIND_ENUM))
		return 0;
	al = hm_types_alignof(c->t, m->type);
	return al > 1 && m->offset % al != 0;
}

static const char *access_word(uint32_t flags)
{
	if (flags & HM_MEMBER_PUBLIC)
		return "public";
	if (flags & HM_MEMBER_PROTECTED)
		return "protected";
	if (flags & HM_MEMBER_PRIVATE)
		return "private";
	return NULL;
}

/* ---- hooks ---- */

/* The path hm_layout gives member m at this level, or NULL (malloc'd). */
static char *member_path(const struct pctx *c, const struct pconf *conf, const hm_member *m)
{
	const char *name = m->name;
	char *p;

	if (!c->hooks || !conf->path)
		return NULL;
	if (!name && (m->flags & HM_MEMBER_INHERITANCE)) {
		const hm_type *st = T(c, hmi_layout_strip(c->t, m->type));

		name = st ? st->name : NULL;
	}
	if (!name)
		return NULL;
	if (asprintf(&p, "%s%s%s", conf->path, *conf->path ? "." : "", name) < 0) {
		c->b->err = -ENOMEM;
		return NULL;
	}
	return p;
}

static void member_hook(const struct pctx *c, const struct pconf *conf, const hm_member *m,
			const char *path, uint64_t off, uint64_t size)
{
	struct hm_print_notes n = { .c = c, .indent = conf->indent };
	struct hm_print_member pm = { .member = m, .path = path, .offset = off, .size = size };

	if (c->hooks && c->hooks->member_notes && !(m->flags & HM_MEMBER_STATIC) && !c->b->err)
		c->hooks->member_notes(c->hooks->ctx, &pm, &n);
}

static void end_hook(const struct pctx *c, const struct pconf *conf, unsigned depth)
{
	struct hm_print_notes n = { .c = c, .indent = conf->indent, .before_close = 1 };

	if (!depth && c->hooks && c->hooks->end_notes && !c->b->err)
		c->hooks->end_notes(c->hooks->ctx, c->top, &n);
}

int hmi_print_note(hm_print_notes *n, const char *fmt, ...)
{
	struct sb *o = n->c->b;
	char *text;
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (len < 0) {
		o->err = -ENOMEM;
		return o->err;
	}
	if (!n->before_close)
		sb_puts(o, "\n");
	sb_tabs(o, n->indent);
	sb_puts(o, HM_NOTE_PREFIX);
	sb_puts(o, text);
	sb_puts(o, " */");
	if (n->before_close)
		sb_puts(o, "\n");
	free(text);
	return o->err;
}

/* The virtual bases of a complete object, where the compiler puts them:
 * after the non-virtual part, in inheritance graph order (layout-vbase.c). */
static void vbases_fp(const struct pctx *c, const struct hmi_layout_holes *h, struct pconf *cc,
		      struct class_sums *s, uint32_t *members, int *newline, unsigned depth)
{
	uint32_t nr = hmi_layout_holes_nr_vbases(h);

	for (uint32_t k = 0; k < nr; k++) {
		hm_member m = { .flags = HM_MEMBER_INHERITANCE };
		uint64_t size, hole;

		hmi_layout_holes_vbase(h, k, &m.type, &m.offset, &size, &hole);

		if (*newline) {
			sb_puts(c->b, "\n");
			*newline = 0;
		}
		cc->last_member = k + 1 == nr;
		cc->first_member = 0;
		cc->member_packed = 0;
		sb_tabs(c->b, cc->indent);
		member_fp(c, &m, size, 0, cc, depth);
		if (hole) {
			newline_once(c->b, newline);
			sb_puts(c->b, "\n");
			sb_tabs(c->b, cc->indent);
			sb_printf(c->b, "/* XXX %" PRIu64 " byte%s hole, try to pack */",
				  hole, hole != 1 ? "s" : "");
			s->sum_holes += hole;
		}
		sb_puts(c->b, "\n");
		s->sum_bytes += size;
		(*members)++;
	}
}

/* pahole's __class__fprintf. */
static void class_fp(const struct pctx *c, hm_type_id id, struct pconf *conf, unsigned depth)
{
	const hm_type *ty = T(c, id);
	const hm_member *mm = hm_types_members(c->t, ty);
	struct sb *o = c->b;
	struct pconf cc = *conf;
	struct hmi_layout_holes *h;
	struct class_sums s = { 0 };
	uint32_t cacheline = 0, members = 0;
	const hm_member *last = NULL;
	int64_t lasti = -1;	/* last's index */
	uint64_t last_size = 0;
	const char *access = NULL;
	int newline = 0, first = 1, packed, indent = conf->indent > 16 ? 16 : conf->indent;

	if (hmi_layout_holes_new(c->t, ty, &h)) {
		o->err = -ENOMEM;
		return;
	}
	packed = hmi_layout_holes_packed(c->t, ty, h) || union_forces_packed(c, id, cc.union_size);
	cc.union_size = 0;	/* its members are not the union's */
	/* C++: the qualified name, as gdb prints it (std::X and other::X
	 * are two types); pahole's plain name in C */
	sb_printf(o, "%s%s%s%s%s%s%s", cc.prefix ? cc.prefix : "", cc.prefix ? " " : "",
		  ty->kind == HM_KIND_CLASS ? "class" : "struct", ty->name ? " " : "",
		  ty->name && ty->scope ? ty->scope : "", ty->name && ty->scope ? "::" : "",
		  ty->name ? ty->name : "");
	if (!cc.cachelinep)
		cc.cachelinep = &cacheline;
	cc.indent = indent + 1;
	for (uint32_t i = 0; i < ty->nr; i++) {
		const hm_type *bt;

		if (!(mm[i].flags & HM_MEMBER_INHERITANCE))
			continue;
		sb_puts(o, first ? " :" : ",");
		first = 0;
		if (mm[i].flags & HM_MEMBER_VIRTUAL_BASE)
			sb_puts(o, " virtual");
		if (access_word(mm[i].flags))
			sb_printf(o, " %s", access_word(mm[i].flags));
		bt = T(c, mm[i].type);
		sb_printf(o, " %s%s%s", bt && bt->name && bt->scope ? bt->scope : "",
			  bt && bt->name && bt->scope ? "::" : "", bt && bt->name ? bt->name : "");
	}
	sb_puts(o, " {\n");
	if (hmi_layout_holes_pre_bits(h)) {
		newline_once(o, &newline);
		sb_tabs(o, cc.indent);
		sb_printf(o, "/* XXX %u bit%s hole, try to pack */\n", hmi_layout_holes_pre_bits(h),
			  hmi_layout_holes_pre_bits(h) != 1 ? "s" : "");
		s.sum_bit_holes += hmi_layout_holes_pre_bits(h);
	}
	if (hmi_layout_holes_pre(h)) {
		newline_once(o, &newline);
		sb_tabs(o, cc.indent);
		sb_printf(o, "/* XXX %" PRIu64 " byte%s hole, try to pack */\n", hmi_layout_holes_pre(h),
			  hmi_layout_holes_pre(h) != 1 ? "s" : "");
		s.sum_holes += hmi_layout_holes_pre(h);
	}
	for (uint32_t i = 0; i < ty->nr; i++) {
		const hm_member *pos = &mm[i];
		int inh = (pos->flags & HM_MEMBER_INHERITANCE) != 0;
		int bf = (pos->flags & HM_MEMBER_BITFIELD) != 0;
		const hm_type *pt;
		uint64_t off;

		/* static members take no room; pahole (DWARF 5) does not list them;
		 * a placed virtual base comes after the non-virtual part */
		if ((pos->flags & HM_MEMBER_STATIC) || hmi_layout_holes_member_vbase(h, i))
			continue;
		if (access_word(pos->flags) && access_word(pos->flags) != access) {
			access = access_word(pos->flags);
			sb_tabs(o, cc.indent - 1);
			sb_printf(o, "%s:\n\n", access);
		}
		members++;
		if (pos->alignment) {
			uint64_t fh = lasti >= 0 ? hmi_layout_holes_member_hole(h, lasti) : hmi_layout_holes_pre(h);

			if (fh) {
				s.nr_forced_holes++;
				s.sum_forced_holes += fh;
			}
			s.nr_forced++;
		}
		if (last && !inh && last_size) {
			int lbf = (last->flags & HM_MEMBER_BITFIELD) != 0;

			if (hmi_layout_holes_member_bit_hole(h, lasti) && bf)
				bitfield_filler(c, last, hmi_layout_holes_member_bit_hole(h, lasti), pos, &cc, depth);
			if (pos->offset < last->offset || (pos->offset == last->offset && !lbf && bf)) {
				newline_once(o, &newline);
				sb_tabs(o, cc.indent);
				sb_puts(o, "/* Bitfield combined with previous fields */\n");
			} else if (pos->offset > last->offset && pos->offset - last->offset < last_size) {
				newline_once(o, &newline);
				sb_tabs(o, cc.indent);
				sb_puts(o, "/* Bitfield combined with next fields */\n");
			}
		}
		if (newline) {
			sb_puts(o, "\n");
			newline = 0;
		}
		cc.last_member = i + 1 == ty->nr;
		cc.first_member = last == NULL;
		cc.member_packed = !packed && !bf && !inh && member_misaligned(c, pos);
		cc.member_path = member_path(c, &cc, pos);
		sb_tabs(o, cc.indent);
		off = member_fp(c, pos, hmi_layout_holes_member_size(h, i), 0, &cc, depth);
		member_hook(c, &cc, pos, cc.member_path, off, hmi_layout_holes_member_size(h, i));
		free((char *)cc.member_path);
		cc.member_path = NULL;
		note_straddle(c, &cc, pos, off, hmi_layout_holes_member_size(h, i));
		note_group(c, &cc, mm, i);
		pt = T(c, pos->type);
		if (pt && (pt->kind == HM_KIND_STRUCT || pt->kind == HM_KIND_CLASS))
			member_type_padding(c, pos->type, &s, &newline, &cc);
		if (hmi_layout_holes_member_bit_hole(h, i)) {
			newline_once(o, &newline);
			sb_puts(o, "\n");
			sb_tabs(o, cc.indent);
			sb_printf(o, "/* XXX %u bit%s hole, try to pack */", hmi_layout_holes_member_bit_hole(h, i),
				  hmi_layout_holes_member_bit_hole(h, i) != 1 ? "s" : "");
			s.sum_bit_holes += hmi_layout_holes_member_bit_hole(h, i);
		}
		if (hmi_layout_holes_member_hole(h, i)) {
			newline_once(o, &newline);
			sb_puts(o, "\n");
			sb_tabs(o, cc.indent);
			uint64_t hole = hmi_layout_holes_member_hole(h, i);

			sb_printf(o, "/* XXX %" PRIu64 " byte%s hole, try to pack */", hole,
				  hole != 1 ? "s" : "");
			s.sum_holes += hole;
		}
		sb_puts(o, "\n");
		if (hmi_layout_holes_member_skipped(h, i))
			continue;
		/* the C truth: a base class's bytes are members' bytes too */
		if (bf)
			s.sum_bits += pos->bit_size;
		else
			s.sum_bytes += hmi_layout_holes_member_size(h, i);
		if (inh)
			continue;
		if (!last || !last_size || last->offset != pos->offset)
			last_size = hmi_layout_holes_member_size(h, i);
		else if (!(last->flags & HM_MEMBER_BITFIELD) && bf)
			last_size = hmi_layout_holes_member_size(h, i);
		last = pos;
		lasti = i;
	}
	vbases_fp(c, h, &cc, &s, &members, &newline, depth);
	if (cc.emit_stats) {
		note_unterminated(c, &cc, ty);
		class_stats(c, ty, h, &s, &cc, members);
	}
	end_hook(c, &cc, depth);
	sb_tabs(o, indent);
	sb_puts(o, "}");
	if (packed)
		sb_puts(o, " __attribute__((__packed__))");
	if (cc.suffix)
		sb_printf(o, " %s", cc.suffix);
	/* pahole drops aligned() once it infers packed; keep it when it shows */
	if (ty->alignment && (!packed || hmi_layout_holes_padding(h)))
		sb_printf(o, " __attribute__((__aligned__(%u)))", ty->alignment);
	hmi_layout_holes_free(h);
}

/* The summary pahole leaves out for unions. */
static void union_stats(const struct pctx *c, const hm_type *ty, const struct pconf *uc)
{
	struct sb *o = c->b;
	struct hmi_layout_holes *h;
	uint64_t max = 0, last;

	if (hmi_layout_holes_new(c->t, ty, &h)) {
		o->err = -ENOMEM;
		return;
	}
	for (uint32_t i = 0; i < ty->nr; i++)
		if (!hmi_layout_holes_member_skipped(h, i) && hmi_layout_holes_member_size(h, i) > max)
			max = hmi_layout_holes_member_size(h, i);
	hmi_layout_holes_free(h);
	sb_puts(o, "\n");
	sb_tabs(o, uc->indent);
	sb_printf(o, "/* size: %" PRIu64 ", cachelines: %" PRIu64 ", members: %u */\n", ty->size,
		  (ty->size + c->line - 1) / c->line, ty->nr);
	if (ty->size > max) {
		sb_tabs(o, uc->indent);
		sb_printf(o, "/* padding: %" PRIu64 " */\n", ty->size - max);
	}
	last = (uc->base_offset + ty->size) % c->line;
	if (last) {
		sb_tabs(o, uc->indent);
		sb_printf(o, "/* last cacheline: %" PRIu64 " bytes */\n", last);
	}
}

/* pahole's union__fprintf (plus the summary at the outermost level). */
static void union_fp(const struct pctx *c, hm_type_id id, struct pconf *conf, unsigned depth)
{
	const hm_type *ty = T(c, id);
	const hm_member *mm = hm_types_members(c->t, ty);
	struct sb *o = c->b;
	struct pconf uc = *conf;
	uint32_t cacheline = 0, initial;
	int indent = conf->indent > 16 ? 16 : conf->indent;

	if (uc.prefix)
		sb_printf(o, "%s ", uc.prefix);
	sb_printf(o, "union%s%s%s%s {\n", ty->name ? " " : "",
		  ty->name && ty->scope ? ty->scope : "", ty->name && ty->scope ? "::" : "",
		  ty->name ? ty->name : "");
	uc.indent = indent + 1;
	uc.union_size = ty->size;
	if (!uc.cachelinep)
		uc.cachelinep = &cacheline;
	initial = *uc.cachelinep;
	for (uint32_t i = 0; i < ty->nr; i++) {
		uint64_t size = hmi_layout_member_size(c->t, &mm[i]), off;

		uc.member_path = member_path(c, &uc, &mm[i]);
		sb_tabs(o, uc.indent);
		off = member_fp(c, &mm[i], size, 1, &uc, depth);
		member_hook(c, &uc, &mm[i], uc.member_path, off, size);
		free((char *)uc.member_path);
		uc.member_path = NULL;
		note_straddle(c, &uc, &mm[i], off, size);
		sb_puts(o, "\n");
		*uc.cachelinep = initial;
	}
	if (uc.emit_stats)
		union_stats(c, ty, &uc);
	end_hook(c, &uc, depth);
	sb_tabs(o, indent);
	sb_printf(o, "}%s%s", uc.suffix ? " " : "", uc.suffix ? uc.suffix : "");
}

/* ---- the printout's size, known before printing ----
 *
 * Anonymous members print inline, with -E named ones too, and so do the
 * anonymous structs that pointers point at; one anonymous type can be the
 * type of many members (`struct {...} a, b;`), so the printout of a few
 * types nested n deep can be 2^n lines.  Printed up to HM_SBUF_MAX, such a
 * printout costs seconds, tens of them under a sanitizer; its size follows
 * from the type graph, though.  The walk below takes the printer's path
 * (type_fp, class_fp, union_fp, array_fp: the same expansions, the same
 * depth limits) but only counts member lines, memoised per record and
 * depth, so it costs no more than the distinct types it meets.  The count
 * is a lower bound: it leaves out what it need not know (enumerators,
 * notes, static members, virtual bases), so a printout it refuses would
 * have failed anyway, at the cap. */

/* Each member's line ends in its offset comment (member_fp: offset and
 * size in two columns of 5, or a bitfield's or virtual base's form; 17
 * characters at least), after ';' and a space, before the newline. */
#define MEMBER_LINE_MIN 20
#define SIZE_LINES_MAX ((uint64_t)HM_SBUF_MAX / MEMBER_LINE_MIN + 1)

struct size_memo {
	uint64_t *keys;		/* id << 16 | depth, plus 1; 0: a free slot */
	uint64_t *lines;
	size_t cap, n;
	int expand;
	int err;
};

static uint64_t lines_add(uint64_t a, uint64_t b)
{
	return a + b >= SIZE_LINES_MAX ? SIZE_LINES_MAX : a + b;
}

static uint64_t *memo_slot(struct size_memo *m, uint64_t key)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct size_memo g = { .cap = m->cap ? 2 * m->cap : 64 };

		g.keys = calloc(g.cap, sizeof(*g.keys));
		g.lines = calloc(g.cap, sizeof(*g.lines));
		if (!g.keys || !g.lines) {
			free(g.keys);
			free(g.lines);
			m->err = -ENOMEM;
			return NULL;
		}
		for (size_t k = 0; k < m->cap; k++) {
			if (!m->keys[k])
				continue;
			for (i = hm_hash_u64(m->keys[k]) & (g.cap - 1); g.keys[i]; i = (i + 1) & (g.cap - 1))
				;
			g.keys[i] = m->keys[k];
			g.lines[i] = m->lines[k];
		}
		free(m->keys);
		free(m->lines);
		m->keys = g.keys;
		m->lines = g.lines;
		m->cap = g.cap;
	}
	for (i = hm_hash_u64(key) & (m->cap - 1); m->keys[i] && m->keys[i] != key;
	     i = (i + 1) & (m->cap - 1))
		;
	if (!m->keys[i]) {
		m->keys[i] = key;
		m->lines[i] = UINT64_MAX;	/* not counted yet */
		m->n++;
	}
	return &m->lines[i];
}

static uint64_t record_lines(const struct pctx *c, struct size_memo *m, hm_type_id id,
			     unsigned depth);

/* type_fp's expansions: the member lines that printing id at depth adds. */
static uint64_t type_lines(const struct pctx *c, struct size_memo *m, hm_type_id id,
			   unsigned depth)
{
	const hm_type *ty = T(c, id);
	int expand = m->expand && depth <= EXPAND_DEPTH, guard = 0;

	if (depth > PRINT_DEPTH)
		return 0;
	if (expand)
		while (ty && ty->kind == HM_KIND_TYPEDEF && guard++ < 256)
			ty = T(c, id = ty->target);
	if (!ty || needs_declarator(c, id, 0, 0))
		return 0;
	for (guard = 0; ty && guard < 64; guard++) {
		switch (ty->kind) {
		case HM_KIND_POINTER:
			if (!pointee_inline(c, ty))
				return 0;
			break;
		case HM_KIND_CONST:
		case HM_KIND_ATOMIC:
		case HM_KIND_VOLATILE:
		case HM_KIND_RESTRICT:
			if (quals_by_name(c, id))
				return 0;
			break;
		case HM_KIND_ARRAY:
			return type_lines(c, m, array_elem(c, ty), depth + 1);
		case HM_KIND_STRUCT:
		case HM_KIND_CLASS:
		case HM_KIND_UNION:
			if (ty->name && !expand)
				return 0;
			return record_lines(c, m, id, depth + 1);
		default:
			return 0;
		}
		ty = T(c, id = ty->target);
	}
	return 0;
}

/* class_fp's and union_fp's: a line per member, and what each expands to. */
static uint64_t record_lines(const struct pctx *c, struct size_memo *m, hm_type_id id,
			     unsigned depth)
{
	const hm_type *ty = T(c, id);
	const hm_member *mm = hm_types_members(c->t, ty);
	uint64_t *slot = memo_slot(m, ((uint64_t)id << 16 | depth) + 1), n = 0;

	if (!slot)
		return 0;
	if (*slot != UINT64_MAX)
		return *slot;
	for (uint32_t i = 0; i < ty->nr && n < SIZE_LINES_MAX && !m->err; i++) {
		if (mm[i].flags & (HM_MEMBER_STATIC | HM_MEMBER_VIRTUAL_BASE))
			continue;
		n = lines_add(n, 1);
		n = lines_add(n, type_lines(c, m, mm[i].type, depth + 1));
	}
	/* the table may have grown meanwhile */
	slot = memo_slot(m, ((uint64_t)id << 16 | depth) + 1);
	if (slot)
		*slot = n;
	return n;
}

/* 0, or -EFBIG when the printout of the record or typedef id would pass
 * HM_SBUF_MAX (as print_top starts it: depth 0). */
static int check_size(const struct pctx *c, hm_type_id id, int expand)
{
	struct size_memo m = { .expand = expand };
	const hm_type *ty = T(c, id);
	uint64_t n = 0;

	if (ty->kind == HM_KIND_TYPEDEF) {	/* as typedef_fp goes */
		id = ty->target;
		while ((ty = T(c, id)) && ty->kind == HM_KIND_ATOMIC)
			id = ty->target;
		if (ty && !needs_declarator(c, id, 0, 0)) {
			if (ty->kind == HM_KIND_ARRAY)
				n = type_lines(c, &m, array_elem(c, ty), 1);
			else if ((ty->kind == HM_KIND_STRUCT || ty->kind == HM_KIND_CLASS) &&
				 !ty->name)
				n = record_lines(c, &m, id, 0);
		}
	} else {
		n = record_lines(c, &m, id, 0);
	}
	free(m.keys);
	free(m.lines);
	if (m.err)
		return m.err;
	return n >= SIZE_LINES_MAX ? -EFBIG : 0;
}

static void typedef_fp(const struct pctx *c, const hm_type *td, struct pconf *conf);

/* One printout: a struct, union or class, or a typedef (pahole prints the
 * anonymous struct a typedef names, as its body). */
static int print_top(FILE *out, const hm_types *t, hm_type_id id, const struct hm_print_opts *uo,
		     const struct hm_print_hooks *hooks)
{
	struct hm_print_opts oc;
	const struct hm_print_opts *o;
	const hm_type *ty = t ? hm_types_get(t, id) : NULL;
	struct sb b = { 0 };
	struct pctx c = { .t = t, .b = &b, .hooks = hooks, .top = id };
	struct pconf conf = { .type_spacing = 26, .name_spacing = 23, .emit_stats = 1,
			      .path = hooks ? "" : NULL };
	int err = 0;

	if (!HM_OPTS_VALID(uo, hm_print_opts))
		return -EINVAL;
	o = HM_OPTS_COPY(&oc, uo, hm_print_opts);
	c.line = hm_types_cacheline_size(t, o ? o->cacheline_size : 0);
	c.annotate = o ? o->annotate : 0;
	conf.expand = o ? o->expand : 0;
	if (conf.expand)
		conf.name_spacing = 55;
	else if (ty->kind == HM_KIND_UNION)
		conf.name_spacing = 21;
	if ((err = check_size(&c, id, conf.expand)))
		return err;
	if (ty->kind == HM_KIND_TYPEDEF)
		typedef_fp(&c, ty, &conf);
	else if (ty->kind == HM_KIND_UNION)
		union_fp(&c, id, &conf, 0);
	else
		class_fp(&c, id, &conf, 0);
	sb_puts(&b, ";\n");
	if (b.err)
		err = b.err;
	else if (fwrite(b.p, 1, b.len, out) != b.len)
		err = -EIO;
	free(b.p);
	return err;
}

static int print_record(FILE *out, const hm_types *t, hm_type_id id, const struct hm_print_opts *o,
			const struct hm_print_hooks *hooks)
{
	const hm_type *ty = t ? hm_types_get(t, id) : NULL;

	if (!ty || !hm_kind_is_record(ty->kind) || ty->declaration)
		return -EINVAL;
	return print_top(out, t, id, o, hooks);
}

int hm_layout_print(FILE *out, const hm_types *t, hm_type_id id, const struct hm_print_opts *o)
{
	return print_record(out, t, id, o, NULL);
}

/* pahole's typedef__fprintf. */
static void typedef_fp(const struct pctx *c, const hm_type *td, struct pconf *conf)
{
	struct sb *o = c->b;
	const char *name = td->name ? td->name : "";
	hm_type_id id = td->target;
	const hm_type *ty;

	sb_puts(o, "typedef ");
	if (!id) {
		sb_printf(o, "void %s", name);
		return;
	}
	while ((ty = T(c, id)) && ty->kind == HM_KIND_ATOMIC) {
		sb_puts(o, "_Atomic ");
		id = ty->target;
	}
	if (ty && needs_declarator(c, id, 0, 0)) {
		struct sb spec = { 0 }, decl = { 0 };

		sb_puts(&decl, name);
		hm_types_declare_into(c->t, id, HM_DECL_BODY, &spec, &decl);
		sb_printf(o, "%s %s", spec.p ? spec.p : "", decl.p ? decl.p : "");
		free(spec.p);
		free(decl.p);
		return;
	}
	switch (ty ? ty->kind : HM_KIND_VOID) {
	case HM_KIND_ARRAY:
		array_fp(c, ty, name, conf, 0);
		return;
	case HM_KIND_POINTER:
		if (kind_of(c, ty->target) == HM_KIND_FUNC) {
			ftype(c, ty->target, name, 1, 0, o, 0);
			return;
		}
		break;
	case HM_KIND_FUNC:
		ftype(c, id, name, 0, 0, o, 0);
		return;
	case HM_KIND_STRUCT:
	case HM_KIND_CLASS:
		if (ty->name) {
			sb_printf(o, "struct %s %s", ty->name, name);
		} else {
			struct pconf tc = *conf;

			tc.suffix = name;
			class_fp(c, id, &tc, 0);
		}
		return;
	case HM_KIND_ENUM:
		if (ty->name) {
			sb_printf(o, "enum %s %s", ty->name, name);
		} else {
			struct pconf tc = *conf;

			tc.suffix = name;
			enum_fp(c, ty, &tc);
		}
		return;
	default:
		break;
	}
	{
		struct sb n = { 0 };

		tname(c, id, &n, 0);
		sb_printf(o, "%s %s", n.p ? n.p : "", name);
		free(n.p);
	}
}

static int print_typedef(FILE *out, const hm_types *t, hm_type_id id, const struct hm_print_opts *o,
			 const struct hm_print_hooks *hooks)
{
	const hm_type *ty = t ? hm_types_get(t, id) : NULL;

	if (!ty || ty->kind != HM_KIND_TYPEDEF)
		return -EINVAL;
	return print_top(out, t, id, o, hooks);
}

int hm_layout_print_typedef(FILE *out, const hm_types *t, hm_type_id id,
			    const struct hm_print_opts *o)
{
	return print_typedef(out, t, id, o, NULL);
}

int hmi_layout_print_hooked(FILE *out, const hm_types *t, hm_type_id id,
			   const struct hm_print_opts *o, const struct hm_print_hooks *user)
{
	struct hm_print_hooks h;
	const hm_type *ty = t ? hm_types_get(t, id) : NULL;

	if (HM_OPTS_TAKE(&h, user, hm_print_hooks))
		return -EINVAL;
	if (ty && ty->kind == HM_KIND_TYPEDEF)
		return print_typedef(out, t, id, o, &h);
	return print_record(out, t, id, o, &h);
}

int hm_layout_print_list_line(FILE *out, const hm_types *t, hm_type_id id, unsigned line)
{
	const hm_type *ty = t ? hm_types_get(t, id) : NULL;
	const char *name = ty ? ty->name : NULL, *scope = ty ? ty->scope : NULL;
	struct hmi_layout_holes *h;

	if (ty && ty->kind == HM_KIND_TYPEDEF) {
		ty = hm_types_get(t, hm_types_resolve(t, id));
		if (ty && ty->name) {
			name = ty->name;
			scope = ty->scope;
		}
	}
	if (!ty || !hm_kind_is_record(ty->kind))
		return -EINVAL;
	line = hm_types_cacheline_size(t, line);
	if (hmi_layout_holes_new(t, ty, &h))
		return -ENOMEM;
	/* pahole --sizes' columns first, in its order: scripts that read them
	 * by position keep working; the cacheline count is appended */
	fprintf(out, "%s%s%s\t%" PRIu64 "\t%u\t%" PRIu64 "\n", name && scope ? scope : "",
		name && scope ? "::" : "", name ? name : "", ty->size, hmi_layout_holes_count(h),
		(ty->size + line - 1) / line);
	hmi_layout_holes_free(h);
	return ferror(out) ? -EIO : 0;
}
