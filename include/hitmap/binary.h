/* binary: an ELF file opened with libelf — machine, build-id, sections, symbols.
 *
 * Ownership: hm_binary_open*() returns a handle the caller frees with
 * hm_binary_close().  Strings and hm_symbol pointers returned by the accessors
 * are owned by the handle and valid until it is closed.
 */
#ifndef HITMAP_BINARY_H
#define HITMAP_BINARY_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hm_binary hm_binary;

typedef struct hm_symbol {
	const char *name;
	uint64_t addr;		/* st_value: link-time virtual address */
	uint64_t size;
	unsigned char type;	/* STT_OBJECT, STT_FUNC, ... */
	unsigned char bind;	/* STB_LOCAL, STB_GLOBAL, STB_WEAK */
	uint16_t shndx;
} hm_symbol;

/* Open an ELF file read-only.  Refuses anything that is not a regular file
 * (FIFOs and devices would hang or lie).  NULL + errno: ENOENT, EACCES,
 * EBADMSG (not ELF / corrupt, detail through the diagnostics callback). */
hm_binary *hm_binary_open(const char *path);

/* Open an ELF image held in memory (fuzzing, tests).  buf must stay valid and
 * unchanged until hm_binary_close(); name is used in messages and copied. */
hm_binary *hm_binary_open_mem(const void *buf, size_t len, const char *name);

void hm_binary_close(hm_binary *bin);

const char *hm_binary_arch(const hm_binary *bin);	/* "x86_64", "aarch64", ... */

/* Cacheline size implied by the ELF machine (x86-64, arm64: 64; ppc64: 128;
 * s390x: 256; others 64) — never the host's. */
unsigned hm_binary_cacheline_size(const hm_binary *bin);

/* Build-id as lower-case hex, or NULL when the file has none. */
const char *hm_binary_build_id(const hm_binary *bin);

/* Symbols (from .symtab, else .dynsym).  Lookups build an index on first use
 * (under a lock: a handle may be shared between threads). */
const hm_symbol *hm_binary_symbol(const hm_binary *bin, const char *name);
/* The STT_OBJECT/STT_TLS symbol whose [addr, addr+size) contains addr, or NULL. */
const hm_symbol *hm_binary_object_at(const hm_binary *bin, uint64_t addr);
/* The STT_FUNC symbol containing addr, or NULL. */
const hm_symbol *hm_binary_func_at(const hm_binary *bin, uint64_t addr);

/* The binary a JSON document describes (hm_layouts_print_json() in output.h,
 * hm_suggest_print_json() in suggest.h): here, below both, so that neither
 * header needs the other. */
struct hm_json_binary {
	const char *path;
	const char *build_id;	/* NULL if none */
	const char *arch;
	unsigned cacheline_size;
};

#ifdef __cplusplus
}
#endif
#endif
