// C++ fixture for the type loader: bases, virtual bases, vtable pointers,
// static members, references, pointers to members, alignas.
#include <cstddef>

struct Base {
	int b;
	char bc;
};

struct Derived : Base {
	char d;
	long dl;
};

class Poly {
public:
	virtual ~Poly() {}
	int p;
};

struct Left : virtual Base {
	int l;
};

struct Right : virtual Base {
	int r;
};

struct Diamond : Left, Right {
	int dd;
};

struct Statics {
	static int counter;
	static const int limit = 5;
	int value;
};
int Statics::counter;

struct Refs {
	int &ref;
	int &&rref;
	int Base::*pm;
	void (Base::*pmf)();
	const char *const name;
};

struct alignas(32) Aligned {
	char c;
	alignas(16) int x;
};

class Access {
	int priv;
protected:
	int prot;
public:
	int pub;
	int get() { return priv + prot; }
};

namespace outer {
namespace inner {
struct Deep {
	int a;
	long b;
};
}
struct Holder {
	struct Nested {
		short s;
	} n;
	inner::Deep d;
};
}

struct Empty {};

struct WithEmpty {
	Empty e;
	int i;
};

struct Derived d_g;
Poly poly_g;
Diamond diamond_g;
Statics statics_g;
Aligned aligned_g;
WithEmpty withempty_g;
Access access_g;
outer::Holder holder_g;
int refs_target;
Refs refs_g = { refs_target, static_cast<int &&>(refs_target), nullptr, nullptr, "x" };

int main()
{
	return statics_g.value + Statics::counter;
}
