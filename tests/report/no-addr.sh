#!/bin/sh
# A recording without data addresses (perf record -e cpu-clock: no
# PERF_SAMPLE_ADDR) attributes nothing; report says so and how to record one
# instead of reporting an empty table as if nothing were shared.  perf itself
# is the oracle: `perf evlist -v` shows the sample type has no ADDR, and
# `perf script` counts the samples report must have read.
. "$top_srcdir/tests/lib.sh"
require perf linux-perf
build_fixture "$TESTS_SRC/record/spin.c" "$T/spin" "$CC" 4 -O1 -pthread
perf record -q -e cpu-clock -o "$T/cpu.data" -- "$T/spin" 20000000 >"$T/rec.out" 2>"$T/rec.err" ||
	{ cat "$T/rec.err" >&2; skip "perf record -e cpu-clock does not work here (perf_event_paranoid?)"; }
perf evlist -v -i "$T/cpu.data" 2>/dev/null >"$T/evlist"
grep -q 'sample_type: ' "$T/evlist" || fail "perf evlist: no sample_type"
grep 'sample_type: ' "$T/evlist" | grep -q ADDR && fail "cpu-clock recording has PERF_SAMPLE_ADDR"
n=$(perf script -i "$T/cpu.data" -F ip 2>/dev/null | wc -l)
[ "$n" -gt 0 ] || skip "perf recorded no cpu-clock sample"

assert_exit 0 "report" "$HITMAP" report -i "$T/cpu.data"
assert_eq "$n address samples" "$(sed -n 2p "$T/out")" "sample count (perf script)"
assert_eq "unattributed: no-addr $n" "$(sed -n 4p "$T/out")" "no-addr bucket"
cat >"$T/want" <<'W'
note: no sample carries a data address (PERF_SAMPLE_ADDR): record
      memory samples with 'perf record -d', 'perf c2c record' or
      'hitmap record', or watch a variable with 'hitmap record --watch'
W
sed -n 5,7p "$T/out" >"$T/got"
assert_files_eq "$T/want" "$T/got" "the note on recording data addresses"

# A recording with data addresses gets no such note.
perf record -q -d -e page-faults -c 1 -o "$T/pf.data" -- "$T/spin" 1000 >"$T/rec.out" 2>&1 ||
	fail "perf record -d -e page-faults"
assert_exit 0 "report, page faults" "$HITMAP" report -i "$T/pf.data"
grep -q 'PERF_SAMPLE_ADDR' "$T/out" && fail "note on a recording with addresses"
exit 0
