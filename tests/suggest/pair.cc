// Two counters of one struct, written by two threads (C++).  On LP64:
// produced 0..7, consumed 8..15, name 16..23; sizeof 24, alignment 8.
#include <atomic>

struct pair_counters {
	std::atomic<long> produced;	// written by the producer
	std::atomic<long> consumed;	// written by the consumer
	const char *name;		// read-mostly
};

pair_counters g_pair;

int main()
{
	return (int)g_pair.produced.load();
}
