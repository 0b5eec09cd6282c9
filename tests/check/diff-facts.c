/* Two versions of one struct for the notes of hitmap diff; build with and
 * without -DV2.  Offsets on LP64, 64-byte lines (pahole prints the same):
 *
 *   member   v1              v2
 *   a        0..7            0..7
 *   b1       8..15           -                 removed
 *   b2       -               8..15             added
 *   x        -               16..19            added (inside group hot)
 *   pad      16..55          20..59
 *   c        56..63 line 0   64..71 line 1     moved to another line
 *   s        64..75 line 1   72..83 line 1     moved, same line
 *   e        80..87          96..103           aligned(16) in v2 only
 *   group hot: bytes 0..15 in v1, 0..19 in v2 (span changed)
 *   size 88 -> 112, alignment 8 -> 16 (gained); cachelines 2 both
 *   changed offset: pad, c, s, e and the group's end marker (5)
 *   c leaves line 0 (a, pad) and joins line 1 (s, e): two pairs newly
 *   share a line, two no longer do.  Nothing here is an error. */
#include <stdint.h>

typedef uint8_t __u8;
typedef long word;
#define __cacheline_group_begin(G) __u8 __cacheline_group_begin__##G[0]
#define __cacheline_group_end(G) __u8 __cacheline_group_end__##G[0]

struct s {
	__cacheline_group_begin(hot);
	word a;
#ifdef V2
	word b2;
	int x;
#else
	word b1;
#endif
	__cacheline_group_end(hot);
	char pad[40];
	word c;
	char s[12];
#ifdef V2
	word e __attribute__((aligned(16)));
#else
	word e;
#endif
};

struct s s0;

int main(void)
{
	return (int)s0.a;
}
