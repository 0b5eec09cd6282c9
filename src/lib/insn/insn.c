/* The instruction at a link address: bytes from the executable segments,
 * decoded once per function for walks from its start (a compact memo), and
 * the instruction before an address (decoding forward from the function's
 * start). */
#include "config.h"
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include "insn/insn.h"
#include "base/util.h"
#include "elf/binary-lib.h"

struct xseg {
	uint64_t vaddr, filesz;
	const uint8_t *bytes;
};

/* One decoded instruction, without its bytes and text (HM_INSN_CORE):
 * what register tracking reads. */
struct core {
	_Alignas(struct hm_insn) unsigned char b[HM_INSN_CORE];
};

/* The instructions from one function's start, in address order, as far as
 * a walk has gone: each decoded once, then copied out by index, and what
 * decoding the next one said once it failed. */
struct fnmemo {
	uint64_t start;
	int err;		/* 0: the next one is not decoded yet */
	struct core *ins;
	size_t n, cap;
};

struct hm_insn_ctx {
	const hm_binary *bin;
	const hm_binary *syms;	/* function symbols: bin, or its debug file */
	struct insn_arch *arch;
	struct xseg *segs;
	size_t nsegs;
	/* the functions walked, and an open-addressing table of their
	 * indexes + 1 by start address */
	struct fnmemo *fns;
	size_t nfns, cfns;
	uint32_t *slot;
	size_t fn_slots;
	struct insn_walks *walks;	/* insn-track.c's */
	struct insn_regs *regs;		/* insn-addr.c's */
};

hm_insn_ctx *hm_insn_ctx_new(const hm_binary *bin, const hm_binary *syms)
{
	Elf *elf = hmi_binary_elf(bin);
	hm_insn_ctx *c;
	const char *file;
	size_t fsize = 0, n = 0, i;

	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->bin = bin;
	c->syms = syms ? syms : bin;
	c->arch = insn_arch_open(hmi_binary_machine(bin));
	if (!c->arch) {
		int e = errno;

		free(c);
		errno = e;
		return NULL;
	}
	file = elf ? elf_rawfile(elf, &fsize) : NULL;
	if (file && !elf_getphdrnum(elf, &n) && n) {
		c->segs = calloc(n, sizeof(*c->segs));
		if (!c->segs) {
			hm_insn_ctx_free(c);
			errno = ENOMEM;
			return NULL;
		}
		for (i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
			    !(ph.p_flags & PF_X) || ph.p_offset > fsize ||
			    ph.p_filesz > fsize - ph.p_offset)
				continue;
			c->segs[c->nsegs++] = (struct xseg){ ph.p_vaddr, ph.p_filesz,
							     (const uint8_t *)file + ph.p_offset };
		}
	} else if (file && hmi_binary_is_module(bin)) {
		/* A kernel module has no segments: its code sections, at the
		 * addresses the module loader gives them. */
		n = hmi_binary_section_count(bin);
		c->segs = calloc(n ? n : 1, sizeof(*c->segs));
		if (!c->segs) {
			hm_insn_ctx_free(c);
			errno = ENOMEM;
			return NULL;
		}
		for (i = 1; i < n; i++) {
			Elf_Scn *scn = elf_getscn(elf, i);
			GElf_Shdr sh;

			if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
			    !(sh.sh_flags & SHF_EXECINSTR) || sh.sh_offset > fsize ||
			    sh.sh_size > fsize - sh.sh_offset)
				continue;
			c->segs[c->nsegs++] = (struct xseg){ hmi_binary_section_addr(bin, i),
							     sh.sh_size,
							     (const uint8_t *)file + sh.sh_offset };
		}
	}
	return c;
}

void hm_insn_ctx_free(hm_insn_ctx *c)
{
	if (!c)
		return;
	insn_arch_close(c->arch);
	free(c->segs);
	for (size_t i = 0; i < c->nfns; i++)
		free(c->fns[i].ins);
	free(c->fns);
	free(c->slot);
	insn_walks_free(c->walks);
	insn_regs_free(c->regs);
	free(c);
}

struct insn_walks **insn_ctx_walks(hm_insn_ctx *c)
{
	return &c->walks;
}

struct insn_regs **insn_ctx_regs(hm_insn_ctx *c)
{
	return &c->regs;
}

const hm_binary *insn_ctx_syms(const hm_insn_ctx *c)
{
	return c->syms;
}

int hm_insn_mem_const(const struct hm_insn_mem *m, uint64_t *at)
{
	if (m->index >= 0)
		return 0;
	if (m->base == HM_REG_NONE)
		*at = (uint64_t)m->disp;
	else if (m->base == HM_REG_IP)
		*at = m->abs;
	else
		return 0;
	return 1;
}

const char *hm_insn_reg_name(int reg)
{
	return insn_arch_reg_name(reg);
}

static int fn_grow(hm_insn_ctx *c)
{
	size_t n = c->fn_slots ? c->fn_slots * 2 : 256, i, j;
	uint32_t *t;

	if (n > (size_t)UINT32_MAX)
		return -ENOMEM;
	t = calloc(n, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < c->fn_slots; i++) {
		if (!c->slot[i])
			continue;
		for (j = hm_hash_u64(c->fns[c->slot[i] - 1].start) & (n - 1); t[j];
		     j = (j + 1) & (n - 1))
			;
		t[j] = c->slot[i];
	}
	free(c->slot);
	c->slot = t;
	c->fn_slots = n;
	return 0;
}

static int decode_raw(hm_insn_ctx *c, uint64_t pc, int text, struct hm_insn *out)
{
	size_t i;

	for (i = 0; i < c->nsegs; i++) {
		const struct xseg *s = &c->segs[i];

		if (pc - s->vaddr < s->filesz) {
			uint64_t off = pc - s->vaddr, n = s->filesz - off;

			return insn_arch_decode(c->arch, s->bytes + off, n > 16 ? 16 : (size_t)n,
						pc, text, out);
		}
	}
	return -ENOENT;
}

int hm_insn_decode_bytes(hm_insn_ctx *c, uint64_t pc, const uint8_t *bytes, size_t n,
			 struct hm_insn *out)
{
	return n ? insn_arch_decode(c->arch, bytes, n > 16 ? 16 : n, pc, 1, out) : -EBADMSG;
}

int insn_cursor_start(hm_insn_ctx *c, uint64_t func, struct insn_cursor *k)
{
	size_t j;

	if (2 * (c->nfns + 1) > c->fn_slots && fn_grow(c))
		return -ENOMEM;
	for (j = hm_hash_u64(func) & (c->fn_slots - 1); c->slot[j]; j = (j + 1) & (c->fn_slots - 1))
		if (c->fns[c->slot[j] - 1].start == func)
			goto found;
	if (c->nfns >= UINT32_MAX ||
	    hm_grow((void **)&c->fns, &c->cfns, c->nfns + 1, sizeof(*c->fns)))
		return -ENOMEM;
	c->fns[c->nfns] = (struct fnmemo){ .start = func };
	c->slot[j] = (uint32_t)++c->nfns;
found:
	*k = (struct insn_cursor){ .fn = c->slot[j] - 1, .i = 0, .pc = func };
	return 0;
}

/* Tracking walks a function from its start, for every sampled address in
 * it that no kept walk stands before: the function's instructions are
 * decoded once (without text), then copied out of its memo by index. */
int insn_cursor_next(hm_insn_ctx *c, struct insn_cursor *k, struct hm_insn *out)
{
	struct fnmemo *f = &c->fns[k->fn];
	struct hm_insn in;
	int err;

	if (k->i == f->n) {
		if (f->err)
			return f->err;
		if (hm_grow((void **)&f->ins, &f->cap, f->n + 1, sizeof(*f->ins)))
			return -ENOMEM;
		err = decode_raw(c, k->pc, 0, &in);
		if (err)
			return f->err = err;
		memcpy(f->ins[f->n++].b, &in, HM_INSN_CORE);
	}
	memcpy(out, f->ins[k->i++].b, HM_INSN_CORE);
	k->pc += out->len;
	return 0;
}

/* Whole instructions are asked for once per distinct sampled address (the
 * caller memoises what it finds): decoded afresh, text and all. */
int hm_insn_decode(hm_insn_ctx *c, uint64_t pc, struct hm_insn *out)
{
	return decode_raw(c, pc, 1, out);
}

int hm_insn_call_keeps(hm_insn_ctx *c, const struct hm_insn *call)
{
	const hm_symbol *f;

	if (call->op != HM_OP_CALL || !call->imm)
		return 0;
	f = hm_binary_func_at(c->syms, (uint64_t)call->imm);
	return f && f->addr == (uint64_t)call->imm &&
	       (!strcmp(f->name, "__fentry__") || !strcmp(f->name, "mcount") ||
		!strcmp(f->name, "__mcount"));
}

int hm_insn_prev(hm_insn_ctx *c, uint64_t pc, struct hm_insn *out)
{
	const hm_symbol *f = hm_binary_func_at(c->syms, pc - 1);
	struct insn_cursor k;
	struct hm_insn in;
	int err;

	if (!f || pc <= f->addr)
		return -ENOENT;
	err = insn_cursor_start(c, f->addr, &k);
	while (!err && k.pc < pc) {
		err = insn_cursor_next(c, &k, &in);
		if (!err && k.pc == pc)
			return hm_insn_decode(c, in.pc, out);
	}
	return err ? err : -ENOENT;
}
