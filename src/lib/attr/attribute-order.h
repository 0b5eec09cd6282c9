/* Internal: the time-order queue of the sample run (attribute-run.c).
 *
 * Time order.  perf writes each CPU's ring buffer in chunks, so file order is
 * not time order, and the watchpoint model (heat.h) depends on the order of
 * accesses; perf itself sorts.  Watchpoint samples that carry a time wait in
 * a queue (needs_order()) and
 * leave it as perf's "ordered events" do: at a FINISHED_ROUND record, those
 * not later than the largest time seen up to the previous round (no buffer
 * can still hold an older one); at the end, all.  Equal times keep file
 * order.  Without rounds (hitmap record's own files, already in time order)
 * the queue is a bounded window: when ORDER_WINDOW samples wait (ORDER_MAX
 * once a round was seen), the older half leaves.  A sample older
 * than one already counted is "late": counted anyway, and said in a debug
 * note at the end.  Non-sample records take effect when read, so a sample
 * meets every mapping made up to its round. */
#ifndef HM_ATTRIBUTE_ORDER_H
#define HM_ATTRIBUTE_ORDER_H
#include <stddef.h>
#include <stdint.h>
#include "hitmap/perfdata.h"

#define ORDER_MAX (1u << 18)	/* once a round was seen */
#define ORDER_WINDOW (1u << 15)	/* before: no rounds, maybe none at all */

struct okey {
	uint64_t time, seq;	/* seq: file order among the samples */
	size_t idx;		/* in order.pool */
};

struct order {
	hm_sample *pool, *spare;	/* n waiting samples; spare: the next pool */
	size_t pool_cap, spare_cap;
	struct okey *keys, *tmp;	/* keys[0 .. n - 1], one per waiting sample */
	size_t keys_cap, tmp_cap;
	size_t n;
	uint64_t seq;
	uint64_t limit;		/* largest time seen up to the previous round */
	uint64_t max_time;
	uint64_t out_time;	/* time of the last sample counted */
	uint64_t late;
	unsigned out_any : 1, rounds : 1;
};

/* A sample joins the queue (a copy, without its callchain): 0 or -ENOMEM. */
int attr_order_push(struct order *q, const hm_sample *s);
/* Whether the queue holds as many samples as it may (the older half must
 * leave). */
static inline int attr_order_full(const struct order *q)
{
	return q->n >= (q->rounds ? ORDER_MAX : ORDER_WINDOW);
}
/* Sort the waiting samples by time (equal times in file order). */
void attr_order_sort(struct order *q);
/* How many of the sorted samples are not later than upto. */
size_t attr_order_upto(const struct order *q, uint64_t upto);
/* The i-th sample in time order (after attr_order_sort()). */
static inline const hm_sample *attr_order_nth(const struct order *q, size_t i)
{
	return &q->pool[q->keys[i].idx];
}
/* The first m sorted samples were counted: they leave, the rest wait. */
void attr_order_drop(struct order *q, size_t m);
void attr_order_free(struct order *q);

#endif
