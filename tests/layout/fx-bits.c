/* Layout fixture: bitfields of every kind — packed runs, holes between them,
 * crossing storage units, mixed types, zero-width separators, signed and enum
 * bitfields, bitfields after bytes sharing a unit, bitfields in unions. */
#include <stdint.h>

enum colour { RED, GREEN, BLUE };

struct bits_simple {
	unsigned int a:1;
	unsigned int b:2;
	unsigned int c:5;		/* 24 bits left over: bit padding */
};

struct bits_hole {
	unsigned int a:3;
	unsigned int :5;		/* explicit unnamed bits */
	unsigned int b:4;
	int x;
	unsigned char c:1;
	unsigned char d:1;
	long l;
};

struct bits_cross {
	unsigned long long a:60;
	unsigned long long b:10;	/* does not fit: next unit */
	unsigned int c:20;
	unsigned int d:20;		/* crosses an int boundary: new unit */
	unsigned short e:9;
	unsigned short f:9;
};

struct bits_mixed {
	char c;
	unsigned int a:4;		/* shares the int unit that holds c */
	unsigned int b:12;
	short s;
	unsigned char t:3;
	signed int neg:5;
	enum colour col:2;
	_Bool flag:1;
	uint64_t big:33;
	uint8_t tail;
};

struct bits_zero {
	unsigned int a:3;
	unsigned int :0;		/* force next unit */
	unsigned int b:3;
	char c;
	unsigned long d:1;
};

union bits_union {
	unsigned int whole;
	struct {
		unsigned int lo:16;
		unsigned int hi:16;
	};
	unsigned char bit0:1;
};

struct bits_in_union {
	int tag;
	union {
		struct { unsigned short x:5, y:11; } s;
		unsigned int raw:24;
	} u;
	char after;
};

struct bits_simple g_bits_simple;
struct bits_hole g_bits_hole;
struct bits_cross g_bits_cross;
struct bits_mixed g_bits_mixed;
struct bits_zero g_bits_zero;
union bits_union g_bits_union;
struct bits_in_union g_bits_in_union;
