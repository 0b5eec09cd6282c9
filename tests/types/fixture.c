/* Fixture for the type loader: one struct per case.  Every struct is used by
 * a global so that both gcc and clang emit it. */
#include <stddef.h>
#include <stdint.h>

struct list_head {
	struct list_head *next, *prev;
};

struct plain {
	char c;
	int i;
	long l;
	short s;
	unsigned long long ull;
	double d;
};

struct bits {
	unsigned a : 3;
	unsigned b : 5;
	int c : 7;
	unsigned long long d : 40;
	unsigned char e : 1;
	short f : 9;
	int full : 32;
	char tail;
	unsigned g : 17;
};

/* bitfields that straddle their type's natural unit (packed), and mixed
 * unit sizes */
struct __attribute__((packed)) pbits {
	char c;
	int x : 20;
	int y : 12;
	short s : 5;
	long long z : 33;
};

struct mixbits {
	char a;
	unsigned short b : 9;
	unsigned char c : 7;
	int d : 3;
	char e;
	long f : 50;
	long g : 14;
};

union ubits {
	unsigned x : 4;
	unsigned y : 12;
	int whole;
};

struct ptrs {
	int *p;
	int * const cp;
	const char *name;
	void (*fn)(int);
	void (*vec[4])(int);
	char (*arrp)[16];
	struct plain *sp;
	const volatile int *cvp;
	int **pp;
	char * const *cpp;
	int (*cmp)(const void *, const void *);
	void (*noproto)();
	int (*varf)(const char *, ...);
	struct list_head list;
};

struct arrays {
	int one[3];
	int two[2][5];
	char zero[0];
	long after;
	char flex[];
};

enum color { RED, GREEN = 5, BLUE = -1 };
enum big { HUGE = 0x100000000ULL };

typedef struct {
	int x, y;
} point_t;

typedef int myint;

struct misc {
	enum color col;
	enum big b;
	point_t pt;
	myint mi;
	_Bool flag;
	struct {
		int ax;
		char ay;
	};
	union {
		long ua;
		char ub;
	} named_u;
	int aligned __attribute__((aligned(16)));
	const myint cmi;
	volatile unsigned long vul;
	float f;
	long double ld;
};

struct __attribute__((packed)) packed {
	char c;
	int i;
	short s;
};

struct __attribute__((aligned(64))) line {
	int a;
};

struct atom {
	_Atomic int counter;
	int plain;
};

struct fwd;
struct usesfwd {
	struct fwd *f;
	int n;
};

struct plain g_plain;
struct bits g_bits;
union ubits g_ubits;
struct pbits g_pbits;
struct mixbits g_mixbits;
struct ptrs g_ptrs;
struct arrays g_arrays;
struct misc g_misc;
struct packed g_packed;
struct line g_line;
struct usesfwd g_usesfwd;
struct atom g_atom;
static int g_static_counter;
int g_int_array[7];

int main(void)
{
	g_static_counter++;
	return g_plain.c + g_static_counter;
}
