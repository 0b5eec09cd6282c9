/* Attribution by instruction of segment-relative accesses: user TLS
 * (`__thread` variables, %fs) and kernel per-cpu variables (%gs).
 *
 * TLS on x86-64 (variant II): the executable's block sits just below the
 * thread pointer, so a local-exec access `%fs:-0x30` is at offset
 * -0x30 + round_up(PT_TLS memsz, align) of the executable's TLS image, where
 * its STT_TLS symbols are.  Initial-exec loads the thread-pointer offset
 * from a GOT slot the dynamic linker fills (R_X86_64_TPOFF64 against the
 * variable); general- and local-dynamic pass a GOT pair
 * (R_X86_64_DTPMOD64, DTPOFF64) to __tls_get_addr, which returns the
 * variable's (or the module block's) address.  The relocation names the
 * variable; the unit of the access declares its type.
 *
 * Per-cpu: `%gs:sym` where sym is the variable's link address in
 * .data..percpu (a section at address 0), or a register holding sym plus
 * this CPU's offset (this_cpu_off). */
#include "config.h"
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "attr/attribute-int.h"
#include "dwarf/dwarf-scope.h"
#include "insn/insn.h"
#include "elf/binary-lib.h"
#include "types/types-lib.h"

/* b's PT_TLS: its size and how far below the thread pointer its block
 * starts (the executable's, the only one at a link-time offset). */
static int tls_segment(const struct binent *b, uint64_t *memsz, uint64_t *below)
{
	Elf *elf = hmi_binary_elf(b->bin);
	size_t n, i;

	if (!elf || elf_getphdrnum(elf, &n))
		return 0;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;
		uint64_t al;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_TLS)
			continue;
		al = ph.p_align > 1 ? ph.p_align : 1;
		if (ph.p_memsz > UINT64_MAX - al)
			return 0;
		*memsz = ph.p_memsz;
		*below = (ph.p_memsz + al - 1) / al * al;
		return 1;
	}
	return 0;
}

struct dreloc {
	unsigned type;
	const char *sym;	/* NULL: symbol 0 (the module itself) */
	int defined;		/* the symbol is defined in b */
	uint64_t value;		/* its st_value (a TLS offset in b) */
	int64_t addend;
};

/* The dynamic relocation of b at link address at, of one of the TLS
 * types: 1 and *out, or 0. */
static int dyn_reloc_at(const struct binent *b, uint64_t at, struct dreloc *out)
{
	Elf *elf = hmi_binary_elf(b->bin);
	Elf_Scn *scn = NULL;

	while (elf && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d, *sd;
		Elf_Scn *ss;
		GElf_Shdr ssh;
		size_t k, nr;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		nr = d->d_size / sh.sh_entsize;
		for (k = 0; k < nr; k++) {
			GElf_Rela rl;
			GElf_Sym sym;
			size_t si;
			unsigned t;

			if (!gelf_getrela(d, (int)k, &rl) || rl.r_offset != at)
				continue;
			t = (unsigned)GELF_R_TYPE(rl.r_info);
			if (t != R_X86_64_TPOFF64 && t != R_X86_64_DTPMOD64 && t != R_X86_64_DTPOFF64)
				continue;
			memset(out, 0, sizeof(*out));
			out->type = t;
			out->addend = rl.r_addend;
			si = GELF_R_SYM(rl.r_info);
			if (!si) {
				out->defined = 1;
				return 1;
			}
			ss = elf_getscn(elf, sh.sh_link);
			if (!ss || !gelf_getshdr(ss, &ssh) || !(sd = elf_getdata(ss, NULL)) ||
			    !gelf_getsym(sd, (int)si, &sym))
				return 0;
			out->sym = elf_strptr(elf, ssh.sh_link, sym.st_name);
			if (!out->sym || GELF_ST_TYPE(sym.st_info) != STT_TLS)
				return 0;
			out->defined = sym.st_shndx != SHN_UNDEF;
			out->value = sym.st_value;
			return 1;
		}
	}
	return 0;
}

/* The 8 bytes of b's file at link address at (a GOT word the linker
 * filled): 1 and *v, or 0 when they are not in the file. */
static int file_u64(const struct binent *b, uint64_t at, uint64_t *v)
{
	Elf *elf = hmi_binary_elf(b->bin);
	const unsigned char *f;
	size_t fsize = 0, i;

	f = elf ? (const unsigned char *)elf_rawfile(elf, &fsize) : NULL;
	for (i = 0; f && i < b->nloads; i++) {
		const struct seg *s = &b->loads[i];
		uint64_t o;

		if (at - s->vaddr >= s->filesz || s->filesz - (at - s->vaddr) < 8)
			continue;
		o = s->offset + (at - s->vaddr);
		if (o > fsize || fsize - o < 8)
			return 0;
		*v = 0;
		for (unsigned k = 0; k < 8; k++)
			*v |= (uint64_t)f[o + k] << (8 * (hmi_binary_big_endian(b->bin) == 1 ? 7 - k : k));
		return 1;
	}
	return 0;
}

/* Another binary of the recording that defines the __thread variable
 * `name` and has scopes to declare its type: NULL when none does. */
static struct binent *defining_file(hm_attr *a, const struct binent *b, const char *name)
{
	size_t i;

	for (i = 0; i < a->bin.nbins; i++) {
		struct binent *o = a->bin.bins[i];
		const hm_symbol *s;

		if (o == b || o->status != BIN_OK || attr_binent_types(o))
			continue;
		s = hm_binary_symbol(attr_binent_dwarf(o), name);
		if (s && s->type == STT_TLS && s->shndx != SHN_UNDEF && !attr_binent_scopes(o))
			return o;
	}
	return NULL;
}

/* The __thread variable `name` (or, name NULL, the STT_TLS symbol of b
 * holding offset mo of b's TLS image), accessed at offset off into it. */
static int tls_var(hm_attr *a, struct binent *b, struct insn_res *r, const char *name,
		   uint64_t mo, int64_t off)
{
	const hm_symbol *sym = NULL;
	struct binent *tb = b;	/* whose types name the variable's */
	struct hm_scope_var gv;
	char obj[300];
	uint64_t size = 0;
	int rc;

	r->bucket = HM_UNATTR_NO_VAR;
	if (!name) {
		uint64_t memsz, below;

		if (!tls_segment(b, &memsz, &below) || mo >= memsz)
			return 1;
		sym = hm_binary_object_at(attr_binent_dwarf(b), mo);
		if (!sym || sym->type != STT_TLS)
			return 1;
		name = sym->name;
		off = (int64_t)(mo - sym->addr);
		size = sym->size;
	} else if ((sym = hm_binary_symbol(attr_binent_dwarf(b), name)) && sym->type == STT_TLS &&
		   sym->shndx != SHN_UNDEF) {
		size = sym->size;
	}
	r->seg_off = sym && sym->shndx != SHN_UNDEF ? sym->addr : UINT64_MAX;
	/* The unit of the access declares the variable it names, with its
	 * type (a definition, or `extern __thread`). */
	rc = hm_scopes_global(b->scopes, r->access_pc, name, &gv);
	if (!rc && (tb = defining_file(a, b, name))) {
		/* not declared there (clang leaves out unused extern
		 * declarations): the file that defines it, any unit */
		rc = hm_scopes_global(tb->scopes, HM_SCOPES_ANY_UNIT, name, &gv);
	}
	if (rc < 0) {
		r->bucket = rc == -ENOMEM ? HM_NR_BUCKETS : HM_UNATTR_NO_VAR;
		return 1;
	}
	if (!rc)
		return 1;
	snprintf(obj, sizeof(obj), "tls:%s", name);
	r->named = 1;
	r->var = hm_strtab_intern(&a->memo.strs, name);
	r->object = hm_strtab_intern(&a->memo.strs, obj);
	r->var_kind = HM_VLOC_ADDR;
	r->var_reg = -1;
	r->var_off = (int64_t)r->seg_off;
	r->var_pc = r->access_pc;
	r->off = off;
	if (!r->var || !r->object) {
		r->bucket = HM_NR_BUCKETS;
		return 1;
	}
	if (!gv.ptr_depth && gv.record) {
		r->sname = hm_strtab_intern(&a->memo.strs, gv.record);
		if (!r->sname) {
			r->bucket = HM_NR_BUCKETS;
			return 1;
		}
		r->kind = HM_PROFILE_STRUCT;
		r->bucket = attr_find_record(tb, gv.record, gv.record_size, &r->type);
		if (r->bucket != HM_ATTR_INSN)
			return 1;
		r->ssize = hm_types_sizeof(tb->types, r->type);
		if (off < 0 || (uint64_t)off >= r->ssize) {
			r->bucket = HM_UNATTR_OFFSET;
			return 1;
		}
		attr_describe(tb->types, r->type, (uint64_t)off, &r->foff, &r->fsize, &r->path,
			      &a->memo.strs);
		r->bucket = r->path ? HM_ATTR_TLS : HM_NR_BUCKETS;
		return 1;
	}
	/* A scalar or a pointer: the variable itself is the field. */
	if (off < 0 || (size && (uint64_t)off >= size)) {
		r->bucket = HM_UNATTR_OFFSET;
		return 1;
	}
	r->sname = r->var;
	r->kind = HM_PROFILE_VARIABLE;
	r->ssize = size ? size : r->insn.mem.size;
	r->path = hm_strtab_intern(&a->memo.strs, "");
	r->foff = 0;
	r->fsize = r->ssize;
	r->bucket = r->path ? HM_ATTR_TLS : HM_NR_BUCKETS;
	return 1;
}

/* A thread-pointer-relative offset t of the executable's TLS block. */
static int tls_tpoff(hm_attr *a, struct binent *b, struct insn_res *r, int64_t t)
{
	uint64_t memsz, below;

	r->bucket = HM_UNATTR_NO_VAR;
	/* At or above the thread pointer is the thread control block. */
	if (t >= 0 || !tls_segment(b, &memsz, &below) || (uint64_t)-t > below)
		return 1;
	return tls_var(a, b, r, NULL, below - (uint64_t)-t, 0);
}

/* The per-cpu variable at link address o of .data..percpu. */
static int percpu_var(hm_attr *a, struct binent *b, struct insn_res *r, uint64_t o)
{
	Elf *elf = hmi_binary_elf(attr_binent_dwarf(b));
	Elf_Scn *scn = NULL;
	const struct var_ref *v;
	const hm_variable *var;
	const hm_symbol *sym;
	struct cached c = { 0 };
	char obj[600];
	size_t shstr;
	int in = 0;

	r->bucket = HM_UNATTR_NO_VAR;
	if (!elf || elf_getshdrstrndx(elf, &shstr))
		return 1;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *nm;

		if (gelf_getshdr(scn, &sh) && (nm = elf_strptr(elf, shstr, sh.sh_name)) &&
		    !strcmp(nm, ".data..percpu") && o - sh.sh_addr < sh.sh_size)
			in = 1;
	}
	if (!in || attr_binent_types(b))
		return 1;
	/* The symbol first: DWARF puts many discarded variables at 0, the
	 * start of the section, where the first per-cpu variable lives. */
	sym = hm_binary_object_at(attr_binent_dwarf(b), o);
	var = sym ? hmi_types_find_variable(b->types, sym->name) : NULL;
	if (!var || !var->has_addr || var->addr != sym->addr) {
		v = attr_var_at(b, o);
		var = v ? v->var : NULL;
	}
	if (!var)
		return 1;
	attr_describe_var(a, b, var, o, &c);
	if (c.bucket != HM_ATTR_GLOBAL) {
		r->bucket = HM_NR_BUCKETS;
		return 1;
	}
	snprintf(obj, sizeof(obj), "per-cpu:%s", c.object);
	r->named = 1;
	r->object = hm_strtab_intern(&a->memo.strs, obj);
	r->var = var->name;
	r->var_kind = HM_VLOC_ADDR;
	r->var_reg = -1;
	r->var_off = (int64_t)var->addr;
	r->var_pc = r->access_pc;
	r->seg_off = c.obj_base;
	r->sname = c.sname;
	r->kind = (uint8_t)c.kind;
	r->ssize = c.ssize;
	r->off = (int64_t)(o - c.obj_base);
	r->path = c.path;
	r->foff = c.foff;
	r->fsize = c.fsize;
	r->bucket = r->object ? HM_ATTR_PERCPU : HM_NR_BUCKETS;
	return 1;
}

/* this_cpu_off: the per-cpu variable holding each CPU's offset. */
static int is_this_cpu_off(const struct binent *b, uint64_t at)
{
	const hm_symbol *s = hm_binary_object_at(attr_binent_dwarf(b), at);

	return s && s->addr == at && !strcmp(s->name, "this_cpu_off");
}

int attr_seg_resolve(hm_attr *a, struct binent *b, struct insn_res *r, const struct hm_tval *v)
{
	const struct hm_insn_mem *m = &r->insn.mem;
	struct dreloc d, d2;
	uint64_t at, word;

	if (m->seg == HM_SEG_FS || m->seg == HM_SEG_GS) {
		/* An index register: which element is not known here. */
		if (m->index >= 0) {
			r->bucket = HM_UNATTR_NO_MEMOP;
			return 1;
		}
		if (m->seg == HM_SEG_GS) {
			if (hm_insn_mem_const(m, &at))
				return percpu_var(a, b, r, at);
			if (v && v->kind == HM_TV_CONST)
				return percpu_var(a, b, r, (uint64_t)(v->off + m->disp));
			r->bucket = HM_UNATTR_NO_VAR;
			return 1;
		}
		if (m->base == HM_REG_NONE)
			return tls_tpoff(a, b, r, m->disp);
		if (v && v->kind == HM_TV_CONST)	/* initial-exec, relaxed */
			return tls_tpoff(a, b, r, v->off + m->disp);
		if (v && v->kind == HM_TV_MEM && dyn_reloc_at(b, v->abs, &d) &&
		    d.type == R_X86_64_TPOFF64) {	/* initial-exec */
			if (d.sym && !d.defined)
				return tls_var(a, b, r, d.sym, 0, d.addend + v->off + m->disp);
			return tls_var(a, b, r, NULL,
				       d.value + (uint64_t)(d.addend + v->off + m->disp), 0);
		}
		r->bucket = HM_UNATTR_NO_VAR;
		return 1;
	}
	if (!v)
		return 0;
	switch (v->kind) {
	case HM_TV_TP:
		return tls_tpoff(a, b, r, v->off + m->disp);
	case HM_TV_TLSGET:
		/* general dynamic (the variable) or local dynamic (symbol 0:
		 * the module's block) */
		if (!dyn_reloc_at(b, v->abs, &d) || d.type != R_X86_64_DTPMOD64)
			return 0;
		/* the pair's second word: a relocation against the
		 * variable, or the offset the linker wrote (a local
		 * variable by general dynamic; 0 for local dynamic) */
		if (dyn_reloc_at(b, v->abs + 8, &d2) && d2.type == R_X86_64_DTPOFF64)
			d.addend = d2.addend;
		else if (!d.sym && file_u64(b, v->abs + 8, &word))
			d.addend = (int64_t)word;
		else
			d.addend = 0;
		if (d.sym && !d.defined)
			return tls_var(a, b, r, d.sym, 0, d.addend + v->off + m->disp);
		return tls_var(a, b, r, NULL, d.value + (uint64_t)(d.addend + v->off + m->disp), 0);
	case HM_TV_PCPU:
		if (!is_this_cpu_off(b, v->abs))
			return 0;
		return percpu_var(a, b, r, (uint64_t)(v->off + m->disp));
	default:
		return 0;
	}
}
