/* Watchpoint probe fixture: writes g N times and never writes h.
 * Usage: writes N */
#include <stdlib.h>

volatile long g, h;

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;

	for (long i = 0; i < n; i++)
		g = i;
	return (int)h;
}
