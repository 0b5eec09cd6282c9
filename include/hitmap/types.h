/* types: the type table — every struct, union, class, enum, typedef, base,
 * pointer, array and function type of a binary, loaded once from DWARF or BTF,
 * plus the global variables that attribution needs.
 *
 * A type is named by a hm_type_id, an index into the table; 0 means void (or
 * "no type").  A type that appears in many compilation units is stored once:
 * two named struct/union/enum/typedef definitions with the same kind, name, size
 * and declaring file:line are the same type (a typedef also names the same
 * type: a template's member typedef is one source line for every
 * instantiation).
 *
 * Ownership: hm_types_new()/hm_types_load() return a table the caller frees with
 * hm_types_free().  Every pointer handed out (hm_type, hm_member, names, decl
 * files) is owned by the table and valid until it is freed.  The table is
 * read-only after loading and may then be shared between threads.
 */
#ifndef HITMAP_TYPES_H
#define HITMAP_TYPES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hitmap/binary.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t hm_type_id;
#define HM_TYPE_NONE ((hm_type_id)0)

enum hm_type_kind {
	HM_KIND_VOID = 0,
	HM_KIND_BASE,		/* int, long unsigned int, _Bool, float ... */
	HM_KIND_STRUCT,
	HM_KIND_UNION,
	HM_KIND_CLASS,
	HM_KIND_ENUM,
	HM_KIND_TYPEDEF,
	HM_KIND_POINTER,
	HM_KIND_REFERENCE,	/* C++ & */
	HM_KIND_RVALUE_REFERENCE,	/* C++ && */
	HM_KIND_PTR_TO_MEMBER,	/* C++ T C::* */
	HM_KIND_CONST,
	HM_KIND_VOLATILE,
	HM_KIND_RESTRICT,
	HM_KIND_ATOMIC,
	HM_KIND_ARRAY,
	HM_KIND_FUNC,		/* a function type (target = return type) */
	HM_KIND_UNSPECIFIED,	/* decltype(nullptr) and friends */
};

/* Whether a type of this kind is a record — a struct, union or class: what
 * has members and a layout. */
static inline int hm_kind_is_record(enum hm_type_kind k)
{
	return k == HM_KIND_STRUCT || k == HM_KIND_UNION || k == HM_KIND_CLASS;
}

/* Array bound of a flexible array member (`char data[];`).  A zero-length
 * array (`char data[0];`) has bound 0. */
#define HM_DIM_FLEXIBLE UINT64_MAX

enum hm_member_flags {
	HM_MEMBER_BITFIELD = 1u << 0,
	HM_MEMBER_INHERITANCE = 1u << 1,	/* C++ base class subobject */
	HM_MEMBER_VIRTUAL_BASE = 1u << 2,	/* offset not a constant */
	HM_MEMBER_STATIC = 1u << 3,		/* C++ static member: takes no space */
	HM_MEMBER_ARTIFICIAL = 1u << 4,		/* vtable pointer and the like */
	/* C++ DW_AT_accessibility when the DIE carries one (none set: absent) */
	HM_MEMBER_PUBLIC = 1u << 5,
	HM_MEMBER_PROTECTED = 1u << 6,
	HM_MEMBER_PRIVATE = 1u << 7,
};

typedef struct hm_member {
	const char *name;	/* NULL for anonymous struct/union members */
	hm_type_id type;
	uint32_t flags;		/* enum hm_member_flags */
	/* Byte offset from the start of the enclosing struct.  For a bitfield this is
	 * the offset of its storage unit — `byte_size` bytes, naturally aligned —
	 * exactly as pahole prints it. */
	uint64_t offset;
	/* Bitfields only: bit position inside the storage unit counted from its
	 * least significant bit (little-endian view), its width, the unit's size.
	 * Both DWARF encodings (DW_AT_data_bit_offset and DW_AT_bit_offset +
	 * DW_AT_byte_size) are normalised to this. */
	uint32_t bit_offset;
	uint32_t bit_size;
	uint32_t byte_size;
	uint32_t alignment;	/* DW_AT_alignment on the member, 0 = none */
	uint32_t decl_line;
} hm_member;

typedef struct hm_type {
	enum hm_type_kind kind;
	const char *name;	/* as DW_AT_name spells it; NULL if anonymous */
	/* C++: the enclosing namespaces and classes of a struct, union, class,
	 * enum or typedef, outermost first ("std::__cxx11", "outer::inner",
	 * "(anonymous namespace)"), as a qualified name spells them before
	 * "::name"; NULL at file scope and in C.  Part of the type's identity. */
	const char *scope;
	uint64_t size;		/* own byte size (struct/union/base/enum/pointer); 0 if n/a */
	uint32_t alignment;	/* DW_AT_alignment on the type, 0 = none */
	hm_type_id target;	/* pointee, element, aliased, qualified, return type */
	uint32_t nr;		/* members (struct/union/class), dims (array), params (func),
				 * enumerators (enum) */
	uint32_t first;		/* index of the first of them in the table's arrays */
	const char *decl_file;	/* NULL if unknown */
	uint32_t decl_line;
	uint32_t containing;	/* ptr-to-member: the class type id */
	unsigned declaration : 1;	/* DW_AT_declaration: no body seen (yet) */
	unsigned varargs : 1;		/* func: ends with "..." */
	unsigned prototyped : 1;	/* func: has a prototype */
	unsigned is_signed : 1;		/* base/enum */
	unsigned vector : 1;		/* array: a GNU vector (DW_AT_GNU_vector),
					 * `int v __attribute__((vector_size(32)))` */
} hm_type;

typedef struct hm_variable {
	const char *name;
	hm_type_id type;
	uint64_t addr;		/* link-time address from DW_OP_addr; 0 if none */
	const char *decl_file;
	uint32_t decl_line;
	unsigned external : 1;
	unsigned has_addr : 1;
} hm_variable;

typedef struct hm_types hm_types;

/* What to load.  Loading only named structs (and what they need) is much
 * faster on a vmlinux than loading everything.  Set sz to
 * sizeof(struct hm_load_opts); a NULL opts is all zeros.
 *
 * The persistent index: with `cache`, a file with a build-id is loaded
 * whole (all structs, variables) once and saved as BUILD-ID.types in the
 * cache directory when `cache_write` allows; later loads read that file
 * instead of the debug info.  A table read from the cache answers `only` as
 * a direct load does: hm_types_structs() lists the named structs and the
 * records they reach, nothing else.  Without `cache` nothing is read or
 * written; without `cache_write` nothing is written (not even the mark of a
 * first -C query, see hm_types_load()).  Zeroed options use no cache. */
struct hm_load_opts {
	size_t sz;
	const char *const *only;	/* NULL-terminated struct/union names, or NULL = all */
	bool variables;		/* also load global variables (report) */
	bool btf;		/* prefer BTF over DWARF (never cached) */
	bool cache;		/* read the persistent index */
	bool cache_write;	/* and create or refresh it (needs cache) */
	/* The index's directory; NULL with `cache`: $XDG_CACHE_HOME/hitmap
	 * when XDG_CACHE_HOME is an absolute path, else $HOME/.cache/hitmap. */
	const char *cache_dir;
	/* Where to look when bin itself carries no DWARF (see
	 * hitmap/debuginfo.h); NULL: the default places. */
	const struct hm_debuginfo_opts *debuginfo;
	bool no_debuginfo_lookup;	/* only bin itself */
	/* The base of a split BTF file (a kernel module's); NULL: for
	 * /sys/kernel/btf/MODULE, /sys/kernel/btf/vmlinux. */
	const char *btf_base;
	/* Threads reading DWARF: units are read in parallel and their types
	 * merged in unit order, so the table is the same for any number;
	 * 0: one per online CPU. */
	unsigned threads;
};

/* Load the types of `bin` (DWARF; BTF when asked or when there is no DWARF;
 * DWARF of a separate debug file, looked for as hitmap/debuginfo.h says,
 * when bin has neither).  Reads dwz-compressed DWARF (partial units, and the .gnu_debugaltlink file
 * found as written, beside bin or by build-id) and split DWARF (.dwo files
 * through DW_AT_comp_dir or beside bin).  Returns 0, -ENODATA when the file
 * has no debug info and none was found elsewhere (the diagnostic names
 * every place tried), -ENOENT when a dwz or .dwo file it
 * needs is missing, -EBADMSG on corrupt debug info, -ENOMEM, -EINVAL for
 * options of a size this library does not know.  *out is set only on
 * success.
 *
 * With opts.cache_write, a miss loads and saves the whole table — but a
 * load with `only` does that only from the second such query of a binary
 * on: the first loads just what it names (the fast path a bisection needs)
 * and leaves a BUILD-ID.types.wanted mark in the cache directory. */
int hm_types_load(hm_binary *bin, const struct hm_load_opts *opts, hm_types **out);

/* Load a raw BTF file: /sys/kernel/btf/vmlinux, a module's split BTF
 * (/sys/kernel/btf/MODULE, on top of opts->btf_base), or a .BTF section saved
 * with objcopy (no ELF around it).  Errors as hm_types_load(); -EBADMSG also when
 * the file is not BTF.  *out is set only on success. */
int hm_types_load_btf_file(const char *path, const struct hm_load_opts *opts,
			   hm_types **out);

/* 1 if the file at path starts with the BTF magic (either byte order), 0 if
 * not or unreadable — to choose between hm_binary_open() and the above. */
int hm_types_is_btf_file(const char *path);

hm_types *hm_types_new(void);
void hm_types_free(hm_types *t);

/* Number of ids; valid ids are 1 .. count-1 (0 is void). */
size_t hm_types_count(const hm_types *t);
const hm_type *hm_types_get(const hm_types *t, hm_type_id id);
const hm_member *hm_types_members(const hm_types *t, const hm_type *type);

/* The cacheline size for t's types, the one rule every part of the library
 * follows: `asked` when it is not 0, else the line size of the machine the
 * table was loaded for (hm_binary_cacheline_size() of the file
 * hm_types_load() read: 64 on x86-64 and arm64, 128 on ppc64, 256 on
 * s390x), else 64 (a raw BTF file or a table built by hand names no
 * machine).  Never the host's. */
unsigned hm_types_cacheline_size(const hm_types *t, unsigned asked);

/* The first complete (non-declaration) struct, union or class with that name,
 * in load order (pahole's choice); HM_TYPE_NONE if absent.  A qualified name
 * ("ns::outer::inner", "std::vector<int, std::allocator<int> >", "::g")
 * names the type of that full scope (hm_type.scope); a plain one the
 * global one if there is one (as C++ reads it at file scope), else the
 * first of any scope. */
hm_type_id hm_types_find_struct(const hm_types *t, const char *name);

/* The complete structs, unions and classes a -C name could mean in
 * different scopes: the first of each scope in load order, up to `max` in
 * out[]; returns how many there are (more than max: some left out).  More
 * than one: a plain name with no global type of that name is ambiguous, and
 * hm_type_qualify() spells each candidate. */
size_t hm_types_find_structs(const hm_types *t, const char *name, hm_type_id *out,
			     size_t max);

/* A type's qualified name, "scope::name" (just the name without a scope,
 * "" when anonymous), as snprintf into buf; returns the full length. */
int hm_type_qualify(const hm_type *ty, char *buf, size_t len);

/* The first typedef with that name in load order, HM_TYPE_NONE if absent
 * (pahole -C also accepts typedef names: `-C spinlock_t`); a qualified name
 * as for hm_types_find_struct().  With opts.only,
 * typedefs named there are loaded like struct names. */
hm_type_id hm_types_find_typedef(const hm_types *t, const char *name);

/* Up to `max` names of complete structs closest to `name` (edit distance),
 * for "did you mean".  Returns how many were written to out[]. */
size_t hm_types_similar(const hm_types *t, const char *name, const char **out, size_t max);

/* Every distinct named struct/union/class definition, in load order, with
 * pahole's dedup: a name appears again only for a definition that differs in
 * size or members (names, bit offsets, bit sizes) from those listed — the
 * list `pahole --sizes` prints.  Returns the count and sets *ids (owned by
 * the table). */
size_t hm_types_structs(const hm_types *t, const hm_type_id **ids);

/* Skip typedefs and cv/atomic qualifiers. */
hm_type_id hm_types_resolve(const hm_types *t, hm_type_id id);
/* sizeof: follows typedefs and qualifiers, multiplies array dims.  A flexible
 * array has size 0. */
uint64_t hm_types_sizeof(const hm_types *t, hm_type_id id);
/* alignof as the compiler would compute it, honouring DW_AT_alignment. */
uint32_t hm_types_alignof(const hm_types *t, hm_type_id id);

/* C spelling of `type name` — "int * const p", "void (*vec[4])(int)",
 * "char (*p)[16]", "struct foo". name may be NULL (abstract declarator).
 * Writes at most len bytes including the NUL; returns the full length like
 * snprintf, or a negative errno. */
int hm_types_declare(const hm_types *t, hm_type_id id, const char *name, char *buf, size_t len);

/* The same declaration in two parts, as pahole lays out a member: the type
 * specifier with its qualifiers ("const char", "struct foo", "void") and the
 * declarator around name ("*name", "(*fn)(int)", "(*p)[16]", "* const p",
 * "name" — just the name, or empty, for a plain type).  Each buffer gets at
 * most its len bytes including the NUL.  Returns the longer full length, or a
 * negative errno. */
int hm_types_declare_split(const hm_types *t, hm_type_id id, const char *name,
			   char *type_buf, size_t type_len, char *decl_buf, size_t decl_len);

/* Global variables (loaded with opts.variables). */
size_t hm_types_nr_variables(const hm_types *t);
const hm_variable *hm_types_variable(const hm_types *t, size_t idx);

#ifdef __cplusplus
}
#endif
#endif
