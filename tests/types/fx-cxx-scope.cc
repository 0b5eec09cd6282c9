// C++ scopes: same-named classes of different namespaces and classes with
// different layouts, and classes nested in classes (tests/types/cxx-scope.sh).
namespace alpha {
struct Node {
	int a;
	long b;
};
struct Outer {
	struct Inner {
		char c;
		int i;
	} in;
	short s;
};
}

namespace beta {
struct Node {
	char x;
	char y;
};
namespace deep {
struct Node {
	long p[3];
};
}
struct Outer {
	struct Inner {
		long l;
	} in;
	struct Leaf {
		short a;
		short b;
		int c;
	};
	Leaf leaf;
};
}

namespace gam {
namespace {
struct Node {
	double d;
	int e;
};
}
}

struct Node {
	short g;
};

struct User {
	alpha::Node an;
	beta::Node bn;
	beta::deep::Node dn;
	Node gn;
	gam::Node cn;
	alpha::Outer ao;
	beta::Outer bo;
	beta::Outer::Leaf leaf;
};

User user;
alpha::Node *use_a;
beta::Node *use_b;
beta::deep::Node *use_d;
Node *use_g;

int main()
{
	static gam::Node anon_user;
	(void)anon_user;
	return 0;
}
