/* Types shared by fx-units-a.cc and fx-units-b.cc (tests/types/units.sh). */
#include <cstddef>

/* Key function in fx-units-b.cc: gcc describes Keyed in full only there;
 * fx-units-a.cc's DWARF has a declaration (std::future_error's base). */
struct Keyed {
	virtual ~Keyed();
	long k;
};

struct OnKeyed : Keyed {
	int own;
};

/* One source line declares elem_t for every instantiation (std::__atomic_base
 * and its __int_type). */
template <typename T> struct Box {
	typedef T elem_t;
	elem_t v;
	char tag;
};

namespace outer {
struct Same { char c; };	/* ::Same in fx-units-b.cc is another type */
}

struct HoldsA {
	Box<char> bc;
	OnKeyed ok;
	outer::Same s;
};

struct HoldsB {
	Box<long> bl;
	Box<int> bi;
};
