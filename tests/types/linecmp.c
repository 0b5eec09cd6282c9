/* linecmp: hitmap's line table reader (dwline.c) against libdwarf's.
 *
 *   linecmp FILE        file names against libdwarf
 *   linecmp -r FILE     the rows, for comparison with `readelf -wL -W`
 *
 * Without -r, for every compile unit of FILE each file name of the line
 * table header (hm_dwl_path) must equal the one dwarf_srcfiles() gives
 * (with "." components left out, as hitmap leaves them out), or
 * differ by libdwarf's known fault with directory 0 (counted, see
 * libdwarf_dir0); prints "units U files F libdwarf-dir0 N" and exits 0
 * when all agree, otherwise one line per disagreement and exit 1.  libdwarf is an oracle only for well-formed
 * input (hitmap reads line tables itself because libdwarf 20210528
 * over-reads the heap on malformed ones), and only for file names: its
 * rows number DWARF 5 files from 1, so binutils is the oracle for rows.
 * With -r, every unit of .debug_line in order, one line per row:
 * "NAME LINE ADDR" (NAME as the table records it, LINE "-" at the end of a
 * sequence), as readelf prints them. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf/dwarf-compat.h"
#include "dwarf/dwline.h"

static unsigned long nfiles, nbad, nfault;

static void mismatch(const char *what, unsigned long long cu, size_t i, const char *want,
		     const char *got)
{
	if (nbad++ < 20)
		printf("cu 0x%llx %s %zu: libdwarf \"%s\" hitmap \"%s\"\n", cu, what, i, want,
		       got ? got : "(none)");
}

static const char *cu_comp_dir(Dwarf_Die cu)
{
	Dwarf_Attribute a;
	char *s = NULL;

	if (dwarf_attr(cu, DW_AT_comp_dir, &a, NULL) != DW_DLV_OK)
		return NULL;
	if (dwarf_formstring(a, &s, NULL) != DW_DLV_OK)
		s = NULL;
	dwarf_dealloc_attribute(a);
	return s;
}

/* hitmap leaves "." components out of paths ("inc/./x.h" is "inc/x.h");
 * libdwarf keeps them. */
static void drop_dots(char *p)
{
	char *w = p;

	for (char *r = p; *r;) {
		if ((r == p || r[-1] == '/') && r[0] == '.' && r[1] == '/' && r[2])
			r += 2;
		else
			*w++ = *r++;
	}
	*w = 0;
}

/* libdwarf 20210528 puts a relative DW_AT_comp_dir in front of DWARF 5's
 * directory 0 although that entry is the compilation directory itself
 * (DWARF 5, 6.2.4.1): "CD/CD/<built-in>" where hitmap says "CD/<built-in>". */
static int libdwarf_dir0(const struct hm_dwl_unit *u, const char *cd, const char *want,
			 const char *got)
{
	size_t n = cd ? strlen(cd) : 0;

	return u->version >= 5 && n && cd[0] != '/' && !strncmp(want, cd, n) &&
	       want[n] == '/' && !strcmp(want + n + 1, got) && !strncmp(got, cd, n);
}

static void cmp_files(Dwarf_Debug dbg, Dwarf_Die cu, unsigned long long cuoff,
		      const struct hm_dwl_unit *u)
{
	char **raw = NULL, buf[4096];
	Dwarf_Signed n = 0;
	const char *cd = cu_comp_dir(cu);
	/* libdwarf lists files from 0; DW_AT_decl_file counts from 1 before
	 * DWARF 5 */
	size_t first = u->version >= 5 ? 0 : 1;

	if (dwarf_srcfiles(cu, &raw, &n, NULL) != DW_DLV_OK)
		n = 0;
	if ((size_t)n + first != u->nfiles && !(n == 0 && u->nfiles <= first)) {
		char a[32], b[32];

		snprintf(a, sizeof(a), "%lld", (long long)n);
		snprintf(b, sizeof(b), "%zu", u->nfiles - first);
		mismatch("file count", cuoff, 0, a, b);
	}
	for (Dwarf_Signed i = 0; i < n; i++) {
		const char *got = hm_dwl_path(u, i + first, cd, buf, sizeof(buf));

		drop_dots(raw[i]);
		if (got && libdwarf_dir0(u, cd, raw[i], got))
			nfault++;
		else if (!got || strcmp(got, raw[i]))
			mismatch("file", cuoff, i + first, raw[i], got);
		nfiles++;
		dwarf_dealloc(dbg, raw[i], DW_DLA_STRING);
	}
	if (raw)
		dwarf_dealloc(dbg, raw, DW_DLA_LIST);
}

static int print_row(void *arg, const struct hm_dwl_row *r)
{
	const struct hm_dwl_unit *u = arg;
	const char *name = r->file < u->nfiles ? u->files[r->file].name : NULL;

	if (r->end_sequence)
		printf("%s - 0x%llx\n", name ? name : "?", (unsigned long long)r->addr);
	else
		printf("%s %u 0x%llx\n", name ? name : "?", r->line, (unsigned long long)r->addr);
	return 0;
}

/* Every unit of .debug_line, one after another, as readelf walks them. */
static int print_rows(const struct hm_dwl_secs *s)
{
	uint64_t off = 0;

	while (off < s->nline) {
		struct hm_dwl_unit u;
		const char *what;

		if (hm_dwl_unit_read(s, off, &u, &what)) {
			fprintf(stderr, "linecmp: unit at 0x%llx: %s\n", (unsigned long long)off, what);
			return 1;
		}
		if (hm_dwl_rows(&u, print_row, &u)) {
			fprintf(stderr, "linecmp: program at 0x%llx malformed\n", (unsigned long long)off);
			return 1;
		}
		off = (uint64_t)(u.end - s->line);
		hm_dwl_unit_free(&u);
	}
	return 0;
}

int main(int argc, char **argv)
{
	hm_binary *bin;
	Dwarf_Debug dbg;
	struct hm_dwarf_obj *obj;
	struct hm_dwl_secs s;
	Dwarf_Half ver, asz, ut;
	Dwarf_Die cu;
	unsigned long units = 0;

	int rows = argc == 3 && !strcmp(argv[1], "-r");

	if (argc != 2 + rows || !(bin = hm_binary_open(argv[1 + rows])) ||
	    hm_dwarf_open(bin, &dbg, &obj)) {
		fprintf(stderr, "usage: linecmp [-r] FILE (an ELF file with DWARF)\n");
		return 2;
	}
	hm_dwl_secs_of(bin, &s);
	if (rows) {
		int rc = print_rows(&s);

		hm_dwarf_close(dbg, obj);
		hm_binary_close(bin);
		return rc;
	}
	while (hm_dwarf_next_cu(dbg, &ver, &asz, &ut, &cu, NULL) == DW_DLV_OK) {
		Dwarf_Attribute a;
		Dwarf_Off off = 0, cuoff = 0;
		struct hm_dwl_unit u;
		const char *what;

		dwarf_dieoffset(cu, &cuoff, NULL);
		if (dwarf_attr(cu, DW_AT_stmt_list, &a, NULL) == DW_DLV_OK) {
			dwarf_global_formref(a, &off, NULL);
			dwarf_dealloc_attribute(a);
			if (hm_dwl_unit_read(&s, off, &u, &what)) {
				mismatch("header", cuoff, 0, "ok", what);
			} else {
				cmp_files(dbg, cu, cuoff, &u);
				hm_dwl_unit_free(&u);
			}
			units++;
		}
		dwarf_dealloc_die(cu);
	}
	printf("units %lu files %lu libdwarf-dir0 %lu\n", units, nfiles, nfault);
	if (nbad)
		printf("mismatches %lu\n", nbad);
	hm_dwarf_close(dbg, obj);
	hm_binary_close(bin);
	return nbad ? 1 : 0;
}
