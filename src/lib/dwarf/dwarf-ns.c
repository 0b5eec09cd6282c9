/* dwarf-ns: the C++ scope of a type DIE.  A type is met by reference as
 * often as by the walk (a member's type, a base class), and libdwarf gives
 * a DIE no parent, so a C++ unit's namespaces and named classes are first
 * indexed as ranges of DIE offsets: a DIE's children lie between it and its
 * next sibling.  The scope of a type is then the innermost range holding
 * its offset, spelt as a qualified name, so that std::X and other::X are
 * different types (hm_type.scope). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf/dwarf-int.h"

#define MAX_SCOPE_DEPTH 16	/* as deep as the walk enters namespaces */

static int scope_tag(int tag)
{
	return tag == DW_TAG_namespace || dw_is_aggregate(tag);
}

/* Children of parent that open a scope, with their own: end is where the
 * parent's range ends. */
static void spans_under(struct loader *ld, Dwarf_Die parent, uint32_t up, uint64_t end,
			unsigned level)
{
	long prev = -1;	/* the last span added at this level */
	Dwarf_Die c;

	for (c = dw_first_child(ld, parent); c && !ld->err; c = dw_next_sibling(ld, c)) {
		Dwarf_Half tag = 0;
		Dwarf_Off off = 0;
		Dwarf_Error e = NULL;
		struct dw_span sp = { 0 };
		long idx;

		if (dwarf_tag(c, &tag, &e) != DW_DLV_OK ||
		    dwarf_dieoffset(c, &off, &e) != DW_DLV_OK) {
			dw_bad(ld, e, "entry");
			break;
		}
		if (prev >= 0 && ld->spans.v[prev].end > off)
			ld->spans.v[prev].end = off;
		if (!scope_tag(tag))
			continue;
		sp.name = dw_die_name(ld, c);
		if (!sp.name && tag == DW_TAG_namespace)
			sp.name = "(anonymous namespace)";	/* as gdb spells it */
		if (!sp.name) {
			/* an anonymous class adds no name, what it holds is of
			 * the scope around it */
			if (level < MAX_SCOPE_DEPTH)
				spans_under(ld, c, up, end, level + 1);
			continue;
		}
		sp.start = off;
		sp.end = end;
		sp.parent = up;
		if ((idx = hm_vec_push(ld->spans, sp)) < 0) {
			dw_set_err(ld, -ENOMEM);
			break;
		}
		prev = idx;
		if (level < MAX_SCOPE_DEPTH)
			spans_under(ld, c, (uint32_t)idx + 1, end, level + 1);
		/* the children's ranges end at this DIE's end, known only at
		 * its next sibling: the spans added under it are fixed there */
	}
	if (c)
		dwarf_dealloc_die(c);
}

/* A child's range was set to its parent's end when it had no later
 * sibling; a span's end is at most its parent's. */
static void spans_clip(struct loader *ld)
{
	for (size_t i = 0; i < ld->spans.n; i++) {
		struct dw_span *s = &ld->spans.v[i];

		if (s->parent && s->end > ld->spans.v[s->parent - 1].end)
			s->end = ld->spans.v[s->parent - 1].end;
	}
}

void dw_spans_build(struct loader *ld, Dwarf_Die cu)
{
	ld->spans.n = 0;
	if (!ld->cplusplus)
		return;
	spans_under(ld, cu, 0, ld->in_alt ? ld->cu_end | ALT_BIT : ld->cu_end, 0);
	spans_clip(ld);
}

static const char *span_qual(struct loader *ld, uint32_t i)
{
	struct dw_span *s = &ld->spans.v[i];
	const char *up;
	hm_sbuf b = { 0 };

	if (s->qual)
		return s->qual;
	up = s->parent ? span_qual(ld, s->parent - 1) : NULL;
	if (s->parent && !up)
		return NULL;
	if (up) {
		hm_sbuf_puts(&b, up);
		hm_sbuf_puts(&b, "::");
	}
	hm_sbuf_puts(&b, s->name);
	if (b.err || !(s->qual = hm_types_intern(ld->t, b.p)))
		dw_set_err(ld, -ENOMEM);
	free(b.p);
	return s->qual;
}

const char *dw_scope_of(struct loader *ld, uint64_t off)
{
	size_t lo = 0, hi = ld->spans.n;
	uint32_t i;

	if (!ld->spans.n)
		return NULL;
	/* the last span starting at or before off, then out to one holding it */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ld->spans.v[mid].start <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	for (i = (uint32_t)lo; i; i = ld->spans.v[i - 1].parent) {
		const struct dw_span *s = &ld->spans.v[i - 1];

		/* the DIE that opens a scope is not in it */
		if (s->start < off && off < s->end)
			return span_qual(ld, i - 1);
	}
	return NULL;
}
