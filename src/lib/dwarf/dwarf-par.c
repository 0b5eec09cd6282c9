/* dwarf-par: the DWARF walk on several threads, with the serial walk's table.
 *
 * Reading the top level of a unit is most of a whole-file load: every
 * entry's tag, name and attributes through libdwarf, the unit's line table
 * for declaration files.  Converting is not: a header struct included by
 * 2000 units is a dedup hit in all but the first.  So workers, each with a
 * libdwarf handle of its own (handles are not shareable) and a job queue of
 * units, read each unit's top level into a list of records (what the serial
 * walk would look at, in its order), and the loader's own thread replays the
 * lists in unit order against the one table: a dedup hit costs a lookup, a
 * typedef (whose identity is its target's) is converted from its record, and
 * a miss or a target through the main handle, as the serial walk would.  The table, its ids and every message are then those of the
 * serial walk, whatever the number of threads or the order units finish in.
 *
 * What a worker cannot replay exactly — a unit whose reading said anything
 * (an error, a warning), split DWARF, dwz imports, C++ (whose identity,
 * scopes and nested classes are more than the header a record keeps) — it
 * leaves to the serial walk of that unit, in its turn.  Workers run at most WINDOW units ahead of the replay,
 * which bounds the memory the records take and the work wasted when an
 * `only` walk finds its last name. */
#include "config.h"
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dwarf/dwarf-int.h"
#include "base/diag.h"

/* units read ahead of the replay: a whole load keeps the replay busy, an
 * `only` walk stops at its last name and would read the rest for nothing */
#define WINDOW 64
#define WINDOW_ONLY 8
#define MAX_WORKERS 64

enum rec_kind { REC_TYPE, REC_SEEN, REC_VAR };

/* One top-level entry as a worker read it.  Names point into the file's
 * sections (or the worker's relocated copies), decl_file into the worker's
 * string table: both live until the walk ends. */
struct rec {
	uint64_t off;
	const char *name;	/* DW_AT_name (TYPE, VAR), the DIE's name (SEEN) */
	const char *sname;	/* TYPE in `only` mode: the name matched */
	const char *decl_file;
	uint64_t a, b;		/* TYPE: byte size, alignment; VAR: type offset, address */
	uint64_t type_off;	/* TYPE: a typedef's DW_AT_type (has_type) */
	uint64_t decl_line;
	/* the replay's: name and decl_file interned (interned) */
	const char *iname, *ifile;
	uint16_t tag;
	uint8_t kind;
	uint8_t declaration : 1, has_type : 1, external : 1, interned : 1;
};

enum unit_state { U_PENDING, U_READY, U_SERIAL };

/* Unit idx (in the order of the units' headers), in slot idx % window. */
struct unit {
	size_t idx;
	uint64_t cu_die_off;	/* as the worker's handle found it */
	enum unit_state state;
	struct rec *recs;
	size_t nrecs, cap;
};

/* The strings records point at, interned: a name of .debug_str is one
 * pointer in every unit, a path one per worker, so the replay hashes each
 * once rather than once per record. */
struct memo {
	struct memo_slot {
		const char *key, *val;
	} *v;
	size_t n, used;
};

struct par {
	struct loader *ld;
	struct memo memo;
	struct unit *u;		/* window slots */
	size_t window;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t next, done;
	size_t end;		/* a handle found no unit idx: none after it either */
	unsigned running;	/* workers */
	int stop;
};

struct worker {
	struct par *p;
	struct loader w;
	struct unit *cur;
	size_t at;		/* the unit the handle's iteration returns next */
	int serial;		/* the unit needs the serial walk */
	pthread_t th;
	int started;
};

static struct rec *rec_new(struct worker *wk)
{
	struct unit *u = wk->cur;

	if (hm_grow((void **)&u->recs, &u->cap, u->nrecs + 1, sizeof(*u->recs))) {
		dw_set_err(&wk->w, -ENOMEM);
		return NULL;
	}
	memset(&u->recs[u->nrecs], 0, sizeof(*u->recs));
	return &u->recs[u->nrecs++];
}

static int only_named(const struct loader *w, const char *name)
{
	for (size_t i = 0; i < w->nr_only; i++)
		if (!strcmp(w->only[i], name))
			return 1;
	return 0;
}

/* top_level() up to the conversion */
static void scan_type(struct worker *wk, Dwarf_Die die, int tag, uint64_t off)
{
	struct loader *w = &wk->w;
	const char *sname = NULL;
	struct die_attrs d;
	struct rec *r;

	if (!dw_is_aggregate(tag) && tag != DW_TAG_typedef)
		return;
	if (w->nr_only) {
		if (!(sname = dw_die_name(w, die)))
			return;
		if (!only_named(w, sname)) {
			if (dw_is_aggregate(tag) && (r = rec_new(wk))) {
				r->kind = REC_SEEN;
				r->tag = tag;
				r->off = off;
				r->name = sname;
			}
			return;
		}
	} else if (dw_is_aggregate(tag) && !w->x3) {
		/* anonymous aggregates are read when something refers to them;
		 * whether there is a name costs no allocation this way, where
		 * reading it (dw_die_name) costs one, and then it is read again
		 * with the other attributes */
		Dwarf_Bool has = 0;
		Dwarf_Error e = NULL;

		if (dwarf_hasattr(die, DW_AT_name, &has, &e) != DW_DLV_OK || !has) {
			hm_dwarf_free_error(w->dbg, e);
			return;
		}
	} else if (dw_is_aggregate(tag) && !dw_die_name(w, die)) {
		return;
	}
	if (dw_read_attrs(w, die, &d, 0))
		return;
	/* a name that could not be read (dw_die_name() would say none) */
	if (!w->nr_only && dw_is_aggregate(tag) && !d.name)
		return;
	if (!(r = rec_new(wk)))
		return;
	r->kind = REC_TYPE;
	r->tag = tag;
	r->off = off;
	r->name = d.name;
	r->sname = sname;
	r->decl_file = dw_decl_file(w, d.decl_file, off);
	r->decl_line = d.decl_line;
	r->a = d.byte_size;
	r->b = d.alignment;
	r->declaration = d.declaration;
	r->has_type = d.has_type;
	r->type_off = d.type_off;
}

static void scan_variable(struct worker *wk, Dwarf_Die die, uint64_t off)
{
	struct loader *w = &wk->w;
	struct die_attrs d;
	struct rec *r;

	if (dw_variable_attrs(w, die, &d) || !(r = rec_new(wk)))
		return;
	r->kind = REC_VAR;
	r->off = off;
	r->name = d.name;
	r->has_type = d.has_type;
	r->a = d.type_off;
	r->b = d.addr;
	r->decl_file = dw_decl_file(w, d.decl_file, off);
	r->decl_line = d.decl_line;
	r->external = d.external;
}

/* dw_walk_children() without the conversions */
static void scan_children(struct worker *wk, Dwarf_Die parent, unsigned level)
{
	struct loader *w = &wk->w;
	Dwarf_Die c;

	for (c = dw_first_child(w, parent); c && !w->err && !wk->serial;
	     c = dw_next_sibling(w, c)) {
		Dwarf_Half tag = 0;
		Dwarf_Off off = 0;
		Dwarf_Error e = NULL;

		if (dwarf_tag(c, &tag, &e) != DW_DLV_OK ||
		    dwarf_dieoffset(c, &off, &e) != DW_DLV_OK) {
			dw_bad(w, e, "entry");
			break;
		}
		if (dw_leaf_with_children(c, tag)) {
			dw_bad_die(w, c, "a DIE that has no children says it has");
			break;
		}
		if (tag == DW_TAG_variable && w->opts->variables && level == 0)
			scan_variable(wk, c, off);
		else if (tag == DW_TAG_imported_unit)
			wk->serial = 1;
		else if (tag == DW_TAG_namespace && level < 16)
			scan_children(wk, c, level + 1);
		else if (tag != DW_TAG_subprogram && tag != DW_TAG_variable)
			scan_type(wk, c, tag, off);
	}
	if (c)
		dwarf_dealloc_die(c);
}

/* Read unit u->idx; U_READY with its records, U_SERIAL for the serial
 * walk, or U_PENDING when the handle has no such unit (the end). */
static enum unit_state scan_unit(struct worker *wk, struct unit *u)
{
	struct loader *w = &wk->w;
	struct hm_diag_count quiet = { 0 }, *prev = hm_diag_divert(&quiet);
	Dwarf_Half version = 0, addr_size = 0, unit_type = 0;
	Dwarf_Die cu = NULL;
	Dwarf_Error e = NULL;
	Dwarf_Off off = 0;
	int said = 0, rc = DW_DLV_OK;

	w->err = 0;
	wk->serial = 0;
	wk->cur = u;
	/* the handle's own iteration to the unit: dwarf_offdie_b() would look
	 * its unit up from the first, for every unit */
	while (wk->at <= u->idx) {
		if (cu)
			dwarf_dealloc_die(cu);
		cu = NULL;
		rc = hm_dwarf_next_cu(w->dbg, &version, &addr_size, &unit_type, &cu, &e);
		if (rc != DW_DLV_OK)
			break;
		wk->at++;
	}
	if (rc == DW_DLV_NO_ENTRY) {
		hm_diag_divert(prev);
		return U_PENDING;
	}
	if (rc != DW_DLV_OK || dwarf_dieoffset(cu, &off, &e) != DW_DLV_OK) {
		/* the replay's own iteration reports it; this handle is lost */
		hm_dwarf_free_error(w->dbg, e);
		wk->at = SIZE_MAX;
		wk->serial = 1;
	} else {
		u->cu_die_off = off;
		if (dw_unit_begin(w, cu, version, addr_size) || unit_type == DW_UT_skeleton ||
		    dw_has_dwo_name(w, cu) || w->cplusplus)
			wk->serial = 1;
		else
			scan_children(wk, cu, 0);
	}
	if (cu) {
		dw_unit_end(w);
		dwarf_dealloc_die(cu);
	}
	hm_diag_divert(prev);
	for (size_t i = 0; i < sizeof(quiet.n) / sizeof(quiet.n[0]); i++)
		said |= quiet.n[i] != 0;
	if (wk->serial || w->err || said) {
		free(u->recs);
		u->recs = NULL;
		u->nrecs = u->cap = 0;
		return U_SERIAL;
	}
	return U_READY;
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct par *p = wk->p;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct unit *u;
		enum unit_state st;
		size_t idx;

		while (!p->stop && p->next < p->end && p->next >= p->done + p->window)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->stop || p->next >= p->end || wk->at == SIZE_MAX)
			break;
		idx = p->next++;
		u = &p->u[idx % p->window];
		u->idx = idx;
		u->state = U_PENDING;
		u->nrecs = 0;
		pthread_mutex_unlock(&p->lock);
		st = scan_unit(wk, u);
		/* published under the lock, after the records */
		pthread_mutex_lock(&p->lock);
		if (st == U_PENDING) {
			if (idx < p->end)
				p->end = idx;
			u->state = U_SERIAL;
		} else {
			u->state = st;
		}
		pthread_cond_broadcast(&p->cond);
		if (st == U_PENDING)
			break;
	}
	/* a worker that stops early leaves its units to the others; the last
	 * one to stop leaves the rest to the replay's serial walk */
	if (!--p->running && p->next < p->end)
		p->end = p->next;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	/* Records hold nothing of the handle's own (names are the file's
	 * sections, paths the worker's table): let it go now, on this
	 * thread, while the replay finishes the window, not after it. */
	hm_dwarf_close(wk->w.dbg, NULL);
	wk->w.dbg = NULL;
	return NULL;
}

static const char *intern(struct par *p, const char *s)
{
	struct memo *m = &p->memo;
	const char *v;
	size_t j;

	if (!s)
		return NULL;
	if ((m->used + 1) * 2 > m->n) {
		size_t n = m->n ? m->n * 2 : 1 << 12;
		struct memo_slot *nv = calloc(n, sizeof(*nv));

		if (!nv)
			return hm_types_intern(p->ld->t, s);
		for (size_t i = 0; i < m->n; i++) {
			if (!m->v[i].key)
				continue;
			for (j = hm_hash_u64((uintptr_t)m->v[i].key) & (n - 1); nv[j].key;
			     j = (j + 1) & (n - 1))
				;
			nv[j] = m->v[i];
		}
		free(m->v);
		m->v = nv;
		m->n = n;
	}
	for (j = hm_hash_u64((uintptr_t)s) & (m->n - 1); m->v[j].key; j = (j + 1) & (m->n - 1))
		if (m->v[j].key == s)
			return m->v[j].val;
	if (!(v = hm_types_intern(p->ld->t, s)))
		return NULL;
	m->v[j].key = s;
	m->v[j].val = v;
	m->used++;
	return v;
}

/* Only a hint: the slot intern(p, s) reads first. */
static void memo_prefetch(const struct par *p, const char *s)
{
	if (s && p->memo.n)
		__builtin_prefetch(&p->memo.v[hm_hash_u64((uintptr_t)s) & (p->memo.n - 1)]);
}

static void rec_intern(struct par *p, struct rec *r)
{
	if (!r->interned) {
		r->iname = intern(p, r->name);
		r->ifile = intern(p, r->decl_file);
		r->interned = 1;
	}
}

/* The header a struct record is looked up by (r interned); 0 if it has
 * none (anonymous: its members are its identity). */
static int rec_header(const struct rec *r, hm_type *ty)
{
	memset(ty, 0, sizeof(*ty));
	ty->name = r->iname;
	ty->decl_file = r->ifile;
	ty->decl_line = r->decl_line;
	ty->alignment = r->b;
	ty->kind = r->tag == DW_TAG_structure_type ? HM_KIND_STRUCT :
		   r->tag == DW_TAG_union_type ? HM_KIND_UNION : HM_KIND_CLASS;
	ty->size = r->a;
	ty->declaration = r->declaration;
	return ty->name || ty->declaration;
}

/* convert_die() of a record: a dedup hit needs no DIE */
static hm_type_id replay_convert(struct par *p, struct rec *r)
{
	struct loader *ld = p->ld;
	hm_type ty;
	hm_type_id id;
	uint64_t hash;
	Dwarf_Die die = NULL;
	Dwarf_Error e = NULL;

	rec_intern(p, r);
	if (r->tag == DW_TAG_typedef) {
		/* what it names is part of its identity: the conversion,
		 * from the attributes the worker read */
		struct die_attrs d = { 0 };

		d.name = r->name;
		d.decl_line = r->decl_line;
		d.alignment = r->b;
		d.has_type = r->has_type;
		d.type_off = r->type_off;
		return dw_convert_typedef(ld, r->off, &d, r->iname, r->ifile);
	}
	if (rec_header(r, &ty) &&
	    (id = hm_types_dedup_find(ld->t, &ty, NULL, NULL, NULL, &hash))) {
		ld->nr_converted++;
		dw_map_put(ld, r->off, id);
		return id;
	}
	if (dwarf_offdie_b(ld->dbg, r->off, 1, &die, &e) != DW_DLV_OK) {
		dw_bad(ld, e, "type reference");
		return 0;
	}
	id = dw_convert_die(ld, die, r->off, r->tag);
	dwarf_dealloc_die(die);
	return id;
}

/* A record's lookups are cache misses in tables of megabytes (the
 * strings' memo, the offset map, the dedup index and the type it holds):
 * ask for them records ahead, each step once the one before has arrived.
 * Interning early changes nothing but when; a whole load only (`only`
 * stops at its last name). */
#define AHEAD 4

static void ahead(struct par *p, struct unit *u, size_t i)
{
	struct rec *r;
	hm_type ty;

	if (i + 3 * AHEAD < u->nrecs && (r = &u->recs[i + 3 * AHEAD])->kind == REC_TYPE) {
		memo_prefetch(p, r->name);
		memo_prefetch(p, r->decl_file);
		dw_map_prefetch(p->ld, r->off);
	}
	if (i + 2 * AHEAD < u->nrecs && (r = &u->recs[i + 2 * AHEAD])->kind == REC_TYPE) {
		rec_intern(p, r);
		if (r->tag != DW_TAG_typedef && rec_header(r, &ty))
			hm_types_dedup_prefetch(p->ld->t, &ty, 0);
	}
	if (i + AHEAD < u->nrecs && (r = &u->recs[i + AHEAD])->kind == REC_TYPE &&
	    r->interned && r->tag != DW_TAG_typedef && rec_header(r, &ty))
		hm_types_dedup_prefetch(p->ld->t, &ty, 1);
}

/* dw_walk_children() of a unit from its records */
static void replay(struct par *p, struct unit *u)
{
	struct loader *ld = p->ld;

	for (size_t i = 0; i < u->nrecs && !ld->err; i++) {
		struct rec *r = &u->recs[i];
		hm_type_id id = 0;
		int want = -1;

		if (!ld->nr_only)
			ahead(p, u, i);

		if (r->kind == REC_VAR) {
			struct die_attrs d = { 0 };

			d.name = r->name;
			d.has_type = r->has_type;
			d.type_off = r->a;
			d.addr = r->b;
			d.decl_line = r->decl_line;
			d.external = r->external;
			dw_store_variable(ld, &d, intern(p, r->decl_file));
		} else if (!ld->nr_only ||
			   /* the names kept for suggestions outlive the workers' handles */
			   (want = dw_wanted(ld, intern(p, r->kind == REC_SEEN ? r->name : r->sname),
					     dw_is_aggregate(r->tag), r->off)) >= 0) {
			if (!dw_map_get(ld, r->off, &id)) {
				ld->depth = 0;
				id = replay_convert(p, r);
			}
			dw_note_root(ld, r->tag, id, want);
		}
		if (dw_all_found(ld))
			break;
	}
}

static int worker_open(struct par *p, struct worker *wk)
{
	struct loader *ld = p->ld, *w = &wk->w;
	int rc;

	wk->p = p;
	w->bin = ld->bin;
	w->opts = ld->opts;
	w->path = ld->path;
	w->big_endian = ld->big_endian;
	w->only = ld->only;
	w->nr_only = ld->nr_only;
	/* the declaration files' paths, interned by the worker */
	if (!(w->t = hm_types_new()))
		return -ENOMEM;
	rc = hm_dwarf_open_flags(ld->bin, ld->obj && !hm_dwarf_widened(ld->obj) ?
				 HM_DWARF_NOT_WIDENED : 0, &w->dbg, &w->obj);
	if (rc)
		return rc;
	w->main_dbg = w->dbg;
	w->x3 = hm_dwarf_widened(w->obj);
	return 0;
}

static void worker_close(struct worker *wk)
{
	struct loader *w = &wk->w;

	for (unsigned i = 0; i < NR_FTABS; i++)
		dw_ftab_clear(&w->ftabs[i]);
	hm_dwarf_close(w->dbg, w->obj);
	hm_types_free(w->t);
	free(w->map);
	free(w->paths);
}

/* dw_walk_serial() through the main handle (libdwarf finds a unit's DIEs
 * fast only while it is the unit its iteration is at), each unit from its
 * records when a worker left them */
static int consume(struct par *p)
{
	struct loader *ld = p->ld;

	for (size_t i = 0;; i++) {
		Dwarf_Half version = 0, addr_size = 0, unit_type = 0;
		Dwarf_Die cu = NULL;
		Dwarf_Error e = NULL;
		struct unit *u = &p->u[i % p->window];
		int rc = hm_dwarf_next_cu(ld->dbg, &version, &addr_size, &unit_type, &cu, &e);

		if (rc == DW_DLV_NO_ENTRY)
			break;
		if (rc != DW_DLV_OK)
			return dw_bad(ld, e, "unit header");
		/* the unit's slot, once a worker has taken and read it; none will
		 * past the end a worker found (or when they all stopped) */
		pthread_mutex_lock(&p->lock);
		while (i < p->end && !(i < p->next && u->idx == i && u->state != U_PENDING))
			pthread_cond_wait(&p->cond, &p->lock);
		if (i >= p->end && !(i < p->next && u->idx == i && u->state != U_PENDING))
			u = NULL;
		pthread_mutex_unlock(&p->lock);
		if (!dw_unit_begin(ld, cu, version, addr_size)) {
			dw_unit_count(ld, addr_size);
			if (u && u->state == U_READY && u->cu_die_off == ld->cu_die_off)
				replay(p, u);
			else
				dw_unit_walk(ld, cu, unit_type);
			dw_unit_end(ld);
		}
		dwarf_dealloc_die(cu);
		if (u) {
			free(u->recs);
			u->recs = NULL;
			u->cap = 0;
		}
		pthread_mutex_lock(&p->lock);
		p->done = i + 1;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
		if (ld->err || dw_all_found(ld))
			break;
	}
	return ld->err;
}

int dw_walk_parallel(struct loader *ld, unsigned threads)
{
	struct par p = { .ld = ld, .end = SIZE_MAX };
	struct worker *wk;
	struct hm_diag_count quiet = { 0 }, *prev;
	size_t nw, i;
	int rc = 0;

	if (threads > MAX_WORKERS)
		threads = MAX_WORKERS;
	p.window = ld->nr_only ? WINDOW_ONLY : WINDOW;
	wk = calloc(threads, sizeof(*wk));
	p.u = calloc(p.window, sizeof(*p.u));
	if (!wk || !p.u) {
		free(wk);
		free(p.u);
		return dw_set_err(ld, -ENOMEM);
	}
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.cond, NULL);
	/* opened here, one after the other: libdwarf's setup touches its
	 * globals; a handle that cannot be opened leaves its share to the
	 * others, or the whole walk to the main handle */
	prev = hm_diag_divert(&quiet);
	for (nw = 0; nw < threads; nw++)
		if (worker_open(&p, &wk[nw]))
			break;
	for (i = 0; i < nw; i++) {
		pthread_mutex_lock(&p.lock);
		p.running++;
		pthread_mutex_unlock(&p.lock);
		if (pthread_create(&wk[i].th, NULL, worker_main, &wk[i])) {
			pthread_mutex_lock(&p.lock);
			if (!--p.running && p.next < p.end)
				p.end = p.next;
			pthread_mutex_unlock(&p.lock);
			break;
		}
		wk[i].started = 1;
	}
	hm_diag_divert(prev);
	if (!i)
		p.end = 0;	/* no worker: the serial walk */
	rc = consume(&p);
	pthread_mutex_lock(&p.lock);
	p.stop = 1;
	pthread_cond_broadcast(&p.cond);
	pthread_mutex_unlock(&p.lock);
	for (i = 0; i < threads; i++) {
		if (wk[i].started)
			pthread_join(wk[i].th, NULL);
		worker_close(&wk[i]);
	}
	for (i = 0; i < p.window; i++)
		free(p.u[i].recs);
	free(p.u);
	free(wk);
	free(p.memo.v);
	pthread_mutex_destroy(&p.lock);
	pthread_cond_destroy(&p.cond);
	return rc ? rc : ld->err;
}
