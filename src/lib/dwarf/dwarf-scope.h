/* Internal: which variables and parameters are where at a PC, from DWARF.
 *
 * Type attribution from the instruction takes the base register of a
 * sampled memory access and asks which variable in scope at that PC lives
 * in (or points through) that register, as perf's data-type profiling does.
 * This index answers from the subprograms, lexical blocks and inlined
 * subroutines of the main file's full compile units (dwz partial units and
 * split DWARF .dwo files are not read for scopes), as gdb reads them:
 * names, types and (for static locals) locations that a concrete instance
 * leaves to its DW_AT_abstract_origin or DW_AT_specification are taken
 * from there; a lexical block without PC range attributes belongs to the
 * enclosing scope, one whose ranges are empty has no code.
 *
 * Register numbers are DWARF's (x86-64: 0 rax 1 rdx 2 rcx 3 rbx 4 rsi 5 rdi
 * 6 rbp 7 rsp 8-15 r8-r15, 16 RIP). */
#ifndef HM_DWARF_SCOPE_H
#define HM_DWARF_SCOPE_H
#include <stdint.h>
#include "hitmap/binary.h"

/* Where a variable is at the PC asked for:
 *  HM_VLOC_REG    its value is register reg + off.  off is 0 for DW_OP_regN /
 *                 DW_OP_regx (the variable is in the register); non-zero only
 *                 for DW_OP_bregN off, DW_OP_stack_value (a value computed
 *                 from a register: a pointer variable whose value is reg + off,
 *                 so for a pointer, reg holds the pointer minus off).
 *  HM_VLOC_BREG   it is in memory at reg + off (DW_OP_bregN off alone).
 *  HM_VLOC_FBREG  it is in memory at the frame base + off (DW_OP_fbreg); what
 *                 the frame base is: fb_cfa (DW_OP_call_frame_cfa) or fb_reg.
 *  HM_VLOC_ADDR   it is in memory at address off (DW_OP_addr, DW_OP_addrx).
 * A variable whose location at the PC is anything else is not reported:
 * pieces (DW_OP_piece, DW_OP_bit_piece: parts in different places),
 * DW_OP_entry_value (the value the register had on entry: nothing says the
 * register still holds it at the PC), implicit values and constants, longer
 * expressions (DW_OP_deref, arithmetic), an empty location (optimized out). */
enum hm_vloc_kind { HM_VLOC_REG, HM_VLOC_BREG, HM_VLOC_FBREG, HM_VLOC_ADDR };

struct hm_scope_var {
	const char *name;	/* variable or parameter name (owned by the index) */
	const char *func;	/* the enclosing subprogram's name (or the inlined
				 * subroutine's abstract origin name) */
	unsigned is_param : 1, inlined : 1;
	/* the frame base of the enclosing subprogram is DW_OP_call_frame_cfa
	 * (gcc's): FBREG offsets are then from the CFA */
	unsigned fb_cfa : 1;
	enum hm_vloc_kind kind;
	int reg;		/* REG, BREG: the register; -1 otherwise */
	int64_t off;		/* see enum hm_vloc_kind */
	int fb_reg;		/* FBREG: the frame base is register fb_reg (DW_OP_regN,
				 * clang's), -1 when it is the CFA or something else */
	/* the variable's type, spelt so the caller can find it in its hm_types
	 * table: pointer depth (0: the variable is the object itself, 1: a
	 * pointer to it, ...; C++ references count as pointers) and the name
	 * and kind of the struct/union/class at the end of the chain (typedefs,
	 * qualifiers resolved); NULL record name when the type ends in no named
	 * record (void *, int, an anonymous struct) */
	unsigned ptr_depth;
	const char *record;	/* "mm_struct", or NULL */
	int record_kind;	/* DW_TAG_structure_type, _union_type, _class_type; 0 if none */
	uint64_t record_size;	/* byte size of that record, 0 if unknown */
	unsigned depth;		/* scope depth: 0 subprogram, 1.. nested lexical blocks /
				 * inlined subroutines; innermost = largest */
	unsigned fn_depth;	/* depth of the subprogram (0) or inlined subroutine
				 * whose body holds the variable's scope */
};

typedef struct hm_scopes hm_scopes;

/* Build an index of bin's subprograms and their scopes: the compile units'
 * PC ranges now, a unit's scope tree when a PC first falls in it.
 * Returns 0, -ENODATA without .debug_info (nothing reported), -EBADMSG
 * (reported, naming the file) or -ENOMEM. */
int hm_scopes_open(hm_binary *bin, hm_scopes **out);
void hm_scopes_free(hm_scopes *s);

/* Answers kept across runs.  An index opened by hm_scopes_open_answers()
 * records every answer it gives while nothing is said (no error, warning
 * or note, at the open or the lookup); hm_scopes_answers() gives them,
 * with those it was opened with, as bytes to keep: 1 and *blob (malloc'd,
 * the caller frees it) when there are new ones, 0 when none (or something
 * was said, or the index was opened by hm_scopes_open(), which records
 * nothing), -ENOMEM.  hm_scopes_open_answers() with blob NULL opens bin's
 * DWARF now, as hm_scopes_open() does; with bytes hm_scopes_answers() gave
 * (checked: -EBADMSG, nothing reported, when they are not), it answers
 * from them and opens the DWARF only on the first question they do not
 * answer, returning that open's error from it and every later such
 * question.  The answers are bin's only if the caller keys them so (the
 * file's build-id and the code that wrote them).  An index opened from
 * answers is prefetched only once a question they do not answer opened its
 * DWARF (hm_scopes_dwarf_ready(); hm_scopes_prefetch() does nothing
 * before), and then not at the PCs they answered. */
int hm_scopes_open_answers(hm_binary *bin, const void *blob, size_t len, hm_scopes **out);
int hm_scopes_answers(hm_scopes *s, void **blob, size_t *len);
/* 1 when s has its DWARF open (an index opened from answers: once a
 * question they did not answer opened it without error), else 0.  Only
 * the looking-up thread asks, before it starts a prefetching one. */
int hm_scopes_dwarf_ready(const hm_scopes *s);

/* The code location of pc ("file.c:123", attr/lines.c) is kept with the
 * answers too, the caller's to make: it reads .debug_line, which the index
 * does not.  line_answer: 1 and *label (owned by s), 0 when pc has none,
 * -ENOENT when it is not known.  line_note: label NULL for none; only while
 * nothing was said making it (the caller checks, hm_diag_said()). */
int hm_scopes_line_answer(hm_scopes *s, uint64_t pc, const char **label);
void hm_scopes_line_note(hm_scopes *s, uint64_t pc, const char *label);

/* Every variable and parameter in scope at link-time address pc whose
 * location is known at pc (see enum hm_vloc_kind), innermost scopes first.
 * Returns the count (>= 0) and *vars (owned by s, valid until the next call
 * or hm_scopes_free()), or a negative errno (-EBADMSG, reported, when the
 * unit holding pc is corrupt; -ENOMEM). */
int hm_scopes_at(hm_scopes *s, uint64_t pc, const struct hm_scope_var **vars);

/* The innermost scope at pc, located variables or not: its function (as
 * hm_scope_var.func), depth and fn_depth.  1 when pc is in a scope, 0 when
 * it is in none, or a negative errno as hm_scopes_at(). */
int hm_scopes_scope_at(hm_scopes *s, uint64_t pc, const char **func, unsigned *depth,
		       unsigned *fn_depth);

/* The variable `name` as the unit holding pc declares or defines it at its
 * top level (a global, a `__thread` variable, an `extern` declaration):
 * *out with its name and type (kind HM_VLOC_ADDR, off 0: where it is, the
 * caller knows).  pc HM_SCOPES_ANY_UNIT: the first unit that has it, every
 * unit walked until one does (for a variable only another file's code
 * declares).  1 found, 0 not, or a negative errno as hm_scopes_at(). */
#define HM_SCOPES_ANY_UNIT UINT64_MAX
int hm_scopes_global(hm_scopes *s, uint64_t pc, const char *name, struct hm_scope_var *out);

/* Build what a lookup of pc will need, from another thread than the one
 * looking up (one such thread), with that thread's messages diverted into
 * *quiet (hm_diag_divert()): a build that fails or says anything is undone,
 * so that the lookup makes it again and reports as it would have without
 * this.  What lookups return is the same with or without prefetching.
 * 0, or nonzero (-EAGAIN: undone) when building stopped. */
struct hm_diag_count;
int hm_scopes_prefetch(hm_scopes *s, uint64_t pc, const struct hm_diag_count *quiet);

#endif
