/* Code locations: link address → "file:line" from the DWARF line table.
 * The table of a binary is read once, on the first lookup in it, into an
 * address-sorted array (only binaries whose IPs are shown pay for it). */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "attribute-int.h"
#include "diag.h"
#include "dwarf-compat.h"

struct line_row {
	uint64_t addr;
	const char *file;	/* interned */
	uint32_t line;
	uint32_t end;		/* 1: end_sequence marker */
};

struct lines_table {
	struct line_row *rows;
	size_t n, cap;
	hm_strtab files;
};

void hm_lines_table_free(struct lines_table *t)
{
	if (!t)
		return;
	free(t->rows);
	hm_strtab_free(&t->files);
	free(t);
}

static const char *short_file(const char *f)
{
	const char *s = strrchr(f, '/');

	return s ? s + 1 : f;
}

static int add_cu_lines(Dwarf_Debug dbg, Dwarf_Die cu, struct lines_table *t)
{
	Dwarf_Unsigned version;
	Dwarf_Small count;
	Dwarf_Line_Context ctx;
	Dwarf_Line *lines;
	Dwarf_Signed n, i;
	Dwarf_Error err = NULL;
	int rc = 0;

	if (dwarf_srclines_b(cu, &version, &count, &ctx, &err) != DW_DLV_OK) {
		if (err)
			hm_dwarf_free_error(dbg, err);
		return 0;	/* a CU without line info */
	}
	if (dwarf_srclines_from_linecontext(ctx, &lines, &n, &err) != DW_DLV_OK) {
		if (err)
			hm_dwarf_free_error(dbg, err);
		dwarf_srclines_dealloc_b(ctx);
		return 0;
	}
	for (i = 0; i < n && !rc; i++) {
		Dwarf_Addr addr;
		Dwarf_Unsigned lineno;
		Dwarf_Bool end = 0;
		char *src = NULL;
		struct line_row *r;

		if (dwarf_lineaddr(lines[i], &addr, &err) != DW_DLV_OK ||
		    dwarf_lineno(lines[i], &lineno, &err) != DW_DLV_OK) {
			if (err)
				hm_dwarf_free_error(dbg, err), err = NULL;
			continue;
		}
		dwarf_lineendsequence(lines[i], &end, &err);
		if (dwarf_linesrc(lines[i], &src, &err) != DW_DLV_OK) {
			if (err)
				hm_dwarf_free_error(dbg, err), err = NULL;
			src = NULL;
		}
		if (hm_grow((void **)&t->rows, &t->cap, t->n + 1, sizeof(*t->rows))) {
			rc = -ENOMEM;
		} else {
			r = &t->rows[t->n++];
			r->addr = addr;
			r->line = (uint32_t)lineno;
			r->end = !!end;
			r->file = hm_strtab_intern(&t->files, src ? short_file(src) : "?");
			if (!r->file)
				rc = -ENOMEM;
		}
		if (src)
			dwarf_dealloc(dbg, src, DW_DLA_STRING);
	}
	dwarf_srclines_dealloc_b(ctx);
	return rc;
}

static int cmp_rows(const void *pa, const void *pb)
{
	const struct line_row *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	/* At one address an end-of-sequence marker goes first: the next
	 * sequence's row is the one that covers the address. */
	return (int)b->end - (int)a->end;
}

static int load_table(struct binent *b)
{
	struct hm_dwarf_obj *obj;
	struct lines_table *t;
	Dwarf_Debug dbg;
	Dwarf_Half ver, asz, ut;
	Dwarf_Die cu;
	Dwarf_Error err = NULL;
	int rc;

	rc = hm_dwarf_open(b->bin, &dbg, &obj);
	if (rc)
		return rc;
	t = calloc(1, sizeof(*t));
	if (!t) {
		hm_dwarf_close(dbg, obj);
		return -ENOMEM;
	}
	while ((rc = hm_dwarf_next_cu(dbg, &ver, &asz, &ut, &cu, &err)) == DW_DLV_OK) {
		int e = add_cu_lines(dbg, cu, t);

		dwarf_dealloc(dbg, cu, DW_DLA_DIE);
		if (e) {
			hm_lines_table_free(t);
			hm_dwarf_close(dbg, obj);
			return e;
		}
	}
	if (err)
		hm_dwarf_free_error(dbg, err);
	hm_dwarf_close(dbg, obj);
	if (t->n)
		qsort(t->rows, t->n, sizeof(*t->rows), cmp_rows);
	b->lines = t;
	return 0;
}

int hm_lines_lookup(hm_attr *a, const struct binent *cb, uint64_t link, char *buf, size_t len)
{
	struct binent *b = (struct binent *)cb;
	const struct lines_table *t;
	size_t lo = 0, hi;

	(void)a;
	if (!b->lines && !b->lines_err)
		b->lines_err = load_table(b);
	if (b->lines_err || !b->lines)
		return -ENOENT;
	t = b->lines;
	hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->rows[mid].addr <= link)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || t->rows[lo - 1].end)
		return -ENOENT;
	return snprintf(buf, len, "%s:%u", t->rows[lo - 1].file, t->rows[lo - 1].line);
}
