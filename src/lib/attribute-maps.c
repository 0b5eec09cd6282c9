/* Attribution bookkeeping: processes, their mappings (MMAP/MMAP2/FORK), the
 * kernel map and KASLR, and the loop that runs a whole perf.data through
 * attribution into heat. */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <elf.h>
#include "attribute-int.h"
#include "diag.h"
#include "heat-int.h"

struct proc *attr_proc(hm_attr *a, uint32_t pid, int create)
{
	size_t lo = 0, hi = a->nprocs;

	if (a->last_proc < a->nprocs && a->procs[a->last_proc].pid == pid)
		return &a->procs[a->last_proc];
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (a->procs[mid].pid == pid) {
			a->last_proc = mid;
			return &a->procs[mid];
		}
		if (a->procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!create)
		return NULL;
	if (hm_grow((void **)&a->procs, &a->procs_cap, a->nprocs + 1, sizeof(*a->procs)))
		return NULL;
	memmove(a->procs + lo + 1, a->procs + lo, (a->nprocs - lo) * sizeof(*a->procs));
	memset(&a->procs[lo], 0, sizeof(a->procs[lo]));
	a->procs[lo].pid = pid;
	a->nprocs++;
	a->last_proc = lo;
	return &a->procs[lo];
}

const struct image *proc_image_at(const struct proc *p, uint64_t addr)
{
	size_t i;

	/* Later mappings replace earlier ones: search from the end. */
	for (i = p->nimages; i-- > 0;)
		if (addr >= p->images[i].start && addr < p->images[i].end)
			return &p->images[i];
	return NULL;
}

enum hm_attr_bucket proc_anon_bucket(const struct proc *p, uint64_t addr)
{
	size_t i;

	for (i = p->nanon; i-- > 0;)
		if (addr >= p->anon[i].start && addr < p->anon[i].end)
			return p->anon[i].bucket;
	return HM_UNATTR_NO_MAP;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static void hex_id(const unsigned char *id, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = 0;
}

/* Build-ids compare as perf does: the recorded one may be zero-padded to 20. */
static int same_build_id(const char *file_id, const char *rec_id)
{
	size_t n = strlen(file_id);

	return !strncmp(file_id, rec_id, n) && strspn(rec_id + n, "0") == strlen(rec_id + n);
}

static struct binent *mismatch(hm_attr *a, const char *name, const char *why)
{
	struct binent *b;

	hm_diag(HM_DIAG_WARNING, "%s: %s: its samples stay unattributed", name, why);
	b = calloc(1, sizeof(*b));
	if (!b || hm_grow((void **)&a->bins, &a->bins_cap, a->nbins + 1, sizeof(*a->bins))) {
		free(b);
		return NULL;
	}
	b->path = strdup(name);
	b->status = BIN_MISMATCH;
	a->bins[a->nbins++] = b;
	return b->path ? b : NULL;
}

/* Mapped data files (locale archives, caches) are not ELF: check the magic
 * before opening, so they are quietly skipped. */
static int is_elf(const char *path)
{
	unsigned char magic[4];
	FILE *f = fopen(path, "rb");
	int ok;

	if (!f)
		return 0;
	ok = fread(magic, 1, 4, f) == 4 && !memcmp(magic, "\177ELF", 4);
	fclose(f);
	return ok;
}

/* The binary to use for a mapped file name (opened once, then remembered). */
static struct binent *binary_for(hm_attr *a, const hm_perf_mmap *m)
{
	char rec_id[41] = "", why[200];
	struct binent *b = NULL, *found = NULL;
	hm_binary *bin;
	struct stat st;
	size_t i;

	if (m->build_id_size)
		hex_id(m->build_id, m->build_id_size > 20 ? 20 : m->build_id_size, rec_id);
	for (i = 0; i < a->nbins; i++) {
		b = a->bins[i];
		if (!strcmp(b->path, m->filename) && !b->user)
			return b;
		if (b->user && b->bin && rec_id[0] && hm_binary_build_id(b->bin) &&
		    same_build_id(hm_binary_build_id(b->bin), rec_id))
			found = b;
		else if (b->user && !found && !strcmp(base_name(b->path), base_name(m->filename)))
			found = b;
	}
	if (found) {
		const char *id = hm_binary_build_id(found->bin);

		if (rec_id[0] && id && !same_build_id(id, rec_id)) {
			snprintf(why, sizeof(why), "build-id %s differs from the recorded %s (%s)",
				 id, rec_id, m->filename);
			return mismatch(a, found->path, why);
		}
		return found;
	}
	if (stat(m->filename, &st) || !S_ISREG(st.st_mode) || !is_elf(m->filename) ||
	    !(bin = hm_binary_open(m->filename))) {
		b = calloc(1, sizeof(*b));
		if (!b || hm_grow((void **)&a->bins, &a->bins_cap, a->nbins + 1, sizeof(*a->bins))) {
			free(b);
			return NULL;
		}
		b->path = strdup(m->filename);
		b->status = BIN_MISSING;
		a->bins[a->nbins++] = b;
		return b->path ? b : NULL;
	}
	if (rec_id[0] && hm_binary_build_id(bin) && !same_build_id(hm_binary_build_id(bin), rec_id)) {
		snprintf(why, sizeof(why), "build-id %s differs from the recorded %s",
			 hm_binary_build_id(bin), rec_id);
		hm_binary_close(bin);
		return mismatch(a, m->filename, why);
	}
	b = calloc(1, sizeof(*b));
	if (!b || hm_grow((void **)&a->bins, &a->bins_cap, a->nbins + 1, sizeof(*a->bins))) {
		free(b);
		hm_binary_close(bin);
		return NULL;
	}
	a->bins[a->nbins++] = b;
	b->path = strdup(m->filename);
	b->bin = bin;
	if (!b->path || attr_binent_phdrs(b))
		return NULL;
	return b;
}

/* Runtime − link address for a file mapping (start, pgoff, prot): the PT_LOAD
 * segment holding file offset pgoff decides.  One file page can belong to two
 * segments (the end of .rodata and the start of .data share a page): the
 * segment whose permissions match the mapping's wins. */
static uint64_t mapping_bias(const struct binent *b, const hm_perf_mmap *m)
{
	const struct seg *best = NULL;
	int best_score = -1;
	size_t i;

	for (i = 0; i < b->nloads; i++) {
		const struct seg *s = &b->loads[i];
		uint64_t off0 = s->offset & ~(uint64_t)0xfff;
		int score = 0;

		if (m->pgoff < off0 || m->pgoff >= s->offset + (s->filesz ? s->filesz : 1))
			continue;
		if (!!(s->flags & PF_X) == !!(m->prot & PROT_EXEC))
			score += 2;
		if (!!(s->flags & PF_W) == !!(m->prot & PROT_WRITE))
			score += 1;
		if (score > best_score) {
			best = s;
			best_score = score;
		}
	}
	if (!best && b->nloads)
		best = &b->loads[0];
	if (!best)
		return m->start - m->pgoff;
	return m->start - m->pgoff + (best->offset & ~(uint64_t)0xfff) -
	       (best->vaddr & ~(uint64_t)0xfff);
}

static int add_image(struct proc *p, struct binent *b, uint64_t bias)
{
	struct image *im;
	size_t i;

	/* A binary has one bias per process: the first mapping seen (the one
	 * at file offset 0, or the executable one) decides; later remaps
	 * (RELRO's mprotect) must not add a second image. */
	for (i = 0; i < p->nimages; i++)
		if (p->images[i].bin == b)
			return 0;
	if (hm_grow((void **)&p->images, &p->images_cap, p->nimages + 1, sizeof(*p->images)))
		return -ENOMEM;
	im = &p->images[p->nimages++];
	im->bin = b;
	im->bias = bias;
	im->start = b->lo + bias;
	im->end = b->hi + bias;
	return 0;
}

static int add_anon(struct proc *p, const hm_perf_mmap *m, enum hm_attr_bucket bucket)
{
	if (hm_grow((void **)&p->anon, &p->anon_cap, p->nanon + 1, sizeof(*p->anon)))
		return -ENOMEM;
	p->anon[p->nanon++] = (struct anon){ m->start, m->start + m->len, bucket };
	return 0;
}

static int kernel_mmap(hm_attr *a, const hm_perf_mmap *m)
{
	const char *ref = strchr(m->filename, ']');
	const hm_symbol *sym;

	a->kernel_seen = 1;
	if (!a->vmlinux || a->kaslr_known || !ref || strncmp(m->filename, "[kernel.kallsyms]", 17))
		return 0;
	ref++;	/* "_text" or "_stext" after the bracket */
	sym = hm_binary_symbol(a->vmlinux->bin, *ref ? ref : "_text");
	if (!sym)
		sym = hm_binary_symbol(a->vmlinux->bin, "_stext");
	if (!sym) {
		hm_diag(HM_DIAG_WARNING, "%s: no _text/_stext symbol: cannot compute the KASLR offset",
			a->vmlinux->path);
		return 0;
	}
	a->kaslr = m->pgoff - sym->addr;
	a->kaslr_known = 1;
	return 0;
}

static int mmap_record(hm_attr *a, const hm_perf_mmap *m)
{
	const char *f = m->filename ? m->filename : "";
	struct binent *b;
	struct proc *p;

	if (m->cpumode == PERF_RECORD_MISC_KERNEL || !strncmp(f, "[kernel.kallsyms]", 17))
		return kernel_mmap(a, m);
	p = attr_proc(a, m->pid, 1);
	if (!p)
		return -ENOMEM;
	if (!strncmp(f, "[stack", 6))
		return add_anon(p, m, HM_UNATTR_STACK);
	if (f[0] != '/' || f[1] == '/')	/* [heap], //anon, [anon:...], [vdso] ... */
		return add_anon(p, m, HM_UNATTR_HEAP);
	b = binary_for(a, m);
	if (!b)
		return -ENOMEM;
	if (!b->nloads) {
		/* Missing or mismatched: the range alone, so its samples land in
		 * that binary's bucket. */
		if (hm_grow((void **)&p->images, &p->images_cap, p->nimages + 1,
			    sizeof(*p->images)))
			return -ENOMEM;
		p->images[p->nimages++] = (struct image){ b, 0, m->start, m->start + m->len };
		return 0;
	}
	return add_image(p, b, mapping_bias(b, m));
}

static int fork_record(hm_attr *a, const hm_perf_task *t)
{
	struct proc *parent, *child;
	size_t i;

	if (t->pid == t->ppid)
		return 0;	/* a new thread shares its process's maps */
	parent = attr_proc(a, t->ppid, 0);
	if (!parent || !parent->nimages)
		return 0;
	child = attr_proc(a, t->pid, 1);
	parent = attr_proc(a, t->ppid, 0);	/* the array may have moved */
	if (!child || !parent)
		return -ENOMEM;
	for (i = 0; i < parent->nimages; i++)
		if (add_image(child, parent->images[i].bin, parent->images[i].bias))
			return -ENOMEM;
	return 0;
}

/* exec replaces a process's mappings. */
static void comm_record(hm_attr *a, const hm_perf_comm *c)
{
	struct proc *p = c->exec ? attr_proc(a, c->pid, 0) : NULL;

	if (p)
		p->nimages = p->nanon = 0;
}

int hm_attr_record(hm_attr *a, const hm_perf_record *rec)
{
	if (rec->kind == HM_PERF_MMAP || rec->kind == HM_PERF_FORK || rec->kind == HM_PERF_COMM)
		a->gen++;
	if (rec->kind == HM_PERF_COMM)
		comm_record(a, &rec->u.comm);
	if (rec->kind == HM_PERF_MMAP)
		return mmap_record(a, &rec->u.mmap);
	if (rec->kind == HM_PERF_FORK)
		return fork_record(a, &rec->u.task);
	return 0;
}

/* ---- the record loop ---- */

/* Samples are in file order, which perf does not sort: a thread's samples on
 * one CPU's buffer can come before the MMAP records of its process on
 * another's.  A sample whose address is in no known mapping waits for the end
 * of the round (FINISHED_ROUND: everything before it is written) and is
 * resolved again then. */
struct pending {
	hm_sample *v;
	size_t n, cap;
};

/* Per-run caches: a data address (per process) seen before goes straight to
 * its heat row, an IP to its binary; both are dropped whenever a record
 * changes the mappings (hm_attr.gen). */
#define FAST_SLOTS 16384

struct fast_ent {
	uint64_t addr;
	uint32_t pid, gen;
	struct heat_row *row;	/* NULL: not counted in heat */
	uint8_t bucket, mapped, valid;
};

struct ip_ent {
	uint64_t ip;
	uint32_t pid, gen;
	const void *bin;
	uint64_t link;
	uint8_t valid;
};

struct run {
	struct pending later;
	struct fast_ent *fast;
	struct ip_ent *ips;
};

static void sample_ip(hm_attr *a, struct run *run, const hm_sample *s, hm_heat_access *acc)
{
	struct ip_ent *e = &run->ips[hm_hash_u64(s->ip ^ ((uint64_t)s->pid << 40)) & (FAST_SLOTS - 1)];

	if (!(s->has & HM_HAS_IP))
		return;
	if (!(e->valid && e->ip == s->ip && e->pid == s->pid && e->gen == a->gen)) {
		e->valid = 1;
		e->ip = s->ip;
		e->pid = s->pid;
		e->gen = a->gen;
		if (hm_attr_ip(a, s, &e->bin, &e->link))
			e->bin = NULL, e->link = 0;
	}
	acc->ip_bin = e->bin;
	acc->ip_link = e->link;
}

/* Attribute a sample not seen before: its bucket, and its heat row when it is
 * counted in heat.  Returns 1 when the sample must wait (no mapping yet). */
static int resolve_slow(hm_attr *a, const hm_sample *s, uint64_t addr, hm_heat *h,
			int has_data_src, int may_wait, struct fast_ent *e)
{
	hm_heat_access acc = { 0 };
	hm_attribution at;
	int r = hm_attr_resolve(a, s, addr, &at);

	if (r < 0)
		return r;
	if (may_wait && at.bucket == HM_UNATTR_NO_MAP)
		return 1;
	e->bucket = (uint8_t)at.bucket;
	e->row = NULL;
	e->mapped = has_data_src ? (uint8_t)hm_attr_mapped(a, s, addr) : 1;
	if (r || (has_data_src && addr)) {
		if (r) {
			acc.sname = at.sname;
			acc.kind = at.kind;
			acc.ssize = at.ssize;
			acc.object = at.object;
			acc.obj_base = at.obj_base;
			acc.path = at.path;
			acc.foff = at.foff;
			acc.fsize = at.fsize;
		}
		acc.addr = addr;
		e->row = heat_row_of(h, &acc);
		if (!e->row)
			return -ENOMEM;
	}
	e->addr = addr;
	e->pid = s->pid;
	e->gen = a->gen;
	e->valid = 1;
	return 0;
}

static int sample(hm_attr *a, const hm_perf_info *info, const hm_sample *s, hm_heat *h,
		  hm_report_stats *st, struct run *run, int may_wait)
{
	const hm_perf_event *ev = s->attr < info->nr_events ? &info->events[s->attr] : NULL;
	int is_bp = ev && ev->type == PERF_TYPE_BREAKPOINT;
	hm_heat_access acc = { 0 };
	struct fast_ent *e;
	uint64_t addr = 0;
	int r;

	if ((s->has & HM_HAS_ADDR) && s->addr)
		addr = s->addr;
	else if (is_bp)
		addr = ev->bp_addr;
	/* perf record -d asks for DATA_SRC on any event; only samples whose
	 * data_src names a load or a store are memory samples. */
	acc.has_data_src = (s->has & HM_HAS_DATA_SRC) &&
			   (s->data_src & (PERF_MEM_OP_LOAD | PERF_MEM_OP_STORE));
	e = &run->fast[hm_hash_u64(addr ^ ((uint64_t)s->pid << 40)) & (FAST_SLOTS - 1)];
	if (!(e->valid && e->addr == addr && e->pid == s->pid && e->gen == a->gen)) {
		r = resolve_slow(a, s, addr, h, acc.has_data_src, may_wait, e);
		if (r < 0)
			return r;
		if (r) {
			if (hm_grow((void **)&run->later.v, &run->later.cap, run->later.n + 1,
				    sizeof(*run->later.v)))
				return -ENOMEM;
			run->later.v[run->later.n++] = *s;
			return 0;
		}
	}
	st->samples++;
	st->buckets[e->bucket]++;
	if (acc.has_data_src)
		st->datasrc_samples++;
	else if (is_bp)
		st->watch_samples++;
	else
		st->addr_samples++;
	if (!e->row)
		return 0;
	acc.addr = addr;
	acc.ip = s->ip;
	sample_ip(a, run, s, &acc);
	acc.time = s->time;
	acc.data_src = s->data_src;
	acc.tid = s->tid;
	if (s->has & HM_HAS_CPU) {
		acc.cpu = s->cpu;
	} else {
		acc.cpu = s->tid;
		st->cpu_from_tid = 1;
	}
	if (is_bp && !acc.has_data_src) {
		acc.bp_w = ev->bp_type == HW_BREAKPOINT_W;
		acc.bp_rw = !acc.bp_w;
	}
	acc.mapped = e->mapped;
	return heat_count(h, e->row, &acc);
}

static int flush_pending(hm_attr *a, hm_perf_reader *r, hm_heat *h, hm_report_stats *st,
			 struct run *run)
{
	size_t i, n = run->later.n;
	int err = 0;

	run->later.n = 0;
	for (i = 0; i < n && !err; i++)
		err = sample(a, hm_perf_reader_info(r), &run->later.v[i], h, st, run, 0);
	return err;
}

#define PERF_RECORD_FINISHED_ROUND_ 68

int hm_attr_run(hm_attr *a, hm_perf_reader *r, hm_heat *h, hm_report_stats *st)
{
	struct run run = { .fast = calloc(FAST_SLOTS, sizeof(*run.fast)),
			   .ips = calloc(FAST_SLOTS, sizeof(*run.ips)) };
	hm_perf_record rec;
	int rc = 0, err = 0;

	memset(st, 0, sizeof(*st));
	if (!run.fast || !run.ips)
		err = -ENOMEM;
	while (!err && (rc = hm_perf_reader_next(r, &rec)) > 0) {
		st->records++;
		if (rec.kind == HM_PERF_SAMPLE)
			err = sample(a, hm_perf_reader_info(r), &rec.u.sample, h, st, &run, 1);
		else if (rec.kind == HM_PERF_LOST)
			st->lost += rec.u.lost;
		else if (rec.type == PERF_RECORD_FINISHED_ROUND_)
			err = flush_pending(a, r, h, st, &run);
		else
			err = hm_attr_record(a, &rec);
	}
	if (!err && rc < 0)
		err = rc;
	if (!err)
		err = flush_pending(a, r, h, st, &run);
	free(run.later.v);
	free(run.fast);
	free(run.ips);
	if (err)
		return err;
	err = hm_heat_finish(h);
	st->assumed_writes = h->assumed_writes;
	return err;
}

const char *hm_report_kind(const hm_report_stats *st)
{
	if (st->datasrc_samples)
		return "hitm";
	if (st->watch_samples)
		return "watch";
	return "addr";
}

static int profile_setup(hm_attr *a, const struct hm_profile_source *src)
{
	size_t i;
	int err;

	for (i = 0; i < src->nr_binaries; i++)
		if ((err = hm_attr_add_binary(a, src->binaries[i])))
			return err;
	if (src->vmlinux && (err = hm_attr_set_vmlinux(a, src->vmlinux)))
		return err;
	for (i = 0; i < src->nr_objects; i++)
		if ((err = hm_attr_add_object(a, src->objects[i])))
			return err;
	return 0;
}

int hm_profile_from_perf(const struct hm_profile_source *src, hm_profile **out)
{
	hm_attr *a = hm_attr_new();
	hm_perf_reader *r = NULL;
	hm_heat *h = NULL;
	hm_report_stats st;
	hm_profile *p;
	int err;

	if (!a)
		return -ENOMEM;
	err = profile_setup(a, src);
	if (!err && !(r = hm_perf_reader_open(src->perf_data)))
		err = errno ? -errno : -EIO;
	if (!err && !(h = hm_heat_new(hm_attr_line_size(a))))
		err = -ENOMEM;
	if (!err)
		err = hm_attr_run(a, r, h, &st);
	if (!err) {
		p = hm_heat_profile(h, src->perf_data, hm_report_kind(&st), st.samples,
				    st.buckets[HM_ATTR_GLOBAL] + st.buckets[HM_ATTR_OBJECT]);
		if (p)
			*out = p;
		else
			err = -ENOMEM;
	}
	hm_heat_free(h);
	hm_perf_reader_close(r);
	hm_attr_free(a);
	return err;
}
