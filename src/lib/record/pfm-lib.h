/* libpfm4, opened on first use rather than linked: its 41 000 relocations
 * (the event tables of every PMU it knows) cost each hitmap process some
 * 4 ms of start, and only `hitmap record` on a machine with a memory PMU
 * calls it (elf/capstone-lib.h measures the pair).  The header is libpfm4's
 * own, so every call is checked against the installed API. */
#ifndef HM_RECORD_PFM_LIB_H
#define HM_RECORD_PFM_LIB_H

#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>

/* The calls hitmap makes. */
struct hmi_pfm_lib {
	__typeof__(&pfm_initialize) initialize;
	__typeof__(&pfm_strerror) strerror;
	__typeof__(&pfm_get_pmu_info) get_pmu_info;
	__typeof__(&pfm_get_os_event_encoding) get_os_event_encoding;
};

/* The library, opened once per process (thread-safe); NULL when it cannot
 * be, with why in *why (a static string). */
const struct hmi_pfm_lib *hmi_pfm_open(const char **why);

#endif
