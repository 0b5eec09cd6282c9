/* A binary of the attribution (struct binent): its entry, its segments,
 * and what is read from it once, on first use: types and variables, the
 * instruction decoder, the scope index.  Freed by the driver
 * (attribute.c). */
#include "config.h"
#include <errno.h>
#include <gelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "elf/debuginfo-lib.h"
#include "attr/attribute-int.h"
#include "dwarf/dwarf-scope.h"
#include "load/typecache.h"
#include "insn/insn.h"
#include "base/diag.h"
#include "elf/binary-lib.h"

int attr_binent_phdrs(struct binent *b)
{
	Elf *elf = hmi_binary_elf(b->bin);
	size_t n, i;

	if (!elf || elf_getphdrnum(elf, &n))
		return 0;
	b->loads = calloc(n + 1, sizeof(*b->loads));
	if (!b->loads)
		return -ENOMEM;
	b->lo = UINT64_MAX;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		b->loads[b->nloads++] = (struct seg){ ph.p_vaddr, ph.p_memsz, ph.p_offset,
						      ph.p_filesz, ph.p_flags };
		if (ph.p_vaddr < b->lo)
			b->lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > b->hi)
			b->hi = ph.p_vaddr + ph.p_memsz;
	}
	if (!b->nloads)
		b->lo = b->hi = 0;
	return 0;
}

struct binent *attr_binent_new(hm_attr *a, const char *path, hm_binary *bin, int status)
{
	struct binent *b = calloc(1, sizeof(*b));

	if (b)
		b->load = &a->opt.load;
	if (!b || hm_grow((void **)&a->bin.bins, &a->bin.bins_cap, a->bin.nbins + 1,
			  sizeof(*a->bin.bins))) {
		free(b);
		hm_binary_close(bin);
		return NULL;
	}
	b->path = strdup(path);
	b->bin = bin;
	b->status = status;
	if (!b->path || (bin && attr_binent_phdrs(b))) {
		/* nothing else was made yet (the driver frees the rest) */
		free(b->path);
		free(b->loads);
		hm_binary_close(b->bin);
		free(b);
		return NULL;
	}
	a->bin.bins[a->bin.nbins++] = b;
	return b;
}

static int cmp_var(const void *pa, const void *pb)
{
	const struct var_ref *x = pa, *y = pb;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int attr_binent_debug(struct binent *b)
{
	/* Stripped system libraries are common: their debug info is looked
	 * for where distributions keep it (libc6-dbg: by build-id), quietly:
	 * a miss is one note from the caller, not the list of places tried. */
	if (!b->dbg_known && !b->dbg && !hmi_binary_section(b->bin, ".debug_info", NULL) &&
	    !hmi_binary_section(b->bin, ".BTF", NULL)) {
		struct hm_diag_count quiet = { 0 }, *prev = hm_diag_divert(&quiet);
		hm_binary *dbg = NULL;
		enum hm_debug_source src;
		int err = hmi_debuginfo_find(b->bin, b->load->debuginfo, &dbg, &src);

		hm_diag_divert(prev);
		if (err || dbg == b->bin) {
			b->dbg_known = 1;
			return b->dbg_err = -ENODATA;
		}
		hm_diag(HM_DIAG_DEBUG, "%s: debug info from %s (%s)", b->path,
			hmi_binary_path(dbg), hmi_debug_source_name(src));
		b->dbg = dbg;
		b->own_dbg = 1;
	}
	b->dbg_known = 1;
	return b->dbg_err;
}

/* Load the types and the address-sorted variables of b, once. */
int attr_binent_types(struct binent *b)
{
	struct hm_load_opts o = *b->load;
	unsigned long said;
	size_t i, n;
	int err;

	if (b->types)
		return 0;
	if (b->types_err)
		return b->types_err;
	if ((err = attr_binent_debug(b)))
		return b->types_err = err;
	said = hm_diag_said();	/* the search above is quiet in every run */
	err = hm_types_load(b->dbg ? b->dbg : b->bin, &o, &b->types);
	if (hm_diag_said() != said)
		b->load_said = 1;
	if (err) {
		b->types_err = err;
		return err;
	}
	n = hm_types_nr_variables(b->types);
	b->vars = calloc(n + 1, sizeof(*b->vars));
	if (!b->vars)
		return b->types_err = -ENOMEM;
	for (i = 0; i < n; i++) {
		const hm_variable *v = hm_types_variable(b->types, i);
		uint64_t size;

		if (!v->has_addr || !v->type)
			continue;
		size = hm_types_sizeof(b->types, v->type);
		b->vars[b->nvars++] = (struct var_ref){ v->addr, size ? size : 1, v };
	}
	qsort(b->vars, b->nvars, sizeof(*b->vars), cmp_var);
	return 0;
}

/* The variable whose extent contains link address x. */
const struct var_ref *attr_var_at(const struct binent *b, uint64_t x)
{
	size_t lo = 0, hi = b->nvars, k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->vars[mid].addr <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Several variables can start at one address (aliases): the last
	 * candidates are checked, the largest that contains x wins. */
	for (k = 0; lo > 0 && k < 8; k++, lo--) {
		const struct var_ref *v = &b->vars[lo - 1];

		if (x - v->addr < v->size)
			return v;
	}
	return NULL;
}

int attr_binent_insn(struct binent *b)
{
	unsigned long said;

	if (b->insn || b->insn_err)
		return b->insn_err;
	/* The bytes that ran are the mapped file's; where its functions
	 * start, a stripped file's debug file says (its types are not
	 * needed: a run answered from the cache loads none). */
	attr_binent_debug(b);
	said = hm_diag_said();
	b->insn = hm_insn_ctx_new(b->bin, attr_binent_dwarf(b));
	if (hm_diag_said() != said)
		b->load_said = 1;
	if (!b->insn)
		return b->insn_err = -errno;
	return 0;
}

/* The scopes of b's DWARF file, answered from an earlier run's answers
 * where the cache has them: most reports profile a program already
 * profiled, and its C library is in every one.  quiet: what opening the
 * DWARF says is counted there, not said (the cache's own debug lines are
 * said). */
int attr_binent_scopes_quietly(struct binent *b, struct hm_diag_count *quiet)
{
	hm_binary *d = attr_binent_dwarf(b);
	struct hm_diag_count *prev = NULL;
	unsigned long said = hm_diag_said();
	char dir[PATH_MAX];
	int use;

	if (b->scopes || b->scopes_err)
		return b->scopes_err;
	use = hm_typecache_usable(d, b->load, dir, sizeof(dir));
	if (use) {
		void *blob;
		size_t len;

		if (!hm_scopecache_read(d, dir, &blob, &len)) {
			int rc = hm_scopes_open_answers(d, blob, len, &b->scopes);

			free(blob);
			if (rc)
				hm_diag(HM_DIAG_DEBUG, "%s: scope answers unusable: %s",
					hmi_binary_path(d), strerror(-rc));
		}
		if (b->scopes)
			goto keep;
	}
	if (quiet)
		prev = hm_diag_divert(quiet);
	if (use & HM_TYPECACHE_WRITE)
		b->scopes_err = hm_scopes_open_answers(d, NULL, 0, &b->scopes);
	else	/* nowhere to keep answers: record none */
		b->scopes_err = hm_scopes_open(d, &b->scopes);
	if (quiet)
		hm_diag_divert(prev);
	if (hm_diag_said() != said)
		b->load_said = 1;
	if (b->scopes_err)
		return b->scopes_err;
keep:
	if (use & HM_TYPECACHE_WRITE)
		b->answers_dir = strdup(dir);
	return 0;
}

int attr_binent_scopes(struct binent *b)
{
	return attr_binent_scopes_quietly(b, NULL);
}

void attr_binent_scopes_undo(struct binent *b)
{
	hm_scopes_free(b->scopes);
	b->scopes = NULL;
	b->scopes_err = 0;
	free(b->answers_dir);
	b->answers_dir = NULL;
}

void attr_binent_scopes_save(struct binent *b)
{
	void *blob;
	size_t len;

	if (b->scopes && b->answers_dir && hm_scopes_answers(b->scopes, &blob, &len) == 1) {
		hm_scopecache_write(attr_binent_dwarf(b), b->answers_dir, blob, len);
		free(blob);
	}
	free(b->answers_dir);
	b->answers_dir = NULL;
}

const hm_types *hmi_attr_types_with(const hm_attr *a, const char *name, hm_type_id *id)
{
	for (size_t i = 0; i <= a->bin.nbins; i++) {
		struct binent *b = i < a->bin.nbins ? a->bin.bins[i] : a->bin.vmlinux;

		/* a binary answered from the cache has the types a run
		 * without the answers loaded, once asked for */
		if (b && !b->types && b->answered)
			attr_binent_types(b);
		if (!b || !b->types)
			continue;
		*id = hm_types_find_struct(b->types, name);
		if (*id != HM_TYPE_NONE)
			return b->types;
	}
	return NULL;
}
