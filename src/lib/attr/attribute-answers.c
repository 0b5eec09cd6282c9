/* The attribution's answers, kept across runs (load/scopecache.c keeps the
 * file, BUILD-ID.attr beside the type cache, under the same checks).
 *
 * A second report of a recording, or a report of another recording of the
 * same program, asks the same questions of each binary: what the global at
 * a link address is (attribute-resolve.c), what the instruction at a PC
 * accessed (attribute-insn.c).  Answering them the first time loads the
 * binary's types (for the C library of libc6-dbg, 2.4 MB of type cache),
 * opens capstone (77 000 relocations) and decodes from each function's
 * start; the answers themselves are a few hundred bytes.  Each answer is
 * recorded here, saved when the binary is freed, and the next run answers
 * from them: a binary whose every question is answered loads neither its
 * types nor a decoder.
 *
 * An answer is a function of the binary (its build-id, and the DWARF file's
 * size and mtime, which the file's header pins) and of hitmap's code (the
 * header pins its build): what it does not depend on is not kept.  Not
 * kept, therefore: an instruction decoded from a TEXT_POKE's or a kcore
 * copy's bytes (per recording), and no instruction answer of the vmlinux
 * while a kcore copy is in use; an instruction in a kernel patch site is
 * kept as the file says it (patched text) and used only until the
 * recording's first TEXT_POKE; and nothing of a
 * binary whose parts said something as they loaded (a diagnostic), or
 * made while something was said, so that the run that asks again says it
 * again.
 *
 * The saved bytes: a header (counts), the answers, then the strings they
 * name (offset + 1, 0 for none), in the host's byte order (the file's
 * header pins it).  Every count, offset and flag is checked on reading: a
 * file that fails is no answers, never a wrong one. */
#include "config.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "attr/attribute-int.h"
#include "base/diag.h"
#include "elf/binary-lib.h"
#include "load/typecache.h"

enum { ANS_LINK = 1, ANS_INSN = 2 };
enum { S_SNAME, S_OBJECT, S_PATH, S_OUTER, S_OUTER_PATH, NSTR };

struct ans {
	uint64_t key;		/* the link address; the instruction's */
	uint8_t kind, trap, bucket, pkind;	/* pkind: enum hm_profile_kind */
	uint8_t named, elem, indexed, site;	/* site: in a kernel patch site */
	uint8_t interned;	/* str[] are a's */
	uint32_t type;
	int64_t off;
	uint64_t ssize, obj_base, foff, fsize, mem_size;
	uint64_t outer_size, outer_foff, outer_fsize;
	const char *str[NSTR];	/* the file's bytes until interned */
};

struct attr_answers {
	struct ans *v;
	size_t n, cap, nread;	/* the first nread as read; the rest new */
	uint32_t *slots;	/* index + 1, open addressing, nslots */
	size_t nslots;
	void *blob;		/* the file's payload: the strings of those read */
	char *dir;		/* where to save them; NULL: nowhere */
};

struct file_hdr {
	uint32_t nans, pad;
	uint64_t nstrs;
};

struct file_rec {
	uint64_t key;
	uint8_t kind, trap, bucket, pkind, named, elem, indexed, site;
	uint32_t type, pad2;
	int64_t off;
	uint64_t ssize, obj_base, foff, fsize, mem_size;
	uint64_t outer_size, outer_foff, outer_fsize;
	uint32_t str[NSTR], pad3;
};

#define MAX_ANSWERS (1u << 22)	/* a file that large is not ours */

static uint64_t ans_hash(unsigned kind, uint64_t key, unsigned trap)
{
	return hm_hash_u64(key * 8 + kind * 2 + trap);
}

static int slots_grow(struct attr_answers *x)
{
	size_t n = x->nslots ? 2 * x->nslots : 64;
	uint32_t *t = calloc(n, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < x->n; i++) {
		const struct ans *e = &x->v[i];
		size_t j = ans_hash(e->kind, e->key, e->trap) & (n - 1);

		while (t[j])
			j = (j + 1) & (n - 1);
		t[j] = (uint32_t)i + 1;
	}
	free(x->slots);
	x->slots = t;
	x->nslots = n;
	return 0;
}

/* The answer of (kind, key, trap), or NULL; *slot: where a new one goes. */
static struct ans *find(const struct attr_answers *x, unsigned kind, uint64_t key, unsigned trap,
			size_t *slot)
{
	size_t j;

	if (!x->nslots) {
		*slot = SIZE_MAX;
		return NULL;
	}
	for (j = ans_hash(kind, key, trap) & (x->nslots - 1); x->slots[j];
	     j = (j + 1) & (x->nslots - 1)) {
		struct ans *e = &x->v[x->slots[j] - 1];

		if (e->key == key && e->kind == kind && e->trap == trap)
			return e;
	}
	*slot = j;
	return NULL;
}

/* Add e (its strings a's, or the blob's while reading): 0, -EEXIST (one of
 * that key is there), -ENOMEM. */
static int add(struct attr_answers *x, const struct ans *e)
{
	size_t slot;

	if (find(x, e->kind, e->key, e->trap, &slot))
		return -EEXIST;
	if (x->n >= MAX_ANSWERS)
		return -E2BIG;
	if (2 * (x->n + 1) > x->nslots) {
		if (slots_grow(x))
			return -ENOMEM;
		find(x, e->kind, e->key, e->trap, &slot);
	}
	if (hm_grow((void **)&x->v, &x->cap, x->n + 1, sizeof(*x->v)))
		return -ENOMEM;
	x->v[x->n] = *e;
	x->slots[slot] = (uint32_t)++x->n;
	return 0;
}

static void answers_free(struct attr_answers *x)
{
	if (!x)
		return;
	free(x->v);
	free(x->slots);
	free(x->blob);
	free(x->dir);
	free(x);
}

static int attributed_link(unsigned bucket)
{
	return bucket == HM_ATTR_GLOBAL || bucket == HM_ATTR_OBJECT;
}

static int attributed_insn(unsigned bucket)
{
	return bucket == HM_ATTR_INSN || bucket == HM_ATTR_TLS || bucket == HM_ATTR_PERCPU;
}

/* Why record r of a file's payload is not an answer, or NULL. */
static const char *check_rec(const struct file_rec *r, uint64_t nstrs)
{
	if ((r->kind != ANS_LINK && r->kind != ANS_INSN) || r->trap > 1 ||
	    (r->kind == ANS_LINK && (r->trap || r->site)) || r->bucket >= HM_NR_BUCKETS ||
	    r->pkind > HM_PROFILE_VARIABLE || r->named > 1 || r->elem > 1 || r->indexed > 1 ||
	    r->site > 1 || r->pad2 || r->pad3)
		return "answer out of range";
	for (int i = 0; i < NSTR; i++)
		if (r->str[i] > nstrs)
			return "string out of range";
	/* what the attributed answers' users read */
	if (r->kind == ANS_LINK && attributed_link(r->bucket) &&
	    (!r->str[S_SNAME] || !r->str[S_OBJECT] || !r->str[S_PATH]))
		return "attribution without its names";
	if (r->kind == ANS_INSN && attributed_insn(r->bucket) &&
	    (!r->str[S_SNAME] || !r->str[S_PATH] || (r->named && !r->str[S_OBJECT]) ||
	     (r->elem && (!r->str[S_OUTER] || !r->str[S_OUTER_PATH]))))
		return "attribution without its names";
	return NULL;
}

/* The answers of a file's payload (len bytes at blob, which x takes) into
 * x: NULL, or why there are none (x is then empty). */
static const char *parse(struct attr_answers *x, void *blob, size_t len)
{
	const struct file_hdr *h = blob;
	const struct file_rec *rv;
	const char *strs, *why = NULL;
	size_t i;

	x->blob = blob;
	if (len < sizeof(*h))
		return "too short";
	if (h->pad || h->nans > MAX_ANSWERS)
		return "header out of range";
	if ((uint64_t)h->nans * sizeof(*rv) > len - sizeof(*h) ||
	    h->nstrs != len - sizeof(*h) - (uint64_t)h->nans * sizeof(*rv))
		return "size does not match its counts";
	if (!h->nstrs || ((const char *)blob)[len - 1])
		return "strings not terminated";
	rv = (const struct file_rec *)(h + 1);
	strs = (const char *)(rv + h->nans);
	for (i = 0; i < h->nans && !why; i++) {
		const struct file_rec *r = &rv[i];
		struct ans e = { .key = r->key, .kind = r->kind, .trap = r->trap,
				 .bucket = r->bucket, .pkind = r->pkind, .named = r->named,
				 .elem = r->elem, .indexed = r->indexed, .site = r->site,
				 .type = r->type, .off = r->off, .ssize = r->ssize, .obj_base = r->obj_base,
				 .foff = r->foff, .fsize = r->fsize, .mem_size = r->mem_size,
				 .outer_size = r->outer_size, .outer_foff = r->outer_foff,
				 .outer_fsize = r->outer_fsize };
		int rc;

		if ((why = check_rec(r, h->nstrs)))
			break;
		for (int k = 0; k < NSTR; k++)
			e.str[k] = r->str[k] ? strs + r->str[k] - 1 : NULL;
		rc = add(x, &e);
		if (rc == -EEXIST)
			why = "an answer twice";
		else if (rc)
			why = "out of memory";
	}
	if (why) {
		x->n = 0;
		if (x->slots)
			memset(x->slots, 0, x->nslots * sizeof(*x->slots));
	}
	x->nread = x->n;
	return why;
}

/* Strings of the saved file: each pointer once (a's are interned, the
 * blob's distinct), its offset + 1. */
struct str_map {
	const char **key;
	uint32_t *off;
	size_t nslots;
	hm_sbuf bytes;
};

static uint32_t str_ref(struct str_map *m, const char *s)
{
	size_t j;

	if (!s)
		return 0;
	for (j = hm_hash_u64((uintptr_t)s) & (m->nslots - 1); m->key[j]; j = (j + 1) & (m->nslots - 1))
		if (m->key[j] == s)
			return m->off[j];
	m->key[j] = s;
	m->off[j] = (uint32_t)m->bytes.len + 1;
	hm_sbuf_putn(&m->bytes, s, strlen(s) + 1);	/* with its NUL */
	return m->off[j];
}

/* x's answers as a file's payload into *blob, *len (the caller frees):
 * 0 or -ENOMEM, -E2BIG. */
static int serialize(const struct attr_answers *x, void **blob, size_t *len)
{
	struct str_map m = { 0 };
	struct file_hdr *h;
	struct file_rec *rv;
	size_t i, nrec = sizeof(*h) + x->n * sizeof(*rv);
	int err = 0;

	m.nslots = 64;
	while (m.nslots < 2 * NSTR * (x->n + 1))
		m.nslots *= 2;
	m.key = calloc(m.nslots, sizeof(*m.key));
	m.off = calloc(m.nslots, sizeof(*m.off));
	rv = calloc(x->n + 1, sizeof(*rv));
	if (!m.key || !m.off || !rv) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < x->n; i++) {
		const struct ans *e = &x->v[i];
		struct file_rec *r = &rv[i];

		*r = (struct file_rec){ .key = e->key, .kind = e->kind, .trap = e->trap,
					.bucket = e->bucket, .pkind = e->pkind, .named = e->named,
					.elem = e->elem, .indexed = e->indexed, .site = e->site,
					.type = e->type,
					.off = e->off, .ssize = e->ssize, .obj_base = e->obj_base,
					.foff = e->foff, .fsize = e->fsize, .mem_size = e->mem_size,
					.outer_size = e->outer_size, .outer_foff = e->outer_foff,
					.outer_fsize = e->outer_fsize };
		for (int k = 0; k < NSTR; k++)
			r->str[k] = str_ref(&m, e->str[k]);
	}
	hm_sbuf_putn(&m.bytes, "", 1);	/* never empty, always terminated */
	if (m.bytes.err || m.bytes.len > UINT32_MAX) {
		err = m.bytes.err ? m.bytes.err : -E2BIG;
		goto out;
	}
	if (!(h = malloc(nrec + m.bytes.len))) {
		err = -ENOMEM;
		goto out;
	}
	*h = (struct file_hdr){ (uint32_t)x->n, 0, m.bytes.len };
	memcpy(h + 1, rv, x->n * sizeof(*rv));
	memcpy((char *)h + nrec, m.bytes.p, m.bytes.len);
	*blob = h;
	*len = nrec + m.bytes.len;
out:
	free(m.key);
	free(m.off);
	free(m.bytes.p);
	free(rv);
	return err;
}

/* ---- a binary's answers ---- */

/* b's answers, read from the cache once (empty when there are none or the
 * file is unusable); NULL when the cache is off or b has no DWARF file. */
static struct attr_answers *answers_of(struct binent *b)
{
	struct attr_answers *x;
	hm_binary *d;
	char dir[PATH_MAX];
	void *blob;
	size_t len;
	int use;

	if (b->ans || b->ans_tried)
		return b->ans;
	b->ans_tried = 1;
	if (b->status != BIN_OK || attr_binent_debug(b))
		return NULL;
	d = attr_binent_dwarf(b);
	use = hm_typecache_usable(d, b->load, dir, sizeof(dir));
	if (!use || !(x = calloc(1, sizeof(*x))))
		return NULL;
	if (!hm_attrcache_read(d, dir, &blob, &len)) {
		const char *why = parse(x, blob, len);

		if (why)
			hm_diag(HM_DIAG_DEBUG, "%s: attribution answers unusable: %s",
				hmi_binary_path(d), why);
	}
	if ((use & HM_TYPECACHE_WRITE) && !(x->dir = strdup(dir))) {
		answers_free(x);
		return NULL;
	}
	b->ans = x;
	return x;
}

/* Whether b's answers may be used and added to now. */
static int answerable(const struct binent *b)
{
	/* types of another source (BTF) or a subset of them answer
	 * otherwise */
	return b->status == BIN_OK && !b->load_said && !b->load->btf && !b->load->only;
}

/* e's strings, strs's from now on (a's: interned, one pointer a name, as
 * the answers made in this run hold them).  0 or -ENOMEM. */
static int intern(hm_strtab *strs, struct ans *e)
{
	const char *s[NSTR] = { NULL };

	if (e->interned)
		return 0;
	for (int k = 0; k < NSTR; k++)
		if (e->str[k] && !(s[k] = hm_strtab_intern(strs, e->str[k])))
			return -ENOMEM;
	memcpy(e->str, s, sizeof(s));
	e->interned = 1;
	return 0;
}

/* The resolution of instruction answer e (interned) of b, as
 * attr_insn_lookup() would have made it for what attr_resolve_insn()
 * reads of it. */
static void make_res(struct insn_res *r, const struct ans *e, struct binent *b)
{
	memset(r, 0, sizeof(*r));
	r->bin = b;
	r->pc = e->key;
	r->trap = e->trap;
	r->decoded = 1;
	r->answered = 1;
	r->bucket = e->bucket;
	r->kind = e->pkind;
	r->named = e->named;
	r->elem = e->elem;
	r->indexed = e->indexed;
	r->site = e->site;
	r->type = e->type;
	r->off = e->off;
	r->ssize = e->ssize;
	r->foff = e->foff;
	r->fsize = e->fsize;
	r->insn.mem.size = (uint8_t)e->mem_size;
	r->sname = e->str[S_SNAME];
	r->object = e->str[S_OBJECT];
	r->path = e->str[S_PATH];
	r->outer = e->str[S_OUTER];
	r->outer_path = e->str[S_OUTER_PATH];
	r->outer_size = e->outer_size;
	r->outer_foff = e->outer_foff;
	r->outer_fsize = e->outer_fsize;
}

int attr_answers_link(hm_attr *a, struct binent *b, uint64_t x, struct cached *c)
{
	struct attr_answers *ans;
	struct ans *e;
	size_t slot;

	if (!answerable(b) || !(ans = answers_of(b)) ||
	    !(e = find(ans, ANS_LINK, x, 0, &slot)))
		return 0;
	if (intern(&a->memo.strs, e)) {
		c->bucket = HM_NR_BUCKETS;
		return 1;
	}
	b->answered = 1;
	c->bucket = e->bucket;
	c->sname = e->str[S_SNAME];
	c->object = e->str[S_OBJECT];
	c->path = e->str[S_PATH];
	c->kind = e->pkind;
	c->ssize = e->ssize;
	c->obj_base = e->obj_base;
	c->foff = e->foff;
	c->fsize = e->fsize;
	return 1;
}

void attr_answers_note_link(hm_attr *a, struct binent *b, uint64_t x, const struct cached *c)
{
	struct attr_answers *ans;
	struct ans e = { .key = x, .kind = ANS_LINK, .bucket = (uint8_t)c->bucket,
			 .pkind = (uint8_t)c->kind, .interned = 1, .ssize = c->ssize,
			 .obj_base = c->obj_base, .foff = c->foff, .fsize = c->fsize,
			 .str = { c->sname, c->object, c->path } };

	if (c->bucket >= HM_NR_BUCKETS || !answerable(b) || !(ans = answers_of(b)))
		return;
	if (!attributed_link(c->bucket))
		e.str[S_SNAME] = e.str[S_OBJECT] = e.str[S_PATH] = NULL;
	(void)add(ans, &e);	/* out of memory: one answer less */
}

/* Whether b's instructions may be answered: their bytes are the file's
 * (the vmlinux's are a kcore copy's when one is in use). */
static int insn_answerable(const hm_attr *a, const struct binent *b)
{
	return answerable(b) && !(b == a->bin.vmlinux && a->kern.kcore);
}

struct insn_res *attr_answers_insn(hm_attr *a, struct binent *b, uint64_t pc, int trap)
{
	struct attr_answers *ans;
	struct insn_res *r;
	struct ans *e;
	size_t slot;

	if (!insn_answerable(a, b) || !(ans = answers_of(b)) ||
	    !(e = find(ans, ANS_INSN, pc, (unsigned)trap, &slot)))
		return NULL;
	/* a patch site's is the file's text: until a TEXT_POKE */
	if (e->site && a->kern.poke_gen)
		return NULL;
	if (intern(&a->memo.strs, e) || !(r = hm_arena_alloc(&a->memo.rec_arena, sizeof(*r))))
		return NULL;
	make_res(r, e, b);
	b->answered = 1;
	return r;
}

void attr_answers_note_insn(hm_attr *a, struct binent *b, const struct insn_res *r)
{
	struct attr_answers *ans;
	struct ans e = { .key = r->pc, .kind = ANS_INSN, .trap = r->trap,
			 .bucket = (uint8_t)r->bucket, .pkind = r->kind, .named = r->named,
			 .elem = r->elem, .indexed = r->indexed, .site = r->site, .interned = 1,
			 .type = r->type,
			 .off = r->off, .ssize = r->ssize, .foff = r->foff, .fsize = r->fsize,
			 .mem_size = r->insn.mem.size, .outer_size = r->outer_size,
			 .outer_foff = r->outer_foff, .outer_fsize = r->outer_fsize,
			 .str = { r->sname, r->object, r->path, r->outer, r->outer_path } };

	/* what is per recording is not kept: a TEXT_POKE's bytes, a kcore
	 * copy's, a patch site's once the recording has poked text */
	if (r->bucket >= HM_NR_BUCKETS || r->poked || r->from_kcore ||
	    (r->site && r->poke_gen) || !insn_answerable(a, b) || !(ans = answers_of(b)))
		return;
	if (!attributed_insn(r->bucket)) {
		memset(e.str, 0, sizeof(e.str));
		e.named = e.elem = 0;
	}
	if (!r->elem)
		e.str[S_OUTER] = e.str[S_OUTER_PATH] = NULL;
	(void)add(ans, &e);	/* out of memory: one answer less */
}

void attr_answers_save(struct binent *b)
{
	struct attr_answers *x = b->ans;
	void *blob;
	size_t len;

	if (x && x->dir && x->n > x->nread && answerable(b) && !serialize(x, &blob, &len)) {
		hm_attrcache_write(attr_binent_dwarf(b), x->dir, blob, len);
		free(blob);
	}
}

void attr_answers_free(struct binent *b)
{
	answers_free(b->ans);
	b->ans = NULL;
}

int hmi_attr_answers_check(const void *payload, size_t len, void **out, size_t *out_len)
{
	struct attr_answers x = { 0 };
	void *copy = malloc(len ? len : 1);
	hm_strtab strs = { 0 };
	struct insn_res r;
	size_t i;
	int err = 0;

	*out = NULL;
	*out_len = 0;
	if (!copy)
		return -ENOMEM;
	memcpy(copy, payload, len);
	if (parse(&x, copy, len)) {
		err = -EBADMSG;
		goto out;
	}
	/* every answer as a run takes it: found by its key, interned, an
	 * instruction's made into a resolution */
	for (i = 0; i < x.n && !err; i++) {
		struct ans *e = &x.v[i];
		size_t slot;

		if (find(&x, e->kind, e->key, e->trap, &slot) != e)
			err = -EPROTO;	/* a lookup missed its answer */
		else if (intern(&strs, e))
			err = -ENOMEM;
		else if (e->kind == ANS_INSN)
			make_res(&r, e, NULL);
	}
	if (!err)
		err = serialize(&x, out, out_len);
out:
	hm_strtab_free(&strs);
	free(x.v);
	free(x.slots);
	free(x.blob);
	return err ? err : (int)x.nread;
}
