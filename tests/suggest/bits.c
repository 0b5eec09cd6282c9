/* Bitfields and packing, for suggest's layout model.  On LP64:
 *   struct bf: a 0..7; x, y, z: bits 0..14 of the unit at 8 (bytes 8..9);
 *              2-byte hole; lock 12..15; b 16..23; sizeof 24.
 *   struct pk (packed): c 0, v 1..8, lock 9..12; sizeof 13.
 *   struct nd (as in net_device): a 0..7; reg_state bits 0..7 of the unit
 *              at 8, dismantle in byte 9 of that unit, rtnl_link_state bits
 *              16..31 of it; needs_free 12; lock 16..19; b 24..31; sizeof 32.
 *   struct al: lock 0..3; hot 16..23 (aligned(16)); c 24; sizeof 32,
 *              alignment 16. */
struct bf {
	long a;
	unsigned x:3, y:5;
	unsigned z:7;
	int lock;
	long b;
};

struct pk {
	char c;
	long v;
	int lock;
} __attribute__((packed));

struct nd {
	long a;
	enum { REG_A, REG_B } reg_state:8;
	_Bool dismantle;
	enum { LINK_A, LINK_B } rtnl_link_state:16;
	_Bool needs_free;
	int lock;
	long b;
};

struct al {
	int lock;
	long hot __attribute__((aligned(16)));
	char c;
};

struct bf g_bf;
struct pk g_pk;
struct nd g_nd;
struct al g_al;

int main(void)
{
	return g_bf.lock + g_pk.lock + g_nd.lock + g_al.lock;
}
