/* The compiler as oracle: prints, for the non-bitfield members of the
 * fixture's structs, what typedump -o prints from DWARF (sizeof, offsetof,
 * _Alignof).  Built with the same compiler and flags as the fixture. */
#include <stdio.h>
#define main fixture_main
#include "fixture.c"
#undef main

#define S(K, T) printf(#K " %s size %zu align %zu\n", #T, sizeof(K T), _Alignof(K T))
#define M(K, T, m) printf("%s.%s off %zu size %zu align %zu\n", #T, #m, offsetof(K T, m), \
			  sizeof(((K T *)0)->m), _Alignof(__typeof__(((K T *)0)->m)))
/* flexible array members have no sizeof; their alignment is the element's */
#define F(K, T, m) printf("%s.%s off %zu size 0 align %zu\n", #T, #m, offsetof(K T, m), \
			  _Alignof(__typeof__(((K T *)0)->m[0])))

int main(void)
{
	S(struct, list_head);
	M(struct, list_head, next);
	M(struct, list_head, prev);
	S(struct, plain);
	M(struct, plain, c);
	M(struct, plain, i);
	M(struct, plain, l);
	M(struct, plain, s);
	M(struct, plain, ull);
	M(struct, plain, d);
	S(struct, ptrs);
	M(struct, ptrs, p);
	M(struct, ptrs, cp);
	M(struct, ptrs, name);
	M(struct, ptrs, fn);
	M(struct, ptrs, vec);
	M(struct, ptrs, arrp);
	M(struct, ptrs, sp);
	M(struct, ptrs, cvp);
	M(struct, ptrs, pp);
	M(struct, ptrs, cpp);
	M(struct, ptrs, cmp);
	M(struct, ptrs, noproto);
	M(struct, ptrs, varf);
	M(struct, ptrs, list);
	S(struct, arrays);
	M(struct, arrays, one);
	M(struct, arrays, two);
	M(struct, arrays, zero);
	M(struct, arrays, after);
	F(struct, arrays, flex);
	S(struct, misc);
	M(struct, misc, col);
	M(struct, misc, b);
	M(struct, misc, pt);
	M(struct, misc, mi);
	M(struct, misc, flag);
	M(struct, misc, named_u);
	M(struct, misc, aligned);
	M(struct, misc, cmi);
	M(struct, misc, vul);
	M(struct, misc, f);
	M(struct, misc, ld);
	S(struct, packed);
	M(struct, packed, c);
	M(struct, packed, i);
	M(struct, packed, s);
	S(struct, line);
	M(struct, line, a);
	S(struct, atom);
	M(struct, atom, counter);
	M(struct, atom, plain);
	S(struct, usesfwd);
	M(struct, usesfwd, f);
	M(struct, usesfwd, n);
	return 0;
}
