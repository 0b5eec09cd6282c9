/* A command that never ends by itself: writes its pid to FILE (so that a
 * test can find it, and end it, whatever becomes of its recorder), then
 * spins until a signal ends it.  Usage: forever FILE */
#include <stdio.h>
#include <unistd.h>

static volatile unsigned long sink;

int main(int argc, char **argv)
{
	FILE *f;

	if (argc < 2 || !(f = fopen(argv[1], "w")))
		return 2;
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	for (;;)
		sink++;
}
