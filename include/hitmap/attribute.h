/* attribute: sample address → object → field, and the report built on it.
 *
 * Strategies, tried in this order for each sample's data address:
 *  1. explicit objects (`--object TYPE@ADDR`): the address falls inside one;
 *  2. global objects: the address falls inside a binary mapped by the process
 *     (MMAP/MMAP2 records give the load bias of PIE executables and shared
 *     objects) or inside the kernel image (KASLR offset from the perf.data
 *     kernel map against the vmlinux's _text/_stext); the ELF object symbol
 *     there names a DWARF variable, whose type gives the field path;
 *  3. kernel slab objects (the recording's kmem tracepoints): a kernel
 *     address outside the image, in an object live at the sample's time,
 *     typed by its cache's name (see hm_attr_set_cache_type()).
 * Every sample lands in exactly one bucket (enum hm_attr_bucket).
 *
 * A binary named by an MMAP record is used when it exists as a regular file;
 * when the record (or --binary) carries a build-id that differs from the
 * file's, the file is not used: a warning, and its samples go to the
 * build-id-mismatch bucket (never misattributed).
 *
 * Ownership: hm_attr_new() returns a context freed with hm_attr_free(); it owns
 * the binaries and type tables it opens.  Strings in an hm_attribution are
 * owned by the context and valid until it is freed.
 */
#ifndef HITMAP_ATTRIBUTE_H
#define HITMAP_ATTRIBUTE_H
#include <stddef.h>
#include "hitmap/hitmap.h"
#include <stdint.h>
#include <stdio.h>
#include "hitmap/heat.h"
#include "hitmap/perfdata.h"
#include "hitmap/types.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hm_attr_bucket {
	HM_ATTR_GLOBAL = 0,		/* attributed: a global variable */
	HM_ATTR_OBJECT,			/* attributed: an explicit --object */
	HM_UNATTR_NO_ADDR,		/* the sample has no data address */
	HM_UNATTR_NO_MAP,		/* the address is in no known mapping */
	HM_UNATTR_NO_BINARY,		/* mapped file missing or unreadable */
	HM_UNATTR_BUILD_ID,		/* file's build-id differs from the recorded one */
	HM_UNATTR_NO_SYMBOL,		/* in a binary, but no object symbol there */
	HM_UNATTR_NO_TYPE,		/* symbol without DWARF variable / type */
	HM_UNATTR_STACK,		/* a thread's stack */
	HM_UNATTR_HEAP,			/* heap or anonymous memory: object unknown */
	HM_UNATTR_KERNEL_NO_VMLINUX,	/* kernel address and no --vmlinux */
	/* Attribution by instruction, for samples the address path leaves in
	 * no-map, stack or heap-unknown (listed last: the older values keep
	 * their numbers): */
	HM_ATTR_INSN,			/* attributed: the sampled instruction's typed pointer */
	HM_UNATTR_NO_INSN,		/* no instruction bytes at the IP (or none before it) */
	HM_UNATTR_NO_MEMOP,		/* no memory operand tracking can follow */
	HM_UNATTR_NO_VAR,		/* no variable in scope holds the base register */
	HM_UNATTR_UNTYPED,		/* the variable is no pointer to a named record */
	HM_UNATTR_OFFSET,		/* the operand's offset is outside the record */
	HM_UNATTR_AMBIGUOUS,		/* the record's name has several definitions */
	HM_ATTR_TLS,			/* attributed: a %fs-relative access to a __thread variable */
	HM_ATTR_PERCPU,			/* attributed: a %gs-relative access to a per-cpu variable */
	HM_UNATTR_INDEX,		/* an index that is no whole number of elements */
	HM_UNATTR_PATCHED,		/* a kernel patch site (alternative, paravirt, static
					 * call, jump label, retpoline, return thunk): the
					 * file's bytes there are not the bytes that ran */
	HM_ATTR_KMEM,			/* attributed: a kernel object live at the sample's
					 * time (kmem tracepoints), typed by its cache */
	HM_UNATTR_KMEM_UNTYPED,		/* in a live kernel object whose cache names no type
					 * that fits it (kmalloc, or no evidence) */
	HM_UNATTR_WIDE,			/* an access wider than its field, at an address that
					 * may lie inside it (a page fault on its second
					 * page): which field is not known */
	/* A timer sample's registers gave no data address (the rule is in
	 * hitmap(1), SAMPLED REGISTERS; no-insn and no-mem-operand above
	 * serve it too): */
	HM_UNATTR_REGS_CLOBBERED,	/* the previous instruction wrote its own base or
					 * index, the one at the IP touches no memory */
	HM_UNATTR_SEG_BASE,		/* a %fs/%gs operand: no segment base is sampled */
	HM_UNATTR_BRANCH_TARGET,	/* the IP is a branch target (or follows a jump,
					 * call or ret) and touches no memory itself */
	HM_UNATTR_IRQ_DEFERRED,		/* a kernel sample deferred to an irq-enable point */
	HM_UNATTR_REGS_MISSING,		/* a register the operand uses was not sampled */
	HM_NR_BUCKETS
};

/* 1 for the buckets whose samples are named: a global, an object, by the
 * instruction (its typed pointer, TLS, per-cpu), a kernel slab object typed
 * by its cache; 0 for the unattributed ones.  The one list of them: report's
 * "attributed" sum, its JSON's attributed_buckets and saved profiles. */
int hm_attr_bucket_attributed(enum hm_attr_bucket b);

typedef struct hm_attr hm_attr;

hm_attr *hm_attr_new(void);
void hm_attr_free(hm_attr *a);

/* How the types of the binaries are loaded (hm_types_load()): the cache
 * fields of opts (cache, cache_write, cache_dir, copied) and where stripped
 * binaries' debug info is looked for (debuginfo, copied — the strings it
 * points to must outlive a — and no_debuginfo_lookup) apply to every binary
 * whose types are loaded afterwards; `only` and `btf` are not used
 * (attribution needs every struct and variable).  Without this call no
 * cache is used.  0, -EINVAL (bad opts.sz) or -ENOMEM. */
int hm_attr_set_load_opts(hm_attr *a, const struct hm_load_opts *opts);

/* --binary: use this file for mappings of the same build-id (or, when the
 * recording has none, the same file name).  0 or negative errno. */
int hm_attr_add_binary(hm_attr *a, const char *path);
/* --vmlinux: the kernel image with DWARF. */
int hm_attr_set_vmlinux(hm_attr *a, const char *path);
/* The kcore copy `perf record --kcore` saved beside the recording: when
 * perf_data is a perf.data directory holding kcore_dir/, kernel
 * instructions are decoded from the bytes that ran there, patch sites
 * included, instead of the vmlinux's; the vmlinux still gives the types and
 * variables.  hm_attr_run() refuses (-ESRCH, an error says why) a copy
 * whose kernel is not the vmlinux's.  1 when a copy was read, 0 when
 * perf_data is no directory or has no kcore_dir; -ENOENT (kcore_dir
 * without kcore or kallsyms), -EBADMSG (a bad or cut kcore), -ENOMEM: an
 * error names the file. */
int hm_attr_set_kcore(hm_attr *a, const char *perf_data);
/* --sysroot: binaries named by MMAP records are looked up under DIR (a
 * recording from another machine, or a perf.data nobody vouches for); names
 * with a ".." component are then never opened.  Copied.  0 or -ENOMEM. */
int hm_attr_set_sysroot(hm_attr *a, const char *dir);
/* --object "TYPE@ADDR" (TYPE may start with "struct ").  -EINVAL for bad
 * syntax, -ENOENT when no loaded binary defines TYPE (the diagnostic suggests
 * close names).  Loads the types of the --binary / --vmlinux files. */
int hm_attr_add_object(hm_attr *a, const char *spec);

/* Kernel allocations (the kmem tracepoints a recording holds: `hitmap
 * record --kmem`, `perf kmem record`, `perf record -e kmem:kmalloc ...`):
 * kmem_cache_alloc and kmalloc start an object (ptr, bytes_alloc,
 * call_site, the cache's name), kmem_cache_free and kfree of its ptr end
 * it; the fields are read by the formats of the file's TRACING_DATA.  A
 * kernel data address outside the kernel image, in an object live at the
 * sample's time, is named by the object's type when its cache names one:
 * a hm_attr_set_cache_type() for the cache, else a struct spelled as the
 * cache (task_struct, mm_struct), else Linux's own name for a few caches
 * (filp: file, sock_inode_cache: socket_alloc, cred_jar: cred, TCP:
 * tcp_sock, ... — hitmap-report(1) lists them); the struct must fit
 * bytes_req (a --type-of-cache: bytes_alloc).  Bucket HM_ATTR_KMEM, object
 * "TYPE@0xBASE"; without a type HM_UNATTR_KMEM_UNTYPED.  The kernel's
 * types are the --vmlinux's, else those of hm_attr_set_kernel_btf(). */
/* A raw BTF file (/sys/kernel/btf/vmlinux) as the kernel's types when
 * there is no vmlinux with DWARF.  0 or negative errno. */
int hm_attr_set_kernel_btf(hm_attr *a, const char *path);
/* "CACHE=TYPE" (TYPE may start with "struct "): objects of cache CACHE
 * are TYPE.  After the kernel's types are set (hm_attr_set_vmlinux() or
 * hm_attr_set_kernel_btf()).  -EINVAL bad syntax, -ENOENT no such struct,
 * -ENODATA no kernel types. */
int hm_attr_set_cache_type(hm_attr *a, const char *spec);
/* The machine a recording was made on, as its header names it
 * (hm_perf_info.arch: "x86_64", "ppc64le", "s390x"; NULL: not known): its
 * cacheline size is attribution's when no binary added decides it.  Set
 * before the heat is made with hm_attr_line_size(). */
void hm_attr_set_recording_arch(hm_attr *a, const char *arch);
/* The cacheline size the lines of attribution's heat have: that of the
 * first binary added's machine, else the recording's machine's
 * (hm_attr_set_recording_arch()), else 64; never the host's. */
unsigned hm_attr_line_size(const hm_attr *a);
/* ---- the report: a whole perf.data through attribution into heat ---- */

typedef struct hm_report_stats {
	uint64_t records, samples, lost;
	uint64_t buckets[HM_NR_BUCKETS];
	uint64_t datasrc_samples, watch_samples, addr_samples;
	uint64_t regs_samples;		/* of addr_samples: addresses from sampled registers */
	unsigned cpu_from_tid : 1;	/* samples had no CPU: threads stand in */
	unsigned assumed_writes : 1;	/* rw watchpoints alone: accesses taken as writes */
	/* NULL, or the cut of a truncated input (set by the caller, from
	 * hm_perf_info): the JSON report's "truncated" object */
	const hm_profile_truncation *truncated;
} hm_report_stats;

/* Read every record of r, attribute every sample, count into h, then finish h.
 * 0, or a negative errno (a malformed file: the reader's diagnostic).  h
 * names fields with a's strings from then on: free h before a. */
int hm_attr_run(hm_attr *a, hm_perf_reader *r, hm_heat *h, hm_report_stats *st);

/* `report --explain`: print to out how the instruction at `where` (a link
 * address in hex, or FUNC+OFF) of the first --binary (else the vmlinux)
 * resolves by instruction, under both readings of a sample IP (the access
 * itself; the instruction after it).  0, -EINVAL (no binary, bad syntax),
 * -ENOENT (no such symbol), -EIO. */
int hm_attr_explain(FILE *out, hm_attr *a, const char *where);

/* A sample whose data address was asked of its registers (hitmap(1),
 * SAMPLED REGISTERS): which instruction the rule chose and the address it
 * computed, or the reason it gave none. */
typedef struct hm_regs_note {
	uint64_t time, ip;
	uint32_t cpu, tid;
	const char *rule;	/* "previous", "at-ip", or the bucket's name */
	uint64_t pc;		/* the instruction chosen, a link address; 0: none */
	uint64_t addr;		/* the computed data address; 0: none */
} hm_regs_note;
typedef void (*hm_regs_note_fn)(void *ctx, const hm_regs_note *n);
/* Call fn for every such sample, in the order they are read (NULL: none). */
void hm_attr_set_regs_notes(hm_attr *a, hm_regs_note_fn fn, void *ctx);

/* "hitm", "watch", "regs" (addresses from sampled registers) or "addr":
 * what the samples could tell. */
const char *hm_report_kind(const hm_report_stats *st);

struct hm_report_opts {
	size_t sz;			/* sizeof(struct hm_report_opts): declare with HM_OPTS */
	enum hm_heat_metric metric;	/* -d; watch data ranks by transfers */
	unsigned top;			/* lines shown, 0 = 10 */
	const char *input;		/* file name for the header */
};

/* The text report (80 columns) / the JSON report ("schema": "hitmap/1"). */
int hm_report_print(FILE *out, hm_attr *a, const hm_heat *h, const hm_report_stats *st,
		    const struct hm_report_opts *o);
int hm_report_print_json(FILE *out, hm_attr *a, const hm_heat *h, const hm_report_stats *st,
			 const struct hm_report_opts *o);
/* The report as one self-contained HTML page (see hm_layouts_print_html() in
 * output.h): the ranked lines first, each drawn on its bytes with its
 * fields coloured by heat, their code locations and counts, the buckets
 * of unattributed samples; then the layouts of the structs on those lines
 * that the binaries describe.  The report JSON is in the page as it is. */
int hm_report_print_html(FILE *out, hm_attr *a, const hm_heat *h, const hm_report_stats *st,
		   const struct hm_report_opts *o);

/* Everything above in one call, for commands that want a profile straight
 * from a perf.data (`hitmap layout --heat`, `suggest`, `check`): the same
 * attribution options as `hitmap report`.  0 or a negative errno (the
 * diagnostic names the file); *out set only on success, freed with
 * hm_profile_free(). */
struct hm_profile_source {
	const char *perf_data;		/* "-" = standard input */
	const char *const *binaries;	/* --binary, nr_binaries of them */
	size_t nr_binaries;
	const char *vmlinux;		/* or NULL */
	const char *const *objects;	/* --object TYPE@ADDR, nr_objects of them */
	size_t nr_objects;
	const struct hm_load_opts *load;	/* as hm_attr_set_load_opts(); NULL = no cache */
};
int hm_profile_from_perf(const struct hm_profile_source *src, hm_profile **out);

#ifdef __cplusplus
}
#endif
#endif
