/* Relocations of an ET_REL file's section (see reloc.h), read through
 * libelf from the file's relocation sections. */
#include "config.h"
#include <errno.h>
#include <gelf.h>
#include "elf/reloc.h"
#include "elf/binary-lib.h"

/* The bytes an absolute relocation writes, or 0 for a type not applied. */
static int reloc_width(unsigned machine, unsigned type)
{
	switch (machine) {
	case EM_X86_64:
		return type == R_X86_64_64 ? 8 : (type == R_X86_64_32 || type == R_X86_64_32S) ? 4 : 0;
	case EM_386:
		return type == R_386_32 ? 4 : 0;
	case EM_AARCH64:
		return type == R_AARCH64_ABS64 ? 8 : type == R_AARCH64_ABS32 ? 4 : 0;
	case EM_PPC64:
		return type == R_PPC64_ADDR64 ? 8 : type == R_PPC64_ADDR32 ? 4 : 0;
	case EM_PPC:
		return type == R_PPC_ADDR32 ? 4 : 0;
	case EM_S390:
		return type == R_390_64 ? 8 : type == R_390_32 ? 4 : 0;
	case EM_RISCV:
		return type == R_RISCV_64 ? 8 : type == R_RISCV_32 ? 4 : 0;
	case EM_ARM:
		return type == R_ARM_ABS32 ? 4 : 0;
	case EM_LOONGARCH:
		return type == R_LARCH_64 ? 8 : type == R_LARCH_32 ? 4 : 0;
	case EM_SPARCV9:
		return type == R_SPARC_UA64 || type == R_SPARC_64 ? 8 :
		       type == R_SPARC_UA32 || type == R_SPARC_32 ? 4 : 0;
	default:
		return 0;
	}
}

/* The bytes a PC-relative relocation writes (x86-64's tables), or 0. */
static int pcrel_width(unsigned machine, unsigned type)
{
	if (machine != EM_X86_64)
		return 0;
	return type == R_X86_64_PC32 ? 4 : type == R_X86_64_PC64 ? 8 : 0;
}

static void apply_one(unsigned char *p, size_t size, uint64_t off, int w, uint64_t v,
		      int have_addend, int big)
{
	if (!w || off > size || size - off < (size_t)w)
		return;
	if (!have_addend) {	/* SHT_REL: addend in place */
		uint64_t a = 0;

		for (int i = 0; i < w; i++)
			a |= (uint64_t)p[off + (big ? w - 1 - i : i)] << (8 * i);
		v += a;
	}
	for (int i = 0; i < w; i++)
		p[off + (big ? w - 1 - i : i)] = v >> (8 * i);
}

int hm_binary_relocate(const hm_binary *bin, size_t target, unsigned char *buf, size_t size,
		       unsigned flags)
{
	Elf *elf = hmi_binary_elf(bin);
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	int big;

	if (!elf || !gelf_getehdr(elf, &eh))
		return -EBADMSG;
	big = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh, symsh;
		Elf_Data *rd, *sd;
		Elf_Scn *syms;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) ||
		    sh.sh_info != target || !sh.sh_entsize)
			continue;
		syms = elf_getscn(elf, sh.sh_link);
		if (!syms || !gelf_getshdr(syms, &symsh) || !(rd = elf_getdata(scn, NULL)) ||
		    !(sd = elf_getdata(syms, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela r;
			GElf_Rel rl;
			GElf_Sym s;
			uint64_t v;
			unsigned type;
			int w, pw;

			if (sh.sh_type == SHT_RELA) {
				if (!gelf_getrela(rd, i, &r))
					break;
			} else {
				if (!gelf_getrel(rd, i, &rl))
					break;
				r.r_offset = rl.r_offset;
				r.r_info = rl.r_info;
				r.r_addend = 0;
			}
			type = gelf_getclass(elf) == ELFCLASS64 ? GELF_R_TYPE(r.r_info)
							       : ELF32_R_TYPE(r.r_info);
			w = reloc_width(eh.e_machine, type);
			pw = flags & HM_RELOC_PCREL ? pcrel_width(eh.e_machine, type) : 0;
			if (!gelf_getsym(sd, GELF_R_SYM(r.r_info), &s))
				continue;
			/* a kernel module's sections have load addresses
			 * (hmi_binary_section_addr); a plain object's are 0 */
			v = s.st_value + r.r_addend;
			if (s.st_shndx != SHN_UNDEF && s.st_shndx < SHN_LORESERVE)
				v += hmi_binary_section_addr(bin, s.st_shndx);
			if (pw) {	/* S + A - P */
				v -= hmi_binary_section_addr(bin, target) + r.r_offset;
				w = pw;
			}
			apply_one(buf, size, r.r_offset, w, v, sh.sh_type == SHT_RELA, big);
		}
	}
	return 0;
}
