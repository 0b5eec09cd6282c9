/* What the lab's workloads share: two threads, each pinned to its own vCPU,
 * started together when the guest script says go (a file appears), running
 * until it says stop (another file appears).  The guest script keeps the
 * time, not the workload: under emulation the guest's clocks are the
 * recorders' only when one process reads them all.  The process prints its pid and "ready" before waiting,
 * so the guest script can find the objects it set up (kmem events, kallsyms)
 * and point watchpoints at them before the loops start. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *lab_stopfile;
static volatile int lab_stop;

static inline double lab_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait for the file GO, created by the guest script when its recorders run. */
static inline void lab_wait_go(const char *go)
{
	printf("pid %d ready\n", getpid());
	fflush(stdout);
	while (access(go, F_OK))
		usleep(10000);
}

static inline void lab_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

struct lab_thread {
	pthread_t t;
	int id;
	unsigned long iters;
	void *arg;
	void (*step)(struct lab_thread *);
};

static inline void *lab_body(void *p)
{
	struct lab_thread *t = p;

	lab_pin(t->id);
	while (!lab_stop) {
		t->step(t);
		t->iters++;
	}
	return NULL;
}

/* Run STEP in two threads on CPUs 0 and 1 until lab_stopfile exists. */
static inline void lab_run2(void (*step)(struct lab_thread *), void *arg0, void *arg1)
{
	struct lab_thread th[2];
	double t0;
	int i;

	for (i = 0; i < 2; i++) {
		memset(&th[i], 0, sizeof(th[i]));
		th[i].id = i;
		th[i].step = step;
		th[i].arg = i ? arg1 : arg0;
		if (pthread_create(&th[i].t, NULL, lab_body, &th[i])) {
			perror("pthread_create");
			exit(1);
		}
	}
	t0 = lab_now();
	while (access(lab_stopfile, F_OK))
		usleep(10000);
	lab_stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(th[i].t, NULL);
	printf("iterations %lu %lu in %.2f s\n", th[0].iters, th[1].iters, lab_now() - t0);
}
