/* perfdata-rec: parsing kernel records (SAMPLE, MMAP, MMAP2, COMM, FORK,
 * EXIT, LOST) with bounds checks on every field. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "perf/perfdata-rd.h"

/* A bounded cursor over one record. */
struct cur {
	hm_perf_reader *r;
	const unsigned char *p, *end;
	uint64_t off;		/* file offset of the record */
	const char *what;
};

static int truncated(struct cur *c, size_t need)
{
	return hm_fail(EBADMSG, "%s: truncated %s at offset 0x%" PRIx64
		       " (need %zu more bytes, have %zu)", c->r->name, c->what, c->off,
		       need, (size_t)(c->end - c->p));
}

static inline int get64(struct cur *c, uint64_t *v)
{
	if (c->end - c->p < 8)
		return truncated(c, 8);
	memcpy(v, c->p, 8);
	if (c->r->swap)
		*v = __builtin_bswap64(*v);
	c->p += 8;
	return 0;
}

static inline int get32x2(struct cur *c, uint32_t *a, uint32_t *b)
{
	if (c->end - c->p < 8)
		return truncated(c, 8);
	memcpy(a, c->p, 4);
	memcpy(b, c->p + 4, 4);
	if (c->r->swap) {
		*a = __builtin_bswap32(*a);
		*b = __builtin_bswap32(*b);
	}
	c->p += 8;
	return 0;
}

static int skip(struct cur *c, uint64_t n)
{
	if ((uint64_t)(c->end - c->p) < n)
		return truncated(c, n > SIZE_MAX ? SIZE_MAX : (size_t)n);
	c->p += n;
	return 0;
}

/* nr entries of `each` bytes must fit the rest of the record. */
static int check_nr(struct cur *c, uint64_t nr, size_t each, const char *field)
{
	if (nr > (uint64_t)(c->end - c->p) / each)
		return hm_fail(EBADMSG, "%s: %s of %" PRIu64 " entries does not fit the "
			       "%s at offset 0x%" PRIx64, c->r->name, field, nr, c->what, c->off);
	return 0;
}

static int read_format(struct cur *c, uint64_t rf)
{
	unsigned per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	unsigned times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t nr = 0;
	int err;

	if (!(rf & PERF_FORMAT_GROUP))
		return skip(c, 8ull * (per + times));
	if ((err = get64(c, &nr)) || (err = skip(c, 8ull * times)))
		return err;
	if ((err = check_nr(c, nr, 8 * per, "read group")))
		return err;
	return skip(c, nr * 8 * per);
}

static int callchain(struct cur *c, hm_sample *s)
{
	hm_perf_reader *r = c->r;
	uint64_t nr = 0, i;
	int err;

	if ((err = get64(c, &nr)) || (err = check_nr(c, nr, 8, "callchain")))
		return err;
	s->nr_callchain = (uint32_t)nr;
	if (!r->swap && !((uintptr_t)c->p & 7)) {
		s->callchain = (const uint64_t *)(const void *)c->p;
	} else if (nr) {
		if (nr > r->cc_cap) {
			uint64_t *n = realloc(r->cc, nr * 8);

			if (!n)
				return -ENOMEM;
			r->cc = n;
			r->cc_cap = nr;
		}
		for (i = 0; i < nr; i++) {
			memcpy(&r->cc[i], c->p + 8 * i, 8);
			if (r->swap)
				r->cc[i] = __builtin_bswap64(r->cc[i]);
		}
		s->callchain = r->cc;
	}
	s->has |= HM_HAS_CALLCHAIN;
	return skip(c, nr * 8);
}

/* A register block (REGS_USER, REGS_INTR): nr u64 in host order, in place
 * when aligned and unswapped, else copied into buf. */
static int regs_block(struct cur *c, unsigned nr, uint64_t *buf, const uint64_t **out)
{
	hm_perf_reader *r = c->r;
	unsigned i;

	if ((uint64_t)(c->end - c->p) < 8ull * nr)
		return truncated(c, 8ull * nr);
	if (!r->swap && !((uintptr_t)c->p & 7)) {
		*out = (const uint64_t *)(const void *)c->p;
	} else {
		for (i = 0; i < nr; i++) {
			memcpy(&buf[i], c->p + 8 * i, 8);
			if (r->swap)
				buf[i] = __builtin_bswap64(buf[i]);
		}
		*out = buf;
	}
	return skip(c, 8ull * nr);
}

static int user_regs(struct cur *c, unsigned nr, hm_sample *s)
{
	int err = regs_block(c, nr, c->r->regs, &s->regs_user);

	if (err)
		return err;
	s->nr_regs_user = nr;
	s->has |= HM_HAS_REGS_USER;
	return 0;
}

/* The fields after PERIOD that hitmap does not keep, in the kernel's order,
 * up to WEIGHT. */
static int middle_fields(struct cur *c, const struct pr_event *e, hm_sample *s)
{
	uint64_t st = e->attr.sample_type, v = 0, nr = 0;
	uint32_t sz;
	int err;

	if ((st & PERF_SAMPLE_READ) && (err = read_format(c, e->attr.read_format)))
		return err;
	if ((st & PERF_SAMPLE_CALLCHAIN) && (err = callchain(c, s)))
		return err;
	if (st & PERF_SAMPLE_RAW) {
		if (c->end - c->p < 4)
			return truncated(c, 4);
		memcpy(&sz, c->p, 4);
		sz = c->r->swap ? __builtin_bswap32(sz) : sz;
		if ((err = skip(c, 4ull + sz)))
			return err;
		s->raw = c->p - sz;
		s->raw_size = sz;
		s->has |= HM_HAS_RAW;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		if ((err = get64(c, &nr)))
			return err;
		if ((e->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) &&
		    (err = get64(c, &v)))
			return err;
		if ((err = check_nr(c, nr, 24, "branch stack")) || (err = skip(c, nr * 24)))
			return err;
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		if ((err = get64(c, &v)))
			return err;
		if (v && (err = user_regs(c, e->regs_user, s)))
			return err;
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		if ((err = get64(c, &v)))
			return err;
		if (v && ((err = skip(c, v)) || (err = get64(c, &v))))
			return err;
	}
	return 0;
}

/* Samples come from a handful of ids (one per event and CPU): a small
 * direct-mapped cache in front of the hash avoids hashing every sample.
 * Only known ids are cached; an id never changes its event once mapped
 * (the first event wins), so the cache needs no invalidation. */
static inline int event_of_id(hm_perf_reader *r, uint64_t id)
{
	struct pr_idcache *c = &r->idc[id % PR_IDC_SIZE];
	int ev;

	if (c->ev1 && c->id == id)
		return (int)c->ev1 - 1;
	ev = hm_pr_event_of_id(r, id);
	if (ev >= 0) {
		c->id = id;
		c->ev1 = (uint32_t)ev + 1;
	}
	return ev;
}

/* The layout of e's samples when they hold fixed-size fields only, in the
 * kernel's order.  With IDENTIFIER and ID both, the id is ID's (the later
 * one), as in the field-by-field parse; WEIGHT and WEIGHT_STRUCT share one
 * u64, of which WEIGHT_STRUCT alone keeps var1 (the load latency). */
void hm_pr_fixed_layout(struct pr_event *e)
{
	uint64_t st = e->attr.sample_type;
	struct pr_fixed *f = &e->fx;
	uint16_t o = 8;

	memset(f, 0, sizeof(*f));
	if (!e->fixed)
		return;
#define AT(bit, fld, hasbit) do { if (st & (bit)) { f->fld = o; f->m_##fld = ~0ull; \
	f->has |= (hasbit); o += 8; } } while (0)
	AT(PERF_SAMPLE_IDENTIFIER, id, HM_HAS_ID);
	AT(PERF_SAMPLE_IP, ip, HM_HAS_IP);
	AT(PERF_SAMPLE_TID, tid, HM_HAS_TID);
	AT(PERF_SAMPLE_TIME, time, HM_HAS_TIME);
	AT(PERF_SAMPLE_ADDR, addr, HM_HAS_ADDR);
	AT(PERF_SAMPLE_ID, id, HM_HAS_ID);
	if (st & PERF_SAMPLE_STREAM_ID)
		o += 8;
	AT(PERF_SAMPLE_CPU, cpu, HM_HAS_CPU);
	AT(PERF_SAMPLE_PERIOD, period, HM_HAS_PERIOD);
	AT(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, weight, HM_HAS_WEIGHT);
	if ((st & PERF_SAMPLE_WEIGHT_STRUCT) && !(st & PERF_SAMPLE_WEIGHT))
		f->m_weight = 0xffffffffu;
	AT(PERF_SAMPLE_DATA_SRC, data_src, HM_HAS_DATA_SRC);
	if (st & PERF_SAMPLE_TRANSACTION)
		o += 8;
	AT(PERF_SAMPLE_PHYS_ADDR, phys_addr, HM_HAS_PHYS_ADDR);
#undef AT
}

static inline uint64_t ld64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline uint32_t ld32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* A host-order sample of fixed-size fields only, at p (its header first),
 * whose record is known to hold them all: every field of *s is set, without
 * a branch or a bounds check per field. */
static inline void sample_decode(const struct pr_event *e, uint32_t ev, hm_sample *s,
				 const unsigned char *p, uint16_t misc, uint64_t off)
{
	const struct pr_fixed *f = &e->fx;

	s->has = f->has;
	s->attr = ev;
	s->cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	s->pid = ld32(p + f->tid) & (uint32_t)f->m_tid;
	s->tid = ld32(p + f->tid + 4) & (uint32_t)f->m_tid;
	s->cpu = ld32(p + f->cpu) & (uint32_t)f->m_cpu;
	s->ip = ld64(p + f->ip) & f->m_ip;
	s->addr = ld64(p + f->addr) & f->m_addr;
	s->time = ld64(p + f->time) & f->m_time;
	s->id = ld64(p + f->id) & f->m_id;
	s->period = ld64(p + f->period) & f->m_period;
	s->data_src = ld64(p + f->data_src) & f->m_data_src;
	s->weight = ld64(p + f->weight) & f->m_weight;
	s->phys_addr = ld64(p + f->phys_addr) & f->m_phys_addr;
	s->offset = off;
	s->nr_callchain = 0;
	s->callchain = NULL;
	s->nr_regs_user = s->nr_regs_intr = 0;
	s->regs_rule = s->regs_access = 0;
}

static int parse_sample(hm_perf_reader *r, hm_perf_record *rec, const unsigned char *p,
			size_t size, uint16_t misc)
{
	hm_sample *s = &rec->u.sample;
	struct cur c = { r, p + 8, p + size, rec->offset, "sample" };
	const struct pr_event *e;
	uint64_t st, v = 0;
	uint32_t res;
	int ev = 0, err = 0;

	if (r->nr_ev == 0)
		return hm_fail(EBADMSG, "%s: sample before any event attr at offset 0x%"
			       PRIx64, r->name, rec->offset);
	if (r->nr_ev > 1 && r->ev[0].id_pos >= 0) {
		unsigned pos = (unsigned)r->ev[0].id_pos;

		if (size < 8 + 8 * (pos + 1))
			return hm_fail(EBADMSG, "%s: truncated sample at offset 0x%" PRIx64
				       " (no room for its id)", r->name, rec->offset);
		memcpy(&v, p + 8 + 8 * pos, 8);
		v = r->swap ? __builtin_bswap64(v) : v;
		ev = event_of_id(r, v);
		if (ev < 0) {
			r->info.nr_unknown_id++;
			return 0;
		}
	}
	e = &r->ev[ev];
	st = e->attr.sample_type;
	rec->kind = HM_PERF_SAMPLE;
	s->attr = (uint32_t)ev;
	s->cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	s->offset = rec->offset;
	if (e->fixed && !r->swap && size >= 8 + (size_t)e->fixed_len) {
		sample_decode(e, (uint32_t)ev, s, p, misc, rec->offset);
		return 1;
	}
	if ((st & PERF_SAMPLE_IDENTIFIER) && (err = get64(&c, &s->id)))
		return err;
	if (st & PERF_SAMPLE_IDENTIFIER)
		s->has |= HM_HAS_ID;
	if (st & PERF_SAMPLE_IP) {
		if ((err = get64(&c, &s->ip)))
			return err;
		s->has |= HM_HAS_IP;
	}
	if (st & PERF_SAMPLE_TID) {
		if ((err = get32x2(&c, &s->pid, &s->tid)))
			return err;
		s->has |= HM_HAS_TID;
	}
	if (st & PERF_SAMPLE_TIME) {
		if ((err = get64(&c, &s->time)))
			return err;
		s->has |= HM_HAS_TIME;
	}
	if (st & PERF_SAMPLE_ADDR) {
		if ((err = get64(&c, &s->addr)))
			return err;
		s->has |= HM_HAS_ADDR;
	}
	if (st & PERF_SAMPLE_ID) {
		if ((err = get64(&c, &s->id)))
			return err;
		s->has |= HM_HAS_ID;
	}
	if ((st & PERF_SAMPLE_STREAM_ID) && (err = get64(&c, &v)))
		return err;
	if (st & PERF_SAMPLE_CPU) {
		if ((err = get32x2(&c, &s->cpu, &res)))
			return err;
		s->has |= HM_HAS_CPU;
	}
	if (st & PERF_SAMPLE_PERIOD) {
		if ((err = get64(&c, &s->period)))
			return err;
		s->has |= HM_HAS_PERIOD;
	}
	if ((st & (PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
		   PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
		   PERF_SAMPLE_STACK_USER)) && (err = middle_fields(&c, e, s)))
		return err;
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		if ((err = get64(&c, &s->weight)))
			return err;
		if (!(st & PERF_SAMPLE_WEIGHT))
			s->weight &= 0xffffffffu;	/* var1: the load latency */
		s->has |= HM_HAS_WEIGHT;
	}
	if (st & PERF_SAMPLE_DATA_SRC) {
		if ((err = get64(&c, &s->data_src)))
			return err;
		s->has |= HM_HAS_DATA_SRC;
	}
	if ((st & PERF_SAMPLE_TRANSACTION) && (err = get64(&c, &v)))
		return err;
	if (st & PERF_SAMPLE_REGS_INTR) {
		if ((err = get64(&c, &v)))
			return err;
		if (v && (err = regs_block(&c, e->regs_intr, c.r->iregs, &s->regs_intr)))
			return err;
		if (v) {
			s->nr_regs_intr = e->regs_intr;
			s->has |= HM_HAS_REGS_INTR;
		}
	}
	if (st & PERF_SAMPLE_PHYS_ADDR) {
		if ((err = get64(&c, &s->phys_addr)))
			return err;
		s->has |= HM_HAS_PHYS_ADDR;
	}
	if (((st & PERF_SAMPLE_CGROUP) && (err = get64(&c, &v))) ||
	    ((st & PERF_SAMPLE_DATA_PAGE_SIZE) && (err = get64(&c, &v))) ||
	    ((st & PERF_SAMPLE_CODE_PAGE_SIZE) && (err = get64(&c, &v))))
		return err;
	if (st & PERF_SAMPLE_AUX) {
		if ((err = get64(&c, &v)) || (err = skip(&c, v)))
			return err;
	}
	return 1;
}

/* Samples straight from the stream buffer: only what is already buffered and
 * takes sample_decode() (host order, fixed-size fields, a known event, a
 * record long enough); anything else stops the run and is left to
 * hm_perf_reader_next(), which reads, reports errors and counts unknown ids.
 * So the samples, their order and every message are those of next().  A
 * directory's streams are merged by next() alone. */
size_t hm_perf_reader_next_samples(hm_perf_reader *r, hm_sample *out, size_t max)
{
	struct pr_stream *s = &r->s;
	const unsigned char *p, *end;
	uint64_t off = s->off;
	int by_id = r->nr_ev > 1 && r->ev[0].id_pos >= 0;
	size_t id_at = by_id ? 8 + 8 * (size_t)r->ev[0].id_pos : 0, n = 0;

	if (r->err || r->swap || !r->nr_ev || !s->buf || r->nr_in || hm_pr_zstd_pending(r))
		return 0;
	p = s->buf + s->start;
	end = s->buf + s->end;
	while (n < max && end - p >= 8) {
		const struct pr_event *e;
		uint32_t type;
		uint16_t misc, size;
		int ev = 0;

		memcpy(&type, p, 4);
		memcpy(&misc, p + 4, 2);
		memcpy(&size, p + 6, 2);
		if (type != PERF_RECORD_SAMPLE || size < 8 || size > end - p)
			break;
		if (by_id) {
			if (size < id_at + 8)
				break;
			ev = event_of_id(r, ld64(p + id_at));
			if (ev < 0)
				break;
		}
		e = &r->ev[ev];
		if (!e->fixed || size < 8 + (size_t)e->fixed_len)
			break;
		sample_decode(e, (uint32_t)ev, &out[n++], p, misc, off);
		p += size;
		off += size;
	}
	s->start = (size_t)(p - s->buf);
	s->off = off;
	return n;
}

/* The NUL-terminated string that starts at c->p and ends before the
 * sample_id_all trailer. */
static int get_string(struct cur *c, unsigned trailer, const char **out)
{
	size_t room = (size_t)(c->end - c->p);
	const unsigned char *nul;

	if (room < trailer)
		return truncated(c, trailer);
	room -= trailer;
	nul = memchr(c->p, 0, room);
	if (!nul)
		return hm_fail(EBADMSG, "%s: unterminated name in %s at offset 0x%" PRIx64,
			       c->r->name, c->what, c->off);
	*out = (const char *)c->p;
	return 0;
}

static unsigned trailer_of(const hm_perf_reader *r)
{
	return r->nr_ev ? r->ev[0].trailer : 0;
}

static int parse_mmap(hm_perf_reader *r, hm_perf_record *rec, const unsigned char *p,
		      size_t size, uint16_t misc, int v2)
{
	hm_perf_mmap *m = &rec->u.mmap;
	struct cur c = { r, p + 8, p + size, rec->offset, v2 ? "MMAP2 record" : "MMAP record" };
	int err;

	rec->kind = HM_PERF_MMAP;
	m->cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	m->mmap2 = !!v2;
	if (!hm_pr_record_time(r, p, v2 ? PERF_RECORD_MMAP2 : PERF_RECORD_MMAP, size, &m->time))
		m->time = 0;
	if ((err = get32x2(&c, &m->pid, &m->tid)) || (err = get64(&c, &m->start)) ||
	    (err = get64(&c, &m->len)) || (err = get64(&c, &m->pgoff)))
		return err;
	if (v2 && (misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		if (c.end - c.p < 24)
			return truncated(&c, 24);
		m->build_id_size = c.p[0] > 20 ? 20 : c.p[0];
		memcpy(m->build_id, c.p + 4, 20);
		c.p += 24;
	} else if (v2) {
		if ((err = get32x2(&c, &m->maj, &m->min)) || (err = get64(&c, &m->ino)) ||
		    (err = get64(&c, &m->ino_generation)))
			return err;
	}
	if (v2 && (err = get32x2(&c, &m->prot, &m->flags)))
		return err;
	err = get_string(&c, trailer_of(r), &m->filename);
	return err ? err : 1;
}

int hm_pr_parse_kernel_record(hm_perf_reader *r, hm_perf_record *rec,
			      const unsigned char *p, size_t size)
{
	uint16_t misc;
	struct cur c = { r, p + 8, p + size, rec->offset, "record" };
	int err;

	memcpy(&misc, p + 4, 2);
	misc = r->swap ? __builtin_bswap16(misc) : misc;
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		return parse_sample(r, rec, p, size, misc);
	case PERF_RECORD_MMAP:
		return parse_mmap(r, rec, p, size, misc, 0);
	case PERF_RECORD_MMAP2:
		return parse_mmap(r, rec, p, size, misc, 1);
	case PERF_RECORD_COMM:
		rec->kind = HM_PERF_COMM;
		c.what = "COMM record";
		rec->u.comm.exec = !!(misc & PERF_RECORD_MISC_COMM_EXEC);
		if (!hm_pr_record_time(r, p, PERF_RECORD_COMM, size, &rec->u.comm.time))
			rec->u.comm.time = 0;
		if ((err = get32x2(&c, &rec->u.comm.pid, &rec->u.comm.tid)))
			return err;
		return get_string(&c, trailer_of(r), &rec->u.comm.comm) ?: 1;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		hm_perf_task *t = &rec->u.task;

		rec->kind = rec->type == PERF_RECORD_FORK ? HM_PERF_FORK : HM_PERF_EXIT;
		c.what = rec->type == PERF_RECORD_FORK ? "FORK record" : "EXIT record";
		if ((err = get32x2(&c, &t->pid, &t->ppid)) ||
		    (err = get32x2(&c, &t->tid, &t->ptid)) || (err = get64(&c, &t->time)))
			return err;
		return 1;
	}
	case PERF_RECORD_TEXT_POKE: {
		/* u64 addr, u16 old_len, u16 new_len, u8 bytes[old_len +
		 * new_len], padded to 8 bytes, then the sample_id trailer */
		hm_perf_text_poke *t = &rec->u.poke;
		uint16_t len[2];

		rec->kind = HM_PERF_TEXT_POKE;
		c.what = "TEXT_POKE record";
		if ((err = get64(&c, &t->addr)))
			return err;
		if (c.end - c.p < 4)
			return truncated(&c, 4);
		memcpy(len, c.p, 4);
		t->old_len = r->swap ? __builtin_bswap16(len[0]) : len[0];
		t->new_len = r->swap ? __builtin_bswap16(len[1]) : len[1];
		c.p += 4;
		if ((size_t)(c.end - c.p) < trailer_of(r) ||
		    (size_t)(c.end - c.p) - trailer_of(r) < (size_t)t->old_len + t->new_len)
			return truncated(&c, (size_t)t->old_len + t->new_len + trailer_of(r));
		t->old_bytes = c.p;
		t->new_bytes = c.p + t->old_len;
		return 1;
	}
	case PERF_RECORD_LOST: {
		uint64_t id;

		rec->kind = HM_PERF_LOST;
		c.what = "LOST record";
		if ((err = get64(&c, &id)) || (err = get64(&c, &rec->u.lost)))
			return err;
		return 1;
	}
	}
	rec->kind = HM_PERF_OTHER;
	return 1;
}

int hm_pr_record_time(hm_perf_reader *r, const unsigned char *p, uint32_t type,
		      size_t size, uint64_t *t)
{
	const struct pr_event *e;
	uint64_t st, v;
	size_t at;
	int ev = 0;

	if (!r->nr_ev || type >= HM_REC_HEADER_ATTR)
		return 0;	/* perf's own records carry no time */
	if (type == PERF_RECORD_SAMPLE) {
		/* the sample's event, as parse_sample() finds it */
		if (r->nr_ev > 1 && r->ev[0].id_pos >= 0) {
			at = 8 + 8 * (size_t)r->ev[0].id_pos;
			if (size < at + 8)
				return 0;
			memcpy(&v, p + at, 8);
			ev = event_of_id(r, r->swap ? __builtin_bswap64(v) : v);
			if (ev < 0)
				return 0;
		}
		e = &r->ev[ev];
		st = e->attr.sample_type;
		if (!(st & PERF_SAMPLE_TIME))
			return 0;
		at = 8 + 8 * (size_t)(!!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) +
				      !!(st & PERF_SAMPLE_TID));
	} else {
		/* the sample_id_all trailer, read from the end as everywhere here
		 * by the first event's layout */
		e = &r->ev[0];
		st = e->attr.sample_type;
		if (!e->trailer || !(st & PERF_SAMPLE_TIME) || size < 8 + (size_t)e->trailer)
			return 0;
		at = size - e->trailer + 8 * !!(st & PERF_SAMPLE_TID);
	}
	if (size < at + 8)
		return 0;
	memcpy(&v, p + at, 8);
	*t = r->swap ? __builtin_bswap64(v) : v;
	return 1;
}
