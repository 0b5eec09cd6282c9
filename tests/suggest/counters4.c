/* Four per-thread counters in one struct, each written by its own thread,
 * between two read-mostly fields every thread reads.  On LP64:
 *   name 0..7, c0 8..15, c1 16..23, c2 24..31, c3 32..39, shift 40..43,
 *   padding 44..47: sizeof 48, one line when the object starts on one. */
#include <pthread.h>

struct pcpu_counters {
	const char *name;		/* read-mostly */
	unsigned long c0;		/* written by thread 0 */
	unsigned long c1;		/* written by thread 1 */
	unsigned long c2;		/* written by thread 2 */
	unsigned long c3;		/* written by thread 3 */
	int shift;			/* read-mostly */
};

struct pcpu_counters counters = { .name = "demo", .shift = 1 };

int main(void)
{
	return counters.shift;
}
