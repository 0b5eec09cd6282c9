/* Oracle for tests/record/pmu-encodings.sh: libpfm4's own encoding of an
 * event string, printed the way `hitmap record --dry-run` prints it.
 * Usage: pfm-oracle [-u] EVENT...   (-u: user level only) */
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int i = 1, plm = PFM_PLM0 | PFM_PLM3, rc;

	if (argc > 1 && !strcmp(argv[1], "-u")) {
		plm = PFM_PLM3;
		i++;
	}
	rc = pfm_initialize();
	if (rc != PFM_SUCCESS) {
		fprintf(stderr, "pfm_initialize: %s\n", pfm_strerror(rc));
		return 1;
	}
	for (; i < argc; i++) {
		struct perf_event_attr a;
		pfm_perf_encode_arg_t arg;

		memset(&a, 0, sizeof(a));
		memset(&arg, 0, sizeof(arg));
		arg.attr = &a;
		arg.size = sizeof(arg);
		rc = pfm_get_os_event_encoding(argv[i], plm, PFM_OS_PERF_EVENT_EXT, &arg);
		if (rc != PFM_SUCCESS) {
			fprintf(stderr, "%s: %s\n", argv[i], pfm_strerror(rc));
			return 1;
		}
		printf("type=%u config=%#llx config1=%#llx precise_ip=%u exclude_kernel=%u\n",
		       a.type, (unsigned long long)a.config, (unsigned long long)a.config1,
		       a.precise_ip, a.exclude_kernel);
	}
	return 0;
}
