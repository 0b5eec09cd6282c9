/* The time-order queue of the sample run (attribute-order.h): samples wait
 * in it, keyed by (time, file order), and leave sorted. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include "attr/attribute-order.h"
#include "base/util.h"

static inline int okey_before(const struct okey *x, const struct okey *y)
{
	return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

/* Merge sorted k[lo, mid) and k[mid, hi) into out[lo, hi). */
static void okey_merge(const struct okey *k, size_t lo, size_t mid, size_t hi, struct okey *out)
{
	size_t i = lo, j = mid, o = lo;

	while (i < mid && j < hi)
		out[o++] = okey_before(&k[j], &k[i]) ? k[j++] : k[i++];
	while (i < mid)
		out[o++] = k[i++];
	while (j < hi)
		out[o++] = k[j++];
}

/* Sort the keys: a natural merge sort, since they arrive as a few sorted
 * runs (one per CPU chunk, plus what waited from the last round). */
void attr_order_sort(struct order *q)
{
	size_t n = q->n, c;
	struct okey *t;

	if (n < 2)
		return;
	for (;;) {
		size_t lo = 0, runs = 0;

		while (lo < n) {
			size_t mid = lo + 1, hi;

			while (mid < n && !okey_before(&q->keys[mid], &q->keys[mid - 1]))
				mid++;
			hi = mid < n ? mid + 1 : n;
			while (hi < n && !okey_before(&q->keys[hi], &q->keys[hi - 1]))
				hi++;
			if (mid == n && !runs)
				return;	/* one run: sorted */
			okey_merge(q->keys, lo, mid, hi, q->tmp);
			runs++;
			lo = hi;
		}
		t = q->keys;
		c = q->keys_cap;
		q->keys = q->tmp;
		q->keys_cap = q->tmp_cap;
		q->tmp = t;
		q->tmp_cap = c;
	}
}

int attr_order_push(struct order *q, const hm_sample *s)
{
	size_t n = q->n;

	if (hm_grow((void **)&q->pool, &q->pool_cap, n + 1, sizeof(*q->pool)) ||
	    hm_grow((void **)&q->spare, &q->spare_cap, n + 1, sizeof(*q->spare)) ||
	    hm_grow((void **)&q->keys, &q->keys_cap, n + 1, sizeof(*q->keys)) ||
	    hm_grow((void **)&q->tmp, &q->tmp_cap, n + 1, sizeof(*q->tmp)))
		return -ENOMEM;
	q->pool[n] = *s;
	q->pool[n].callchain = NULL;	/* the reader's; sample() does not use it */
	q->pool[n].nr_callchain = 0;
	q->keys[n] = (struct okey){ s->time, q->seq++, n };
	q->n++;
	if (q->out_any && s->time < q->out_time)
		q->late++;
	if (s->time > q->max_time)
		q->max_time = s->time;
	return 0;
}

size_t attr_order_upto(const struct order *q, uint64_t upto)
{
	size_t lo = 0, hi = q->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (q->keys[mid].time <= upto)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void attr_order_drop(struct order *q, size_t m)
{
	hm_sample *t;
	size_t i, j, c;

	if (m) {
		q->out_time = q->keys[m - 1].time;
		q->out_any = 1;
	}
	for (i = m, j = 0; i < q->n; i++, j++) {
		q->spare[j] = q->pool[q->keys[i].idx];
		q->keys[j] = (struct okey){ q->keys[i].time, q->keys[i].seq, j };
	}
	q->n = j;
	t = q->pool;
	c = q->pool_cap;
	q->pool = q->spare;
	q->pool_cap = q->spare_cap;
	q->spare = t;
	q->spare_cap = c;
}

void attr_order_free(struct order *q)
{
	free(q->pool);
	free(q->spare);
	free(q->keys);
	free(q->tmp);
}
