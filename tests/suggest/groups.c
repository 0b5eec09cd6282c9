/* A struct that already marks a group the Linux 6.x way (cache.h): flags and
 * ops (read-mostly) in group `read` on line 0, then refs, lock and stats.
 * On LP64: flags 0, ops 8, the end markers at 16 and the group's pad at 64,
 * refs 64, lock 68, stats 72..79; sizeof 128. */
#include "cache.h"

struct ops;
struct dev {
	__cacheline_group_begin_aligned(read);
	unsigned long flags;
	const struct ops *ops;
	__cacheline_group_end_aligned(read);
	int refs;
	int lock;
	unsigned long stats;
};

struct dev the_dev;

int main(void)
{
	return the_dev.refs;
}
