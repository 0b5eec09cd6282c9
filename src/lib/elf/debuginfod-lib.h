/* libdebuginfod, opened on first use rather than linked.  Linking it makes
 * every hitmap process map libcurl and the two dozen libraries under it
 * (TLS, Kerberos, LDAP) and run their constructors before main: some 3 ms
 * of each command's start, for a client that only a stripped binary's
 * search with DEBUGINFOD_URLS set ever calls.  elfutils' own libdwfl opens
 * it the same way. */
#ifndef HM_ELF_DEBUGINFOD_LIB_H
#define HM_ELF_DEBUGINFOD_LIB_H

#include <elfutils/debuginfod.h>

/* The client calls hitmap makes, checked against the installed header. */
struct hm_debuginfod_lib {
	__typeof__(&debuginfod_begin) begin;
	__typeof__(&debuginfod_end) end;
	__typeof__(&debuginfod_set_user_data) set_user_data;
	__typeof__(&debuginfod_get_user_data) get_user_data;
	__typeof__(&debuginfod_set_progressfn) set_progressfn;
	__typeof__(&debuginfod_find_debuginfo) find_debuginfo;
};

/* The library, opened once per process (thread-safe); NULL when it cannot
 * be, with why in *why (a static string). */
const struct hm_debuginfod_lib *hm_debuginfod_open(const char **why);

#endif
