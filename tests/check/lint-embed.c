/* Fixture for hitmap lint: a pair declared by an embedded struct is that
 * struct's finding, once, not one per struct embedding it (LP64, 64-byte
 * lines; spinlock_t and atomic_t are 4 bytes, so every struct below without
 * an aligned attribute is 4-aligned and judged by its worst placement).
 *
 *   inner:  lock 0..3, refs 4..7: share line 0 (not at every 4-aligned
 *           start): lock * atomic = 2 * 1 = 2.
 *   inner3: a 60..63, b 64..67: apart at offset 0, together when the struct
 *           starts 4 bytes further: counted on line 0, where a ends, by
 *           placement, 2.
 *   outer1 (aligned 64): inner at 16: inner's pair, nothing of its own.
 *   outer2 (aligned 64): in.lock 0, in.refs 4, own 8: in.lock+in.refs is
 *           inner's; in.lock+own 2 * 2, in.refs+own 1 * 2, doubled as the
 *           lines are fixed: 12.
 *   outer3 (aligned 64): inner3 at 4, so in.a 64 and in.b 68 share line 1;
 *           inner3's own worst case already has them: nothing here.
 *
 * With --assume-aligned every struct starts on a line: inner's pair shares
 * at every start (4); inner3's never does (nothing); outer1 still leaves it
 * to inner; outer2 is 12; and outer3's in.a+in.b is outer3's own, since only
 * the embedding at offset 4 brings them together: line 1, 4.
 * `lint -C outer1` lints inner too, where outer1's pair is declared. */
typedef struct { volatile unsigned int slock; } spinlock_t;
typedef struct { int counter; } atomic_t;

struct inner {
	spinlock_t lock;
	atomic_t refs;
};

struct inner3 {
	char pad[60];
	spinlock_t a;
	atomic_t b;
};

struct outer1 {
	char name[16];
	struct inner in;
	long n;
} __attribute__((aligned(64)));

struct outer2 {
	struct inner in;
	spinlock_t own;
} __attribute__((aligned(64)));

struct outer3 {
	int x;
	struct inner3 in;
} __attribute__((aligned(64)));

struct outer1 o1;
struct outer2 o2;
struct outer3 o3;

int main(void)
{
	return o1.in.refs.counter + o2.own.slock + o3.x;
}
