/* Internal: the DWARF loader behind hm_types_load(). */
#ifndef HM_DWARF_H
#define HM_DWARF_H
#include "hitmap/types.h"

/* Add the types (and, with opts->variables, the global variables) of bin's
 * DWARF to t.  Returns 0, -ENODATA (no .debug_info; nothing reported),
 * -EBADMSG (reported) or -ENOMEM. */
int hm_dwarf_load(hm_binary *bin, const struct hm_load_opts *opts, hm_types *t);

#endif
