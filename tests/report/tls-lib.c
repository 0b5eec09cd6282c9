/* The shared-library half of tests/report/tls.c: its __thread variables
 * are reached through __tls_get_addr (general dynamic for the exported
 * one, local dynamic for the static one, as -fPIC compiles them). */
#include "tls.h"

__thread struct stats libst;
static __thread struct stats libpriv;

__attribute__((noinline)) void lib_touch(long n)
{
	libst.misses += n;
	libpriv.hits++;
}

/* The address escapes, so the compiler keeps libpriv whole. */
struct stats *lib_priv(void)
{
	return &libpriv;
}
