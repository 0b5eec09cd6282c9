/* perfdata-zstd: records inside COMPRESSED / COMPRESSED2 chunks.
 *
 * perf record -z writes one zstd stream cut into chunks; a record may start
 * in one chunk and end in the next.  One decompression context lives for the
 * whole file and inflated bytes wait in a buffer until a whole record is
 * there. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "perf/perfdata-rd.h"

#define ZBUF_MAX (256u << 20)	/* bound on inflated bytes of one chunk */

struct pr_zstd {
	ZSTD_DStream *ds;
	unsigned char *buf;
	size_t cap, start, end;
	uint64_t off;		/* offset of the chunk being read */
};

static int zgrow(hm_perf_reader *r, struct pr_zstd *z, size_t need, uint64_t off)
{
	size_t ncap = z->cap ? z->cap : (1u << 20);
	unsigned char *nb;

	while (ncap - z->end < need)
		ncap *= 2;
	if (ncap > ZBUF_MAX)
		return hm_fail(EBADMSG, "%s: compressed chunk inflates past %u MiB at offset "
			       "0x%" PRIx64, r->name, ZBUF_MAX >> 20, off);
	if (ncap == z->cap)
		return 0;
	nb = realloc(z->buf, ncap);
	if (!nb)
		return -ENOMEM;
	z->buf = nb;
	z->cap = ncap;
	return 0;
}

int hm_pr_zstd_feed(hm_perf_reader *r, const unsigned char *p, uint32_t type,
		    size_t size, uint64_t off)
{
	struct pr_zstd *z = r->z;
	ZSTD_inBuffer in;
	size_t hdr = 8, n = size - 8;
	int full = 0, err;

	if (r->in_zstd)
		return hm_fail(EBADMSG, "%s: compressed record inside compressed data at "
			       "offset 0x%" PRIx64, r->name, off);
	if (type == HM_REC_COMPRESSED2) {
		uint64_t dsz;

		if (size < 16)
			return hm_fail(EBADMSG, "%s: COMPRESSED2 record too short at offset 0x%"
				       PRIx64, r->name, off);
		memcpy(&dsz, p + 8, 8);
		dsz = r->swap ? __builtin_bswap64(dsz) : dsz;
		if (dsz > size - 16)
			return hm_fail(EBADMSG, "%s: COMPRESSED2 data size %" PRIu64 " exceeds "
				       "its record at offset 0x%" PRIx64, r->name, dsz, off);
		hdr = 16;
		n = (size_t)dsz;
	}
	if (!z) {
		z = r->z = calloc(1, sizeof(*z));
		if (!z)
			return -ENOMEM;
		z->ds = ZSTD_createDStream();
		if (!z->ds || ZSTD_isError(ZSTD_initDStream(z->ds)))
			return -ENOMEM;
	}
	if (z->start) {
		memmove(z->buf, z->buf + z->start, z->end - z->start);
		z->end -= z->start;
		z->start = 0;
	}
	z->off = off;
	in.src = p + hdr;
	in.size = n;
	in.pos = 0;
	while (in.pos < in.size || full) {
		ZSTD_outBuffer out;
		size_t ret, before = in.pos;

		if ((err = zgrow(r, z, 1u << 16, off)))
			return err;
		out.dst = z->buf;
		out.size = z->cap;
		out.pos = z->end;
		ret = ZSTD_decompressStream(z->ds, &out, &in);
		if (ZSTD_isError(ret))
			return hm_fail(EBADMSG, "%s: bad compressed data (%s) at offset 0x%" PRIx64,
				       r->name, ZSTD_getErrorName(ret), off);
		full = out.pos == out.size;
		if (out.pos == z->end && in.pos == before && !full)
			return hm_fail(EBADMSG, "%s: compressed data makes no progress at "
				       "offset 0x%" PRIx64, r->name, off);
		z->end = out.pos;
	}
	return 0;
}

int hm_pr_zstd_next(hm_perf_reader *r, const unsigned char **p, uint64_t *off)
{
	struct pr_zstd *z = r->z;
	uint16_t size;

	r->in_zstd = 0;
	if (!z || z->end - z->start < 8)
		return 0;
	memcpy(&size, z->buf + z->start + 6, 2);
	size = r->swap ? __builtin_bswap16(size) : size;
	if (size < 8)
		return hm_fail(EBADMSG, "%s: record size %u smaller than its header in "
			       "compressed data at offset 0x%" PRIx64, r->name, size, z->off);
	if (z->end - z->start < size)
		return 0;
	*p = z->buf + z->start;
	*off = z->off;
	z->start += size;
	r->in_zstd = 1;
	return 1;
}

int hm_pr_zstd_pending(const hm_perf_reader *r)
{
	return r->z && r->z->end > r->z->start;
}

void hm_pr_zstd_free(hm_perf_reader *r)
{
	if (!r->z)
		return;
	ZSTD_freeDStream(r->z->ds);
	free(r->z->buf);
	free(r->z);
	r->z = NULL;
}
