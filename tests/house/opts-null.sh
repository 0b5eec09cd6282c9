#!/bin/sh
# NULL options mean the defaults in every function that takes options, and an
# options struct is valid up to the last field the library knows (see
# opts-null.c; the older-caller direction is in tests/layout/layout-api.c).
. "$top_srcdir/tests/lib.sh"
fix=$TESTS_SRC/fixtures
build_fixture "$fix/mm_v1.c" "$T/mm_v1" "${CC:-gcc}" 5 -O2
build_fixture "$fix/mm_v2.c" "$T/mm_v2" "${CC:-gcc}" 5 -O2
build_fixture "$fix/groups.c" "$T/groups" "${CC:-gcc}" 4 -O0
LIBPFM_FORCE_PMU=skx "$top_builddir/tests/house/opts-null" "$T/mm_v1" "$T/mm_v2" "$T/groups" ||
	fail "options API"
