/* Layout fixture: holes, padding, cacheline boundaries, enums of several
 * sizes, pointers, function pointers, arrays, typedef chains, embedded structs
 * with holes of their own.  Compiled by the tests in tests/layout with gcc and clang. */
#include <stddef.h>
#include <stdint.h>

typedef unsigned long ulong_t;
typedef ulong_t counter_t;		/* typedef of a typedef */
typedef counter_t counters_t[4];	/* typedef of an array */
typedef int (*cmp_fn)(const void *, const void *);
typedef void handler_t(int);		/* typedef of a function type */

enum e8 { E8_A, E8_B } __attribute__((packed));
enum e16 { E16_A, E16_B = 0x1234 } __attribute__((packed));
enum e32 { E32_A = -1, E32_B = 1 };
enum e64 { E64_A, E64_B = 0x100000000ULL };

struct point { int x, y; };
struct padded { long l; char c; };	/* 7 bytes of padding */
struct holey { char c; long l; short s; };	/* hole of 7, padding of 6 */

struct basic {
	char c;				/* hole of 3 follows */
	int i;
	short s;			/* hole of 6 follows */
	long l;
	enum e8 e_8;
	enum e16 e_16;
	enum e32 e_32;
	enum e64 e_64;
	struct point pt;
	struct padded pad;		/* "last struct has 7 bytes of padding" */
	struct holey hol;
	void *vp;
	const char *name;
	char **argv;
	int *const *cpp;
	cmp_fn cmp;
	handler_t *handler;
	void (*cb)(int, ...);
	int (*noargs)(void);
	counter_t count;
	counters_t counts;
	int matrix[3][5];
	char tail;
};

struct lines {				/* several cachelines, markers "was N bytes ago" */
	char a[60];
	long b;				/* 64 boundary inside: starts at 64 */
	char c[100];
	long d;				/* starts at 168: boundary 128 was 36 bytes ago */
	int e[40];
	short f;
};

struct empty_end { int n; char data[]; };	/* flexible array */
struct zero_end { int n; char data[0]; };	/* zero-length array */
struct zero_mid { int n; char mark[0]; int m; };
struct ptrs {
	struct ptrs *next, *prev;
	struct basic *bp;
	union u_fwd *up;
	enum e32 *ep;
};
struct big_array { double d[1000]; char c; };
struct one { char c; };
struct nothing { };			/* GNU C: size 0 */

/* qualifiers pahole spells right */
typedef const volatile int cvint;
struct quals_ok {
	const int ci;
	volatile long vl;
	const volatile short cvs;
	cvint t;
	const char *pc;
	char *restrict rp;
	const char *const *cpp;
	volatile unsigned long *vulp;
	const struct quals_ok *self;
};

struct quals_ok g_quals_ok;
struct basic g_basic;
struct lines g_lines;
struct empty_end *g_empty_end;
struct zero_end g_zero_end;
struct zero_mid g_zero_mid;
struct ptrs g_ptrs;
struct big_array g_big_array;
struct one g_one;
struct nothing g_nothing;
