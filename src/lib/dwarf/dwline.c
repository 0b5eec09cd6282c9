/* dwline: DWARF line table headers and line programs, read with every access
 * bounded by its section (see dwline.h for why hitmap has its own). */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/binary.h"
#include "dwarf/dwline.h"
#include "elf/binary-lib.h"
#include "elf/debuginfo-lib.h"

/* DWARF constants used here (dwarf.h names, kept local so that this file
 * depends on nothing but the bytes). */
enum {
	LNS_copy = 1, LNS_advance_pc, LNS_advance_line, LNS_set_file, LNS_set_column,
	LNS_negate_stmt, LNS_set_basic_block, LNS_const_add_pc, LNS_fixed_advance_pc,
	LNE_end_sequence = 1, LNE_set_address, LNE_define_file,
	LNCT_path = 1, LNCT_directory_index,
	FORM_block = 0x09, FORM_data2 = 0x05, FORM_data4 = 0x06, FORM_data8 = 0x07,
	FORM_string = 0x08, FORM_block1 = 0x0a, FORM_data1 = 0x0b, FORM_sdata = 0x0d,
	FORM_strp = 0x0e, FORM_udata = 0x0f, FORM_strx = 0x1a, FORM_data16 = 0x1e,
	FORM_line_strp = 0x1f, FORM_strx1 = 0x25, FORM_strx2, FORM_strx3, FORM_strx4,
	FORM_GNU_str_index = 0x1f02,
};

#define MAX_FORMATS 16	/* entry formats of a DWARF 5 table; real ones use 2-4 */

/* A cursor; `bad` latches once a read would pass the end. */
struct rd {
	const unsigned char *p, *end;
	int be, bad;
};

static uint64_t rd_n(struct rd *r, unsigned n)
{
	uint64_t v = 0;

	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = 1;
		r->p = r->end;
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)r->p[r->be ? n - 1 - i : i] << (8 * i);
	r->p += n;
	return v;
}

static uint64_t rd_uleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (!r->bad) {
		unsigned char b;

		if (r->p >= r->end) {
			r->bad = 1;
			break;
		}
		b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	return 0;
}

static int64_t rd_sleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;
	unsigned char b = 0;

	do {
		if (r->bad || r->p >= r->end) {
			r->bad = 1;
			return 0;
		}
		b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		v |= ~0ULL << shift;
	return (int64_t)v;
}

static void rd_skip(struct rd *r, uint64_t n)
{
	if (r->bad || (uint64_t)(r->end - r->p) < n) {
		r->bad = 1;
		r->p = r->end;
	} else {
		r->p += n;
	}
}

/* An in-place NUL-terminated string, or "" (and bad) when unterminated. */
static const char *rd_str(struct rd *r)
{
	const unsigned char *z;

	if (r->bad || !(z = memchr(r->p, 0, r->end - r->p))) {
		r->bad = 1;
		r->p = r->end;
		return "";
	}
	z++;
	const char *s = (const char *)r->p;
	r->p = z;
	return s;
}

/* The string at `off` of a string section, NULL if outside or unterminated. */
static const char *sec_str(const char *sec, size_t size, uint64_t off)
{
	if (!sec || off >= size || !memchr(sec + off, 0, size - off))
		return NULL;
	return sec + off;
}

void hm_dwl_secs_of(const hm_binary *bin, struct hm_dwl_secs *s)
{
	memset(s, 0, sizeof(*s));
	s->line = hmi_binary_section(bin, ".debug_line", &s->nline);
	s->line_str = hmi_binary_section(bin, ".debug_line_str", &s->nline_str);
	s->str = hmi_binary_section(bin, ".debug_str", &s->nstr);
	s->str_offsets = hmi_binary_section(bin, ".debug_str_offsets", &s->nstr_offsets);
	hmi_debuginfo_drop_packed(bin);
	s->big_endian = hmi_binary_big_endian(bin) == 1;
}

const char *hm_dwl_strx(const struct hm_dwl_secs *s, uint64_t base, unsigned offsize,
			uint64_t idx)
{
	struct rd r = { s->str_offsets, NULL, s->big_endian, 0 };

	if (!s->str_offsets || base > s->nstr_offsets || idx > s->nstr_offsets / offsize)
		return NULL;
	r.end = s->str_offsets + s->nstr_offsets;
	rd_skip(&r, base + idx * offsize);
	uint64_t off = rd_n(&r, offsize);
	return r.bad ? NULL : sec_str(s->str, s->nstr, off);
}

/* DW_FORM_strx* in a line table: only DWARF 5 ones have forms, and only
 * split units use them, whose string offsets start after the table's
 * header (8 bytes, 16 in 64-bit DWARF). */
static const char *strx(const struct hm_dwl_secs *s, unsigned offsize, uint64_t idx)
{
	return hm_dwl_strx(s, offsize == 8 ? 16 : 8, offsize, idx);
}

/* One value of a DWARF 5 entry: a string (returned) or a number (*num). */
static const char *rd_form(const struct hm_dwl_secs *s, struct rd *r, unsigned offsize,
			   uint64_t form, uint64_t *num)
{
	*num = 0;
	switch (form) {
	case FORM_string: return rd_str(r);
	case FORM_line_strp: return sec_str(s->line_str, s->nline_str, rd_n(r, offsize));
	case FORM_strp: return sec_str(s->str, s->nstr, rd_n(r, offsize));
	case FORM_strx:
	case FORM_GNU_str_index: return strx(s, offsize, rd_uleb(r));
	case FORM_strx1: return strx(s, offsize, rd_n(r, 1));
	case FORM_strx2: return strx(s, offsize, rd_n(r, 2));
	case FORM_strx3: return strx(s, offsize, rd_n(r, 3));
	case FORM_strx4: return strx(s, offsize, rd_n(r, 4));
	case FORM_udata: *num = rd_uleb(r); return NULL;
	case FORM_sdata: *num = (uint64_t)rd_sleb(r); return NULL;
	case FORM_data1: *num = rd_n(r, 1); return NULL;
	case FORM_data2: *num = rd_n(r, 2); return NULL;
	case FORM_data4: *num = rd_n(r, 4); return NULL;
	case FORM_data8: *num = rd_n(r, 8); return NULL;
	case FORM_data16: rd_skip(r, 16); return NULL;
	case FORM_block1: rd_skip(r, rd_n(r, 1)); return NULL;
	case FORM_block: rd_skip(r, rd_uleb(r)); return NULL;
	default: r->bad = 1; return NULL;	/* a form a line table cannot hold */
	}
}

/* DWARF 5 entry formats: (content type, form) pairs. */
static int rd_formats(struct rd *r, uint64_t fmt[][2])
{
	unsigned n = rd_n(r, 1);

	if (n > MAX_FORMATS)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		fmt[i][0] = rd_uleb(r);
		fmt[i][1] = rd_uleb(r);
	}
	return r->bad ? -1 : (int)n;
}

/* A DWARF 5 directory or file table into files[] (directories: name only). */
static int tables_v5_one(const struct hm_dwl_secs *s, struct rd *r, unsigned offsize,
			 struct hm_dwl_file **out, size_t *nout, uint64_t **dir_idx)
{
	uint64_t fmt[MAX_FORMATS][2], count, num;
	int nfmt = rd_formats(r, fmt);

	count = rd_uleb(r);
	/* every entry takes at least a byte, or all are empty and there is
	 * nothing worth keeping */
	if (nfmt < 0 || r->bad || (nfmt && count > (uint64_t)(r->end - r->p)))
		return -EBADMSG;
	if (!nfmt)
		count = 0;
	*out = calloc(count ? count : 1, sizeof(**out));
	*dir_idx = dir_idx ? calloc(count ? count : 1, sizeof(**dir_idx)) : NULL;
	if (!*out || !*dir_idx)
		return -ENOMEM;
	for (uint64_t i = 0; i < count && !r->bad; i++)
		for (int k = 0; k < nfmt; k++) {
			const char *str = rd_form(s, r, offsize, fmt[k][1], &num);

			if (fmt[k][0] == LNCT_path)
				(*out)[i].name = str;
			else if (fmt[k][0] == LNCT_directory_index)
				(*dir_idx)[i] = num;
		}
	*nout = count;
	return r->bad ? -EBADMSG : 0;
}

static int tables_v5(const struct hm_dwl_secs *s, struct rd *r, struct hm_dwl_unit *u)
{
	struct hm_dwl_file *dirs = NULL;
	uint64_t *dir_idx = NULL, *unused = NULL;
	size_t ndirs = 0;
	int rc;

	rc = tables_v5_one(s, r, u->offsize, &dirs, &ndirs, &unused);
	if (!rc)
		rc = tables_v5_one(s, r, u->offsize, &u->files, &u->nfiles, &dir_idx);
	for (size_t i = 0; !rc && i < u->nfiles; i++)
		u->files[i].dir = dir_idx[i] < ndirs ? dirs[dir_idx[i]].name : NULL;
	u->comp_dir = ndirs ? dirs[0].name : NULL;
	free(dirs);
	free(dir_idx);
	free(unused);
	return rc;
}

/* DWARF 2-4: include_directories then file_names, each ended by "". */
static int tables_v4(struct rd *r, struct hm_dwl_unit *u)
{
	const char **dirs = NULL;
	size_t ndirs = 0, cap = 0;
	int rc = 0;

	/* directories are rare (tens); files are counted before allocating */
	for (const char *d; !r->bad && *(d = rd_str(r));) {
		if (ndirs == cap) {
			const char **nd = realloc(dirs, (cap = cap ? 2 * cap : 16) * sizeof(*dirs));

			if (!nd) {
				free(dirs);
				return -ENOMEM;
			}
			dirs = nd;
		}
		dirs[ndirs++] = d;
	}
	struct rd scan = *r;
	size_t n = 1;
	while (!scan.bad && *rd_str(&scan)) {
		rd_uleb(&scan), rd_uleb(&scan), rd_uleb(&scan);
		n++;
	}
	if (r->bad || scan.bad) {
		free(dirs);
		return -EBADMSG;
	}
	if (!(u->files = calloc(n, sizeof(*u->files)))) {
		free(dirs);
		return -ENOMEM;
	}
	for (u->nfiles = 1; u->nfiles < n; u->nfiles++) {
		struct hm_dwl_file *f = &u->files[u->nfiles];
		uint64_t d;

		f->name = rd_str(r);
		d = rd_uleb(r);
		rd_uleb(r), rd_uleb(r);		/* mtime, length */
		f->dir = d && d <= ndirs ? dirs[d - 1] : NULL;
	}
	free(dirs);
	return rc;
}

int hm_dwl_unit_read(const struct hm_dwl_secs *s, uint64_t off, struct hm_dwl_unit *u,
		     const char **what)
{
	struct rd r = { NULL, NULL, s->big_endian, 0 };
	uint64_t len, hlen;
	const unsigned char *hend;
	int rc;

	memset(u, 0, sizeof(*u));
	u->big_endian = s->big_endian;
	*what = "header past the end of the section";
	if (!s->line || off >= s->nline)
		return -EBADMSG;
	r.p = s->line + off;
	r.end = s->line + s->nline;
	u->offsize = 4;
	len = rd_n(&r, 4);
	if (len == 0xffffffff) {
		len = rd_n(&r, 8);
		u->offsize = 8;
	}
	if (r.bad || len > (uint64_t)(r.end - r.p))
		return -EBADMSG;
	r.end = r.p + len;
	u->end = r.end;
	u->version = rd_n(&r, 2);
	*what = "unsupported line table version";
	if (u->version < 2 || u->version > 5)
		return -EBADMSG;
	if (u->version >= 5)
		rd_n(&r, 2);	/* address and segment selector sizes */
	hlen = rd_n(&r, u->offsize);
	*what = "header length past the end of the table";
	if (r.bad || hlen > (uint64_t)(r.end - r.p))
		return -EBADMSG;
	hend = r.p + hlen;
	u->min_inst = rd_n(&r, 1);
	u->max_ops = u->version >= 4 ? rd_n(&r, 1) : 1;
	rd_n(&r, 1);		/* default_is_stmt: hitmap keeps every row */
	u->line_base = (int8_t)rd_n(&r, 1);
	u->line_range = rd_n(&r, 1);
	u->opcode_base = rd_n(&r, 1);
	u->std_lens = r.p;
	rd_skip(&r, u->opcode_base ? u->opcode_base - 1 : 0);
	*what = "bad line table header";
	if (r.bad || !u->line_range || !u->opcode_base || r.p > hend)
		return -EBADMSG;
	r.end = hend;
	rc = u->version >= 5 ? tables_v5(s, &r, u) : tables_v4(&r, u);
	if (rc) {
		*what = "bad file name table";
		hm_dwl_unit_free(u);
		return rc;
	}
	u->prog = hend;
	return 0;
}

void hm_dwl_unit_free(struct hm_dwl_unit *u)
{
	free(u->files);
	u->files = NULL;
	u->nfiles = 0;
}

/* Append part to buf (used of len), with one '/' between them. */
static size_t join(char *buf, size_t len, size_t used, const char *part)
{
	size_t sep = used && buf[used - 1] != '/', n = strlen(part), room = len - used - 1;
	char *w = buf + used;

	/* what snprintf(w, len - used, "%s%s", "/", part) writes, without
	 * formatting: every declaration file of every unit is made here */
	if (sep && room) {
		*w++ = '/';
		room--;
	}
	memcpy(w, part, n < room ? n : room);
	w[n < room ? n : room] = 0;
	return sep + n >= len - used ? len - 1 : used + sep + n;
}

/* Drop "." components ("a/./b", "./a"): clang records "./inc/x.h" for
 * what gcc records as "inc/x.h", and both name the same file.  ".." stays:
 * through a symbolic link it is not the parent of the path before it. */
static void drop_dots(char *p)
{
	char *w = p, *r = p;

	while (*r) {
		int start = r == p || r[-1] == '/';

		if (start && r[0] == '.' && r[1] == '/' && r[2]) {
			r += 2;
			continue;
		}
		*w++ = *r++;
	}
	*w = 0;
}

const char *hm_dwl_path(const struct hm_dwl_unit *u, uint64_t idx, const char *comp_dir,
			char *buf, size_t len)
{
	const struct hm_dwl_file *f;
	const char *dir;
	size_t used = 0;

	if (idx >= u->nfiles || !(f = &u->files[idx])->name || !len)
		return NULL;
	buf[0] = 0;
	dir = f->dir;
	if (!comp_dir)
		comp_dir = u->comp_dir;
	/* directory 0 of DWARF 5 is the compilation directory itself */
	if (dir == u->comp_dir)
		dir = NULL;
	if (f->name[0] != '/') {
		if (comp_dir && (!dir || dir[0] != '/'))
			used = join(buf, len, used, comp_dir);
		if (dir)
			used = join(buf, len, used, dir);
	}
	join(buf, len, used, f->name);
	drop_dots(buf);
	return buf;
}

/* The state machine of DWARF 5 section 6.2.2, reduced to what hitmap
 * keeps: address, file, line and the end of sequences.  op_index (VLIW)
 * is folded into the address as max_ops 1 would. */
struct lstate {
	struct hm_dwl_row row;
	int64_t line;
};

static void lstate_reset(struct lstate *st, uint64_t seq)
{
	memset(st, 0, sizeof(*st));
	st->row.file = 1;
	st->row.seq = seq;
	st->line = 1;
}

static int emit(struct lstate *st, int (*row)(void *, const struct hm_dwl_row *), void *arg)
{
	st->row.line = st->line < 0 ? 0 : st->line > UINT32_MAX ? UINT32_MAX : (uint32_t)st->line;
	return row(arg, &st->row);
}

/* An extended opcode; returns a row() result or 0. */
static int extended(const struct hm_dwl_unit *u, struct rd *r, struct lstate *st,
		    int (*row)(void *, const struct hm_dwl_row *), void *arg)
{
	uint64_t len = rd_uleb(r), op;
	const unsigned char *next;
	int rc = 0;

	if (r->bad || !len || len > (uint64_t)(r->end - r->p)) {
		r->bad = 1;
		return 0;
	}
	next = r->p + len;
	op = rd_n(r, 1);
	switch (op) {
	case LNE_end_sequence:
		st->row.end_sequence = 1;
		rc = emit(st, row, arg);
		lstate_reset(st, (uint64_t)(next - u->prog));
		break;
	case LNE_set_address:
		/* the operand fills the rest of the instruction */
		st->row.addr = len - 1 <= 8 ? rd_n(r, len - 1) : 0;
		break;
	default:	/* define_file, set_discriminator, vendor ops */
		(void)u;
		break;
	}
	r->p = next;
	return rc;
}

static void standard(const struct hm_dwl_unit *u, struct rd *r, struct lstate *st, unsigned op)
{
	switch (op) {
	case LNS_advance_pc:
		st->row.addr += rd_uleb(r) * u->min_inst;
		break;
	case LNS_advance_line:
		st->line += rd_sleb(r);
		break;
	case LNS_set_file:
		st->row.file = rd_uleb(r);
		break;
	case LNS_const_add_pc:
		st->row.addr += (uint64_t)((255 - u->opcode_base) / u->line_range) * u->min_inst;
		break;
	case LNS_fixed_advance_pc:
		st->row.addr += rd_n(r, 2);
		break;
	case LNS_negate_stmt:
	case LNS_set_basic_block:
		break;
	default:	/* set_column, prologue/epilogue, isa and unknown ones:
			 * operands counted by the header */
		for (unsigned i = 0; op <= u->opcode_base - 1 && i < u->std_lens[op - 1]; i++)
			rd_uleb(r);
		break;
	}
}

/* Run from byte `at` of the program; one: stop after the first sequence. */
static int run(const struct hm_dwl_unit *u, uint64_t at, int one,
	       int (*row)(void *, const struct hm_dwl_row *), void *arg)
{
	struct rd r = { u->prog, u->end, u->big_endian, 0 };
	struct lstate st;
	int rc = 0;

	if (at > (uint64_t)(u->end - u->prog))
		return -EBADMSG;
	r.p += at;
	lstate_reset(&st, at);
	while (!rc && !r.bad && r.p < r.end && !(one && st.row.seq != at)) {
		unsigned op = *r.p++;

		if (op >= u->opcode_base) {
			unsigned adj = op - u->opcode_base;

			st.row.addr += (uint64_t)(adj / u->line_range) * u->min_inst;
			st.line += u->line_base + (int)(adj % u->line_range);
			rc = emit(&st, row, arg);
		} else if (op == 0) {
			rc = extended(u, &r, &st, row, arg);
		} else if (op == LNS_copy) {
			rc = emit(&st, row, arg);
		} else {
			standard(u, &r, &st, op);
		}
	}
	return rc ? rc : r.bad ? -EBADMSG : 0;
}

int hm_dwl_rows(const struct hm_dwl_unit *u, int (*row)(void *arg, const struct hm_dwl_row *r),
		void *arg)
{
	return run(u, 0, 0, row, arg);
}

int hm_dwl_seq_rows(const struct hm_dwl_unit *u, uint64_t seq,
		    int (*row)(void *arg, const struct hm_dwl_row *r), void *arg)
{
	return run(u, seq, 1, row, arg);
}
