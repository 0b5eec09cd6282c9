// The compiler as oracle for fixture-cxx.cc: sizeof, offsetof and alignof of
// the data members, printed the way typedump -o prints them.
#include <cstdio>
#define main fixture_main
#include "fixture-cxx.cc"
#undef main

#define S(K, T) std::printf(#K " %s size %zu align %zu\n", #T, sizeof(T), alignof(T))
#define M(T, m) std::printf("%s.%s off %zu size %zu align %zu\n", #T, #m, offsetof(T, m), \
			    sizeof(((T *)0)->m), alignof(decltype(((T *)0)->m)))

// sizeof of a reference member is the referenced type's; the storage a
// reference takes is that of a struct holding only one
struct RefStorage {
	int &r;
};
#define R(T, m) std::printf("%s.%s off %zu size %zu align %zu\n", #T, #m, offsetof(T, m), \
			    sizeof(RefStorage), alignof(RefStorage))

int main()
{
	S(struct, Derived);
	M(Derived, d);
	M(Derived, dl);
	S(class, Poly);
	M(Poly, p);
	S(struct, Diamond);
	M(Diamond, dd);
	S(struct, Statics);
	M(Statics, value);
	S(struct, Refs);
	R(Refs, ref);
	R(Refs, rref);
	M(Refs, pm);
	M(Refs, pmf);
	M(Refs, name);
	S(struct, Aligned);
	M(Aligned, c);
	M(Aligned, x);
	S(struct, WithEmpty);
	M(WithEmpty, e);
	M(WithEmpty, i);
	return 0;
}
