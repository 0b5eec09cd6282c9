/* Layout fixture: the cases pahole 1.24 prints wrong (each one is listed in
 * pahole-exceptions.txt and proven by pahole-faults.sh with the compiler):
 * qualifiers of pointers, declarators pahole drops, const anonymous structs,
 * _Atomic, packed members and packed+aligned structs, old-style function
 * pointers. */
#include <stdint.h>

#define __aligned(n) __attribute__((__aligned__(n)))
#define __packed __attribute__((__packed__))

typedef _Atomic long atomic_long_c;

struct quals_bad {
	char *const cp;
	const char *const cpc;
	int *volatile vp;
	const char *const groups[4];	/* gcc: const(array(const pointer)) */
};

struct atomics {
	_Atomic int ai;
	_Atomic(long) al;
	atomic_long_c tal;
	_Atomic(int *) aip;
	int _Atomic *pai;
};

struct declarators {
	int *const p;
	void (*vec[4])(int);
	char (*parr)[16];
	int (*(*pfp)(int))[3];
	void (*const cfp)(void);
	const struct { int a; char b; } name;
	struct { int x; } arr2[2];
};

struct fnptrs {
	long (*oldstyle)();
	void (**vtbl)(void);
	int (*table[2][3])(void *);
};

struct packed_struct_f {
	char c;
	int i;
	short s;
	long l;
} __packed;

struct packed_aligned {
	char c;
	int i;
} __packed __aligned(4);

struct packed_member {
	char c;
	int i __packed;
	struct packed_struct_f ps;
	long l;
};

union plain_union {
	int i;
	char c[10];
	long l;
};

struct quals_bad g_quals_bad;
struct atomics g_atomics;
struct declarators g_declarators;
struct fnptrs g_fnptrs;
struct packed_aligned g_packed_aligned;
struct packed_member g_packed_member;
union plain_union g_plain_union;
