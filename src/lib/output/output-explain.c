/* `hitmap report --explain IP`: how one instruction address resolves by
 * instruction, step by step, under both readings of a sample IP. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hitmap/attribute.h"
#include "attr/attribute-lib.h"
#include "dwarf/dwarf-scope.h"
#include "insn/insn.h"
#include "heat/heat-lib.h"
#include "base/diag.h"

static void print_mem(FILE *out, const struct hm_insn *in)
{
	const struct hm_insn_mem *m = &in->mem;
	static const char *const segs[] = { "", "%fs:", "%gs:" };

	fprintf(out, "  memory operand: %s", segs[m->seg]);
	if (m->base == HM_REG_IP)
		fprintf(out, "%s0x%" PRIx64 "(%%rip) = 0x%" PRIx64, m->disp < 0 ? "-" : "",
			m->disp < 0 ? -(uint64_t)m->disp : (uint64_t)m->disp, m->abs);
	else {
		if (m->disp)
			fprintf(out, "%s0x%" PRIx64, m->disp < 0 ? "-" : "",
				m->disp < 0 ? -(uint64_t)m->disp : (uint64_t)m->disp);
		if (m->base >= 0 || m->index >= 0) {
			fprintf(out, "(%s%s", m->base >= 0 ? "%" : "",
				m->base >= 0 ? hm_insn_reg_name(m->base) : "");
			if (m->index >= 0)
				fprintf(out, ",%%%s,%u", hm_insn_reg_name(m->index), m->scale);
			fputc(')', out);
		}
	}
	fprintf(out, ", %u bytes, %s%s\n", m->size,
		m->access == (HM_ACC_READ | HM_ACC_WRITE) ? "read-modify-write"
		: m->access & HM_ACC_WRITE ? "write" : "read",
		in->lock ? ", lock prefix" : "");
}

static void print_track(FILE *out, hm_insn_ctx *insn, const struct insn_res *r)
{
	const struct hm_tval *v = &r->track;
	const char *base = hm_insn_reg_name(r->insn.mem.base);
	unsigned i;

	if (r->insn.mem.base < 0 || r->insn.mem.base == HM_REG_IP) {
		if (r->insn.mem.seg)
			fprintf(out, "  base register: none (an offset from the %s)\n",
				r->insn.mem.seg == HM_SEG_FS ? "thread pointer" : "CPU's per-cpu base");
		return;
	}
	switch (v->kind) {
	case HM_TV_CONST:
		fprintf(out, "  base register: %%%s = the constant %#" PRIx64 ", tracked through\n",
			base, (uint64_t)v->off);
		break;
	case HM_TV_ADDR:
		fprintf(out, "  base register: %%%s = the address 0x%" PRIx64 " %+" PRId64
			", tracked through\n", base, v->abs, v->off);
		break;
	case HM_TV_MEM:
		/* a GOT slot only when its relocation says so (the TLS path) */
		fprintf(out, "  base register: %%%s = the 8 bytes loaded from 0x%" PRIx64 " %+" PRId64
			", tracked through\n", base, v->abs, v->off);
		break;
	case HM_TV_TP:
		fprintf(out, "  base register: %%%s = the thread pointer (%%fs:0) %+" PRId64
			", tracked through\n", base, v->off);
		break;
	case HM_TV_PCPU:
		fprintf(out, "  base register: %%%s = this CPU's per-cpu offset (%%gs:0x%" PRIx64
			") %+" PRId64 ", tracked through\n", base, v->abs, v->off);
		break;
	case HM_TV_TLSGET:
		fprintf(out, "  base register: %%%s = __tls_get_addr(0x%" PRIx64 ") %+" PRId64
			", tracked through\n", base, v->abs, v->off);
		break;
	case HM_TV_VAR:
		fprintf(out, "  base register: %%%s = %s %+" PRId64 "%s\n", base, v->var.name, v->off,
			v->nsteps ? ", tracked through" : " (its location at the access)");
		break;
	case HM_TV_REG:
		fprintf(out, "  base register: %%%s = %%%s", base, hm_insn_reg_name(v->reg));
		if (v->at)
			fprintf(out, " at 0x%" PRIx64, v->at);
		else
			fputs(" at the function's entry", out);
		fprintf(out, " %+" PRId64 "%s\n", v->off, v->nsteps ? ", tracked through" : "");
		break;
	case HM_TV_SLOT:
		fprintf(out, "  base register: %%%s = the stack slot CFA%+" PRId64 " loaded at 0x%" PRIx64
			" %+" PRId64 ", tracked through\n", base, v->slot, v->at, v->off);
		break;
	case HM_TV_STACK:
		fprintf(out, "  base register: %%%s = the frame address CFA%+" PRId64 "\n", base, v->off);
		return;
	default:
		fprintf(out, "  base register: %%%s: not tracked (a write tracking does not model)\n",
			base);
		return;
	}
	for (i = 0; i < v->nsteps; i++) {
		struct hm_insn s;

		if (insn && !hm_insn_decode(insn, v->steps[i], &s))
			fprintf(out, "    0x%" PRIx64 ": %s\n", s.pc, s.text);
	}
}

static void explain_one(FILE *out, hm_attr *a, const void *b, uint64_t pc, int trap)
{
	static const char *const kinds[] = { "in register", "at breg", "at fbreg", "at address" };
	const struct insn_res *r = hmi_attr_insn_at(a, b, pc, trap);
	unsigned i;

	fprintf(out, "rule %s: %s\n", trap ? "trap-after" : "access",
		trap ? "the IP is the instruction after the access (data breakpoint)"
		     : "the IP is the access (page fault, PEBS, IBS, SPE)");
	if (!r) {
		fprintf(out, "  out of memory\n");
		return;
	}
	if (r->decoded) {
		fprintf(out, "  instruction: 0x%" PRIx64 ":", r->insn.pc);
		for (i = 0; i < r->insn.len; i++)
			fprintf(out, " %02x", r->insn.bytes[i]);
		fprintf(out, "  %s\n", r->insn.text);
		if (r->from_kcore || r->poked)
			fprintf(out, "  bytes: %s\n", r->from_kcore ? "the kcore copy's (the text that ran)"
				: "a TEXT_POKE record's");
		if (r->insn.has_mem)
			print_mem(out, &r->insn);
		else
			fprintf(out, "  memory operand: none\n");
		if (r->insn.has_mem && r->bucket != HM_UNATTR_NO_MEMOP)
			print_track(out, hmi_attr_bin_insn(b), r);
	}
	if (r->var && r->named && !r->stack && r->seg_off == UINT64_MAX)
		fprintf(out, "  variable: %s, in another file's TLS image\n", r->object);
	else if (r->var && (r->bucket == HM_ATTR_TLS || r->bucket == HM_ATTR_PERCPU ||
			    (r->named && !r->stack)))
		fprintf(out, "  variable: %s, %s 0x%" PRIx64 "\n", r->object,
			r->insn.mem.seg == HM_SEG_GS || r->bucket == HM_ATTR_PERCPU
			? "at per-cpu offset" : "at TLS image offset", r->seg_off);
	else if (r->var && r->var_kind == HM_TVAR_LOADED)
		fprintf(out, "  variable: %s%s%s, a pointer loaded from memory at 0x%" PRIx64 "\n",
			r->func ? r->func : "", r->func ? ":" : "", r->var, r->var_pc);
	else if (r->var)
		fprintf(out, "  variable: %s%s%s, %s %s%s%+" PRId64 " at 0x%" PRIx64 "\n",
			r->func ? r->func : "", r->func ? ":" : "", r->var,
			r->var_kind >= 0 && r->var_kind < 4 ? kinds[r->var_kind] : "?",
			r->var_reg >= 0 ? "%" : "", r->var_reg >= 0 ? hm_insn_reg_name(r->var_reg) : "",
			r->var_off, r->var_pc);
	if (r->elem)
		fprintf(out, "  type: struct %s * (%" PRIu64 " bytes), its member array %s "
			"(offset %" PRIu64 ", %" PRIu64 " bytes) of struct %s\n", r->outer,
			r->outer_size, r->outer_path, r->outer_foff, r->outer_fsize, r->sname);
	if (r->elem)
		fprintf(out, "  element: struct %s (%" PRIu64 " bytes), offset %" PRId64 "; an "
			"access at a page's first byte that may begin on the page before names "
			"%s.%s of an unknown instance\n", r->sname, r->ssize, r->off, r->outer,
			r->outer_path);
	else if (r->sname && r->named && !r->stack)
		fprintf(out, "  type: %s%s (%" PRIu64 " bytes), offset %" PRId64 "\n",
			r->kind == HM_PROFILE_STRUCT ? "the struct " : "the variable ", r->sname,
			r->ssize, r->off);
	else if (r->sname)
		fprintf(out, "  type: %s%s%s (%" PRIu64 " bytes), offset %" PRId64 "\n",
			r->stack ? "the struct " : "struct ", r->sname, r->stack ? " itself" : " *",
			r->ssize, r->off);
	if (r->track.stride && (r->indexed || r->bucket == HM_UNATTR_INDEX))
		fprintf(out, "  index: an unknown multiple of %" PRIu64 " bytes%s\n", r->track.stride,
			r->indexed ? ", whole elements: the offset is taken modulo the element"
				   : ", not whole elements");
	if (r->bucket == HM_ATTR_INSN || r->bucket == HM_ATTR_TLS || r->bucket == HM_ATTR_PERCPU)
		fprintf(out, "  field: %s%s%s (offset %" PRIu64 ", %" PRIu64 " bytes)%s\n",
			r->named ? r->object : r->sname, r->path[0] ? "." : "", r->path, r->foff,
			r->fsize, r->bucket == HM_ATTR_TLS ? ", strategy tls"
			: r->bucket == HM_ATTR_PERCPU ? ", strategy per-cpu" : "");
	else
		fprintf(out, "  unattributed: %s\n", hmi_attr_bucket_name(r->bucket));
}

/* The sampled-register rule at pc: which instruction a timer sample there
 * means, why, and how its address comes from the registers. */
static void explain_regs(FILE *out, hm_insn_ctx *insn, uint64_t pc, int kernel)
{
	static const char *const why[] = {
		[HM_RW_PREV] = "the previous instruction retired last and wrote neither "
			       "its base nor its index: its address from the sampled "
			       "registers is exact",
		[HM_RW_AT_IP] = "the instruction at the IP has not run: its address from "
				"the sampled registers is exact",
		[HM_RW_NO_INSN] = "no instruction at the IP",
		[HM_RW_CLOBBERED] = "the previous instruction wrote its own base or index",
		[HM_RW_SEGMENT] = "a %fs/%gs operand: no segment base is sampled",
		[HM_RW_BRANCH_TARGET] = "the IP is a branch target or follows a jump, call or "
					"ret: the instruction that ran last is not known",
		[HM_RW_NO_MEMOP] = "no memory operand",
		[HM_RW_IRQ_DEFERRED] = "a kernel sample deferred to an irq-enable point",
		[HM_RW_NO_REGS] = "a register the operand uses was not sampled",
	};
	struct hm_regs_rule r;
	struct hm_insn in;
	const struct hm_insn_mem *m = &r.mem;

	fprintf(out, "rule sampled-registers: the IP is the next instruction to run (timer "
		"interrupt)\n");
	if (!insn || hm_insn_regs_rule(insn, pc, kernel, &r)) {
		fprintf(out, "  no instruction decoder\n");
		return;
	}
	if (r.prev && !hm_insn_decode(insn, r.prev, &in))
		fprintf(out, "  previous instruction: 0x%" PRIx64 ": %s\n", in.pc, in.text);
	else
		fprintf(out, "  previous instruction: unknown\n");
	if (r.passed)
		fprintf(out, "  previous not taken: %s (%s)\n", hm_regs_why_name(r.passed),
			why[r.passed]);
	if (r.why != HM_RW_PREV && r.why != HM_RW_AT_IP) {
		fprintf(out, "  unattributed: %s (%s)\n",
			hmi_attr_regs_bucket_name(r.why), why[r.why]);
		return;
	}
	if (!hm_insn_decode(insn, r.pc, &in))
		fprintf(out, "  chosen: %s, 0x%" PRIx64 ": %s\n", hm_regs_why_name(r.why), in.pc,
			in.text);
	fprintf(out, "  why: %s\n", why[r.why]);
	if (m->base == HM_REG_IP) {
		fprintf(out, "  registers used: none (RIP-relative)\n");
		fprintf(out, "  address = 0x%" PRIx64 " + the load bias\n", m->abs);
		return;
	}
	fprintf(out, "  registers used:%s%s%s%s%s\n", m->base >= 0 ? " %" : "",
		m->base >= 0 ? hm_insn_reg_name(m->base) : "", m->index >= 0 ? " %" : "",
		m->index >= 0 ? hm_insn_reg_name(m->index) : "",
		m->base < 0 && m->index < 0 ? " none" : "");
	fprintf(out, "  address = ");
	if (m->base >= 0)
		fprintf(out, "%%%s", hm_insn_reg_name(m->base));
	if (m->index >= 0)
		fprintf(out, "%s%%%s*%u", m->base >= 0 ? " + " : "", hm_insn_reg_name(m->index),
			m->scale);
	fprintf(out, " %s 0x%" PRIx64 ", from each sample's registers\n", m->disp < 0 ? "-" : "+",
		m->disp < 0 ? -(uint64_t)m->disp : (uint64_t)m->disp);
	fprintf(out, "  access: %s; verdicts from such accesses: %u ms windows in which "
		"threads on two CPUs access a line and one writes\n",
		m->access == (HM_ACC_READ | HM_ACC_WRITE) ? "read-modify-write"
		: m->access & HM_ACC_WRITE ? "write" : "read", HEAT_WINDOW_NS / 1000000);
}

int hm_attr_explain(FILE *out, hm_attr *a, const char *where)
{
	const void *b;
	char label[400];
	uint64_t pc;
	int err;

	err = hmi_attr_explain_site(a, where, &b, &pc);
	if (err)
		return err;
	fprintf(out, "%s: 0x%" PRIx64, hmi_attr_bin_path(b), pc);
	hmi_attr_code_label(a, b, pc, pc, label, sizeof(label));
	fprintf(out, " %s\n", label);
	explain_one(out, a, b, pc, 0);
	explain_one(out, a, b, pc, 1);
	explain_regs(out, hmi_attr_bin_insn(b), pc, hmi_attr_bin_kernel(a, b));
	return ferror(out) ? -EIO : 0;
}
