/* CPU pinning for the fixtures whose threads must run on different CPUs
 * (tests/report/verdict.c, objects.c, tests/record/counters.c): included
 * as "../lib/pin.h", the fixtures being compiled from the source tree,
 * after _GNU_SOURCE and <pthread.h>. */
#ifndef HITMAP_TESTS_PIN_H
#define HITMAP_TESTS_PIN_H
#include <pthread.h>
#include <sched.h>

/* Run on the nth CPU this process may use (wrapping around); where it may
 * use only one, wherever the kernel puts it. */
static inline void pin(int nth)
{
	cpu_set_t allowed, one;
	int cpu, seen = 0, count;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return;
	count = CPU_COUNT(&allowed);
	if (count < 2)
		return;
	nth %= count;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &allowed) || seen++ != nth)
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
		return;
	}
}
#endif
