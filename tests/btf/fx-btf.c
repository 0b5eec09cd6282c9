/* Fixture for the BTF tests: every BTF kind a C compiler emits for data
 * types, and the layouts where BTF and DWARF part ways.  Expected
 * differences are listed in tests/btf/fx-btf.diff with the reason for each. */
#include <stdint.h>

struct fwd_only;			/* BTF forward declaration */

struct list {				/* self reference */
	struct list *next, **pprev;
};

struct bits {				/* bitfields across units; kind_flag members */
	unsigned a:3;
	unsigned b:5;
	int c:7;
	char d;
	long long e:33;
	unsigned short f:2;
	_Bool g:1;
	enum { OFF, ON } h:2;
};

struct aligned_member {			/* a hole natural alignment cannot explain */
	char c;
	int x __attribute__((aligned(64)));
	char y;
};

struct aligned_struct {			/* tail padding natural alignment cannot explain */
	int x;
} __attribute__((aligned(32)));

struct natural_aligned {		/* aligned(8) that changes nothing */
	long x;
} __attribute__((aligned(8)));

struct packed {
	char c;
	int x;
} __attribute__((packed));

struct packed_aligned {
	char c;
	int x;
	short s;
} __attribute__((packed, aligned(4)));

struct flex {				/* x[] and x[0] are one BTF type */
	int n;
	char data[];
};

struct zero_mid {
	int n;
	char z[0];
	long l;
};

union un {
	int a;
	char b:3;
	long c;
};

enum sign { NEG = -1, POS = 5 };
enum wide { BIG = 0x100000000ULL };
typedef const volatile int cvi_t;
typedef struct list list_t;

struct all {
	struct bits b;
	struct aligned_member am;
	struct aligned_struct as;
	struct natural_aligned na;
	struct packed p;
	struct packed_aligned pa;
	union un u;
	enum sign e;
	enum wide w;
	cvi_t cv;
	int *restrict rp;
	int grid[2][3];
	void (*fn)(int, ...);
	int (*fn2)(void);
	_Bool flag;
	float f;
	double d;
	long double ld;
	struct {
		int in_anon;
		union {
			short s1;
			char s2;
		};
	};
	struct fwd_only *opaque;
	list_t head;
	struct aligned_struct arr_as[2];
	const char *name;
	struct zero_mid zm;
	struct flex *fl;
};

struct all g_all;
struct flex *g_flex;
struct packed_aligned g_pa;

int main(void)
{
	return 0;
}
