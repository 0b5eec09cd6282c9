/* scopedump: the variables the scope index (dwarf-scope.h) finds at PCs.
 *
 *   scopedump FILE PC...      (PCs in hex, with or without 0x)
 *   scopedump -t FILE PC...   also time the index and the lookups (stderr)
 *
 * For each PC one line "pc 0xPC N FUNC DEPTH FNDEPTH" (the innermost scope,
 * "- 0 0" when none), then one line per variable, innermost scopes first:
 *   "  NAME KIND REG OFF param|local DEPTH FNDEPTH FUNC TYPE"
 * KIND is reg, breg, fbreg or addr; REG the DWARF register number (-1 for
 * none; for fbreg the frame base: "cfa" or its register); OFF decimal; TYPE
 * "*"-per-pointer-depth then "struct NAME" / "union NAME" / "class NAME" or
 * "-" when the type ends in no named record.  Exit 0, 3 on an error. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hitmap/hitmap.h"
#include "hitmap/binary.h"
#include "dwarf/dwarf-scope.h"
#include "dwarf/dwarf-compat.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void diag(void *ctx, enum hm_diag_level level, const char *msg)
{
	(void)level;
	(void)ctx;
	fprintf(stderr, "%s\n", msg);
}

static const char *kind_name(enum hm_vloc_kind k)
{
	switch (k) {
	case HM_VLOC_REG: return "reg";
	case HM_VLOC_BREG: return "breg";
	case HM_VLOC_FBREG: return "fbreg";
	case HM_VLOC_ADDR: return "addr";
	}
	return "?";
}

static const char *rec_kind(int k)
{
	return k == DW_TAG_union_type ? "union" : k == DW_TAG_class_type ? "class" : "struct";
}

int main(int argc, char **argv)
{
	int timing = 0, argi = 1, rc;
	hm_binary *bin;
	hm_scopes *s;
	double t0, t1, tl = 0;

	if (argi < argc && !strcmp(argv[argi], "-t"))
		timing = 1, argi++;
	if (argc - argi < 1) {
		fprintf(stderr, "usage: scopedump [-t] FILE PC...\n");
		return 2;
	}
	hm_set_diag(diag, NULL);
	bin = hm_binary_open(argv[argi]);
	if (!bin) {
		fprintf(stderr, "scopedump: cannot open %s\n", argv[argi]);
		return 3;
	}
	t0 = now();
	rc = hm_scopes_open(bin, &s);
	t1 = now();
	if (rc) {
		fprintf(stderr, "scopedump: %s: %s\n", argv[argi], strerror(-rc));
		hm_binary_close(bin);
		return 3;
	}
	if (timing)
		fprintf(stderr, "open %.3f s\n", t1 - t0);
	for (int i = argi + 1; i < argc; i++) {
		const struct hm_scope_var *v;
		uint64_t pc = strtoull(argv[i], NULL, 16);
		double a = now();
		int n = hm_scopes_at(s, pc, &v);

		tl += now() - a;
		if (n < 0) {
			fprintf(stderr, "scopedump: %s: pc 0x%llx: %s\n", argv[argi],
				(unsigned long long)pc, strerror(-n));
			hm_scopes_free(s);
			hm_binary_close(bin);
			return 3;
		}
		{
			const char *fn = NULL;
			unsigned d = 0, fd = 0;
			int r = hm_scopes_scope_at(s, pc, &fn, &d, &fd);

			if (r < 0) {
				fprintf(stderr, "scopedump: %s: pc 0x%llx: %s\n", argv[argi],
					(unsigned long long)pc, strerror(-r));
				return 3;
			}
			/* scope_at may reuse nothing of hm_scopes_at's result */
			printf("pc 0x%llx %d %s %u %u\n", (unsigned long long)pc, n,
			       r && fn ? fn : "-", d, fd);
		}
		for (int k = 0; k < n; k++) {
			char reg[16];

			if (v[k].kind == HM_VLOC_FBREG) {
				if (v[k].fb_cfa)
					snprintf(reg, sizeof(reg), "cfa");
				else
					snprintf(reg, sizeof(reg), "%d", v[k].fb_reg);
			} else {
				snprintf(reg, sizeof(reg), "%d", v[k].reg);
			}
			printf("  %s %s %s %lld %s %u %u %s ", v[k].name, kind_name(v[k].kind), reg,
			       (long long)v[k].off, v[k].is_param ? "param" : "local", v[k].depth,
			       v[k].fn_depth, v[k].func ? v[k].func : "?");
			for (unsigned d = 0; d < v[k].ptr_depth; d++)
				putchar('*');
			if (v[k].record)
				printf("%s %s\n", rec_kind(v[k].record_kind), v[k].record);
			else
				printf("-\n");
		}
	}
	if (timing)
		fprintf(stderr, "lookups %.3f s\n", tl);
	hm_scopes_free(s);
	hm_binary_close(bin);
	return 0;
}
