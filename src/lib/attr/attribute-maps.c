/* Process mappings: processes and their mappings (MMAP/MMAP2/FORK/COMM),
 * the binaries mapped files are, the kernel map and KASLR, kernel modules. */
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
#include "elf/kcore.h"
#include "base/diag.h"
#include "elf/binary-lib.h"

struct proc *attr_proc(hm_attr *a, uint32_t pid, int create)
{
	size_t lo = 0, hi = a->maps.nprocs;

	if (a->maps.last_proc < a->maps.nprocs && a->maps.procs[a->maps.last_proc].pid == pid)
		return &a->maps.procs[a->maps.last_proc];
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (a->maps.procs[mid].pid == pid) {
			a->maps.last_proc = mid;
			return &a->maps.procs[mid];
		}
		if (a->maps.procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!create)
		return NULL;
	if (hm_grow((void **)&a->maps.procs, &a->maps.procs_cap, a->maps.nprocs + 1,
		    sizeof(*a->maps.procs)))
		return NULL;
	memmove(a->maps.procs + lo + 1, a->maps.procs + lo,
		(a->maps.nprocs - lo) * sizeof(*a->maps.procs));
	memset(&a->maps.procs[lo], 0, sizeof(a->maps.procs[lo]));
	a->maps.procs[lo].pid = pid;
	a->maps.nprocs++;
	a->maps.last_proc = lo;
	return &a->maps.procs[lo];
}

const struct image *proc_image_at(const struct proc *p, uint64_t addr, uint64_t t)
{
	const struct image *later = NULL;
	size_t i;

	/* Later mappings replace earlier ones: search from the end, for the
	 * latest loaded by time t; one loaded after t only when none was. */
	for (i = p->nimages; i-- > 0;) {
		const struct image *im = &p->images[i];

		if (addr < im->start || addr >= im->end)
			continue;
		if (im->time <= t)
			return im;
		if (!later)
			later = im;
	}
	return later;
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

	if (!a->opt.sysroot) {
		snprintf(buf, len, "%s", name);
		return;
	}
	for (p = name; (p = strstr(p, "..")); p += 2) {
		if ((p == name || p[-1] == '/') && (p[2] == 0 || p[2] == '/')) {
			buf[0] = 0;
			return;
		}
	}
	if ((size_t)snprintf(buf, len, "%s%s", a->opt.sysroot, name) >= len)
		buf[0] = 0;
}

/* The recording's build-id table (perf writes it after recording) gives
 * the build-id of files whose MMAP records carry none: what lets --binary
 * match a renamed or separate debug file. */
static void table_build_id(const hm_attr *a, const char *name, char *out)
{
	const hm_perf_build_id *ids;
	size_t n = a->maps.reader ? hm_perf_reader_build_ids(a->maps.reader, &ids) : 0;

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
	Elf *elf = hmi_binary_elf(bin);
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
	for (i = 0; i < a->bin.nbins; i++) {
		b = a->bin.bins[i];
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
static uint64_t mapping_bias(const struct binent *b, const struct pmap *m)
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

/* Whether a mapping of b's file is part of the load at bias: some segment
 * holding its file offset is at that runtime address.  RELRO's mprotect
 * maps the first page of the writable segment read-only, a page the
 * read-only segment before it may share in the file: by permissions alone
 * that page would give a bias a page off. */
static int same_load(const struct binent *b, uint64_t bias, const struct pmap *m)
{
	size_t i;

	for (i = 0; i < b->nloads; i++) {
		const struct seg *s = &b->loads[i];
		uint64_t off0 = s->offset & ~(uint64_t)0xfff;

		if (m->pgoff < off0 || m->pgoff >= s->offset + (s->filesz ? s->filesz : 1))
			continue;
		if (m->start - m->pgoff + off0 - (s->vaddr & ~(uint64_t)0xfff) == bias)
			return 1;
	}
	return 0;
}

static int add_image(struct proc *p, struct binent *b, uint64_t bias, const struct pmap *m)
{
	struct image *im;
	size_t i;

	/* A binary has one bias per load: the first mapping of it (the one
	 * at file offset 0, in time order) decides; later maps of the same
	 * load (its other segments, RELRO's mprotect) add nothing.  A map at
	 * file offset 0 that is no part of the latest load is a new load
	 * (dlclose, then dlopen elsewhere): a new image from its time. */
	for (i = p->nimages; i-- > 0;)
		if (p->images[i].bin == b)
			break;
	if (i != (size_t)-1 && (m->pgoff || same_load(b, p->images[i].bias, m)))
		return 0;
	if (hm_grow((void **)&p->images, &p->images_cap, p->nimages + 1, sizeof(*p->images)))
		return -ENOMEM;
	im = &p->images[p->nimages++];
	im->bin = b;
	im->bias = bias;
	im->start = b->lo + bias;
	im->end = b->hi + bias;
	im->time = i != (size_t)-1 ? m->time : 0;
	return 0;
}

static int add_anon(struct proc *p, const struct pmap *m, enum hm_attr_bucket bucket)
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

	a->kern.kernel_seen = 1;
	/* an offset only the kcore copy gave is checked against the map */
	if (!a->bin.vmlinux || (a->kern.kaslr_known && !a->kern.kaslr_from_kcore) || !ref ||
	    strncmp(m->filename, "[kernel.kallsyms]", 17))
		return 0;
	ref++;	/* "_text" or "_stext" after the bracket */
	sym = hm_binary_symbol(a->bin.vmlinux->bin, *ref ? ref : "_text");
	if (!sym)
		sym = hm_binary_symbol(a->bin.vmlinux->bin, "_stext");
	if (!sym) {
		hm_diag(HM_DIAG_WARNING, "%s: no _text/_stext symbol: cannot compute the KASLR offset",
			a->bin.vmlinux->path);
		return 0;
	}
	a->kern.kaslr = m->pgoff - sym->addr;
	a->kern.kaslr_known = 1;
	a->kern.kaslr_from_kcore = 0;
	if (a->kern.kcore_ok && a->kern.kaslr != a->kern.kcore_kaslr) {
		hm_diag(HM_DIAG_ERROR, "%s: its kallsyms puts the kernel 0x%" PRIx64 " from %s's "
			"addresses, the recording's kernel map 0x%" PRIx64 ": not this recording's kernel",
			hm_kcore_path(a->kern.kcore), a->kern.kcore_kaslr, a->bin.vmlinux->path,
			a->kern.kaslr);
		return -ESRCH;
	}
	return 0;
}

/* A kernel-mode map of a file: a module, its .ko (perf names it by path
 * when it finds the file; "[name]" otherwise, which names no file). */
static int kmod_mmap(hm_attr *a, const hm_perf_mmap *m)
{
	struct binent *b;

	a->kern.kernel_seen = 1;
	b = binary_for(a, m);
	if (!b)
		return -ENOMEM;
	if (b->status != BIN_OK || !b->bin || !hmi_binary_is_module(b->bin))
		return 0;
	if (hm_grow((void **)&a->kern.kmods, &a->kern.kmods_cap, a->kern.nkmods + 1,
		    sizeof(*a->kern.kmods)))
		return -ENOMEM;
	a->kern.kmods[a->kern.nkmods++] = (struct kmod){ b, m->start, m->start + m->len };
	return 0;
}

const struct kmod *attr_kmod_at(const hm_attr *a, uint64_t x)
{
	size_t i;

	for (i = a->kern.nkmods; i-- > 0;)	/* the latest map of a range wins */
		if (x - a->kern.kmods[i].start < a->kern.kmods[i].end - a->kern.kmods[i].start)
			return &a->kern.kmods[i];
	return NULL;
}

/* A user-space mapping into p's images or anonymous ranges. */
static int apply_map(struct proc *p, const struct pmap *m)
{
	struct binent *b = m->bin;

	if (!b)
		return add_anon(p, m, m->bucket);
	if (!b->nloads) {
		/* Missing or mismatched: the range alone, so its samples land in
		 * that binary's bucket. */
		if (hm_grow((void **)&p->images, &p->images_cap, p->nimages + 1,
			    sizeof(*p->images)))
			return -ENOMEM;
		p->images[p->nimages++] =
			(struct image){ b, 0, m->start, m->start + m->len, m->time };
		return 0;
	}
	return add_image(p, b, mapping_bias(b, m), m);
}

static int mmap_record(hm_attr *a, const hm_perf_mmap *m)
{
	const char *f = m->filename ? m->filename : "";
	struct pmap x;
	struct proc *p;
	size_t i;
	int err;

	if (m->cpumode == PERF_RECORD_MISC_KERNEL || !strncmp(f, "[kernel.kallsyms]", 17))
		return f[0] == '/' ? kmod_mmap(a, m) : kernel_mmap(a, m);
	x = (struct pmap){ m->time, m->start, m->len, m->pgoff, m->prot, NULL, HM_UNATTR_HEAP };
	if (!strncmp(f, "[stack", 6)) {
		x.bucket = HM_UNATTR_STACK;
	} else if (f[0] == '/' && f[1] != '/') {	/* not [heap], //anon, [vdso] ... */
		x.bin = binary_for(a, m);
		if (!x.bin)
			return -ENOMEM;
	}
	p = attr_proc(a, m->pid, 1);
	if (!p)
		return -ENOMEM;
	if (hm_grow((void **)&p->maps, &p->maps_cap, p->nmaps + 1, sizeof(*p->maps)))
		return -ENOMEM;
	/* In time order: a file's map that comes after later ones (another
	 * CPU's ring buffer) goes before them, and the process's mappings
	 * are made again from its fork in that order (which map of a file
	 * is its load's first decides the load's bias).  Anonymous maps
	 * decide no bias: applied as they come. */
	for (i = p->nmaps; i > 0 && p->maps[i - 1].time > x.time && x.bin; i--)
		;
	memmove(p->maps + i + 1, p->maps + i, (p->nmaps - i) * sizeof(*p->maps));
	p->maps[i] = x;
	p->nmaps++;
	if (i == p->nmaps - 1)
		return apply_map(p, &p->maps[i]);
	p->nimages = p->nforked;
	p->nanon = 0;
	for (i = 0; i < p->nmaps; i++)
		if ((err = apply_map(p, &p->maps[i])))
			return err;
	return 0;
}

/* A parent's image into its child, loaded from the start, once per load. */
static int add_forked(struct proc *p, const struct image *im)
{
	size_t i;

	for (i = 0; i < p->nimages; i++)
		if (p->images[i].bin == im->bin && p->images[i].bias == im->bias)
			return 0;
	if (hm_grow((void **)&p->images, &p->images_cap, p->nimages + 1, sizeof(*p->images)))
		return -ENOMEM;
	p->images[p->nimages] = *im;
	p->images[p->nimages++].time = 0;
	return 0;
}

static int fork_record(hm_attr *a, const hm_perf_task *t)
{
	struct proc *parent, *child;
	size_t i;
	int err;

	if (t->pid == t->ppid)
		return 0;	/* a new thread shares its process's maps */
	parent = attr_proc(a, t->ppid, 0);
	if (!parent || !parent->nimages)
		return 0;
	child = attr_proc(a, t->pid, 1);
	parent = attr_proc(a, t->ppid, 0);	/* the array may have moved */
	if (!child || !parent)
		return -ENOMEM;
	/* the parent's images first, then the child's own maps (read before
	 * its FORK record, from another CPU's buffer) over them */
	child->nimages = child->nanon = 0;
	for (i = 0; i < parent->nimages; i++) {
		const struct image *im = &parent->images[i];

		if (im->bin->nloads && add_forked(child, im))
			return -ENOMEM;
	}
	child->nforked = child->nimages;
	for (i = 0; i < child->nmaps; i++)
		if ((err = apply_map(child, &child->maps[i])))
			return err;
	return 0;
}

/* exec replaces a process's mappings: those made before it.  Another CPU's
 * ring buffer may hold the exec's COMM after maps the new program made
 * (perf writes each buffer in turn), so maps later than the exec stay and
 * the process's mappings are made again from them. */
static int comm_record(hm_attr *a, const hm_perf_comm *c)
{
	struct proc *p = c->exec ? attr_proc(a, c->pid, 0) : NULL;
	size_t i, n = 0;
	int err;

	if (!p)
		return 0;
	for (i = 0; c->time && i < p->nmaps; i++)
		if (p->maps[i].time > c->time)
			p->maps[n++] = p->maps[i];
	p->nimages = p->nanon = p->nforked = 0;
	p->nmaps = n;
	for (i = 0; i < p->nmaps; i++)
		if ((err = apply_map(p, &p->maps[i])))
			return err;
	return 0;
}

int hmi_attr_record(hm_attr *a, const hm_perf_record *rec)
{
	if (rec->kind == HM_PERF_MMAP || rec->kind == HM_PERF_FORK || rec->kind == HM_PERF_COMM)
		a->maps.gen++;
	if (rec->kind == HM_PERF_COMM)
		return comm_record(a, &rec->u.comm);
	if (rec->kind == HM_PERF_MMAP)
		return mmap_record(a, &rec->u.mmap);
	if (rec->kind == HM_PERF_FORK)
		return fork_record(a, &rec->u.task);
	if (rec->kind == HM_PERF_TEXT_POKE)
		return attr_text_poke(a, &rec->u.poke);
	return 0;
}

int hmi_attr_mapped(hm_attr *a, const hm_sample *s, uint64_t addr)
{
	struct proc *p;

	if (attr_is_kernel_addr(addr))
		return a->kern.kernel_seen;
	p = attr_proc(a, s->pid, 0);
	return p && (proc_image_at(p, addr, UINT64_MAX) ||
		     proc_anon_bucket(p, addr) != HM_UNATTR_NO_MAP);
}

int hmi_attr_ip(hm_attr *a, const hm_sample *s, const void **bin, uint64_t *link)
{
	const struct kmod *k;
	const struct image *im;
	struct proc *p;

	if (attr_is_kernel_addr(s->ip) && (k = attr_kmod_at(a, s->ip))) {
		*bin = k->b;
		*link = s->ip - k->start;
		return 0;
	}
	if (attr_is_kernel_addr(s->ip)) {
		if (!a->bin.vmlinux)
			return -ENOENT;
		*bin = a->bin.vmlinux;
		*link = s->ip - a->kern.kaslr;
		return 0;
	}
	p = attr_proc(a, s->pid, 0);
	im = p ? proc_image_at(p, s->ip, s->has & HM_HAS_TIME ? s->time : UINT64_MAX) : NULL;
	if (!im || im->bin->status != BIN_OK)
		return -ENOENT;
	*bin = im->bin;
	*link = s->ip - im->bias;
	return 0;
}
