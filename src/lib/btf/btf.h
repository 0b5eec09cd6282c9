/* Internal: loading BTF (the kernel's compact type format) into the type
 * table — from an ELF .BTF section, from a raw BTF blob in memory, or from a
 * raw BTF file such as /sys/kernel/btf/vmlinux.
 *
 * BTF carries no source positions and no alignment attributes: decl_file and
 * decl_line stay unset, and alignment attributes are inferred from the offsets
 * (a hole that natural alignment does not explain, tail padding beyond it).
 * Every load appends to `t`; on failure `t` may hold a partial load and the
 * caller frees it.  Malformed input gives -EBADMSG and one diagnostic naming
 * the object and the offset inside the BTF blob, never a crash.
 */
#ifndef HM_BTF_H
#define HM_BTF_H
#include <stddef.h>
#include "hitmap/binary.h"
#include "hitmap/types.h"

/* Whether `buf` starts with a BTF header (either byte order). */
int hm_btf_is_btf(const void *buf, size_t len);

/* Load the .BTF section of `bin`.  -ENODATA when there is none. */
int hm_btf_load_elf(hm_binary *bin, hm_types *t, const struct hm_load_opts *o);

/* Load a raw BTF blob; `name` is used in messages.  buf need only stay valid
 * during the call. */
int hm_btf_load_raw(const void *buf, size_t len, const char *name, hm_types *t,
		    const struct hm_load_opts *o);

/* Split BTF (a kernel module's): its ids and string offsets continue those
 * of a base BTF, which is loaded first. */
int hm_btf_load_split_raw(const void *base_buf, size_t base_len, const char *base_name,
			  const void *buf, size_t len, const char *name, hm_types *t,
			  const struct hm_load_opts *o);

/* Load a raw BTF file (mapped, or read when the file cannot be mapped, as
 * with sysfs).  A module's file under /sys/kernel/btf/ is split BTF and
 * gets /sys/kernel/btf/vmlinux as its base.  -ENOENT/-EACCES from opening,
 * -EBADMSG when it is no BTF. */
int hm_btf_load_path(const char *path, hm_types *t, const struct hm_load_opts *o);

/* The same with an explicit base file (NULL: none). */
int hm_btf_load_split_path(const char *base_path, const char *path, hm_types *t,
			   const struct hm_load_opts *o);

#endif
