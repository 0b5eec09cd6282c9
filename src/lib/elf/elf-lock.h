/* elf-lock: one binary's libelf handle, shared by threads.
 *
 * Debian's libelf is built without --enable-thread-safety: elf_getdata()
 * on a section it has not read yet allocates and links the section's data
 * into the handle, so two threads reading one section at once race and one
 * buffer is lost.  The parallel DWARF walk (dwarf/dwarf-par.c) opens one
 * libdwarf per worker over one hm_binary; every libelf call those workers
 * make on the shared handle (the relocation of a module's debug sections)
 * holds this lock.  The binary's own lazy loads take the same lock.
 */
#ifndef HM_ELF_LOCK_H
#define HM_ELF_LOCK_H

#include "hitmap/binary.h"

void hm_binary_elf_lock(const hm_binary *bin);
void hm_binary_elf_unlock(const hm_binary *bin);

#endif
