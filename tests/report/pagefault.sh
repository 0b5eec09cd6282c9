#!/bin/sh
# Real recording of page faults with data addresses (perf record -d -e
# page-faults -c 1) of the seed program's "touch" mode: it writes g_big.a,
# g_big.b and g_big.c, one on each of three pages nothing else touches.  The
# oracle is perf script: the fault addresses inside each field.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf

for cc in gcc clang; do
	require $cc $cc
	build_seed $cc "$T/seed"
	if ! perf record -q -d -c 1 -e page-faults -o "$T/pf.data" -- "$T/seed" touch \
		>"$T/rec.out" 2>"$T/rec.err"; then
		grep -qi "not supported\|permission" "$T/rec.err" &&
			skip "the kernel refuses the page-faults event: $(head -1 "$T/rec.err")"
		cat "$T/rec.err" >&2
		fail "perf record failed"
	fi
	# The load base of the PIE, from perf's own mapping record (pgoff 0).
	base=$(perf script -i "$T/pf.data" --show-mmap-events 2>/dev/null |
		awk -v f="$T/seed" '/PERF_RECORD_MMAP2/ && $NF == f && / @ 0 / {
			s = $0; sub(/.*\[/, "", s); sub(/\(.*/, "", s); print s; exit }')
	[ -n "$base" ] || fail "no mapping of the seed program in perf script"
	big=$(($base + $(sym_addr "$T/seed" g_big)))
	# struct big { long a; char pad0[8192]; long b; char pad1[8192]; long c; }
	perf script -i "$T/pf.data" -F addr 2>/dev/null | awk '{ print $1 }' >"$T/addrs"
	"$HITMAP" report -i "$T/pf.data" --json >"$T/r.json" 2>"$T/r.err" ||
		{ cat "$T/r.err" >&2; fail "$cc: report"; }
	for f in a:0 b:8200 c:16400; do
		name=${f%%:*}; off=${f#*:}
		want=$(python3 -c "import sys
lo = $big + $off
print(sum(1 for l in open(sys.argv[1]) if lo <= int(l, 16) < lo + 8))" "$T/addrs")
		[ "$want" -ge 1 ] || fail "$cc: perf saw no fault on g_big.$name"
		assert_eq "$want" "$(jq_py "$T/r.json" "field('g_big.$name')['counts']['samples']")" \
			"$cc: faults on g_big.$name"
		assert_eq "$(($big + $off))" "$(jq_py "$T/r.json" "field('g_big.$name')['address']")" \
			"$cc: runtime address of g_big.$name (PIE load bias)"
	done
	assert_eq "addr" "$(jq_py "$T/r.json" "d['kind']")" "$cc: data kind"
done
exit 0
