/* kcore: the copy of the running kernel's text that `perf record --kcore`
 * saves in the perf.data directory (DIR/kcore_dir/: kcore, kallsyms,
 * modules).  kcore is an ELF core file whose PT_LOAD segments hold memory
 * by run-time virtual address: the kernel's and the modules' text as it
 * was when the recording started, with every boot-time patch applied
 * (alternatives, jump labels, static calls ...).  kallsyms is the
 * /proc/kallsyms of that moment, "ADDR TYPE NAME [MODULE]" a line.
 *
 * Read with libelf over the mapped file; every segment is bounded by the
 * file's size when opened, so a lookup never reads past it.
 *
 * Ownership: hm_kcore_open() returns a copy freed with hm_kcore_free();
 * pointers it hands out live as long as it.
 */
#ifndef HM_ELF_KCORE_H
#define HM_ELF_KCORE_H
#include <stddef.h>
#include <stdint.h>
#include "hitmap/binary.h"

typedef struct hm_kcore hm_kcore;

/* Open the kcore copy in dir (a kcore_dir): 0 and *out; -ENOENT (an
 * error names the file) when dir has no kcore or kallsyms; -EBADMSG (an
 * error names the file and offset) when kcore is no ELF core file, a
 * segment lies past the file's end, or kallsyms has a bad line; -ENOMEM. */
int hm_kcore_open(const char *dir, hm_kcore **out);
/* The same from memory (fuzzing): core, size bytes, must outlive the
 * copy; kallsyms is copied; name stands for the directory in messages. */
int hm_kcore_open_mem(const void *core, size_t size, const char *kallsyms, size_t klen,
		      const char *name, hm_kcore **out);
void hm_kcore_free(hm_kcore *k);

/* kcore's path, for messages. */
const char *hm_kcore_path(const hm_kcore *k);

/* The bytes at run-time address vaddr: a pointer to them and in *n how
 * many follow inside the segment holding vaddr (at most max), or NULL when
 * no segment's file bytes hold vaddr. */
const uint8_t *hm_kcore_bytes(const hm_kcore *k, uint64_t vaddr, size_t max, size_t *n);

/* The run-time address kallsyms gives the kernel symbol name (not a
 * module's): 0 and *addr, or -ENOENT. */
int hm_kcore_symbol(const hm_kcore *k, const char *name, uint64_t *addr);

/* Whether the copy is of the kernel vmlinux describes: its _stext, and
 * every text symbol of the kernel image kallsyms names once and vmlinux
 * has, must lie at one offset from vmlinux's (KASLR moves the image as a
 * whole; another build moves its functions relative to each other).  0
 * and *kaslr (run-time minus link address), or -ESRCH with *agree and
 * *compared saying how many symbols were at that offset; -ENOENT when
 * either has no _stext. */
int hm_kcore_check(const hm_kcore *k, const hm_binary *vmlinux, uint64_t *kaslr, size_t *agree,
		   size_t *compared);

#endif
