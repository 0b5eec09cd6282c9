/* suggest-defaults: what a suggestion takes from the binary when its caller
 * leaves it open (hm_suggest_opts_defaults() in hitmap/suggest.h): the
 * line size of its machine, the kernel's spelling for a kernel, whether its
 * compiler records a struct's alignment, and a growth budget in lines. */
#include "config.h"
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "hitmap/binary.h"
#include "hitmap/suggest.h"
#include "hitmap/types.h"
#include "base/opts.h"
#include "elf/binary-lib.h"

/* A budget a reviewer accepts without asking. */
#define SUGGEST_GROWTH_LINES 2

/* Whether the binary was built by GCC (its .comment names GCC and no
 * clang): GCC records a struct's alignment in DWARF once a member carries
 * an alignment attribute, clang does not. */
static int records_struct_align(const hm_binary *bin)
{
	size_t len = 0;
	const char *c = hmi_binary_section(bin, ".comment", &len);
	int gcc = 0;

	for (size_t i = 0; c && i < len; i += strnlen(c + i, len - i) + 1) {
		if (memmem(c + i, strnlen(c + i, len - i), "clang", 5))
			return 0;
		gcc |= !strncmp(c + i, "GCC:", 4);
	}
	return gcc;
}

/* A Linux kernel image defines linux_banner; a raw BTF file (no ELF file)
 * is a kernel's. */
static int is_kernel(const hm_binary *bin)
{
	return !bin || hm_binary_symbol(bin, "linux_banner");
}

int hm_suggest_opts_defaults(const hm_types *t, const hm_binary *bin,
			     struct hm_suggest_opts *opts)
{
	/* in and out: every field written here must be the caller's */
	if (!t || !opts || !HM_OPTS_VALID(opts, hm_suggest_opts) ||
	    opts->sz < offsetof(struct hm_suggest_opts, records_struct_align) +
		       sizeof(opts->records_struct_align))
		return -EINVAL;
	opts->cacheline_size = hm_types_cacheline_size(t, opts->cacheline_size);
	if (opts->max_growth == UINT64_MAX)
		opts->max_growth = SUGGEST_GROWTH_LINES * (uint64_t)opts->cacheline_size;
	/* raw BTF is the kernel's, built by GCC */
	opts->records_struct_align = bin ? records_struct_align(bin) : 1;
	if (opts->style == HM_STYLE_AUTO)
		opts->style = is_kernel(bin) ? HM_STYLE_KERNEL : HM_STYLE_GNU;
	return 0;
}
