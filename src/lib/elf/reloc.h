/* reloc: a section of an ET_REL file (a kernel module, a plain object)
 * with its relocations applied, as the kernel's module loader would apply
 * them, at the link addresses hmi_binary_section_addr() gives the sections.
 * Shared by the DWARF reader (a module's debug sections) and the patch-site
 * tables (a module's .altinstructions, __jump_table ...).
 *
 * Only the data relocations are applied: absolute (R_X86_64_64/32/32S and
 * their kin on the other machines), and with HM_RELOC_PCREL the
 * PC-relative ones x86-64 tables use (R_X86_64_PC32, PC64).  Others are
 * left as written.  A symbol that is undefined in the file counts as its
 * value (0): its bytes name no place in the file.
 *
 * The caller holds the binary's libelf lock (elf/elf-lock.h) when threads
 * share it: libelf's first read of a relocation section is not
 * thread-safe.
 */
#ifndef HM_ELF_RELOC_H
#define HM_ELF_RELOC_H
#include <stddef.h>
#include "hitmap/binary.h"

enum { HM_RELOC_PCREL = 1 };

/* Apply to buf (a copy of section target's size bytes) every relocation
 * of bin that targets that section.  0, or -EBADMSG (no ELF header). */
int hm_binary_relocate(const hm_binary *bin, size_t target, unsigned char *buf, size_t size,
		       unsigned flags);

#endif
