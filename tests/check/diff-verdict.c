/* Two builds of one struct (-DV2 for the second), for the verdicts of
 * `hitmap diff --rules diff-verdict.rules`.  The program prints its own
 * offsets: the test's oracle.
 *  - `alone cnt` fails in both builds (cnt shares line 0), with other
 *    neighbours in V2 (b2 joins them): still failing, not fixed and
 *    regressed at once;
 *  - `apart p q r`: p and q share line 1 in V1, p and r share line 2 in
 *    V2: a new violation, a regression, and no "fixed" for p and q;
 *  - `apart u v`: apart in V1, together in V2: a regression;
 *  - `apart w z`: together in V1, apart in V2: fixed. */
#include <stddef.h>
#include <stdio.h>

struct vs {
	long a;
#ifdef V2
	long b2;
#endif
	int cnt;
	int x;
	long y;
	char pad0[64 - 24];
#ifndef V2
	long p, q;
	char pad1[48];
	long r;
#else
	long q;
	char pad1[56];
	long p, r;
#endif
	char pad2[56];
#ifndef V2
	long u;
	char pad3[56];
	long v;
	long w, z;
#else
	long u, v;
	char pad3[48];
	long w;
	char pad4[56];
	long z;
#endif
} __attribute__((aligned(64)));

struct vs vs_obj;

int main(void)
{
	printf("cnt %zu a %zu x %zu y %zu\n", offsetof(struct vs, cnt), offsetof(struct vs, a),
	       offsetof(struct vs, x), offsetof(struct vs, y));
	printf("p %zu q %zu r %zu\n", offsetof(struct vs, p), offsetof(struct vs, q),
	       offsetof(struct vs, r));
	printf("u %zu v %zu w %zu z %zu\n", offsetof(struct vs, u), offsetof(struct vs, v),
	       offsetof(struct vs, w), offsetof(struct vs, z));
	return 0;
}
