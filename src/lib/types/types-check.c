/* The checks a loaded type table must pass before anyone walks it: corrupt
 * debug info (DWARF or BTF) can close a chain of typedefs, qualifiers,
 * pointers and arrays into a cycle, or make a struct hold itself by value.
 * Every loader calls hm_types_check_chains() on the table it built. */
#include "config.h"
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "hitmap/types.h"
#include "base/diag.h"
#include "types/types-int.h"

/* The struct/union/class a member holds by value (through typedefs,
 * qualifiers and arrays), or 0. */
hm_type_id hm_types_held_record(const hm_types *t, hm_type_id id)
{
	const hm_type *ty;

	for (unsigned hop = 0; hop < 256 && (ty = hm_types_get(t, id)); hop++) {
		if (hm_kind_is_record(ty->kind))
			return id;
		if (ty->kind != HM_KIND_TYPEDEF && ty->kind != HM_KIND_CONST &&
		    ty->kind != HM_KIND_VOLATILE && ty->kind != HM_KIND_RESTRICT &&
		    ty->kind != HM_KIND_ATOMIC && ty->kind != HM_KIND_ARRAY)
			return 0;
		id = ty->target;
	}
	return 0;
}

/* No struct holds itself by value, however deep: corrupt debug info that
 * says so would send every recursive walk (alignment, layout, printing)
 * round the cycle.  Depth-first with an explicit stack: nesting depth is
 * input-controlled. */
static int check_nesting(const hm_types *t, const char *name)
{
	struct frame { hm_type_id id; uint32_t next; } *st;
	size_t n = t->types.n, sp = 0;
	unsigned char *state;	/* 0 unseen, 1 on the stack, 2 done */
	/* each member type's record, + 1 (0: not asked yet): a table has
	 * many more members than member types */
	hm_type_id *held;
	int rc = 0;

	state = calloc(n ? n : 1, 1);
	st = malloc((n ? n : 1) * sizeof(*st));
	held = calloc(n ? n : 1, sizeof(*held));
	if (!state || !st || !held) {
		free(state);
		free(st);
		free(held);
		return -ENOMEM;
	}
	for (size_t r = 1; r < n && !rc; r++) {
		if (state[r] || !hm_kind_is_record(t->types.v[r].kind))
			continue;
		state[r] = 1;
		st[sp++] = (struct frame){ (hm_type_id)r, 0 };
		while (sp && !rc) {
			struct frame *f = &st[sp - 1];
			const hm_type *ty = &t->types.v[f->id];
			const hm_member *m = hm_types_members(t, ty);
			hm_type_id c;

			if (f->next >= ty->nr) {
				state[f->id] = 2;
				sp--;
				continue;
			}
			if (m[f->next++].flags & HM_MEMBER_STATIC)
				continue;
			c = m[f->next - 1].type;
			if (c < n) {
				if (!held[c])
					held[c] = hm_types_held_record(t, c) + 1;
				c = held[c] - 1;
			} else {
				c = hm_types_held_record(t, c);
			}
			if (!c || c >= n || state[c] == 2)
				continue;
			if (state[c] == 1)
				rc = hm_fail(EBADMSG, "%s: corrupt debug info: '%s' holds itself "
					     "(a cycle of members)", name,
					     t->types.v[c].name ? t->types.v[c].name : "(anonymous)");
			else {
				state[c] = 1;
				st[sp++] = (struct frame){ c, 0 };
			}
		}
	}
	free(state);
	free(st);
	free(held);
	return rc;
}

static int is_link(enum hm_type_kind k)
{
	return k == HM_KIND_TYPEDEF || k == HM_KIND_CONST || k == HM_KIND_VOLATILE ||
	       k == HM_KIND_RESTRICT || k == HM_KIND_ATOMIC || k == HM_KIND_POINTER ||
	       k == HM_KIND_ARRAY || k == HM_KIND_REFERENCE || k == HM_KIND_RVALUE_REFERENCE;
}

#define CHAIN_MAX 256
#define ON_PATH UINT16_MAX

static int chain_fail(const hm_types *t, hm_type_id id, const char *name)
{
	const char *n = t->types.v[id].name;

	return hm_fail(EBADMSG, "%s: corrupt debug info: type chain through '%s' does not end "
		       "(a cycle)", name, n ? n : "(anonymous)");
}

/* Chains of typedefs, qualifiers, pointers and arrays must end: corrupt
 * debug info can close one into a cycle (no C type is its own pointer or
 * element), which every consumer walking it would have to guard against.
 * No real chain comes near CHAIN_MAX links.  Each type's number of links
 * is kept once known, so a chain is walked once, not once from each of its
 * types (the C library's table has 18 000 types).  Then the
 * nesting (check_nesting). */
int hm_types_check_chains(const hm_types *t, const char *name)
{
	size_t n = t->types.n;
	/* links + 1 when known, 0 not yet, ON_PATH on the walk in hand */
	uint16_t *links = calloc(n ? n : 1, sizeof(*links));
	hm_type_id path[CHAIN_MAX];
	int rc = 0;

	if (!links)
		return -ENOMEM;
	for (size_t i = 1; i < n && !rc; i++) {
		hm_type_id id = (hm_type_id)i;
		size_t k = 0, base = 0;
		const hm_type *ty;

		while ((ty = hm_types_get(t, id)) && is_link(ty->kind)) {
			if (links[id] == ON_PATH || k == CHAIN_MAX) {
				rc = chain_fail(t, id, name);
				break;
			}
			if (links[id]) {
				base = links[id] - 1u;
				break;
			}
			links[id] = ON_PATH;
			path[k++] = id;
			id = ty->target;
		}
		/* the walk's types, from the end: one link more than the next */
		for (size_t j = k; j-- > 0;) {
			size_t d = base + (k - j);

			if (!rc && d >= CHAIN_MAX)
				rc = chain_fail(t, path[j], name);
			links[path[j]] = (uint16_t)(d >= CHAIN_MAX ? CHAIN_MAX : d + 1);
		}
	}
	free(links);
	return rc ? rc : check_nesting(t, name);
}

