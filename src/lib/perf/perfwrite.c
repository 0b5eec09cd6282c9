/* perfwrite: standard perf.data files (file mode).
 *
 * Layout written: header (104 bytes), the id arrays and the attr section
 * (written when the first record arrives, so every event is known), the data
 * section, then the feature table and feature payloads.  The header is
 * rewritten at close with the final sizes, and by hmi_perf_writer_sync()
 * with the data written so far.
 *
 * A writer can produce the opposite byte order (hm_perf_writer_set_swap) so
 * that tests can prove the reader's swapping against the real perf.  In that
 * mode every integer is swapped and the attr bitfield word gets its bits
 * reversed inside each byte, which is how perf reads another endianness.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hitmap/hitmap.h"
#include "hitmap/perfwrite.h"
#include "base/diag.h"
#include "base/util.h"
#include "perf/perfdata-int.h"
#include "perf/perfwrite-int.h"
#include "perf/perfwrite-lib.h"
#include <zstd.h>

uint64_t hm_pw_o64(const hm_perf_writer *w, uint64_t v)
{
	return w->swap ? __builtin_bswap64(v) : v;
}

static uint64_t o64(const hm_perf_writer *w, uint64_t v)
{
	return hm_pw_o64(w, v);
}

static uint32_t o32(const hm_perf_writer *w, uint32_t v)
{
	return w->swap ? __builtin_bswap32(v) : v;
}

static uint16_t o16(const hm_perf_writer *w, uint16_t v)
{
	return w->swap ? __builtin_bswap16(v) : v;
}

static int wflush(hm_perf_writer *w)
{
	size_t done = 0;

	while (done < w->blen) {
		ssize_t n = write(w->fd, w->buf + done, w->blen - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;

			w->blen = 0;
			if (!w->err)
				w->err = hm_fail(e, "%s: cannot write: %s", w->path, strerror(e));
			return w->err;
		}
		done += n;
	}
	w->blen = 0;
	return 0;
}

void hm_pw_bytes(hm_perf_writer *w, const void *p, size_t n)
{
	const unsigned char *s = p;

	if (w->err)
		return;
	while (n) {
		size_t k = WBUF_SIZE - w->blen;

		if (k > n)
			k = n;
		memcpy(w->buf + w->blen, s, k);
		w->blen += k;
		w->pos += k;
		s += k;
		n -= k;
		if (w->blen == WBUF_SIZE && wflush(w))
			return;
	}
}

void hm_pw_u64(hm_perf_writer *w, uint64_t v)
{
	v = o64(w, v);
	hm_pw_bytes(w, &v, 8);
}

void hm_pw_u32(hm_perf_writer *w, uint32_t v)
{
	v = o32(w, v);
	hm_pw_bytes(w, &v, 4);
}

/* perf's string: u32 length (with NUL, padded to 64) then the bytes. */
void hm_pw_str(hm_perf_writer *w, const char *s)
{
	static const char zero[64];
	size_t n = strlen(s) + 1, len = (n + 63) & ~(size_t)63;

	hm_pw_u32(w, (uint32_t)len);
	hm_pw_bytes(w, s, n);
	hm_pw_bytes(w, zero, len - n);
}

/* Record building: w->rec holds one record at a time. */
static void r64(hm_perf_writer *w, uint64_t v)
{
	if (w->rlen + 8 <= sizeof(w->rec)) {
		v = o64(w, v);
		memcpy(w->rec + w->rlen, &v, 8);
	}
	w->rlen += 8;
}

static void r32x2(hm_perf_writer *w, uint32_t a, uint32_t b)
{
	if (w->rlen + 8 <= sizeof(w->rec)) {
		a = o32(w, a);
		b = o32(w, b);
		memcpy(w->rec + w->rlen, &a, 4);
		memcpy(w->rec + w->rlen + 4, &b, 4);
	}
	w->rlen += 8;
}

static void rbytes(hm_perf_writer *w, const void *p, size_t n)
{
	if (w->rlen + n <= sizeof(w->rec))
		memcpy(w->rec + w->rlen, p, n);
	w->rlen += n;
}

static void rpad8(hm_perf_writer *w)
{
	static const char zero[8];

	rbytes(w, zero, (8 - (w->rlen & 7)) & 7);
}

/* ---- compression (hm_perf_writer_set_compress) ---- */

static void zhdr(hm_perf_writer *w, struct perf_event_header *h)
{
	h->misc = 0;
	h->type = o32(w, h->type);
	h->size = o16(w, h->size);
	hm_pw_bytes(w, h, sizeof(*h));
}

/* Compress what is buffered (ZSTD_e_flush: the stream goes on) and cut the
 * output into COMPRESSED / COMPRESSED2 records of at most 64 KiB. */
static void zflush(hm_perf_writer *w)
{
	ZSTD_inBuffer in = { w->zin, w->zin_len, 0 };
	unsigned char out[32768];
	size_t left;

	do {
		ZSTD_outBuffer o = { out, sizeof(out), 0 };
		size_t k, at = 0;

		left = ZSTD_compressStream2(w->zc, &o, &in, ZSTD_e_flush);
		if (ZSTD_isError(left)) {
			if (!w->err)
				w->err = hm_fail(EIO, "%s: compression failed: %s", w->path,
						 ZSTD_getErrorName(left));
			return;
		}
		while (at < o.pos) {
			struct perf_event_header h;
			static const char zero[8];

			k = o.pos - at < w->zchunk ? o.pos - at : w->zchunk;
			if (w->zv2) {
				uint64_t dsz = hm_pw_o64(w, k);
				size_t pad = (8 - (k & 7)) & 7;

				h.type = (uint32_t)HM_REC_COMPRESSED2;
				h.size = (uint16_t)(16 + k + pad);
				zhdr(w, &h);
				hm_pw_bytes(w, &dsz, 8);
				hm_pw_bytes(w, out + at, k);
				hm_pw_bytes(w, zero, pad);
			} else {
				h.type = (uint32_t)HM_REC_COMPRESSED;
				h.size = (uint16_t)(8 + k);
				zhdr(w, &h);
				hm_pw_bytes(w, out + at, k);
			}
			at += k;
		}
	} while (left || in.pos < in.size);
	w->zin_len = 0;
}

/* Record bytes of the data section: plain, or into the zstd stream. */
static void data_bytes(hm_perf_writer *w, const void *p, size_t n)
{
	const unsigned char *s = p;

	if (!w->zc) {
		hm_pw_bytes(w, p, n);
		return;
	}
	while (n && !w->err) {
		size_t k = w->zblock - w->zin_len < n ? w->zblock - w->zin_len : n;

		memcpy(w->zin + w->zin_len, s, k);
		w->zin_len += k;
		s += k;
		n -= k;
		if (w->zin_len == w->zblock)
			zflush(w);
	}
}

int hm_perf_writer_set_compress(hm_perf_writer *w, int level, size_t block, size_t chunk,
				int v2)
{
	if (w->frozen || w->zc)
		return -EBUSY;
	if (!block || !chunk || chunk > 65000)
		return -EINVAL;
	w->zin = malloc(block);
	w->zc = ZSTD_createCCtx();
	if (!w->zin || !w->zc ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(w->zc, ZSTD_c_compressionLevel, level))) {
		free(w->zin);
		ZSTD_freeCCtx(w->zc);
		w->zin = NULL;
		w->zc = NULL;
		return -ENOMEM;
	}
	w->zblock = block;
	w->zchunk = chunk;
	w->zv2 = !!v2;
	w->zlevel = level;
	return 0;
}

static void rbegin(hm_perf_writer *w)
{
	w->rlen = 8;
}

static int rend(hm_perf_writer *w, uint32_t type, uint16_t misc)
{
	uint32_t t = o32(w, type);
	uint16_t m = o16(w, misc), s;

	if (w->rlen > 0xfff8)
		return hm_fail(E2BIG, "%s: record of %zu bytes is too large", w->path, w->rlen);
	s = o16(w, (uint16_t)w->rlen);
	memcpy(w->rec, &t, 4);
	memcpy(w->rec + 4, &m, 2);
	memcpy(w->rec + 6, &s, 2);
	data_bytes(w, w->rec, w->rlen);
	return w->err;
}

hm_perf_writer *hm_perf_writer_open(const char *path)
{
	hm_perf_writer *w = calloc(1, sizeof(*w));
	unsigned char zero[104] = { 0 };

	if (!w)
		return NULL;
	w->buf = malloc(WBUF_SIZE);
	w->path = strdup(path);
	if (!w->buf || !w->path) {
		free(w->buf);
		free(w->path);
		free(w);
		errno = ENOMEM;
		return NULL;
	}
	/* private, as perf record's: a recording shows what a program did */
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0) {
		int e = errno;

		hm_fail(e, "%s: cannot create: %s", path, strerror(e));
		free(w->buf);
		free(w->path);
		free(w);
		errno = e;
		return NULL;
	}
	hm_pw_bytes(w, zero, sizeof(zero));	/* header placeholder */
	return w;
}

int hm_perf_writer_set_swap(hm_perf_writer *w, int swap)
{
	if (w->frozen || w->nr_ev)
		return -EBUSY;
	w->swap = !!swap;
	return 0;
}

int hm_perf_writer_add_event(hm_perf_writer *w, const struct perf_event_attr *attr,
			     const char *name, const uint64_t *ids, size_t nr_ids)
{
	struct wevent *e;

	if (w->frozen)
		return hm_fail(EBUSY, "%s: events must be added before records", w->path);
	if (hm_grow((void **)&w->ev, &w->cap_ev, w->nr_ev + 1, sizeof(*w->ev)))
		return -ENOMEM;
	e = &w->ev[w->nr_ev];
	memset(e, 0, sizeof(*e));
	memcpy(&e->attr, attr, sizeof(e->attr));
	e->attr.size = sizeof(e->attr);
	e->name = strdup(name ? name : "unknown");
	e->ids = nr_ids ? malloc(nr_ids * sizeof(*ids)) : NULL;
	if (!e->name || (nr_ids && !e->ids)) {
		free(e->name);
		free(e->ids);
		return -ENOMEM;
	}
	if (nr_ids)
		memcpy(e->ids, ids, nr_ids * sizeof(*ids));
	e->nr_ids = nr_ids;
	return (int)w->nr_ev++;
}

/* Reverse the bits of each byte: perf's convention for the attr bitfield
 * word of a file of the other endianness. */
static uint8_t revbyte(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	return (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
}

/* The attr as stored in the file, in the file's byte order. */
void hm_pw_attr_out(const hm_perf_writer *w, const struct perf_event_attr *in,
		     struct perf_event_attr *a)
{
	unsigned char *flags;
	size_t i;

	*a = *in;
	if (!w->swap)
		return;
	a->type = o32(w, a->type);
	a->size = o32(w, a->size);
	a->config = o64(w, a->config);
	a->sample_period = o64(w, a->sample_period);
	a->sample_type = o64(w, a->sample_type);
	a->read_format = o64(w, a->read_format);
	flags = (unsigned char *)&a->read_format + 8;
	for (i = 0; i < 8; i++)
		flags[i] = revbyte(flags[i]);
	a->wakeup_events = o32(w, a->wakeup_events);
	a->bp_type = o32(w, a->bp_type);
	a->bp_addr = o64(w, a->bp_addr);
	a->bp_len = o64(w, a->bp_len);
	a->branch_sample_type = o64(w, a->branch_sample_type);
	a->sample_regs_user = o64(w, a->sample_regs_user);
	a->sample_stack_user = o32(w, a->sample_stack_user);
	a->clockid = (int32_t)o32(w, (uint32_t)a->clockid);
	a->sample_regs_intr = o64(w, a->sample_regs_intr);
	a->aux_watermark = o32(w, a->aux_watermark);
	a->sample_max_stack = o16(w, a->sample_max_stack);
	a->aux_sample_size = o32(w, a->aux_sample_size);
	a->sig_data = o64(w, a->sig_data);
}

/* Write the id arrays and the attr section; fixes the data offset. */
static int freeze(hm_perf_writer *w)
{
	size_t i, j;

	if (w->frozen)
		return w->err;
	w->frozen = 1;
	for (i = 0; i < w->nr_ev; i++) {
		w->ev[i].ids_off = w->pos;
		for (j = 0; j < w->ev[i].nr_ids; j++)
			hm_pw_u64(w, w->ev[i].ids[j]);
	}
	w->attr_off = w->pos;
	for (i = 0; i < w->nr_ev; i++) {
		struct perf_event_attr a;

		hm_pw_attr_out(w, &w->ev[i].attr, &a);
		hm_pw_bytes(w, &a, sizeof(a));
		hm_pw_u64(w, w->ev[i].ids_off);
		hm_pw_u64(w, w->ev[i].nr_ids * 8);
	}
	w->data_off = w->pos;
	return w->err;
}

int hm_perf_writer_raw(hm_perf_writer *w, const void *rec, size_t len)
{
	const struct perf_event_header *h = rec;

	if (w->swap)
		return hm_fail(EINVAL, "%s: raw records cannot be byte-swapped", w->path);
	if (len < sizeof(*h) || h->size != len || (len & 7))
		return hm_fail(EINVAL, "%s: raw record of %zu bytes is malformed", w->path, len);
	if (freeze(w))
		return w->err;
	data_bytes(w, rec, len);
	return w->err;
}

int hm_perf_writer_raw_payload(hm_perf_writer *w, const void *rec, size_t len,
			       const void *payload, size_t plen)
{
	int err = hm_perf_writer_raw(w, rec, len);

	if (err)
		return err;
	data_bytes(w, payload, plen);
	return w->err;
}

static uint64_t first_id(const hm_perf_writer *w, uint32_t ev)
{
	return ev < w->nr_ev && w->ev[ev].nr_ids ? w->ev[ev].ids[0] : 0;
}

static void note_time(hm_perf_writer *w, uint64_t t)
{
	if (!w->have_time || t < w->first_time)
		w->first_time = t;
	if (!w->have_time || t > w->last_time)
		w->last_time = t;
	w->have_time = 1;
}

/* READ payload with zero values, shaped by read_format. */
static void put_read(hm_perf_writer *w, uint64_t rf, uint64_t id)
{
	if (rf & PERF_FORMAT_GROUP) {
		r64(w, 1);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			r64(w, 0);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			r64(w, 0);
		r64(w, 0);
		if (rf & PERF_FORMAT_ID)
			r64(w, id);
		if (rf & PERF_FORMAT_LOST)
			r64(w, 0);
		return;
	}
	r64(w, 0);
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		r64(w, 0);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		r64(w, 0);
	if (rf & PERF_FORMAT_ID)
		r64(w, id);
	if (rf & PERF_FORMAT_LOST)
		r64(w, 0);
}

int hm_perf_writer_sample(hm_perf_writer *w, const hm_sample *s)
{
	const struct perf_event_attr *a;
	uint64_t st, id;

	if (s->attr >= w->nr_ev)
		return hm_fail(EINVAL, "%s: sample of unknown event %u", w->path, s->attr);
	if (freeze(w))
		return w->err;
	a = &w->ev[s->attr].attr;
	st = a->sample_type;
	id = (s->has & HM_HAS_ID) ? s->id : first_id(w, s->attr);
	if ((s->has & HM_HAS_RAW) && s->raw_size > 0xfff0)
		return hm_fail(E2BIG, "%s: raw data of %u bytes is too large", w->path, s->raw_size);
	rbegin(w);
	if (st & PERF_SAMPLE_IDENTIFIER)
		r64(w, id);
	if (st & PERF_SAMPLE_IP)
		r64(w, s->ip);
	if (st & PERF_SAMPLE_TID)
		r32x2(w, s->pid, s->tid);
	if (st & PERF_SAMPLE_TIME) {
		r64(w, s->time);
		note_time(w, s->time);
	}
	if (st & PERF_SAMPLE_ADDR)
		r64(w, s->addr);
	if (st & PERF_SAMPLE_ID)
		r64(w, id);
	if (st & PERF_SAMPLE_STREAM_ID)
		r64(w, id);
	if (st & PERF_SAMPLE_CPU)
		r32x2(w, s->cpu, 0);
	if (st & PERF_SAMPLE_PERIOD)
		r64(w, s->period);
	if (st & PERF_SAMPLE_READ)
		put_read(w, a->read_format, id);
	if (st & PERF_SAMPLE_CALLCHAIN)
		r64(w, 0);
	if ((st & PERF_SAMPLE_RAW) && (s->has & HM_HAS_RAW)) {
		/* u32 size, the record, zeros to the next 8 bytes (the size
		 * counts them, as the kernel's does) */
		uint32_t n = (s->raw_size + 4 + 7) / 8 * 8 - 4, sz = o32(w, n);
		static const unsigned char zero[8];

		rbytes(w, &sz, 4);
		rbytes(w, s->raw, s->raw_size);
		rbytes(w, zero, n - s->raw_size);
	} else if (st & PERF_SAMPLE_RAW) {
		r32x2(w, 4, 0);	/* u32 size = 4, four zero bytes */
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		r64(w, 0);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			r64(w, 0);
	}
	if (st & PERF_SAMPLE_REGS_USER)
		r64(w, 0);
	if (st & PERF_SAMPLE_STACK_USER)
		r64(w, 0);
	if (st & PERF_SAMPLE_WEIGHT)
		r64(w, s->weight);
	else if (st & PERF_SAMPLE_WEIGHT_STRUCT)
		r64(w, s->weight & 0xffffffffu);
	if (st & PERF_SAMPLE_DATA_SRC)
		r64(w, s->data_src);
	if (st & PERF_SAMPLE_TRANSACTION)
		r64(w, 0);
	if (st & PERF_SAMPLE_REGS_INTR)
		r64(w, 0);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		r64(w, s->phys_addr);
	if (st & PERF_SAMPLE_CGROUP)
		r64(w, 0);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		r64(w, 0);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		r64(w, 0);
	if (st & PERF_SAMPLE_AUX)
		r64(w, 0);
	return rend(w, PERF_RECORD_SAMPLE, s->cpumode ? s->cpumode : PERF_RECORD_MISC_USER);
}

/* sample_id_all trailer of a non-sample record, from the first event. */
static void put_trailer(hm_perf_writer *w, uint32_t pid, uint32_t tid, uint64_t time)
{
	const struct perf_event_attr *a;
	uint64_t st, id = first_id(w, 0);

	if (!w->nr_ev || !w->ev[0].attr.sample_id_all)
		return;
	a = &w->ev[0].attr;
	st = a->sample_type;
	if (st & PERF_SAMPLE_TID)
		r32x2(w, pid, tid);
	if (st & PERF_SAMPLE_TIME)
		r64(w, time);
	if (st & PERF_SAMPLE_ID)
		r64(w, id);
	if (st & PERF_SAMPLE_STREAM_ID)
		r64(w, id);
	if (st & PERF_SAMPLE_CPU)
		r32x2(w, 0, 0);
	if (st & PERF_SAMPLE_IDENTIFIER)
		r64(w, id);
}

int hm_perf_writer_comm(hm_perf_writer *w, uint32_t pid, uint32_t tid, const char *comm)
{
	if (freeze(w))
		return w->err;
	rbegin(w);
	r32x2(w, pid, tid);
	rbytes(w, comm, strlen(comm) + 1);
	rpad8(w);
	put_trailer(w, pid, tid, 0);
	return rend(w, PERF_RECORD_COMM, 0);
}

int hm_perf_writer_mmap2(hm_perf_writer *w, const hm_perf_mmap *m)
{
	uint16_t misc = m->cpumode ? m->cpumode : PERF_RECORD_MISC_USER;
	const char *name = m->filename ? m->filename : "//anon";

	if (freeze(w))
		return w->err;
	rbegin(w);
	r32x2(w, m->pid, m->tid);
	r64(w, m->start);
	r64(w, m->len);
	r64(w, m->pgoff);
	if (m->build_id_size) {
		unsigned char bid[24] = { 0 };

		bid[0] = m->build_id_size > 20 ? 20 : m->build_id_size;
		memcpy(bid + 4, m->build_id, bid[0]);
		rbytes(w, bid, sizeof(bid));
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	} else {
		r32x2(w, m->maj, m->min);
		r64(w, m->ino);
		r64(w, m->ino_generation);
	}
	r32x2(w, m->prot, m->flags);
	rbytes(w, name, strlen(name) + 1);
	rpad8(w);
	put_trailer(w, m->pid, m->tid, 0);
	return rend(w, PERF_RECORD_MMAP2, misc);
}

int hm_perf_writer_task(hm_perf_writer *w, int exit, const hm_perf_task *t)
{
	if (freeze(w))
		return w->err;
	rbegin(w);
	r32x2(w, t->pid, t->ppid);
	r32x2(w, t->tid, t->ptid);
	r64(w, t->time);
	put_trailer(w, t->pid, t->tid, t->time);
	return rend(w, exit ? PERF_RECORD_EXIT : PERF_RECORD_FORK, 0);
}

int hm_perf_writer_text_poke(hm_perf_writer *w, const hm_perf_text_poke *t)
{
	uint16_t len[2] = { w->swap ? __builtin_bswap16(t->old_len) : t->old_len,
			    w->swap ? __builtin_bswap16(t->new_len) : t->new_len };

	if (freeze(w))
		return w->err;
	rbegin(w);
	r64(w, t->addr);
	rbytes(w, len, sizeof(len));
	rbytes(w, t->old_bytes, t->old_len);
	rbytes(w, t->new_bytes, t->new_len);
	rpad8(w);
	put_trailer(w, (uint32_t)-1, (uint32_t)-1, 0);
	return rend(w, PERF_RECORD_TEXT_POKE, PERF_RECORD_MISC_KERNEL);
}

static int pwrite_all(hm_perf_writer *w, const void *p, size_t n, uint64_t off)
{
	const unsigned char *s = p;

	while (n) {
		ssize_t k = pwrite(w->fd, s, n, (off_t)off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return hm_fail(k < 0 ? errno : EIO, "%s: cannot write header: %s",
				       w->path, strerror(k < 0 ? errno : EIO));
		s += k;
		off += k;
		n -= k;
	}
	return 0;
}

/* The file header: sizes so far, the given feature bits. */
static int write_header(hm_perf_writer *w, uint64_t data_size, const uint64_t bits[4])
{
	uint64_t hdr[13];
	size_t i;

	memset(hdr, 0, sizeof(hdr));
	hdr[0] = HM_PERF_MAGIC2;	/* swapped below with everything else */
	hdr[1] = 104;
	hdr[2] = sizeof(struct perf_event_attr) + 16;
	hdr[3] = w->attr_off;
	hdr[4] = w->nr_ev * hdr[2];
	hdr[5] = w->data_off;
	hdr[6] = data_size;
	memcpy(&hdr[9], bits, 4 * sizeof(*bits));
	for (i = 0; i < 13; i++)
		hdr[i] = o64(w, hdr[i]);
	return pwrite_all(w, hdr, sizeof(hdr), 0);
}

int hmi_perf_writer_sync(hm_perf_writer *w)
{
	static const uint64_t none[4];

	if (w->zc)
		return 0;	/* a block may be pending in the zstd stream */
	if (freeze(w) || wflush(w))
		return w->err;
	return write_header(w, w->pos - w->data_off, none);
}

static int finish(hm_perf_writer *w)
{
	uint64_t bits[4] = { 0 }, table, data_size, *tab;
	int id, nf = 0, k;

	if (freeze(w))
		return w->err;
	if (w->zc)
		zflush(w);
	data_size = w->pos - w->data_off;
	hm_pw_fill_defaults(w);
	hm_pw_feature_bits(w, bits);
	for (id = 0; id < 256; id++)
		nf += !!(bits[id / 64] & (1ull << (id % 64)));
	tab = calloc(2 * (size_t)nf + 1, sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	/* Feature table first (placeholder), then each payload in id order. */
	table = w->pos;
	hm_pw_bytes(w, tab, 16 * (size_t)nf);
	for (id = 0, k = 0; id < 256; id++) {
		if (!(bits[id / 64] & (1ull << (id % 64))))
			continue;
		tab[2 * k] = w->pos;
		hm_pw_write_feature(w, id);
		tab[2 * k + 1] = w->pos - tab[2 * k];
		k++;
	}
	if (wflush(w)) {
		free(tab);
		return w->err;
	}
	for (k = 0; k < 2 * nf; k++)
		tab[k] = o64(w, tab[k]);
	if (pwrite_all(w, tab, 16 * (size_t)nf, table)) {
		free(tab);
		return -EIO;
	}
	free(tab);
	return write_header(w, data_size, bits);
}

static void wfree(hm_perf_writer *w)
{
	size_t i;

	for (i = 0; i < w->nr_ev; i++) {
		free(w->ev[i].name);
		free(w->ev[i].ids);
	}
	free(w->ev);
	ZSTD_freeCCtx(w->zc);
	free(w->zin);
	for (i = 0; i < w->nr_xf; i++)
		free(w->xf[i].data);
	free(w->xf);
	hm_pw_free_features(&w->feat);
	free(w->buf);
	free(w->path);
	free(w);
}

int hm_perf_writer_close(hm_perf_writer *w)
{
	int ret;

	if (!w)
		return 0;
	ret = finish(w);
	if (close(w->fd) && !ret)
		ret = hm_fail(errno, "%s: cannot close: %s", w->path, strerror(errno));
	wfree(w);
	return ret;
}

void hm_perf_writer_abort(hm_perf_writer *w)
{
	if (!w)
		return;
	close(w->fd);
	unlink(w->path);
	wfree(w);
}
