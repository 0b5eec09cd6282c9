/* __thread variables written by the executable (local exec: %fs:-OFF;
 * initial exec for the library's: a GOT slot's offset, then %fs:(reg)) and
 * by its shared library (tests/report/tls-lib.c: __tls_get_addr).  Prints
 * each field's offset and size (offsetof, sizeof: the test's oracle) and
 * the main thread's variables' addresses, as "tls STRUCT ADDR tls:NAME". */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include "tls.h"

__thread struct stats st;
static __thread struct stats priv;
__thread long plain;

__attribute__((noinline)) static void exe_touch(long n)
{
	st.misses += n;
	priv.state = (int)n;
	priv.range.hi = n;
	libst.state = (int)n;
	plain = n;
}

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 100;

#define FIELD(f) printf("field stats.%s %zu %zu\n", #f, offsetof(struct stats, f), \
			sizeof(((struct stats *)0)->f))
	FIELD(hits);
	FIELD(misses);
	FIELD(state);
	FIELD(bytes);
	FIELD(range.lo);
	FIELD(range.hi);
	printf("size stats %zu\n", sizeof(struct stats));
	printf("tls stats %p tls:st\n", (void *)&st);
	printf("tls stats %p tls:priv\n", (void *)&priv);
	printf("tls stats %p tls:libst\n", (void *)&libst);
	printf("tls stats %p tls:libpriv\n", (void *)lib_priv());
	printf("tlsvar plain %p %zu\n", (void *)&plain, sizeof(plain));
	fflush(stdout);
	for (i = 1; i <= n; i++) {
		exe_touch(i);
		lib_touch(i);
	}
	return 0;
}
