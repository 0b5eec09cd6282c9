/* Allocation tracking: uprobes on libc's allocator, described as the
 * uprobe PMU takes them (its type from sysfs, config1 = the file, config2 =
 * the file offset of the function, config bit 0 = return probe), so they are
 * ordinary perf events that land in the same rings, are written as samples
 * with their attrs and names, and that `perf script` reads.  record.c opens
 * them through tracefs when it can (record-tracefs.c says why) and declares
 * them in the file in this form, which names file and offset where a
 * tracefs id would name a probe that no longer exists. */
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
#include "elf/capstone-lib.h"

#define DEVICES "/sys/bus/event_source/devices"

/* The functions probed: which take a size, which return a pointer. */
static const struct {
	const char *name;
	int ret;		/* also a return probe (the pointer in %rax) */
	int store;		/* the pointer is stored through the first argument */
} probes[] = {
	{ "malloc", 1, 0 }, { "calloc", 1, 0 }, { "realloc", 1, 0 }, { "aligned_alloc", 1, 0 },
	{ "posix_memalign", 1, 1 }, { "free", 0, 0 },
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
static int symbol_offset(Elf *e, const char *name, uint64_t *off, uint64_t *size)
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
				*size = s.st_size;
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

/* perf_regs.h's index of the 64-bit register that capstone's register r
 * is part of (eax, ax, al: AX), or -1. */
static int reg_family(const struct hmi_capstone_lib *cs, csh h, unsigned r)
{
	static const char *const fam[8][3] = {
		{ "ax", "al", "ah" }, { "bx", "bl", "bh" }, { "cx", "cl", "ch" },
		{ "dx", "dl", "dh" }, { "si", "sil", NULL }, { "di", "dil", NULL },
		{ "bp", "bpl", NULL }, { "sp", "spl", NULL },
	};
	const char *n = r ? cs->reg_name(h, r) : NULL;
	int i, j;

	if (!n)
		return -1;
	if (n[0] == 'r' && n[1] >= '0' && n[1] <= '9') {
		i = atoi(n + 1);
		return i >= 8 && i <= 15 ? 16 + i - 8 : -1;
	}
	if ((n[0] == 'r' || n[0] == 'e') && strlen(n) == 3)
		n++;
	for (i = 0; i < 8; i++)
		for (j = 0; j < 3; j++)
			if (fam[i][j] && strcmp(n, fam[i][j]) == 0)
				return i;
	return -1;
}

/* posix_memalign returns its block through memory, where no return probe
 * sees it: find the instruction that stores it, `mov %REG, (%BASE)` with
 * BASE still holding the first argument (followed from %rdi through
 * register copies), so that a probe there samples REG.  *at is the store's
 * offset in the function's bytes `code` (link address `addr`). */
static int find_store(const unsigned char *code, size_t size, uint64_t addr,
		      uint64_t *at, int *reg)
{
	/* Caller-saved: what a call may leave anything in. */
	const uint32_t clobber = (1u << 0) | (1u << 2) | (1u << 3) | (1u << 4) | (1u << 5) |
				 (0xfu << 16);
	uint32_t arg = 1u << 5;		/* the registers holding memptr */
	cs_insn *insn = NULL;
	size_t n, i;
	const struct hmi_capstone_lib *cs = hmi_capstone_open(NULL);
	csh h;
	int rc = -ENOENT;

	if (!cs || cs->open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
		return -EINVAL;
	cs->option(h, CS_OPT_DETAIL, CS_OPT_ON);
	n = cs->disasm(h, code, size, addr, 0, &insn);
	for (i = 0; i < n && rc; i++) {
		const cs_x86 *x = &insn[i].detail->x86;
		cs_regs rd, wr;
		uint8_t nrd, nwr, k;

		if (insn[i].id == X86_INS_MOV && x->op_count == 2 && x->operands[1].type == X86_OP_REG &&
		    x->operands[1].size == 8) {
			const cs_x86_op *d = &x->operands[0];
			int src = reg_family(cs, h, x->operands[1].reg);

			if (d->type == X86_OP_MEM && d->size == 8 && src >= 0 &&
			    reg_family(cs, h, d->mem.base) >= 0 &&
			    (arg >> reg_family(cs, h, d->mem.base) & 1) &&
			    d->mem.index == X86_REG_INVALID && d->mem.disp == 0 &&
			    d->mem.segment == X86_REG_INVALID) {
				*at = insn[i].address - addr;
				*reg = src;
				rc = 0;
				break;
			}
			if (d->type == X86_OP_REG && d->size == 8 && reg_family(cs, h, d->reg) >= 0) {
				int dst = reg_family(cs, h, d->reg);

				if (src >= 0 && (arg >> src & 1))
					arg |= 1u << dst;
				else
					arg &= ~(1u << dst);
				continue;
			}
		}
		if (insn[i].id == X86_INS_CALL)
			arg &= ~clobber;
		if (cs->regs_access(h, &insn[i], rd, &nrd, wr, &nwr) == CS_ERR_OK)
			for (k = 0; k < nwr; k++)
				if (reg_family(cs, h, wr[k]) >= 0)
					arg &= ~(1u << reg_family(cs, h, wr[k]));
	}
	if (n)
		cs->free(insn, n);
	cs->close(&h);
	return rc;
}

/* kind: 0 entry, 1 return, 2 the store of posix_memalign, sampling register
 * `reg` alone. */
static void add_probe(hm_record_plan *plan, const hm_record_event *like, int type,
		      const char *libc, uint64_t off, int kind, int bit, const char *name, int reg)
{
	hm_record_event *ev = &plan->ev[plan->nr++];
	struct perf_event_attr *a = &ev->attr;

	memset(ev, 0, sizeof(*ev));
	ev->leader = -1;
	a->size = sizeof(*a);
	a->type = (uint32_t)type;
	a->config = kind == 1 ? 1ull << bit : 0;
	a->config1 = (uint64_t)(uintptr_t)libc;
	a->config2 = off;
	a->sample_period = 1;
	/* The same leading fields as the other events, so that ID sits where
	 * it does in theirs (perf and the recorder find it by position); not
	 * the interrupted registers a timer event may sample: these run in user
	 * space. */
	a->sample_type = (like->attr.sample_type & ~(uint64_t)PERF_SAMPLE_REGS_INTR) |
			 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER;
	a->sample_regs_user = kind == 2 ? 1ull << reg : HM_ALLOC_REGS;
	a->sample_id_all = 1;
	a->exclude_callchain_kernel = 1;
	a->disabled = 1;
	snprintf(ev->name, sizeof(ev->name), "%s:%s%s", HM_ALLOC_GROUP, name,
		 kind == 1 ? "__return" : kind == 2 ? "__store" : "");
}

int hm_record_plan_alloc(const char *libc, hm_record_plan *plan, char *path, size_t len,
			 int *no_store)
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
		need += 1 + (size_t)probes[i].ret + (size_t)probes[i].store;
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
	*no_store = 0;
	for (i = 0; !rc && i < sizeof(probes) / sizeof(probes[0]); i++) {
		uint64_t off, size = 0, at = 0;
		const hm_record_event like = plan->ev[0];
		int reg = -1;

		if (symbol_offset(e, probes[i].name, &off, &size)) {
			rc = hm_fail(ENOENT, "alloc: %s: no function %s", path, probes[i].name);
			break;
		}
		if (probes[i].store) {
			unsigned char code[1024];
			ssize_t got;

			if (size > sizeof(code))
				size = sizeof(code);
			got = pread(fd, code, (size_t)size, (off_t)off);
			if (got <= 0 || find_store(code, (size_t)got, off, &at, &reg)) {
				*no_store = 1;	/* without it the block is never known */
				continue;
			}
		}
		add_probe(plan, &like, type, path, off, 0, bit, probes[i].name, 0);
		if (probes[i].store)
			add_probe(plan, &like, type, path, off + at, 2, bit, probes[i].name, reg);
		if (probes[i].ret)
			add_probe(plan, &like, type, path, off, 1, bit, probes[i].name, 0);
	}
	elf_end(e);
	close(fd);
	return rc;
}
