/* The cacheline macros and CACHELINE_PADDING as include/linux/cache.h and
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
#endif
