/* insn: the machine instruction at a link-time address of a binary, decoded
 * into what attribution needs — its length and text, its memory operand, the
 * registers it reads and writes (DWARF numbers) and, for the few
 * instructions register tracking models, what it does to them.
 *
 * The bytes come from the binary's executable PT_LOAD segment containing the
 * address (the file mapped by hm_binary, never copied).  What register
 * tracking decodes is memoised per function start, in address order,
 * without bytes and text: the cost grows with the distinct addresses, not
 * with how often they are walked.  A whole instruction (hm_insn_decode())
 * is decoded afresh: its callers ask once per distinct sampled address.
 * Only insn-x86.c knows an instruction set; an arm64 decoder is another
 * file behind the same insn_arch functions.
 *
 * Function symbols (where a function starts, what a call calls) come from
 * a second binary when the code's file is stripped: its separate debug file,
 * whose symbol table has the same link addresses.
 *
 * Ownership: hm_insn_ctx_new() returns a context freed with
 * hm_insn_ctx_free(); it borrows the binaries, which must outlive it.  A
 * struct hm_insn is a copy the caller owns.
 */
#ifndef HM_INSN_H
#define HM_INSN_H
#include <stddef.h>
#include <stdint.h>
#include "hitmap/binary.h"

/* DWARF register numbers (x86-64 psABI): 0 rax 1 rdx 2 rcx 3 rbx 4 rsi 5 rdi
 * 6 rbp 7 rsp 8-15 r8-r15, 16 the return address column (rip here). */
#define HM_REG_NONE -1
#define HM_REG_IP 16
#define HM_NR_REGS 17

enum hm_insn_seg { HM_SEG_NONE = 0, HM_SEG_FS, HM_SEG_GS };

enum { HM_ACC_READ = 1, HM_ACC_WRITE = 2 };

struct hm_insn_mem {
	int8_t base, index;	/* DWARF registers, HM_REG_NONE; base HM_REG_IP when RIP-relative */
	uint8_t scale;
	uint8_t seg;		/* enum hm_insn_seg */
	uint8_t size;		/* bytes accessed */
	uint8_t access;		/* HM_ACC_READ | HM_ACC_WRITE (both: read-modify-write) */
	int64_t disp;
	uint64_t abs;		/* RIP-relative: the link address it names */
};

/* What register tracking (insn-track.c) models; everything else only
 * clobbers the registers it writes. */
enum hm_insn_op {
	HM_OP_OTHER = 0,
	HM_OP_MOV_RR,		/* dst = src (full width) */
	HM_OP_LEA,		/* dst = mem.base + mem.index * mem.scale + mem.disp;
				 * mem filled, has_mem clear: lea accesses nothing */
	HM_OP_MOV_IMM,		/* dst = imm (full width) */
	HM_OP_ADD_RR,		/* dst += src (full width) */
	HM_OP_ADD_LOAD,		/* dst += full-width load from mem */
	HM_OP_SHL_IMM,		/* dst <<= imm */
	HM_OP_MUL_IMM,		/* dst = src * imm */
	HM_OP_EXTEND,		/* dst = src sign- or zero-extended (movslq, cltq,
				 * a 32-bit mov) */
	HM_OP_ADD_IMM,		/* dst += imm (sub: imm negated) */
	HM_OP_LOAD,		/* dst = full-width load from mem */
	HM_OP_STORE,		/* full-width store of src to mem */
	HM_OP_PUSH,		/* sp -= 8 */
	HM_OP_POP,		/* dst = load, sp += 8 */
	HM_OP_CALL,		/* clobbers the caller-saved registers */
	HM_OP_RET,
};

struct hm_insn {
	uint64_t pc;
	uint8_t len;
	unsigned id;		/* the decoder's mnemonic id */
	unsigned has_mem : 1, lock : 1;
	/* control flow, for which instruction a timer sample means
	 * (insn-addr.c): a jump (target in imm when direct, else 0),
	 * conditional (it may fall through); an instruction after which
	 * interrupts are enabled again (sti, popf) */
	unsigned jump : 1, cond : 1, irq_on : 1;
	struct hm_insn_mem mem;
	uint32_t regs_read, regs_written;	/* bit N: DWARF register N */
	enum hm_insn_op op;
	int8_t dst, src;	/* for op */
	int64_t imm;		/* ADD_IMM: the constant; CALL, jump: the direct target, or 0 */
	/* Last, and only from hm_insn_decode*() and hm_insn_prev(): the
	 * memo behind register tracking keeps the fields above alone
	 * (HM_INSN_CORE), a fifth of the whole, for the hundreds of
	 * thousands of instructions a kernel profile's functions hold. */
	uint8_t bytes[16];
	char text[192];		/* "lock add qword ptr [rdi], 1" */
};

#define HM_INSN_CORE offsetof(struct hm_insn, bytes)

typedef struct hm_insn_ctx hm_insn_ctx;

/* The instructions of code, with function symbols from syms (NULL: code).
 * NULL + errno: ENOTSUP (no decoder for the binary's machine), ENOMEM. */
hm_insn_ctx *hm_insn_ctx_new(const hm_binary *code, const hm_binary *syms);
void hm_insn_ctx_free(hm_insn_ctx *c);

/* Decode the instruction at link address pc into *out.  0; -ENOENT when pc
 * is in no executable segment's file bytes; -EBADMSG when the bytes there do
 * not decode; -ENOMEM. */
int hm_insn_decode(hm_insn_ctx *c, uint64_t pc, struct hm_insn *out);

/* Decode the instruction at pc from bytes[0 .. n - 1] instead of the
 * file's (the bytes a kernel wrote there at run time); not memoised.  0 or
 * -EBADMSG. */
int hm_insn_decode_bytes(hm_insn_ctx *c, uint64_t pc, const uint8_t *bytes, size_t n,
			 struct hm_insn *out);

/* The instruction that ends at pc (the one before it), found by decoding
 * from the start of the function containing pc: 0, or -ENOENT (no function
 * symbol, or no instruction boundary at pc). */
int hm_insn_prev(hm_insn_ctx *c, uint64_t pc, struct hm_insn *out);

/* Whether a call keeps every register: the profiling hooks compilers put
 * first in a function (__fentry__, mcount), which save what they use. */
int hm_insn_call_keeps(hm_insn_ctx *c, const struct hm_insn *call);

/* The link address a memory operand names by itself (absolute, or
 * RIP-relative), segment aside: 1 and *at, or 0 when it needs a register. */
int hm_insn_mem_const(const struct hm_insn_mem *m, uint64_t *at);

/* Register names for messages: "rdi", "rip", "?" */
const char *hm_insn_reg_name(int reg);

/* ---- the instruction set, behind these (insn-x86.c) ---- */
struct insn_arch;
struct insn_arch *insn_arch_open(unsigned machine);
void insn_arch_close(struct insn_arch *a);
/* Decode one instruction from bytes[0 .. n - 1] at pc: 0 or -EBADMSG.
 * Without text, out->bytes and out->text are left empty (the text is a
 * second decode, in AT&T syntax). */
int insn_arch_decode(struct insn_arch *a, const uint8_t *bytes, size_t n, uint64_t pc, int text,
		     struct hm_insn *out);
const char *insn_arch_reg_name(int reg);
/* A walk over a function's instructions from its start, in address order:
 * each as hm_insn_decode() says, but only its first HM_INSN_CORE bytes
 * written (no bytes, no text), decoded once per function start and kept.
 * The cursor stands before the instruction at pc, the i-th of the walk. */
struct insn_cursor {
	uint32_t fn;
	size_t i;
	uint64_t pc;
};
/* Before func's first instruction: 0 or -ENOMEM. */
int insn_cursor_start(hm_insn_ctx *c, uint64_t func, struct insn_cursor *k);
/* The instruction at k->pc into *out, and k past it: 0, or what decoding
 * there says (-ENOENT, -EBADMSG: the same each time; -ENOMEM), k unmoved. */
int insn_cursor_next(hm_insn_ctx *c, struct insn_cursor *k, struct hm_insn *out);
/* The walks register tracking keeps (insn-track.c), owned by the context:
 * its slot, NULL until the first walk, and how it is freed. */
struct insn_walks;
struct insn_walks **insn_ctx_walks(hm_insn_ctx *c);
void insn_walks_free(struct insn_walks *ws);


/* ---- register tracking (insn-track.c) ----
 *
 * What a register holds at an instruction, found by walking the function
 * from its start to that instruction in address order (as perf's
 * instruction tracking does: no control flow, so a value set on another
 * path is not seen).  Modelled: full-width register moves, lea off(reg),
 * add/sub of a constant, stores of a register to the stack frame and loads
 * back, push/pop; constants (mov $imm), RIP-relative addresses (lea) and
 * loads from them (GOT slots), the thread pointer (%fs:0), %gs-relative
 * loads and adds (this CPU's per-cpu offset), register + constant; a call
 * forgets the caller-saved registers (and, when its first argument was a
 * RIP-relative address, returns HM_TV_TLSGET of it), any other write
 * forgets its register.  Whenever a value is first read from a
 * register or a stack slot, the caller's typing function is asked whether a
 * variable holds it there: from then on the value is "that variable + a
 * constant", whatever registers and slots it moves through.  A load through
 * a typed pointer (mov off(%rX),%rY with %rX a typed variable, an element
 * of a pointer array) or from a global (mov g(%rip),%rY, add g(%rip),%rY)
 * is typed by what the memory is declared to hold, so pointers followed
 * through struct fields and globals stay typed, hop after hop. */
enum hm_tval_kind {
	HM_TV_UNKNOWN = 0,
	HM_TV_REG,		/* register reg as it was at pc at, + off */
	HM_TV_SLOT,		/* the 8 bytes loaded at pc at from the stack slot at
				 * CFA + slot (slot_disp(slot_base) in the instruction), + off */
	HM_TV_STACK,		/* an address in the frame: CFA + off */
	HM_TV_VAR,		/* the pointer held by variable var, + off */
	HM_TV_CONST,		/* the constant off (mov $imm) */
	HM_TV_ADDR,		/* the link address abs + off (lea sym(%rip)) */
	HM_TV_MEM,		/* the 8 bytes loaded from link address abs (a GOT
				 * slot: sym@gottpoff), + off */
	HM_TV_TP,		/* the thread pointer (loaded from %fs:0), + off */
	HM_TV_PCPU,		/* this CPU's per-cpu offset, loaded from %gs:abs
				 * (this_cpu_off), + off */
	HM_TV_TLSGET,		/* what a call returned whose first argument was the
				 * link address abs (__tls_get_addr(&got_pair)), + off */
	HM_TV_DEREF,		/* the 8 bytes loaded at pc at from a pointer: kind
				 * from says which (VAR: var's pointee + off, an
				 * unknown multiple of stride added; ADDR: the link
				 * address abs + off, + a multiple of stride); only
				 * ever asked of the typing function, which makes it
				 * a VAR or leaves it unknown */
};

/* A variable holding a pointer to a record, as the typing function names
 * it (strings owned by its owner). */
struct hm_tvar {
	const char *name, *func, *record;
	uint64_t record_size;
	int loc_kind, loc_reg;	/* its location, as the typing function spells it;
				 * HM_TVAR_LOADED: a pointer loaded from memory at pc,
				 * name spelling the path it was loaded along */
	int64_t loc_off;
	uint64_t pc;		/* where it held the value */
};

#define HM_TVAR_LOADED 16

#define HM_TRACK_STEPS 8

struct hm_tval {
	enum hm_tval_kind kind;
	int8_t reg;		/* REG */
	int8_t slot_base;	/* SLOT: the load's base register */
	int8_t from;		/* DEREF: the pointer's kind, VAR or ADDR */
	unsigned fb_known : 1;	/* SLOT: fb_off is rbp's value then, CFA-relative */
	unsigned untyped : 1;	/* a variable held it, of no pointer-to-record type */
	int64_t off;
	int64_t slot, slot_disp, fb_off;
	uint64_t abs;		/* ADDR, MEM, PCPU, TLSGET */
	/* UNKNOWN: the value is a multiple of stride (0: nothing known);
	 * any other kind: the value plus an unknown multiple of stride (0:
	 * none), an index scaled into an array */
	uint64_t stride;
	uint64_t at;		/* REG, SLOT: where the value was read; 0 = still live */
	struct hm_tvar var;	/* VAR */
	uint64_t steps[HM_TRACK_STEPS];	/* the last instructions that built it, in order */
	unsigned nsteps;
};

/* What v is known to be a multiple of: 1 when nothing is known, 0 for the
 * constant 0. */
uint64_t hm_tval_factor(const struct hm_tval *v);
uint64_t hm_gcd(uint64_t a, uint64_t b);

/* The typing function: whether a variable of a pointer-to-record type holds
 * value v (HM_TV_REG or HM_TV_SLOT, read at v->at) there; for HM_TV_MEM (a
 * load from a link address) and HM_TV_DEREF (a load through a typed
 * pointer or from a global), whether the memory loaded from is declared a
 * pointer to a record (a global, a member, an array's element).  1: *var
 * filled, and the value is the variable's pointer + *delta; 2: a variable
 * holds it, of another type; 0: none.  Its answer for a value must not change over
 * the context's life, whatever ctx is passed: walks are kept per typing
 * function and continued (see hm_insn_track()). */
typedef int (*hm_track_type_fn)(void *ctx, const struct hm_tval *v, struct hm_tvar *var,
				int64_t *delta);

/* What register reg holds just before the instruction at pc of the function
 * starting at func (the CFA is rsp + 8 there).  HM_TV_REG with at 0: reg
 * itself, unchanged since the start.  type may be NULL.  0, or -ENOENT /
 * -EBADMSG when the walk does not land on pc.  The context keeps the last
 * walks (per function and typing function) and goes on from one that stands
 * at or before pc: the same answer as a walk from func, with type asked
 * only about reads no earlier walk of that function has asked about. */
int hm_insn_track(hm_insn_ctx *c, uint64_t func, uint64_t pc, int reg, hm_track_type_fn type,
		  void *ctx, struct hm_tval *out);


/* ---- a timer sample's data address from its registers (insn-addr.c) ----
 *
 * A timer interrupt is taken at an instruction boundary: the IP is the
 * next instruction to run and the previous one retired last (the stall the
 * sample measures is usually its).  The rule, per IP, from the bytes alone:
 *  1. the previous instruction, when it is known to be the one that ran
 *     last (the IP is no target of a direct jump of its function nor the
 *     function's entry, and the instruction before it falls through: no
 *     jmp, ret or call), has a memory operand without a segment override
 *     and wrote neither its base nor its index register: its address from
 *     the sampled (post-execution) registers is exact;
 *  2. else the instruction at the IP, when it has a memory operand without
 *     a segment override: it has not run, its address from the same
 *     registers is exact;
 *  3. else, at a kernel IP, when the previous instruction falls through
 *     into the IP and has no memory operand, the memory instruction that
 *     ran before it:
 *     back over instructions that touch no memory and write no register
 *     (jcc, direct jmp, pause, cmp, test, nop; at most four), each reached
 *     from one place alone (the one before falls through and no direct
 *     jump targets it, or nothing falls through and one direct jump
 *     does), when it wrote neither its base nor its index (why PREV, pc
 *     the instruction found).  Under QEMU's TCG the interrupt is taken at
 *     a translated block's start, after the jump that ends one;
 *  4. else no address, for the first reason met: the previous instruction
 *     wrote its base or index (regs-clobbered), a %fs/%gs operand
 *     (segment-base-unknown: no segment base is sampled), the IP is a
 *     branch target or follows a jump, call or ret (branch-target), no
 *     memory operand (no-mem-operand).
 * A user %fs operand is no reason in a thread whose %fs base is known:
 * its address is that base plus the registers' (rule 1 or 2 as above).
 * The base is known from a sample of the thread right after a load of
 * %fs:0, the thread pointer itself, until the recording's mappings or
 * threads change.
 * A kernel IP right after an instruction that enables interrupts (sti,
 * popf) or a call of an irq-enable function, or inside such a function, is
 * where samples of an irqs-off section are deferred to: irq-deferred. */
enum hm_regs_why {
	HM_RW_PREV = 1,		/* the previous instruction's operand */
	HM_RW_AT_IP,		/* the operand of the instruction at the IP */
	HM_RW_NO_INSN,		/* no instruction at the IP */
	HM_RW_CLOBBERED,
	HM_RW_SEGMENT,
	HM_RW_BRANCH_TARGET,
	HM_RW_NO_MEMOP,
	HM_RW_IRQ_DEFERRED,
	HM_RW_NO_REGS,		/* a register the operand uses was not sampled */
	HM_RW_PATCHED,		/* kernel bytes a patch site rewrote at boot (the
				 * caller knows the sites, not this rule) */
};

/* Which instruction a sample at pc means (memoised per pc). */
struct hm_regs_rule {
	uint8_t why;		/* enum hm_regs_why */
	uint8_t passed;		/* why the previous instruction was not taken
				 * (HM_RW_*), 0 when it was */
	uint64_t pc;		/* the instruction chosen (PREV, AT_IP) */
	uint64_t prev;		/* the instruction before pc, 0 when unknown */
	struct hm_insn_mem mem;	/* its memory operand */
	/* A %fs operand passed over only for its segment: which rule it
	 * would be (HM_RW_PREV, HM_RW_AT_IP; 0: none), its instruction and
	 * operand.  Where the thread's %fs base is known it is taken, by
	 * rule 1 before rule 2 (attribute-regs.c). */
	uint8_t seg_why;
	/* The previous instruction loaded %fs:0 into this register (else
	 * HM_REG_NONE): after it, the register holds the thread pointer,
	 * the %fs base (x86-64 TLS ABI: the TCB's first word points to
	 * itself). */
	int8_t tp_reg;
	uint64_t seg_pc;
	struct hm_insn_mem seg_mem;
};

/* The rule at pc (a link address; kernel: the binary is a kernel's).
 * 0, or -ENOMEM. */
int hm_insn_regs_rule(hm_insn_ctx *c, uint64_t pc, int kernel, struct hm_regs_rule *out);

/* "previous", "at-ip", "no-insn", "regs-clobbered", "segment-base-unknown",
 * "branch-target", "no-mem-operand", "irq-deferred", "regs-missing",
 * "patched-text" */
const char *hm_regs_why_name(int why);

/* perf's sampled registers (the bit order of sample_regs_user /
 * sample_regs_intr, enum perf_event_x86_regs) into regs[] by DWARF number;
 * returns the mask of DWARF registers filled. */
uint32_t hm_insn_regs_from_perf(uint64_t mask, const uint64_t *v, unsigned n,
				uint64_t regs[HM_NR_REGS]);

/* The effective address of m from regs (have: their mask) with the code
 * loaded bias bytes above its link addresses: 0 and *addr, or
 * -ENOENT when a register it needs is not in have. */
int hm_insn_regs_ea(const struct hm_insn_mem *m, uint64_t bias, const uint64_t *regs,
		    uint32_t have, uint64_t *addr);

/* The memo behind hm_insn_regs_rule(), owned by the context. */
struct insn_regs;
struct insn_regs **insn_ctx_regs(hm_insn_ctx *c);
/* Where the context's function symbols come from. */
const hm_binary *insn_ctx_syms(const hm_insn_ctx *c);
void insn_regs_free(struct insn_regs *m);

#endif
