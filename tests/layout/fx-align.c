/* Layout fixture: DW_AT_alignment on members and structs, packed structs,
 * packed members, forced holes, cacheline-aligned members. */
#include <stdint.h>

#define __aligned(n) __attribute__((__aligned__(n)))
#define __packed __attribute__((__packed__))

struct aligned_members {
	int a;
	long b __aligned(32);		/* forced hole of 28 before b */
	char c;
	char d __aligned(64);		/* next line */
	int e;
};

struct aligned_struct {
	int a;
	char b;
} __aligned(64);

struct holds_aligned {
	char c;
	struct aligned_struct s;	/* at 64 */
	int after;
};

struct packed_struct {
	char c;
	int i;
	short s;
	long l;
} __packed;

struct line_aligned {
	unsigned long hits;
	unsigned long misses __aligned(64);
	const char *name;
	int shift;
};

struct aligned_members g_aligned_members;
struct aligned_struct g_aligned_struct;
struct holds_aligned g_holds_aligned;
struct packed_struct g_packed_struct;
struct line_aligned g_line_aligned;
