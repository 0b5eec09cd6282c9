/* The buckets every sample lands in: their names, and which of them are
 * attributed. */
#include "config.h"
#include "hitmap/attribute.h"
#include "attr/attribute-lib.h"

const char *hmi_attr_bucket_name(enum hm_attr_bucket b)
{
	static const char *const names[HM_NR_BUCKETS] = {
		"global", "object", "no-addr", "no-map", "no-binary", "build-id-mismatch",
		"no-symbol", "no-type", "stack", "heap-unknown", "kernel-without-vmlinux",
		"instruction", "no-insn", "no-mem-operand", "no-variable", "untyped-pointer",
		"offset-outside-type", "ambiguous-type", "tls", "per-cpu", "unknown-index",
		"patched-text", "kmem-cache", "kmem-untyped", "wide-access",
		"regs-clobbered", "segment-base-unknown", "branch-target", "irq-deferred",
		"regs-missing",
	};

	return b < HM_NR_BUCKETS ? names[b] : "?";
}

int hm_attr_bucket_attributed(enum hm_attr_bucket b)
{
	return b == HM_ATTR_GLOBAL || b == HM_ATTR_OBJECT || b == HM_ATTR_INSN ||
	       b == HM_ATTR_TLS || b == HM_ATTR_PERCPU || b == HM_ATTR_KMEM;
}

