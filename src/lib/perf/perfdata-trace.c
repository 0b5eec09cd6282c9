/* perfdata-trace: the TRACING_DATA feature (tracepoint formats) and the
 * fields of a tracepoint sample's raw record.
 *
 * The feature is what perf's tracing_data_header() writes and
 * trace_report() reads (tools/perf/util/trace-event-{info,read}.c):
 *   "\027\010D" "tracing", a NUL-terminated version ("0.6"), u8 big-endian,
 *   u8 sizeof(long), u32 page size;
 *   "header_page\0", u64 size, bytes; "header_event\0", u64 size, bytes;
 *   u32 count of ftrace formats, each u64 size + bytes;
 *   u32 count of systems, each a NUL-terminated name, u32 count of event
 *   formats, each u64 size + the event's format file;
 *   u32 size + kallsyms; u32 size + ftrace_printk; (version >= 0.6) u64
 *   size + saved_cmdlines.
 * Numbers are in the recording's byte order.  Only the event formats are
 * kept: name, ID and each field's offset and size; the rest is checked for
 * its length and skipped.  Every length is bounded by the feature. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "perf/perfdata-rd.h"

#define MAX_FIELDS 256		/* a format with more is refused */

struct tcur {
	hm_perf_reader *r;
	const unsigned char *start, *p, *end;
	uint64_t off;
	int big;
};

static int tbad(const struct tcur *c, const char *what)
{
	return hm_fail(EBADMSG, "%s: TRACING_DATA feature: %s at offset 0x%" PRIx64, c->r->name,
		       what, c->off + (uint64_t)(c->p - c->start));
}

static int tnum(struct tcur *c, unsigned n, uint64_t *v)
{
	unsigned i;

	if ((size_t)(c->end - c->p) < n)
		return tbad(c, "cut short");
	*v = 0;
	for (i = 0; i < n; i++)
		*v |= (uint64_t)c->p[c->big ? n - 1 - i : i] << (8 * i);
	c->p += n;
	return 0;
}

static int tstr(struct tcur *c, const char **s, size_t *len)
{
	const unsigned char *z = memchr(c->p, 0, (size_t)(c->end - c->p));

	if (!z)
		return tbad(c, "unterminated string");
	*s = (const char *)c->p;
	*len = (size_t)(z - c->p);
	c->p = z + 1;
	return 0;
}

/* A u32 or u64 length, then that many bytes (returned in *p). */
static int tblock(struct tcur *c, unsigned lenbytes, const unsigned char **p, uint64_t *n)
{
	int err = tnum(c, lenbytes, n);

	if (err)
		return err;
	if (*n > (uint64_t)(c->end - c->p))
		return tbad(c, "length past the end of the feature");
	*p = c->p;
	c->p += *n;
	return 0;
}

/* The number after `key` in [p, e), e.g. "offset:16;" → 16. */
static int key_num(const char *p, const char *e, const char *key, uint64_t *v)
{
	size_t k = strlen(key);
	const char *q;

	for (q = p; q + k <= e; q++)
		if (!memcmp(q, key, k)) {
			char *stop;
			char buf[24];
			size_t n = 0;

			q += k;
			while (q + n < e && n < sizeof(buf) - 1 && q[n] >= '0' && q[n] <= '9')
				n++;
			if (!n)
				return -EINVAL;
			memcpy(buf, q, n);
			buf[n] = 0;
			*v = strtoull(buf, &stop, 10);
			return 0;
		}
	return -ENOENT;
}

/* "\tfield:TYPE NAME[N];\toffset:O;\tsize:S;\tsigned:X;" */
static int parse_field(hm_perf_reader *r, const char *p, const char *e, hm_perf_tp_field *f)
{
	const char *decl = p + 6, *semi = memchr(decl, ';', (size_t)(e - decl)), *n, *ne;
	uint64_t off, size;

	if (!semi || key_num(semi, e, "offset:", &off) || key_num(semi, e, "size:", &size) ||
	    off > UINT32_MAX || size > UINT32_MAX)
		return -EINVAL;
	/* the last word: "name" of "__data_loc char[] name", "comm[16]" */
	ne = semi;
	while (ne > decl && ne[-1] == ' ')
		ne--;
	for (n = ne; n > decl && n[-1] != ' ' && n[-1] != '*'; n--)
		;
	if (memchr(n, '[', (size_t)(ne - n)))	/* char comm[16] */
		ne = memchr(n, '[', (size_t)(ne - n));
	if (n == ne)
		return -EINVAL;
	f->name = hm_arena_strndup(&r->arena, n, (size_t)(ne - n));
	if (!f->name)
		return -ENOMEM;
	f->offset = (uint32_t)off;
	f->size = (uint32_t)size;
	f->data_loc = semi - decl > 10 && !memcmp(decl, "__data_loc", 10);
	return 0;
}

/* One event's format file. */
static int parse_format(struct tcur *c, const char *sys, const unsigned char *fmt, size_t len,
			hm_perf_tracepoint *tp)
{
	const char *p = (const char *)fmt, *end = p + len;
	hm_perf_tp_field fields[MAX_FIELDS];
	size_t nf = 0;
	int have_id = 0, have_name = 0, err;

	memset(tp, 0, sizeof(*tp));
	tp->system = sys;
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p)), *q = p;

		if (!e)
			e = end;
		while (q < e && (*q == ' ' || *q == '\t'))
			q++;
		if (e - q > 6 && !memcmp(q, "name: ", 6)) {
			tp->name = hm_arena_strndup(&c->r->arena, q + 6, (size_t)(e - q - 6));
			if (!tp->name)
				return -ENOMEM;
			have_name = 1;
		} else if (e - q > 4 && !memcmp(q, "ID: ", 4)) {
			if (key_num(q, e, "ID: ", &tp->id))
				return tbad(c, "event format with a bad ID line");
			have_id = 1;
		} else if (e - q > 6 && !memcmp(q, "field:", 6)) {
			if (nf == MAX_FIELDS)
				return tbad(c, "event format with too many fields");
			err = parse_field(c->r, q, e, &fields[nf]);
			if (err == -ENOMEM)
				return err;
			if (err)
				return tbad(c, "event format with a malformed field line");
			nf++;
		}
		p = e + 1;
	}
	if (!have_id || !have_name)
		return tbad(c, "event format without name or ID");
	tp->nr_fields = nf;
	if (nf) {
		hm_perf_tp_field *v = hm_arena_alloc(&c->r->arena, nf * sizeof(*v));

		if (!v)
			return -ENOMEM;
		memcpy(v, fields, nf * sizeof(*v));
		tp->fields = v;
	}
	return 0;
}

int hm_pr_tracing_data(hm_perf_reader *r, const unsigned char *p, size_t len, uint64_t off)
{
	static const unsigned char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct tcur c = { r, p, p, p + len, off, 0 };
	hm_perf_tracepoint *tps = NULL;
	size_t ntp = 0, cap = 0, slen = 0;
	const unsigned char *blk;
	const char *ver = NULL;
	uint64_t n = 0, nsys = 0, i, k;
	unsigned char *copy;
	int err;

	if (len < sizeof(magic) || memcmp(p, magic, sizeof(magic)))
		return tbad(&c, "no \"\\027\\bDtracing\" magic");
	c.p += sizeof(magic);
	if ((err = tstr(&c, &ver, &slen)))
		return err;
	if (c.end - c.p < 6)
		return tbad(&c, "cut short");
	c.big = c.p[0] != 0;
	c.p += 2;	/* byte order, sizeof(long) */
	if ((err = tnum(&c, 4, &n)))
		return err;
	if ((size_t)(c.end - c.p) < 12 || memcmp(c.p, "header_page", 12))
		return tbad(&c, "no header_page");
	c.p += 12;
	if ((err = tblock(&c, 8, &blk, &n)))
		return err;
	if ((size_t)(c.end - c.p) < 13 || memcmp(c.p, "header_event", 13))
		return tbad(&c, "no header_event");
	c.p += 13;
	if ((err = tblock(&c, 8, &blk, &n)) || (err = tnum(&c, 4, &n)))
		return err;
	for (i = 0; i < n; i++)	/* ftrace's own formats */
		if ((err = tblock(&c, 8, &blk, &k)))
			return err;
	if ((err = tnum(&c, 4, &nsys)))
		return err;
	for (i = 0; !err && i < nsys; i++) {
		const char *sys = NULL;
		uint64_t nev = 0;

		if ((err = tstr(&c, &sys, &slen)) || (err = tnum(&c, 4, &nev)))
			break;
		if (!(sys = hm_arena_strndup(&r->arena, sys, slen))) {
			err = -ENOMEM;
			break;
		}
		for (k = 0; !err && k < nev; k++) {
			uint64_t flen;

			if ((err = tblock(&c, 8, &blk, &flen)))
				break;
			if (hm_grow((void **)&tps, &cap, ntp + 1, sizeof(*tps))) {
				err = -ENOMEM;
				break;
			}
			err = parse_format(&c, sys, blk, (size_t)flen, &tps[ntp]);
			if (!err)
				ntp++;
		}
	}
	/* kallsyms, ftrace_printk and (version 0.6 on) saved_cmdlines: only
	 * their lengths */
	(void)ver;
	if (!err && !(err = tblock(&c, 4, &blk, &n)) && !(err = tblock(&c, 4, &blk, &n)) &&
	    c.p < c.end)
		err = tblock(&c, 8, &blk, &n);
	if (!err && ntp) {
		hm_perf_tracepoint *v = hm_arena_alloc(&r->arena, ntp * sizeof(*v));

		if (!v)
			err = -ENOMEM;
		else
			memcpy(v, tps, ntp * sizeof(*v));
		r->info.tracepoints = v;
		r->info.nr_tracepoints = ntp;
	}
	free(tps);
	if (err)
		return err;
	if (!(copy = hm_arena_alloc(&r->arena, len ? len : 1)))
		return -ENOMEM;
	memcpy(copy, p, len);
	r->info.tracing_data = copy;
	r->info.tracing_data_size = len;
	r->info.tracing_big_endian = c.big;
	return 0;
}

const hm_perf_tp_field *hm_perf_tp_field_find(const hm_perf_tracepoint *tp, const char *name)
{
	size_t i;

	for (i = 0; tp && i < tp->nr_fields; i++)
		if (!strcmp(tp->fields[i].name, name))
			return &tp->fields[i];
	return NULL;
}

static uint64_t get_n(const unsigned char *p, unsigned n, int big)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

int hm_perf_tp_u64(const hm_perf_info *info, const hm_sample *s, const hm_perf_tp_field *f,
		   uint64_t *out)
{
	if (!f || !(s->has & HM_HAS_RAW) || (f->size != 1 && f->size != 2 && f->size != 4 &&
					     f->size != 8) ||
	    f->offset > s->raw_size || f->size > s->raw_size - f->offset)
		return -EBADMSG;
	*out = get_n(s->raw + f->offset, f->size, info->tracing_big_endian);
	return 0;
}

int hm_perf_tp_str(const hm_perf_info *info, const hm_sample *s, const hm_perf_tp_field *f,
		   const char **str, size_t *len)
{
	uint64_t loc;
	uint32_t at, n;
	const unsigned char *z;

	if (!f || !f->data_loc || f->size != 4 || hm_perf_tp_u64(info, s, f, &loc))
		return -EBADMSG;
	at = (uint32_t)loc & 0xffff;
	n = (uint32_t)loc >> 16;
	if (!n || at > s->raw_size || n > s->raw_size - at)
		return -EBADMSG;
	z = memchr(s->raw + at, 0, n);
	if (!z)
		return -EBADMSG;
	*str = (const char *)s->raw + at;
	*len = (size_t)(z - (s->raw + at));
	return 0;
}
