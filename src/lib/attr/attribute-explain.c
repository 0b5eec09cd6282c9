/* What `hitmap report --explain WHERE` reads of an attribution: the binary
 * it explains, the link address WHERE names there, and how that address
 * resolves by instruction and by sampled registers; output-explain.c
 * prints it, through these functions only. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "attr/attribute-int.h"
#include "base/diag.h"
#include "elf/binary-lib.h"

/* "0x401000", "401000" or "FUNC+0xOFF" / "FUNC" → a link address. */
static int parse_where(const hm_binary *bin, const char *where, uint64_t *pc)
{
	const char *plus = strchr(where, '+');
	char name[256], *end;
	const hm_symbol *f;
	uint64_t off = 0;
	size_t n;

	errno = 0;
	*pc = strtoull(where, &end, 16);
	if (!errno && !*end && end != where)
		return 0;
	n = plus ? (size_t)(plus - where) : strlen(where);
	if (!n || n >= sizeof(name))
		return hm_fail(EINVAL, "explain '%s': expected ADDR or FUNC+OFF", where);
	memcpy(name, where, n);
	name[n] = 0;
	if (plus) {
		errno = 0;
		off = strtoull(plus + 1, &end, 0);
		if (errno || *end || end == plus + 1)
			return hm_fail(EINVAL, "explain '%s': bad offset '%s'", where, plus + 1);
	}
	f = hm_binary_symbol(bin, name);
	if (!f)
		return hm_fail(ENOENT, "explain '%s': no symbol '%s' in %s", where, name,
			       hmi_binary_path(bin));
	*pc = f->addr + off;
	return 0;
}

int hmi_attr_explain_site(hm_attr *a, const char *where, const void **bin, uint64_t *pc)
{
	struct binent *b = NULL;
	size_t i;
	int err;

	for (i = 0; i < a->bin.nbins && !b; i++)
		if (a->bin.bins[i]->user && a->bin.bins[i]->status == BIN_OK &&
		    a->bin.bins[i] != a->bin.vmlinux)
			b = a->bin.bins[i];
	if (!b)
		b = a->bin.vmlinux;
	if (!b)
		return hm_fail(EINVAL, "explain '%s': no binary given", where);
	/* the kcore copy, if any, only once it is known to be this kernel's */
	if (b == a->bin.vmlinux && (err = attr_kcore_check(a)))
		return err;
	attr_binent_types(b);	/* a stripped file's symbols are its debug file's */
	err = parse_where(attr_binent_dwarf(b), where, pc);
	if (err)
		return err;
	*bin = b;
	return 0;
}

const char *hmi_attr_bin_path(const void *bin)
{
	const struct binent *b = bin;

	return b->path;
}

int hmi_attr_bin_kernel(const hm_attr *a, const void *bin)
{
	const struct binent *b = bin;

	return b == a->bin.vmlinux || !b->user;
}

hm_insn_ctx *hmi_attr_bin_insn(const void *bin)
{
	/* the entry is attribution's, the caller's pointer only names it */
	struct binent *b = (struct binent *)bin;

	return attr_binent_insn(b) ? NULL : b->insn;
}

const struct insn_res *hmi_attr_insn_at(hm_attr *a, const void *bin, uint64_t pc, int trap)
{
	return attr_insn_lookup(a, (struct binent *)bin, pc, trap);
}

const char *hmi_attr_regs_bucket_name(int why)
{
	return hmi_attr_bucket_name(attr_regs_bucket(why));
}
