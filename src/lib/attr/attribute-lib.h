/* Internal to libhitmap, shared between its folders: what the printers ask
 * of an attribution beyond hitmap/attribute.h (attr/), so that output/
 * needs none of attr's private parts. */
#ifndef HM_ATTRIBUTE_LIB_H
#define HM_ATTRIBUTE_LIB_H
#include <stddef.h>
#include <stdint.h>
#include "hitmap/attribute.h"
#include "hitmap/types.h"
#include "insn/insn.h"

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
	/* the variable at the call site whose pointer type typed it (a
	 * kernel object whose cache's name gives no type), or NULL */
	const char *site_var;
} hm_alloc_info;
/* 0 and *out filled, or -ENOENT (no allocation seen contains addr). */
int hmi_attr_alloc_at(hm_attr *a, uint64_t addr, hm_alloc_info *out);

/* The type table holding struct `name` among those attribution loaded: the
 * first binary's that has it, in the order they were added, the kernel's
 * last; its id in *id.  NULL when none has it (or none was loaded). */
const hm_types *hmi_attr_types_with(const hm_attr *a, const char *name, hm_type_id *id);

/* ---- one code address explained (attribute-explain.c) ---- */

/* How one (binary, IP, rule) resolves by instruction (attribute-insn.c):
 * attribution's memo, which hm_attr_explain() prints as it is. */
struct insn_res {
	const struct binent *bin;
	uint64_t pc;		/* the sample's link IP */
	uint8_t trap;		/* the sample IP is after the access (breakpoint) */
	unsigned decoded : 1;	/* insn is valid */
	unsigned stack : 1;	/* a struct variable in the frame, named object */
	unsigned named : 1;	/* object names every instance: stack, tls:, per-cpu: */
	unsigned indexed : 1;	/* p[i]: off is modulo the element, i unknown */
	unsigned site : 1;	/* in a patch site: redone when pokes change */
	unsigned poked : 1;	/* insn decoded from a TEXT_POKE's bytes */
	unsigned from_kcore : 1;	/* insn decoded from the kcore copy's bytes */
	unsigned answered : 1;	/* from an earlier run's answers: only what a
				 * sample's attribution reads (not insn, track) */
	uint32_t poke_gen;	/* hm_attr.poke_gen when resolved */
	uint8_t kind;		/* enum hm_profile_kind of sname */
	enum hm_attr_bucket bucket;	/* HM_ATTR_INSN, _TLS, _PERCPU or why not */
	uint64_t access_pc;	/* the instruction that made the access */
	struct hm_insn insn;
	struct hm_tval track;	/* what the base register was built from */
	const char *var, *func;	/* the variable and its function */
	const char *object;	/* stack: "function:variable"; "tls:st", "per-cpu:runqueues" */
	int var_kind, var_reg;	/* its location (enum hm_vloc_kind) */
	int64_t var_off;
	uint64_t var_pc;	/* where it held the pointer */
	const char *sname;	/* its pointee record */
	hm_type_id type;
	uint64_t ssize;
	int64_t off;		/* the access's offset in the record (the variable) */
	uint64_t seg_off;	/* tls, per-cpu: the variable's offset in its block */
	const char *path;	/* the field there */
	uint64_t foff, fsize;
	/* elem: sname is the element of the member array outer.outer_path
	 * (outer_foff, outer_fsize) an index steps through */
	unsigned elem : 1;
	const char *outer, *outer_path;
	hm_type_id outer_type;
	uint64_t outer_size, outer_foff, outer_fsize;
};

/* The binary hm_attr_explain() explains (the first --binary that opened,
 * else the kernel's, its kcore copy checked) into *bin, for the functions
 * below, and the link address `where` names there ("0x401000", "401000",
 * "FUNC+0xOFF", "FUNC") into *pc.  0, -EINVAL (no binary, a bad `where`),
 * -ENOENT (no such symbol) or -ESRCH (a kcore copy of another kernel), with
 * an error that says why. */
int hmi_attr_explain_site(hm_attr *a, const char *where, const void **bin, uint64_t *pc);
/* The binary's path, as the recording or the caller named it. */
const char *hmi_attr_bin_path(const void *bin);
/* Whether it is the kernel's or a module's (kernel rules for registers). */
int hmi_attr_bin_kernel(const hm_attr *a, const void *bin);
/* Its instruction decoder (opened once), NULL when there is none. */
hm_insn_ctx *hmi_attr_bin_insn(const void *bin);
/* The resolution of (bin, link pc, trap), NULL when out of memory. */
const struct insn_res *hmi_attr_insn_at(hm_attr *a, const void *bin, uint64_t pc, int trap);
/* The attribution's answers kept across runs (attribute-answers.c): the
 * payload of a BUILD-ID.attr file read as a run reads it, then saved again
 * into *out (out_len bytes, the caller frees).  The number of answers
 * read, -EBADMSG when the payload is no answers, -ENOMEM, or -EPROTO when
 * an answer read is not found by its key (a bug). */
int hmi_attr_answers_check(const void *payload, size_t len, void **out, size_t *out_len);
/* The name of the bucket of a reason (enum hm_regs_why) the sampled
 * registers gave no address. */
const char *hmi_attr_regs_bucket_name(int why);

#endif
