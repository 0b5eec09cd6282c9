/* patchsites: the places of a Linux kernel image whose bytes the kernel
 * rewrites at boot, so that the file's bytes there are not the bytes that
 * ran: alternatives (.altinstructions, struct alt_instr), paravirt calls
 * (.parainstructions, struct paravirt_patch_site), static calls
 * (.static_call_sites), jump labels (__jump_table, struct jump_entry),
 * retpolines and return thunks (.retpoline_sites, .return_sites).
 *
 * Read from the tables the image carries, found by their linker symbols
 * (__alt_instructions .. __alt_instructions_end and so on), every entry
 * bounded by the section holding the table.  Layouts are x86-64 Linux 6.1's
 * (alt_instr 12 bytes with a u16 cpuid; jump_entry 16; static_call_site 8;
 * paravirt_patch_site 16, an absolute pointer).  A binary without the
 * symbols has no sites.  A kernel module (ET_REL with
 * .gnu.linkonce.this_module) has no such symbols: its tables are its
 * sections of those names, read through the module's relocations
 * (elf/reloc.h) at the addresses the module loader gives its sections
 * (hmi_binary_section_addr).  Another ET_REL file is not laid out by any
 * loader: hm_patch_sites_read() says -ENOTSUP.
 *
 * Ownership: hm_patch_sites_read() returns a set freed with
 * hm_patch_sites_free(); it copies what it needs, the binaries may close.
 */
#ifndef HM_ELF_PATCHSITES_H
#define HM_ELF_PATCHSITES_H
#include <stddef.h>
#include <stdint.h>
#include "hitmap/binary.h"

enum hm_patch_kind {
	HM_PATCH_ALT = 0,	/* an alternative's original instructions */
	HM_PATCH_PARAVIRT,	/* a paravirt call site */
	HM_PATCH_STATIC_CALL,	/* a static call's call or jmp */
	HM_PATCH_JUMP,		/* a jump label's nop or jmp */
	HM_PATCH_RETPOLINE,	/* a call or jmp to a retpoline thunk */
	HM_PATCH_RETURN,	/* a jmp to the return thunk */
	HM_NR_PATCH_KINDS
};

/* One site: [addr, addr + len); len 0 for the one instruction at addr
 * (the tables that do not say a length patch one instruction in place,
 * the same length before and after). */
struct hm_patch_site {
	uint64_t addr;
	uint32_t len;
	uint8_t kind;		/* enum hm_patch_kind */
};

typedef struct hm_patch_sites hm_patch_sites;

/* The sites of code, with the table symbols from syms (NULL: code).  0 and
 * *out (possibly empty: always for a shared object or a PIE, user space);
 * -ENOTSUP for an ET_REL file other than a kernel
 * module that has the tables;
 * -EBADMSG (a warning names the file, table and address) when a table's
 * symbols or entries lie outside the file; -ENOMEM. */
int hm_patch_sites_read(const hm_binary *code, const hm_binary *syms, hm_patch_sites **out);
void hm_patch_sites_free(hm_patch_sites *s);

/* The site pc is in (a range holding it, or a one-instruction site starting
 * at it), or NULL.  Overlapping sites: the one starting last. */
const struct hm_patch_site *hm_patch_sites_find(const hm_patch_sites *s, uint64_t pc);
/* The site whose range holds pc - 1 (pc is just past a patched byte), or
 * NULL: for an IP reported after the instruction that ran. */
const struct hm_patch_site *hm_patch_sites_ending(const hm_patch_sites *s, uint64_t pc);

/* The one-instruction site starting last before pc (addr < pc), within
 * the 15 bytes an instruction can span, or NULL: whether pc is inside its
 * instruction is for the decoder to say. */
const struct hm_patch_site *hm_patch_sites_insn_before(const hm_patch_sites *s, uint64_t pc);

/* All sites, sorted by address then kind, each (address, length, kind)
 * once. */
size_t hm_patch_sites_count(const hm_patch_sites *s, const struct hm_patch_site **sites);

#endif
