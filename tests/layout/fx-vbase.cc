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
// a nearly empty virtual base is the primary base of a class with no
// dynamic non-virtual base (at 0), an empty one shares offset 0
struct NE { virtual void f() {} };
struct UsesNE : virtual NE { int k; };
struct EmptyV {};
struct UsesEmpty : virtual EmptyV { int e; };
// NE is the primary base of UsesNE, an indirect primary base of OnNE: at
// UsesNE's offset, not after the non-virtual part
struct OnNE : UsesNE { int on; };
// a second nearly empty one is not primary: after the non-virtual part
struct NE2 { virtual void g() {} };
struct TwoNE : virtual NE, virtual NE2 { int t; };
// a dynamic non-virtual base is primary: NE goes after the non-virtual part
struct Dyn { virtual void h() {} int d; };
struct DynNE : Dyn, virtual NE { int m; };
// nearly empty with an empty virtual base of its own: both at 0
struct EV2 : virtual EmptyV {};
struct UsesEV2 : virtual EV2 { int u; };
// a virtual NE reached through a virtual base that is not primary
struct ViaV : virtual V1, virtual UsesNE { char v; };

C g_c;
Deep g_deep;
Istrstream g_istrstream;
Iostream g_iostream;
Reuse g_reuse;
UsesNE g_uses_ne;
UsesEmpty g_uses_empty;
OnNE g_on_ne;
TwoNE g_two_ne;
DynNE g_dyn_ne;
UsesEV2 g_uses_ev2;
ViaV g_via_v;
