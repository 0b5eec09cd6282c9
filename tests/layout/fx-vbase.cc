// Layout fixture (C++): virtual bases in complete objects, where the
// Itanium C++ ABI places them, and base classes whose tail is reused.
struct V1 { long a; virtual ~V1() {} };	// dynamic, not nearly empty
struct V2 { char c; };
struct A : virtual V1 { int x; };
struct B : virtual V1, virtual V2 { short y; };
struct C : A, B { char z; };		// V1 and V2 reached through A and B
struct Deep : virtual C { int w; };	// a virtual base with virtual bases
// the shape of libstdc++'s istrstream: basic_istream : virtual basic_ios
struct Ios { virtual ~Ios() {} long state[3]; };
struct Istream : virtual Ios { long gcount; };
struct Streambuf { virtual ~Streambuf() {} char *p[6]; };
struct Istrstream : Istream { Streambuf buf; };
struct Iostream : Istream { int fill; };
// not a POD for layout: its tail padding holds the derived class's d
struct NonPod { NonPod() : a(0), c(0) {} long a; char c; };
struct Reuse : NonPod { char d; };
// left to the compiler: a nearly empty virtual base may be a primary base,
// an empty one may share offset 0
struct NE { virtual void f() {} };
struct UsesNE : virtual NE { int k; };
struct EmptyV {};
struct UsesEmpty : virtual EmptyV { int e; };

C g_c;
Deep g_deep;
Istrstream g_istrstream;
Iostream g_iostream;
Reuse g_reuse;
UsesNE g_uses_ne;
UsesEmpty g_uses_empty;
