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
#include "insn/insn.h"
#include "elf/patchsites.h"
#include "elf/kcore.h"
#include "base/diag.h"
#include "base/util.h"

static uint64_t ires_hash(const struct binent *b, uint64_t pc, int trap)
{
	return hm_hash_u64(pc * 2 + (uint64_t)trap) ^ hm_hash_u64((uintptr_t)b);
}

static int ires_grow(hm_attr *a)
{
	size_t n = a->ires_slots ? a->ires_slots * 2 : 256, i, j;
	struct insn_res **t = calloc(n, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (i = 0; i < a->ires_slots; i++) {
		struct insn_res *r = a->ires[i];

		if (!r)
			continue;
		for (j = ires_hash(r->bin, r->pc, r->trap) & (n - 1); t[j]; j = (j + 1) & (n - 1))
			;
		t[j] = r;
	}
	free(a->ires);
	a->ires = t;
	a->ires_slots = n;
	return 0;
}

/* The record named `name` of size `size` in b's types: 0 and *id, or the
 * bucket that says why not. */
enum hm_attr_bucket attr_find_record(struct binent *b, const char *name, uint64_t size,
				     hm_type_id *id)
{
	size_t seen = attr_records_named(b, name, id);

	if (!*id) {
		/* An anonymous record known by its typedef's name
		 * (pthread_mutex_t): the typedef must lead to it. */
		hm_type_id td = hm_types_find_typedef(b->types, name);
		const hm_type *ty;

		*id = td ? hm_types_resolve(b->types, td) : HM_TYPE_NONE;
		ty = *id ? hm_types_get(b->types, *id) : NULL;
		if (!ty || !hm_kind_is_record(ty->kind) || ty->name) {
			*id = HM_TYPE_NONE;
			return HM_UNATTR_UNTYPED;
		}
		seen = 1;
	}
	/* Two different definitions of one name: which one this pointer
	 * means is not known here. */
	if (seen > 1)
		return HM_UNATTR_AMBIGUOUS;
	if (size && hm_types_sizeof(b->types, *id) != size)
		return HM_UNATTR_AMBIGUOUS;
	return HM_ATTR_INSN;
}

/* Whether value v (a register at v->at, or a stack slot loaded at v->at)
 * is what a variable in scope there holds (see hm_track_type_fn): the
 * innermost such variable wins. */
struct typing {
	hm_attr *a;
	hm_scopes *s;
};

static int type_value(void *ctx, const struct hm_tval *v, struct hm_tvar *out, int64_t *delta)
{
	const struct typing *t = ctx;
	const struct hm_scope_var *vars;
	int n, i, untyped = 0;

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
		out->name = hm_strtab_intern(&t->a->strs, x->name);
		out->func = x->func ? hm_strtab_intern(&t->a->strs, x->func) : NULL;
		out->record = hm_strtab_intern(&t->a->strs, x->record);
		if (!out->name || !out->record)
			return 0;
		out->record_size = x->record_size;
		out->loc_kind = x->kind;
		out->loc_reg = x->reg;
		out->loc_off = x->off;
		out->pc = v->at;
		return 1;
	}
	return untyped ? 2 : 0;
}

static int binent_insn(struct binent *b)
{
	if (b->insn || b->insn_err)
		return b->insn_err;
	/* The bytes that ran are the mapped file's; where its functions
	 * start, a stripped file's debug file says. */
	attr_binent_types(b);
	b->insn = hm_insn_ctx_new(b->bin, attr_binent_dwarf(b));
	if (!b->insn)
		return b->insn_err = -errno;
	return 0;
}

int attr_binent_insn(struct binent *b)
{
	return binent_insn(b);
}

int attr_binent_scopes(struct binent *b)
{
	if (b->scopes || b->scopes_err)
		return b->scopes_err;
	b->scopes_err = hm_scopes_open(attr_binent_dwarf(b), &b->scopes);
	return b->scopes_err;
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
		r->var = hm_strtab_intern(&a->strs, x->name);
		r->func = x->func ? hm_strtab_intern(&a->strs, x->func) : NULL;
		r->object = hm_strtab_intern(&a->strs, name);
		r->var_kind = x->kind;
		r->var_reg = x->kind == HM_VLOC_BREG ? x->reg : x->fb_reg;
		r->var_off = x->off;
		r->var_pc = r->access_pc;
		r->sname = hm_strtab_intern(&a->strs, x->record);
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
			      &a->strs);
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
	if (*got == 1) {
		v->kind = HM_TV_VAR;
		v->var = var;
		v->off = delta;
		return 0;
	}
	return hm_insn_track(b->insn, func, pc, reg, type_value, t, v);
}

/* A kernel's or a module's patch sites, read once: none when the tables
 * cannot be read (a bad table was reported). */
static const hm_patch_sites *binent_patch(struct binent *b)
{
	if (!b->patch && !b->patch_err)
		b->patch_err = hm_patch_sites_read(b->bin, attr_binent_dwarf(b), &b->patch);
	return b->patch;
}

/* The patch site pc is in, and the file bytes it spans, [*lo, *hi): a
 * range, or the instruction of a one-instruction site (a jump label, a
 * static call) that pc starts or is inside. */
static const struct hm_patch_site *site_at(struct binent *b, const hm_patch_sites *ps, uint64_t pc,
					   uint64_t *lo, uint64_t *hi)
{
	const struct hm_patch_site *p = hm_patch_sites_find(ps, pc);
	struct hm_insn in;

	if (p && p->len) {
		*lo = p->addr;
		*hi = p->addr + p->len;
		return p;
	}
	if (!p)
		p = hm_patch_sites_insn_before(ps, pc);
	if (!p)
		return NULL;
	if (hm_insn_decode(b->insn, p->addr, &in)) {
		/* no length known: pc counts as inside only at the start */
		*lo = p->addr;
		*hi = p->addr + 1;
		return p->addr == pc ? p : NULL;
	}
	if (pc - p->addr >= in.len)
		return NULL;
	*lo = p->addr;
	*hi = p->addr + in.len;
	return p;
}

int hm_attr_set_kcore(hm_attr *a, const char *perf_data)
{
	size_t n = strlen(perf_data) + sizeof("/kcore_dir");
	char *dir = malloc(n);
	struct stat st;
	hm_kcore *k;
	int err;

	if (!dir)
		return -ENOMEM;
	snprintf(dir, n, "%s/kcore_dir", perf_data);
	if (stat(perf_data, &st) || !S_ISDIR(st.st_mode) || stat(dir, &st) ||
	    !S_ISDIR(st.st_mode)) {
		free(dir);
		return 0;
	}
	err = hm_kcore_open(dir, &k);
	free(dir);
	if (err)
		return err;
	hm_kcore_free(a->kcore);
	a->kcore = k;
	a->kcore_ok = 0;
	return 1;
}

int attr_kcore_check(hm_attr *a)
{
	size_t agree, compared;
	uint64_t off;
	int err;

	a->kcore_ok = 0;
	if (!a->kcore || !a->vmlinux || a->vmlinux->status != BIN_OK)
		return 0;
	err = hm_kcore_check(a->kcore, a->vmlinux->bin, &off, &agree, &compared);
	if (err == -ENOMEM)
		return err;
	if (err == -ENOENT) {
		hm_diag(HM_DIAG_ERROR, "%s: no _stext in its kallsyms or in %s: cannot tell whether "
			"it is that kernel's text", hm_kcore_path(a->kcore), a->vmlinux->path);
		return -ESRCH;
	}
	if (err) {
		hm_diag(HM_DIAG_ERROR, "%s: the text of another kernel than %s (%zu of %zu kallsyms "
			"functions where its symbols put them): its bytes would name what did not run",
			hm_kcore_path(a->kcore), a->vmlinux->path, agree, compared);
		return -ESRCH;
	}
	hm_diag(HM_DIAG_DEBUG, "%s: %zu of %zu kallsyms functions where %s puts them, "
		"KASLR offset 0x%" PRIx64 ": kernel instructions are decoded from it",
		hm_kcore_path(a->kcore), agree, compared, a->vmlinux->path, off);
	a->kcore_kaslr = off;
	a->kcore_ok = 1;
	/* a recording without a kernel map: the copy's kallsyms says where
	 * the kernel was (a map read later must agree) */
	if (!a->kaslr_known) {
		a->kaslr = off;
		a->kaslr_known = 1;
		a->kaslr_from_kcore = 1;
	}
	return 0;
}

/* The bytes that ran at vmlinux link address link, as the kcore copy holds
 * them, and in *n how many of [link, link + max) it holds: NULL when there
 * is no copy (or it was not checked) or it does not hold link. */
static const uint8_t *kcore_at(const hm_attr *a, const struct binent *b, uint64_t link, size_t max,
			       size_t *n)
{
	if (!a->kcore_ok || b != a->vmlinux)
		return NULL;
	return hm_kcore_bytes(a->kcore, link + a->kcore_kaslr, max, n);
}

/* Decode from bytes[0 .. end - lo) the instructions from lo on, stopping
 * at the one that starts at pc (want_end 0) or ends at pc (want_end 1):
 * 0 and *out, else nonzero (pc is no boundary, the bytes do not decode). */
static int walk_insns(struct binent *b, const uint8_t *bytes, uint64_t lo, uint64_t end, uint64_t pc,
		      int want_end, struct hm_insn *out)
{
	for (uint64_t at = lo; at < end; at += out->len) {
		if (hm_insn_decode_bytes(b->insn, at, bytes + (at - lo), end - at, out))
			return -EBADMSG;
		if ((!want_end && at == pc) || (want_end && at + out->len == pc))
			return 0;
		if (at >= pc)
			break;
	}
	return -ENOENT;
}

/* The instruction at pc of the site [lo, hi) from the kcore copy's bytes:
 * 0 and *out, or nonzero (no copy, it does not hold the site, pc is no
 * boundary of its instructions there). */
static int kcore_site_insn(hm_attr *a, struct binent *b, uint64_t lo, uint64_t hi, uint64_t pc,
			   int want_end, struct hm_insn *out)
{
	size_t n;
	const uint8_t *p = kcore_at(a, b, lo, hi - lo, &n);

	if (!p || n < hi - lo)
		return -ENOENT;
	return walk_insns(b, p, lo, hi, pc, want_end, out);
}

/* The instruction at pc decoded from the bytes the kernel last wrote over
 * the whole of [lo, hi) (a TEXT_POKE), walking from lo so that pc is a
 * boundary of the new bytes: 0; -ESRCH when no poke wrote there; other
 * nonzero when the last poke there covers only part of the site, pc is no
 * boundary, or the bytes do not decode. */
static int poked_insn(hm_attr *a, struct binent *b, uint64_t lo, uint64_t hi, uint64_t pc,
		      struct hm_insn *out)
{
	const struct poke *k = NULL;
	uint64_t end;
	size_t i;

	if (b != a->vmlinux)
		return -ESRCH;
	/* The last poke that wrote any byte of the site: one that wrote only
	 * part of it leaves bytes of which no record says what they are. */
	for (i = a->npokes; i-- > 0;)
		if (a->pokes[i].link < hi && lo - a->pokes[i].link < a->pokes[i].len) {
			k = &a->pokes[i];
			break;
		}
	if (!k)
		return -ESRCH;
	if (k->link > lo || hi - k->link > k->len)
		return -ENOENT;
	end = k->link + k->len;
	return walk_insns(b, k->bytes + (lo - k->link), lo, end, pc, 0, out);
}

int attr_text_poke(hm_attr *a, const hm_perf_text_poke *t)
{
	struct poke *k;

	/* Kernel-image pokes only: a module's, a BPF program's or an ftrace
	 * trampoline's bytes are no vmlinux link address. */
	if (!a->vmlinux || !a->kaslr_known || !t->new_len)
		return 0;
	if (a->npokes == a->pokes_cap) {
		size_t cap = a->pokes_cap ? a->pokes_cap * 2 : 16;
		struct poke *v = realloc(a->pokes, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		a->pokes = v;
		a->pokes_cap = cap;
	}
	k = &a->pokes[a->npokes];
	k->link = t->addr - a->kaslr;
	k->len = t->new_len;
	k->bytes = malloc(t->new_len);
	if (!k->bytes)
		return -ENOMEM;
	memcpy(k->bytes, t->new_bytes, t->new_len);
	a->npokes++;
	a->poke_gen++;
	return 0;
}

void attr_pokes_free(hm_attr *a)
{
	for (size_t i = 0; i < a->npokes; i++)
		free(a->pokes[i].bytes);
	free(a->pokes);
}

/* Resolve (b, pc, trap) into r: every field of r but the key. */
static void resolve_ip(hm_attr *a, struct binent *b, uint64_t pc, int trap, struct insn_res *r)
{
	const hm_patch_sites *ps;
	const struct hm_patch_site *site;
	const uint8_t *kb;
	uint64_t lo, hi;
	size_t kn;
	const hm_symbol *f;
	struct typing t;
	struct hm_tval v;
	int err, got, other;
	unsigned scale;

	r->bucket = HM_UNATTR_NO_INSN;
	r->access_pc = pc;
	if (binent_insn(b))
		return;
	/* The kernel rewrote the bytes of a patch site: decoding the file's
	 * would name what did not run; the bytes a TEXT_POKE record says
	 * were written there may be decoded instead.  A breakpoint's IP is
	 * past the access: the instruction before it is the one to check. */
	/* With the kcore copy of `perf record --kcore`, the bytes that ran
	 * are there: a site is decoded from them (a TEXT_POKE after the copy
	 * was taken wins), and so is every other instruction it holds. */
	ps = binent_patch(b);
	if (trap) {
		if ((site = hm_patch_sites_ending(ps, pc))) {
			r->site = 1;
			if (kcore_site_insn(a, b, site->addr, site->addr + site->len, pc, 1, &r->insn)) {
				r->bucket = HM_UNATTR_PATCHED;
				return;
			}
			r->from_kcore = 1;
		} else {
			err = hm_insn_prev(b->insn, pc, &r->insn);
			if (err)
				return;
			r->access_pc = r->insn.pc;
			if ((site = site_at(b, ps, r->access_pc, &lo, &hi))) {
				r->site = 1;
				if (hi != pc ||
				    kcore_site_insn(a, b, lo, hi, r->access_pc, 0, &r->insn) ||
				    r->insn.pc + r->insn.len != pc) {
					r->bucket = HM_UNATTR_PATCHED;
					return;
				}
				r->from_kcore = 1;
			} else if ((kb = kcore_at(a, b, r->access_pc, 16, &kn))) {
				/* the file's instruction boundary, the copy's bytes:
				 * the instruction must end where the file's does,
				 * or the text changed where no table says */
				if (hm_insn_decode_bytes(b->insn, r->access_pc, kb, kn, &r->insn))
					return;
				r->from_kcore = 1;
				if (r->insn.pc + r->insn.len != pc) {
					r->bucket = HM_UNATTR_PATCHED;
					return;
				}
			}
		}
		r->access_pc = r->insn.pc;
	} else if ((site = site_at(b, ps, pc, &lo, &hi))) {
		r->site = 1;
		err = poked_insn(a, b, lo, hi, pc, &r->insn);
		if (!err) {
			r->poked = 1;
		} else if (err == -ESRCH && !kcore_site_insn(a, b, lo, hi, pc, 0, &r->insn)) {
			r->from_kcore = 1;
		} else {
			r->bucket = HM_UNATTR_PATCHED;
			return;
		}
	} else if ((kb = kcore_at(a, b, pc, 16, &kn))) {
		if (hm_insn_decode_bytes(b->insn, pc, kb, kn, &r->insn))
			return;
		r->from_kcore = 1;
	} else if (hm_insn_decode(b->insn, pc, &r->insn)) {
		return;
	}
	r->decoded = 1;
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
		/* %fs / %gs: TLS, per-cpu; the base register, if any, as
		 * tracking finds it (a GOT slot's thread-pointer offset).
		 * An offset alone needs no function (assembly has none). */
		if (r->insn.mem.base < 0 || r->insn.mem.base == HM_REG_IP) {
			attr_seg_resolve(a, b, r, NULL);
		} else if (f && !hm_insn_track(b->insn, f->addr, r->access_pc, r->insn.mem.base,
					       NULL, NULL, &v)) {
			r->track = v;
			attr_seg_resolve(a, b, r, &v);
		} else {
			r->bucket = HM_UNATTR_NO_VAR;
		}
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
	/* A base built from the thread pointer, __tls_get_addr or this
	 * CPU's per-cpu offset names its TLS or per-cpu variable, which says
	 * more than the pointer type of a variable holding it. */
	if (r->insn.mem.index < 0 &&
	    !hm_insn_track(b->insn, f->addr, r->access_pc, r->insn.mem.base, NULL, NULL, &v) &&
	    (v.kind == HM_TV_TP || v.kind == HM_TV_TLSGET || v.kind == HM_TV_PCPU)) {
		struct insn_res keep = *r;

		r->track = v;
		if (attr_seg_resolve(a, b, r, &v) &&
		    (r->bucket == HM_ATTR_TLS || r->bucket == HM_ATTR_PERCPU ||
		     r->bucket == HM_NR_BUCKETS))
			return;
		*r = keep;
	}
	/* First what DWARF says of the base register at the access itself,
	 * then what tracking finds it was built from. */
	t = (struct typing){ a, b->scopes };
	err = typed_reg(b, &t, f->addr, r->access_pc, r->insn.mem.base, &v, &got);
	other = r->insn.mem.index;
	scale = r->insn.mem.scale;
	if (other >= 0 && scale == 1 && (err || v.kind != HM_TV_VAR)) {
		/* (%index,%pointer,1): gcc puts the scaled index first */
		struct hm_tval w;
		int got2;

		if (!typed_reg(b, &t, f->addr, r->access_pc, other, &w, &got2) &&
		    w.kind == HM_TV_VAR) {
			other = r->insn.mem.base;
			v = w;
			got = got2;
			err = 0;
		}
	}
	if (err) {
		r->bucket = got == 2 ? HM_UNATTR_UNTYPED : HM_UNATTR_NO_VAR;
		return;
	}
	if (other >= 0) {
		/* base + index * scale: the index's value is unknown, what
		 * it is a multiple of may be (shl, imul, lea (%r,%r,2)) */
		struct hm_tval ix;

		if (hm_insn_track(b->insn, f->addr, r->access_pc, other, NULL, NULL, &ix))
			forget_stride(&v, 1);
		else
			forget_stride(&v, hm_gcd(v.stride, hm_tval_factor(&ix) * scale));
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
		r->bucket = got == 2 || v.untyped ? HM_UNATTR_UNTYPED : HM_UNATTR_NO_VAR;
		return;
	}
	r->var = v.var.name;
	r->func = v.var.func;
	r->var_kind = v.var.loc_kind;
	r->var_reg = v.var.loc_reg;
	r->var_off = v.var.loc_off;
	r->var_pc = v.var.pc;
	r->sname = v.var.record;
	r->kind = HM_PROFILE_STRUCT;
	r->off = v.off + r->insn.mem.disp;
	r->bucket = attr_find_record(b, v.var.record, v.var.record_size, &r->type);
	if (r->bucket != HM_ATTR_INSN)
		return;
	r->ssize = hm_types_sizeof(b->types, r->type);
	if (v.stride) {
		/* p[i].field: a whole number of elements past the pointer,
		 * so the offset into one element is the operand's modulo
		 * the element's size; anything else is not an element */
		if (!r->ssize || v.stride % r->ssize) {
			r->bucket = HM_UNATTR_INDEX;
			return;
		}
		r->indexed = 1;
		r->off = (int64_t)(((r->off % (int64_t)r->ssize) + (int64_t)r->ssize) %
				   (int64_t)r->ssize);
	}
	if (r->off < 0 || (uint64_t)r->off >= r->ssize) {
		r->bucket = HM_UNATTR_OFFSET;
		return;
	}
	attr_describe(b->types, r->type, (uint64_t)r->off, &r->foff, &r->fsize, &r->path,
		      &a->strs);
	if (!r->path || !r->sname || !r->var)
		r->bucket = HM_NR_BUCKETS;
}

const struct insn_res *attr_insn_lookup(hm_attr *a, struct binent *b, uint64_t pc, int trap)
{
	struct insn_res *r;
	size_t j;

	if (2 * (a->nires + 1) > a->ires_slots && ires_grow(a))
		return NULL;
	for (j = ires_hash(b, pc, trap) & (a->ires_slots - 1); a->ires[j];
	     j = (j + 1) & (a->ires_slots - 1))
		if (a->ires[j]->bin == b && a->ires[j]->pc == pc && a->ires[j]->trap == trap) {
			r = a->ires[j];
			/* a patch site's answer stands until a TEXT_POKE */
			if (r->site && r->poke_gen != a->poke_gen) {
				memset(r, 0, sizeof(*r));
				r->bin = b;
				r->pc = pc;
				r->trap = (uint8_t)trap;
				r->poke_gen = a->poke_gen;
				resolve_ip(a, b, pc, trap, r);
			}
			return r;
		}
	r = hm_arena_alloc(&a->rec_arena, sizeof(*r));
	if (!r)
		return NULL;
	memset(r, 0, sizeof(*r));
	r->bin = b;
	r->pc = pc;
	r->trap = (uint8_t)trap;
	r->poke_gen = a->poke_gen;
	resolve_ip(a, b, pc, trap, r);
	a->ires[j] = r;
	a->nires++;
	return r;
}

int attr_resolve_insn(hm_attr *a, const hm_sample *s, uint64_t addr, int trap,
		      hm_attribution *out)
{
	const struct insn_res *r;
	struct binent *b;
	uint64_t link;
	char obj[300];

	if (!(s->has & HM_HAS_IP) || hm_attr_ip(a, s, (const void **)&b, &link))
		return 0;
	if (b->status != BIN_OK)
		return 0;
	attr_prefetch_early(a, b);
	/* A binary without DWARF (its own, or a debug file's found for it)
	 * has no variables to name: the address path's bucket stands. */
	if (attr_binent_types(b) ||
	    !hm_binary_section(attr_binent_dwarf(b), ".debug_info", NULL))
		return 0;
	r = attr_insn_lookup(a, b, link, trap);
	if (!r || r->bucket == HM_NR_BUCKETS)
		return -ENOMEM;
	out->bucket = r->bucket;
	if (r->bucket != HM_ATTR_INSN && r->bucket != HM_ATTR_TLS && r->bucket != HM_ATTR_PERCPU)
		return 0;
	out->sname = r->sname;
	out->kind = r->kind;
	out->ssize = r->ssize;
	out->obj_base = addr - (uint64_t)r->off;
	if (r->named) {
		/* "function:variable" (every frame), "tls:st" (every
		 * thread), "per-cpu:runqueues" (every CPU) */
		out->object = r->object;
	} else {
		snprintf(obj, sizeof(obj), "%s@0x%" PRIx64, r->sname, out->obj_base);
		out->object = hm_strtab_intern(&a->strs, obj);
		if (out->object && r->kind == HM_PROFILE_STRUCT &&
		    attr_inst_note(a, out->object, r->sname, b->types, r->type, out->obj_base,
				   r->ssize))
			return -ENOMEM;
	}
	out->path = r->path;
	out->foff = r->foff;
	out->fsize = r->fsize;
	return out->object ? 1 : -ENOMEM;
}

void attr_insn_free(struct binent *b)
{
	hm_insn_ctx_free(b->insn);
	hm_scopes_free(b->scopes);
	hm_patch_sites_free(b->patch);
	attr_records_free(b);
}
