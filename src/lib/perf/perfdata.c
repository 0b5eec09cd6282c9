/* perfdata: the streaming perf.data reader (file mode, pipe mode, memory).
 *
 * The data section is read through one buffer (256 KiB) that always holds at
 * least the current record; records are parsed in place, so memory does not
 * depend on the number of samples.  Compressed chunks are inflated into a
 * second buffer (perfdata-zstd.c); header features are in perfdata-feat.c.
 * Byte-swapped files are swapped field by field while parsing.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "perf/perfdata-rd.h"
#include "base/opts.h"
#include "perf/perfdata-lib.h"

/* Small enough to stay in the CPU's L2 between read() and parsing, and to
 * keep the resident size down; records (at most 64 KiB) still fit. */
#define BUF_SIZE (256u << 10)

/* ---- raw input: file (pread), pipe (read) or memory ---- */

/* Read up to n bytes at the input position *off (pipe: sequential). */
static ssize_t in_read(hm_perf_reader *r, void *dst, size_t n, uint64_t off)
{
	size_t done = 0;

	if (r->mem) {
		if (off >= r->mem_len)
			return 0;
		if (n > r->mem_len - off)
			n = r->mem_len - off;
		memcpy(dst, r->mem + off, n);
		return (ssize_t)n;
	}
	while (done < n) {
		ssize_t k = r->pipe ? read(r->fd, (char *)dst + done, n - done)
				    : pread(r->fd, (char *)dst + done, n - done, (off_t)(off + done));

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return hm_fail(errno, "%s: read error at offset 0x%" PRIx64 ": %s",
				       r->name, off + done, strerror(errno));
		if (k == 0)
			break;
		done += k;
	}
	return (ssize_t)done;
}

/* Exactly n bytes at off, else -EBADMSG naming what was being read. */
int hm_pr_pread(hm_perf_reader *r, void *dst, size_t n, uint64_t off, const char *what)
{
	ssize_t k = in_read(r, dst, n, off);

	if (k < 0)
		return (int)k;
	if ((size_t)k < n)
		return hm_fail(EBADMSG, "%s: truncated %s at offset 0x%" PRIx64
			       " (need %zu bytes, have %zd)", r->name, what, off, n, k);
	return 0;
}

/* ---- the stream buffer over the data section ---- */

/* Make at least n bytes available at r->s.buf + r->s.start.  Returns 1 when
 * they are, 0 at a clean end (nothing left), -EBADMSG when the stream ends
 * inside the n bytes. */
static int s_need(hm_perf_reader *r, size_t n, const char *what)
{
	struct pr_stream *s = &r->s;

	while (s->end - s->start < n) {
		size_t have = s->end - s->start;
		uint64_t want;
		ssize_t k;

		if (r->mem_direct || s->eof)
			goto short_read;
		if (s->start) {
			memmove(s->buf, s->buf + s->start, have);
			s->start = 0;
			s->end = have;
		}
		if (s->cap < n) {
			unsigned char *nb = realloc(s->buf, n);

			if (!nb)
				return -ENOMEM;
			s->buf = nb;
			s->cap = n;
		}
		want = s->cap - s->end;
		if (!r->pipe && want > s->limit - s->rd_off)
			want = s->limit - s->rd_off;
		if (want == 0) {
			s->eof = 1;
			continue;
		}
		k = in_read(r, s->buf + s->end, want, s->rd_off);
		if (k < 0)
			return (int)k;
		if (k == 0)
			s->eof = 1;
		s->end += k;
		s->rd_off += k;
	}
	return 1;
short_read:
	if (s->end == s->start)
		return 0;
	return hm_fail(EBADMSG, "%s: truncated %s at offset 0x%" PRIx64
		       " (need %zu bytes, have %zu)", r->name, what, s->off, n,
		       s->end - s->start);
}

static void s_consume(hm_perf_reader *r, size_t n)
{
	r->s.start += n;
	r->s.off += n;
}

/* Skip n payload bytes that follow a record (TRACING_DATA, AUXTRACE). */
static int s_skip(hm_perf_reader *r, uint64_t n, const char *what)
{
	struct pr_stream *s = &r->s;
	uint64_t at = s->off;

	while (n) {
		size_t have = s->end - s->start;

		if (have) {
			size_t k = have < n ? have : (size_t)n;

			s_consume(r, k);
			n -= k;
			continue;
		}
		if (!r->pipe && !r->mem_direct) {
			if (n > s->limit - s->rd_off)
				break;
			s->rd_off += n;
			s->off += n;
			return 0;
		}
		if (s_need(r, 1, what) <= 0)
			break;
	}
	if (n)
		return hm_fail(EBADMSG, "%s: truncated %s payload at offset 0x%" PRIx64,
			       r->name, what, at);
	return 0;
}

/* Read the n payload bytes that follow a record (pipe mode's TRACING_DATA)
 * into *out (malloc'd). */
static int s_take(hm_perf_reader *r, uint64_t n, unsigned char **out, const char *what)
{
	struct pr_stream *s = &r->s;
	uint64_t at = s->off, got = 0;
	unsigned char *buf;

	if (n > (64u << 20))
		return hm_fail(EBADMSG, "%s: %s payload of 0x%" PRIx64 " bytes is too large at "
			       "offset 0x%" PRIx64, r->name, what, n, at);
	if (!(buf = malloc(n ? (size_t)n : 1)))
		return -ENOMEM;
	while (got < n) {
		size_t have = s->end - s->start, k;
		int err;

		if (!have) {
			if ((err = s_need(r, 1, what)) <= 0) {
				free(buf);
				return err < 0 ? err : hm_fail(EBADMSG, "%s: truncated %s payload at "
							       "offset 0x%" PRIx64, r->name, what, at);
			}
			continue;
		}
		k = have < n - got ? have : (size_t)(n - got);
		memcpy(buf + got, s->buf + s->start, k);
		s_consume(r, k);
		got += k;
	}
	*out = buf;
	return 0;
}

/* ---- attrs and events ---- */

static uint8_t revbyte(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	return (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
}

/* Copy an on-disk attr of `len` bytes into *a (host order).  Fields beyond
 * the file's attr.size stay zero; bytes beyond our struct are ignored. */
int hm_pr_attr_decode(hm_perf_reader *r, const unsigned char *p, size_t len,
		      struct perf_event_attr *a, uint64_t off)
{
	uint32_t size;

	memset(a, 0, sizeof(*a));
	if (len < PERF_ATTR_SIZE_VER0)
		return hm_fail(EBADMSG, "%s: attr of %zu bytes is too short at offset 0x%"
			       PRIx64, r->name, len, off);
	memcpy(&size, p + 4, 4);
	size = r->swap ? __builtin_bswap32(size) : size;
	if (size == 0)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > len)
		return hm_fail(EBADMSG, "%s: attr size %u does not fit its %zu-byte slot at "
			       "offset 0x%" PRIx64, r->name, size, len, off);
	memcpy(a, p, size < sizeof(*a) ? size : sizeof(*a));
	if (r->swap) {
		unsigned char *flags = (unsigned char *)&a->read_format + 8;
		int i;

		a->type = __builtin_bswap32(a->type);
		a->config = __builtin_bswap64(a->config);
		a->sample_period = __builtin_bswap64(a->sample_period);
		a->sample_type = __builtin_bswap64(a->sample_type);
		a->read_format = __builtin_bswap64(a->read_format);
		for (i = 0; i < 8; i++)
			flags[i] = revbyte(flags[i]);
		a->wakeup_events = __builtin_bswap32(a->wakeup_events);
		a->bp_type = __builtin_bswap32(a->bp_type);
		a->bp_addr = __builtin_bswap64(a->bp_addr);
		a->bp_len = __builtin_bswap64(a->bp_len);
		a->branch_sample_type = __builtin_bswap64(a->branch_sample_type);
		a->sample_regs_user = __builtin_bswap64(a->sample_regs_user);
		a->sample_stack_user = __builtin_bswap32(a->sample_stack_user);
		a->clockid = (int32_t)__builtin_bswap32((uint32_t)a->clockid);
		a->sample_regs_intr = __builtin_bswap64(a->sample_regs_intr);
		a->aux_watermark = __builtin_bswap32(a->aux_watermark);
		a->sample_max_stack = __builtin_bswap16(a->sample_max_stack);
		a->aux_sample_size = __builtin_bswap32(a->aux_sample_size);
		a->sig_data = __builtin_bswap64(a->sig_data);
	}
	a->size = size;
	return 0;
}

static int id_map_put(hm_perf_reader *r, uint64_t id, uint32_t ev)
{
	size_t i, mask;

	if ((r->nr_idmap + 1) * 2 > r->idmap_cap) {
		size_t ncap = r->idmap_cap ? r->idmap_cap * 2 : 64, j;
		struct pr_idslot *ns = calloc(ncap, sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		for (j = 0; j < r->idmap_cap; j++) {
			if (!r->idmap[j].used)
				continue;
			i = hm_hash_u64(r->idmap[j].id) & (ncap - 1);
			while (ns[i].used)
				i = (i + 1) & (ncap - 1);
			ns[i] = r->idmap[j];
		}
		free(r->idmap);
		r->idmap = ns;
		r->idmap_cap = ncap;
	}
	mask = r->idmap_cap - 1;
	i = hm_hash_u64(id) & mask;
	while (r->idmap[i].used) {
		if (r->idmap[i].id == id)
			return 0;	/* first event wins, as in perf */
		i = (i + 1) & mask;
	}
	r->idmap[i].used = 1;
	r->idmap[i].id = id;
	r->idmap[i].ev = ev;
	r->nr_idmap++;
	return 0;
}

int hm_pr_event_of_id(const hm_perf_reader *r, uint64_t id)
{
	size_t i, mask;

	if (!r->idmap_cap)
		return -1;
	mask = r->idmap_cap - 1;
	i = hm_hash_u64(id) & mask;
	while (r->idmap[i].used) {
		if (r->idmap[i].id == id)
			return (int)r->idmap[i].ev;
		i = (i + 1) & mask;
	}
	return -1;
}

static unsigned popcount64(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}

/* Positions of ID/IDENTIFIER, fixed by sample_type. */
static void event_layout(struct pr_event *e)
{
	uint64_t st = e->attr.sample_type;
	int n = 0;

	e->id_pos = -1;
	if (st & PERF_SAMPLE_IDENTIFIER)
		e->id_pos = 0;
	else if (st & PERF_SAMPLE_ID) {
		n = !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
		    !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR);
		e->id_pos = n;
	}
	/* sample_id_all trailer, counted from the end */
	e->trailer = 8 * (!!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
			  !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
			  !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER));
	if (!e->attr.sample_id_all)
		e->trailer = 0;
	/* samples of fixed-size fields only take a fast path in perfdata-rec.c;
	 * WEIGHT and WEIGHT_STRUCT share one u64 */
	e->fixed = !(st & ~(uint64_t)PR_SAMPLE_FIXED);
	n = !!(st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT));
	e->fixed_len = 8 * ((unsigned)n + popcount64(st & PR_SAMPLE_FIXED &
			   ~(uint64_t)(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)));
	e->regs_user = popcount64(e->attr.sample_regs_user);
	e->regs_intr = popcount64(e->attr.sample_regs_intr);
	hm_pr_fixed_layout(e);
}

/* Add an event with its ids (host order). */
int hm_pr_add_event(hm_perf_reader *r, const struct perf_event_attr *a,
		    const uint64_t *ids, size_t nr_ids)
{
	struct pr_event *e;
	size_t i;
	int err;

	if (r->nr_ev >= 65536)
		return hm_fail(EBADMSG, "%s: more than 65536 events", r->name);
	if (hm_grow((void **)&r->ev, &r->cap_ev, r->nr_ev + 1, sizeof(*r->ev)) ||
	    hm_grow((void **)&r->pub_ev, &r->cap_pub, r->nr_ev + 1, sizeof(*r->pub_ev)))
		return -ENOMEM;
	e = &r->ev[r->nr_ev];
	memset(e, 0, sizeof(*e));
	e->attr = *a;
	if (nr_ids) {
		e->ids = malloc(nr_ids * sizeof(*ids));
		if (!e->ids)
			return -ENOMEM;
		memcpy(e->ids, ids, nr_ids * sizeof(*ids));
	}
	e->nr_ids = nr_ids;
	event_layout(e);
	for (i = 0; i < nr_ids; i++) {
		err = id_map_put(r, ids[i], (uint32_t)r->nr_ev);
		if (err)
			return err;
	}
	r->nr_ev++;
	hm_pr_sync_events(r);
	return 0;
}

/* Refresh the public event array (names may arrive later). */
void hm_pr_sync_events(hm_perf_reader *r)
{
	size_t i;

	for (i = 0; i < r->nr_ev; i++) {
		const struct perf_event_attr *a = &r->ev[i].attr;
		hm_perf_event *p = &r->pub_ev[i];

		memset(p, 0, sizeof(*p));
		p->name = r->ev[i].name;
		p->type = a->type;
		p->config = a->config;
		p->config1 = a->config1;
		p->config2 = a->config2;
		p->sample_type = a->sample_type;
		p->bp_addr = a->bp_addr;
		p->bp_type = a->bp_type;
		p->bp_len = (uint32_t)a->bp_len;
		p->precise_ip = a->precise_ip;
		p->read_format = a->read_format;
		p->sample_period = a->sample_period;
		p->sample_id_all = a->sample_id_all;
		p->freq = a->freq;
		p->nr_ids = r->ev[i].nr_ids;
		p->ids = r->ev[i].ids;
		p->sample_regs_user = a->sample_regs_user;
		p->sample_regs_intr = a->sample_regs_intr;
		for (size_t k = 0; a->type == PERF_TYPE_TRACEPOINT && k < r->info.nr_tracepoints; k++)
			if (r->info.tracepoints[k].id == a->config)
				p->tp = &r->info.tracepoints[k];
	}
	r->info.nr_events = r->nr_ev;
	r->info.events = r->pub_ev;
}

/* ---- opening ---- */

static hm_perf_reader *reader_new(const char *name)
{
	hm_perf_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->name = strdup(name);
	if (!r->name) {
		free(r);
		return NULL;
	}
	r->fd = -1;
	return r;
}

static uint64_t h64(const hm_perf_reader *r, const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return r->swap ? __builtin_bswap64(v) : v;
}

static int read_attrs(hm_perf_reader *r, uint64_t attr_size, uint64_t off, uint64_t size)
{
	unsigned char *slot = NULL;
	uint64_t *ids = NULL;
	uint64_t n, i, j;
	int err = 0;

	if (attr_size < PERF_ATTR_SIZE_VER0 + 16 || attr_size > 4096)
		return hm_fail(EBADMSG, "%s: bad attr_size %" PRIu64 " at offset 0x10",
			       r->name, attr_size);
	n = size / attr_size;
	if (size % attr_size)
		return hm_fail(EBADMSG, "%s: attr section size 0x%" PRIx64 " is not a multiple "
			       "of attr_size %" PRIu64 " at offset 0x18", r->name, size, attr_size);
	if (n == 0)
		return hm_fail(EBADMSG, "%s: no events (empty attr section) at offset 0x18",
			       r->name);
	slot = malloc(attr_size);
	if (!slot)
		return -ENOMEM;
	for (i = 0; i < n && !err; i++) {
		struct perf_event_attr a;
		uint64_t at = off + i * attr_size, ids_off, ids_size, nr;

		err = hm_pr_pread(r, slot, attr_size, at, "attr");
		if (err)
			break;
		err = hm_pr_attr_decode(r, slot, attr_size - 16, &a, at);
		if (err)
			break;
		ids_off = h64(r, slot + attr_size - 16);
		ids_size = h64(r, slot + attr_size - 8);
		if (ids_size % 8 || ids_off > r->file_size || ids_size > r->file_size - ids_off) {
			err = hm_fail(EBADMSG, "%s: id array (offset 0x%" PRIx64 ", size 0x%" PRIx64
				      ") of attr %" PRIu64 " past end of file at offset 0x%" PRIx64,
				      r->name, ids_off, ids_size, i, at + attr_size - 16);
			break;
		}
		nr = ids_size / 8;
		free(ids);
		ids = nr ? malloc(ids_size) : NULL;
		if (nr && !ids) {
			err = -ENOMEM;
			break;
		}
		if (nr)
			err = hm_pr_pread(r, ids, ids_size, ids_off, "id array");
		for (j = 0; !err && j < nr; j++)
			ids[j] = r->swap ? __builtin_bswap64(ids[j]) : ids[j];
		if (!err)
			err = hm_pr_add_event(r, &a, ids, nr);
	}
	free(ids);
	free(slot);
	return err;
}

static int check_section(hm_perf_reader *r, const char *what, uint64_t off, uint64_t size,
			 uint64_t hdr_at)
{
	if (off > r->file_size || size > r->file_size - off)
		return hm_fail(EBADMSG, "%s: %s section (offset 0x%" PRIx64 ", size 0x%" PRIx64
			       ") past end of file (0x%" PRIx64 " bytes) at offset 0x%" PRIx64,
			       r->name, what, off, size, r->file_size, hdr_at);
	return 0;
}

static int open_file_mode(hm_perf_reader *r, const unsigned char *h)
{
	uint64_t hsize = h64(r, h + 8), attr_size = h64(r, h + 16);
	uint64_t a_off = h64(r, h + 24), a_size = h64(r, h + 32);
	uint64_t d_off = h64(r, h + 40), d_size = h64(r, h + 48);
	uint64_t end;
	int err, i;

	/* as perf: its header is 104 bytes, 72 before adds_features; a size
	 * past that would put the sections' offsets in doubt */
	if (hsize != 104 && hsize != 72)
		return hm_fail(EBADMSG, "%s: bad header size %" PRIu64 " at offset 0x8 (a "
			       "perf.data header is 104 bytes, or 72 in old files)", r->name, hsize);
	for (i = 0; i < 4; i++)
		r->info.features[i] = hsize >= 104 ? h64(r, h + 72 + 8 * i) : 0;
	/* A cut copy (the data runs past the end) or a killed perf (data size
	 * still 0, records after the header): read what is there if asked. */
	if (r->keep_truncated && d_off <= r->file_size &&
	    (d_size > r->file_size - d_off || (d_size == 0 && r->file_size > d_off)))
		r->info.truncated = 1;
	if ((err = check_section(r, "attr", a_off, a_size, 0x18)) ||
	    (!r->info.truncated && (err = check_section(r, "data", d_off, d_size, 0x28))))
		return err;
	if (d_size == 0 && !r->info.truncated)
		return hm_fail(EBADMSG, "%s: data section is empty: perf did not finish "
			       "writing this file (data size 0 at offset 0x30)", r->name);
	err = read_attrs(r, attr_size, a_off, a_size);
	if (err)
		return err;
	r->info.data_offset = d_off;
	r->info.data_size = d_size;
	end = r->info.truncated ? r->file_size : d_off + d_size;
	if (!r->info.truncated && (err = hm_pr_read_features(r, d_off + d_size)))
		return err;
	hm_pr_sync_events(r);
	r->s.off = d_off;
	r->s.rd_off = d_off;
	r->s.limit = end;
	if (!r->mem)	/* one pass over the data: let the kernel read ahead */
		(void)posix_fadvise(r->fd, (off_t)d_off, (off_t)(end - d_off),
				    POSIX_FADV_SEQUENTIAL);
	return 0;
}

static int reader_start(hm_perf_reader *r)
{
	unsigned char h[104];
	uint64_t magic, hsize;
	ssize_t k;
	int err;

	k = in_read(r, h, 16, 0);
	if (k < 0)
		return (int)k;
	if (k < 16)
		return hm_fail(EBADMSG, "%s: truncated header at offset 0x0 (need 16 bytes, "
			       "have %zd)", r->name, k);
	memcpy(&magic, h, 8);
	if (magic == HM_PERF_MAGIC2_SWAP)
		r->swap = 1;
	else if (magic == HM_PERF_MAGIC1)
		return hm_fail(EBADMSG, "%s: obsolete perf.data version 1 (\"PERFFILE\") at "
			       "offset 0x0", r->name);
	else if (magic != HM_PERF_MAGIC2)
		return hm_fail(EBADMSG, "%s: not a perf.data file (bad magic 0x%016" PRIx64
			       ") at offset 0x0", r->name, magic);
	r->info.byte_swapped = r->swap;
	hsize = h64(r, h + 8);
	if (hsize == 16) {
		/* pipe-mode stream; from a regular file or memory it is
		 * still read by offset */
		r->info.pipe_mode = 1;
		r->s.off = 16;
		r->s.rd_off = 16;
		r->s.limit = r->pipe ? UINT64_MAX : r->file_size;
		return 0;
	}
	if (r->pipe)
		return hm_fail(EBADMSG, "%s: %s is not a perf.data pipe stream (header size %"
			       PRIu64 ", want 16) at offset 0x8", r->name,
			       strcmp(r->name, "<stdin>") ? "the pipe" : "standard input", hsize);
	err = hm_pr_pread(r, h + 16, 88, 16, "header");
	if (err)
		return err;
	return open_file_mode(r, h);
}

static hm_perf_reader *finish_open(hm_perf_reader *r, int in_dir)
{
	int err;

	if (!r->mem) {
		r->s.buf = malloc(BUF_SIZE);
		r->s.cap = BUF_SIZE;
		if (!r->s.buf) {
			hm_perf_reader_close(r);
			errno = ENOMEM;
			return NULL;
		}
	}
	err = reader_start(r);
	/* the main file of perf record --threads alone holds a part of the
	 * records (perf's own): the rest are in data.N beside it */
	if (!err && !in_dir && r->has_dir_format && r->dir_version)
		err = hm_fail(EBADMSG, "%s: the main file of a perf.data directory (DIR_FORMAT "
			      "version %" PRIu64 " at offset 0x%" PRIx64 "): the samples are in "
			      "data.N beside it; read the directory", r->name, r->dir_version,
			      r->dir_format_off);
	if (!err && r->mem) {
		/* memory input: parse the data section (or stream) in place */
		uint64_t start = r->info.pipe_mode ? 16 : r->info.data_offset;

		r->s.buf = (unsigned char *)r->mem + start;
		r->s.cap = r->s.end = r->info.pipe_mode ? r->mem_len - 16 :
				      r->s.limit - r->info.data_offset;
		r->mem_direct = 1;
	}
	if (err) {
		hm_perf_reader_close(r);
		errno = -err;
		return NULL;
	}
	return r;
}

const char *hm_pr_file_kind(mode_t mode)
{
	return S_ISFIFO(mode) ? "a FIFO, not a regular file" :
	       S_ISDIR(mode) ? "a directory, not a regular file" :
	       S_ISCHR(mode) || S_ISBLK(mode) ? "a device, not a regular file" :
	       S_ISSOCK(mode) ? "a socket, not a regular file" : "not a regular file";
}

/* Wait for a FIFO opened with O_NONBLOCK to have a writer's bytes (or a
 * writer that came and went), then make its reads blocking. */
static int wait_writer(int fd, const char *path)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int k;

	while ((k = poll(&p, 1, -1)) < 0 && errno == EINTR)
		;
	if (k < 0 || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		int e = errno;

		hm_fail(e, "%s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	return 0;
}

static hm_perf_reader *open_fd(int fd, const char *name, int keep_truncated, int in_dir)
{
	hm_perf_reader *r = reader_new(name);
	struct stat st;

	if (!r) {
		errno = ENOMEM;
		return NULL;
	}
	r->keep_truncated = keep_truncated;
	r->fd = fd;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		r->file_size = (uint64_t)st.st_size;
	} else {
		r->pipe = 1;
		r->file_size = UINT64_MAX;
	}
	return finish_open(r, in_dir);
}

hm_perf_reader *hm_perf_reader_open(const char *path)
{
	return hm_perf_reader_open_opts(path, NULL);
}

/* A perf.data directory: its header, features and main stream are in
 * DIR/data; perf record --threads adds a stream per ring buffer, data.0,
 * data.1 ... (perfdata-dir.c), --kcore a copy of the kernel's text. */
static hm_perf_reader *open_dir(int dfd, const char *path, int keep)
{
	size_t n = strlen(path) + sizeof("/data");
	char *name = malloc(n);
	hm_perf_reader *r = NULL;
	struct stat st;
	int fd = -1, e;

	if (!name) {
		close(dfd);
		errno = ENOMEM;
		return NULL;
	}
	snprintf(name, n, "%s/data", path);
	/* O_NONBLOCK: a FIFO named data opens at once, and is refused */
	fd = openat(dfd, "data", O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		e = fd < 0 ? errno : EINVAL;
		hm_fail(e, "%s: a directory without a perf.data file 'data': %s", path,
			fd < 0 ? strerror(e) : hm_pr_file_kind(st.st_mode));
		goto out;
	}
	r = open_fd(fd, name, keep, 1);
	e = errno;
	if (r) {
		r->own_fd = 1;
		fd = -1;
		if (!(r->path = strdup(path)))
			e = ENOMEM;
		else
			e = -hm_pr_dir_open(r, dfd, path);
		if (e) {
			hm_perf_reader_close(r);
			r = NULL;
		}
	}
out:
	if (fd >= 0)
		close(fd);
	close(dfd);
	free(name);
	if (!r)
		errno = e;
	return r;
}

hm_perf_reader *hm_perf_reader_open_opts(const char *path, const struct hm_perf_reader_opts *uo)
{
	struct hm_perf_reader_opts oc;
	const struct hm_perf_reader_opts *o;
	hm_perf_reader *r;
	struct stat st;
	int fd, keep;

	if (!HM_OPTS_VALID(uo, hm_perf_reader_opts)) {
		errno = EINVAL;
		return NULL;
	}
	o = HM_OPTS_COPY(&oc, uo, hm_perf_reader_opts);
	keep = o && o->keep_truncated;
	if (strcmp(path, "-") == 0) {
		r = open_fd(0, "<stdin>", keep, 0);
		return r;
	}
	/* O_NONBLOCK: the type is checked before anything is read, and a
	 * FIFO does not block the open */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;

		hm_fail(e, "%s: cannot open: %s", path, strerror(e));
		errno = e;
		return NULL;
	}
	if (fstat(fd, &st)) {
		int e = errno;

		close(fd);
		hm_fail(e, "%s: %s", path, strerror(e));
		errno = e;
		return NULL;
	}
	if (S_ISDIR(st.st_mode))
		return open_dir(fd, path, keep);
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		close(fd);
		hm_fail(EINVAL, "%s: not a regular file or a pipe: %s", path,
			hm_pr_file_kind(st.st_mode));
		errno = EINVAL;
		return NULL;
	}
	/* a named pipe is read as perf does: blocking reads, after a writer
	 * has come (perf record -o FIFO) */
	if (S_ISFIFO(st.st_mode) && wait_writer(fd, path)) {
		int e = errno;

		close(fd);
		errno = e;
		return NULL;
	}
	r = open_fd(fd, path, keep, 0);
	if (!r) {
		int e = errno;

		close(fd);
		errno = e;
		return NULL;
	}
	r->own_fd = 1;
	if (!(r->path = strdup(path))) {
		hm_perf_reader_close(r);
		errno = ENOMEM;
		return NULL;
	}
	return r;
}

hm_perf_reader *hm_perf_reader_open_mem(const void *buf, size_t len, const char *name)
{
	hm_perf_reader *r = reader_new(name);

	if (!r) {
		errno = ENOMEM;
		return NULL;
	}
	r->mem = buf;
	r->mem_len = len;
	r->file_size = len;
	return finish_open(r, 0);
}

void hm_perf_reader_close(hm_perf_reader *r)
{
	size_t i;

	if (!r)
		return;
	hm_pr_dir_free(r);
	if (r->own_fd && r->fd >= 0)
		close(r->fd);
	if (!r->mem_direct)
		free(r->s.buf);
	for (i = 0; i < r->nr_ev; i++)
		free(r->ev[i].ids);
	free(r->ev);
	free(r->pub_ev);
	free(r->idmap);
	free(r->cc);
	free(r->bids);
	hm_pr_zstd_free(r);
	hm_arena_free(&r->arena);
	free(r->name);
	free(r->path);
	free(r);
}

const hm_perf_info *hm_perf_reader_info(const hm_perf_reader *r)
{
	return &r->info;
}

const char *hmi_perf_reader_name(const hm_perf_reader *r)
{
	return r->name;
}

const char *hmi_perf_reader_path(const hm_perf_reader *r)
{
	return r->path;
}

/* ---- records ---- */

/* Handle the perf-synthesized records that carry header data. */
static int user_record(hm_perf_reader *r, const unsigned char *p, uint32_t type,
		       size_t size, uint64_t off)
{
	switch (type) {
	case HM_REC_HEADER_ATTR: {
		struct perf_event_attr a;
		uint32_t asz;
		size_t nr, i;
		uint64_t *ids;
		int err;

		if (size < 8 + PERF_ATTR_SIZE_VER0)
			return hm_fail(EBADMSG, "%s: HEADER_ATTR record of %zu bytes is too short "
				       "at offset 0x%" PRIx64, r->name, size, off);
		memcpy(&asz, p + 12, 4);
		asz = r->swap ? __builtin_bswap32(asz) : asz;
		if (asz == 0)
			asz = PERF_ATTR_SIZE_VER0;
		if (asz > size - 8 || (size - 8 - asz) % 8)
			return hm_fail(EBADMSG, "%s: HEADER_ATTR attr size %u does not fit the "
				       "record at offset 0x%" PRIx64, r->name, asz, off);
		err = hm_pr_attr_decode(r, p + 8, asz, &a, off + 8);
		if (err)
			return err;
		nr = (size - 8 - asz) / 8;
		ids = nr ? malloc(nr * 8) : NULL;
		if (nr && !ids)
			return -ENOMEM;
		for (i = 0; i < nr; i++)
			ids[i] = h64(r, p + 8 + asz + 8 * i);
		err = hm_pr_add_event(r, &a, ids, nr);
		free(ids);
		return err;
	}
	case HM_REC_HEADER_FEATURE: {
		uint64_t feat;

		if (size < 16)
			return hm_fail(EBADMSG, "%s: HEADER_FEATURE record of %zu bytes is too "
				       "short at offset 0x%" PRIx64, r->name, size, off);
		feat = h64(r, p + 8);
		if (feat < 256)
			r->info.features[feat / 64] |= 1ull << (feat % 64);
		return hm_pr_feature(r, (int)(feat < 256 ? feat : 255), p + 16, size - 16,
				     off + 16);
	}
	}
	return 0;
}

/* The end of a truncated data section: no whole record at r->s.off. */
static int at_cut(hm_perf_reader *r)
{
	const hm_perf_info *in = &r->info;

	r->at_cut = 1;
	r->info.truncated_at = r->s.off;
	if (in->data_size)
		hm_diag(HM_DIAG_WARNING, "%s: truncated at offset 0x%" PRIx64 ": %" PRIu64 " of %"
			PRIu64 " bytes of the data section read; the samples before it are "
			"reported", r->name, r->s.off, r->s.off - in->data_offset, in->data_size);
	else
		hm_diag(HM_DIAG_WARNING, "%s: truncated at offset 0x%" PRIx64 ": %" PRIu64
			" bytes of the data section read (its size is 0: perf did not finish "
			"writing the file); the samples before it are reported", r->name,
			r->s.off, r->s.off - in->data_offset);
	return 0;
}

/* Whether fewer than n bytes are left before the cut of a truncated file
 * (only the main file's data section: a directory's data.N streams have no
 * size to be cut short of, so a record cut there is malformed). */
static int short_of(const hm_perf_reader *r, uint64_t n)
{
	return r->info.truncated && r->cur == 0 && n > r->s.limit - r->s.off;
}

int hm_pr_raw_next(hm_perf_reader *r, const unsigned char **pp, uint32_t *typep,
		   uint16_t *sizep, uint64_t *offp)
{
	const unsigned char *p;
	uint32_t type;
	uint16_t size;
	uint64_t off;
	int ret;

	if (r->at_cut)
		return 0;
	/* records inflated from COMPRESSED chunks come first */
	ret = hm_pr_zstd_next(r, &p, &off);
	if (ret < 0)
		return ret;
	if (ret == 0) {
		/* the cut (also when a chunk's last record is cut off) */
		if (short_of(r, 8))
			return at_cut(r);
		ret = s_need(r, 8, "record header");
		if (ret <= 0) {
			if (ret == 0 && hm_pr_zstd_pending(r))
				ret = hm_fail(EBADMSG, "%s: compressed data ends inside a "
					      "record at offset 0x%" PRIx64, r->name, r->s.off);
			return ret;
		}
		p = r->s.buf + r->s.start;
		off = r->s.off;
		memcpy(&size, p + 6, 2);
		size = r->swap ? __builtin_bswap16(size) : size;
		if (size < 8)
			return hm_fail(EBADMSG, "%s: record size %u smaller than its header at "
				       "offset 0x%" PRIx64, r->name, size, off);
		if (short_of(r, size))
			return at_cut(r);
		ret = s_need(r, size, "record");
		if (ret <= 0)
			return ret ? ret : -EBADMSG;
		p = r->s.buf + r->s.start;
		s_consume(r, size);
	}
	memcpy(&type, p, 4);
	memcpy(&size, p + 6, 2);
	if (r->swap) {
		type = __builtin_bswap32(type);
		size = __builtin_bswap16(size);
	}
	*pp = p;
	*typep = type;
	*sizep = size;
	*offp = off;
	return 1;
}

int hm_perf_reader_next(hm_perf_reader *r, hm_perf_record *rec)
{
	if (r->nr_in)
		return hm_pr_dir_next(r, rec);
	for (;;) {
		const unsigned char *p;
		uint32_t type;
		uint16_t size;
		uint64_t off;
		int ret;

		if (r->err)
			return r->err;
		ret = hm_pr_raw_next(r, &p, &type, &size, &off);
		if (ret <= 0)
			return ret < 0 ? (r->err = ret) : 0;
		ret = hm_pr_dispatch(r, rec, p, type, size, off);
		if (ret < 0)
			return r->err = ret;
		if (ret > 0)
			return 1;
	}
}


/* One record: 1 = delivered in *rec, 0 = consumed internally, <0 = error. */
int hm_pr_dispatch(hm_perf_reader *r, hm_perf_record *rec, const unsigned char *p,
		   uint32_t type, size_t size, uint64_t off)
{
	int ret;

	switch (type) {
	case HM_REC_COMPRESSED:
	case HM_REC_COMPRESSED2:
		r->info.compressed = 1;
		return hm_pr_zstd_feed(r, p, type, size, off);
	case HM_REC_HEADER_ATTR:
	case HM_REC_HEADER_FEATURE:
		return user_record(r, p, type, size, off);
	case HM_REC_BUILD_ID:
		return hm_pr_build_ids(r, p, size, off);
	case HM_REC_TRACING_DATA: {
		uint32_t n;

		if (size < 16)
			return hm_fail(EBADMSG, "%s: TRACING_DATA record too short at offset 0x%"
				       PRIx64, r->name, off);
		memcpy(&n, p + 8, 4);
		n = r->swap ? __builtin_bswap32(n) : n;
		if (r->in_zstd)
			return hm_fail(EBADMSG, "%s: TRACING_DATA inside compressed data at "
				       "offset 0x%" PRIx64, r->name, off);
		if (r->info.tracing_data) {	/* the feature's (file mode) is the one */
			ret = s_skip(r, ((uint64_t)n + 7) & ~7ull, "TRACING_DATA");
		} else {
			/* pipe mode: the tracepoints' formats come only here */
			unsigned char *td = NULL;
			uint64_t at = r->s.off;

			ret = s_take(r, ((uint64_t)n + 7) & ~7ull, &td, "TRACING_DATA");
			if (!ret) {
				ret = hm_pr_tracing_data(r, td, n, at);
				free(td);
				if (!ret)
					hm_pr_sync_events(r);
			}
		}
		goto other;	/* p is stale once the payload is read */
	}
	case HM_REC_AUXTRACE: {
		uint64_t n;

		if (size < 16)
			return hm_fail(EBADMSG, "%s: AUXTRACE record too short at offset 0x%"
				       PRIx64, r->name, off);
		n = h64(r, p + 8);
		if (r->in_zstd)
			return hm_fail(EBADMSG, "%s: AUXTRACE inside compressed data at "
				       "offset 0x%" PRIx64, r->name, off);
		ret = s_skip(r, n, "AUXTRACE");
		goto other;
	}
	}
	memset(rec, 0, sizeof(*rec));
	rec->type = type;
	rec->offset = off;
	ret = hm_pr_parse_kernel_record(r, rec, p, size);
	return ret < 0 ? ret : 1;
other:
	if (ret < 0)
		return ret;
	memset(rec, 0, sizeof(*rec));
	rec->kind = HM_PERF_OTHER;
	rec->type = type;
	rec->offset = off;
	return 1;
}
