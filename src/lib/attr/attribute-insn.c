/* Attribution by instruction: a sample the address path leaves unattributed
 * (heap, anonymous memory, the stack, no mapping) is named from the
 * instruction that made the access — its memory operand, the register
 * tracked back to a typed variable in scope (DWARF), the variable's pointee
 * record and the operand's offset into it.  Resolved once per (binary, IP,
 * rule) and memoised: the cost grows with distinct IPs, not samples. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "hitmap/attribute.h"
#include "attr/attribute-int.h"
#include "dwarf/dwarf-scope.h"
#include "elf/binary-lib.h"
#include "insn/insn.h"
#include "base/diag.h"
#include "base/util.h"

static uint64_t ires_hash(const struct binent *b, uint64_t pc, int trap)
{
	return hm_hash_u64(pc * 2 + (uint64_t)trap) ^ hm_hash_u64((uintptr_t)b);
}

static int ires_grow(hm_attr *a)
{
	size_t n = a->memo.ires_slots ? a->memo.ires_slots * 2 : 256, i, j;
	struct ires_slot *t = calloc(n, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (i = 0; i < a->memo.ires_slots; i++) {
		const struct ires_slot *o = &a->memo.ires[i];

		if (!o->r)
			continue;
		for (j = ires_hash(o->bin, o->pc, o->trap) & (n - 1); t[j].r; j = (j + 1) & (n - 1))
			;
		t[j] = *o;
	}
	free(a->memo.ires);
	a->memo.ires = t;
	a->memo.ires_slots = n;
	return 0;
}

/* Whether value v (a register at v->at, or a stack slot loaded at v->at)
 * is what a variable in scope there holds (see hm_track_type_fn): the
 * innermost such variable wins. */
struct typing {
	hm_attr *a;
	hm_scopes *s;
	struct binent *b;
};

/* type_value()'s answers (hm_track_type_fn): no variable holds the value,
 * a pointer-to-record variable does (named), one of another type does. */
enum { VAR_NONE = 0, VAR_TYPED = 1, VAR_OTHER_TYPE = 2 };

static int type_value(void *ctx, const struct hm_tval *v, struct hm_tvar *out, int64_t *delta)
{
	const struct typing *t = ctx;
	const struct hm_scope_var *vars;
	int n, i, untyped = 0;

	/* a load: what the memory it read is declared to hold */
	if (v->kind == HM_TV_MEM || v->kind == HM_TV_DEREF) {
		*delta = 0;
		return attr_type_load(t->a, t->b, v, out);
	}
	n = hm_scopes_at(t->s, v->at, &vars);
	for (i = 0; i < n; i++) {
		const struct hm_scope_var *x = &vars[i];

		if (v->kind == HM_TV_REG && x->kind == HM_VLOC_REG && x->reg == v->reg) {
			/* The variable's value is reg + x->off. */
			*delta = -x->off;
		} else if (v->kind == HM_TV_SLOT &&
			   ((x->kind == HM_VLOC_FBREG && x->fb_cfa && x->off == v->slot) ||
			    (x->kind == HM_VLOC_FBREG && x->fb_reg == 6 && v->fb_known &&
			     v->fb_off + x->off == v->slot) ||
			    (x->kind == HM_VLOC_BREG && x->reg == v->slot_base &&
			     x->off == v->slot_disp))) {
			*delta = 0;
		} else {
			continue;
		}
		if (x->ptr_depth != 1 || !x->record) {
			untyped = 1;
			continue;
		}
		out->name = hm_strtab_intern(&t->a->memo.strs, x->name);
		out->func = x->func ? hm_strtab_intern(&t->a->memo.strs, x->func) : NULL;
		out->record = hm_strtab_intern(&t->a->memo.strs, x->record);
		if (!out->name || !out->record)
			return VAR_NONE;
		out->record_size = x->record_size;
		out->loc_kind = x->kind;
		out->loc_reg = x->reg;
		out->loc_off = x->off;
		out->pc = v->at;
		return VAR_TYPED;
	}
	return untyped ? VAR_OTHER_TYPE : VAR_NONE;
}

/* The frame address (CFA-relative) register reg holds at pc, if tracking
 * knows it. */
static int frame_reg(struct binent *b, uint64_t func, uint64_t pc, int reg, int64_t *at)
{
	struct hm_tval v;

	if (hm_insn_track(b->insn, func, pc, reg, NULL, NULL, &v) || v.kind != HM_TV_STACK)
		return 0;
	*at = v.off;
	return 1;
}

/* An access into the frame at CFA + cfa_off: the struct variable there
 * (a local of record type, ptr_depth 0), named "function:variable".  1
 * when r is decided (attributed, or a reason), 0 to go on. */
static int stack_object(hm_attr *a, struct binent *b, uint64_t func, struct insn_res *r,
			int64_t cfa_off)
{
	const struct hm_scope_var *vars;
	char name[300];
	int n, i;

	n = hm_scopes_at(b->scopes, r->access_pc, &vars);
	for (i = 0; i < n; i++) {
		const struct hm_scope_var *x = &vars[i];
		int64_t start, base;

		if (x->ptr_depth || !x->record || !x->record_size)
			continue;
		if (x->kind == HM_VLOC_FBREG && x->fb_cfa)
			start = x->off;
		else if (x->kind == HM_VLOC_FBREG && x->fb_reg >= 0 && x->fb_reg < HM_REG_IP &&
			 frame_reg(b, func, r->access_pc, x->fb_reg, &base))
			start = base + x->off;
		else if (x->kind == HM_VLOC_BREG && x->reg >= 0 && x->reg < HM_REG_IP &&
			 frame_reg(b, func, r->access_pc, x->reg, &base))
			start = base + x->off;
		else
			continue;
		if (cfa_off < start || (uint64_t)(cfa_off - start) >= x->record_size)
			continue;
		snprintf(name, sizeof(name), "%s:%s", x->func ? x->func : "?", x->name);
		r->stack = 1;
		r->named = 1;
		r->kind = HM_PROFILE_STRUCT;
		r->var = hm_strtab_intern(&a->memo.strs, x->name);
		r->func = x->func ? hm_strtab_intern(&a->memo.strs, x->func) : NULL;
		r->object = hm_strtab_intern(&a->memo.strs, name);
		r->var_kind = x->kind;
		r->var_reg = x->kind == HM_VLOC_BREG ? x->reg : x->fb_reg;
		r->var_off = x->off;
		r->var_pc = r->access_pc;
		r->sname = hm_strtab_intern(&a->memo.strs, x->record);
		r->off = cfa_off - start;
		if (!r->var || !r->object || !r->sname) {
			r->bucket = HM_NR_BUCKETS;
			return 1;
		}
		r->bucket = attr_find_record(b, x->record, x->record_size, &r->type);
		if (r->bucket != HM_ATTR_INSN)
			return 1;
		r->ssize = hm_types_sizeof(b->types, r->type);
		attr_describe(b->types, r->type, (uint64_t)r->off, &r->foff, &r->fsize, &r->path,
			      &a->memo.strs);
		if (!r->path)
			r->bucket = HM_NR_BUCKETS;
		return 1;
	}
	return 0;
}

/* v plus an unknown multiple of stride (1: any value). */
static void forget_stride(struct hm_tval *v, uint64_t stride)
{
	v->stride = stride ? stride : 1;
}

/* What register reg holds at the access at pc of the function at func:
 * the variable DWARF locates in it there, else what tracking finds.  0
 * and *v, or nonzero; *got as type_value() says of reg itself. */
static int typed_reg(struct binent *b, struct typing *t, uint64_t func, uint64_t pc, int reg,
		     struct hm_tval *v, int *got)
{
	struct hm_tvar var;
	int64_t delta = 0;

	*v = (struct hm_tval){ .kind = HM_TV_REG, .reg = (int8_t)reg, .at = pc };
	*got = type_value(t, v, &var, &delta);
	if (*got == VAR_TYPED) {
		v->kind = HM_TV_VAR;
		v->var = var;
		v->off = delta;
		return 0;
	}
	return hm_insn_track(b->insn, func, pc, reg, type_value, t, v);
}

/* A %fs- or %gs-relative operand (TLS, per-cpu): its base register, if
 * any, as tracking finds it (a GOT slot's thread-pointer offset).  An
 * offset alone needs no function (assembly has none). */
static void seg_operand(hm_attr *a, struct binent *b, const hm_symbol *f, struct insn_res *r)
{
	struct hm_tval v;

	if (r->insn.mem.base < 0 || r->insn.mem.base == HM_REG_IP) {
		attr_seg_resolve(a, b, r, NULL);
	} else if (f && !hm_insn_track(b->insn, f->addr, r->access_pc, r->insn.mem.base,
				       NULL, NULL, &v)) {
		r->track = v;
		attr_seg_resolve(a, b, r, &v);
	} else {
		r->bucket = HM_UNATTR_NO_VAR;
	}
}

/* A base built from the thread pointer, __tls_get_addr or this CPU's
 * per-cpu offset names its TLS or per-cpu variable, which says more than
 * the pointer type of a variable holding it: 1 when that decided r. */
static int seg_base(hm_attr *a, struct binent *b, const hm_symbol *f, struct insn_res *r)
{
	struct insn_res keep;
	struct hm_tval v;

	if (r->insn.mem.index >= 0 ||
	    hm_insn_track(b->insn, f->addr, r->access_pc, r->insn.mem.base, NULL, NULL, &v) ||
	    (v.kind != HM_TV_TP && v.kind != HM_TV_TLSGET && v.kind != HM_TV_PCPU))
		return 0;
	keep = *r;
	r->track = v;
	if (attr_seg_resolve(a, b, r, &v) &&
	    (r->bucket == HM_ATTR_TLS || r->bucket == HM_ATTR_PERCPU || r->bucket == HM_NR_BUCKETS))
		return 1;
	*r = keep;
	return 0;
}

/* What the operand's pointer register holds, typed: first what DWARF says
 * of the base register at the access itself, then what tracking finds it
 * was built from; in (%index,%pointer,1) the index may be the pointer.  0
 * and *v (its stride what an index register is a multiple of), or nonzero;
 * *got as type_value() says of the register. */
static int operand_value(hm_attr *a, struct binent *b, uint64_t func, const struct insn_res *r,
			 struct hm_tval *v, int *got)
{
	struct typing t = { a, b->scopes, b };
	int other = r->insn.mem.index, err;
	unsigned scale = r->insn.mem.scale;

	err = typed_reg(b, &t, func, r->access_pc, r->insn.mem.base, v, got);
	if (other >= 0 && scale == 1 && (err || v->kind != HM_TV_VAR)) {
		/* (%index,%pointer,1): gcc puts the scaled index first */
		struct hm_tval w;
		int got2;

		if (!typed_reg(b, &t, func, r->access_pc, other, &w, &got2) &&
		    w.kind == HM_TV_VAR) {
			other = r->insn.mem.base;
			*v = w;
			*got = got2;
			err = 0;
		}
	}
	if (err)
		return err;
	if (other >= 0) {
		/* base + index * scale: the index's value is unknown, what
		 * it is a multiple of may be (shl, imul, lea (%r,%r,2)) */
		struct hm_tval ix;

		if (hm_insn_track(b->insn, func, r->access_pc, other, NULL, NULL, &ix))
			forget_stride(v, 1);
		else
			forget_stride(v, hm_gcd(v->stride, hm_tval_factor(&ix) * scale));
	}
	return 0;
}

/* Whether every offset the operand can reach past its own, in steps of
 * stride up to the record's end, is in the member array e: a compiler
 * folds constants into the index (gcc's t + ((k & 7) + 3) * 16 for
 * &t->hist[k & 7] leaves offset 0 and the index), so the operand's offset
 * may be below the access's, never above it. */
static int index_stays(const struct insn_res *r, uint64_t stride, const struct attr_elem *e)
{
	uint64_t o;

	for (o = (uint64_t)r->off; o < r->ssize; o += stride)
		if (o < e->array_off || o - e->array_off >= e->array_size)
			return 0;
	return 1;
}

/* The field the operand names in the record variable v points to. */
static void operand_field(hm_attr *a, struct binent *b, const struct hm_tval *v,
			  struct insn_res *r)
{
	r->var = v->var.name;
	r->func = v->var.func;
	r->var_kind = v->var.loc_kind;
	r->var_reg = v->var.loc_reg;
	r->var_off = v->var.loc_off;
	r->var_pc = v->var.pc;
	r->sname = v->var.record;
	r->kind = HM_PROFILE_STRUCT;
	r->off = v->off + r->insn.mem.disp;
	r->bucket = attr_find_record(b, v->var.record, v->var.record_size, &r->type);
	if (r->bucket != HM_ATTR_INSN)
		return;
	r->ssize = hm_types_sizeof(b->types, r->type);
	if (v->stride && r->ssize && !(v->stride % r->ssize)) {
		/* p[i].field: a whole number of elements past the pointer,
		 * so the offset into one element is the operand's modulo
		 * the element's size */
		r->indexed = 1;
		r->off = (int64_t)(((r->off % (int64_t)r->ssize) + (int64_t)r->ssize) %
				   (int64_t)r->ssize);
	} else if (v->stride) {
		/* p->a[i].field: the offset falls in a member array whose
		 * elements the index steps through whole; anything else is
		 * not an element */
		struct attr_elem e;
		int got;

		got = r->off >= 0 && (uint64_t)r->off < r->ssize
			      ? attr_member_array(b->types, r->type, (uint64_t)r->off, v->stride, &e,
						  &a->memo.strs)
			      : 0;
		if (got <= 0 || !index_stays(r, v->stride, &e)) {
			r->bucket = got < 0 ? HM_NR_BUCKETS : HM_UNATTR_INDEX;
			return;
		}
		r->elem = 1;
		r->indexed = 1;
		r->outer = r->sname;
		r->outer_type = r->type;
		r->outer_size = r->ssize;
		r->outer_path = e.path;
		r->outer_foff = e.array_off;
		r->outer_fsize = e.array_size;
		r->type = e.type;
		r->sname = hm_strtab_intern(&a->memo.strs, e.name);
		r->ssize = e.size;
		r->off = (int64_t)e.off;
	}
	if (r->off < 0 || (uint64_t)r->off >= r->ssize) {
		r->bucket = HM_UNATTR_OFFSET;
		return;
	}
	attr_describe(b->types, r->type, (uint64_t)r->off, &r->foff, &r->fsize, &r->path,
		      &a->memo.strs);
	if (!r->path || !r->sname || !r->var)
		r->bucket = HM_NR_BUCKETS;
}

/* Type the memory operand of the decoded instruction r->insn: the
 * variable, record and field it accesses, or the bucket that says why
 * not. */
static void type_operand(hm_attr *a, struct binent *b, struct insn_res *r)
{
	const hm_symbol *f;
	struct hm_tval v;
	int got;

	if (!r->insn.has_mem) {
		r->bucket = HM_UNATTR_NO_MEMOP;
		return;
	}
	if (attr_binent_types(b) || attr_binent_scopes(b)) {
		r->bucket = HM_UNATTR_NO_VAR;
		return;
	}
	attr_prefetch_start(a, b);
	f = hm_binary_func_at(attr_binent_dwarf(b), r->access_pc);
	if (r->insn.mem.seg) {
		seg_operand(a, b, f, r);
		return;
	}
	if (!f) {
		r->bucket = HM_UNATTR_NO_VAR;
		return;
	}
	if (r->insn.mem.base < 0 || r->insn.mem.base == HM_REG_IP ||
	    r->insn.mem.index == HM_REG_IP) {
		/* No base register (RIP-relative or absolute: a global, the
		 * address path's; an index alone: a global array). */
		r->bucket = HM_UNATTR_NO_MEMOP;
		return;
	}
	if (seg_base(a, b, f, r))
		return;
	if (operand_value(a, b, f->addr, r, &v, &got)) {
		r->bucket = got == VAR_OTHER_TYPE ? HM_UNATTR_UNTYPED : HM_UNATTR_NO_VAR;
		return;
	}
	r->track = v;
	if (v.stride && v.kind != HM_TV_VAR) {
		r->bucket = HM_UNATTR_INDEX;
		return;
	}
	if (v.kind == HM_TV_STACK && stack_object(a, b, f->addr, r, v.off + r->insn.mem.disp))
		return;
	if (attr_seg_resolve(a, b, r, &v))
		return;
	if (v.kind != HM_TV_VAR) {
		r->bucket = got == VAR_OTHER_TYPE || v.untyped ? HM_UNATTR_UNTYPED : HM_UNATTR_NO_VAR;
		return;
	}
	operand_field(a, b, &v, r);
}

/* Resolve (b, pc, trap) into r: every field of r but the key.  Which
 * bytes ran (attribute-text.c) gives the instruction; its operand is then
 * typed. */
static void resolve_ip(hm_attr *a, struct binent *b, uint64_t pc, int trap, struct insn_res *r)
{
	if (!attr_text_insn(a, b, pc, trap, r))
		return;
	r->decoded = 1;
	type_operand(a, b, r);
}

/* Resolve (b, pc, trap) into r anew, in place. */
static void redo(hm_attr *a, struct binent *b, uint64_t pc, int trap, struct insn_res *r)
{
	memset(r, 0, sizeof(*r));
	r->bin = b;
	r->pc = pc;
	r->trap = (uint8_t)trap;
	r->poke_gen = a->kern.poke_gen;
	resolve_ip(a, b, pc, trap, r);
}

/* The memo's resolution of (b, pc, trap), or NULL and *slot the free slot
 * it would take (SIZE_MAX: out of memory).  A patch site's stands until a
 * TEXT_POKE: redone then. */
static struct insn_res *memo_find(hm_attr *a, struct binent *b, uint64_t pc, int trap,
				  size_t *slot)
{
	struct ires_slot *x;
	size_t j;

	*slot = SIZE_MAX;
	if (2 * (a->memo.nires + 1) > a->memo.ires_slots && ires_grow(a))
		return NULL;
	for (j = ires_hash(b, pc, trap) & (a->memo.ires_slots - 1); (x = &a->memo.ires[j])->r;
	     j = (j + 1) & (a->memo.ires_slots - 1))
		if (x->bin == b && x->pc == pc && x->trap == trap) {
			if (x->r->site && x->r->poke_gen != a->kern.poke_gen)
				redo(a, b, pc, trap, x->r);
			return x->r;
		}
	*slot = j;
	return NULL;
}

static void memo_put(hm_attr *a, size_t slot, struct insn_res *r)
{
	a->memo.ires[slot] = (struct ires_slot){ r->pc, r->bin, r->trap, r };
	a->memo.nires++;
}

const struct insn_res *attr_insn_lookup(hm_attr *a, struct binent *b, uint64_t pc, int trap)
{
	struct insn_res *r;
	unsigned long said;
	size_t slot;

	if ((r = memo_find(a, b, pc, trap, &slot))) {
		/* an earlier run's answer holds what a sample reads, not
		 * the instruction and its tracking --explain shows */
		if (r->answered)
			redo(a, b, pc, trap, r);
		return r;
	}
	if (slot == SIZE_MAX || !(r = hm_arena_alloc(&a->memo.rec_arena, sizeof(*r))))
		return NULL;
	said = hm_diag_said();
	redo(a, b, pc, trap, r);
	if (hm_diag_said() == said)	/* kept for the next run */
		attr_answers_note_insn(a, b, r);
	memo_put(a, slot, r);
	return r;
}

/* An access wider than the field its operand names (a 16- or 32-byte SSE
 * or AVX move over two fields) whose sample address may lie inside it: a
 * page fault on the access's second page reports that page's first byte,
 * and a watchpoint reports the address it watches, which the access may
 * cover from below (a 16-byte store of two fields trips the watchpoint on
 * the second at that field's address).  Which field, and which instance,
 * the address is in is then not known.  Anywhere else the address is the
 * access's start, the operand's field. */
static int wide_unsure(const struct insn_res *r, uint64_t addr, int watched)
{
	return r->bucket == HM_ATTR_INSN && r->insn.mem.size && (watched || !(addr & 4095)) &&
	       (uint64_t)r->off + r->insn.mem.size > r->foff + r->fsize;
}

int attr_resolve_insn(hm_attr *a, const hm_sample *s, uint64_t addr, int trap, int watched,
		      const void *bin, uint64_t link, hm_attribution *out)
{
	const struct insn_res *r;
	struct insn_res *ar;
	struct binent *b = (struct binent *)bin;	/* hmi_attr_ip()'s are binents */
	char obj[300];
	size_t slot;

	if (!b)
		return 0;
	if (b->status != BIN_OK)
		return 0;
	/* resolved in this run (one probe of the memo), or an earlier
	 * run's answer: no types, scopes or decoder opened */
	if ((r = memo_find(a, b, link, trap, &slot)))
		goto answered;
	if (slot != SIZE_MAX && (ar = attr_answers_insn(a, b, link, trap))) {
		memo_put(a, slot, ar);
		r = ar;
		goto answered;
	}
	attr_prefetch_early(a, b);
	/* A binary without DWARF (its own, or a debug file's found for it)
	 * has no variables to name: the address path's bucket stands.
	 * Loaded types are asked for on every sample: no call then. */
	if (!b->types && attr_binent_types(b))
		return 0;
	if (!b->dwarf_known) {
		b->has_dwarf = hmi_binary_has_section(attr_binent_dwarf(b), ".debug_info", NULL) != 0;
		b->dwarf_known = 1;
	}
	if (!b->has_dwarf)
		return 0;
	r = attr_insn_lookup(a, b, link, trap);
answered:
	if (!r || r->bucket == HM_NR_BUCKETS)
		return -ENOMEM;
	out->bucket = r->bucket;
	if (r->bucket != HM_ATTR_INSN && r->bucket != HM_ATTR_TLS && r->bucket != HM_ATTR_PERCPU)
		return 0;
	if (wide_unsure(r, addr, watched) && r->elem) {
		/* Which element, and which of its fields, the address is in
		 * is not known, but any element is in the member array: the
		 * outer record's array member, at the sampled byte, of an
		 * instance not known. */
		snprintf(obj, sizeof(obj), "%s@?", r->outer);
		out->object = hm_strtab_intern(&a->memo.strs, obj);
		out->sname = r->outer;
		out->kind = HM_PROFILE_STRUCT;
		out->ssize = r->outer_size;
		out->obj_base = addr - r->outer_foff;
		out->path = r->outer_path;
		out->foff = r->outer_foff;
		out->fsize = 1;
		return out->object ? 1 : -ENOMEM;
	}
	if (wide_unsure(r, addr, watched)) {
		out->bucket = HM_UNATTR_WIDE;
		return 0;
	}
	out->sname = r->sname;
	out->kind = r->kind;
	out->ssize = r->ssize;
	out->obj_base = addr - (uint64_t)r->off;
	if (r->named) {
		/* "function:variable" (every frame), "tls:st" (every
		 * thread), "per-cpu:runqueues" (every CPU) */
		out->object = r->object;
	} else {
		/* Every sample on a heap instance names its instance: found
		 * by (struct, base), its name made once. */
		if (r->kind == HM_PROFILE_STRUCT)
			out->object = attr_inst_name(a, r->sname, b, r->type, out->obj_base,
						     r->ssize);
		else
			out->object = hm_strtab_intern_n(&a->memo.strs, obj,
							 attr_inst_format(obj, sizeof(obj),
									  r->sname,
									  out->obj_base));
	}
	out->path = r->path;
	out->foff = r->foff;
	out->fsize = r->fsize;
	return out->object ? 1 : -ENOMEM;
}
