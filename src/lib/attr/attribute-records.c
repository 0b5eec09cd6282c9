/* The records of a binary's type table by name, for attribution by
 * instruction: a pointer's pointee is known by its name and size (from the
 * variable's DWARF type), and every distinct sampled IP asks.  A sorted
 * array built on the first question, then binary searches: the cost grows
 * with the distinct IPs, not with the number of records times them. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "attr/attribute-int.h"

struct rec_name {
	const char *name;
	hm_type_id id;
};

static int by_name(const void *x, const void *y)
{
	const struct rec_name *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	return c ? c : (a->id > b->id) - (a->id < b->id);
}

static int build(struct binent *b)
{
	const hm_type_id *ids;
	size_t n = hm_types_structs(b->types, &ids), i, k = 0;

	b->recs = calloc(n ? n : 1, sizeof(*b->recs));
	if (!b->recs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const hm_type *ty = hm_types_get(b->types, ids[i]);

		if (ty && ty->name)
			b->recs[k++] = (struct rec_name){ ty->name, ids[i] };
	}
	qsort(b->recs, k, sizeof(*b->recs), by_name);
	b->nrecs = k;
	return 0;
}

size_t attr_records_named(struct binent *b, const char *name, hm_type_id *first)
{
	size_t lo = 0, hi, n = 0;

	*first = HM_TYPE_NONE;
	if (!b->recs && build(b))
		return 0;
	hi = b->nrecs;
	while (lo < hi) {	/* the first entry not below name */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(b->recs[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < b->nrecs && !strcmp(b->recs[lo].name, name))
		*first = b->recs[lo].id;
	while (lo + n < b->nrecs && !strcmp(b->recs[lo + n].name, name))
		n++;
	return n;
}

void attr_records_free(struct binent *b)
{
	free(b->recs);
	b->recs = NULL;
	b->nrecs = 0;
}

/* The record named `name` of size `size` in b's types: 0 and *id, or the
 * bucket that says why not. */
enum hm_attr_bucket attr_find_record(struct binent *b, const char *name, uint64_t size,
				     hm_type_id *id)
{
	size_t seen = attr_records_named(b, name, id);

	if (!*id) {
		/* An anonymous record known by its typedef's name
		 * (pthread_mutex_t): the typedef must lead to it. */
		hm_type_id td = hm_types_find_typedef(b->types, name);
		const hm_type *ty;

		*id = td ? hm_types_resolve(b->types, td) : HM_TYPE_NONE;
		ty = *id ? hm_types_get(b->types, *id) : NULL;
		if (!ty || !hm_kind_is_record(ty->kind) || ty->name) {
			*id = HM_TYPE_NONE;
			return HM_UNATTR_UNTYPED;
		}
		seen = 1;
	}
	/* Two different definitions of one name: which one this pointer
	 * means is not known here. */
	if (seen > 1)
		return HM_UNATTR_AMBIGUOUS;
	if (size && hm_types_sizeof(b->types, *id) != size)
		return HM_UNATTR_AMBIGUOUS;
	return HM_ATTR_INSN;
}
