/* libdwarf API differences and the object access interface over hm_binary. */
#include "config.h"
#include <errno.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dwarf/dwarf-compat.h"
#include "base/diag.h"
#include "dwarf/dwarf-x3.h"
#include "elf/elf-lock.h"
#include "elf/reloc.h"
#include "elf/binary-lib.h"
#include "elf/debuginfo-lib.h"

struct hm_dwarf_obj {
	hm_binary *bin;
	Elf *elf;
	int rel;		/* ET_REL: apply relocations */
	void **copies;		/* relocated or rewritten copies, by index */
	size_t *sizes;		/* a copy's size when it differs, by index */
	int widened;		/* .debug_abbrev was rewritten (dwarf-x3.h) */
	size_t nsec;
	unsigned flags;		/* HM_DWARF_* */
#ifdef DW_LIBDWARF_VERSION_MAJOR
	Dwarf_Obj_Access_Interface_a iface;
#else
	Dwarf_Obj_Access_Interface iface;
#endif
};

static int is_debug_name(const char *n)
{
	return n && (!strncmp(n, ".debug_", 7) || !strncmp(n, ".zdebug_", 8) ||
		     !strcmp(n, ".gnu_debugaltlink") || !strncmp(n, ".gnu.", 5));
}

static int get_data(struct hm_dwarf_obj *o, size_t idx, Dwarf_Small **out, int *error)
{
	size_t size;
	const void *p = hmi_binary_section_at(o->bin, idx, &size);
	Elf_Scn *scn = elf_getscn(o->elf, idx);
	GElf_Shdr sh;

	if (!p) {
		*error = DW_DLE_MDE;
		return DW_DLV_ERROR;
	}
	if (scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_COMPRESSED))
		hmi_debuginfo_drop_packed(o->bin);
	if (o->copies[idx]) {
		*out = o->copies[idx];
		return DW_DLV_OK;
	}
	if (o->rel && is_debug_name(hmi_binary_section_name(o->bin, idx))) {
		if (!o->copies[idx]) {
			void *c = malloc(size ? size : 1);

			if (!c) {
				*error = DW_DLE_ALLOC_FAIL;
				return DW_DLV_ERROR;
			}
			memcpy(c, p, size);
			/* libdwarf calls this from every worker of the
			 * parallel walk; libelf's first read of a
			 * relocation section is not thread-safe */
			hm_binary_elf_lock(o->bin);
			hm_binary_relocate(o->bin, idx, c, size, 0);
			hm_binary_elf_unlock(o->bin);
			o->copies[idx] = c;
		}
		p = o->copies[idx];
	}
	*out = (Dwarf_Small *)p;
	return DW_DLV_OK;
}

/* The debug sections the type loader reads.  libdwarf is shown no others:
 * it parses some eagerly (20210528 loads .debug_rnglists with every unit and
 * double-frees on a corrupt one), and types never need ranges, locations
 * lists, frames or macros.  The scope index (HM_DWARF_LOCATIONS) needs
 * location lists too; it reads ranges itself. */
static int wanted_section(const struct hm_dwarf_obj *o, const char *n)
{
	static const char *const keep[] = {
		"info", "abbrev", "str", "line", "line_str", "str_offsets", "addr",
		"types", "sup",
	};
	const char *base;
	size_t len;

	if (!strncmp(n, ".debug_", 7))
		base = n + 7;
	else if (!strncmp(n, ".zdebug_", 8))
		base = n + 8;
	else
		return 1;	/* not DWARF: symbols, .gnu_debugaltlink, ... */
	len = strlen(base);
	if (len > 4 && !strcmp(base + len - 4, ".dwo"))
		len -= 4;
	if ((o->flags & HM_DWARF_LOCATIONS) &&
	    ((len == 3 && !strncmp(base, "loc", 3)) || (len == 8 && !strncmp(base, "loclists", 8))))
		return 1;
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (strlen(keep[i]) == len && !strncmp(base, keep[i], len))
			return 1;
	return 0;
}

static int fill_info(struct hm_dwarf_obj *o, size_t idx, GElf_Shdr *sh, const char **name,
		     uint64_t *size)
{
	Elf_Scn *scn = elf_getscn(o->elf, idx);

	if (!scn || !gelf_getshdr(scn, sh))
		return DW_DLV_NO_ENTRY;
	*name = idx ? hmi_binary_section_name(o->bin, idx) : "";
	if (!*name || !wanted_section(o, *name))
		*name = "";
	*size = sh->sh_type == SHT_NOBITS ? 0 : sh->sh_size;
	if (o->sizes[idx]) {
		*size = o->sizes[idx];
	} else if ((sh->sh_flags & SHF_COMPRESSED) && is_debug_name(*name)) {
		/* the header's size: a section libdwarf never loads is never
		 * inflated */
		*size = hmi_binary_section_size_at(o->bin, idx);
	}
	return DW_DLV_OK;
}

static Dwarf_Small obj_length_size(void *obj)
{
	struct hm_dwarf_obj *o = obj;

	return gelf_getclass(o->elf) == ELFCLASS64 ? 8 : 4;
}

#ifdef DW_LIBDWARF_VERSION_MAJOR
static int obj_section_info(void *obj, Dwarf_Unsigned idx, Dwarf_Obj_Access_Section_a *ret,
			    int *error)
{
	struct hm_dwarf_obj *o = obj;
	GElf_Shdr sh;
	uint64_t size;
	const char *name;

	(void)error;
	if (fill_info(o, idx, &sh, &name, &size) != DW_DLV_OK)
		return DW_DLV_NO_ENTRY;
	memset(ret, 0, sizeof(*ret));
	ret->as_name = name;
	ret->as_type = sh.sh_type;
	ret->as_flags = sh.sh_flags & ~(uint64_t)SHF_COMPRESSED;
	ret->as_addr = sh.sh_addr;
	ret->as_offset = sh.sh_offset;
	ret->as_size = size;
	ret->as_link = sh.sh_link;
	ret->as_info = sh.sh_info;
	ret->as_addralign = sh.sh_addralign;
	ret->as_entrysize = sh.sh_entsize;
	return DW_DLV_OK;
}

static int obj_load(void *obj, Dwarf_Unsigned idx, Dwarf_Small **out, int *error)
{
	return get_data(obj, idx, out, error);
}

/* libdwarf 0.x checks section extents against the file size: the end of
 * the last section is what it may rely on. */
static Dwarf_Unsigned obj_filesize(void *obj)
{
	struct hm_dwarf_obj *o = obj;
	Elf_Scn *scn = NULL;
	Dwarf_Unsigned end = 0;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(o->elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS &&
		    sh.sh_offset + sh.sh_size > end)
			end = sh.sh_offset + sh.sh_size;
	return end;
}
#else
static int obj_section_info(void *obj, Dwarf_Half idx, Dwarf_Obj_Access_Section *ret,
			    int *error)
{
	struct hm_dwarf_obj *o = obj;
	GElf_Shdr sh;
	uint64_t size;
	const char *name;

	(void)error;
	if (fill_info(o, idx, &sh, &name, &size) != DW_DLV_OK)
		return DW_DLV_NO_ENTRY;
	memset(ret, 0, sizeof(*ret));
	ret->addr = sh.sh_addr;
	ret->type = sh.sh_type;
	ret->size = size;
	ret->name = name;
	ret->link = sh.sh_link;
	ret->info = sh.sh_info;
	ret->entrysize = sh.sh_entsize;
	return DW_DLV_OK;
}

static int obj_load(void *obj, Dwarf_Half idx, Dwarf_Small **out, int *error)
{
	return get_data(obj, idx, out, error);
}
#endif

#ifdef DW_LIBDWARF_VERSION_MAJOR
/* libdwarf 0.x has no Dwarf_Endianness: it compares with DW_END_big and
 * DW_END_little (dwarf.h) */
static Dwarf_Small obj_byte_order(void *obj)
{
	struct hm_dwarf_obj *o = obj;

	return hmi_binary_big_endian(o->bin) ? DW_END_big : DW_END_little;
}
#else
static Dwarf_Endianness obj_byte_order(void *obj)
{
	struct hm_dwarf_obj *o = obj;

	return hmi_binary_big_endian(o->bin) ? DW_OBJECT_MSB : DW_OBJECT_LSB;
}
#endif

static Dwarf_Small obj_pointer_size(void *obj)
{
	return obj_length_size(obj);
}

static Dwarf_Unsigned obj_section_count(void *obj)
{
	struct hm_dwarf_obj *o = obj;

	return o->nsec;
}

#ifdef DW_LIBDWARF_VERSION_MAJOR
static const Dwarf_Obj_Access_Methods_a methods = {
	.om_get_section_info = obj_section_info,
	.om_get_byte_order = obj_byte_order,
	.om_get_length_size = obj_length_size,
	.om_get_pointer_size = obj_pointer_size,
	.om_get_filesize = obj_filesize,
	.om_get_section_count = obj_section_count,
	.om_load_section = obj_load,
	.om_relocate_a_section = NULL,
};
#else
static const Dwarf_Obj_Access_Methods methods = {
	.get_section_info = obj_section_info,
	.get_byte_order = obj_byte_order,
	.get_length_size = obj_length_size,
	.get_pointer_size = obj_pointer_size,
	.get_section_count = obj_section_count,
	.load_section = obj_load,
	.relocate_a_section = NULL,
};
#endif

void hm_dwarf_free_error(Dwarf_Debug dbg, Dwarf_Error err)
{
	if (err)
		dwarf_dealloc(dbg, err, DW_DLA_ERROR);
}

#ifndef DW_LIBDWARF_VERSION_MAJOR
/* The index of the first section named base or base.dwo, 0 if none. */
static size_t section_index(struct hm_dwarf_obj *o, const char *base)
{
	size_t len = strlen(base);

	for (size_t i = 1; i < o->nsec; i++) {
		const char *n = hmi_binary_section_name(o->bin, i);

		if (n && !strncmp(n, base, len) && (!n[len] || !strcmp(n + len, ".dwo")))
			return i;
	}
	return 0;
}

/* A writable copy of section idx (relocated if the file is ET_REL). */
static unsigned char *writable(struct hm_dwarf_obj *o, size_t idx, size_t *size)
{
	Dwarf_Small *p;
	int err = 0;

	if (!hmi_binary_section_at(o->bin, idx, size) || get_data(o, idx, &p, &err) != DW_DLV_OK)
		return NULL;
	if (!o->copies[idx]) {
		if (!(o->copies[idx] = malloc(*size ? *size : 1)))
			return NULL;
		memcpy(o->copies[idx], p, *size);
	}
	return o->copies[idx];
}

/* See dwarf-x3.h: libdwarf 20210528 mis-sizes the three-byte index forms. */
static int widen_x3(struct hm_dwarf_obj *o)
{
	size_t ai = section_index(o, ".debug_abbrev"), n, isz;
	const unsigned char *ab = ai ? hmi_binary_section_at(o->bin, ai, &n) : NULL;
	const char *units[] = { ".debug_info", ".debug_types" };
	struct hm_x3_abbrev x;
	int big = hmi_binary_big_endian(o->bin) == 1;

	if (!ab || !hm_x3_count(ab, n))
		return 0;
	if (hm_x3_rewrite(ab, n, &x))
		return -ENOMEM;
	for (size_t k = 0; k < 2; k++) {
		size_t ui = section_index(o, units[k]);
		unsigned char *u = ui ? writable(o, ui, &isz) : NULL;

		if (ui && !u) {
			hm_x3_abbrev_free(&x);
			return -ENOMEM;
		}
		if (u)
			hm_x3_patch_units(u, isz, big, &x);
	}
	free(o->copies[ai]);
	o->copies[ai] = x.data;
	o->sizes[ai] = x.size;
	o->widened = 1;
	free(x.map);
	return 0;
}
#endif

int hm_dwarf_open(hm_binary *bin, Dwarf_Debug *dbg, struct hm_dwarf_obj **out)
{
	return hm_dwarf_open_flags(bin, 0, dbg, out);
}

int hm_dwarf_open_flags(hm_binary *bin, unsigned flags, Dwarf_Debug *dbg,
			struct hm_dwarf_obj **out)
{
	struct hm_dwarf_obj *o;
	int rc, found = 0;

	for (size_t i = 1; i < hmi_binary_section_count(bin); i++) {
		const char *n = hmi_binary_section_name(bin, i);
		size_t size;

		if (!n || (strcmp(n, ".debug_info") && strcmp(n, ".zdebug_info") &&
			   strcmp(n, ".debug_info.dwo")))
			continue;
		if (!hmi_binary_section_in_file(bin, i))
			return hm_fail(EBADMSG, "%s: truncated file (section %s extends past "
				       "its end)", hmi_binary_path(bin), n);
		if (!hmi_binary_section_at(bin, i, &size))
			return hm_fail(EBADMSG, "%s: cannot decompress section %s",
				       hmi_binary_path(bin), n);
		found = 1;
	}
	if (!found)
		return -ENODATA;
	o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	o->bin = bin;
	o->flags = flags;
	o->elf = hmi_binary_elf(bin);
	o->nsec = hmi_binary_section_count(bin);
	o->rel = hmi_binary_elf_type(bin) == ET_REL;
	o->copies = calloc(o->nsec + 1, sizeof(*o->copies));
	o->sizes = calloc(o->nsec + 1, sizeof(*o->sizes));
	if (!o->copies || !o->sizes) {
		hm_dwarf_close(NULL, o);
		return -ENOMEM;
	}
#ifndef DW_LIBDWARF_VERSION_MAJOR
	/* the look is a walk of every abbreviation (tens of ms in a kernel) */
	if (!(flags & HM_DWARF_NOT_WIDENED) && widen_x3(o)) {
		hm_dwarf_close(NULL, o);
		return -ENOMEM;
	}
#endif
#ifdef DW_LIBDWARF_VERSION_MAJOR
	o->iface.ai_object = o;
	o->iface.ai_methods = &methods;
#else
	o->iface.object = o;
	o->iface.methods = &methods;
#endif
	rc = hm_dwarf_reopen(o, dbg);
	if (rc) {
		hm_dwarf_close(NULL, o);
		return rc;
	}
	*out = o;
	return 0;
}

int hm_dwarf_reopen(struct hm_dwarf_obj *o, Dwarf_Debug *dbg)
{
	Dwarf_Error err = NULL;
	int rc;

	/* Bookkeeping of every allocation for dwarf_finish costs time and memory;
	 * the loader frees what it gets. */
	dwarf_set_de_alloc_flag(0);
	rc = dwarf_object_init_b(&o->iface, NULL, NULL, DW_GROUPNUMBER_ANY, dbg, &err);
	if (rc == DW_DLV_OK)
		return 0;
	if (rc == DW_DLV_ERROR) {
		hm_diag(HM_DIAG_ERROR, "%s: corrupt DWARF: %s", hmi_binary_path(o->bin),
			dwarf_errmsg(err));
		/* no Dwarf_Debug yet: libdwarf frees this kind with dbg NULL */
		dwarf_dealloc(NULL, err, DW_DLA_ERROR);
	}
	return rc == DW_DLV_NO_ENTRY ? -ENODATA : -EBADMSG;
}

const void *hm_dwarf_obj_section(struct hm_dwarf_obj *o, const char *name, size_t *size)
{
	for (size_t i = 1; i < o->nsec; i++) {
		const char *n = hmi_binary_section_name(o->bin, i);
		Dwarf_Small *p;
		int err = 0;

		if (!n || strcmp(n, name))
			continue;
		if (!hmi_binary_section_at(o->bin, i, size) || get_data(o, i, &p, &err) != DW_DLV_OK)
			return NULL;
		if (o->sizes[i])
			*size = o->sizes[i];
		return p;
	}
	return NULL;
}

int hm_dwarf_widened(const struct hm_dwarf_obj *o)
{
	return o && o->widened;
}

void hm_dwarf_close(Dwarf_Debug dbg, struct hm_dwarf_obj *o)
{
	if (dbg) {
#ifdef DW_LIBDWARF_VERSION_MAJOR
		/* not dwarf_finish(): that reads the first byte of our object as
		 * the tag of one of libdwarf's own readers and may "destruct" it */
		dwarf_object_finish(dbg);
#else
		/* never a NULL error pointer: libdwarf would abort on an error */
		Dwarf_Error err = NULL;

		if (dwarf_object_finish(dbg, &err) == DW_DLV_ERROR)
			dwarf_dealloc(NULL, err, DW_DLA_ERROR);
#endif
	}
	if (!o)
		return;
	for (size_t i = 0; o->copies && i < o->nsec; i++)
		free(o->copies[i]);
	free(o->copies);
	free(o->sizes);
	free(o);
}

int hm_dwarf_next_cu(Dwarf_Debug dbg, Dwarf_Half *version, Dwarf_Half *addr_size,
		     Dwarf_Half *unit_type, Dwarf_Die *cu_die, Dwarf_Error *err)
{
	Dwarf_Unsigned len, next;
	Dwarf_Off abbrev, typeoff;
	Dwarf_Half lsize, esize;
	Dwarf_Sig8 sig;
	int rc;

#ifdef DW_LIBDWARF_VERSION_MAJOR
	rc = dwarf_next_cu_header_e(dbg, 1, cu_die, &len, version, &abbrev, addr_size, &lsize,
				    &esize, &sig, &typeoff, &next, unit_type, err);
	return rc;
#else
	rc = dwarf_next_cu_header_d(dbg, 1, &len, version, &abbrev, addr_size, &lsize, &esize,
				    &sig, &typeoff, &next, unit_type, err);
	if (rc != DW_DLV_OK)
		return rc;
	return dwarf_siblingof_b(dbg, NULL, 1, cu_die, err);
#endif
}

int hm_dwarf_skip_cu(Dwarf_Debug dbg, Dwarf_Error *err)
{
#ifdef DW_LIBDWARF_VERSION_MAJOR
	Dwarf_Half version, addr_size, unit_type;
	Dwarf_Die cu = NULL;
	int rc = hm_dwarf_next_cu(dbg, &version, &addr_size, &unit_type, &cu, err);

	if (cu)
		dwarf_dealloc_die(cu);
	return rc;
#else
	Dwarf_Unsigned len, next;
	Dwarf_Off abbrev, typeoff;
	Dwarf_Half version, addr_size, lsize, esize, unit_type;
	Dwarf_Sig8 sig;

	return dwarf_next_cu_header_d(dbg, 1, &len, &version, &abbrev, &addr_size, &lsize, &esize,
				      &sig, &typeoff, &next, &unit_type, err);
#endif
}

/* Whether `cand` is the supplementary file the link names. */
static hm_binary *try_alt(const char *cand, const unsigned char *id, size_t idlen)
{
	hm_binary *alt;
	const unsigned char *got;
	size_t n;

	if (access(cand, R_OK))
		return NULL;
	alt = hm_binary_open(cand);
	if (!alt)
		return NULL;
	n = hmi_binary_build_id_raw(alt, &got);
	if (idlen && (n != idlen || memcmp(got, id, n))) {
		hm_diag(HM_DIAG_WARNING, "%s: build-id differs from the one its user expects, "
			"ignored", cand);
		hm_binary_close(alt);
		return NULL;
	}
	return alt;
}

int hm_dwarf_open_alt(hm_binary *bin, hm_binary **alt_bin, Dwarf_Debug *alt_dbg,
		      struct hm_dwarf_obj **alt_obj)
{
	size_t size, len, idlen;
	const char *link = hmi_binary_section(bin, ".gnu_debugaltlink", &size);
	const unsigned char *id;
	char cand[PATH_MAX];
	const char *path = hmi_binary_path(bin), *slash;
	hm_binary *alt = NULL;
	int rc;

	*alt_bin = NULL;
	if (!link || !size)
		return 0;
	len = strnlen(link, size);
	if (len == size || !len)
		return hm_fail(EBADMSG, "%s: malformed .gnu_debugaltlink", path);
	id = (const unsigned char *)link + len + 1;
	idlen = size - len - 1;
	/* as written (absolute, or relative to the current directory) */
	if (link[0] == '/' || !(slash = strrchr(path, '/')))
		alt = try_alt(link, id, idlen);
	/* relative to the directory of bin */
	if (!alt && link[0] != '/' && (slash = strrchr(path, '/')) &&
	    snprintf(cand, sizeof(cand), "%.*s/%s", (int)(slash - path), path, link) <
	    (int)sizeof(cand))
		alt = try_alt(cand, id, idlen);
	if (!alt && link[0] != '/')
		alt = try_alt(link, id, idlen);
	/* by build-id */
	if (!alt && idlen >= 2) {
		int n = snprintf(cand, sizeof(cand), "/usr/lib/debug/.build-id/%02x/", id[0]);

		for (size_t i = 1; i < idlen && n + 3 < (int)sizeof(cand); i++)
			n += snprintf(cand + n, sizeof(cand) - n, "%02x", id[i]);
		if (n + 7 < (int)sizeof(cand)) {
			strcpy(cand + n, ".debug");
			alt = try_alt(cand, id, idlen);
		}
	}
	if (!alt) {
		return hm_fail(ENOENT, "%s: dwz supplementary file %s not found (.gnu_debugaltlink)",
			       path, link);
	}
	rc = hm_dwarf_open(alt, alt_dbg, alt_obj);
	if (rc) {
		hm_binary_close(alt);
		return rc;
	}
	*alt_bin = alt;
	return 0;
}

int hm_dwarf_sibling(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Die *sib, Dwarf_Error *err)
{
#if defined(DW_LIBDWARF_VERSION_MAJOR) && DW_LIBDWARF_VERSION_MAJOR >= 2
	(void)dbg;
	return dwarf_siblingof_c(die, sib, err);
#else
	return dwarf_siblingof_b(dbg, die, 1, sib, err);
#endif
}

int hm_dwarf_loc_entry(Dwarf_Loc_Head_c head, uint64_t i, struct hm_dwarf_lle *e,
		       Dwarf_Error *err)
{
	Dwarf_Small kind = 0, source = 0;
	Dwarf_Unsigned rlo = 0, rhi = 0, nops = 0, eoff = 0, doff = 0;
	Dwarf_Bool noaddr = 0;
	Dwarf_Addr lo = 0, hi = 0;
	Dwarf_Locdesc_c desc = NULL;
	int rc;

	rc = dwarf_get_locdesc_entry_d(head, i, &kind, &rlo, &rhi, &noaddr, &lo, &hi, &nops,
				       &desc, &source, &eoff, &doff, err);
	if (rc != DW_DLV_OK)
		return rc;
	e->kind = kind;
	e->source = source;
	e->raw_lo = rlo;
	e->lo = lo;
	e->hi = hi;
	e->nops = nops;
	e->desc = desc;
	e->no_addr = !!noaddr;
	return DW_DLV_OK;
}

int hm_dwarf_loc_op(Dwarf_Locdesc_c desc, uint64_t i, unsigned *op, uint64_t *op1,
		    uint64_t *op2, Dwarf_Error *err)
{
	Dwarf_Small atom = 0;
	Dwarf_Unsigned o1 = 0, o2 = 0, o3 = 0, r1, r2, r3, br;
	int rc = dwarf_get_location_op_value_d(desc, i, &atom, &o1, &o2, &o3, &r1, &r2, &r3,
					       &br, err);

	if (rc != DW_DLV_OK)
		return rc;
	*op = atom;
	*op1 = o1;
	*op2 = o2;
	return DW_DLV_OK;
}
