/* Layout fixture: anonymous and named nested structs and unions, unions as
 * the outermost type, nesting several levels deep, struct members that are
 * themselves holey (for pahole -E and "member types with holes"). */
#include <stdint.h>

struct list_head { struct list_head *next, *prev; };
struct inner { char c; int i; };			/* hole 3 */
struct inner_pad { long l; char c; };			/* padding 7 */

struct anon {
	int kind;
	union {
		long l;
		double d;
		struct { int lo, hi; };
		char bytes[8];
	};
	struct {
		short a;
		char b;				/* padding inside anonymous struct */
	};
	int after;
};

struct named_inline {
	int kind;
	union {
		int i;
		float f;
	} val;
	struct {
		char tag;
		long payload;
	} rec;
	struct {
		struct {
			int deep;
			char deeper;
		} level2;
		short s;
	} level1;
};

union top {
	int i;
	long l;
	struct inner in;
	struct { char a, b; } ab;
	char buf[13];
};

struct embeds {
	struct inner in;			/* holes in member type */
	struct inner_pad ip;			/* padding in member type */
	struct list_head list;
	struct inner arr[2];
	union top u;
	char c;
};

struct wide_union_member {
	char c;
	union {
		char x[70];
		long y;
	};
	int z;
};

struct inline_kinds {
	enum { K_NONE, K_ONE, K_TWO } kind;	/* anonymous enum, printed inline */
	struct { int q; long r; } *anonptr;	/* pointer to an anonymous struct */
	union { int a; short b; } *uptr;
	int tail;
};

typedef struct { int count; char flag; } anon_typedef_t;	/* typedef of anonymous */
struct with_typedefs {
	anon_typedef_t t;
	anon_typedef_t arr[3];
	char c;
};

struct inline_kinds g_inline_kinds;
struct with_typedefs g_with_typedefs;
struct anon g_anon;
struct named_inline g_named_inline;
union top g_top;
struct embeds g_embeds;
struct wide_union_member g_wide;

/* GNU vectors: pahole spells them `int v __attribute__ ((__vector_size__ (16)))`. */
struct vectors {
	int v __attribute__((vector_size(16)));
	char c;
	float f4 __attribute__((vector_size(16)));
	short s2 __attribute__((vector_size(4)));
};

/* mac80211's ieee80211_mgmt in small: `req` is packed though its own offsets
 * are natural; only the size of the union it sits in (5, not a multiple of
 * its alignment 2) says so, as pahole infers it. */
struct packed_in_union {
	unsigned char cat;
	union {
		struct {
			unsigned char code;
			unsigned char tok;
			unsigned short capab;
		} __attribute__((packed)) req;
		unsigned char raw[5];
	} u;
} __attribute__((packed));

struct vectors g_vectors;
struct packed_in_union g_packed_in_union;
