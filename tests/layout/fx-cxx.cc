// Layout fixture (C++): base classes, vtable pointers, static members,
// virtual bases, pointers to members, references, empty classes, templates.
#include <cstdint>

struct Empty {};
struct Base { int b; virtual ~Base() {} };
struct Plain { long p; char c; };
struct Derived : Base, Plain {
	static int counter;
	int d;
	char tail;
};
struct VBase { int vb; };
struct Left : virtual VBase { int l; };
struct Right : virtual VBase { int r; };
struct Diamond : Left, Right { int dd; };
struct HasEmpty { Empty e; int x; };
struct EmptyBase : Empty { int y; };
struct Members {
	int Plain::*pm;
	void (Plain::*pmf)();
	int &ref;
	const long &cref;
	int &&rref;
	static const int K = 3;
	Members(int &a, const long &b, int &&c) : pm(nullptr), pmf(nullptr), ref(a), cref(b), rref(static_cast<int &&>(c)) {}
};
template <typename T, int N> struct Buf { T items[N]; unsigned n; };

int Derived::counter;
Derived g_derived;
Diamond g_diamond;
HasEmpty g_has_empty;
EmptyBase g_empty_base;
Empty g_empty;
Buf<short, 5> g_buf;
static int ga; static long gb;
Members g_members(ga, gb, 1);

int main()
{
	return g_derived.d + g_has_empty.x;
}

// access labels: pahole prints them where DW_AT_accessibility says so
class Priv {
	int hidden;
	char h2;
public:
	long open;
	Priv() : hidden(0), h2(0), open(0) {}
	int get() const { return hidden + h2; }
};
Priv g_priv;
