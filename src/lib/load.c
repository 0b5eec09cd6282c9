/* load: hm_types_load() — pick the debug-info source and finish the table. */
#include "config.h"
#include <errno.h>
#include "hitmap/types.h"
#include "btf.h"
#include "diag.h"
#include "dwarf.h"
#include "types-int.h"

/* Chains of typedefs, qualifiers, pointers and arrays must end: corrupt
 * debug info can close one into a cycle (no C type is its own pointer or
 * element), which every consumer walking it would have to guard against.
 * No real chain comes near 256 links. */
static int check_chains(hm_binary *bin, const hm_types *t)
{
	for (size_t i = 1; i < t->types.n; i++) {
		const hm_type *ty = NULL;
		hm_type_id id = (hm_type_id)i;
		unsigned hop;

		for (hop = 0; hop < 256 && (ty = hm_types_get(t, id)); hop++) {
			if (ty->kind != HM_KIND_TYPEDEF && ty->kind != HM_KIND_CONST &&
			    ty->kind != HM_KIND_VOLATILE && ty->kind != HM_KIND_RESTRICT &&
			    ty->kind != HM_KIND_ATOMIC && ty->kind != HM_KIND_POINTER &&
			    ty->kind != HM_KIND_ARRAY && ty->kind != HM_KIND_REFERENCE &&
			    ty->kind != HM_KIND_RVALUE_REFERENCE)
				break;
			id = ty->target;
		}
		if (hop == 256)
			return hm_fail(EBADMSG, "%s: corrupt debug info: type chain through '%s' "
				       "does not end (a cycle)", hm_binary_path(bin),
				       ty->name ? ty->name : "(anonymous)");
	}
	return 0;
}

int hm_types_load(hm_binary *bin, const struct hm_load_opts *opts, hm_types **out)
{
	static const struct hm_load_opts defaults;
	hm_types *t;
	int rc, has_btf;

	if (!bin || !out)
		return -EINVAL;
	if (!opts)
		opts = &defaults;
	t = hm_types_new();
	if (!t)
		return -ENOMEM;
	has_btf = hm_binary_section(bin, ".BTF", NULL) != NULL;
	if (opts->btf && has_btf) {
		rc = hm_btf_load_elf(bin, t, opts);
		goto out;
	}
	rc = hm_dwarf_load(bin, opts, t);
	if (rc == -ENODATA && has_btf) {
		/* no DWARF, but the kernel's compact format is there */
		hm_types_free(t);
		if (!(t = hm_types_new()))
			return -ENOMEM;
		rc = hm_btf_load_elf(bin, t, opts);
		goto out;
	}
	if (rc == -ENODATA)
		hm_fail(ENODATA, "%s: no DWARF debug info (stripped? install the -dbg package)",
			hm_binary_path(bin));
	else if (rc == -ENOMEM)
		hm_fail(ENOMEM, "%s: out of memory loading debug info", hm_binary_path(bin));
	if (!rc && opts->only) {
		/* in `only` mode nested types were loaded as needed: make them
		 * findable too, after the requested ones */
		for (size_t i = 1; !rc && i < t->types.n; i++) {
			const hm_type *ty = &t->types.v[i];

			if ((ty->kind == HM_KIND_STRUCT || ty->kind == HM_KIND_UNION ||
			     ty->kind == HM_KIND_CLASS) && !ty->declaration && ty->name)
				rc = hm_types_note_struct(t, i);
		}
	}
	if (!rc)
		rc = hm_types_finish(t);
out:
	if (!rc)
		rc = check_chains(bin, t);
	if (rc) {
		hm_types_free(t);
		return rc;
	}
	*out = t;
	return 0;
}
