// std::atomic members for hitmap lint: Q is alignas(64), so a (0..3) and
// b (8..15) are both on line 0; c is a plain long.
#include <atomic>

struct alignas(64) Q {
	std::atomic<int> a;
	std::atomic<long> b;
	long c;
};

Q q;

int main()
{
	return q.a.load() + (int)q.c;
}
