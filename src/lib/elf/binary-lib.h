/* Internal to libhitmap, shared between its folders: what the loaders and
 * recorders read of a binary beyond hitmap/binary.h (elf/binary.c). */
#ifndef HM_BINARY_LIB_H
#define HM_BINARY_LIB_H
#include <stddef.h>
#include <stdint.h>
#include <libelf.h>
#include "hitmap/binary.h"

/* The file's name as it was opened (or the name hm_binary_open_mem() was
 * given), for messages and for the files found beside it. */
const char *hmi_binary_path(const hm_binary *bin);
/* 1 when the file is big-endian (ELFDATA2MSB), else 0. */
int hmi_binary_big_endian(const hm_binary *bin);

/* Section contents by name, mapped read-only; NULL if absent or SHT_NOBITS.
 * Valid until hm_binary_close(). */
const void *hmi_binary_section(const hm_binary *bin, const char *name, size_t *size);

/* The section's link address: sh_addr; in a Linux kernel module (a .ko), the
 * offset the kernel's module loader gives it from the module's base (its
 * first code section), which symbols, instruction bytes and relocated DWARF
 * use too; sections the loader keeps out of the module's core (.init*,
 * .modinfo, per-CPU) get addresses beyond any module. */
uint64_t hmi_binary_section_addr(const hm_binary *bin, size_t idx);
/* Whether bin is a Linux kernel module (ET_REL with .gnu.linkonce.this_module). */
int hmi_binary_is_module(const hm_binary *bin);

/* The libelf handle, for the readers that walk the file with libelf (dwarf,
 * btf, insn, attr's segments). */
Elf *hmi_binary_elf(const hm_binary *bin);

/* The cacheline size of a machine named as uname -m, a perf.data header
 * (hm_perf_info.arch) or hm_binary_arch() name it ("x86_64", "ppc64le",
 * "s390x"): 128 on POWER, 256 on s390, 64 on the others and when the
 * machine is not known (NULL).  The one place hitmap decides a default
 * line size: everything that has no size from its caller asks here, with
 * the machine of the binary or recording it reads, never the host's. */
unsigned hmi_arch_cacheline_size(const char *arch);

unsigned hmi_binary_machine(const hm_binary *bin);	/* EM_X86_64, EM_AARCH64, ... */
unsigned hmi_binary_elf_type(const hm_binary *bin);	/* ET_EXEC, ET_DYN, ET_REL */
int hmi_binary_is_64bit(const hm_binary *bin);

/* Raw bytes of the build-id note; returns its length (0 if none). */
size_t hmi_binary_build_id_raw(const hm_binary *bin, const unsigned char **id);

/* Sections by index (1 .. count-1), for loaders that walk them all: the
 * contents (inflated when SHF_COMPRESSED; NULL for NOBITS or out-of-file
 * sections) and the name.  Valid until hm_binary_close(). */
size_t hmi_binary_section_count(const hm_binary *bin);
const void *hmi_binary_section_at(const hm_binary *bin, size_t idx, size_t *size);
const char *hmi_binary_section_name(const hm_binary *bin, size_t idx);
/* What hmi_binary_section_at() and hmi_binary_section() would answer, from
 * the section headers alone, without inflating a compressed section (its
 * header gives the size): the size (0 also when there are no contents), and
 * whether there are contents (NULL or not; the first section of that name),
 * with the size in *size (may be NULL).  For the questions "has it DWARF?"
 * and "how big is it?", which should not cost the inflation of sections
 * nobody reads. */
size_t hmi_binary_section_size_at(const hm_binary *bin, size_t idx);
int hmi_binary_has_section(const hm_binary *bin, const char *name, size_t *size);
/* Whether the section's bytes lie inside the file (a truncated file may have
 * section headers pointing past its end). */
int hmi_binary_section_in_file(const hm_binary *bin, size_t idx);

/* Hand the pages of bin's file in [p, p + n) (p NULL: all of the file) back
 * to the kernel's page cache: what is read again later comes back from
 * there.  For a reader done with part of a large file (a vmlinux's 155 MB
 * of .debug_info, read once into a type table, or one unit's DIEs), so that
 * the process's resident memory is what it still uses.  Nothing for bytes
 * that are not the file's mapping: a binary opened in memory
 * (hm_binary_open_mem()), a section decompressed or relocated on the heap. */
void hmi_binary_drop_pages(const hm_binary *bin, const void *p, size_t n);

/* Load bias helpers: the lowest PT_LOAD vaddr and its file offset, so a runtime
 * mapping (start, pgoff) can be turned into a bias. */
int hmi_binary_first_load(const hm_binary *bin, uint64_t *vaddr, uint64_t *offset);

#endif
