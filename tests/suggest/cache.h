/* The cacheline macros as include/linux/cache.h and
 * arch/x86/include/asm/cache.h define them for an SMP x86-64 build. */
#ifndef FIXTURE_CACHE_H
#define FIXTURE_CACHE_H
#define L1_CACHE_SHIFT 6
#define L1_CACHE_BYTES (1 << L1_CACHE_SHIFT)
#define SMP_CACHE_BYTES L1_CACHE_BYTES
#define __aligned(x) __attribute__((__aligned__(x)))
#define ____cacheline_aligned __attribute__((__aligned__(SMP_CACHE_BYTES)))
#define ____cacheline_aligned_in_smp ____cacheline_aligned
#endif
