/* The cacheline macros, CACHELINE_PADDING and the cacheline groups as include/linux/cache.h and
 * arch/x86/include/asm/cache.h define them for an SMP x86-64 build. */
#ifndef FIXTURE_CACHE_H
#define FIXTURE_CACHE_H
#define L1_CACHE_SHIFT 6
#define L1_CACHE_BYTES (1 << L1_CACHE_SHIFT)
#define SMP_CACHE_BYTES L1_CACHE_BYTES
#define __aligned(x) __attribute__((__aligned__(x)))
#define ____cacheline_aligned __attribute__((__aligned__(SMP_CACHE_BYTES)))
#define ____cacheline_aligned_in_smp ____cacheline_aligned
#define INTERNODE_CACHE_SHIFT L1_CACHE_SHIFT
#define ____cacheline_internodealigned_in_smp \
	__attribute__((__aligned__(1 << (INTERNODE_CACHE_SHIFT))))

/*
 * Helper to add padding within a struct to ensure data fall into separate
 * cachelines.
 */
struct cacheline_padding {
	char x[0];
} ____cacheline_internodealigned_in_smp;
#define CACHELINE_PADDING(name) struct cacheline_padding name

typedef unsigned char __u8;	/* include/uapi/asm-generic/int-ll64.h */

/* Linux 6.x: the members between begin and end have their lines alone */
#define __cacheline_group_begin(GROUP) \
	__u8 __cacheline_group_begin__##GROUP[0]
#define __cacheline_group_end(GROUP) \
	__u8 __cacheline_group_end__##GROUP[0]
#define __cacheline_group_begin_aligned(GROUP, ...)		\
	__cacheline_group_begin(GROUP)				\
	__aligned((__VA_ARGS__ + 0) ? : SMP_CACHE_BYTES)
#define __cacheline_group_end_aligned(GROUP, ...)		\
	__cacheline_group_end(GROUP) __aligned(sizeof(long));	\
	struct { } __cacheline_group_pad__##GROUP		\
	__aligned((__VA_ARGS__ + 0) ? : SMP_CACHE_BYTES)
#endif
