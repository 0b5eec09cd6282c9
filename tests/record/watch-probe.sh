#!/bin/sh
# record --watch first checks that watchpoints fire: where a watched write is
# not counted (a hypervisor that does not deliver debug exceptions), it
# refuses with one line and exit 3 instead of recording 0 samples; where
# they fire it records.  report warns on a recording whose watchpoints
# counted nothing.  Oracle: perf stat's count of a watched variable the
# fixture writes N times (nm's address, a non-PIE build), user-space writes
# only as record --watch samples them (the kernel clears .bss at exec).
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/record/lib-watch.sh"
require perf linux-perf
require nm binutils
watchpoint_lock
build_fixture "$TESTS_SRC/record/writes.c" "$T/writes" "${CC:-gcc}" 5 -O2 -no-pie
g=$(link_addr "$T/writes" g)
h=$(link_addr "$T/writes" h)
N=1000

perf stat -x, -e "mem:$g:w:u" -o "$T/stat" -- "$T/writes" $N 2>"$T/stat.err" ||
	{ cat "$T/stat.err" >&2; skip "perf stat cannot open a hardware breakpoint here"; }
count=$(awk -F, '/mem:/ { print $1 }' "$T/stat")
echo "perf stat: $count of $N watched writes counted" >&2

set +e
"$HITMAP" record -q --watch g:w -o "$T/w.data" -- "$T/writes" $N >"$T/out" 2>"$T/err"
rc=$?
set -e 2>/dev/null; set +e
if [ "$count" = "$N" ]; then
	[ $rc -eq 0 ] || { cat "$T/err" >&2; fail "watchpoints fire here, yet record --watch exits $rc"; }
	assert_eq $N "$(perf script -i "$T/w.data" -F ip 2>/dev/null | wc -l | tr -d ' ')" \
		"samples of the watched writes"
	"$HITMAP" report -i "$T/w.data" >/dev/null 2>"$T/rep.err" || fail "report"
	! grep -q "counted no access" "$T/rep.err" || fail "report warns on a recording with samples"
else
	cat "$T/err" >&2
	assert_eq 3 "$rc" "record --watch where watchpoints do not fire: exit"
	assert_eq 1 "$(wc -l <"$T/err" | tr -d ' ')" "record --watch where watchpoints do not fire: lines"
	grep -q "^error: hardware watchpoints do not fire on this machine ([0-9]* of 64 watched writes counted; the [a-z]* does not deliver debug exceptions); record without --watch for timer samples with registers$" "$T/err" ||
		fail "record --watch where watchpoints do not fire: the message"
	[ ! -e "$T/w.data" ] || fail "a recording was written"
fi

# A watchpoint on h, which the fixture never writes: 0 samples on any
# machine, and report says so instead of reporting nothing quietly.
perf record -q -e "mem:$h:w:u" -o "$T/h.data" -- "$T/writes" $N >/dev/null 2>"$T/perf.err" ||
	{ cat "$T/perf.err" >&2; fail "perf record -e mem:$h:w:u"; }
assert_eq 0 "$(perf script -i "$T/h.data" -F ip 2>/dev/null | wc -l | tr -d ' ')" "perf's samples of h"
"$HITMAP" report -i "$T/h.data" >"$T/h.txt" 2>"$T/h.err" || { cat "$T/h.err" >&2; fail "report of h.data"; }
cat "$T/h.err" >&2
assert_eq 1 "$(wc -l <"$T/h.err" | tr -d ' ')" "report of 0 watchpoint samples: one line"
grep -q "^warning: $T/h.data: its 1 watchpoint counted no access: the watched bytes were not accessed, or hardware watchpoints do not fire where it was recorded" "$T/h.err" ||
	fail "report of 0 watchpoint samples: the warning"
exit 0
