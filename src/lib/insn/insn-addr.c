/* Which instruction a timer sample means, and its data address from the
 * sampled registers (the rule is stated in insn.h and hitmap(1)).  The
 * choice depends on the bytes alone, so it is made once per IP; the
 * address is computed per sample from its registers. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "insn/insn.h"
#include "base/util.h"

/* A direct jump of a function: its target and where it is. */
struct jump_edge {
	uint64_t to, from;
};

/* The direct jumps of one function, sorted by target. */
struct fn_targets {
	uint64_t start;
	struct jump_edge *v;
	size_t n;
};

/* A memo entry: the rule at key (a sample's pc). */
struct rule_ent {
	uint64_t key;
	struct hm_regs_rule r;	/* why 0: a free slot */
};

struct insn_regs {
	struct rule_ent *rules;	/* open addressing by key */
	size_t mask, n;
	struct fn_targets *fns;
	size_t nfns, cfns;
};

void insn_regs_free(struct insn_regs *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nfns; i++)
		free(m->fns[i].v);
	free(m->fns);
	free(m->rules);
	free(m);
}

const char *hm_regs_why_name(int why)
{
	static const char *const names[] = {
		"?", "previous", "at-ip", "no-insn", "regs-clobbered", "segment-base-unknown",
		"branch-target", "no-mem-operand", "irq-deferred", "regs-missing",
		"patched-text",
	};

	return why > 0 && why <= HM_RW_PATCHED ? names[why] : "?";
}

uint32_t hm_insn_regs_from_perf(uint64_t mask, const uint64_t *v, unsigned n,
				uint64_t regs[HM_NR_REGS])
{
	/* enum perf_event_x86_regs: AX BX CX DX SI DI BP SP IP (0-8), R8-R15
	 * at 16-23; DWARF: rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip */
	static const int8_t dw[24] = {
		0, 3, 2, 1, 4, 5, 6, 7, HM_REG_IP, -1, -1, -1, -1, -1, -1, -1,
		8, 9, 10, 11, 12, 13, 14, 15,
	};
	uint32_t have = 0;
	unsigned bit, k;

	/* once per sample: visit the mask's set bits only, and none past
	 * R15 (the XMM registers after it are no address's) */
	for (k = 0; mask && k < n; mask &= mask - 1, k++) {
		bit = (unsigned)__builtin_ctzll(mask);
		if (bit >= 24)
			break;
		if (dw[bit] >= 0) {
			regs[dw[bit]] = v[k];
			have |= 1u << dw[bit];
		}
	}
	return have;
}

int hm_insn_regs_ea(const struct hm_insn_mem *m, uint64_t bias, const uint64_t *regs,
		    uint32_t have, uint64_t *addr)
{
	uint64_t a = (uint64_t)m->disp;

	if (m->base == HM_REG_IP) {
		*addr = m->abs + bias;
		return 0;
	}
	if (m->base >= 0) {
		if (m->base >= HM_NR_REGS || !((have >> m->base) & 1))
			return -ENOENT;
		a += regs[m->base];
	}
	if (m->index >= 0) {
		if (m->index >= HM_NR_REGS || !((have >> m->index) & 1))
			return -ENOENT;
		a += regs[m->index] * (m->scale ? m->scale : 1);
	}
	*addr = a;
	return 0;
}

static int cmp_edge(const void *x, const void *y)
{
	const struct jump_edge *a = x, *b = y;

	if (a->to != b->to)
		return a->to < b->to ? -1 : 1;
	return a->from < b->from ? -1 : a->from > b->from;
}

/* The direct jump targets of the function f (walked once), or NULL on
 * ENOMEM.  A walk that stops early (bytes that do not decode) keeps what it
 * found. */
static const struct fn_targets *targets_of(hm_insn_ctx *c, struct insn_regs *m,
					   const hm_symbol *f)
{
	struct fn_targets *t;
	struct insn_cursor k;
	struct hm_insn in;
	size_t i, cap = 0;

	for (i = 0; i < m->nfns; i++)
		if (m->fns[i].start == f->addr)
			return &m->fns[i];
	if (hm_grow((void **)&m->fns, &m->cfns, m->nfns + 1, sizeof(*m->fns)))
		return NULL;
	t = &m->fns[m->nfns];
	*t = (struct fn_targets){ .start = f->addr };
	if (insn_cursor_start(c, f->addr, &k))
		return NULL;
	while (k.pc < f->addr + f->size && !insn_cursor_next(c, &k, &in)) {
		if (!in.jump || !in.imm)
			continue;
		if (hm_grow((void **)&t->v, &cap, t->n + 1, sizeof(*t->v))) {
			free(t->v);
			return NULL;
		}
		t->v[t->n++] = (struct jump_edge){ .to = (uint64_t)in.imm, .from = in.pc };
	}
	if (t->n)	/* qsort may not be given NULL, even for no elements */
		qsort(t->v, t->n, sizeof(*t->v), cmp_edge);
	m->nfns++;
	return t;
}

/* How many direct jumps of the function go to pc; *from: the first's. */
static size_t jumps_to(const struct fn_targets *t, uint64_t pc, uint64_t *from)
{
	size_t lo = 0, hi = t->n, n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->v[mid].to < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (n = 0; lo + n < t->n && t->v[lo + n].to == pc; n++)
		;
	if (n && from)
		*from = t->v[lo].from;
	return n;
}

static int is_target(const struct fn_targets *t, uint64_t pc)
{
	return jumps_to(t, pc, NULL) > 0;
}

/* Whether a kernel function enables interrupts: the paravirt and native
 * irq-enable helpers, and the restore of saved flags. */
static int irq_enable_fn(const char *name)
{
	return strstr(name, "irq_enable") || strstr(name, "irq_restore") ||
	       !strcmp(name, "native_sti");
}

/* An operand whose address the registers give: no segment override. */
static int usable(const struct hm_insn *in)
{
	return in->has_mem && in->mem.seg == HM_SEG_NONE;
}

/* in, passed over for its segment, as the rule's %fs candidate: a user
 * operand whose base and index still hold what it used (an instruction
 * that wrote them is none), as rule why.  A load of %fs:0 into a register
 * notes that register: it holds the thread pointer. */
static void seg_candidate(struct hm_regs_rule *r, const struct hm_insn *in, int why)
{
	const struct hm_insn_mem *m = &in->mem;

	if (!in->has_mem || m->seg != HM_SEG_FS || m->base == HM_REG_IP)
		return;
	if (why == HM_RW_PREV && m->base == HM_REG_NONE && m->index == HM_REG_NONE &&
	    !m->disp && in->op == HM_OP_LOAD && in->dst >= 0 && in->dst < HM_REG_IP)
		r->tp_reg = in->dst;
	if (why == HM_RW_PREV &&
	    ((m->base >= 0 && ((in->regs_written >> m->base) & 1)) ||
	     (m->index >= 0 && ((in->regs_written >> m->index) & 1))))
		return;
	r->seg_why = (uint8_t)why;
	r->seg_pc = in->pc;
	r->seg_mem = *m;
}

/* Whether in ends in the next instruction (no jmp, call or ret). */
static int falls_through(const struct hm_insn *in)
{
	return !(in->jump && !in->cond) && in->op != HM_OP_CALL && in->op != HM_OP_RET;
}

/* An instruction a sample may be stepped back over: it touches no memory
 * and writes no register (a conditional or direct jump, pause, cmp, test,
 * nop), so the registers sampled after it are those after the one before. */
static int transparent(const struct hm_insn *in)
{
	return !in->has_mem && !in->regs_written && !in->irq_on && in->op != HM_OP_CALL &&
	       in->op != HM_OP_RET && (!in->jump || in->imm);
}

/* The instruction that ran before cur in f, when one alone can have: the
 * one before it that falls through into it, cur being no jump's target;
 * or, cur being reached by no fall-through, the one direct jump to it. */
static int ran_before(hm_insn_ctx *c, const hm_symbol *f, const struct fn_targets *t,
		      const struct hm_insn *cur, struct hm_insn *out)
{
	struct hm_insn p;
	uint64_t from;
	int have_p;

	if (cur->pc <= f->addr || cur->pc >= f->addr + f->size)
		return 0;
	have_p = !hm_insn_prev(c, cur->pc, &p) && p.pc >= f->addr;
	switch (jumps_to(t, cur->pc, &from)) {
	case 0:
		if (!have_p || !falls_through(&p))
			return 0;
		*out = p;
		return 1;
	case 1:
		if (!have_p || falls_through(&p))
			return 0;
		return !hm_insn_decode(c, from, out);
	default:
		return 0;
	}
}

/* Rule 3: back over the transparent instructions before the IP (a spin
 * loop's pause, the jcc after a lock cmpxchg: under QEMU's TCG the timer
 * interrupt is taken where a translated block starts, after them) to the
 * memory instruction that ran before them, a few steps at most. */
static int step_back(hm_insn_ctx *c, const hm_symbol *f, const struct fn_targets *t,
		     const struct hm_insn *prev, struct hm_insn *out)
{
	struct hm_insn cur = *prev, p;

	for (int step = 0; step < 4 && transparent(&cur); step++) {
		if (!ran_before(c, f, t, &cur, &p))
			return 0;
		if (p.has_mem) {
			if (!usable(&p) ||
			    (p.mem.base >= 0 && p.mem.base < HM_REG_IP &&
			     ((p.regs_written >> p.mem.base) & 1)) ||
			    (p.mem.index >= 0 && ((p.regs_written >> p.mem.index) & 1)))
				return 0;
			*out = p;
			return 1;
		}
		cur = p;
	}
	return 0;
}

static void choose(hm_insn_ctx *c, struct insn_regs *m, uint64_t pc, int kernel,
		   struct hm_regs_rule *r)
{
	const hm_binary *syms = insn_ctx_syms(c);
	const hm_symbol *f = hm_binary_func_at(syms, pc), *g;
	const struct fn_targets *t;
	struct hm_insn at, prev, back;
	int have_at, have_prev, reason = 0;

	memset(r, 0, sizeof(*r));
	r->mem.base = r->mem.index = HM_REG_NONE;
	r->seg_mem.base = r->seg_mem.index = HM_REG_NONE;
	r->tp_reg = HM_REG_NONE;
	have_at = !hm_insn_decode(c, pc, &at);
	have_prev = !hm_insn_prev(c, pc, &prev);
	if (have_prev)
		r->prev = prev.pc;
	if (kernel && ((f && f->addr <= pc && irq_enable_fn(f->name)) ||
		       (have_prev && prev.irq_on) ||
		       (have_prev && prev.op == HM_OP_CALL && prev.imm &&
			(g = hm_binary_func_at(syms, (uint64_t)prev.imm)) &&
			g->addr == (uint64_t)prev.imm && irq_enable_fn(g->name)))) {
		r->why = HM_RW_IRQ_DEFERRED;
		return;
	}
	if (!have_at) {
		r->why = HM_RW_NO_INSN;
		return;
	}
	/* 1. the previous instruction, when it is the one that ran last */
	t = f && f->addr < pc ? targets_of(c, m, f) : NULL;
	if (!have_prev || !f || f->addr == pc)
		reason = HM_RW_BRANCH_TARGET;
	else if (t && is_target(t, pc))
		reason = HM_RW_BRANCH_TARGET;
	else if ((prev.jump && !prev.cond) || prev.op == HM_OP_CALL || prev.op == HM_OP_RET)
		reason = HM_RW_BRANCH_TARGET;
	else if (!prev.has_mem)
		reason = HM_RW_NO_MEMOP;
	else if ((prev.mem.base >= 0 && prev.mem.base < HM_REG_IP &&
		  ((prev.regs_written >> prev.mem.base) & 1)) ||
		 (prev.mem.index >= 0 && ((prev.regs_written >> prev.mem.index) & 1)))
		reason = prev.mem.seg != HM_SEG_NONE ? HM_RW_SEGMENT : HM_RW_CLOBBERED;
	else if (prev.mem.seg != HM_SEG_NONE)
		reason = HM_RW_SEGMENT;
	if (reason == HM_RW_SEGMENT)
		seg_candidate(r, &prev, HM_RW_PREV);
	if (!reason) {
		r->why = HM_RW_PREV;
		r->pc = prev.pc;
		r->mem = prev.mem;
		return;
	}
	r->passed = (uint8_t)reason;
	/* 2. the instruction at the IP */
	if (usable(&at)) {
		r->why = HM_RW_AT_IP;
		r->pc = at.pc;
		r->mem = at.mem;
		return;
	}
	/* 3. back over what neither touched memory nor wrote a register
	 * (kernel IPs: attribution by instruction types the instruction
	 * before the IP for this rule, which a user heap object needs, while
	 * the kernel's objects are found from the address) */
	if (kernel && reason == HM_RW_NO_MEMOP && t && step_back(c, f, t, &prev, &back)) {
		r->why = HM_RW_PREV;
		r->pc = back.pc;
		r->mem = back.mem;
		return;
	}
	/* 4. the first reason met */
	if (at.has_mem && !r->seg_why)
		seg_candidate(r, &at, HM_RW_AT_IP);
	if (reason == HM_RW_NO_MEMOP && at.has_mem)
		reason = HM_RW_SEGMENT;
	r->why = (uint8_t)reason;
}

static int regs_grow(struct insn_regs *m)
{
	size_t n = m->rules ? 2 * (m->mask + 1) : 256, i, j;
	struct rule_ent *v = calloc(n, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (i = 0; m->rules && i <= m->mask; i++) {
		if (!m->rules[i].r.why)
			continue;
		for (j = hm_hash_u64(m->rules[i].key) & (n - 1); v[j].r.why; j = (j + 1) & (n - 1))
			;
		v[j] = m->rules[i];
	}
	free(m->rules);
	m->rules = v;
	m->mask = n - 1;
	return 0;
}

int hm_insn_regs_rule(hm_insn_ctx *c, uint64_t pc, int kernel, struct hm_regs_rule *out)
{
	struct insn_regs **mp = insn_ctx_regs(c), *m = *mp;
	size_t j;

	if (!m && !(m = *mp = calloc(1, sizeof(*m))))
		return -ENOMEM;
	if (2 * (m->n + 1) > (m->rules ? m->mask + 1 : 0) && regs_grow(m))
		return -ENOMEM;
	for (j = hm_hash_u64(pc) & m->mask; m->rules[j].r.why; j = (j + 1) & m->mask)
		if (m->rules[j].key == pc) {
			*out = m->rules[j].r;
			return 0;
		}
	choose(c, m, pc, kernel, out);
	m->rules[j].key = pc;
	m->rules[j].r = *out;
	m->n++;
	return 0;
}
