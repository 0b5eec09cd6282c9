/* Code locations: link address → "file:line" from the DWARF line table.
 *
 * A report shows a few hundred code locations at most, while a vmlinux has
 * four million line table rows (100 MB as an array, a second to sort).  So
 * the first lookup in a binary only indexes its sequences (a few thousand
 * address ranges, each a run of the line program that starts afresh), and
 * every lookup runs the one sequence that covers its address.  The line
 * programs are run by dwline.c, straight from .debug_line: no DIE needs
 * reading to know which code is where. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attr/attribute-int.h"
#include "base/diag.h"
#include "dwarf/dwarf-scope.h"
#include "dwarf/dwline.h"
#include "elf/binary-lib.h"

/* A sequence: the addresses [lo, hi) of one run of a unit's program. */
struct seq {
	uint64_t lo, hi;
	uint64_t unit;		/* offset of the unit in .debug_line */
	uint64_t start;		/* offset of the sequence in the unit's program */
};

struct lines_table {
	struct hm_dwl_secs s;	/* the binary's sections (it outlives the table) */
	struct seq *seqs;	/* sorted by lo */
	size_t n, cap;
	/* the header of the unit last looked into */
	struct hm_dwl_unit u;
	uint64_t u_off;
	int have_u;
};

void hm_lines_table_free(struct lines_table *t)
{
	if (!t)
		return;
	free(t->seqs);
	hm_dwl_unit_free(&t->u);
	free(t);
}

/* Indexing: a sequence's range is known at its end_sequence row. */
struct indexer {
	struct lines_table *t;
	uint64_t unit, lo;
	int open;
};

static int index_row(void *arg, const struct hm_dwl_row *r)
{
	struct indexer *x = arg;
	struct seq *q;

	if (!x->open || r->addr < x->lo) {
		x->lo = r->addr;
		x->open = 1;
	}
	if (!r->end_sequence)
		return 0;
	x->open = 0;
	if (r->addr <= x->lo)
		return 0;	/* empty: code the linker dropped */
	if (hm_grow((void **)&x->t->seqs, &x->t->cap, x->t->n + 1, sizeof(*x->t->seqs)))
		return -ENOMEM;
	q = &x->t->seqs[x->t->n++];
	q->lo = x->lo;
	q->hi = r->addr;
	q->unit = x->unit;
	q->start = r->seq;
	return 0;
}

/* Every unit of .debug_line, one after another (each says how long it is).
 * A malformed unit ends the index there: what follows cannot be trusted to
 * start where its length says. */
static int index_units(struct lines_table *t, const char **what, uint64_t *bad_off)
{
	uint64_t off = 0;
	int rc = 0;

	while (!rc && off < t->s.nline) {
		struct hm_dwl_unit u;
		struct indexer x = { t, off, 0, 0 };

		rc = hm_dwl_unit_read(&t->s, off, &u, what);
		if (!rc && (rc = hm_dwl_rows(&u, index_row, &x)) == -EBADMSG)
			*what = "line program runs past its end";
		if (rc == -EBADMSG)
			*bad_off = off;
		off = u.end ? (uint64_t)(u.end - t->s.line) : t->s.nline;
		hm_dwl_unit_free(&u);
	}
	return rc;
}

static int cmp_seq(const void *pa, const void *pb)
{
	const struct seq *a = pa, *b = pb;

	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static int load_table(struct binent *b)
{
	struct lines_table *t;
	const char *what = NULL;
	uint64_t bad_off = 0;
	int rc;

	if (!(t = calloc(1, sizeof(*t))))
		return -ENOMEM;
	hm_dwl_secs_of(b->dbg ? b->dbg : b->bin, &t->s);
	rc = index_units(t, &what, &bad_off);
	if (rc == -ENOMEM) {
		hm_lines_table_free(t);
		return rc;
	}
	if (rc)
		hm_diag(HM_DIAG_WARNING, "%s: .debug_line: %s at offset 0x%llx; code locations "
			"after it are unknown", hmi_binary_path(b->dbg ? b->dbg : b->bin), what,
			(unsigned long long)bad_off);
	if (t->n)
		qsort(t->seqs, t->n, sizeof(*t->seqs), cmp_seq);
	b->lines = t;
	return 0;
}

/* The row that covers `want`: the last one at or below it (of several rows
 * at one address, the last is the one whose range is not empty). */
struct finder {
	uint64_t want;
	struct hm_dwl_row best;
	int found;
};

static int find_row(void *arg, const struct hm_dwl_row *r)
{
	struct finder *f = arg;

	if (r->addr > f->want)
		return 1;	/* rows of a sequence only move forward */
	if (!r->end_sequence) {
		f->best = *r;
		f->found = 1;
	}
	return 0;
}

static const struct hm_dwl_unit *unit_at(struct lines_table *t, uint64_t off)
{
	const char *what;

	if (t->have_u && t->u_off == off)
		return &t->u;
	hm_dwl_unit_free(&t->u);
	t->have_u = !hm_dwl_unit_read(&t->s, off, &t->u, &what);
	t->u_off = off;
	return t->have_u ? &t->u : NULL;
}

static int lookup(struct binent *b, uint64_t link, char *buf, size_t len);

/* A binary whose scopes were asked keeps its code locations with their
 * answers (dwarf-scope.h): a second report of the same program reads no
 * line table. */
int hm_lines_lookup(hm_attr *a, const struct binent *cb, uint64_t link, char *buf, size_t len)
{
	struct binent *b = (struct binent *)cb;
	unsigned long said = hm_diag_said();
	const char *label;
	int rc;

	(void)a;
	/* a binary answered from the cache opened no scopes: their answers
	 * hold its code locations */
	if (!b->scopes && b->answered)
		attr_binent_scopes(b);
	if (b->scopes && (rc = hm_scopes_line_answer(b->scopes, link, &label)) >= 0)
		return rc ? snprintf(buf, len, "%s", label) : -ENOENT;
	rc = lookup(b, link, buf, len);
	if (b->scopes && !b->lines_err && (rc >= 0 || rc == -ENOENT) && hm_diag_said() == said &&
	    (rc < 0 || (size_t)rc < len))
		hm_scopes_line_note(b->scopes, link, rc >= 0 ? buf : NULL);
	return rc;
}

static int lookup(struct binent *b, uint64_t link, char *buf, size_t len)
{
	struct lines_table *t;
	const struct hm_dwl_unit *u;
	struct finder f = { link, { 0 }, 0 };
	const char *name, *slash;
	size_t lo = 0, hi;

	if (!b->lines && !b->lines_err)
		b->lines_err = load_table(b);
	if (b->lines_err || !b->lines)
		return -ENOENT;
	t = b->lines;
	hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->seqs[mid].lo <= link)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || link >= t->seqs[lo - 1].hi || !(u = unit_at(t, t->seqs[lo - 1].unit)))
		return -ENOENT;
	if (hm_dwl_seq_rows(u, t->seqs[lo - 1].start, find_row, &f) < 0 || !f.found)
		return -ENOENT;
	name = f.best.file < u->nfiles ? u->files[f.best.file].name : NULL;
	if (!name)
		name = "?";
	else if ((slash = strrchr(name, '/')))
		name = slash + 1;
	return snprintf(buf, len, "%s:%u", name, f.best.line);
}

int hmi_attr_code_label(hm_attr *a, const void *vb, uint64_t link, uint64_t ip, char *buf,
			size_t len)
{
	const struct binent *b = vb;
	const hm_symbol *f = b ? hm_binary_func_at(attr_binent_dwarf(b), link) : NULL;
	char where[300] = "";

	if (!f)
		return snprintf(buf, len, "0x%" PRIx64, ip);
	if (!a->strat.lines_failed && hm_lines_lookup(a, b, link, where, sizeof(where)) < 0)
		where[0] = 0;
	return snprintf(buf, len, "%s+0x%" PRIx64 "%s%s%s", f->name, link - f->addr,
			where[0] ? " (" : "", where, where[0] ? ")" : "");
}
