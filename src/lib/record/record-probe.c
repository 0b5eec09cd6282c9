/* record-probe: whether hardware watchpoints fire on this machine.
 *
 * Opening a breakpoint event proves nothing: in some virtual machines the
 * event opens and never counts, because the hypervisor does not deliver the
 * debug exceptions.  So the probe arms one write breakpoint on a variable of
 * this very process, writes it a known number of times and reads the count. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include "hitmap/record.h"
#include "record/record-int.h"
#include "base/diag.h"

/* Written through a volatile access: every store reaches memory. */
static volatile uint64_t probe_target __attribute__((aligned(8)));

/* The "hypervisor" CPU flag: a guest's kernel sets it. */
static int under_hypervisor(void)
{
	char line[4096];
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5) && strstr(line, " hypervisor"))
			found = 1;
	fclose(f);
	return found;
}

int hm_record_watch_probe(struct hm_watch_probe *out)
{
	struct perf_event_attr a;
	uint64_t count = 0;
	unsigned i;
	long fd;
	ssize_t n;

	memset(out, 0, sizeof(*out));
	out->written = HM_WATCH_PROBE_WRITES;
	out->hypervisor = under_hypervisor();
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (uint64_t)(uintptr_t)&probe_target;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	a.sample_period = 0;	/* counting only */
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		if (e == EACCES || e == EPERM)
			return hm_fail(e, "watchpoint probe: permission denied "
				       "(kernel.perf_event_paranoid is %d; a process you own "
				       "needs 2 or lower)", hm_proc_paranoid());
		if (e == ENOSPC)
			return hm_fail(e, "watchpoint probe: no free debug register (a debugger "
				       "or another watch holds them?)");
		if (e == ENOENT || e == EOPNOTSUPP || e == ENODEV)
			return hm_fail(e, "watchpoint probe: hardware breakpoints are not "
				       "supported by this kernel or CPU");
		return hm_fail(e, "watchpoint probe: perf_event_open: %s", strerror(e));
	}
	ioctl((int)fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < HM_WATCH_PROBE_WRITES; i++)
		probe_target = i;
	ioctl((int)fd, PERF_EVENT_IOC_DISABLE, 0);
	n = read((int)fd, &count, sizeof(count));
	close((int)fd);
	if (n != (ssize_t)sizeof(count))
		return hm_fail(EIO, "watchpoint probe: cannot read the count");
	out->counted = count;
	if (count != out->written)
		return hm_fail(EOPNOTSUPP, "hardware watchpoints do not fire on this machine "
			       "(%llu of %llu watched writes counted; %s)",
			       (unsigned long long)count, (unsigned long long)out->written,
			       out->hypervisor ? "the hypervisor does not deliver debug exceptions"
					       : "the kernel does not deliver debug exceptions");
	return 0;
}
