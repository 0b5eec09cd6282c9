/* check's explanations: rule reasons, `alone` at offset 0 and at the worst
 * placement, a group spanning two lines.  LP64, 64-byte lines; the offsets
 * are printed by `reasons.c -DOFFSETS` (the test compares):
 *
 * struct conn (alignment 8, size 96):
 *   lock 0..7, refs 8..15, ops 16..23, name 24..55 (line 0),
 *   hits 56..63, flags 64..71, peer 72..79, stamp 80..87, tail 88..95
 *   hits at offset 0 shares line 0 with lock, refs, ops, name; an object
 *   starting at 8 mod 64 also brings flags, peer, stamp onto its line.
 * struct slab_conn: the same members; its rules say `placement line-aligned`,
 *   so only offset 0 counts.
 * struct ring (alignment 8, size 128):
 *   group hot: begin 8, head 8..15, tail_ 16..23, buf 24..87, end 88
 *   -> bytes 8-87, cachelines 0-1 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define __cacheline_group_begin(GROUP) uint8_t __cacheline_group_begin__##GROUP[0]
#define __cacheline_group_end(GROUP) uint8_t __cacheline_group_end__##GROUP[0]

struct conn {
	uint64_t lock, refs, ops;
	char name[32];
	uint64_t hits, flags, peer, stamp, tail;
};

/* the same members, for a rule block that says `placement line-aligned` */
struct slab_conn {
	uint64_t lock, refs, ops;
	char name[32];
	uint64_t hits, flags, peer, stamp, tail;
};

struct ring {
	uint64_t id;
	__cacheline_group_begin(hot);
	uint64_t head, tail_;
	char buf[64];
	__cacheline_group_end(hot);
	uint64_t pad[5];
};

struct conn c0;
struct slab_conn s0;
struct ring r0;

int main(void)
{
#ifdef OFFSETS
	printf("conn %zu %zu hits %zu flags %zu stamp %zu\n", _Alignof(struct conn),
	       sizeof(struct conn), offsetof(struct conn, hits),
	       offsetof(struct conn, flags), offsetof(struct conn, stamp));
	printf("ring %zu hot %zu-%zu\n", sizeof(struct ring), offsetof(struct ring, head),
	       offsetof(struct ring, pad) - 1);
#endif
	return (int)c0.lock + (int)s0.lock + (int)r0.id;
}
