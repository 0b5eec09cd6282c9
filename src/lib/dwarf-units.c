/* dwarf-units: debug info spread over more than one file — dwz partial units
 * in a supplementary (.gnu_debugaltlink) file, and split DWARF (.dwo). */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dwarf-int.h"
#include "diag.h"

void dw_ctx_save(const struct loader *ld, struct unit_ctx *c)
{
	c->dbg = ld->dbg;
	c->cu_die = ld->cu_die;
	c->cu_start = ld->cu_start;
	c->cu_end = ld->cu_end;
	c->cu_die_off = ld->cu_die_off;
	c->cu_version = ld->cu_version;
	c->in_alt = ld->in_alt;
}

void dw_ctx_restore(struct loader *ld, const struct unit_ctx *c)
{
	ld->dbg = c->dbg;
	ld->cu_die = c->cu_die;
	ld->cu_start = c->cu_start;
	ld->cu_end = c->cu_end;
	ld->cu_die_off = c->cu_die_off;
	ld->cu_version = c->cu_version;
	ld->in_alt = c->in_alt;
}

void dw_enter_alt(struct loader *ld)
{
	ld->dbg = ld->alt_dbg;
	ld->in_alt = 1;
	/* no unit: decl files are looked up through each DIE's own unit */
	ld->cu_die = NULL;
	ld->cu_start = ld->cu_end = ld->cu_die_off = 0;
}

/* dwz: a unit imports a partial unit.  Partial units of this file are walked
 * as units of their own; those of the alt file are walked here, once. */
void dw_walk_imported(struct loader *ld, Dwarf_Die die, unsigned level)
{
	struct die_attrs d;
	struct unit_ctx c;
	Dwarf_Die pu = NULL;
	Dwarf_Error e = NULL;
	Dwarf_Off start = 0, len = 0;
	Dwarf_Half ver = 0, osize = 0;
	uint64_t off;

	if (dw_read_attrs(ld, die, &d, 0) || !d.has_import || !(d.import_off & ALT_BIT) ||
	    !ld->alt_dbg || level > 16)
		return;
	for (size_t i = 0; i < ld->walked_alt.n; i++)
		if (ld->walked_alt.v[i] == d.import_off)
			return;
	if (hm_vec_push(ld->walked_alt, d.import_off) < 0) {
		dw_set_err(ld, -ENOMEM);
		return;
	}
	dw_ctx_save(ld, &c);
	dw_enter_alt(ld);
	off = d.import_off & ~ALT_BIT;
	if (dwarf_offdie_b(ld->dbg, off, 1, &pu, &e) != DW_DLV_OK ||
	    dwarf_die_CU_offset_range(pu, &start, &len, &e) != DW_DLV_OK ||
	    dwarf_get_version_of_die(pu, &ver, &osize) != DW_DLV_OK) {
		dw_bad(ld, e, "imported unit");
	} else {
		ld->cu_die = pu;
		ld->cu_start = start;
		ld->cu_end = start + len;
		ld->cu_die_off = off;
		ld->cu_version = ver;
		dw_walk_children(ld, pu, level + 1);
		for (unsigned i = 0; i < NR_FTABS; i++)
			if (ld->ftabs[i].dbg == ld->dbg && ld->ftabs[i].cu_die_off == off)
				dw_ftab_clear(&ld->ftabs[i]);
	}
	if (pu)
		dwarf_dealloc_die(pu);
	dw_ctx_restore(ld, &c);
}

/* DWARF 4 split units (GNU extension) are compile units with a dwo name. */
int dw_has_dwo_name(struct loader *ld, Dwarf_Die cu)
{
	Dwarf_Bool has = 0;
	Dwarf_Error e = NULL;

	if (dwarf_hasattr(cu, DW_AT_GNU_dwo_name, &has, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(ld->dbg, e);
		return 0;
	}
	return has;
}

/* Split DWARF: a skeleton unit names the .dwo file that holds its DIEs. */
void dw_walk_dwo(struct loader *ld, Dwarf_Die skel)
{
	struct die_attrs d;
	struct unit_ctx c;
	char cand[4096];
	const char *file = NULL, *slash;
	hm_binary *dbin;
	struct hm_dwarf_obj *dobj = NULL;
	Dwarf_Debug ddbg = NULL;
	Dwarf_Die cu = NULL;
	Dwarf_Error e = NULL;
	Dwarf_Half version = 0, addr_size = 0, unit_type = 0;
	Dwarf_Off off = 0, len = 0;
	int rc;

	if (dw_read_attrs(ld, skel, &d, 0) || !d.dwo_name)
		return;
	if (d.dwo_name[0] == '/') {
		file = d.dwo_name;
	} else {
		if (d.comp_dir && snprintf(cand, sizeof(cand), "%s/%s", d.comp_dir, d.dwo_name) <
		    (int)sizeof(cand) && !access(cand, R_OK))
			file = cand;
		if (!file && (slash = strrchr(ld->path, '/')) &&
		    snprintf(cand, sizeof(cand), "%.*s/%s", (int)(slash - ld->path), ld->path,
			     d.dwo_name) < (int)sizeof(cand) && !access(cand, R_OK))
			file = cand;
		if (!file && !access(d.dwo_name, R_OK))
			file = d.dwo_name;
	}
	if (!file || access(file, R_OK)) {
		hm_diag(HM_DIAG_ERROR, "%s: split DWARF file %s not found (comp dir %s)", ld->path,
			d.dwo_name, d.comp_dir ? d.comp_dir : "unknown");
		dw_set_err(ld, -ENOENT);
		return;
	}
	dbin = hm_binary_open(file);
	if (!dbin) {
		dw_set_err(ld, errno == ENOMEM ? -ENOMEM : -EBADMSG);
		return;
	}
	rc = hm_dwarf_open(dbin, &ddbg, &dobj);
	if (rc) {
		if (rc == -ENODATA)
			hm_diag(HM_DIAG_ERROR, "%s: no DWARF in split DWARF file", file);
		dw_set_err(ld, rc == -ENODATA ? -EBADMSG : rc);
		hm_binary_close(dbin);
		return;
	}
	/* Not tied to the executable (dwarf_set_tied_dbg): libdwarf 20210528
	 * then applies the skeleton's DW_AT_str_offsets_base to the .dwo's own
	 * string offsets, which garbles clang's names.  Addresses (DW_OP_addrx)
	 * are looked up in the executable's .debug_addr here instead. */
	dw_ctx_save(ld, &c);
	ld->dbg = ddbg;
	/* DWARF 5 points past the .debug_addr header; GNU split DWARF 4 has
	 * no header */
	ld->dwo_addr_base = d.addr_base;
	ld->dwo_comp_dir = d.comp_dir;
	ld->dwo_bin = dbin;
	ld->dwo_skel_off = c.cu_die_off;
	ld->dwo_skel_version = c.cu_version;
	ld->in_dwo = 1;
	rc = hm_dwarf_next_cu(ddbg, &version, &addr_size, &unit_type, &cu, &e);
	if (rc == DW_DLV_OK && dwarf_die_CU_offset_range(cu, &off, &len, &e) == DW_DLV_OK) {
		ld->cu_die = cu;
		ld->cu_start = off;
		ld->cu_end = off + len;
		ld->cu_version = version;
		if (dwarf_dieoffset(cu, &off, &e) == DW_DLV_OK) {
			ld->cu_die_off = off;
			/* .dwo offsets start again from 0: a generation of their own */
			dw_map_new_cu(ld);
			dw_walk_children(ld, cu, 0);
			dw_map_new_cu(ld);
		}
	}
	if (e)
		dw_bad(ld, e, "split unit");
	if (cu)
		dwarf_dealloc_die(cu);
	dw_forget_dbg(ld, ddbg);
	dw_ctx_restore(ld, &c);
	ld->dwo_addr_base = 0;
	ld->dwo_comp_dir = NULL;
	ld->dwo_bin = NULL;
	ld->in_dwo = 0;
	hm_dwarf_close(ddbg, dobj);
	hm_binary_close(dbin);
}

/* ---- .debug_line.dwo file tables ---- */

struct rd {
	const unsigned char *p, *end;
	int bad;
};

static uint64_t rd_n(struct rd *r, unsigned n)
{
	uint64_t v = 0;

	if ((size_t)(r->end - r->p) < n) {
		r->bad = 1;
		r->p = r->end;
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

static uint64_t rd_uleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;

	for (;;) {
		unsigned char c;

		if (r->p >= r->end) {
			r->bad = 1;
			return 0;
		}
		c = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
		if (!(c & 0x80))
			return v;
	}
}

static const char *rd_str(struct rd *r)
{
	const char *s = (const char *)r->p;
	size_t n = strnlen(s, r->end - r->p);

	if (n == (size_t)(r->end - r->p)) {
		r->bad = 1;
		r->p = r->end;
		return "";
	}
	r->p += n + 1;
	return s;
}

/* A string of the .dwo by DW_FORM_strx*: .debug_str_offsets.dwo (after its
 * 8-byte DWARF 5 header) into .debug_str.dwo. */
static const char *dwo_strx(struct loader *ld, uint64_t idx)
{
	size_t nofs, nstr;
	const unsigned char *ofs = hm_binary_section(ld->dwo_bin, ".debug_str_offsets.dwo", &nofs);
	const char *str = hm_binary_section(ld->dwo_bin, ".debug_str.dwo", &nstr);
	uint64_t at = 8 + idx * 4, o = 0;

	if (!ofs || !str || idx > nofs || at + 4 > nofs)
		return NULL;
	for (int i = 0; i < 4; i++)
		o |= (uint64_t)ofs[at + i] << (8 * i);
	if (o >= nstr || !memchr(str + o, 0, nstr - o))
		return NULL;
	return str + o;
}

/* One attribute value of a DWARF 5 entry format; a string or NULL. */
static const char *rd_form(struct loader *ld, struct rd *r, uint64_t form, uint64_t *num)
{
	*num = 0;
	switch (form) {
	case DW_FORM_string: return rd_str(r);
	case DW_FORM_strx: return dwo_strx(ld, rd_uleb(r));
	case DW_FORM_strx1: return dwo_strx(ld, rd_n(r, 1));
	case DW_FORM_strx2: return dwo_strx(ld, rd_n(r, 2));
	case DW_FORM_strx3: return dwo_strx(ld, rd_n(r, 3));
	case DW_FORM_strx4: return dwo_strx(ld, rd_n(r, 4));
	case DW_FORM_udata: *num = rd_uleb(r); return NULL;
	case DW_FORM_data1: *num = rd_n(r, 1); return NULL;
	case DW_FORM_data2: *num = rd_n(r, 2); return NULL;
	case DW_FORM_data4: *num = rd_n(r, 4); return NULL;
	case DW_FORM_data8: *num = rd_n(r, 8); return NULL;
	case DW_FORM_data16: rd_n(r, 8); rd_n(r, 8); return NULL;
	case DW_FORM_block: r->p += rd_uleb(r); return NULL;
	default: r->bad = 1; return NULL;	/* strp/line_strp have no .dwo section */
	}
}

static const char *join_path(struct loader *ld, const char *dir, const char *name)
{
	char buf[4096];
	const char *cd = ld->dwo_comp_dir;

	if (!name)
		return NULL;
	if (name[0] == '/' || !dir || !*dir)
		snprintf(buf, sizeof(buf), "%s%s%s", name[0] == '/' || !cd ? "" : cd,
			 name[0] == '/' || !cd ? "" : "/", name);
	else if (dir[0] == '/' || !cd)
		snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	else
		snprintf(buf, sizeof(buf), "%s/%s/%s", cd, dir, name);
	return hm_types_intern(ld->t, buf);
}

/* The entry formats of DWARF 5 directory and file tables. */
static int rd_formats(struct rd *r, uint64_t fmt[][2], unsigned max)
{
	unsigned n = rd_n(r, 1);

	if (n > max)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		fmt[i][0] = rd_uleb(r);
		fmt[i][1] = rd_uleb(r);
	}
	return n;
}

static int dwo_files_v5(struct loader *ld, struct rd *r, struct ftab *f)
{
	uint64_t fmt[16][2], count, num;
	const char **dirs;
	int nfmt;

	if ((nfmt = rd_formats(r, fmt, 16)) < 0)
		return -1;
	count = rd_uleb(r);
	if (count > (uint64_t)(r->end - r->p) || !(dirs = calloc(count + 1, sizeof(*dirs))))
		return -1;
	for (uint64_t i = 0; i < count && !r->bad; i++)
		for (int k = 0; k < nfmt; k++) {
			const char *s = rd_form(ld, r, fmt[k][1], &num);

			if (fmt[k][0] == DW_LNCT_path)
				dirs[i] = s;
		}
	if ((nfmt = rd_formats(r, fmt, 16)) < 0 || r->bad) {
		free(dirs);
		return -1;
	}
	f->n = rd_uleb(r);
	if (f->n > (uint64_t)(r->end - r->p) || !(f->files = calloc(f->n + 1, sizeof(*f->files)))) {
		f->n = 0;
		free(dirs);
		return -1;
	}
	for (uint64_t i = 0; i < f->n && !r->bad; i++) {
		const char *name = NULL;
		uint64_t dir = 0;

		for (int k = 0; k < nfmt; k++) {
			const char *s = rd_form(ld, r, fmt[k][1], &num);

			if (fmt[k][0] == DW_LNCT_path)
				name = s;
			else if (fmt[k][0] == DW_LNCT_directory_index)
				dir = num;
		}
		f->files[i] = join_path(ld, dir < count ? dirs[dir] : NULL, name);
	}
	free(dirs);
	return r->bad ? -1 : 0;
}

static int dwo_files_v4(struct loader *ld, struct rd *r, struct ftab *f)
{
	const char *dirs[256];
	size_t ndirs = 0, cap = 16;
	const char *s;

	while (*(s = rd_str(r)) && !r->bad)
		if (ndirs < 256)
			dirs[ndirs++] = s;
	if (!(f->files = calloc(cap, sizeof(*f->files))))
		return -1;
	while (!r->bad && *(s = rd_str(r))) {
		uint64_t dir = rd_uleb(r);

		rd_uleb(r);	/* mtime */
		rd_uleb(r);	/* length */
		if (f->n + 1 >= cap && hm_grow((void **)&f->files, &cap, f->n + 2, sizeof(*f->files)))
			return -1;
		f->files[f->n++] = join_path(ld, dir && dir <= ndirs ? dirs[dir - 1] : NULL, s);
	}
	return r->bad ? -1 : 0;
}

/* clang writes no .debug_line.dwo: the skeleton's line table in the
 * executable names the files. */
static void skeleton_files(struct loader *ld, struct ftab *f)
{
	Dwarf_Die sk = NULL;
	Dwarf_Error e = NULL;
	char **raw = NULL;
	Dwarf_Signed n = 0;

	if (dwarf_offdie_b(ld->main_dbg, ld->dwo_skel_off, 1, &sk, &e) != DW_DLV_OK ||
	    dwarf_srcfiles(sk, &raw, &n, &e) != DW_DLV_OK) {
		hm_dwarf_free_error(ld->main_dbg, e);
		n = 0;
		raw = NULL;
	}
	free(f->files);
	f->files = calloc(n ? n : 1, sizeof(*f->files));
	f->n = f->files ? n : 0;
	f->version = ld->dwo_skel_version;
	for (Dwarf_Signed i = 0; i < n; i++) {
		if (f->files)
			f->files[i] = hm_types_intern(ld->t, raw[i]);
		dwarf_dealloc(ld->main_dbg, raw[i], DW_DLA_STRING);
	}
	if (raw)
		dwarf_dealloc(ld->main_dbg, raw, DW_DLA_LIST);
	if (sk)
		dwarf_dealloc_die(sk);
}

void dw_dwo_files(struct loader *ld, struct ftab *f)
{
	size_t size;
	const unsigned char *p = hm_binary_section(ld->dwo_bin, ".debug_line.dwo", &size);
	struct rd r = { p, p + size, 0 };
	unsigned version, opcode_base, offsize = 4;
	uint64_t len;

	if (!p) {
		skeleton_files(ld, f);
		return;
	}
	free(f->files);
	f->files = NULL;
	f->n = 0;
	len = rd_n(&r, 4);
	if (len == 0xffffffff) {
		len = rd_n(&r, 8);
		offsize = 8;
	}
	if (len < (uint64_t)(r.end - r.p))
		r.end = r.p + len;
	version = rd_n(&r, 2);
	if (version >= 5)
		rd_n(&r, 2);	/* address and segment selector sizes */
	rd_n(&r, offsize);	/* header_length */
	rd_n(&r, version >= 4 ? 5 : 4);	/* min_inst_length ... line_range */
	opcode_base = rd_n(&r, 1);
	r.p += opcode_base > 0 && (size_t)(r.end - r.p) >= opcode_base - 1u ? opcode_base - 1 : 0;
	f->version = version;
	if ((version >= 5 ? dwo_files_v5(ld, &r, f) : dwo_files_v4(ld, &r, f)) < 0) {
		/* a bad table: no files rather than wrong ones */
		for (size_t i = 0; i < f->n && f->files; i++)
			f->files[i] = NULL;
	}
	if (!f->files)
		f->n = 0;
}
