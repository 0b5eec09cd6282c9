#!/bin/sh
# Evidence straight from a recording (-i): examples/false-sharing/counters.c
# run under `hitmap record --watch` on both counters (hardware watchpoints:
# every write of both threads).  The report side attributes the writes to
# g_counters.hits and g_counters.misses; suggest must see that pair sharing
# a line and, as with the rule `apart hits misses`, rank first the cheapest
# full separation: align misses (hits 0..7, misses 64..71, name 72, shift
# 80, sizeof rounds to 128: +96).  The weights (line transfers) vary from run
# to run and are not asserted; the proposal and its patch are.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/suggest/oracle.sh"

mkdir -p "$T/src"
cp "$top_srcdir/examples/false-sharing/counters.c" "$T/src/" || fail "cannot copy counters.c"
(cd "$T/src" && gcc -g -O2 -pthread -o "$T/counters" counters.c) || fail "cannot build counters.c"
require_watchpoints
# The threads start together (a barrier), but on a busy machine the scheduler
# may still run them one after the other: then no line moves between CPUs and
# there is nothing to suggest.  Record again (at most 3 times) until the
# recording shows the two counters contending.
for try in 1 2 3; do
	if ! "$HITMAP" record --watch g_counters.hits --watch g_counters.misses -o "$T/w.data" \
		-- "$T/counters" 20000 >"$T/rec.out" 2>"$T/rec.err"; then
		cat "$T/rec.err" >&2
		skip "hardware watchpoints unavailable here (perf_event_open refused)"
	fi
	assert_exit 0 "suggest -i" "$HITMAP" suggest -C counters -i "$T/w.data" "$T/counters"
	grep -q '^  shares a line: hits / misses' "$T/out" && break
	echo "recording $try: the threads did not overlap; again" >&2
done
grep -q '^evidence: profile .*w.data (weights are samples: HITMs, or line transfers)$' "$T/out" ||
	fail "evidence line"
grep -q '^  shares a line: hits / misses (weight [0-9]*)$' "$T/out" || fail "pair hits/misses"
sed -n 's/^#1 //p' "$T/out" >"$T/title"
assert_eq "align misses" "$(cat "$T/title")" "best proposal"
grep -A1 '^#1 ' "$T/out" | grep -q '^   cost: +96 bytes (sizeof 32 -> 128), cachelines 1 -> 2,$' ||
	fail "cost of align misses"
oracle 1 counters "$T/src" counters.c "$T/counters" "gcc -g -O2 -pthread" -C counters -i "$T/w.data"
