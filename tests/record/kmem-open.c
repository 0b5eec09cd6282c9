/* Kernel allocations and CPU time, for tests/record/timer-kmem.sh: opens
 * and closes /dev/null N times (each open is a struct file from the filp
 * cache: a kmem_cache_alloc by this process) and then spins MS ms of CPU
 * time, which the timer samples.  Prints "pid PID opens N". */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, ms = argc > 2 ? atoi(argv[2]) : 300, i;
	volatile unsigned long spin = 0;
	double t0;

	for (i = 0; i < n; i++) {
		int fd = open("/dev/null", O_RDONLY);

		if (fd < 0) {
			perror("/dev/null");
			return 1;
		}
		close(fd);
	}
	for (t0 = cpu_ms(); cpu_ms() - t0 < ms;)
		spin++;
	printf("pid %d opens %d\n", (int)getpid(), n);
	return 0;
}
