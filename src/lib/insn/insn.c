/* The instruction at a link address: bytes from the executable segments,
 * decoded once per address for walks (a compact memo), and the instruction
 * before an address (decoding forward from the function's start). */
#include "config.h"
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include "insn/insn.h"
#include "base/util.h"

struct xseg {
	uint64_t vaddr, filesz;
	const uint8_t *bytes;
};

/* One decoded instruction, without its bytes and text (HM_INSN_CORE):
 * what register tracking reads. */
struct memo {
	uint64_t pc;
	int err;		/* 0: core valid */
	_Alignas(struct hm_insn) unsigned char core[HM_INSN_CORE];
};

struct hm_insn_ctx {
	const hm_binary *bin;
	const hm_binary *syms;	/* function symbols: bin, or its debug file */
	struct insn_arch *arch;
	struct xseg *segs;
	size_t nsegs;
	/* the instructions decoded, in decoding order (a function's are
	 * next to each other, as tracking walks them), and an open-addressing
	 * table of their indexes + 1 by address */
	struct memo *memo;
	size_t nmemo, cmemo;
	uint32_t *slot;
	size_t memo_slots;
};

hm_insn_ctx *hm_insn_ctx_new(const hm_binary *bin, const hm_binary *syms)
{
	Elf *elf = hm_binary_elf(bin);
	hm_insn_ctx *c;
	const char *file;
	size_t fsize = 0, n = 0, i;

	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->bin = bin;
	c->syms = syms ? syms : bin;
	c->arch = insn_arch_open(hm_binary_machine(bin));
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
	} else if (file && hm_binary_is_module(bin)) {
		/* A kernel module has no segments: its code sections, at the
		 * addresses the module loader gives them. */
		n = hm_binary_section_count(bin);
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
			c->segs[c->nsegs++] = (struct xseg){ hm_binary_section_addr(bin, i),
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
	free(c->memo);
	free(c->slot);
	free(c);
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

static int memo_grow(hm_insn_ctx *c)
{
	size_t n = c->memo_slots ? c->memo_slots * 2 : 256, i, j;
	uint32_t *t;

	if (n > (size_t)UINT32_MAX)
		return -ENOMEM;
	t = calloc(n, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < c->memo_slots; i++) {
		if (!c->slot[i])
			continue;
		for (j = hm_hash_u64(c->memo[c->slot[i] - 1].pc) & (n - 1); t[j];
		     j = (j + 1) & (n - 1))
			;
		t[j] = c->slot[i];
	}
	free(c->slot);
	c->slot = t;
	c->memo_slots = n;
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

/* Tracking walks a function from its start for every sampled address in
 * it: each instruction is decoded once (without text), then copied out of
 * the memo.  A walk's next instruction is most often the memo's next entry
 * (decoded by the first walk, in order): *hint, the entry of the previous
 * one, finds it without hashing. */
int insn_decode_core(hm_insn_ctx *c, uint64_t pc, struct hm_insn *out, size_t *hint)
{
	struct hm_insn in;
	struct memo *m;
	size_t j;

	if (hint && *hint + 1 < c->nmemo && c->memo[*hint + 1].pc == pc) {
		m = &c->memo[++*hint];
		goto found;
	}

	if (2 * (c->nmemo + 1) > c->memo_slots && memo_grow(c))
		return -ENOMEM;
	for (j = hm_hash_u64(pc) & (c->memo_slots - 1); c->slot[j];
	     j = (j + 1) & (c->memo_slots - 1))
		if (c->memo[c->slot[j] - 1].pc == pc) {
			m = &c->memo[c->slot[j] - 1];
			if (hint)
				*hint = c->slot[j] - 1;
			goto found;
		}
	if (c->nmemo >= UINT32_MAX ||
	    hm_grow((void **)&c->memo, &c->cmemo, c->nmemo + 1, sizeof(*c->memo)))
		return -ENOMEM;
	m = &c->memo[c->nmemo++];
	c->slot[j] = (uint32_t)c->nmemo;
	if (hint)
		*hint = c->nmemo - 1;
	m->pc = pc;
	m->err = decode_raw(c, pc, 0, &in);
	if (!m->err)
		memcpy(m->core, &in, HM_INSN_CORE);
found:
	if (!m->err)
		memcpy(out, m->core, HM_INSN_CORE);
	return m->err;
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
	struct hm_insn in;
	size_t hint = SIZE_MAX;
	uint64_t at;
	int err;

	if (!f || pc <= f->addr)
		return -ENOENT;
	for (at = f->addr; at < pc; at += in.len) {
		err = insn_decode_core(c, at, &in, &hint);
		if (err)
			return err;
		if (at + in.len == pc)
			return hm_insn_decode(c, at, out);
	}
	return -ENOENT;
}
