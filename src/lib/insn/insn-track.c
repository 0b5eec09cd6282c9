/* Register tracking: the value in a register at an instruction, as a typed
 * variable, a register or stack slot read earlier, plus a constant (see
 * insn.h).
 *
 * A walk's state just before an instruction depends only on the function's
 * instructions before it and on what the typing function says of the
 * values read there: not on the register asked about, nor on where the walk
 * will stop.  So the last few walks are kept as they stand (struct walk,
 * in the context), and a question about the same function at the same or a
 * later instruction goes on from one of them instead of from the
 * function's start: attribution asks about several registers at one access
 * and about every sampled access of a function, each from its start, and
 * one function's accesses are often asked about in address order.  Typing
 * is asked about each read exactly as a walk from the start would ask, once
 * per walk that reaches it: a kept walk only skips reads a previous walk
 * already asked about. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "insn/insn.h"

#define SP 7
#define FP 6
#define NSLOTS 16	/* stack slots remembered: a frame's spilled pointers */
#define NWALKS 16	/* walks kept per context (some 7 KB each) */

struct slot {
	int64_t at;	/* CFA-relative */
	struct hm_tval v;
};

struct walk {
	hm_insn_ctx *c;
	hm_track_type_fn type;	/* also part of the key: typed walks differ */
	void *ctx;
	struct hm_tval st[HM_NR_REGS];
	struct slot slots[NSLOTS];
	unsigned nslots;
	/* kept walks: the state is the one just before the instruction at
	 * k.pc of the function starting at func (a boundary of the walk from
	 * func); used orders them for reuse */
	uint64_t func;
	struct insn_cursor k;
	uint64_t used;
	unsigned live : 1;
};

struct insn_walks {
	struct walk w[NWALKS];
	uint64_t clock;
};

/* Register arithmetic wraps, as the machine's does: constants from the
 * code (mov $imm, add $imm, displacements) may be anything. */
static int64_t wadd(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static void step(struct hm_tval *v, uint64_t pc)
{
	if (v->nsteps < HM_TRACK_STEPS) {
		v->steps[v->nsteps++] = pc;
		return;
	}
	memmove(v->steps, v->steps + 1, (HM_TRACK_STEPS - 1) * sizeof(v->steps[0]));
	v->steps[HM_TRACK_STEPS - 1] = pc;
}

/* Ask the typing function about v, read at pc: a typed variable replaces
 * it. */
static void type_it(struct walk *w, struct hm_tval *v)
{
	struct hm_tvar var;
	int64_t delta = 0;
	int r;

	if (!w->type)
		return;
	r = w->type(w->ctx, v, &var, &delta);
	if (r == 1) {
		v->kind = HM_TV_VAR;
		v->var = var;
		v->off = wadd(v->off, delta);
	} else if (r == 2) {
		v->untyped = 1;
	}
}

/* The value of register r read at pc: a live register becomes "r at pc". */
static struct hm_tval read_reg(struct walk *w, int r, uint64_t pc)
{
	struct hm_tval v = w->st[r];

	if (v.kind == HM_TV_REG && !v.at) {
		v.at = pc;
		type_it(w, &v);
		if (v.kind == HM_TV_VAR)
			w->st[r] = v;	/* typed once, kept */
	}
	return v;
}

static void forget(struct hm_tval *v)
{
	memset(v, 0, sizeof(*v));
}

uint64_t hm_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

uint64_t hm_tval_factor(const struct hm_tval *v)
{
	if (v->kind == HM_TV_UNKNOWN)
		return v->stride ? v->stride : 1;
	if (v->kind == HM_TV_CONST)
		return v->off < 0 ? -(uint64_t)v->off : (uint64_t)v->off;
	return 1;
}

/* Strides stay below 2^32: a larger one is no array element. */
static uint64_t cap(uint64_t m)
{
	return m >> 32 ? 1 : m;
}

/* A pointer kind: a base that an unknown multiple can be added to. */
static int is_base(const struct hm_tval *v)
{
	return v->kind != HM_TV_UNKNOWN && v->kind != HM_TV_CONST;
}

/* x + y where one is a base and the other an unknown multiple: the base
 * with that stride; two multiples: their common factor.  0 when neither. */
static int add_multiple(struct hm_tval *x, const struct hm_tval *y, struct hm_tval *out)
{
	if (is_base(x) && !is_base(y)) {
		*out = *x;
		out->stride = hm_gcd(x->stride, hm_tval_factor(y));
		return 1;
	}
	if (is_base(y) && !is_base(x)) {
		*out = *y;
		out->stride = hm_gcd(y->stride, hm_tval_factor(x));
		return 1;
	}
	if (!is_base(x) && !is_base(y)) {
		forget(out);
		out->stride = cap(hm_gcd(hm_tval_factor(x), hm_tval_factor(y)));
		return 1;
	}
	return 0;
}

/* The pointer loaded at pc from the memory operand of in, when its address
 * is a typed pointer or a global's (an index scaled into it allowed), typed
 * by what that memory is declared to hold: a VAR, or forgotten. */
static void deref(struct walk *w, const struct hm_insn *in, struct hm_tval *v)
{
	const struct hm_insn_mem *m = &in->mem;
	struct hm_tval b, ix, mul;

	forget(&b);
	if (m->seg || m->base == HM_REG_IP || m->index == HM_REG_IP) {
		forget(v);
		return;
	}
	if (m->base >= 0)
		b = read_reg(w, m->base, in->pc);
	else {
		b.kind = HM_TV_ADDR;	/* an absolute address: g(,%rX,8) */
		b.abs = (uint64_t)m->disp;
		b.off = -m->disp;
	}
	if (b.kind != HM_TV_VAR && b.kind != HM_TV_ADDR) {
		forget(v);
		return;
	}
	if (m->index >= 0) {
		ix = read_reg(w, m->index, in->pc);
		forget(&mul);
		mul.stride = cap(hm_tval_factor(&ix) * m->scale);
		if (!add_multiple(&b, &mul, &b)) {
			forget(v);
			return;
		}
	}
	*v = b;
	v->from = (int8_t)b.kind;
	v->kind = HM_TV_DEREF;
	v->off = wadd(b.off, m->disp);
	v->at = in->pc;
	type_it(w, v);
	if (v->kind != HM_TV_VAR) {
		forget(v);
		return;
	}
	v->stride = 0;	/* the pointer loaded, not the element's address */
	v->off = 0;
	v->untyped = 0;
	step(v, in->pc);
}

/* The CFA-relative address of a memory operand into the frame, or 0 with
 * *ok clear. */
static int64_t frame_addr(const struct walk *w, const struct hm_insn *in, int *ok)
{
	const struct hm_insn_mem *m = &in->mem;

	*ok = in->has_mem && m->index < 0 && m->base >= 0 && m->base < HM_REG_IP && !m->seg &&
	      w->st[m->base].kind == HM_TV_STACK;
	return *ok ? w->st[m->base].off + m->disp : 0;
}

static struct slot *slot_of(struct walk *w, int64_t at, int create)
{
	unsigned i;

	for (i = 0; i < w->nslots; i++)
		if (w->slots[i].at == at)
			return &w->slots[i];
	if (!create)
		return NULL;
	if (w->nslots == NSLOTS)
		memmove(w->slots, w->slots + 1, (NSLOTS - 1) * sizeof(w->slots[0]));
	else
		w->nslots++;
	w->slots[w->nslots - 1].at = at;
	return &w->slots[w->nslots - 1];
}

static void apply(struct walk *w, const struct hm_insn *in)
{
	static const int caller_saved[] = { 0, 1, 2, 4, 5, 8, 9, 10, 11 };
	struct hm_tval *st = w->st, v;
	struct slot *sl;
	int64_t fa;
	unsigned i;
	int r, ok;

	fa = frame_addr(w, in, &ok);
	/* Any other write into a remembered slot forgets it. */
	if (ok && (in->mem.access & HM_ACC_WRITE) && in->op != HM_OP_STORE &&
	    (sl = slot_of(w, fa, 0)))
		forget(&sl->v);
	switch (in->op) {
	case HM_OP_MOV_RR:
		v = read_reg(w, in->src, in->pc);
		step(&v, in->pc);
		st[in->dst] = v;
		return;
	case HM_OP_LEA:
		if (in->mem.index >= 0 && in->mem.index < HM_REG_IP) {
			/* base + index * scale + disp: an array element's
			 * address, or an index multiplied (lea (%r,%r,2)) */
			struct hm_tval b, ix = read_reg(w, in->mem.index, in->pc), m;

			forget(&m);
			m.stride = cap(hm_tval_factor(&ix) * (in->mem.scale +
					   (in->mem.base == in->mem.index)));
			if (in->mem.base >= 0 && in->mem.base < HM_REG_IP &&
			    in->mem.base != in->mem.index)
				b = read_reg(w, in->mem.base, in->pc);
			else {
				forget(&b);
				b.kind = HM_TV_CONST;
			}
			if (in->mem.base == HM_REG_IP || !add_multiple(&b, &m, &v)) {
				forget(&v);
			} else if (is_base(&v)) {
				v.off = wadd(v.off, in->mem.disp);
			} else {
				struct hm_tval d = { .kind = HM_TV_CONST, .off = in->mem.disp };

				v.stride = cap(hm_gcd(v.stride, hm_tval_factor(&d)));
			}
			if (v.kind != HM_TV_UNKNOWN || v.stride)
				step(&v, in->pc);
		} else if (in->mem.base >= 0 && in->mem.base < HM_REG_IP) {
			v = read_reg(w, in->mem.base, in->pc);
			v.off = wadd(v.off, in->mem.disp);
			step(&v, in->pc);
		} else if (in->mem.base == HM_REG_IP && !in->mem.seg) {
			forget(&v);
			v.kind = HM_TV_ADDR;
			v.abs = in->mem.abs;
			step(&v, in->pc);
		} else {
			forget(&v);
		}
		st[in->dst] = v;
		return;
	case HM_OP_MOV_IMM:
		forget(&v);
		v.kind = HM_TV_CONST;
		v.off = in->imm;
		step(&v, in->pc);
		st[in->dst] = v;
		return;
	case HM_OP_ADD_RR: {
		struct hm_tval x = read_reg(w, in->dst, in->pc), y = read_reg(w, in->src, in->pc);

		/* a known value plus a constant (per-cpu: the variable's
		 * offset plus this CPU's), or a pointer plus a scaled index */
		if (y.kind == HM_TV_CONST && x.kind != HM_TV_UNKNOWN) {
			x.off = wadd(x.off, y.off);
			v = x;
		} else if (x.kind == HM_TV_CONST && y.kind != HM_TV_UNKNOWN) {
			y.off = wadd(y.off, x.off);
			v = y;
		} else if (in->src == in->dst && !is_base(&x)) {
			forget(&v);	/* add %rax,%rax: twice the multiple */
			v.stride = cap(hm_tval_factor(&x) * 2);
		} else if (!add_multiple(&x, &y, &v)) {
			forget(&v);
		}
		if (v.kind != HM_TV_UNKNOWN || v.stride)
			step(&v, in->pc);
		st[in->dst] = v;
		return;
	}
	case HM_OP_SHL_IMM:
	case HM_OP_MUL_IMM:
	case HM_OP_EXTEND: {
		struct hm_tval x = read_reg(w, in->op == HM_OP_SHL_IMM ? in->dst : in->src, in->pc);
		uint64_t f = hm_tval_factor(&x);

		forget(&v);
		if (in->op == HM_OP_SHL_IMM)
			v.stride = cap(f << in->imm);
		else if (in->op == HM_OP_MUL_IMM)
			v.stride = cap(f * (in->imm < 0 ? -(uint64_t)in->imm : (uint64_t)in->imm));
		else
			v.stride = f & -f;	/* widening keeps the power of two */
		if (v.stride > 1)
			step(&v, in->pc);
		st[in->dst] = v;
		return;
	}
	case HM_OP_ADD_LOAD: {
		uint64_t at;

		v = read_reg(w, in->dst, in->pc);
		if (v.kind == HM_TV_CONST && in->mem.seg == HM_SEG_GS &&
		    hm_insn_mem_const(&in->mem, &at)) {
			v.kind = HM_TV_PCPU;	/* add %gs:this_cpu_off, %reg */
			v.abs = at;
			step(&v, in->pc);
		} else if (!is_base(&v) && !in->mem.seg && hm_insn_mem_const(&in->mem, &at)) {
			/* add g(%rip),%reg: a global pointer plus a scaled
			 * index (slots[i]) */
			struct hm_tval p;

			forget(&p);
			p.kind = HM_TV_MEM;
			p.abs = at;
			p.at = in->pc;
			type_it(w, &p);
			if (p.kind == HM_TV_VAR && add_multiple(&p, &v, &p)) {
				v = p;
				step(&v, in->pc);
			}
			else
				forget(&v);
		} else {
			forget(&v);
		}
		st[in->dst] = v;
		return;
	}
	case HM_OP_ADD_IMM:
		v = read_reg(w, in->dst, in->pc);
		if (v.kind != HM_TV_UNKNOWN) {
			v.off = wadd(v.off, in->imm);
			step(&v, in->pc);
		}
		st[in->dst] = v;
		return;
	case HM_OP_STORE:
		if (ok) {
			v = read_reg(w, in->src, in->pc);
			step(&v, in->pc);
			slot_of(w, fa, 1)->v = v;
		}
		return;
	case HM_OP_LOAD:
		forget(&v);
		if (!ok && hm_insn_mem_const(&in->mem, &v.abs)) {
			/* a GOT slot (IE TLS), the thread pointer (%fs:0),
			 * this CPU's per-cpu offset (%gs:this_cpu_off) */
			if (!in->mem.seg)
				v.kind = HM_TV_MEM;
			else if (in->mem.seg == HM_SEG_FS && !v.abs)
				v.kind = HM_TV_TP;
			else if (in->mem.seg == HM_SEG_GS)
				v.kind = HM_TV_PCPU;
			if (v.kind == HM_TV_TP)
				v.abs = 0;
			/* a global declared a pointer to a record */
			if (v.kind == HM_TV_MEM) {
				v.at = in->pc;
				type_it(w, &v);
				if (v.kind != HM_TV_VAR)
					v.at = 0;
			}
			if (v.kind != HM_TV_UNKNOWN)
				step(&v, in->pc);
		} else if (ok) {
			v.kind = HM_TV_SLOT;
			v.slot = fa;
			v.slot_base = in->mem.base;
			v.slot_disp = in->mem.disp;
			v.at = in->pc;
			if (st[FP].kind == HM_TV_STACK) {
				v.fb_known = 1;
				v.fb_off = st[FP].off;
			}
			type_it(w, &v);
			/* Untyped there: what was stored in the slot, if known
			 * (a pointer spilled at -O0, reloaded to be used). */
			sl = slot_of(w, fa, 0);
			if (v.kind != HM_TV_VAR && sl && sl->v.kind != HM_TV_UNKNOWN) {
				unsigned untyped = v.untyped;

				v = sl->v;
				v.untyped |= untyped;
			}
			step(&v, in->pc);
		} else {
			deref(w, in, &v);
		}
		st[in->dst] = v;
		return;
	case HM_OP_PUSH:
		if (st[SP].kind == HM_TV_STACK)
			st[SP].off -= 8;
		return;
	case HM_OP_POP:
		if (in->dst >= 0 && in->dst < HM_REG_IP)
			forget(&st[in->dst]);
		if (st[SP].kind == HM_TV_STACK)
			st[SP].off += 8;
		return;
	case HM_OP_CALL:
		if (hm_insn_call_keeps(w->c, in))
			return;
		v = st[5];
		for (i = 0; i < sizeof(caller_saved) / sizeof(caller_saved[0]); i++)
			forget(&st[caller_saved[i]]);
		/* __tls_get_addr(&pair): the caller decides whether the
		 * address is a TLS GOT pair (its relocations) */
		if (v.kind == HM_TV_ADDR) {
			v.kind = HM_TV_TLSGET;
			v.abs += (uint64_t)v.off;
			v.off = 0;
			step(&v, in->pc);
			st[0] = v;
		}
		return;
	default:
		for (r = 0; r < HM_REG_IP; r++)
			if (in->regs_written & (1u << r))
				forget(&st[r]);
		return;
	}
}

void insn_walks_free(struct insn_walks *ws)
{
	free(ws);
}

/* The state at func's start (the CFA is rsp + 8 there): 0 or -ENOMEM. */
static int walk_start(hm_insn_ctx *c, struct walk *w, uint64_t func, hm_track_type_fn type)
{
	int r;

	memset(w, 0, sizeof(*w));
	w->type = type;
	for (r = 0; r < HM_REG_IP; r++) {
		w->st[r].kind = HM_TV_REG;
		w->st[r].reg = (int8_t)r;
	}
	w->st[SP].kind = HM_TV_STACK;
	w->st[SP].off = -8;
	w->func = func;
	return insn_cursor_start(c, func, &w->k);
}

/* The kept walk of func with type that stands furthest at or before pc,
 * else a free or the least recently used one, started at func. */
static struct walk *walk_find(hm_insn_ctx *c, struct insn_walks *ws, uint64_t func,
			      uint64_t pc, hm_track_type_fn type)
{
	struct walk *best = NULL, *old = NULL, *w;

	for (w = ws->w; w < ws->w + NWALKS; w++) {
		if (w->live && w->func == func && w->type == type && w->k.pc <= pc &&
		    (!best || w->k.pc > best->k.pc))
			best = w;
		if (!old || (old->live && (!w->live || w->used < old->used)))
			old = w;
	}
	if (!best) {
		best = old;
		if (walk_start(c, best, func, type))
			return NULL;	/* left not live */
		best->live = 1;
	}
	best->used = ++ws->clock;
	return best;
}

int hm_insn_track(hm_insn_ctx *c, uint64_t func, uint64_t pc, int reg, hm_track_type_fn type,
		  void *ctx, struct hm_tval *out)
{
	struct insn_walks **wsp = insn_ctx_walks(c);
	struct walk local, *w;
	struct hm_insn in;
	int err = 0;

	if (reg < 0 || reg >= HM_REG_IP || pc < func)
		return -ENOENT;
	if (!*wsp)
		*wsp = calloc(1, sizeof(**wsp));
	if (*wsp) {
		w = walk_find(c, *wsp, func, pc, type);
	} else {
		w = &local;	/* no memory to keep it: a walk of its own */
		if (walk_start(c, w, func, type))
			w = NULL;
	}
	if (!w)
		return -ENOMEM;
	w->c = c;
	w->ctx = ctx;
	/* The state stays that of a boundary whatever happens: an error
	 * stops before the instruction at w->k.pc, which a later walk meets
	 * again (decoding is memoised, errors too). */
	while (w->k.pc < pc) {
		err = insn_cursor_next(c, &w->k, &in);
		if (err)
			break;
		apply(w, &in);
	}
	w->ctx = NULL;
	if (err)
		return err;
	if (w->k.pc != pc)
		return -ENOENT;
	*out = w->st[reg];
	return 0;
}
