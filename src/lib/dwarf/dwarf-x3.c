/* dwarf-x3: three-byte index forms for libdwarf 20210528 (see dwarf-x3.h). */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf/dwarf-x3.h"

enum {
	FORM_data1 = 0x0b, FORM_data2 = 0x05, FORM_implicit_const = 0x21,
	FORM_strx3 = 0x27, FORM_addrx3 = 0x2b,
};

struct cur {
	const unsigned char *p, *end;
	int bad;
};

static uint64_t uleb(struct cur *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	for (;;) {
		if (c->p >= c->end) {
			c->bad = 1;
			return 0;
		}
		unsigned char b = *c->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
}

static int is_x3(uint64_t form)
{
	return form == FORM_strx3 || form == FORM_addrx3;
}

/* Walk every abbreviation: calls spec() for each attribute specification
 * (the cursor after its form, before an implicit constant) and mark() at
 * each entry's start.  Stops at the end or at malformed bytes. */
static void walk(const unsigned char *ab, size_t n,
		 void (*spec)(void *arg, uint64_t at, uint64_t form, const unsigned char *start,
			      const unsigned char *end),
		 void (*mark)(void *arg, size_t off), void *arg)
{
	struct cur c = { ab, ab + n, 0 };

	while (!c.bad && c.p < c.end) {
		if (mark)
			mark(arg, c.p - ab);
		if (!uleb(&c))
			continue;	/* the 0 that ends a unit's table */
		uleb(&c);		/* tag */
		if (c.p >= c.end)
			return;
		c.p++;			/* children */
		for (;;) {
			const unsigned char *s = c.p;
			uint64_t at = uleb(&c), form = uleb(&c);

			if (c.bad || (!at && !form))
				break;
			if (form == FORM_implicit_const)
				uleb(&c);	/* a signed LEB128: same length rule */
			spec(arg, at, form, s, c.p);
		}
	}
}

struct counts {
	size_t x3, marks;
};

static void count_spec(void *arg, uint64_t at, uint64_t form, const unsigned char *s,
		       const unsigned char *e)
{
	(void)at, (void)s, (void)e;
	((struct counts *)arg)->x3 += is_x3(form);
}

static void count_mark(void *arg, size_t off)
{
	(void)off;
	((struct counts *)arg)->marks++;
}

size_t hm_x3_count(const unsigned char *abbrev, size_t n)
{
	struct counts k = { 0, 0 };

	walk(abbrev, n, count_spec, NULL, &k);
	return k.x3;
}

static unsigned put_uleb(unsigned char *p, uint64_t v)
{
	unsigned n = 0;

	do {
		unsigned char b = v & 0x7f;

		v >>= 7;
		p[n++] = b | (v ? 0x80 : 0);
	} while (v);
	return n;
}

/* The rewriting pass: bytes copied through, x3 specifications split, and
 * the old -> new offset of every entry start recorded. */
struct rewrite {
	const unsigned char *ab;
	unsigned char *out;
	size_t used;			/* bytes of out written */
	const unsigned char *copied;	/* ab copied up to here */
	struct hm_x3_map *map;
	size_t nmap;
};

static void flush(struct rewrite *w, const unsigned char *upto)
{
	memcpy(w->out + w->used, w->copied, upto - w->copied);
	w->used += upto - w->copied;
	w->copied = upto;
}

static void rewrite_spec(void *arg, uint64_t at, uint64_t form, const unsigned char *s,
			 const unsigned char *e)
{
	struct rewrite *w = arg;

	if (!is_x3(form))
		return;
	flush(w, s);
	w->used += put_uleb(w->out + w->used, HM_AT_X3_LOW);
	w->out[w->used++] = FORM_data2;
	w->used += put_uleb(w->out + w->used, at);
	w->out[w->used++] = FORM_data1;
	w->copied = e;
}

static void rewrite_mark(void *arg, size_t off)
{
	struct rewrite *w = arg;

	flush(w, w->ab + off);
	w->map[w->nmap].from = off;
	w->map[w->nmap].to = w->used;
	w->nmap++;
}

int hm_x3_rewrite(const unsigned char *abbrev, size_t n, struct hm_x3_abbrev *out)
{
	struct rewrite w = { abbrev, NULL, 0, abbrev, NULL, 0 };
	struct counts k = { 0, 0 };

	memset(out, 0, sizeof(*out));
	walk(abbrev, n, count_spec, count_mark, &k);
	/* a split replaces at least 2 bytes by at most 2 + 1 + 10 + 1 */
	w.out = malloc(n + 12 * k.x3 + 1);
	w.map = malloc((k.marks + 1) * sizeof(*w.map));
	if (!w.out || !w.map) {
		free(w.out);
		free(w.map);
		return -ENOMEM;
	}
	walk(abbrev, n, rewrite_spec, rewrite_mark, &w);
	flush(&w, abbrev + n);
	w.map[w.nmap].from = n;		/* one past the end maps too */
	w.map[w.nmap].to = w.used;
	w.nmap++;
	out->data = w.out;
	out->size = w.used;
	out->map = w.map;
	out->nmap = w.nmap;
	return 0;
}

/* The new offset of an entry start; off itself when it is none. */
static uint64_t map_off(const struct hm_x3_abbrev *a, uint64_t off)
{
	size_t lo = 0, hi = a->nmap;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->map[mid].from < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < a->nmap && a->map[lo].from == off ? a->map[lo].to : off;
}

static uint64_t get(const unsigned char *p, unsigned n, int big)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

static void put(unsigned char *p, unsigned n, int big, uint64_t v)
{
	for (unsigned i = 0; i < n; i++)
		p[big ? n - 1 - i : i] = v >> (8 * i);
}

void hm_x3_patch_units(unsigned char *sec, size_t n, int big, const struct hm_x3_abbrev *a)
{
	size_t off = 0;

	while (n - off >= 4) {
		uint64_t len = get(sec + off, 4, big);
		unsigned osize = 4, hdr = 4;
		size_t at;
		unsigned version;

		if (len == 0xffffffff) {
			if (n - off < 12)
				return;
			len = get(sec + off + 4, 8, big);
			osize = 8;
			hdr = 12;
		}
		if (len > n - off - hdr || len < 2)
			return;
		version = get(sec + off + hdr, 2, big);
		/* DWARF 5: unit_type and address size come before the offset */
		at = off + hdr + 2 + (version >= 5 ? 2 : 0);
		if (at + osize > off + hdr + len)
			return;
		put(sec + at, osize, big, map_off(a, get(sec + at, osize, big)));
		off += hdr + len;
	}
}

void hm_x3_abbrev_free(struct hm_x3_abbrev *a)
{
	free(a->data);
	free(a->map);
	memset(a, 0, sizeof(*a));
}
