/* capstone, opened on first use rather than linked.  Linking it makes every
 * hitmap process apply its 77 000 relocations (the decoder's tables of
 * pointers) before main: with libpfm4's 41 000, some 10 ms and 660 page
 * faults of each command's start, two fifths of `hitmap layout` on a small
 * file, for a decoder that only attribution by instruction and record's
 * allocator probes ever call.  The header is capstone's own, so every call
 * is checked against the installed API. */
#ifndef HM_ELF_CAPSTONE_LIB_H
#define HM_ELF_CAPSTONE_LIB_H

#include <capstone/capstone.h>

/* The calls hitmap makes. */
struct hmi_capstone_lib {
	__typeof__(&cs_open) open;
	__typeof__(&cs_option) option;
	__typeof__(&cs_close) close;
	__typeof__(&cs_malloc) malloc;
	__typeof__(&cs_free) free;
	__typeof__(&cs_disasm) disasm;
	__typeof__(&cs_disasm_iter) disasm_iter;
	__typeof__(&cs_regs_access) regs_access;
	__typeof__(&cs_reg_name) reg_name;
};

/* The library, opened once per process (thread-safe); NULL when it cannot
 * be, with why in *why (a static string). */
const struct hmi_capstone_lib *hmi_capstone_open(const char **why);

#endif
