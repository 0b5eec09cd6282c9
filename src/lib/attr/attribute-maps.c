/* Attribution bookkeeping: processes, their mappings (MMAP/MMAP2/FORK), the
 * kernel map and KASLR, and the loop that runs a whole perf.data through
 * attribution into heat. */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/hw_breakpoint.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elf.h>
#include <gelf.h>
#include "attr/attribute-int.h"
#include "insn/insn.h"
#include "elf/kcore.h"
#include "base/diag.h"
#include "heat/heat-int.h"

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
	hm_diag(HM_DIAG_WARNING, "%s: %s: its samples stay unattributed", name, why);
	return attr_binent_new(a, name, NULL, BIN_MISMATCH);
}

/* Mapped data files (locale archives, caches) are not ELF: check the magic
 * before opening, so they are quietly skipped. */
static int is_elf(const char *path)
{
	unsigned char magic[4];
	/* The name comes from the recording: never block (a FIFO swapped in
	 * after the caller's stat), and only a regular file counts. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	int ok;

	if (fd < 0)
		return 0;
	ok = !fstat(fd, &st) && S_ISREG(st.st_mode) && read(fd, magic, 4) == 4 &&
	     !memcmp(magic, "\177ELF", 4);
	close(fd);
	return ok;
}

/* Where to look for a mapped file: the name itself, or under --sysroot, where
 * a ".." component could climb out and is refused (empty result). */
static void local_path(const hm_attr *a, const char *name, char *buf, size_t len)
{
	const char *p;

	if (!a->sysroot) {
		snprintf(buf, len, "%s", name);
		return;
	}
	for (p = name; (p = strstr(p, "..")); p += 2) {
		if ((p == name || p[-1] == '/') && (p[2] == 0 || p[2] == '/')) {
			buf[0] = 0;
			return;
		}
	}
	if ((size_t)snprintf(buf, len, "%s%s", a->sysroot, name) >= len)
		buf[0] = 0;
}

/* The recording's build-id table (perf writes it after recording) gives
 * the build-id of files whose MMAP records carry none: what lets --binary
 * match a renamed or separate debug file. */
static void table_build_id(const hm_attr *a, const char *name, char *out)
{
	const hm_perf_build_id *ids;
	size_t n = a->reader ? hm_perf_reader_build_ids(a->reader, &ids) : 0;

	for (size_t i = 0; i < n; i++) {
		if (ids[i].filename && !strcmp(ids[i].filename, name) && ids[i].size) {
			hex_id(ids[i].build_id, ids[i].size > 20 ? 20 : ids[i].size, out);
			return;
		}
	}
}

/* A file whose loadable segments hold no bytes (objcopy --only-keep-debug,
 * .debug files): its program headers' offsets are not the mapped file's. */
static int debug_only(const hm_binary *bin)
{
	Elf *elf = hm_binary_elf(bin);
	size_t n = 0;
	int loads = 0;

	if (!elf || elf_getphdrnum(elf, &n))
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if ((ph.p_flags & PF_X) && ph.p_filesz)
			return 0;
		loads++;
	}
	return loads > 0;
}

/* The binary to use for a mapped file name (opened once, then remembered). */
static struct binent *binary_for(hm_attr *a, const hm_perf_mmap *m)
{
	char rec_id[41] = "", why[200], local[PATH_MAX];
	struct binent *b = NULL, *found = NULL;
	hm_binary *bin;
	struct stat st;
	size_t i;

	if (m->build_id_size)
		hex_id(m->build_id, m->build_id_size > 20 ? 20 : m->build_id_size, rec_id);
	else
		table_build_id(a, m->filename, rec_id);
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
	local_path(a, m->filename, local, sizeof(local));
	if (found) {
		const char *id = hm_binary_build_id(found->bin);

		if (rec_id[0] && id && !same_build_id(id, rec_id)) {
			snprintf(why, sizeof(why), "build-id %s differs from the recorded %s (%s)",
				 id, rec_id, m->filename);
			return mismatch(a, found->path, why);
		}
		if (!debug_only(found->bin))
			return found;
		/* A debug file (objcopy --only-keep-debug) has the types but
		 * not the file offsets of the segments that were mapped: the
		 * addresses come from the mapped file itself. */
		bin = local[0] && is_elf(local) ? hm_binary_open(local) : NULL;
		if (!bin || !id || !hm_binary_build_id(bin) ||
		    strcmp(hm_binary_build_id(bin), id)) {
			hm_binary_close(bin);
			snprintf(why, sizeof(why), "a debug file: its samples need the mapped "
				 "file %s with the same build-id, which is not here", m->filename);
			return mismatch(a, found->path, why);
		}
		if ((b = attr_binent_new(a, m->filename, bin, BIN_OK)))
			b->dbg = found->bin;
		return b;
	}
	if (!local[0] || stat(local, &st) || !S_ISREG(st.st_mode) || !is_elf(local) ||
	    !(bin = hm_binary_open(local)))
		return attr_binent_new(a, m->filename, NULL, BIN_MISSING);
	if (rec_id[0] && hm_binary_build_id(bin) && !same_build_id(hm_binary_build_id(bin), rec_id)) {
		snprintf(why, sizeof(why), "build-id %s differs from the recorded %s",
			 hm_binary_build_id(bin), rec_id);
		hm_binary_close(bin);
		return mismatch(a, m->filename, why);
	}
	return attr_binent_new(a, m->filename, bin, BIN_OK);
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
	uint64_t s = m->start, e = m->start + m->len;
	size_t i, j;

	/* perf.data has no munmap: a file that is not ELF (ld.so.cache) is
	 * often unmapped and its range reused by anonymous memory, which then
	 * replaces the file's range.  An ELF image's extent stays: its own
	 * .bss is mapped anonymously inside it. */
	for (i = j = 0; i < p->nimages; i++) {
		struct image *im = &p->images[i];

		if (!im->bin->nloads && s < im->end && e > im->start) {
			if (s <= im->start && e >= im->end)
				continue;	/* covered: gone */
			if (s <= im->start)
				im->start = e;
			else if (e >= im->end)
				im->end = s;
		}
		p->images[j++] = *im;
	}
	p->nimages = j;
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
	/* an offset only the kcore copy gave is checked against the map */
	if (!a->vmlinux || (a->kaslr_known && !a->kaslr_from_kcore) || !ref ||
	    strncmp(m->filename, "[kernel.kallsyms]", 17))
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
	a->kaslr_from_kcore = 0;
	if (a->kcore_ok && a->kaslr != a->kcore_kaslr) {
		hm_diag(HM_DIAG_ERROR, "%s: its kallsyms puts the kernel 0x%" PRIx64 " from %s's "
			"addresses, the recording's kernel map 0x%" PRIx64 ": not this recording's kernel",
			hm_kcore_path(a->kcore), a->kcore_kaslr, a->vmlinux->path, a->kaslr);
		return -ESRCH;
	}
	return 0;
}

/* A kernel-mode map of a file: a module, its .ko (perf names it by path
 * when it finds the file; "[name]" otherwise, which names no file). */
static int kmod_mmap(hm_attr *a, const hm_perf_mmap *m)
{
	struct binent *b;

	a->kernel_seen = 1;
	b = binary_for(a, m);
	if (!b)
		return -ENOMEM;
	if (b->status != BIN_OK || !b->bin || !hm_binary_is_module(b->bin))
		return 0;
	if (hm_grow((void **)&a->kmods, &a->kmods_cap, a->nkmods + 1, sizeof(*a->kmods)))
		return -ENOMEM;
	a->kmods[a->nkmods++] = (struct kmod){ b, m->start, m->start + m->len };
	return 0;
}

const struct kmod *attr_kmod_at(const hm_attr *a, uint64_t x)
{
	size_t i;

	for (i = a->nkmods; i-- > 0;)	/* the latest map of a range wins */
		if (x - a->kmods[i].start < a->kmods[i].end - a->kmods[i].start)
			return &a->kmods[i];
	return NULL;
}

static int mmap_record(hm_attr *a, const hm_perf_mmap *m)
{
	const char *f = m->filename ? m->filename : "";
	struct binent *b;
	struct proc *p;

	if (m->cpumode == PERF_RECORD_MISC_KERNEL || !strncmp(f, "[kernel.kallsyms]", 17))
		return f[0] == '/' ? kmod_mmap(a, m) : kernel_mmap(a, m);
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
	if (rec->kind == HM_PERF_TEXT_POKE)
		return attr_text_poke(a, &rec->u.poke);
	return 0;
}

/* ---- the record loop ---- */

/* Samples are in file order, which perf does not sort: a thread's samples on
 * one CPU's buffer can come before the MMAP records of its process on
 * another's.  A sample whose address is in no known mapping waits for the end
 * of the round (FINISHED_ROUND: everything before it is written) and is
 * resolved again then; so does one named by its instruction (an address in
 * anonymous memory or a stack) whose IP is in no known mapping yet. */
struct pending {
	hm_sample *v;
	size_t n, cap;
};

/* Per-run caches: a data address (per process) seen before goes straight to
 * its bucket and heat row, an IP to its binary; entries made before a record
 * changed the mappings (hm_attr.gen) are resolved again.
 *
 * Data addresses: open addressing with linear probing, sized to the distinct
 * addresses seen (a direct-mapped table thrashes when two hot addresses share
 * a slot, and a large one misses the CPU caches).  It stops growing at
 * FAST_MAX slots and is then emptied and refilled, so memory stays bounded
 * whatever the number of distinct addresses. */
#define FAST_MIN 8192
#define FAST_MAX (1u << 17)
#define IP_SLOTS 4096

/* Whether a table of `slots` slots holding n entries is full: at half, so
 * that linear probing stays short (a probe is a cache miss, once the
 * distinct addresses outgrow the CPU caches). */
static int memo_full(size_t n, size_t slots)
{
	return 2 * n > slots;
}

/* A memo table's zeroed slots: a large one on huge pages (its probes land
 * anywhere in it), a small one from the heap. */
#define MEMO_HUGE (2u << 20)

static void *memo_alloc(size_t slots, size_t elem)
{
	void *p;

	if (slots * elem >= MEMO_HUGE)
		return hm_huge_alloc(slots * elem);
	p = aligned_alloc(64, slots * elem);
	if (p)
		memset(p, 0, slots * elem);
	return p;
}

static void memo_free(void *p, size_t slots, size_t elem)
{
	if (slots * elem >= MEMO_HUGE)
		hm_huge_free(p, slots * elem);
	else
		free(p);
}

struct fast_ent {
	uint64_t addr;
	uint32_t pid, gen;
	struct heat_row *row;	/* NULL: not counted in heat */
	uint8_t bucket, mapped, valid;
	uint8_t by_ip;		/* the address alone names nothing: see struct ipx_ent */
	uint8_t timed;		/* a kmem object by time: resolved again each time */
};

/* Samples whose address the address path leaves unattributed (no map,
 * stack, heap) are named by their instruction, so their memo is keyed by
 * address and IP: open addressing like fast_tab, emptied at FAST_MAX
 * entries.  The entry also keeps what hm_attr_ip() says of its IP (a
 * function of IP, pid and hm_attr.gen, as the IP cache's entries are): a
 * sample named by its instruction reads one memo line, not two.  One entry
 * is one cacheline. */
struct ipx_ent {
	uint64_t addr, ip;
	uint32_t pid, gen;
	struct heat_row *row;
	const void *ip_bin;
	uint64_t ip_link;
	uint8_t bucket, valid;
} __attribute__((aligned(64)));

struct ipx_tab {
	struct ipx_ent *v;
	size_t mask, n;
	uint32_t epoch;		/* bumped when entries move (grown, emptied) */
};

struct fast_tab {
	struct fast_ent *v;
	size_t mask, n;		/* slots − 1, slots in use */
	uint32_t epoch;		/* bumped when entries move (grown, emptied) */
};

struct ip_ent {
	uint64_t ip;
	uint32_t pid, gen;
	const void *bin;
	uint64_t link;
	uint8_t valid;
};

#define BATCH 64

/* Time order.  perf writes each CPU's ring buffer in chunks, so file order is
 * not time order, and the watchpoint model (heat.h) depends on the order of
 * accesses; perf itself sorts.  Watchpoint samples that carry a time wait in
 * a queue (needs_order()) and
 * leave it as perf's "ordered events" do: at a FINISHED_ROUND record, those
 * not later than the largest time seen up to the previous round (no buffer
 * can still hold an older one); at the end, all.  Equal times keep file
 * order.  Without rounds (hitmap record's own files, already in time order)
 * the queue is a bounded window: when ORDER_WINDOW samples wait (ORDER_MAX
 * once a round was seen), the older half leaves.  A sample older
 * than one already counted is "late": counted anyway, and said in a debug
 * note at the end.  Non-sample records take effect when read, so a sample
 * meets every mapping made up to its round. */
#define ORDER_MAX (1u << 18)	/* once a round was seen */
#define ORDER_WINDOW (1u << 15)	/* before: no rounds, maybe none at all */

struct okey {
	uint64_t time, seq;	/* seq: file order among the samples */
	size_t idx;		/* in order.pool */
};

struct order {
	hm_sample *pool, *spare;	/* n waiting samples; spare: the next pool */
	size_t pool_cap, spare_cap;
	struct okey *keys, *tmp;	/* keys[0 .. n - 1], one per waiting sample */
	size_t keys_cap, tmp_cap;
	size_t n;
	uint64_t seq;
	uint64_t limit;		/* largest time seen up to the previous round */
	uint64_t max_time;
	uint64_t out_time;	/* time of the last sample counted */
	uint64_t late;
	unsigned out_any : 1, rounds : 1;
};

struct run {
	struct order ord;
	struct pending later;
	struct fast_tab fast;
	struct ipx_tab ipx;
	struct ip_ent *ips;
	/* Samples read, not yet counted, in smp[0 .. nbatch - 1]; the reader
	 * fills them in place (no copy), runs of them at a time. */
	hm_sample smp[BATCH];
	hm_perf_record rec;		/* any other record */
	size_t nr_events;		/* of the file, when `ordered` was set */
	int ordered;			/* some samples may need the time queue */
	int kmem;			/* the file has kmem tracepoints */
	uint64_t addr[BATCH];		/* their data addresses */
	size_t hash[BATCH];		/* fast_hash() of address and pid */
	size_t iph[BATCH];		/* fast_hash() of IP and pid */
	size_t xh[BATCH];		/* ipx_hash() of address, IP and pid */
	struct fast_ent *hint[BATCH];	/* their memo entries, as probed */
	struct ipx_ent *xhint[BATCH];	/* their by-IP entries, as probed */
	struct heat_row *rhint[BATCH];	/* the rows those name */
	size_t nbatch;
};

/* Multiplicative (Fibonacci) hashing: it spreads addresses a stride apart
 * (fields, array elements) over the slots more evenly than a random hash,
 * so probes are short.  The pid is spread over the key by a multiply, and
 * the key's high half folded in, since a product's bits depend only on the
 * bits below them. */
static size_t fast_hash(uint64_t addr, uint32_t pid)
{
	uint64_t x = addr ^ (pid * 0x9e3779b97f4a7c15ull);

	x ^= x >> 32;
	return (size_t)((x * 0x9e3779b97f4a7c15ull) >> 32);
}

static int fast_init(struct fast_tab *t, size_t slots)
{
	t->v = memo_alloc(slots, sizeof(*t->v));
	t->mask = slots - 1;
	t->n = 0;
	return t->v ? 0 : -ENOMEM;
}

static void fast_clear(struct fast_tab *t)
{
	memset(t->v, 0, (t->mask + 1) * sizeof(*t->v));
	t->n = 0;
	t->epoch++;
}

/* Double the table, or empty it once it has reached FAST_MAX slots. */
static int fast_grow(struct fast_tab *t)
{
	struct fast_tab n;
	size_t i, j;

	if (t->mask + 1 >= FAST_MAX) {
		fast_clear(t);
		return 0;
	}
	if (fast_init(&n, 2 * (t->mask + 1)))
		return -ENOMEM;
	for (i = 0; i <= t->mask; i++) {
		if (!t->v[i].valid)
			continue;
		for (j = fast_hash(t->v[i].addr, t->v[i].pid) & n.mask; n.v[j].valid;
		     j = (j + 1) & n.mask)
			;
		n.v[j] = t->v[i];
		n.n++;
	}
	memo_free(t->v, t->mask + 1, sizeof(*t->v));
	n.epoch = t->epoch + 1;
	*t = n;
	return 0;
}

/* The entry of (addr, pid) whose fast_hash() is hash: found (valid set), or
 * a free slot to fill. */
static struct fast_ent *fast_find(struct fast_tab *t, size_t hash, uint64_t addr, uint32_t pid)
{
	size_t j;

	for (j = hash & t->mask; t->v[j].valid; j = (j + 1) & t->mask)
		if (t->v[j].addr == addr && t->v[j].pid == pid)
			return &t->v[j];
	return &t->v[j];
}

static struct fast_ent *fast_slot(struct fast_tab *t, uint64_t addr, uint32_t pid)
{
	return fast_find(t, fast_hash(addr, pid), addr, pid);
}

/* iph: fast_hash(s->ip, s->pid); x: the sample's by-IP entry, or NULL. */
static void sample_ip(hm_attr *a, struct run *run, const hm_sample *s, size_t iph,
		      const struct ipx_ent *x, hm_heat_access *acc)
{
	struct ip_ent *e;

	if (!(s->has & HM_HAS_IP))
		return;
	if (x) {
		acc->ip_bin = x->ip_bin;
		acc->ip_link = x->ip_link;
		return;
	}
	e = &run->ips[iph & (IP_SLOTS - 1)];
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
/* The heat row key of a sample at addr: its field when at names one. */
static void access_of(hm_heat_access *acc, const hm_attribution *at, uint64_t addr)
{
	if (at) {
		acc->sname = at->sname;
		acc->kind = at->kind;
		acc->ssize = at->ssize;
		acc->object = at->object;
		acc->obj_base = at->obj_base;
		acc->path = at->path;
		acc->foff = at->foff;
		acc->fsize = at->fsize;
		acc->strategy = hm_attr_bucket_name(at->bucket);
	}
	acc->addr = addr;
}

static int resolve_slow(hm_attr *a, const hm_sample *s, uint64_t addr, hm_heat *h,
			int has_data_src, int may_wait, struct fast_ent *e)
{
	hm_heat_access acc = { 0 };
	hm_attribution at;
	int r;

	a->answer_timed = 0;
	r = hm_attr_resolve(a, s, addr, &at);
	if (r < 0)
		return r;
	e->timed = a->answer_timed;
	if (may_wait && at.bucket == HM_UNATTR_NO_MAP)
		return 1;
	e->bucket = (uint8_t)at.bucket;
	e->row = NULL;
	e->mapped = has_data_src ? (uint8_t)hm_attr_mapped(a, s, addr) : 1;
	e->by_ip = 0;
	if (!r && (s->has & HM_HAS_IP) &&
	    (at.bucket == HM_UNATTR_NO_MAP || at.bucket == HM_UNATTR_STACK ||
	     at.bucket == HM_UNATTR_HEAP)) {
		e->by_ip = 1;
	} else if (r || (has_data_src && addr)) {
		access_of(&acc, r ? &at : NULL, addr);
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

static size_t ipx_hash(uint64_t addr, uint64_t ip, uint32_t pid)
{
	return fast_hash(addr ^ (ip * 0xc2b2ae3d27d4eb4full), pid);
}

static int ipx_init(struct ipx_tab *t, size_t slots)
{
	t->v = memo_alloc(slots, sizeof(*t->v));
	t->mask = slots - 1;
	t->n = 0;
	return t->v ? 0 : -ENOMEM;
}

/* The entry of (addr, ip, pid) whose ipx_hash() is hash: found (valid
 * set), or a free slot to fill. */
static struct ipx_ent *ipx_find(struct ipx_tab *t, size_t hash, uint64_t addr, uint64_t ip,
				uint32_t pid)
{
	size_t j;

	for (j = hash & t->mask; t->v[j].valid; j = (j + 1) & t->mask)
		if (t->v[j].addr == addr && t->v[j].ip == ip && t->v[j].pid == pid)
			return &t->v[j];
	return &t->v[j];
}

/* A free or matching entry for (addr, ip, pid) (hash: their ipx_hash();
 * hint: the entry run_batch() probed, or NULL), the table grown (or, at
 * FAST_MAX slots, emptied) first when it is half full. */
static struct ipx_ent *ipx_slot(struct ipx_tab *t, size_t hash, uint64_t addr, uint64_t ip,
				uint32_t pid, struct ipx_ent *hint)
{
	struct ipx_ent *x = hint && hint->valid && hint->addr == addr && hint->ip == ip &&
			    hint->pid == pid ? hint : ipx_find(t, hash, addr, ip, pid);
	struct ipx_tab n;
	size_t i;

	if (x->valid || !memo_full(t->n + 1, t->mask + 1))
		return x;
	if (t->mask + 1 >= FAST_MAX) {
		memset(t->v, 0, (t->mask + 1) * sizeof(*t->v));
		t->n = 0;
		t->epoch++;
		return ipx_find(t, hash, addr, ip, pid);
	}
	if (ipx_init(&n, 2 * (t->mask + 1)))
		return NULL;
	for (i = 0; i <= t->mask; i++)
		if (t->v[i].valid) {
			const struct ipx_ent *o = &t->v[i];

			*ipx_find(&n, ipx_hash(o->addr, o->ip, o->pid), o->addr, o->ip, o->pid) = *o;
			n.n++;
		}
	memo_free(t->v, t->mask + 1, sizeof(*t->v));
	n.epoch = t->epoch + 1;
	*t = n;
	return ipx_find(t, hash, addr, ip, pid);
}

/* Attribute a sample by its instruction (e: its address entry, by_ip). */
static int resolve_ip_slow(hm_attr *a, const hm_sample *s, uint64_t addr, hm_heat *h,
			   int has_data_src, int trap, const struct fast_ent *e,
			   struct ipx_ent *x)
{
	hm_heat_access acc = { 0 };
	hm_attribution at = { .bucket = (enum hm_attr_bucket)e->bucket };
	int r = attr_resolve_insn(a, s, addr, trap, &at);

	if (r < 0)
		return r;
	x->bucket = (uint8_t)at.bucket;
	x->row = NULL;
	if (r || (has_data_src && addr)) {
		access_of(&acc, r ? &at : NULL, addr);
		x->row = heat_row_of(h, &acc);
		if (!x->row)
			return -ENOMEM;
	}
	x->ip_bin = NULL;
	x->ip_link = 0;
	if (hm_attr_ip(a, s, &x->ip_bin, &x->ip_link))
		x->ip_bin = NULL, x->ip_link = 0;
	x->addr = addr;
	x->ip = s->ip;
	x->pid = s->pid;
	x->gen = a->gen;
	x->valid = 1;
	return 0;
}

/* The sample's event, or NULL. */
static const hm_perf_event *sample_event(const hm_perf_info *info, const hm_sample *s)
{
	return s->attr < info->nr_events ? &info->events[s->attr] : NULL;
}

/* The data address of a sample: its ADDR, or a breakpoint's address. */
static uint64_t sample_addr(const hm_perf_info *info, const hm_sample *s)
{
	const hm_perf_event *ev;

	if ((s->has & HM_HAS_ADDR) && s->addr)
		return s->addr;
	ev = sample_event(info, s);
	if (ev && ev->type == PERF_TYPE_BREAKPOINT)
		return ev->bp_addr;
	return 0;
}

/* s waits for the end of its round (struct pending). */
static int pend(struct run *run, const hm_sample *s)
{
	if (hm_grow((void **)&run->later.v, &run->later.cap, run->later.n + 1,
		    sizeof(*run->later.v)))
		return -ENOMEM;
	run->later.v[run->later.n++] = *s;
	return 0;
}

/* addr: sample_addr(); hint, xhint: the sample's memo and by-IP entries if
 * run_batch() found them, else NULL; iph: fast_hash(s->ip, s->pid); xh:
 * ipx_hash(addr, s->ip, s->pid). */
static int sample(hm_attr *a, const hm_perf_info *info, const hm_sample *s, uint64_t addr,
		  hm_heat *h, hm_report_stats *st, struct run *run, int may_wait,
		  struct fast_ent *hint, size_t iph, struct ipx_ent *xhint, size_t xh)
{
	/* perf record -d asks for DATA_SRC on any event; only samples whose
	 * data_src names a load or a store are memory samples, and only the
	 * others need their event (watchpoints). */
	int has_ds = (s->has & HM_HAS_DATA_SRC) &&
		     (s->data_src & (PERF_MEM_OP_LOAD | PERF_MEM_OP_STORE));
	const hm_perf_event *ev = has_ds ? NULL : sample_event(info, s);
	int is_bp = ev && ev->type == PERF_TYPE_BREAKPOINT;
	hm_heat_access acc;	/* heat_count() reads only what is set below */
	struct fast_ent *e;
	struct ipx_ent *x = NULL;
	struct heat_row *row;
	uint8_t bucket;
	int r;

	/* Allocator calls are not accesses: they go to the allocation table. */
	if (ev && !is_bp && attr_alloc_event(ev))
		return attr_alloc_sample(a, ev, s);
	if (ev && ev->tp && attr_kmem_event(ev))
		return attr_kmem_sample(a, info, ev, s);
	/* Registers whose IP is not mapped yet wait like an address. */
	if (!addr && may_wait && attr_regs_waits(a, s))
		return pend(run, s);
	/* Registers that gave no address: the reason's bucket. */
	if (!addr && s->regs_rule > HM_RW_AT_IP) {
		st->samples++;
		st->buckets[attr_regs_bucket(s->regs_rule)]++;
		return (s->has & HM_HAS_CPU) ? heat_cpu_sample(h, s->cpu) : 0;
	}

	e = hint && hint->valid && hint->addr == addr && hint->pid == s->pid
		    ? hint : fast_slot(&run->fast, addr, s->pid);
	if (!e->valid || e->gen != a->gen || e->timed) {
		int fresh = !e->valid;

		if (fresh && memo_full(run->fast.n + 1, run->fast.mask + 1)) {
			if (fast_grow(&run->fast))
				return -ENOMEM;
			e = fast_slot(&run->fast, addr, s->pid);
		}
		r = resolve_slow(a, s, addr, h, has_ds, may_wait, e);
		if (r < 0)
			return r;
		if (fresh && e->valid)
			run->fast.n++;
		if (r)
			return pend(run, s);
	}
	bucket = e->bucket;
	row = e->row;
	if (e->by_ip) {
		x = ipx_slot(&run->ipx, xh, addr, s->ip, s->pid, xhint);
		if (!x)
			return -ENOMEM;
		/* The instruction names the field only once its binary is
		 * mapped: an IP in no known mapping (its MMAP2 on another
		 * CPU's buffer, later in the file) waits like an address. */
		if ((!x->valid || x->gen != a->gen) && may_wait && !hm_attr_mapped(a, s, s->ip))
			return pend(run, s);
		if (!x->valid || x->gen != a->gen) {
			const hm_perf_event *sev = sample_event(info, s);
			int fresh = !x->valid;
			/* Which instruction the IP is (SPECS.md): breakpoints
			 * trap after the access, and so does PEBS with
			 * precise_ip 1; page faults, precise_ip >= 2, IBS and
			 * SPE give the access itself. */
			int trap = sev && (sev->type == PERF_TYPE_BREAKPOINT ||
					   (sev->precise_ip == 1 && sev->type != PERF_TYPE_SOFTWARE));

			/* An address from registers: the instruction the
			 * rule chose (attribute-regs.c). */
			if (s->regs_rule)
				trap = s->regs_rule == HM_RW_PREV;

			r = resolve_ip_slow(a, s, addr, h, has_ds, trap, e, x);
			if (r < 0)
				return r;
			run->ipx.n += fresh;
		}
		bucket = x->bucket;
		row = x->row;
	}
	st->samples++;
	st->buckets[bucket]++;
	if (has_ds)
		st->datasrc_samples++;
	else if (is_bp)
		st->watch_samples++;
	else
		st->addr_samples++;
	st->regs_samples += s->regs_rule != 0;
	if ((s->has & HM_HAS_CPU) && heat_cpu_sample(h, s->cpu))
		return -ENOMEM;
	if (!row)
		return 0;
	acc.addr = addr;
	acc.ip = s->ip;
	acc.ip_bin = NULL;
	acc.ip_link = 0;
	sample_ip(a, run, s, iph, x, &acc);
	acc.time = s->time;
	acc.data_src = s->data_src;
	acc.tid = s->tid;
	if (s->has & HM_HAS_CPU) {
		acc.cpu = s->cpu;
	} else {
		acc.cpu = s->tid;
		st->cpu_from_tid = 1;
	}
	/* The flags in one go (bit-fields: one store, not four). */
	acc.has_data_src = has_ds;
	acc.bp_w = is_bp && ev->bp_type == HW_BREAKPOINT_W;
	acc.bp_rw = is_bp && ev->bp_type != HW_BREAKPOINT_W;
	acc.mapped = e->mapped;
	acc.regs = s->regs_rule != 0;
	acc.regs_w = (s->regs_access & HM_ACC_WRITE) != 0;
	return heat_count(h, row, &acc);
}

/* Samples are counted in batches: memory latency, not arithmetic, bounds
 * the per-sample cost (one memo entry and one heat row per sample, spread
 * over tables larger than the CPU caches).  As the batch is read, each
 * sample's memo slot is prefetched; when it is full, every sample is probed
 * (the slots have arrived by then) and the heat row it names prefetched;
 * then the batch is counted in file order — the same order and result as
 * one at a time.  Nothing changes the memo between reading and counting a
 * batch. */
static void batch_probe(struct run *run, size_t i)
{
	const hm_sample *s = &run->smp[i];
	struct fast_ent *e = fast_find(&run->fast, run->hash[i], run->addr[i], s->pid);
	struct ipx_ent *x = NULL;
	struct heat_row *row = e->valid ? e->row : NULL;

	if (e->valid && e->by_ip) {
		x = ipx_find(&run->ipx, run->xh[i], run->addr[i], s->ip, s->pid);
		row = x->valid ? x->row : NULL;
	}
	run->hint[i] = e;
	run->xhint[i] = x;
	run->rhint[i] = row;
	if (row) {	/* likely the sample's row: only a hint */
		const char *p = (const char *)row;

		__builtin_prefetch(p);
		__builtin_prefetch(p + 64);
		__builtin_prefetch(p + 128);
		__builtin_prefetch(p + 192);
		__builtin_prefetch(&row->acts);
	}
}

/* The actor array of a probed row: once every row of the batch is asked
 * for, the first has arrived, the arrays they point to have not. */
static void batch_prefetch_actors(const struct run *run, size_t i)
{
	const struct heat_row *row = run->rhint[i];

	if (row && row->acts.v) {	/* an actor may straddle two lines */
		const struct heat_actor *x = &row->acts.v[row->acts.last];

		__builtin_prefetch(x);
		__builtin_prefetch((const char *)(x + 1) - 1);
	}
}

/* The sample just read into smp[nbatch] joins the batch. */
static void batch_add(struct run *run, const hm_perf_info *info)
{
	size_t i = run->nbatch++;
	const hm_sample *s = &run->smp[i];

	run->addr[i] = sample_addr(info, s);
	run->hash[i] = fast_hash(run->addr[i], s->pid);
	__builtin_prefetch(&run->fast.v[run->hash[i] & run->fast.mask]);
	run->iph[i] = fast_hash(s->ip, s->pid);
	__builtin_prefetch(&run->ips[run->iph[i] & (IP_SLOTS - 1)]);
	run->xh[i] = ipx_hash(run->addr[i], s->ip, s->pid);
	if (run->ipx.n)
		__builtin_prefetch(&run->ipx.v[run->xh[i] & run->ipx.mask]);
}

static int run_batch(hm_attr *a, const hm_perf_info *info, hm_heat *h, hm_report_stats *st,
		     struct run *run)
{
	size_t i, n = run->nbatch;
	uint32_t epoch = run->fast.epoch, xepoch = run->ipx.epoch;
	int err = 0;

	run->nbatch = 0;
	for (i = 0; i < n; i++)
		batch_probe(run, i);
	for (i = 0; i < n; i++)
		batch_prefetch_actors(run, i);
	/* A grown memo moved its entries: the probes are stale. */
	for (i = 0; i < n && !err; i++) {
		err = sample(a, info, &run->smp[i], run->addr[i], h, st, run, 1,
			     run->fast.epoch == epoch ? run->hint[i] : NULL, run->iph[i],
			     run->ipx.epoch == xepoch ? run->xhint[i] : NULL, run->xh[i]);
	}
	return err;
}

static int flush_pending(hm_attr *a, hm_perf_reader *r, hm_heat *h, hm_report_stats *st,
			 struct run *run)
{
	const hm_perf_info *info = hm_perf_reader_info(r);
	size_t i, n = run->later.n;
	int err = 0;

	run->later.n = 0;
	for (i = 0; i < n && !err; i++) {
		hm_sample *s = &run->later.v[i];
		uint64_t addr;

		if (!s->regs_rule && (s->nr_regs_user || s->nr_regs_intr) &&
		    (err = attr_regs_addr(a, info, s)))
			break;
		addr = sample_addr(info, s);

		err = sample(a, info, s, addr, h, st, run, 0, NULL, fast_hash(s->ip, s->pid),
			     NULL, ipx_hash(addr, s->ip, s->pid));
	}
	return err;
}

#define PERF_RECORD_FINISHED_ROUND_ 68

static inline int okey_before(const struct okey *x, const struct okey *y)
{
	return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

/* Merge sorted k[lo, mid) and k[mid, hi) into out[lo, hi). */
static void okey_merge(const struct okey *k, size_t lo, size_t mid, size_t hi, struct okey *out)
{
	size_t i = lo, j = mid, o = lo;

	while (i < mid && j < hi)
		out[o++] = okey_before(&k[j], &k[i]) ? k[j++] : k[i++];
	while (i < mid)
		out[o++] = k[i++];
	while (j < hi)
		out[o++] = k[j++];
}

/* Sort the keys: a natural merge sort, since they arrive as a few sorted
 * runs (one per CPU chunk, plus what waited from the last round). */
static void order_sort(struct order *q)
{
	size_t n = q->n, c;
	struct okey *t;

	if (n < 2)
		return;
	for (;;) {
		size_t lo = 0, runs = 0;

		while (lo < n) {
			size_t mid = lo + 1, hi;

			while (mid < n && !okey_before(&q->keys[mid], &q->keys[mid - 1]))
				mid++;
			hi = mid < n ? mid + 1 : n;
			while (hi < n && !okey_before(&q->keys[hi], &q->keys[hi - 1]))
				hi++;
			if (mid == n && !runs)
				return;	/* one run: sorted */
			okey_merge(q->keys, lo, mid, hi, q->tmp);
			runs++;
			lo = hi;
		}
		t = q->keys;
		c = q->keys_cap;
		q->keys = q->tmp;
		q->keys_cap = q->tmp_cap;
		q->tmp = t;
		q->tmp_cap = c;
	}
}

static int order_push(struct order *q, const hm_sample *s)
{
	size_t n = q->n;

	if (hm_grow((void **)&q->pool, &q->pool_cap, n + 1, sizeof(*q->pool)) ||
	    hm_grow((void **)&q->spare, &q->spare_cap, n + 1, sizeof(*q->spare)) ||
	    hm_grow((void **)&q->keys, &q->keys_cap, n + 1, sizeof(*q->keys)) ||
	    hm_grow((void **)&q->tmp, &q->tmp_cap, n + 1, sizeof(*q->tmp)))
		return -ENOMEM;
	q->pool[n] = *s;
	q->pool[n].callchain = NULL;	/* the reader's; sample() does not use it */
	q->pool[n].nr_callchain = 0;
	q->keys[n] = (struct okey){ s->time, q->seq++, n };
	q->n++;
	if (q->out_any && s->time < q->out_time)
		q->late++;
	if (s->time > q->max_time)
		q->max_time = s->time;
	return 0;
}

/* Count the first m samples of the sorted queue, keep the rest. */
static int order_emit(hm_attr *a, const hm_perf_info *info, hm_heat *h, hm_report_stats *st,
		      struct run *run, size_t m)
{
	struct order *q = &run->ord;
	hm_sample *t;
	size_t i, j, c;
	int err = 0;

	for (i = 0; i < m && !err; i++) {
		run->smp[run->nbatch] = q->pool[q->keys[i].idx];
		batch_add(run, info);
		if (run->nbatch == BATCH)
			err = run_batch(a, info, h, st, run);
	}
	if (!err)
		err = run_batch(a, info, h, st, run);
	if (err)
		return err;
	if (m) {
		q->out_time = q->keys[m - 1].time;
		q->out_any = 1;
	}
	for (i = m, j = 0; i < q->n; i++, j++) {
		q->spare[j] = q->pool[q->keys[i].idx];
		q->keys[j] = (struct okey){ q->keys[i].time, q->keys[i].seq, j };
	}
	q->n = j;
	t = q->pool;
	c = q->pool_cap;
	q->pool = q->spare;
	q->pool_cap = q->spare_cap;
	q->spare = t;
	q->spare_cap = c;
	return 0;
}

/* The queue's samples up to time `upto` leave, in time order. */
static int order_flush(hm_attr *a, const hm_perf_info *info, hm_heat *h, hm_report_stats *st,
		       struct run *run, uint64_t upto)
{
	struct order *q = &run->ord;
	size_t lo = 0, hi = q->n;

	order_sort(q);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (q->keys[mid].time <= upto)
			lo = mid + 1;
		else
			hi = mid;
	}
	return order_emit(a, info, h, st, run, lo);
}

static int order_sample(hm_attr *a, const hm_perf_info *info, hm_heat *h, hm_report_stats *st,
			struct run *run, const hm_sample *s)
{
	struct order *q = &run->ord;
	int err;

	/* s may point into run->smp, which order_emit() fills: push first. */
	err = order_push(q, s);
	if (err || q->n < (q->rounds ? ORDER_MAX : ORDER_WINDOW))
		return err;
	order_sort(q);
	return order_emit(a, info, h, st, run, q->n / 2);
}

static void order_free(struct order *q)
{
	free(q->pool);
	free(q->spare);
	free(q->keys);
	free(q->tmp);
}


/* A record that is not a sample: rounds release queued samples, the rest
 * take effect at once. */
static int run_record(hm_attr *a, hm_perf_reader *r, hm_heat *h, hm_report_stats *st,
		      struct run *run, const hm_perf_record *rec)
{
	const hm_perf_info *info = hm_perf_reader_info(r);
	int err;

	if (rec->kind == HM_PERF_LOST) {
		st->lost += rec->u.lost;
		return 0;
	}
	if (rec->type != PERF_RECORD_FINISHED_ROUND_)
		return hm_attr_record(a, rec);
	err = order_flush(a, info, h, st, run, run->ord.limit);
	if (!err && run->kmem)
		attr_kmem_prune(a, run->ord.limit);
	run->ord.limit = run->ord.max_time;
	run->ord.rounds = 1;
	return err ? err : flush_pending(a, r, h, st, run);
}

/* Only watchpoint accesses feed an order-dependent model (line transfers,
 * heat.h), and kernel addresses of a file with kmem events name the slab
 * object live at the sample's time, which needs every allocation and free
 * up to that time read first (attribute-kmem.c): a round later, by the
 * queue.  Other samples count the same in any order, so they skip the
 * queue and its copies. */
static int needs_order(const struct run *run, const hm_perf_info *info, const hm_sample *s)
{
	if (!(s->has & HM_HAS_TIME) || s->attr >= info->nr_events)
		return 0;
	if (info->events[s->attr].type == PERF_TYPE_BREAKPOINT)
		return 1;
	return run->kmem && sample_addr(info, s) >> 63;
}

/* Whether samples of the file may need the time queue: then they are read
 * one at a time, since the queue releases samples into smp[]. */
static int run_ordered(struct run *run, const hm_perf_info *info)
{
	size_t i;

	if (run->nr_events != info->nr_events) {
		run->nr_events = info->nr_events;
		run->ordered = run->kmem = 0;
		for (i = 0; i < info->nr_events; i++) {
			if (info->events[i].type == PERF_TYPE_BREAKPOINT)
				run->ordered = 1;
			if (attr_kmem_event(&info->events[i]))
				run->ordered = run->kmem = 1;
		}
	}
	return run->ordered;
}

/* A sample in smp[nbatch]: into the time queue, or into the batch. */
static int run_sample(hm_attr *a, const hm_perf_info *info, hm_heat *h, hm_report_stats *st,
		      struct run *run)
{
	const hm_sample *s = &run->smp[run->nbatch];
	const hm_perf_event *ev = s->attr < info->nr_events ? &info->events[s->attr] : NULL;

	/* An allocation's raw record and registers point into the reader,
	 * valid only until the next read: taken now, after the samples
	 * before it. */
	if (ev && (attr_kmem_event(ev) || attr_alloc_event(ev))) {
		hm_sample now = *s;
		int err = run_batch(a, info, h, st, run);

		if (err)
			return err;
		return attr_kmem_event(ev) ? attr_kmem_sample(a, info, ev, &now)
					   : attr_alloc_sample(a, ev, &now);
	}
	/* Registers and no data address: the address they give, now, while
	 * the registers are the reader's (attribute-regs.c). */
	if (s->nr_regs_user || s->nr_regs_intr) {
		int err = attr_regs_addr(a, info, &run->smp[run->nbatch]);

		if (err)
			return err;
	}
	if (needs_order(run, info, &run->smp[run->nbatch]))
		return order_sample(a, info, h, st, run, &run->smp[run->nbatch]);
	/* File order, counted in place (no copy). */
	batch_add(run, info);
	return run->nbatch == BATCH ? run_batch(a, info, h, st, run) : 0;
}

static int run_loop(hm_attr *a, hm_perf_reader *r, hm_heat *h, hm_report_stats *st,
		    struct run *run)
{
	const hm_perf_info *info = hm_perf_reader_info(r);
	hm_perf_record *rec = &run->rec;
	int rc, err, ordered;
	size_t k;

	for (;;) {
		ordered = run_ordered(run, info);
		k = hm_perf_reader_next_samples(r, &run->smp[run->nbatch],
						ordered ? 1 : BATCH - run->nbatch);
		st->records += k;
		if (k && ordered) {
			err = run_sample(a, info, h, st, run);
		} else if (k) {
			/* No sample of the file waits in the queue: the whole
			 * run joins the batch. */
			while (k--)
				batch_add(run, info);
			err = run->nbatch == BATCH ? run_batch(a, info, h, st, run) : 0;
		} else {
			rc = hm_perf_reader_next(r, rec);
			if (rc <= 0)
				return rc;
			st->records++;
			if (rec->kind == HM_PERF_SAMPLE) {
				run->smp[run->nbatch] = rec->u.sample;
				err = run_sample(a, info, h, st, run);
			} else {
				/* Untimed samples before the record are counted
				 * first. */
				err = run_batch(a, info, h, st, run);
				if (!err)
					err = run_record(a, r, h, st, run, rec);
			}
		}
		if (err)
			return err;
	}
}

int hm_attr_run(hm_attr *a, hm_perf_reader *r, hm_heat *h, hm_report_stats *st)
{
	struct run run = { .ips = calloc(IP_SLOTS, sizeof(*run.ips)) };
	int err = 0;

	memset(st, 0, sizeof(*st));
	if ((err = attr_kcore_check(a))) {
		free(run.ips);
		return err;
	}
	a->reader = r;
	if (fast_init(&run.fast, FAST_MIN) || ipx_init(&run.ipx, 256) || !run.ips)
		err = -ENOMEM;
	heat_watch_events(h, hm_perf_reader_info(r));
	/* After a read error the run fails: the samples still waiting are not
	 * counted, so no note about them follows the error line. */
	if (!err)
		err = run_loop(a, r, h, st, &run);
	if (!err)
		err = run_batch(a, hm_perf_reader_info(r), h, st, &run);
	if (!err)
		err = order_flush(a, hm_perf_reader_info(r), h, st, &run, UINT64_MAX);
	if (!err)
		err = flush_pending(a, r, h, st, &run);
	attr_prefetch_stop(a);
	if (!err && run.ord.late)
		hm_diag(HM_DIAG_DEBUG, "perf.data: %" PRIu64 " samples came after later ones "
			"were counted: their time order is not guaranteed", run.ord.late);
	order_free(&run.ord);
	free(run.later.v);
	if (run.fast.v)
		memo_free(run.fast.v, run.fast.mask + 1, sizeof(*run.fast.v));
	if (run.ipx.v)
		memo_free(run.ipx.v, run.ipx.mask + 1, sizeof(*run.ipx.v));
	free(run.ips);
	a->reader = NULL;	/* the caller closes it */
	heat_watch_events(h, NULL);
	if (!err)
		err = attr_lift_containers(a, h);
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

	if (src->load && (err = hm_attr_set_load_opts(a, src->load)))
		return err;
	for (i = 0; i < src->nr_binaries; i++)
		if ((err = hm_attr_add_binary(a, src->binaries[i])))
			return err;
	if (src->vmlinux && (err = hm_attr_set_vmlinux(a, src->vmlinux)))
		return err;
	if (strcmp(src->perf_data, "-") && (err = hm_attr_set_kcore(a, src->perf_data)) < 0)
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
		uint64_t att = 0;

		for (int b = 0; b < HM_NR_BUCKETS; b++)
			if (hm_attr_bucket_attributed(b))
				att += st.buckets[b];
		p = hm_heat_profile(h, src->perf_data, hm_report_kind(&st), st.samples, att);
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
