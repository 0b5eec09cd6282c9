#!/bin/sh
# hitmap record returns the workload's status, as perf record does, after
# writing a complete perf.data: a CI step that runs its tests under it must
# still fail when they fail.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/record/lib-watch.sh"
build_fixture "$TESTS_SRC/record/status.c" "$T/status" "${CC:-gcc}" 5 -O2
build_counters "$T/c" gcc 5
require_breakpoints "$T/c"

# status WANT ARG: record the fixture run with ARG; exit WANT; 1 sample.
status() {
	set +e
	"$HITMAP" record -q --watch g:w -o "$T/s.data" -- "$T/status" "$2" >"$T/out" 2>"$T/err"
	got=$?
	set -e 2>/dev/null; set +e
	[ "$got" = "$1" ] || { cat "$T/err" >&2; fail "workload '$2': exit $got, want $1"; }
	if command -v perf >/dev/null 2>&1; then
		n=$(perf script -i "$T/s.data" -F ip 2>/dev/null | wc -l)
		assert_eq 1 "$n" "perf script samples of a workload exiting with '$2'"
	fi
}
status 0 0
status 7 7
status 143 -15		# SIGTERM
status 137 -9		# SIGKILL
exit 0
