#!/bin/sh
# record -p: watchpoints on a running multi-threaded process, for a thread it
# had before the attach and one it starts after.  Oracle: nm's address of
# the fields (a non-PIE build) and perf script's samples of the recording.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/record/lib-watch.sh"
require perf linux-perf
require nm binutils
build_counters "$T/c" gcc 5
require_breakpoints "$T/c"
build_fixture "$TESTS_SRC/record/attach.c" "$T/attach" "${CC:-gcc}" 5 -O2 -pthread -no-pie
g=$(link_addr "$T/attach" g)
N=1000

"$T/attach" $N "$T/go" &
pid=$!
"$HITMAP" record --watch g.a:w --watch g.b:w -o "$T/a.data" -p $pid >"$T/rec.out" 2>"$T/rec.err" &
rec=$!
for i in $(seq 1 200); do	# until the breakpoints are live
	grep -q "^hitmap record: recording" "$T/rec.err" && break
	kill -0 $rec 2>/dev/null || break
	sleep 0.1
done
grep -q "^hitmap record: recording" "$T/rec.err" ||
	{ kill $pid $rec 2>/dev/null; cat "$T/rec.err" >&2; fail "record -p did not start"; }
touch "$T/go"
wait $pid || fail "the fixture counted wrong (exit $?)"
wait $rec || { cat "$T/rec.err" >&2; fail "record -p: exit $?"; }
perf script -i "$T/a.data" -F tid,addr 2>/dev/null >"$T/s" || fail "perf script cannot read the recording"
a=$(awk -v x="$(printf '%x' $g)" '$2 == x' "$T/s" | wc -l)
b=$(awk -v x="$(printf '%x' $((g + 8)))" '$2 == x' "$T/s" | wc -l)
assert_eq "$N" "$a" "writes of g.a by the thread that existed before the attach"
assert_eq "$N" "$b" "writes of g.b by the thread started after the attach"
# hitmap's report names them
"$HITMAP" report -i "$T/a.data" --binary "$T/attach" --json >"$T/r.json" 2>"$T/r.err" ||
	{ cat "$T/r.err" >&2; fail "report"; }
. "$TESTS_SRC/report/lib-report.sh"
assert_eq "$N $N" "$(jq_py "$T/r.json" "field('g.a')['counts']['samples'], field('g.b')['counts']['samples']" | tr -d '(),')" \
	"report of the attached recording"

# --duration ends a recording of a process that keeps running
sleep 30 &
slp=$!
set +e
"$HITMAP" record -q --watch g.a:w --binary "$T/attach" --duration 1 -o "$T/d.data" -p $slp \
	>"$T/d.out" 2>"$T/d.err"
rc=$?
set -e 2>/dev/null; set +e
kill $slp 2>/dev/null
[ $rc = 0 ] || { cat "$T/d.err" >&2; fail "--duration 1: exit $rc"; }
exit 0
