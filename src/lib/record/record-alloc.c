/* Allocation tracking: uprobes on libc's allocator, opened through the
 * uprobe PMU (its type from sysfs, config1 = the file, config2 = the file
 * offset of the function, config bit 0 = return probe), so they are ordinary
 * perf events that land in the same rings, are written as samples with their
 * attrs and names, and that `perf script` reads. */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <libelf.h>
#include "hitmap/record.h"
#include "base/diag.h"
#include "record-int.h"

#define DEVICES "/sys/bus/event_source/devices"

/* The functions probed: which take a size, which return a pointer. */
static const struct {
	const char *name;
	int ret;		/* also a return probe (the pointer in %rax) */
} probes[] = {
	{ "malloc", 1 }, { "calloc", 1 }, { "realloc", 1 }, { "aligned_alloc", 1 },
	{ "free", 0 },
};

static int read_int(const char *path, int *out)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%d", out) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

/* The bit of config that makes a return probe ("config:0" in format/retprobe). */
static int retprobe_bit(int *bit)
{
	FILE *f = fopen(DEVICES "/uprobe/format/retprobe", "r");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "config:%d", bit) == 1 && *bit >= 0 && *bit < 64;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

static int find_libc(struct dl_phdr_info *info, size_t size, void *ctx)
{
	char *out = ctx;
	const char *base;

	(void)size;
	base = strrchr(info->dlpi_name, '/');
	if (base && strncmp(base + 1, "libc.so", 7) == 0) {
		snprintf(out, PATH_MAX, "%s", info->dlpi_name);
		return 1;
	}
	return 0;
}

/* File offset of the function `name` in the ELF file `fd` (what config2 of a
 * uprobe is): its symbol's address in the PT_LOAD segment holding it. */
static int symbol_offset(Elf *e, const char *name, uint64_t *off)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	uint64_t addr = 0;
	size_t i, n;
	int found = 0;

	while (!found && (scn = elf_nextscn(e, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_DYNSYM && sh.sh_type != SHT_SYMTAB))
			continue;
		if (!(d = elf_getdata(scn, NULL)) || !sh.sh_entsize)
			continue;
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *nm;

			if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    !s.st_value)
				continue;
			nm = elf_strptr(e, sh.sh_link, s.st_name);
			if (nm && strcmp(nm, name) == 0) {
				addr = s.st_value;
				found = 1;
				break;
			}
		}
	}
	if (!found || elf_getphdrnum(e, &n))
		return -ENOENT;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_filesz) {
			*off = addr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

static void add_probe(hm_record_plan *plan, const hm_record_event *like, int type,
		      const char *libc, uint64_t off, int ret, int bit, const char *name)
{
	hm_record_event *ev = &plan->ev[plan->nr++];
	struct perf_event_attr *a = &ev->attr;

	memset(ev, 0, sizeof(*ev));
	ev->leader = -1;
	a->size = sizeof(*a);
	a->type = (uint32_t)type;
	a->config = ret ? 1ull << bit : 0;
	a->config1 = (uint64_t)(uintptr_t)libc;
	a->config2 = off;
	a->sample_period = 1;
	/* The same leading fields as the other events, so that ID sits where
	 * it does in theirs (perf and the recorder find it by position). */
	a->sample_type = like->attr.sample_type | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER;
	a->sample_regs_user = HM_ALLOC_REGS;
	a->sample_id_all = 1;
	a->exclude_callchain_kernel = 1;
	a->disabled = 1;
	snprintf(ev->name, sizeof(ev->name), "%s:%s%s", HM_ALLOC_GROUP, name,
		 ret ? "__return" : "");
}

int hm_record_plan_alloc(const char *libc, hm_record_plan *plan, char *path, size_t len)
{
	char found[PATH_MAX] = "";
	int type, bit, fd, rc = 0;
	size_t i, need = 0;
	Elf *e;

	if (!plan->nr)
		return hm_fail(EINVAL, "alloc: needs another event to record");
	if (read_int(DEVICES "/uprobe/type", &type) || retprobe_bit(&bit))
		return hm_fail(ENODEV, "alloc: this kernel has no uprobe PMU (%s/uprobe)", DEVICES);
	if (!libc) {
		dl_iterate_phdr(find_libc, found);
		if (!*found)
			return hm_fail(ENOENT, "alloc: no libc.so mapped to take the allocator from");
		libc = found;
	}
	if (!realpath(libc, path) || strlen(path) >= len)
		return hm_fail(ENOENT, "alloc: %s: %s", libc, strerror(errno ? errno : ENAMETOOLONG));
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		need += 1 + (size_t)probes[i].ret;
	if (plan->nr + need > HM_RECORD_MAX_EVENTS)
		return hm_fail(E2BIG, "alloc: %zu more events than the %d a recording holds",
			       plan->nr + need - HM_RECORD_MAX_EVENTS, HM_RECORD_MAX_EVENTS);
	if (elf_version(EV_CURRENT) == EV_NONE)
		return hm_fail(EINVAL, "libelf: %s", elf_errmsg(-1));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return hm_fail(errno, "alloc: %s: %s", path, strerror(errno));
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e) {
		close(fd);
		return hm_fail(EINVAL, "alloc: %s: %s", path, elf_errmsg(-1));
	}
	for (i = 0; !rc && i < sizeof(probes) / sizeof(probes[0]); i++) {
		uint64_t off;
		const hm_record_event like = plan->ev[0];

		if (symbol_offset(e, probes[i].name, &off)) {
			rc = hm_fail(ENOENT, "alloc: %s: no function %s", path, probes[i].name);
			break;
		}
		add_probe(plan, &like, type, path, off, 0, bit, probes[i].name);
		if (probes[i].ret)
			add_probe(plan, &like, type, path, off, 1, bit, probes[i].name);
	}
	elf_end(e);
	close(fd);
	return rc;
}
