#!/bin/sh
# hitmap report's command line: explicit objects (--object TYPE@ADDR with
# --binary), usage errors (exit 2), unreadable or malformed input (exit 3),
# and a build-id mismatch (warning, samples unattributed, never misattributed).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
[ -x "$GEN" ] || fail "tests/perf/gen-c2c is not built"
build_seed gcc "$T/seed"

# --object: a struct stats at a heap address; no mapping of any binary, the
# type comes from --binary.  misses is at +8: 4 remote HITM loads, 2 stores.
obj=0x7f0000001000
gen -o "$T/obj.data" rmt-hitm:$(hex $(($obj + 8))):4:1 st-l1hit:$(hex $(($obj + 8))):2:0 \
	l1hit:0x7f0000100000:3:0 || fail "gen-c2c"
"$HITMAP" report -i "$T/obj.data" --binary "$T/seed" --object "struct stats@$obj" --json \
	>"$T/obj.json" || fail "report --object"
assert_eq "4 2 6 3" "$(jq_py "$T/obj.json" "field('stats@$obj.misses')['counts']['rmt_hitm'], field('stats@$obj.misses')['counts']['stores'], d['buckets']['object'], d['buckets']['heap-unknown']" | tr -d '(),')" \
	"--object: misses counts, object and heap-unknown buckets"
# 4 HITM transfers are below the evidence floor (5): no sharing verdict.
assert_eq "insufficient evidence few-transfers 4" \
	"$(jq_py "$T/obj.json" "' '.join(str(x) for x in (line('stats@$obj')[0]['verdict'], line('stats@$obj')[0]['rule']['id'], line('stats@$obj')[0]['verdict_evidence']['transfers']))")" \
	"--object verdict"

# Usage errors: exit 2.
assert_exit 2 "bad -d" "$HITMAP" report -i "$T/obj.data" -d bogus
assert_exit 2 "unknown option" "$HITMAP" report --bogus
assert_exit 2 "bad --top" "$HITMAP" report -i "$T/obj.data" --top 0
assert_exit 2 "unknown --object type" "$HITMAP" report -i "$T/obj.data" --binary "$T/seed" \
	--object stat@0x1000
grep -q "no struct 'stat' in the binaries (did you mean 'stats'?)" "$T/err" ||
	{ cat "$T/err" >&2; fail "no did-you-mean for --object stat"; }
assert_exit 2 "bad --object syntax" "$HITMAP" report -i "$T/obj.data" --binary "$T/seed" --object stats
assert_exit 0 "--help" "$HITMAP" report --help
grep -q -- "--save-profile OUT" "$T/out" || fail "--help does not document --save-profile"

# Unreadable / malformed input: exit 3, one error line naming the file.
assert_exit 3 "missing input" "$HITMAP" report -i "$T/nope.data"
grep -q "^error: $T/nope.data: " "$T/err" || fail "missing input message"
head -c 300 "$T/obj.data" >"$T/trunc.data"
assert_exit 3 "truncated input" "$HITMAP" report -i "$T/trunc.data"
grep -q "^error: .*trunc.data" "$T/err" || { cat "$T/err" >&2; fail "truncated input message"; }
[ ! -s "$T/out" ] || fail "partial output on malformed input"

# Build-id mismatch: record with build-ids in the MMAP2 records, then rebuild
# the program at the same path with another compiler.
if command -v perf >/dev/null 2>&1 && perf record -q --buildid-mmap -d -c 1 -e page-faults -o "$T/bid.data" -- "$T/seed" touch \
	>/dev/null 2>"$T/rec.err"; then
	require clang clang
	build_fixture "$RSRC/seed.c" "$T/seed" clang 4 -O1 -pthread -fPIE -pie
	"$HITMAP" report -i "$T/bid.data" --json >"$T/bid.json" 2>"$T/bid.err" ||
		fail "report on a mismatched binary"
	grep -q "^warning: $T/seed: build-id [0-9a-f]* differs from the recorded [0-9a-f]*: its samples stay unattributed" \
		"$T/bid.err" || { cat "$T/bid.err" >&2; fail "no build-id mismatch warning"; }
	# (libc's and ld.so's samples are still named, from libc6-dbg)
	assert_eq "None None None 3" "$(jq_py "$T/bid.json" "field('g_big.a'), field('g_big.b'), field('g_big.c'), min(d['buckets']['build-id-mismatch'], 3)" | tr -d '(),')" \
		"mismatched samples go to their bucket, none attributed"
else
	echo "perf missing or --buildid-mmap refused; build-id check not exercised" >&2
fi
exit 0
