/* Which bytes ran: the instruction of a sample's IP decoded from the bytes
 * the CPU executed, not merely the file's.  The kernel rewrites its patch
 * sites (alternatives, static keys, ftrace): a TEXT_POKE record says what
 * it wrote, and `perf record --kcore` keeps a copy of the running text.
 * This file keeps both, and decodes a sample's instruction from the
 * newest of them that holds it, else from the file. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "attr/attribute-int.h"
#include "elf/patchsites.h"
#include "elf/kcore.h"
#include "base/diag.h"

/* The most bytes one instruction can take (x86: 15) and more: what is read
 * of the kcore copy to decode one. */
#define INSN_MAX_BYTES 16

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

int attr_text_patched(struct binent *b, uint64_t pc)
{
	const hm_patch_sites *ps = binent_patch(b);
	uint64_t lo, hi;

	return ps && site_at(b, ps, pc, &lo, &hi);
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
	hm_kcore_free(a->kern.kcore);
	a->kern.kcore = k;
	a->kern.kcore_ok = 0;
	return 1;
}

int attr_kcore_check(hm_attr *a)
{
	size_t agree, compared;
	uint64_t off;
	int err;

	a->kern.kcore_ok = 0;
	if (!a->kern.kcore || !a->bin.vmlinux || a->bin.vmlinux->status != BIN_OK)
		return 0;
	err = hm_kcore_check(a->kern.kcore, a->bin.vmlinux->bin, &off, &agree, &compared);
	if (err == -ENOMEM)
		return err;
	if (err == -ENOENT) {
		hm_diag(HM_DIAG_ERROR, "%s: no _stext in its kallsyms or in %s: cannot tell whether "
			"it is that kernel's text", hm_kcore_path(a->kern.kcore), a->bin.vmlinux->path);
		return -ESRCH;
	}
	if (err) {
		hm_diag(HM_DIAG_ERROR, "%s: the text of another kernel than %s (%zu of %zu kallsyms "
			"functions where its symbols put them): its bytes would name what did not run",
			hm_kcore_path(a->kern.kcore), a->bin.vmlinux->path, agree, compared);
		return -ESRCH;
	}
	hm_diag(HM_DIAG_DEBUG, "%s: %zu of %zu kallsyms functions where %s puts them, "
		"KASLR offset 0x%" PRIx64 ": kernel instructions are decoded from it",
		hm_kcore_path(a->kern.kcore), agree, compared, a->bin.vmlinux->path, off);
	a->kern.kcore_kaslr = off;
	a->kern.kcore_ok = 1;
	/* a recording without a kernel map: the copy's kallsyms says where
	 * the kernel was (a map read later must agree) */
	if (!a->kern.kaslr_known) {
		a->kern.kaslr = off;
		a->kern.kaslr_known = 1;
		a->kern.kaslr_from_kcore = 1;
	}
	return 0;
}

/* The bytes that ran at vmlinux link address link, as the kcore copy holds
 * them, and in *n how many of [link, link + max) it holds: NULL when there
 * is no copy (or it was not checked) or it does not hold link. */
static const uint8_t *kcore_at(const hm_attr *a, const struct binent *b, uint64_t link, size_t max,
			       size_t *n)
{
	if (!a->kern.kcore_ok || b != a->bin.vmlinux)
		return NULL;
	return hm_kcore_bytes(a->kern.kcore, link + a->kern.kcore_kaslr, max, n);
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

	if (b != a->bin.vmlinux)
		return -ESRCH;
	/* The last poke that wrote any byte of the site: one that wrote only
	 * part of it leaves bytes of which no record says what they are. */
	for (i = a->kern.npokes; i-- > 0;)
		if (a->kern.pokes[i].link < hi && lo - a->kern.pokes[i].link < a->kern.pokes[i].len) {
			k = &a->kern.pokes[i];
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
	if (!a->bin.vmlinux || !a->kern.kaslr_known || !t->new_len)
		return 0;
	if (a->kern.npokes == a->kern.pokes_cap) {
		size_t cap = a->kern.pokes_cap ? a->kern.pokes_cap * 2 : 16;
		struct poke *v = realloc(a->kern.pokes, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		a->kern.pokes = v;
		a->kern.pokes_cap = cap;
	}
	k = &a->kern.pokes[a->kern.npokes];
	k->link = t->addr - a->kern.kaslr;
	k->len = t->new_len;
	k->bytes = malloc(t->new_len);
	if (!k->bytes)
		return -ENOMEM;
	memcpy(k->bytes, t->new_bytes, t->new_len);
	a->kern.npokes++;
	a->kern.poke_gen++;
	return 0;
}

void attr_pokes_free(hm_attr *a)
{
	for (size_t i = 0; i < a->kern.npokes; i++)
		free(a->kern.pokes[i].bytes);
	free(a->kern.pokes);
}

/* The instruction before a trapping IP pc (a breakpoint's, PEBS with
 * precise_ip 1): the access was made by the instruction that ends at pc.
 * A breakpoint's IP is past the access: the instruction before it is the
 * one to check against the patch sites. */
static int insn_before(hm_attr *a, struct binent *b, const hm_patch_sites *ps, uint64_t pc,
		       struct insn_res *r)
{
	const struct hm_patch_site *site;
	const uint8_t *kb;
	uint64_t lo, hi;
	size_t kn;

	if ((site = hm_patch_sites_ending(ps, pc))) {
		r->site = 1;
		if (kcore_site_insn(a, b, site->addr, site->addr + site->len, pc, 1, &r->insn)) {
			r->bucket = HM_UNATTR_PATCHED;
			return 0;
		}
		r->from_kcore = 1;
	} else {
		if (hm_insn_prev(b->insn, pc, &r->insn))
			return 0;
		r->access_pc = r->insn.pc;
		if ((site = site_at(b, ps, r->access_pc, &lo, &hi))) {
			r->site = 1;
			if (hi != pc ||
			    kcore_site_insn(a, b, lo, hi, r->access_pc, 0, &r->insn) ||
			    r->insn.pc + r->insn.len != pc) {
				r->bucket = HM_UNATTR_PATCHED;
				return 0;
			}
			r->from_kcore = 1;
		} else if ((kb = kcore_at(a, b, r->access_pc, INSN_MAX_BYTES, &kn))) {
			/* the file's instruction boundary, the copy's bytes:
			 * the instruction must end where the file's does,
			 * or the text changed where no table says */
			if (hm_insn_decode_bytes(b->insn, r->access_pc, kb, kn, &r->insn))
				return 0;
			r->from_kcore = 1;
			if (r->insn.pc + r->insn.len != pc) {
				r->bucket = HM_UNATTR_PATCHED;
				return 0;
			}
		}
	}
	r->access_pc = r->insn.pc;
	return 1;
}

/* The instruction at pc (the IP is the access itself): a patch site's from
 * the bytes a TEXT_POKE wrote there, else from the kcore copy; any other
 * from the copy when it holds it, else from the file. */
static int insn_at(hm_attr *a, struct binent *b, const hm_patch_sites *ps, uint64_t pc,
		   struct insn_res *r)
{
	const uint8_t *kb;
	uint64_t lo, hi;
	size_t kn;
	int err;

	if (site_at(b, ps, pc, &lo, &hi)) {
		r->site = 1;
		err = poked_insn(a, b, lo, hi, pc, &r->insn);
		if (!err) {
			r->poked = 1;
		} else if (err == -ESRCH && !kcore_site_insn(a, b, lo, hi, pc, 0, &r->insn)) {
			r->from_kcore = 1;
		} else {
			r->bucket = HM_UNATTR_PATCHED;
			return 0;
		}
	} else if ((kb = kcore_at(a, b, pc, INSN_MAX_BYTES, &kn))) {
		if (hm_insn_decode_bytes(b->insn, pc, kb, kn, &r->insn))
			return 0;
		r->from_kcore = 1;
	} else if (hm_insn_decode(b->insn, pc, &r->insn)) {
		return 0;
	}
	return 1;
}

int attr_text_insn(hm_attr *a, struct binent *b, uint64_t pc, int trap, struct insn_res *r)
{
	const hm_patch_sites *ps;

	r->bucket = HM_UNATTR_NO_INSN;
	r->access_pc = pc;
	if (attr_binent_insn(b))
		return 0;
	/* The kernel rewrote the bytes of a patch site: decoding the file's
	 * would name what did not run; the bytes a TEXT_POKE record says
	 * were written there may be decoded instead.  With the kcore copy of
	 * `perf record --kcore`, the bytes that ran are there: a site is
	 * decoded from them (a TEXT_POKE after the copy was taken wins), and
	 * so is every other instruction it holds. */
	ps = binent_patch(b);
	return trap ? insn_before(a, b, ps, pc, r) : insn_at(a, b, ps, pc, r);
}
