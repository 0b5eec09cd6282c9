/* Internal: the attribution context, shared by the files of attr/.
 *
 * attribute.c is the driver: it makes an hm_attr and frees everything its
 * parts made.  The parts below it call only parts further down, never the
 * driver: attribute-profile.c (a profile from a perf.data) runs
 * attribute-run.c (the sample run, its batch and memo tables; the time
 * queue of attribute-order.c; a timer sample's address from its registers,
 * attribute-regs.c), which asks attribute-resolve.c (the address
 * path: explicit objects, globals, kmem) and the strategies by instruction
 * (attribute-insn.c: which bytes ran, attribute-text.c, then the operand
 * typed; attribute-seg.c: TLS and per-cpu), allocations (attribute-alloc.c)
 * and kmem (attribute-kmem.c); all of them stand on the process mappings
 * (attribute-maps.c), the binaries (attribute-binent.c) and their answers
 * kept across runs (attribute-answers.c), field paths
 * (attribute-describe.c), records by name (attribute-records.c) and code
 * locations (lines.c). */
#ifndef HM_ATTRIBUTE_INT_H
#define HM_ATTRIBUTE_INT_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "hitmap/attribute.h"
#include "attr/attribute-lib.h"
#include "elf/debuginfo-lib.h"
#include "hitmap/binary.h"
#include "hitmap/types.h"
#include "base/util.h"
#include "insn/insn.h"

typedef struct hm_attribution {
	enum hm_attr_bucket bucket;
	/* The rest only for the attributed buckets (HM_ATTR_*): */
	const char *sname;		/* profile key (see heat.h) */
	enum hm_profile_kind kind;
	uint64_t ssize;
	const char *object;		/* "g_stats", "slots[2]", "mm_struct@0xffff..." */
	uint64_t obj_base;		/* runtime address of the object */
	const char *path;		/* "mmap_lock.count", "[3]", "" */
	uint64_t foff, fsize;		/* the field within the object */
} hm_attribution;

/* Feed a non-sample record (MMAP, FORK, ...).  0 or -ENOMEM. */
int hmi_attr_record(hm_attr *a, const hm_perf_record *rec);
/* Attribute data address `addr` of sample s.  Always fills out->bucket;
 * returns 1 when attributed, 0 when not, -ENOMEM. */
int hmi_attr_resolve(hm_attr *a, const hm_sample *s, uint64_t addr, hm_attribution *out);
/* Whether perf would find a map for addr in s's process (c2c's nomap). */
int hmi_attr_mapped(hm_attr *a, const hm_sample *s, uint64_t addr);
/* The binary and link-time address of a runtime IP; 0 if found, -ENOENT. */
int hmi_attr_ip(hm_attr *a, const hm_sample *s, const void **bin, uint64_t *link);

#define ATTR_CACHE 32768	/* direct-mapped (binary, link address) → attribution */

enum { BIN_OK = 0, BIN_MISSING, BIN_MISMATCH };

struct seg {
	uint64_t vaddr, memsz, offset, filesz;
	uint32_t flags;		/* PF_X, PF_W, PF_R */
};

struct var_ref {
	uint64_t addr, size;
	const hm_variable *var;
};

struct lines_table;
struct hm_scopes;
struct hm_patch_sites;
struct hm_kcore;

struct binent {
	char *path;		/* as named by the recording or the user */
	hm_binary *bin;		/* NULL unless status is BIN_OK */
	/* Where types and code locations come from when bin is stripped: a
	 * debug file found for it (owned) or a --binary debug file of the
	 * same build-id (borrowed from that entry); NULL: bin itself. */
	hm_binary *dbg;
	int dbg_err;		/* no debug file found (attr_binent_debug()) */
	int status;
	unsigned user : 1, warned_types : 1, own_dbg : 1, dbg_known : 1;
	/* whether the DWARF file (attr_binent_dwarf()) has .debug_info,
	 * asked once its types loaded (dbg is settled then): every sample
	 * named by its instruction needs the answer */
	unsigned dwarf_known : 1, has_dwarf : 1;
	struct seg *loads;
	size_t nloads;
	uint64_t lo, hi;	/* link-time extent of the PT_LOAD segments */
	hm_types *types;
	int types_err;
	struct var_ref *vars;	/* by address */
	size_t nvars;
	struct lines_table *lines;
	int lines_err;
	const struct hm_load_opts *load;	/* the owner's: how to load the types */
	hm_insn_ctx *insn;	/* attribution by instruction: decoder, once */
	int insn_err;
	struct hm_scopes *scopes;	/* and the variables in scope */
	int scopes_err;
	/* the scopes' answers are kept in answers_dir (load/scopecache.c)
	 * when it is set; the vmlinux's too, whose index a second thread
	 * builds ahead where the answers do not hold (attribute-prefetch.c) */
	char *answers_dir;
	struct rec_name *recs;	/* named records, sorted (attribute-records.c) */
	size_t nrecs;
	struct hm_patch_sites *patch;	/* a kernel's patch sites, once */
	int patch_err;
	/* its questions' answers kept across runs (attribute-answers.c);
	 * load_said: loading a part of it said something, which a run
	 * answered from them would not say again: none are used or kept;
	 * answered: one was used (the types a run without them loads are
	 * loaded when asked for, hmi_attr_types_with()) */
	struct attr_answers *ans;
	unsigned ans_tried : 1, load_said : 1, answered : 1;
};

/* The module mapping holding kernel address x, or NULL. */
const struct kmod *attr_kmod_at(const hm_attr *a, uint64_t x);

/* The records of b's types named `name`: how many, and the first (by id)
 * in *first (attribute-records.c; b->types loaded). */
size_t attr_records_named(struct binent *b, const char *name, hm_type_id *first);
void attr_records_free(struct binent *b);

struct image {
	struct binent *bin;
	uint64_t bias;		/* runtime − link address */
	uint64_t start, end;	/* runtime extent */
	uint64_t time;		/* of the mapping that loaded it (0: always) */
};

/* A user-space mapping as recorded, kept so that a record that arrives
 * after later ones (another CPU's buffer) is applied in its time order. */
struct pmap {
	uint64_t time, start, len, pgoff;
	uint32_t prot;
	struct binent *bin;	/* NULL: anonymous (bucket) */
	enum hm_attr_bucket bucket;
};

struct anon {
	uint64_t start, end;
	enum hm_attr_bucket bucket;	/* STACK or HEAP */
};

struct proc {
	uint32_t pid;
	struct image *images;
	size_t nimages, images_cap;
	size_t nforked;		/* the first images, the parent's at FORK */
	struct anon *anon;
	size_t nanon, anon_cap;
	struct pmap *maps;	/* since the exec or fork, by time */
	size_t nmaps, maps_cap;
};

struct xobject {
	struct binent *bin;
	hm_type_id type;
	uint64_t addr, size;
	const char *name;
};

struct cached {			/* an attribution, relative to the binary */
	const struct binent *bin;
	enum hm_attr_bucket bucket;	/* HM_NR_BUCKETS: out of memory */
	const char *sname, *object, *path;
	enum hm_profile_kind kind;
	uint64_t ssize, obj_base, foff, fsize;
};

/* The cache maps (binary, link address) to an interned attribution record:
 * slots stay small (24 bytes) so a large cache fits the CPU caches. */
struct cache_slot {
	const struct binent *bin;
	uint64_t link;
	const struct cached *rec;
};

/* A kernel module's mapping: [start, end) holds its core, link address 0
 * at start (hmi_binary_section_addr). */
struct kmod {
	struct binent *b;
	uint64_t start, end;
};

/* The attribution, its state grouped by the part that owns it. */
/* A slot of the instruction memo: its key beside the answer (in
 * rec_arena), so that a probe reads the table alone. */
struct ires_slot {
	uint64_t pc;
	const struct binent *bin;
	uint8_t trap;
	struct insn_res *r;	/* NULL: free */
};

struct hm_attr {
	struct {			/* options (attribute.c) */
		unsigned line_size;	/* the first binary's machine's, or 0 */
		unsigned rec_line_size;	/* the recording's machine's, or 0 */
		char *sysroot;		/* NULL: MMAP names as they are */
		struct hm_load_opts load;	/* variables, plus hm_attr_set_load_opts() */
		struct hm_debuginfo_opts dio;	/* load.debuginfo points here when set */
		char *cache_dir;	/* load.cache_dir, owned */
		hm_regs_note_fn regs_note;	/* hm_attr_set_regs_notes() */
		void *regs_note_ctx;
	} opt;
	struct {			/* the binaries (attribute-binent.c) */
		struct binent **bins;
		size_t nbins, bins_cap;
		struct binent *vmlinux;
	} bin;
	struct {			/* processes and their mappings (attribute-maps.c) */
		hm_perf_reader *reader;	/* during hm_attr_run(): its build-id table */
		uint32_t gen;		/* bumped by every record that changes mappings */
		struct proc *procs;	/* sorted by pid */
		size_t nprocs, procs_cap;
		size_t last_proc;
		struct proc kernel;
	} maps;
	struct {			/* the kernel: modules, KASLR, the text that ran */
		struct kmod *kmods;	/* from the recording's kernel-mode file maps */
		size_t nkmods, kmods_cap;
		uint64_t kaslr;
		unsigned kaslr_known : 1, warned_kaslr : 1, kernel_seen : 1;
		unsigned kaddr_resolved : 1;	/* a kernel address was resolved since
						 * the last kmem event (attribute-kmem.c) */
		struct poke *pokes;	/* the kernel's TEXT_POKE records, in file order */
		size_t npokes, pokes_cap;
		uint32_t poke_gen;	/* bumped by each: patch-site answers are redone */
		struct hm_kcore *kcore;	/* perf record --kcore's copy, or NULL */
		uint64_t kcore_kaslr;	/* its run-time minus link address */
		unsigned kcore_ok : 1;	/* checked against the vmlinux */
		unsigned kaslr_from_kcore : 1;	/* kaslr is the copy's: no kernel map yet */
	} kern;
	struct {			/* answers kept (attribute-resolve.c, -insn.c) */
		struct cache_slot *cache;
		const struct cached **recs;	/* open addressing, nrecs_slots */
		size_t nrecs, nrecs_slots;
		hm_arena rec_arena;
		hm_strtab strs;
		unsigned answer_timed : 1;	/* the last hmi_attr_resolve() looked up
						 * a kmem object by the sample's time:
						 * its answer is not memoised by address */
		struct ires_slot *ires;	/* open addressing, ires_slots */
		size_t nires, ires_slots;
	} memo;
	struct {			/* the strategies' own state */
		struct xobject *objects;	/* explicit objects (attribute-objects.c) */
		size_t nobjects, objects_cap;
		uint32_t *insts;		/* instances by (struct, base): the
						 * index + 1 of each slot's
						 * (attribute-objects.c) */
		uint8_t *inst_tags;		/* each slot's tag, 0: free */
		size_t ninsts, inst_slots;
		struct attr_inst **inst_blk;	/* the instances, ninsts of them,
						 * in blocks (never moved) */
		size_t inst_nblk;
		const struct attr_inst *inst_last;	/* the one named last */
		struct attr_allocs *allocs;	/* attribute-alloc.c; NULL until one is seen */
		struct attr_kmem *kmem;		/* attribute-kmem.c; NULL until needed */
		struct attr_prefetch *prefetch;	/* attribute-prefetch.c, during a run */
		struct attr_regs_tp *regs_tp;	/* attribute-regs.c; NULL until needed */
		unsigned prefetch_tried : 1;
		unsigned lines_failed : 1;	/* lines.c */
	} strat;
};

/* attribute-prefetch.c: the thread that builds the vmlinux's scopes ahead
 * of the run (hm_scopes_prefetch()), reading the recording again.  Started
 * once b's scopes are open (if it can be, before its types are loaded:
 * attr_prefetch_early()), when b is the vmlinux, the recording is a file
 * and more than one thread may work; stopped (joined) when the run ends. */
struct attr_prefetch {
	pthread_t thread;
	char *path;
	struct hm_scopes *scopes;
	uint64_t kaslr, kernel_lo;
	atomic_int stop;
};
void attr_prefetch_start(hm_attr *a, struct binent *b);
/* The same for the vmlinux b before its types are loaded, opening its
 * scopes first when that can be done quietly. */
void attr_prefetch_early(hm_attr *a, struct binent *b);
void attr_prefetch_stop(hm_attr *a);

/* attribute-objects.c: the name ("sname@0xBASE", interned) of the instance
 * of record id of b's types (sname, interned) at base, noted when new (NULL on
 * ENOMEM); rename the rows of instances embedded in another (before
 * hm_heat_finish()); free the notes.  0 or -ENOMEM. */
struct hm_heat;
struct attr_inst;
const char *attr_inst_name(hm_attr *a, const char *sname, struct binent *b, hm_type_id id,
			   uint64_t base, uint64_t size);
/* "sname@0xBASE" into buf (size bytes), as snprintf("%s@0x%" PRIx64)
 * writes it: its length. */
size_t attr_inst_format(char *buf, size_t size, const char *sname, uint64_t base);
int attr_lift_containers(hm_attr *a, struct hm_heat *h);
void attr_insts_free(hm_attr *a);

/* attribute-alloc.c: whether ev is an allocator event of `hitmap record
 * --alloc`; take one of its samples (0 or -ENOMEM); free the table. */
int attr_alloc_event(const hm_perf_event *ev);
int attr_alloc_sample(hm_attr *a, const hm_perf_event *ev, const hm_sample *s);
void attr_allocs_free(struct attr_allocs *t);

/* attribute-kmem.c: which kmem tracepoint ev is (0: none); take one of
 * its samples (0, -ENOMEM, -EBADMSG with a message naming the sample);
 * the live object holding kernel address addr at s's time: 1 attributed,
 * 0 not (out->bucket says why), -ENOENT in none; the newest object ever
 * holding addr (hmi_attr_alloc_at()); free it all. */
int attr_kmem_event(const hm_perf_event *ev);
int attr_kmem_sample(hm_attr *a, const hm_perf_info *info, const hm_perf_event *ev,
		     const hm_sample *s);
int attr_kmem_resolve(hm_attr *a, const hm_sample *s, uint64_t addr, hm_attribution *out);
int attr_kmem_alloc_at(hm_attr *a, uint64_t addr, hm_alloc_info *out);
void attr_kmem_free(hm_attr *a);
/* Unlink the objects freed at or before upto: the time queue has released
 * every timed sample up to it. */
void attr_kmem_prune(hm_attr *a, uint64_t upto);

/* Bytes the kernel wrote at vmlinux link address link (a TEXT_POKE). */
struct poke {
	uint64_t link;
	uint16_t len;
	uint8_t *bytes;
};

/* attribute-text.c: remember a TEXT_POKE record (0 or -ENOMEM); free them. */
int attr_text_poke(hm_attr *a, const hm_perf_text_poke *t);
void attr_pokes_free(hm_attr *a);
/* attribute-text.c: check the kcore copy against the vmlinux, once a run
 * starts (0, or -ESRCH with an error that says why). */
int attr_kcore_check(hm_attr *a);
/* attribute-text.c: which bytes ran at link pc of b (trap: the IP is after
 * the access): the instruction that made the access decoded into r->insn
 * from a TEXT_POKE's bytes, the kcore copy's or the file's, r->access_pc
 * and where the bytes came from set.  1 when decoded, else 0 and r->bucket
 * says why (HM_UNATTR_NO_INSN, HM_UNATTR_PATCHED). */
int attr_text_insn(hm_attr *a, struct binent *b, uint64_t pc, int trap, struct insn_res *r);

/* attribute-text.c: whether the byte at link pc of a kernel binary b is in
 * one of its patch sites. */
int attr_text_patched(struct binent *b, uint64_t pc);

/* Whether x is a kernel address (the upper half). */
static inline int attr_is_kernel_addr(uint64_t x)
{
	return x >> 63;
}

/* attribute-binent.c: read the PT_LOAD segments of b->bin. */
int attr_binent_phdrs(struct binent *b);
/* A new entry of a->bins (path copied; bin, NULL unless status is BIN_OK,
 * owned by it, and closed when this fails).  NULL when out of memory. */
struct binent *attr_binent_new(hm_attr *a, const char *path, hm_binary *bin, int status);

/* attribute-binent.c: load b's types and variables, once (0 or negative
 * errno); open its instruction decoder, once (0 or negative errno). */
int attr_binent_types(struct binent *b);
int attr_binent_insn(struct binent *b);
/* Where b's DWARF and function symbols are: its debug file when one was
 * found (after attr_binent_types()), else the binary itself. */
static inline hm_binary *attr_binent_dwarf(const struct binent *b)
{
	return b->dbg ? b->dbg : b->bin;
}
/* attribute-binent.c: find b's debug file when b has neither DWARF nor
 * BTF, once (attr_binent_dwarf() is then the file its types, scopes and
 * code locations come from): 0, or -ENODATA when there is none. */
int attr_binent_debug(struct binent *b);

/* attribute-answers.c: the answers of b kept across runs.  A link
 * address's (the address path's, attribute-resolve.c): 1 and *c filled
 * when answered, else 0; note one made.  An instruction's (attribute-
 * insn.c): a resolution made of it (answered: what a sample's attribution
 * reads; the caller memoises it), or NULL; note one made.  Save them when new
 * ones were noted; free them. */
int attr_answers_link(hm_attr *a, struct binent *b, uint64_t x, struct cached *c);
void attr_answers_note_link(hm_attr *a, struct binent *b, uint64_t x, const struct cached *c);
struct insn_res *attr_answers_insn(hm_attr *a, struct binent *b, uint64_t pc, int trap);
void attr_answers_note_insn(hm_attr *a, struct binent *b, const struct insn_res *r);
void attr_answers_save(struct binent *b);
void attr_answers_free(struct binent *b);
/* attribute-describe.c: the deepest field of type id at byte off: its offset and size,
 * and its path interned in strs (NULL: out of memory). */
void attr_describe(const hm_types *t, hm_type_id id, uint64_t off, uint64_t *foff,
		   uint64_t *fsize, const char **path, hm_strtab *strs);

/* An element of a member array an index register steps through. */
struct attr_elem {
	hm_type_id type;	/* the element's record */
	const char *name;	/* its name (the type table's) */
	uint64_t size;
	uint64_t off;		/* the access's offset in the element */
	const char *path;	/* the array member in the outer record, interned */
	uint64_t array_off, array_size;	/* its offset there, its size */
};
/* attribute-describe.c: the member array of type id holding byte off whose
 * elements an index of unknown multiple of stride steps through whole (1),
 * none (0), -ENOMEM. */
int attr_member_array(const hm_types *t, hm_type_id id, uint64_t off, uint64_t stride,
		      struct attr_elem *e, hm_strtab *strs);

/* attribute-binent.c: the variable of b whose extent holds link address x;
 * attribute-describe.c: the attribution of x inside v (a global's, bias 0),
 * and an attribution c of a binary loaded at bias into out (1 attributed, 0
 * not, -ENOMEM). */
const struct var_ref *attr_var_at(const struct binent *b, uint64_t x);
/* attribute-deref.c: the typing function's answer (hm_track_type_fn) for a
 * load, v HM_TV_MEM or HM_TV_DEREF: whether the memory it read (a global,
 * a member of the record a typed pointer points to, an element of a
 * pointer array) is declared a pointer to a named record. */
struct hm_tval;
struct hm_tvar;
int attr_type_load(hm_attr *a, struct binent *b, const struct hm_tval *v, struct hm_tvar *out);
void attr_describe_var(hm_attr *a, struct binent *b, const hm_variable *v, uint64_t x,
		       struct cached *c);
int attr_cached_fill(const struct cached *c, uint64_t bias, hm_attribution *out);

/* attribute-objects.c: the explicit object (hm_attr_add_object()) holding
 * addr, or NULL; the attribution of addr in it (1, or -ENOMEM). */
const struct xobject *attr_object_at(const hm_attr *a, uint64_t addr);
int attr_object_resolve(hm_attr *a, const struct xobject *o, uint64_t addr, hm_attribution *out);

/* attribute-records.c: the record `name` of size `size` (0: any) in b's types:
 * HM_ATTR_INSN and *id, or the bucket that says why not. */
enum hm_attr_bucket attr_find_record(struct binent *b, const char *name, uint64_t size,
				     hm_type_id *id);
/* attribute-binent.c: open b's scope index (its DWARF file's), once: 0 or
 * a negative errno. */
int attr_binent_scopes(struct binent *b);
/* The same, what opening the DWARF says counted in *quiet instead (the
 * caller undoes an open that said anything); and forgetting b's scope
 * index and what opening it set, for a later attr_binent_scopes() to open
 * it again and say what it says. */
struct hm_diag_count;
int attr_binent_scopes_quietly(struct binent *b, struct hm_diag_count *quiet);
void attr_binent_scopes_undo(struct binent *b);
/* Keep the answers b's scopes gave, for the next run (before they are
 * freed). */
void attr_binent_scopes_save(struct binent *b);
/* attribute-seg.c: a %fs- or %gs-relative access (r->insn, decoded), or
 * one through a base register tracking found built from the thread
 * pointer, a TLS GOT slot, __tls_get_addr or this CPU's per-cpu offset
 * (v; NULL when the operand has no base register): the __thread or
 * per-cpu variable and its field into r.  1 when r is decided (attributed
 * or a reason), 0 when the access is none of these. */
int attr_seg_resolve(hm_attr *a, struct binent *b, struct insn_res *r, const struct hm_tval *v);

/* attribute-insn.c: the memoised resolution of (b, link pc, trap), NULL when
 * out of memory. */
const struct insn_res *attr_insn_lookup(hm_attr *a, struct binent *b, uint64_t pc, int trap);
/* attribute-insn.c: attribute sample s at addr by its instruction, when the
 * address path found nothing (trap: the IP is after the access; watched:
 * addr is a watchpoint's watched address, which an access may overlap
 * from below; bin and link: what hmi_attr_ip() says of s's IP, bin NULL
 * when it has no binary, or s no IP).  Returns 1 attributed, 0 not
 * (out->bucket set only when the strategy had an answer: a reason bucket),
 * -ENOMEM. */
int attr_resolve_insn(hm_attr *a, const hm_sample *s, uint64_t addr, int trap, int watched,
		      const void *bin, uint64_t link, hm_attribution *out);

/* attribute-regs.c: a sample with registers and no data address gets the
 * address its registers give (s->addr, HM_HAS_ADDR, s->regs_rule and
 * s->regs_access set), or, when they give none, only s->regs_rule (the
 * reason, enum hm_regs_why).  0 or -ENOMEM. */
int attr_regs_addr(hm_attr *a, const hm_perf_info *info, hm_sample *s);
/* Whether such a sample waits for its IP's mapping (its registers kept). */
int attr_regs_waits(hm_attr *a, const hm_sample *s);
/* The bucket of a reason the registers gave no address. */
enum hm_attr_bucket attr_regs_bucket(int why);
/* Free the threads' %fs bases attribute-regs.c learnt. */
void attr_regs_free(hm_attr *a);

/* attribute-maps.c: a process (created when asked and missing: NULL when
 * out of memory), its image holding addr, the bucket of an address in no
 * image (stack, heap, no map). */
struct proc *attr_proc(hm_attr *a, uint32_t pid, int create);
/* The image holding addr at time t (UINT64_MAX: the latest). */
const struct image *proc_image_at(const struct proc *p, uint64_t addr, uint64_t t);
enum hm_attr_bucket proc_anon_bucket(const struct proc *p, uint64_t addr);

/* lines.c: "file:line" of a link address in b; <0 when unknown. */
int hm_lines_lookup(hm_attr *a, const struct binent *b, uint64_t link, char *buf, size_t len);
void hm_lines_table_free(struct lines_table *t);

#endif
