/* Fixture for every rule directive, pass and fail.  Offsets on LP64 with
 * 64-byte lines, derived from the declarations:
 *
 * struct d (aligned(64), so its line map is fixed):
 *   hot 0..7, cold 8..15, fill 16..63            line 0
 *   next 64..71, in 72..79 (in.a 72, in.b 76)    line 1
 *   span 80..135                                 lines 1-2 (straddles)
 *   solo 192..199 (aligned(64)), padding to 256  line 3
 *   size 256, 4 lines
 *
 * struct u (alignment 8: its lines depend on where an object starts):
 *   a 0..7, g1 8..55, b 56..63, c 64..71, size 72
 *   b and c are on lines 0 and 1 from offset 0 but share a line when the
 *   object starts 8..56 bytes into one; a and c never do (57 bytes apart
 *   with 8-byte steps); g1 (48 bytes) can straddle; b (8 bytes, 8-aligned)
 *   never can.
 *
 * Globals: g_line is one whole line (aligned(64), 64 bytes); g_wide is 100
 * bytes aligned to a line, so it always crosses into a second one. */
/* gcc and clang spell base types differently ("long int" / "long"); a
 * typedef reads the same from both. */
typedef long word;

struct inner {
	int a;
	int b;
};

struct d {
	word hot;
	word cold;
	char fill[48];
	word next;
	struct inner in;
	char span[56];
	word solo __attribute__((aligned(64)));
} __attribute__((aligned(64)));

struct u {
	word a;
	char g1[48];
	word b;
	word c;
};

struct d d0;
struct u u0;
word g_line[8] __attribute__((aligned(64)));
char g_wide[100] __attribute__((aligned(64)));

int main(void)
{
	return (int)(d0.hot + u0.a + g_line[0] + g_wide[0]);
}
