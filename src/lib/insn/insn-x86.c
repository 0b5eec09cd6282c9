/* x86-64 through capstone: operands, registers as DWARF numbers, and the
 * instructions register tracking models. */
#include "config.h"
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "insn/insn.h"
#include "elf/capstone-lib.h"

struct insn_arch {
	const struct hmi_capstone_lib *cs;
	csh h, att;
	cs_insn *ci;	/* one decoded instruction, reused */
};

struct insn_arch *insn_arch_open(unsigned machine)
{
	struct insn_arch *a;

	if (machine != EM_X86_64) {
		errno = ENOTSUP;
		return NULL;
	}
	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	if (!(a->cs = hmi_capstone_open(NULL))) {
		free(a);
		errno = ENOENT;
		return NULL;
	}
	if (a->cs->open(CS_ARCH_X86, CS_MODE_64, &a->h) != CS_ERR_OK) {
		free(a);
		errno = ENOMEM;
		return NULL;
	}
	a->cs->option(a->h, CS_OPT_DETAIL, CS_OPT_ON);
	/* The text in AT&T syntax, as objdump and gdb print it, from a second
	 * handle: in AT&T mode capstone also reverses the operands of the
	 * detail, which classify() reads in Intel order. */
	if (a->cs->open(CS_ARCH_X86, CS_MODE_64, &a->att) != CS_ERR_OK) {
		a->cs->close(&a->h);
		free(a);
		errno = ENOMEM;
		return NULL;
	}
	a->cs->option(a->att, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	a->ci = a->cs->malloc(a->h);
	if (!a->ci) {
		a->cs->close(&a->h);
		a->cs->close(&a->att);
		free(a);
		errno = ENOMEM;
		return NULL;
	}
	return a;
}

void insn_arch_close(struct insn_arch *a)
{
	if (!a)
		return;
	a->cs->free(a->ci, 1);
	a->cs->close(&a->h);
	a->cs->close(&a->att);
	free(a);
}

/* capstone's registers by DWARF number: the 64-bit one, then its 32-,
 * 16- and 8-bit parts (dwreg()) */
#define GPR(n, q, d, w, b) [X86_REG_##q] = (n) + 1 + DW_FULL, [X86_REG_##d] = (n) + 1, \
			   [X86_REG_##w] = (n) + 1, [X86_REG_##b] = (n) + 1
#define DW_FULL 0x40

static const uint8_t dw_of[X86_REG_ENDING] = {
	GPR(0, RAX, EAX, AX, AL), [X86_REG_AH] = 1, GPR(1, RDX, EDX, DX, DL), [X86_REG_DH] = 2,
	GPR(2, RCX, ECX, CX, CL), [X86_REG_CH] = 3, GPR(3, RBX, EBX, BX, BL), [X86_REG_BH] = 4,
	GPR(4, RSI, ESI, SI, SIL), GPR(5, RDI, EDI, DI, DIL), GPR(6, RBP, EBP, BP, BPL),
	GPR(7, RSP, ESP, SP, SPL), GPR(8, R8, R8D, R8W, R8B), GPR(9, R9, R9D, R9W, R9B),
	GPR(10, R10, R10D, R10W, R10B), GPR(11, R11, R11D, R11W, R11B),
	GPR(12, R12, R12D, R12W, R12B), GPR(13, R13, R13D, R13W, R13B),
	GPR(14, R14, R14D, R14W, R14B), GPR(15, R15, R15D, R15W, R15B),
	[X86_REG_RIP] = HM_REG_IP + 1 + DW_FULL, [X86_REG_EIP] = HM_REG_IP + 1 + DW_FULL,
};

/* The DWARF number of capstone register r (any width of a general
 * register; RIP and EIP are HM_REG_IP), or HM_REG_NONE; *full: r is the
 * whole 64-bit register.  A table: every operand of every instruction
 * decoded asks. */
static int dwreg(unsigned r, int *full)
{
	unsigned v = r < X86_REG_ENDING ? dw_of[r] : 0;

	if (full)
		*full = (v & DW_FULL) != 0;
	v &= ~(unsigned)DW_FULL;
	return v ? (int)v - 1 : HM_REG_NONE;
}

const char *insn_arch_reg_name(int reg)
{
	static const char *const names[HM_NR_REGS] = {
		"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8", "r9",
		"r10", "r11", "r12", "r13", "r14", "r15", "rip",
	};

	return reg >= 0 && reg < HM_NR_REGS ? names[reg] : "?";
}

static void reg_bits(const cs_regs r, uint8_t n, uint32_t *bits)
{
	uint8_t i;

	for (i = 0; i < n; i++) {
		int d = dwreg(r[i], NULL);

		if (d >= 0)
			*bits |= 1u << d;
	}
}

static int in_group(const cs_insn *ci, unsigned g)
{
	uint8_t i;

	for (i = 0; i < ci->detail->groups_count; i++)
		if (ci->detail->groups[i] == g)
			return 1;
	return 0;
}

/* What tracking needs of the few instructions it models. */
static void classify(const cs_insn *ci, struct hm_insn *o)
{
	const cs_x86 *x = &ci->detail->x86;
	const cs_x86_op *op = x->operands;
	int f0 = 0, f1 = 0;

	o->op = HM_OP_OTHER;
	o->dst = o->src = HM_REG_NONE;
	o->irq_on = ci->id == X86_INS_STI || ci->id == X86_INS_POPF || ci->id == X86_INS_POPFQ;
	if (in_group(ci, X86_GRP_JUMP)) {
		o->jump = 1;
		o->cond = ci->id != X86_INS_JMP && ci->id != X86_INS_LJMP;
		if (x->op_count == 1 && op[0].type == X86_OP_IMM)
			o->imm = op[0].imm;
		return;
	}
	switch (ci->id) {
	case X86_INS_CALL:
		o->op = HM_OP_CALL;
		if (x->op_count == 1 && op[0].type == X86_OP_IMM)
			o->imm = op[0].imm;	/* the target, for insn_call_keeps() */
		return;
	case X86_INS_RET:
		o->op = HM_OP_RET;
		return;
	case X86_INS_PUSH:
		o->op = HM_OP_PUSH;
		return;
	case X86_INS_POP:
		if (x->op_count == 1 && op[0].type == X86_OP_REG)
			o->dst = (int8_t)dwreg(op[0].reg, &f0);
		o->op = HM_OP_POP;
		return;
	}
	if (ci->id == X86_INS_MOV && x->op_count == 2 && op[0].type == X86_OP_MEM &&
	    op[0].size == 8 && op[1].type == X86_OP_REG) {
		o->src = (int8_t)dwreg(op[1].reg, &f1);
		if (o->src >= 0 && o->src < HM_REG_IP && f1)
			o->op = HM_OP_STORE;
		else
			o->src = HM_REG_NONE;
		return;
	}
	if (ci->id == X86_INS_CDQE) {
		o->op = HM_OP_EXTEND;
		o->dst = o->src = 0;
		return;
	}
	if (ci->id == X86_INS_IMUL && x->op_count == 3 && op[0].type == X86_OP_REG &&
	    op[1].type == X86_OP_REG && op[2].type == X86_OP_IMM) {
		o->dst = (int8_t)dwreg(op[0].reg, &f0);
		o->src = (int8_t)dwreg(op[1].reg, &f1);
		o->imm = op[2].imm;
		if (o->dst >= 0 && o->dst < HM_REG_IP && f0 && o->src >= 0 && o->src < HM_REG_IP)
			o->op = HM_OP_MUL_IMM;
		else
			o->dst = o->src = HM_REG_NONE;
		return;
	}
	if (x->op_count != 2 || op[0].type != X86_OP_REG)
		return;
	/* movslq %esi,%rsi; mov %esi,%esi; movzx: an index widened */
	if ((ci->id == X86_INS_MOVSXD || ci->id == X86_INS_MOVZX || ci->id == X86_INS_MOV) &&
	    op[1].type == X86_OP_REG && op[0].size >= 4) {
		int d = dwreg(op[0].reg, &f0), s = dwreg(op[1].reg, &f1);

		if (d >= 0 && d < HM_REG_IP && s >= 0 && s < HM_REG_IP && !(f0 && f1)) {
			o->op = HM_OP_EXTEND;
			o->dst = (int8_t)d;
			o->src = (int8_t)s;
			return;
		}
	}
	o->dst = (int8_t)dwreg(op[0].reg, &f0);
	if (o->dst < 0 || o->dst == HM_REG_IP || !f0) {
		o->dst = HM_REG_NONE;
		return;
	}
	switch (ci->id) {
	case X86_INS_MOV:
	case X86_INS_MOVABS:
		if (op[1].type == X86_OP_REG) {
			o->src = (int8_t)dwreg(op[1].reg, &f1);
			if (o->src >= 0 && f1)
				o->op = HM_OP_MOV_RR;
		} else if (op[1].type == X86_OP_MEM && op[1].size == 8) {
			o->op = HM_OP_LOAD;
		} else if (op[1].type == X86_OP_IMM) {
			o->op = HM_OP_MOV_IMM;
			o->imm = op[1].imm;
		}
		break;
	case X86_INS_LEA:
		if (op[1].type == X86_OP_MEM && (op[1].mem.base != X86_REG_INVALID ||
						 op[1].mem.index != X86_REG_INVALID)) {
			o->op = HM_OP_LEA;
		} else if (op[1].type == X86_OP_MEM && op[1].mem.segment == X86_REG_INVALID) {
			/* an absolute operand: the constant itself; gcc writes a
			 * local-exec TLS offset so (lea -0x10,%rdx; then
			 * add %rax,%fs:(%rdx)) */
			o->op = HM_OP_MOV_IMM;
			o->imm = op[1].mem.disp;
		}
		break;
	case X86_INS_SHL:
		if (op[1].type == X86_OP_IMM && op[1].imm >= 0 && op[1].imm < 32) {
			o->op = HM_OP_SHL_IMM;
			o->imm = op[1].imm;
		}
		break;
	case X86_INS_ADD:
	case X86_INS_SUB:
		if (op[1].type == X86_OP_IMM) {
			o->op = HM_OP_ADD_IMM;
			o->imm = ci->id == X86_INS_SUB ? -op[1].imm : op[1].imm;
		} else if (ci->id == X86_INS_ADD && op[1].type == X86_OP_REG) {
			o->src = (int8_t)dwreg(op[1].reg, &f1);
			if (o->src >= 0 && o->src < HM_REG_IP && f1)
				o->op = HM_OP_ADD_RR;
			else
				o->src = HM_REG_NONE;
		} else if (ci->id == X86_INS_ADD && op[1].type == X86_OP_MEM && op[1].size == 8) {
			o->op = HM_OP_ADD_LOAD;
		}
		break;
	}
}

int insn_arch_decode(struct insn_arch *a, const uint8_t *bytes, size_t n, uint64_t pc, int text,
		     struct hm_insn *o)
{
	const uint8_t *code = bytes;
	uint64_t addr = pc;
	size_t left = n;
	cs_insn *ci = a->ci;
	const cs_x86 *x;
	cs_regs rr, rw;
	uint8_t nr = 0, nw = 0, i;

	memset(o, 0, text ? sizeof(*o) : HM_INSN_CORE);
	o->mem.base = o->mem.index = HM_REG_NONE;
	if (!a->cs->disasm_iter(a->h, &code, &left, &addr, ci))
		return -EBADMSG;
	x = &ci->detail->x86;
	o->pc = pc;
	o->len = (uint8_t)ci->size;
	o->id = ci->id;
	if (text) {
		cs_insn *t = NULL;

		memcpy(o->bytes, ci->bytes,
		       ci->size < sizeof(o->bytes) ? ci->size : sizeof(o->bytes));
		if (a->cs->disasm(a->att, bytes, n, pc, 1, &t) == 1)
			snprintf(o->text, sizeof(o->text), "%s%s%s", t->mnemonic,
				 t->op_str[0] ? " " : "", t->op_str);
		if (t)
			a->cs->free(t, 1);
	}
	o->lock = x->prefix[0] == X86_PREFIX_LOCK;
	for (i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];

		/* lea computes an address and accesses nothing (its operand
		 * is kept for tracking, has_mem clear); nop has memory
		 * operands it never touches. */
		if (op->type != X86_OP_MEM || ci->id == X86_INS_NOP)
			continue;
		o->has_mem = ci->id != X86_INS_LEA;
		o->mem.base = (int8_t)dwreg(op->mem.base, NULL);
		o->mem.index = (int8_t)dwreg(op->mem.index, NULL);
		o->mem.scale = (uint8_t)op->mem.scale;
		o->mem.disp = op->mem.disp;
		o->mem.size = op->size;
		o->mem.access = (uint8_t)(((op->access & CS_AC_READ) ? HM_ACC_READ : 0) |
					  ((op->access & CS_AC_WRITE) ? HM_ACC_WRITE : 0));
		/* a lock prefix is valid only on a read-modify-write of
		 * memory, and cmpxchg writes its operand back even when the
		 * compare fails (capstone marks its operand read only) */
		if (o->lock || ci->id == X86_INS_CMPXCHG || ci->id == X86_INS_CMPXCHG8B ||
		    ci->id == X86_INS_CMPXCHG16B || ci->id == X86_INS_XADD || ci->id == X86_INS_XCHG)
			o->mem.access = HM_ACC_READ | HM_ACC_WRITE;
		if (op->mem.segment == X86_REG_FS)
			o->mem.seg = HM_SEG_FS;
		else if (op->mem.segment == X86_REG_GS)
			o->mem.seg = HM_SEG_GS;
		if (o->mem.base == HM_REG_IP)
			o->mem.abs = pc + ci->size + (uint64_t)op->mem.disp;
		break;
	}
	if (a->cs->regs_access(a->h, ci, rr, &nr, rw, &nw) == CS_ERR_OK) {
		reg_bits(rr, nr, &o->regs_read);
		reg_bits(rw, nw, &o->regs_written);
	}
	classify(ci, o);
	return 0;
}
