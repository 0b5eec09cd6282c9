/* mmap2: will-it-scale's mmap2 in two threads of one process: map, touch
 * and unmap anonymous memory in a loop, so that the mm_struct's mmap_lock
 * (every mmap and munmap) and page_table_lock (page tables allocated by the
 * touch, freed by the unmap) are written from both CPUs.
 *
 *   mmap2 GOFILE STOPFILE */
#include <sys/mman.h>
#include "lab-run.h"

#define LEN (1UL << 20)

static void step(struct lab_thread *t)
{
	char *p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)t;
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	p[0] = 1;
	munmap(p, LEN);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: mmap2 GOFILE STOPFILE\n");
		return 2;
	}
	lab_stopfile = argv[2];
	lab_wait_go(argv[1]);
	lab_run2(step, NULL, NULL);
	return 0;
}
