#!/bin/sh
# The layout library API on the shared fixtures (see layout-api.c).
. "$top_srcdir/tests/lib.sh"
fix=$TESTS_SRC/fixtures
build_fixture "$fix/mm_v1.c" "$T/mm_v1" "${CC:-gcc}" 5 -O2
build_fixture "$fix/mm_v2.c" "$T/mm_v2" "${CC:-gcc}" 5 -O2
build_fixture "$fix/groups.c" "$T/groups" "${CC:-gcc}" 4 -O0
echo "+ ${CC:-gcc} -g -o $T/nest fx-main.c fx-nest.c" >&2
${CC:-gcc} -g -o "$T/nest" "$TESTS_SRC/layout/fx-main.c" "$TESTS_SRC/layout/fx-nest.c" || fail "build"
"$top_builddir/tests/layout/layout-api" "$T/mm_v1" "$T/mm_v2" "$T/groups" "$T/nest" ||
	fail "layout API"
