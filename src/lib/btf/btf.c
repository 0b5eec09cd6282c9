/* btf: BTF into the type table.
 *
 * Three passes over the blob: index every type record (bounds-checked, so the
 * later passes may index freely), give each BTF type that is a C type a table
 * id (type tags are transparent; functions, variables, sections and decl tags
 * are not types), then emit them in BTF order so that ids can be computed
 * before the types they refer to exist.  BTF knows no alignment attributes;
 * a last pass infers them from holes and tail padding, the way gcc would have
 * recorded them in DWARF (on the aligned member, on every struct whose
 * alignment it raises, and on members whose type carries one).
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/btf.h>
#include "btf/btf.h"
#include "base/diag.h"
#include "types/types-int.h"
#include "base/opts.h"
#include "elf/binary-lib.h"

#define BTF_HDR_MIN 24u
#define MAX_CHAIN 64u		/* typedef/qualifier/array chains longer are corrupt */
#define MAX_NEST 512u		/* structs nested by value deeper are corrupt */

struct btf {
	const unsigned char *buf;
	size_t len;
	const char *name;	/* file name, for messages */
	const char *what;	/* ".BTF" or "BTF" */
	int swap;
	const unsigned char *ts;	/* type section */
	uint32_t ts_len, ts_pos;	/* its length and offset inside buf */
	const char *ss;		/* string section */
	uint32_t ss_len;
	uint32_t nr;		/* ids 0 (void) .. nr-1 */
	uint32_t start;		/* first id of this blob: 1, or after the base's */
	const struct btf *base;	/* split BTF (a kernel module's): the base */
	uint32_t *off;		/* off[id - start + 1]: record offset inside ts */
	hm_type_id *map;	/* BTF id -> table id (0: void or not a type) */
	uint32_t *align;	/* memoised alignof per BTF id, 0 = not yet */
	uint8_t *state;		/* alignment inference: 0 todo, 1 busy, 2 done */
	hm_type_id *flex;	/* per array id: its flexible variant, if made */
	uint64_t *var_addr;	/* per var id: address + 1 from DATASEC, 0 = none */
	hm_types *t;
	hm_binary *bin;
	const struct hm_load_opts *o;
	unsigned ptr_size, cacheline;
};

/* ---- raw access ---- */

static uint32_t rd32(const struct btf *b, const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return b->swap ? __builtin_bswap32(v) : v;
}

static uint16_t rd16(const struct btf *b, const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return b->swap ? __builtin_bswap16(v) : v;
}

static const unsigned char *rec(const struct btf *b, uint32_t id)
{
	while (id < b->start)
		b = b->base;
	return b->ts + b->off[id - b->start + 1];
}

static unsigned kind_of(const struct btf *b, uint32_t id)
{
	return id ? BTF_INFO_KIND(rd32(b, rec(b, id) + 4)) : BTF_KIND_UNKN;
}

static unsigned vlen_of(const struct btf *b, uint32_t id)
{
	return BTF_INFO_VLEN(rd32(b, rec(b, id) + 4));
}

static unsigned kflag_of(const struct btf *b, uint32_t id)
{
	return BTF_INFO_KFLAG(rd32(b, rec(b, id) + 4));
}

/* size or type: the third word of the record */
static uint32_t word3(const struct btf *b, uint32_t id)
{
	return rd32(b, rec(b, id) + 8);
}

static const char *kind_name(unsigned k)
{
	static const char *const names[] = {
		"unknown", "int", "pointer", "array", "struct", "union", "enum",
		"forward", "typedef", "volatile", "const", "restrict", "func",
		"func_proto", "var", "datasec", "float", "decl_tag", "type_tag",
		"enum64",
	};

	return k < sizeof(names) / sizeof(names[0]) ? names[k] : "unknown";
}

/* Offset of a byte of the type section inside the whole blob, for messages. */
static unsigned long at(const struct btf *b, uint32_t id, uint32_t extra)
{
	return (unsigned long)b->ts_pos + (id >= b->start ? b->off[id - b->start + 1] : 0) +
	       extra;
}

static int bad(const struct btf *b, uint32_t id, uint32_t extra, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int bad(const struct btf *b, uint32_t id, uint32_t extra, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (id)
		return hm_fail(EBADMSG, "%s: %s type %u (%s): %s at offset 0x%lx", b->name,
			       b->what, id, kind_name(kind_of(b, id)), msg, at(b, id, extra));
	return hm_fail(EBADMSG, "%s: %s: %s at offset 0x%lx", b->name, b->what, msg,
		       (unsigned long)extra);
}

/* ---- header and index ---- */

int hm_btf_is_btf(const void *buf, size_t len)
{
	const unsigned char *p = buf;

	return len >= BTF_HDR_MIN && ((p[0] == 0x9f && p[1] == 0xeb) ||
				      (p[0] == 0xeb && p[1] == 0x9f));
}

static int parse_header(struct btf *b)
{
	const unsigned char *p = b->buf;
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
	uint64_t body;

	if (b->len < BTF_HDR_MIN)
		return bad(b, 0, 0, "truncated header (need %u bytes, have %zu)", BTF_HDR_MIN,
			   b->len);
	if (!hm_btf_is_btf(b->buf, b->len))
		return bad(b, 0, 0, "bad magic 0x%02x%02x (want 0xeb9f)", p[0], p[1]);
	b->swap = 0;
	b->swap = rd16(b, p) != BTF_MAGIC;
	if (p[2] != BTF_VERSION)
		return bad(b, 0, 2, "unsupported version %u (need %u)", p[2], BTF_VERSION);
	hdr_len = rd32(b, p + 4);
	if (hdr_len < BTF_HDR_MIN || hdr_len > b->len)
		return bad(b, 0, 4, "header length %u out of range (have %zu bytes)", hdr_len,
			   b->len);
	type_off = rd32(b, p + 8);
	type_len = rd32(b, p + 12);
	str_off = rd32(b, p + 16);
	str_len = rd32(b, p + 20);
	body = b->len - hdr_len;
	if ((uint64_t)type_off + type_len > body)
		return bad(b, 0, 8, "type section [0x%x, +0x%x) beyond the end (0x%llx bytes)",
			   type_off, type_len, (unsigned long long)body);
	if ((uint64_t)str_off + str_len > body)
		return bad(b, 0, 16, "string section [0x%x, +0x%x) beyond the end (0x%llx bytes)",
			   str_off, str_len, (unsigned long long)body);
	if (type_off % 4)
		return bad(b, 0, 8, "type section offset 0x%x not 4-byte aligned", type_off);
	b->ts = p + hdr_len + type_off;
	b->ts_len = type_len;
	b->ts_pos = hdr_len + type_off;
	b->ss = (const char *)p + hdr_len + str_off;
	b->ss_len = str_len;
	/* a string section that starts and ends with NUL makes every in-range
	 * name offset a terminated string */
	if (!str_len || b->ss[str_len - 1])
		return bad(b, 0, hdr_len + str_off, "string section must end with a NUL byte");
	/* only a split blob's strings continue a base's */
	if (!b->base && b->ss[0])
		return bad(b, 0, hdr_len + str_off,
			   "string section does not start with a NUL byte "
			   "(split BTF? give its base with --btf-base)");
	if (b->base && b->base->swap != b->swap)
		return bad(b, 0, 0, "byte order differs from the base BTF's");
	return 0;
}

/* Bytes that follow the 12-byte record of this kind, or -1 if unknown. */
static long extra_len(unsigned kind, unsigned vlen)
{
	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return (long)vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return (long)vlen * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64:
		return (long)vlen * sizeof(struct btf_enum64);
	case BTF_KIND_FUNC_PROTO:
		return (long)vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return (long)vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	default:
		return -1;
	}
}

static int build_index(struct btf *b)
{
	size_t cap = 0, n = 1;
	uint32_t pos = 0;

	if (hm_grow((void **)&b->off, &cap, 1 + b->ts_len / 12, sizeof(*b->off)))
		return -ENOMEM;
	b->off[0] = 0;
	while (pos < b->ts_len) {
		uint32_t info;
		unsigned kind;
		long extra;

		if (b->ts_len - pos < 12)
			return bad(b, 0, b->ts_pos + pos, "truncated type %zu (need 12 bytes, have %u)",
				   b->start + n - 1, b->ts_len - pos);
		info = rd32(b, b->ts + pos + 4);
		kind = BTF_INFO_KIND(info);
		extra = extra_len(kind, BTF_INFO_VLEN(info));
		if (extra < 0)
			return bad(b, 0, b->ts_pos + pos + 4, "type %zu has unknown kind %u",
				   b->start + n - 1, kind);
		if ((uint64_t)b->ts_len - pos - 12 < (uint64_t)extra)
			return bad(b, 0, b->ts_pos + pos,
				   "truncated type %zu (%s with %u entries needs %ld more bytes, have %u)",
				   b->start + n - 1, kind_name(kind), BTF_INFO_VLEN(info), extra,
				   b->ts_len - pos - 12);
		if (n > BTF_MAX_TYPE)
			return bad(b, 0, b->ts_pos + pos, "more than %u types", BTF_MAX_TYPE);
		b->off[n++] = pos;
		pos += 12 + (uint32_t)extra;
	}
	b->nr = b->start + (uint32_t)n - 1;
	if (b->nr > BTF_MAX_TYPE + 1)
		return bad(b, 0, b->ts_pos, "more than %u types with the base", BTF_MAX_TYPE);
	return 0;
}

/* ---- checked lookups ---- */

/* A split blob's string offsets continue after its base's strings. */
static const char *str_ptr(const struct btf *b, uint32_t off)
{
	if (b->base) {
		if (off < b->base->ss_len)
			return b->base->ss + off;
		off -= b->base->ss_len;
	}
	return off < b->ss_len ? b->ss + off : NULL;
}

static int str_at(const struct btf *b, uint32_t id, uint32_t where, uint32_t off,
		  const char **out)
{
	const char *s = str_ptr(b, off);

	if (!s)
		return bad(b, id, where, "name offset 0x%x beyond the string section (0x%x bytes)",
			   off, b->ss_len + (b->base ? b->base->ss_len : 0));
	*out = *s ? s : NULL;
	return 0;
}

/* An interned name or NULL for an empty one. */
static int name_at(const struct btf *b, uint32_t id, uint32_t where, uint32_t off,
		   const char **out)
{
	const char *s = NULL;
	int err = str_at(b, id, where, off, &s);

	if (err)
		return err;
	*out = NULL;
	if (s && !(*out = hm_types_intern(b->t, s)))
		return -ENOMEM;
	return 0;
}

static int is_c_type(unsigned kind)
{
	return kind != BTF_KIND_FUNC && kind != BTF_KIND_VAR && kind != BTF_KIND_DATASEC &&
	       kind != BTF_KIND_DECL_TAG;
}

/* Check that `ref`, found at byte `where` of type `id`, names a type. */
static int check_ref(const struct btf *b, uint32_t id, uint32_t where, uint32_t ref)
{
	if (ref >= b->nr)
		return bad(b, id, where, "refers to type %u (only %u types)", ref, b->nr - 1);
	if (ref && !is_c_type(kind_of(b, ref)))
		return bad(b, id, where, "refers to type %u, a %s", ref,
			   kind_name(kind_of(b, ref)));
	return 0;
}

/* Skip typedefs, qualifiers and type tags (refs already checked). */
static uint32_t skip_mods(const struct btf *b, uint32_t id)
{
	for (unsigned i = 0; id && i < MAX_CHAIN; i++) {
		switch (kind_of(b, id)) {
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = word3(b, id);
			continue;
		default:
			return id;
		}
	}
	return 0;
}

/* sizeof over BTF ids; flexible and zero-length arrays are 0 */
static uint64_t size_of(const struct btf *b, uint32_t id)
{
	uint64_t n = 1;

	for (unsigned i = 0; i < MAX_CHAIN; i++) {
		const unsigned char *a;

		id = skip_mods(b, id);
		if (!id)
			return 0;
		switch (kind_of(b, id)) {
		case BTF_KIND_INT:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_FLOAT:
			return n * word3(b, id);
		case BTF_KIND_PTR:
			return n * b->ptr_size;
		case BTF_KIND_ARRAY:
			a = rec(b, id) + 12;
			n *= rd32(b, a + 8);
			if (n > UINT32_MAX * 4ULL)
				return 0;
			id = rd32(b, a);
			continue;
		default:
			return 0;
		}
	}
	return 0;
}

/* ---- ids ---- */

static int assign_ids(struct btf *b)
{
	hm_type_id next = (hm_type_id)hm_types_count(b->t);

	b->map = calloc(b->nr, sizeof(*b->map));
	if (!b->map)
		return -ENOMEM;
	if (b->base)
		memcpy(b->map, b->base->map, b->start * sizeof(*b->map));
	for (uint32_t id = b->start; id < b->nr; id++) {
		unsigned k = kind_of(b, id);

		if (is_c_type(k) && k != BTF_KIND_TYPE_TAG)
			b->map[id] = next++;
	}
	/* a type tag (__user, __rcu) stands for the type it tags */
	for (uint32_t id = b->start; id < b->nr; id++) {
		uint32_t x = id;
		unsigned i;

		if (kind_of(b, id) != BTF_KIND_TYPE_TAG)
			continue;
		for (i = 0; i < MAX_CHAIN && x && kind_of(b, x) == BTF_KIND_TYPE_TAG; i++) {
			int err = check_ref(b, x, 8, word3(b, x));

			if (err)
				return err;
			x = word3(b, x);
		}
		if (i == MAX_CHAIN)
			return bad(b, id, 8, "type tag chain longer than %u", MAX_CHAIN);
		b->map[id] = b->map[x];
	}
	return 0;
}

/* ---- emitting types ---- */

static int emit(struct btf *b, uint32_t id, hm_type *ty)
{
	hm_type_id got = hm_types_add(b->t, ty);

	if (!got)
		return -ENOMEM;
	if (got != b->map[id])
		return hm_fail(EINVAL, "%s: %s type %u: table id %u, expected %u", b->name,
			       b->what, id, got, b->map[id]);
	return 0;
}

static int emit_int(struct btf *b, uint32_t id, hm_type *ty)
{
	uint32_t enc = rd32(b, rec(b, id) + 12);

	if (BTF_INT_BITS(enc) > 128 || BTF_INT_OFFSET(enc) + BTF_INT_BITS(enc) > 8 * ty->size)
		return bad(b, id, 12, "%u bits at bit %u do not fit in %llu bytes",
			   BTF_INT_BITS(enc), BTF_INT_OFFSET(enc), (unsigned long long)ty->size);
	ty->kind = HM_KIND_BASE;
	ty->is_signed = !!(BTF_INT_ENCODING(enc) & BTF_INT_SIGNED);
	return emit(b, id, ty);
}

/* Multi-dimensional arrays arrive as arrays of arrays: one table array type
 * with all the dims, as DWARF has it. */
static int emit_array(struct btf *b, uint32_t id, hm_type *ty)
{
	uint32_t x = id;
	size_t first = b->t->dims.n;
	unsigned n = 0;

	for (; n < MAX_CHAIN && x && kind_of(b, x) == BTF_KIND_ARRAY; n++) {
		const unsigned char *a = rec(b, x) + 12;
		int err = check_ref(b, x, 12, rd32(b, a));

		if (!err)
			err = check_ref(b, x, 16, rd32(b, a + 4));
		if (err)
			return err;
		if (hm_vec_push(b->t->dims, (uint64_t)rd32(b, a + 8)) < 0)
			return -ENOMEM;
		x = rd32(b, a);
	}
	if (n == MAX_CHAIN)
		return bad(b, id, 12, "array nesting deeper than %u", MAX_CHAIN);
	ty->kind = HM_KIND_ARRAY;
	ty->target = b->map[x];
	ty->nr = n;
	ty->first = (uint32_t)first;
	return emit(b, id, ty);
}

/* Turn the BTF bit offset of a bitfield into pahole's storage unit view:
 * the naturally aligned unit of the declared type's size that holds the
 * first bit, and the bit position within it in memory order (from the
 * least significant bit on little-endian targets, the most significant on
 * big-endian ones, as BTF and DWARF both count). */
static void place_bitfield(const struct btf *b, hm_member *m, uint64_t bit, uint32_t bits,
			   uint32_t unit)
{
	uint64_t ubits = 8ULL * unit;
	uint64_t start = bit / ubits * ubits;
	uint64_t in = bit - start;

	m->offset = start / 8;
	m->bit_size = bits;
	m->byte_size = unit;
	m->flags |= HM_MEMBER_BITFIELD;
	m->bit_offset = (uint32_t)in;
}

static int member(struct btf *b, uint32_t id, unsigned i, hm_member *m)
{
	uint32_t where = 12 + i * 12;
	const unsigned char *p = rec(b, id) + where;
	uint32_t type = rd32(b, p + 4), off = rd32(b, p + 8);
	uint32_t bits = 0, unit, res;
	uint64_t bit;
	int err;

	if ((err = check_ref(b, id, where + 4, type)) ||
	    (err = name_at(b, id, where, rd32(b, p), &m->name)))
		return err;
	m->type = b->map[type];
	bit = off;
	if (kflag_of(b, id)) {
		bits = BTF_MEMBER_BITFIELD_SIZE(off);
		bit = BTF_MEMBER_BIT_OFFSET(off);
	}
	res = skip_mods(b, type);
	if (!bits && res && kind_of(b, res) == BTF_KIND_INT) {
		/* old encoding: the int type itself is narrower */
		uint32_t enc = rd32(b, rec(b, res) + 12);

		if (BTF_INT_BITS(enc) != 8 * word3(b, res) || BTF_INT_OFFSET(enc)) {
			bits = BTF_INT_BITS(enc);
			bit += BTF_INT_OFFSET(enc);
		}
	}
	if (bit + (bits ? bits : 8 * size_of(b, type)) > 8ULL * word3(b, id))
		return bad(b, id, where + 8, "member %u at bit %llu beyond the %s (%u bytes)", i,
			   (unsigned long long)bit, kind_name(kind_of(b, id)), word3(b, id));
	if (!bits) {
		if (bit % 8)
			return bad(b, id, where + 8, "member %u at bit %llu, not a byte boundary", i,
				   (unsigned long long)bit);
		m->offset = bit / 8;
		return 0;
	}
	unit = res ? (uint32_t)size_of(b, res) : 0;
	if (!unit || unit > 16 || bits > 8 * unit)
		return bad(b, id, where + 8, "bitfield member %u of %u bits in a %u-byte type", i,
			   bits, unit);
	place_bitfield(b, m, bit, bits, unit);
	return 0;
}

static int emit_struct(struct btf *b, uint32_t id, hm_type *ty, int is_union)
{
	unsigned n = vlen_of(b, id);
	size_t first = b->t->members.n;

	for (unsigned i = 0; i < n; i++) {
		hm_member m = { 0 };
		int err = member(b, id, i, &m);

		if (err)
			return err;
		if (hm_vec_push(b->t->members, m) < 0)
			return -ENOMEM;
	}
	ty->kind = is_union ? HM_KIND_UNION : HM_KIND_STRUCT;
	ty->nr = n;
	ty->first = (uint32_t)first;
	return emit(b, id, ty);
}

static int emit_enum(struct btf *b, uint32_t id, hm_type *ty, int wide)
{
	unsigned n = vlen_of(b, id), step = wide ? 12 : 8;
	size_t first = b->t->enums.n;

	ty->kind = HM_KIND_ENUM;
	ty->is_signed = kflag_of(b, id);
	for (unsigned i = 0; i < n; i++) {
		const unsigned char *p = rec(b, id) + 12 + i * step;
		hm_enumerator e = { 0 };
		uint32_t lo = rd32(b, p + 4);
		int err = name_at(b, id, 12 + i * step, rd32(b, p), &e.name);

		if (err)
			return err;
		if (wide)
			e.value = (int64_t)((uint64_t)rd32(b, p + 8) << 32 | lo);
		else
			e.value = ty->is_signed ? (int64_t)(int32_t)lo : (int64_t)lo;
		if (hm_vec_push(b->t->enums, e) < 0)
			return -ENOMEM;
	}
	ty->nr = n;
	ty->first = (uint32_t)first;
	return emit(b, id, ty);
}

static int emit_proto(struct btf *b, uint32_t id, hm_type *ty)
{
	unsigned n = vlen_of(b, id);
	size_t first = b->t->params.n;

	ty->kind = HM_KIND_FUNC;
	ty->prototyped = 1;
	for (unsigned i = 0; i < n; i++) {
		uint32_t where = 12 + i * 8, type = rd32(b, rec(b, id) + where + 4);
		int err = check_ref(b, id, where + 4, type);

		if (err)
			return err;
		if (!type && i == n - 1) {	/* "..." */
			ty->varargs = 1;
			n--;
			break;
		}
		if (!type)
			return bad(b, id, where + 4, "parameter %u has type void", i);
		if (hm_vec_push(b->t->params, b->map[type]) < 0)
			return -ENOMEM;
	}
	ty->nr = n;
	ty->first = (uint32_t)first;
	return emit(b, id, ty);
}

/* Kinds whose third word is a type reference. */
static int emit_ref(struct btf *b, uint32_t id, hm_type *ty, enum hm_type_kind kind)
{
	uint32_t ref = word3(b, id);
	int err = check_ref(b, id, 8, ref);

	if (err)
		return err;
	ty->kind = kind;
	ty->target = b->map[ref];
	ty->size = kind == HM_KIND_POINTER ? b->ptr_size : 0;
	return emit(b, id, ty);
}

static int emit_one(struct btf *b, uint32_t id)
{
	hm_type ty = { 0 };
	unsigned k = kind_of(b, id);
	int err = name_at(b, id, 0, rd32(b, rec(b, id)), &ty.name);

	if (err)
		return err;
	switch (k) {
	case BTF_KIND_INT:
		ty.size = word3(b, id);
		return emit_int(b, id, &ty);
	case BTF_KIND_FLOAT:
		ty.size = word3(b, id);
		ty.kind = HM_KIND_BASE;
		ty.is_signed = 1;
		return emit(b, id, &ty);
	case BTF_KIND_PTR:
		return emit_ref(b, id, &ty, HM_KIND_POINTER);
	case BTF_KIND_TYPEDEF:
		return emit_ref(b, id, &ty, HM_KIND_TYPEDEF);
	case BTF_KIND_VOLATILE:
		return emit_ref(b, id, &ty, HM_KIND_VOLATILE);
	case BTF_KIND_CONST:
		return emit_ref(b, id, &ty, HM_KIND_CONST);
	case BTF_KIND_RESTRICT:
		return emit_ref(b, id, &ty, HM_KIND_RESTRICT);
	case BTF_KIND_ARRAY:
		return emit_array(b, id, &ty);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		ty.size = word3(b, id);
		return emit_struct(b, id, &ty, k == BTF_KIND_UNION);
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		ty.size = word3(b, id);
		return emit_enum(b, id, &ty, k == BTF_KIND_ENUM64);
	case BTF_KIND_FWD:
		ty.kind = kflag_of(b, id) ? HM_KIND_UNION : HM_KIND_STRUCT;
		ty.declaration = 1;
		return emit(b, id, &ty);
	case BTF_KIND_FUNC_PROTO:
		ty.target = word3(b, id);
		if ((err = check_ref(b, id, 8, ty.target)))
			return err;
		ty.target = b->map[ty.target];
		return emit_proto(b, id, &ty);
	default:
		return 0;
	}
}

/* Checks for the records that are not types. */
static int check_other(struct btf *b, uint32_t id)
{
	const char *s = NULL;
	int err = str_at(b, id, 0, rd32(b, rec(b, id)), &s);

	if (err)
		return err;
	switch (kind_of(b, id)) {
	case BTF_KIND_FUNC:
		if (word3(b, id) >= b->nr || kind_of(b, word3(b, id)) != BTF_KIND_FUNC_PROTO)
			return bad(b, id, 8, "refers to type %u, not a func_proto", word3(b, id));
		return 0;
	case BTF_KIND_VAR:
		return check_ref(b, id, 8, word3(b, id));
	case BTF_KIND_DECL_TAG:
		if (word3(b, id) >= b->nr || !word3(b, id))
			return bad(b, id, 8, "tags type %u (only %u types)", word3(b, id),
				   b->nr - 1);
		return 0;
	case BTF_KIND_DATASEC:
		for (unsigned i = 0; i < vlen_of(b, id); i++) {
			uint32_t v = rd32(b, rec(b, id) + 12 + i * 12);

			if (v >= b->nr || kind_of(b, v) != BTF_KIND_VAR)
				return bad(b, id, 12 + i * 12, "entry %u refers to type %u, not a var",
					   i, v);
		}
		return 0;
	default:
		return 0;
	}
}

/* Every reference and name of one record, so that the passes after this
 * one may follow references without checking them. */
static int check_record(struct btf *b, uint32_t id)
{
	unsigned k = kind_of(b, id), n = vlen_of(b, id);
	const unsigned char *r = rec(b, id);
	const char *s = NULL;
	int err = str_at(b, id, 0, rd32(b, r), &s);

	if (err)
		return err;
	switch (k) {
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return check_ref(b, id, 8, word3(b, id));
	case BTF_KIND_ARRAY:
		if ((err = check_ref(b, id, 12, rd32(b, r + 12))))
			return err;
		return check_ref(b, id, 16, rd32(b, r + 16));
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (unsigned i = 0; i < n; i++)
			if ((err = str_at(b, id, 12 + i * 12, rd32(b, r + 12 + i * 12), &s)) ||
			    (err = check_ref(b, id, 16 + i * 12, rd32(b, r + 16 + i * 12))))
				return err;
		return 0;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		for (unsigned i = 0, step = k == BTF_KIND_ENUM ? 8 : 12; i < n; i++)
			if ((err = str_at(b, id, 12 + i * step, rd32(b, r + 12 + i * step), &s)))
				return err;
		return 0;
	case BTF_KIND_FUNC_PROTO:
		if ((err = check_ref(b, id, 8, word3(b, id))))
			return err;
		for (unsigned i = 0; i < n; i++)
			if ((err = str_at(b, id, 12 + i * 8, rd32(b, r + 12 + i * 8), &s)) ||
			    (err = check_ref(b, id, 16 + i * 8, rd32(b, r + 16 + i * 8))))
				return err;
		return 0;
	default:
		return check_other(b, id);
	}
}

static int validate(struct btf *b)
{
	for (uint32_t id = b->start; id < b->nr; id++) {
		int err = check_record(b, id);

		if (err)
			return err;
	}
	return 0;
}

/* ---- alignment inference ---- */

static uint64_t round_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

/* The smallest power of two above `nat` that moves `from` up to exactly `to`,
 * or 0.  A cacheline multiple is taken as ____cacheline_aligned, the common
 * case in the kernel. */
static uint32_t explain_gap(const struct btf *b, uint64_t from, uint64_t to, uint32_t nat)
{
	uint64_t p;

	for (p = nat ? 2ULL * nat : 2; p <= (1ULL << 20); p *= 2) {
		uint64_t r = round_up(from, p);

		if (r > to)
			return 0;
		if (r == to)
			break;
	}
	if (p > (1ULL << 20))
		return 0;
	if (p < b->cacheline && to % b->cacheline == 0)
		p = b->cacheline;
	return (uint32_t)p;
}

static uint32_t align_of(struct btf *b, uint32_t id, unsigned depth);

/* Alignment requirement of a struct or union as hm_types_alignof() computes
 * it from the table (members, packing, the type's own attribute). */
static uint32_t record_align(struct btf *b, uint32_t id, unsigned depth)
{
	const hm_type *ty = hm_types_get(b->t, b->map[id]);
	const hm_member *m = hm_types_members(b->t, ty);
	uint32_t al = 1, nr = ty->nr, tyal = ty->alignment;
	uint64_t size = ty->size;
	int packed = 0;

	for (uint32_t i = 0; i < nr; i++) {
		uint32_t type = rd32(b, rec(b, id) + 12 + i * 12 + 4);
		uint32_t a = align_of(b, type, depth + 1);

		if (m[i].alignment > a)
			a = m[i].alignment;
		if (!(m[i].flags & HM_MEMBER_BITFIELD) && a > 1 && m[i].offset % a)
			packed = 1;
		if (a > al)
			al = a;
	}
	if (size % al)
		packed = 1;
	if (packed)
		al = 1;
	if (tyal > al || (packed && tyal))
		al = tyal;
	return al;
}

static void infer_record(struct btf *b, uint32_t id, unsigned depth);

static uint32_t align_of(struct btf *b, uint32_t id, unsigned depth)
{
	uint32_t a = 1, x = id;

	if (depth > MAX_NEST)
		return 1;
	if (id && b->align[id])
		return b->align[id];
	for (unsigned i = 0; x && i < MAX_CHAIN; i++) {
		unsigned k = kind_of(b, x);

		if (k == BTF_KIND_ARRAY) {
			x = rd32(b, rec(b, x) + 12);
			continue;
		}
		if (k == BTF_KIND_TYPEDEF || k == BTF_KIND_VOLATILE || k == BTF_KIND_CONST ||
		    k == BTF_KIND_RESTRICT || k == BTF_KIND_TYPE_TAG) {
			x = word3(b, x);
			continue;
		}
		break;
	}
	switch (x ? kind_of(b, x) : BTF_KIND_UNKN) {
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FLOAT:
		a = word3(b, x) > 16 ? 16 : word3(b, x) ? word3(b, x) : 1;
		break;
	case BTF_KIND_PTR:
		a = b->ptr_size;
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		infer_record(b, x, depth + 1);
		a = record_align(b, x, depth + 1);
		break;
	default:
		a = 1;
	}
	if (id)
		b->align[id] = a;
	return a;
}

/* The struct or union a member holds by value (through typedefs, qualifiers
 * and arrays), or 0. */
static uint32_t held_record(const struct btf *b, uint32_t id)
{
	for (unsigned i = 0; id && i < MAX_CHAIN; i++) {
		id = skip_mods(b, id);
		if (!id)
			return 0;
		switch (kind_of(b, id)) {
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			return id;
		case BTF_KIND_ARRAY:
			id = rd32(b, rec(b, id) + 12);
			continue;
		default:
			return 0;
		}
	}
	return 0;
}

/* gcc records the alignment of a member whose record type (or element
 * type) carries an alignment attribute. */
static uint32_t carried_align(const struct btf *b, uint32_t type)
{
	uint32_t r = held_record(b, type);
	const hm_type *ty = r ? hm_types_get(b->t, b->map[r]) : NULL;

	return ty ? ty->alignment : 0;
}

/* A member whose type is an anonymous struct or union, printed inline. */
static int is_inline_anon(const struct btf *b, uint32_t type)
{
	uint32_t r = held_record(b, type);
	const hm_type *ty = r ? hm_types_get(b->t, b->map[r]) : NULL;

	return ty && !ty->name && r == type;
}

static void infer_record(struct btf *b, uint32_t id, unsigned depth)
{
	hm_type_id tid = b->map[id];
	int is_union = kind_of(b, id) == BTF_KIND_UNION;
	unsigned n = vlen_of(b, id);
	uint64_t end = 0, size;
	uint32_t al, tail = 0;
	int user = 0, packed = 0;

	if (b->state[id] || depth > MAX_NEST)
		return;
	b->state[id] = 1;
	/* records held by value first: their alignment feeds ours */
	for (unsigned i = 0; i < n; i++) {
		uint32_t r = held_record(b, rd32(b, rec(b, id) + 12 + i * 12 + 4));

		if (r)
			infer_record(b, r, depth + 1);
	}
	for (unsigned i = 0; i < n; i++) {
		uint32_t type = rd32(b, rec(b, id) + 12 + i * 12 + 4);
		hm_member *m = &b->t->members.v[b->t->types.v[tid].first + i];
		uint32_t a = align_of(b, type, depth + 1), c;
		uint64_t mend;
		int mc = 0;

		if (m->flags & HM_MEMBER_BITFIELD) {
			/* the byte after its last bit */
			uint32_t last = m->bit_offset + m->bit_size;

			if (m->offset + (last + 7) / 8 > end)
				end = m->offset + (last + 7) / 8;
			continue;
		}
		mend = m->offset + size_of(b, type);
		if (a > 1 && m->offset % a) {
			packed = 1;
		} else if (!is_union && m->offset > round_up(end, a)) {
			m->alignment = explain_gap(b, end, m->offset, a);
		} else if ((c = carried_align(b, type))) {
			/* pahole -F btf prints an inline anonymous struct's
			 * alignment once, at its brace (gcc's DWARF has it on
			 * the member too), and shows a named struct's own only
			 * when its holes or tail need it */
			if (!is_inline_anon(b, type))
				m->alignment = c;
			mc = !!b->t->types.v[tid].name;
			user |= !mc;
		}
		if (m->alignment && !mc)
			user = 1;
		if (mend > end)
			end = mend;
	}
	al = record_align(b, id, depth);
	size = b->t->types.v[tid].size;
	if (!packed && size > round_up(end, al) && (tail = explain_gap(b, end, size, al)))
		user = 1;
	if (packed && al == 1 && size > end && (tail = explain_gap(b, end, size, 1)))
		user = 1;
	if (user)
		b->t->types.v[tid].alignment = tail > al ? tail : al;
	b->align[id] = 0;	/* recomputed with the attribute */
	b->state[id] = 2;
}

static int infer_alignment(struct btf *b)
{
	b->align = calloc(b->nr, sizeof(*b->align));
	b->state = calloc(b->nr, 1);
	if (!b->align || !b->state)
		return -ENOMEM;
	memset(b->state, 2, b->start);	/* the base's records are done */
	for (uint32_t id = b->start; id < b->nr; id++) {
		unsigned k = kind_of(b, id);

		if (k == BTF_KIND_STRUCT || k == BTF_KIND_UNION)
			infer_record(b, id, 0);
	}
	return 0;
}

/* ---- flexible arrays ---- */

/* BTF writes `char d[]` and `char d[0]` alike, with 0 elements, and shares
 * one array type between them.  A zero-length array that ends a struct with
 * other members is taken to be flexible (as pahole does; C allows a flexible
 * array nowhere else) and gets its own array type, behind copies of any
 * qualifiers in between. */
static int flexible_variant(struct btf *b, uint32_t id, unsigned depth, hm_type_id *out)
{
	hm_type ty = *hm_types_get(b->t, b->map[id]);
	size_t first = b->t->dims.n;
	hm_type_id got;
	int err;

	if (b->flex[id]) {
		*out = b->flex[id];
		return 0;
	}
	if (ty.kind == HM_KIND_ARRAY) {
		for (uint32_t i = 0; i < ty.nr; i++) {
			uint64_t d = b->t->dims.v[ty.first + i];

			if (hm_vec_push(b->t->dims, i ? d : HM_DIM_FLEXIBLE) < 0)
				return -ENOMEM;
		}
		ty.first = (uint32_t)first;
	} else {
		if (depth >= MAX_CHAIN)
			return bad(b, id, 8, "qualifier chain longer than %u", MAX_CHAIN);
		if ((err = flexible_variant(b, word3(b, id), depth + 1, &ty.target)))
			return err;
	}
	if (!(got = hm_types_add(b->t, &ty)))
		return -ENOMEM;
	*out = b->flex[id] = got;
	return 0;
}

/* The zero-length array a member's type is, under qualifiers only; or 0. */
static uint32_t zero_array(const struct btf *b, uint32_t type)
{
	for (unsigned i = 0; type && i < MAX_CHAIN; i++) {
		switch (kind_of(b, type)) {
		case BTF_KIND_CONST:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT:
			type = word3(b, type);
			continue;
		case BTF_KIND_ARRAY:
			return rd32(b, rec(b, type) + 12 + 8) == 0 ? type : 0;
		default:
			return 0;
		}
	}
	return 0;
}

static int mark_flexible(struct btf *b)
{
	for (uint32_t id = b->start; id < b->nr; id++) {
		unsigned n;
		uint32_t type;
		hm_member *m;
		int err;

		if (kind_of(b, id) != BTF_KIND_STRUCT || (n = vlen_of(b, id)) < 2)
			continue;
		type = rd32(b, rec(b, id) + 12 + (n - 1) * 12 + 4);
		if (!zero_array(b, type))
			continue;
		if (!b->flex && !(b->flex = calloc(b->nr, sizeof(*b->flex))))
			return -ENOMEM;
		m = &b->t->members.v[hm_types_get(b->t, b->map[id])->first + n - 1];
		if (m->flags & HM_MEMBER_BITFIELD)
			continue;
		/* only types and dims grow below, so m stays valid */
		if ((err = flexible_variant(b, type, 0, &m->type)))
			return err;
	}
	return 0;
}

/* ---- variables ---- */

static uint64_t section_addr(hm_binary *bin, const char *name)
{
	Elf *elf = bin ? hmi_binary_elf(bin) : NULL;
	size_t n = bin ? hmi_binary_section_count(bin) : 0;

	for (size_t i = 1; elf && i < n; i++) {
		const char *s = hmi_binary_section_name(bin, i);
		GElf_Shdr sh;

		if (s && !strcmp(s, name) && gelf_getshdr(elf_getscn(elf, i), &sh))
			return sh.sh_addr + 1;
	}
	return 0;
}

static int load_variables(struct btf *b)
{
	if (!(b->var_addr = calloc(b->nr, sizeof(*b->var_addr))))
		return -ENOMEM;
	for (uint32_t id = b->start; id < b->nr; id++) {
		const char *sec = NULL;
		uint64_t base;

		if (kind_of(b, id) != BTF_KIND_DATASEC)
			continue;
		if (str_at(b, id, 0, rd32(b, rec(b, id)), &sec) || !sec)
			continue;
		if (!(base = section_addr(b->bin, sec)))
			continue;
		for (unsigned i = 0; i < vlen_of(b, id); i++) {
			const unsigned char *p = rec(b, id) + 12 + i * 12;

			b->var_addr[rd32(b, p)] = base + rd32(b, p + 4);
		}
	}
	for (uint32_t id = b->start; id < b->nr; id++) {
		hm_variable v = { 0 };
		int err;

		if (kind_of(b, id) != BTF_KIND_VAR)
			continue;
		if ((err = name_at(b, id, 0, rd32(b, rec(b, id)), &v.name)))
			return err;
		if (!v.name)
			continue;
		v.type = b->map[word3(b, id)];
		v.external = rd32(b, rec(b, id) + 12) != BTF_VAR_STATIC;
		if (b->var_addr[id]) {
			v.addr = b->var_addr[id] - 1;
			v.has_addr = 1;
		}
		if (hm_vec_push(b->t->vars, v) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* ---- driver ---- */

/* BTF does not say how wide a pointer is; `long` does.  Runs before the
 * names are checked, so it checks quietly. */
static unsigned guess_ptr_size(const struct btf *b)
{
	for (uint32_t id = b->start; id < b->nr; id++) {
		const char *s = str_ptr(b, rd32(b, rec(b, id)));

		if (kind_of(b, id) != BTF_KIND_INT || !s)
			continue;
		if (!strcmp(s, "long int") || !strcmp(s, "long unsigned int") ||
		    !strcmp(s, "long") || !strcmp(s, "unsigned long"))
			return word3(b, id) == 4 ? 4 : 8;
	}
	return 8;
}

static int load(struct btf *b)
{
	int err;

	if ((err = parse_header(b)) || (err = build_index(b)))
		return err;
	if ((err = validate(b)))
		return err;
	if (!b->ptr_size)
		b->ptr_size = guess_ptr_size(b);
	if ((err = assign_ids(b)))
		return err;
	for (uint32_t id = b->start; id < b->nr; id++) {
		if (is_c_type(kind_of(b, id)) && (err = emit_one(b, id)))
			return err;
	}
	b->t->pointer_size = b->ptr_size;
	if ((err = mark_flexible(b)) || (err = infer_alignment(b)))
		return err;
	for (uint32_t id = b->start; id < b->nr; id++) {
		unsigned k = kind_of(b, id);

		if ((k == BTF_KIND_STRUCT || k == BTF_KIND_UNION) &&
		    (err = hm_types_note_struct(b->t, b->map[id])))
			return err;
	}
	if (b->o && b->o->variables && (err = load_variables(b)))
		return err;
	return hm_types_finish(b->t);
}

static void release(struct btf *b)
{
	free(b->off);
	free(b->map);
	free(b->align);
	free(b->state);
	free(b->flex);
	free(b->var_addr);
}

/* A blob and its optional base: the base's types are loaded first, then the
 * split blob's, which continue the base's ids and strings. */
struct blob {
	const void *buf;
	size_t len;
	const char *name;
};

static int load_blobs(const struct blob *base, const struct blob *own, const char *what,
		      hm_binary *bin, hm_types *t, const struct hm_load_opts *o)
{
	struct btf bb = {
		.buf = base ? base->buf : NULL, .len = base ? base->len : 0,
		.name = base ? base->name : NULL, .what = what, .start = 1,
		.t = t, .bin = bin, .o = o, .cacheline = hmi_arch_cacheline_size(NULL),
	};
	struct btf b = {
		.buf = own->buf, .len = own->len, .name = own->name ? own->name : "BTF",
		.what = what, .start = 1, .t = t, .bin = bin, .o = o, .cacheline = hmi_arch_cacheline_size(NULL),
	};
	int err = 0;

	if (bin) {
		b.ptr_size = bb.ptr_size = hmi_binary_is_64bit(bin) ? 8 : 4;
		b.cacheline = bb.cacheline = hm_binary_cacheline_size(bin);
	}
	if (base) {
		err = load(&bb);
		b.base = &bb;
		b.start = bb.nr;
		b.ptr_size = bb.ptr_size;
	}
	if (!err)
		err = load(&b);
	release(&bb);
	release(&b);
	return err;
}

int hm_btf_load_raw(const void *buf, size_t len, const char *name, hm_types *t,
		    const struct hm_load_opts *o)
{
	struct blob own = { buf, len, name };

	return load_blobs(NULL, &own, "BTF", NULL, t, o);
}

int hm_btf_load_split_raw(const void *base_buf, size_t base_len, const char *base_name,
			  const void *buf, size_t len, const char *name, hm_types *t,
			  const struct hm_load_opts *o)
{
	struct blob base = { base_buf, base_len, base_name }, own = { buf, len, name };

	return load_blobs(&base, &own, "BTF", NULL, t, o);
}

int hm_btf_load_elf(hm_binary *bin, hm_types *t, const struct hm_load_opts *o)
{
	struct blob own = { NULL, 0, hmi_binary_path(bin) };

	if (!(own.buf = hmi_binary_section(bin, ".BTF", &own.len)))
		return hm_fail(ENODATA, "%s: no .BTF section", hmi_binary_path(bin));
	return load_blobs(NULL, &own, ".BTF", bin, t, o);
}

/* sysfs files cannot always be mapped and report a size that may be wrong:
 * read them to the end. */
static int slurp(int fd, unsigned char **out, size_t *len)
{
	size_t cap = 1 << 20, n = 0;
	unsigned char *p = malloc(cap);

	if (!p)
		return -ENOMEM;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			unsigned char *q = realloc(p, cap *= 2);

			if (!q) {
				free(p);
				return -ENOMEM;
			}
			p = q;
		}
		r = read(fd, p + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(p);
			return -e;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	*out = p;
	*len = n;
	return 0;
}

struct file_buf {
	void *map;		/* MAP_FAILED unless mapped */
	unsigned char *heap;
	size_t len;
};

static int read_whole(const char *path, struct file_buf *f)
{
	/* O_NONBLOCK: a FIFO (--btf-base FIFO) opens at once, and is refused */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	int err;

	f->map = MAP_FAILED;
	f->heap = NULL;
	f->len = 0;
	if (fd < 0) {
		err = errno;
		return hm_fail(err, "%s: %s", path, strerror(err));
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return hm_fail(EBADMSG, "%s: %snot a regular file", path,
			       S_ISFIFO(st.st_mode) ? "a FIFO, " : "");
	}
	if (st.st_size > 0 && strncmp(path, "/sys/", 5))
		f->map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (f->map != MAP_FAILED) {
		f->len = (size_t)st.st_size;
	} else if ((err = slurp(fd, &f->heap, &f->len))) {
		close(fd);
		return hm_fail(-err, "%s: %s", path, strerror(-err));
	}
	close(fd);
	return 0;
}

static void drop_whole(struct file_buf *f)
{
	if (f->map != MAP_FAILED)
		munmap(f->map, f->len);
	free(f->heap);
}

static const void *whole_data(const struct file_buf *f)
{
	return f->heap ? (const void *)f->heap : f->map;
}

int hm_btf_load_split_path(const char *base_path, const char *path, hm_types *t,
			   const struct hm_load_opts *o)
{
	struct file_buf fb = { MAP_FAILED, NULL, 0 }, fo;
	struct blob base = { NULL, 0, base_path }, own = { NULL, 0, path };
	int err;

	if (base_path && (err = read_whole(base_path, &fb)))
		return err;
	if ((err = read_whole(path, &fo))) {
		drop_whole(&fb);
		return err;
	}
	base.buf = whole_data(&fb);
	base.len = fb.len;
	own.buf = whole_data(&fo);
	own.len = fo.len;
	err = load_blobs(base_path ? &base : NULL, &own, "BTF", NULL, t, o);
	drop_whole(&fb);
	drop_whole(&fo);
	return err;
}

#define SYSFS_BTF "/sys/kernel/btf/"

int hm_btf_load_path(const char *path, hm_types *t, const struct hm_load_opts *o)
{
	/* a module's BTF in sysfs is split BTF on top of the kernel's */
	if (!strncmp(path, SYSFS_BTF, strlen(SYSFS_BTF)) &&
	    strcmp(path + strlen(SYSFS_BTF), "vmlinux"))
		return hm_btf_load_split_path(SYSFS_BTF "vmlinux", path, t, o);
	return hm_btf_load_split_path(NULL, path, t, o);
}

#define SYS_BTF "/sys/kernel/btf/"

int hm_types_load_btf_file(const char *path, const struct hm_load_opts *opts,
			   hm_types **out)
{
	struct hm_load_opts o;
	const char *base;
	hm_types *t;
	int err;

	if (!path || !out || HM_OPTS_TAKE(&o, opts, hm_load_opts))
		return -EINVAL;
	if (!(t = hm_types_new()))
		return -ENOMEM;
	base = o.btf_base;
	if (!base && !strncmp(path, SYS_BTF, sizeof(SYS_BTF) - 1) &&
	    !strchr(path + sizeof(SYS_BTF) - 1, '/') && strcmp(path, SYS_BTF "vmlinux"))
		base = SYS_BTF "vmlinux";	/* a loaded module's BTF is split on the kernel's */
	err = base ? hm_btf_load_split_path(base, path, t, &o) : hm_btf_load_path(path, t, &o);
	if (!err)
		err = hm_types_check_chains(t, path);	/* types-check.c */
	if (err) {
		hm_types_free(t);
		return err;
	}
	*out = t;
	return 0;
}

int hm_types_is_btf_file(const char *path)
{
	unsigned char head[BTF_HDR_MIN];
	FILE *f = hm_fopen_regular(path);
	size_t n;

	if (!f)
		return 0;
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	return n == sizeof(head) && hm_btf_is_btf(head, sizeof(head));
}
