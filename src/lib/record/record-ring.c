/* record-ring: reading perf_event ring buffers, and putting the records of
 * several buffers back into time order. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "record/record-int.h"
#include "base/diag.h"
#include "base/util.h"

int hm_ring_open(struct hm_ring *r, int fd, unsigned pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->data_size = (size_t)pages * page;
	r->map_size = r->data_size + page;
	r->base = mmap(NULL, r->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		return -errno;
	}
	return 0;
}

void hm_ring_close(struct hm_ring *r)
{
	if (r->base)
		munmap(r->base, r->map_size);
	free(r->scratch);
	r->base = NULL;
	r->scratch = NULL;
}

int hm_ring_drain(struct hm_ring *r,
		  int (*fn)(void *ctx, const struct perf_event_header *h), void *ctx)
{
	struct perf_event_mmap_page *pg = r->base;
	const unsigned char *data = (const unsigned char *)r->base + (r->map_size - r->data_size);
	uint64_t head, tail;
	int rc = 0;

	/* Pairs with the kernel's store-release of data_head. */
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	while (tail < head && !rc) {
		size_t off = tail & (r->data_size - 1);
		struct perf_event_header hdr;
		const struct perf_event_header *h;

		if (off + sizeof(hdr) <= r->data_size) {
			memcpy(&hdr, data + off, sizeof(hdr));
		} else {
			size_t first = r->data_size - off;

			memcpy(&hdr, data + off, first);
			memcpy((char *)&hdr + first, data, sizeof(hdr) - first);
		}
		if (hdr.size < sizeof(hdr) || tail + hdr.size > head)
			break;		/* torn: should not happen, stop reading */
		if (off + hdr.size <= r->data_size) {
			h = (const void *)(data + off);
		} else {
			size_t first = r->data_size - off;

			if (hm_grow((void **)&r->scratch, &r->scratch_cap, hdr.size, 1))
				return -ENOMEM;
			memcpy(r->scratch, data + off, first);
			memcpy(r->scratch + first, data, hdr.size - first);
			h = (const void *)r->scratch;
		}
		rc = fn(ctx, h);
		tail += hdr.size;
	}
	/* The kernel may reuse the space once data_tail moves past it. */
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	return rc;
}

struct hm_order_rec {
	uint64_t time, seq;
	void *data;
	size_t len;
};

int hm_order_add(struct hm_order *q, const void *rec, size_t len, uint64_t time)
{
	struct hm_order_rec *e;
	void *copy;

	if (hm_grow((void **)&q->recs, &q->cap, q->nr + 1, sizeof(*q->recs)))
		return -ENOMEM;
	copy = malloc(len);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, rec, len);
	e = &q->recs[q->nr++];
	e->time = time;
	e->seq = q->seq++;
	e->data = copy;
	e->len = len;
	if (time > q->newest)
		q->newest = time;
	return 0;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct hm_order_rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int hm_order_flush(struct hm_order *q, hm_perf_writer *w, int all)
{
	size_t i, n;
	int rc = 0;

	if (q->nr)	/* qsort's array may not be NULL, even empty */
		qsort(q->recs, q->nr, sizeof(*q->recs), cmp_rec);
	for (n = 0; n < q->nr && (all || q->recs[n].time <= q->limit); n++) {
		if (!rc)
			rc = hm_perf_writer_raw(w, q->recs[n].data, q->recs[n].len);
		free(q->recs[n].data);
	}
	for (i = n; i < q->nr; i++)
		q->recs[i - n] = q->recs[i];
	q->nr -= n;
	q->limit = q->newest;
	return rc;
}

void hm_order_free(struct hm_order *q)
{
	size_t i;

	for (i = 0; i < q->nr; i++)
		free(q->recs[i].data);
	free(q->recs);
	memset(q, 0, sizeof(*q));
}
