/* Exit-status fixture: writes its one global once (a watchpoint sample),
 * then exits with the status given, or kills itself with the signal given.
 * Usage: status N | status -SIG */
#include <signal.h>
#include <stdlib.h>

volatile long g;

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0;

	g = 1;
	if (n < 0)
		raise(-n);
	return n;
}
