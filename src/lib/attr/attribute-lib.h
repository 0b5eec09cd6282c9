/* Internal to libhitmap, shared between its folders: what the printers ask
 * of an attribution beyond hitmap/attribute.h (attr/). */
#ifndef HM_ATTRIBUTE_LIB_H
#define HM_ATTRIBUTE_LIB_H
#include <stddef.h>
#include <stdint.h>
#include "hitmap/attribute.h"

/* "global", "object", "no-addr", "no-map", "no-binary", "build-id-mismatch",
 * "no-symbol", "no-type", "stack", "heap-unknown", "kernel-without-vmlinux",
 * "instruction", "no-insn", "no-mem-operand", "no-variable",
 * "untyped-pointer", "offset-outside-type", "ambiguous-type", "tls",
 * "per-cpu", "unknown-index", "patched-text", "kmem-cache", "kmem-untyped",
 * "wide-access", "regs-clobbered", "segment-base-unknown", "branch-target",
 * "irq-deferred", "regs-missing". */
const char *hmi_attr_bucket_name(enum hm_attr_bucket b);

/* "function+0xoff (file:line)" for a code location found by hmi_attr_ip, or
 * "0xIP" when nothing is known.  Returns the length like snprintf. */
int hmi_attr_code_label(hm_attr *a, const void *bin, uint64_t link, uint64_t ip, char *buf,
			size_t len);

/* The heap allocation containing an address, from the allocator events of
 * the recording (`hitmap record --alloc`) that hm_attr_run() read. */
typedef struct hm_alloc_info {
	uint64_t base, size;	/* the block the allocator returned */
	uint64_t site;		/* runtime address of the call that allocated it */
	const void *site_bin;	/* for hmi_attr_code_label(): NULL if unmapped */
	uint64_t site_link;
	const char *function;	/* "malloc", "calloc", "realloc", "aligned_alloc" */
	uint32_t pid;
	unsigned nr;		/* allocations seen that contained the address */
	/* they did not all come from one site with one size (a freed block
	 * reused): base, size and site are the oldest one's, not evidence */
	unsigned ambiguous : 1;
	/* A kernel object (kmem tracepoints): the newest one recorded at the
	 * address; function "kmem_cache_alloc" or "kmalloc", the cache's name
	 * (NULL for kmalloc), pid (uint32_t)-1, site the call_site. */
	const char *cache;
} hm_alloc_info;
/* 0 and *out filled, or -ENOENT (no allocation seen contains addr). */
int hmi_attr_alloc_at(hm_attr *a, uint64_t addr, hm_alloc_info *out);

/* The type table holding struct `name` among those attribution loaded: the
 * first binary's that has it, in the order they were added, the kernel's
 * last; its id in *id.  NULL when none has it (or none was loaded). */
const hm_types *hmi_attr_types_with(const hm_attr *a, const char *name, hm_type_id *id);

#endif
