/* dwarf-load: hm_dwarf_load(), the DWARF loader's driver: opens the file
 * (and its dwz supplement), walks its units serially or on threads, keeps
 * suggestions for the names asked for and not found, and frees what the
 * walk built. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dwarf/dwarf-int.h"
#include "dwarf/dwarf-load.h"
#include "base/diag.h"
#include "elf/binary-lib.h"

/* Whether a hint at distance d named s goes before one at bd named b:
 * names break ties, as the order the seen names are kept in (their
 * addresses' hashes) would differ from run to run. */
static int hint_before(unsigned d, const char *s, unsigned bd, const char *b)
{
	return d < bd || (d == bd && b && strcmp(s, b) < 0);
}

/* For each requested name not found, keep the 3 closest seen names. */
static void keep_hints(struct loader *ld)
{
	for (size_t i = 0; i < ld->nr_only; i++) {
		const char *best[3] = { 0 };
		unsigned bd[3] = { ~0u, ~0u, ~0u };
		unsigned cap = strlen(ld->only[i]) / 3 + 1;

		if (ld->found[i])
			continue;
		for (size_t k = 0; k < ld->nseen_slots; k++) {
			const char *s = ld->seen[k];
			unsigned d;
			int p;

			if (!s || (d = hm_edit_distance(ld->only[i], s, cap)) > cap ||
			    !hint_before(d, s, bd[2], best[2]))
				continue;
			for (p = 0; p < 3 && best[p] && strcmp(best[p], s); p++)
				;
			if (p < 3 && best[p])
				continue;	/* the same name again (unmerged strings) */
			for (p = 2; p > 0 && hint_before(d, s, bd[p - 1], best[p - 1]); p--) {
				bd[p] = bd[p - 1];
				best[p] = best[p - 1];
			}
			bd[p] = d;
			best[p] = s;
		}
		for (int k = 0; k < 3 && best[k]; k++) {
			const char *s = hm_types_intern(ld->t, best[k]);

			if (!s || hm_vec_push(ld->t->hints, s) < 0)
				return;
		}
	}
}

int hm_dwarf_load(hm_binary *bin, const struct hm_load_opts *opts, hm_types *t)
{
	struct loader ld = { .t = t, .bin = bin, .opts = opts, .path = hmi_binary_path(bin) };
	struct hm_dwarf_obj *obj = NULL;
	int rc;

	rc = hm_dwarf_open(bin, &ld.dbg, &obj);
	if (rc)
		return rc;
	ld.main_dbg = ld.dbg;
	ld.big_endian = hmi_binary_big_endian(bin) == 1;
	ld.x3 = hm_dwarf_widened(obj);
	ld.obj = obj;
	rc = hm_dwarf_open_alt(bin, &ld.alt_bin, &ld.alt_dbg, &ld.alt_obj);
	if (ld.alt_bin) {
		/* libdwarf reads DW_FORM_GNU_strp_alt strings from the tied file */
		Dwarf_Error e = NULL;

		if (dwarf_set_tied_dbg(ld.dbg, ld.alt_dbg, &e) != DW_DLV_OK)
			hm_dwarf_free_error(ld.dbg, e);
	}
	if (opts->only) {
		while (opts->only[ld.nr_only])
			ld.nr_only++;
		ld.only = calloc(ld.nr_only + 1, sizeof(*ld.only));
		ld.found = calloc(ld.nr_only + 1, 1);
		if (!ld.only || !ld.found)
			rc = -ENOMEM;
		for (size_t i = 0; !rc && i < ld.nr_only; i++)
			ld.only[i] = opts->only[i];
	}
	if (!rc) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		unsigned threads = opts->threads ? opts->threads : cpus > 0 ? (unsigned)cpus : 1;

		/* dwz: the alt file's partial units are walked once, from the
		 * first unit importing them, through the main handle: serial */
		rc = threads > 1 && !ld.alt_bin ? dw_walk_parallel(&ld, threads)
						 : dw_walk_serial(&ld);
	}
	if (!rc && ld.err)
		rc = ld.err;
	if (!rc && ld.nr_found < ld.nr_only)
		keep_hints(&ld);
	hm_diag(HM_DIAG_DEBUG, "%s: %zu units, %zu type entries read, %zu types, %zu members, "
		"%zu variables", ld.path, ld.nr_cus, ld.nr_converted, t->types.n, t->members.n,
		t->vars.n);
	for (unsigned i = 0; i < NR_FTABS; i++)
		dw_ftab_clear(&ld.ftabs[i]);
	if (ld.alt_bin) {
		hm_dwarf_close(ld.alt_dbg, ld.alt_obj);
		hm_binary_close(ld.alt_bin);
	}
	free(ld.walked_alt.v);
	hm_dwarf_close(ld.main_dbg, obj);
	free(ld.map);
	free(ld.paths);
	free(ld.smembers.v);
	free(ld.sdims.v);
	free(ld.sparams.v);
	free(ld.senums.v);
	free(ld.only);
	free(ld.found);
	free(ld.spans.v);
	free(ld.seen);
	return rc;
}
