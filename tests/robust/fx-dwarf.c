/* Fixture of the corrupt-DWARF corpus (tests/robust/dwarf-corrupt.sh): a few
 * structs with arrays, bit-fields, a nested struct, a pointer and a union,
 * small enough that a deterministic set of one-byte edits of its
 * .debug_abbrev, .debug_info and .debug_str covers every attribute. */
struct inner {
	short a;
	char b;
};

struct mixed {
	char x[100];
	unsigned flag : 3;
	unsigned mode : 5;
	struct inner in;
	long *next;
	union {
		int i;
		float f;
	} u;
	double d[2];
};

struct tiny {
	char c;
	long l;
};

struct mixed g_mixed;
struct tiny g_tiny;

int main(void)
{
	return g_mixed.x[0] + g_tiny.c;
}
