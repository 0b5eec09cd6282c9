#!/bin/sh
# A sample named by its instruction waits for its binary's mapping.  perf
# record writes each CPU's ring buffer in chunks, so a thread's page-fault
# sample on one CPU can reach the file before the MMAP2 of its executable,
# which the exec wrote on the other CPU's buffer (seen in real recordings of
# a threaded program writing anonymous mmap pages: the thread's anon MMAP2
# and its samples came first in the file).  The data address is then in a
# known anonymous mapping, so it does not wait as an unmapped address does,
# and the IP, in no mapping yet, named no instruction: heap-unknown, while
# perf (time order) names the function.  Here gen-watch writes that record
# order with the IP and address of a real page fault of tests/report/heap.c
# (count_drop's store to an mmap'd struct flow).  Oracles: the fixture's
# printout (object address, offsetof) and perf script on the same files
# (the sample's function, and its address).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require gcc gcc
GENW="$top_builddir/tests/report/gen-watch"
bin="$T/heap"
build_fixture "$RSRC/heap.c" "$bin" gcc 5 -O2 -fno-pie -no-pie "$RSRC/heap-dup.c"
if ! perf record -q -d -c 1 -e page-faults -o "$T/pf.data" -- "$bin" >"$T/out" 2>"$T/rec.err"; then
	grep -qi "not supported\|permission" "$T/rec.err" &&
		skip "the kernel refuses the page-faults event: $(head -1 "$T/rec.err")"
	cat "$T/rec.err" >&2
	fail "perf record failed"
fi
# The mmap'd struct flow (the fourth) and count_drop's fault on its drops.
obj=$(awk '$1 == "object" && $2 == "flow" { n++; if (n == 4) print $3 }' "$T/out")
off=$(awk '$1 == "field" && $2 == "flow.drops" { print $3 }' "$T/out")
[ -n "$obj" ] && [ -n "$off" ] || fail "heap printed no mmap'd flow"
set -- $(perf script -i "$T/pf.data" -F ip,sym,addr 2>/dev/null |
	awk '$NF == "count_drop" { print $1, $(NF - 1); exit }')
[ $# -eq 2 ] || fail "perf script shows no fault in count_drop"
addr=0x$1 ip=0x$2
assert_eq "$(hex $(($obj + $off)))" "$(hex $addr)" "the fault's address is flow.drops"
page=$(hex $(($addr & ~0xfff)))
# The executable's text segment, mapped where it is linked (non-PIE).
set -- $(readelf -lW "$bin" | awk '$1 == "LOAD" && / E / { print $2, $3, $5; exit }')
toff=$(hex $(($1 & ~0xfff))) tva=$(hex $(($2 & ~0xfff))) tlen=$(hex $((($3 + 0xfff) & ~0xfff)))

# script ROUND: CPU 1's chunk (the thread's anon map and its fault) before
# CPU 0's (the executable's map), a FINISHED_ROUND after them or none.
script() {
	echo "event pf"
	echo "comm 100 heap"
	echo "mmap 100 $page 0x1000 $page //anon"
	echo "sample 0 100 101 1 5000000002000 $ip $addr"
	echo "mmap 100 $tva $tlen $toff $bin"
	[ "$1" = round ] && echo round
	echo "sample 0 100 100 0 5000000003000 $ip $addr"
}

for kind in round none; do
	script $kind | "$GENW" -o "$T/$kind.data" || fail "gen-watch $kind"
	# perf (time order) finds count_drop for both samples.
	assert_eq "count_drop $(printf '%x' $addr)
count_drop $(printf '%x' $addr)" \
		"$(perf script -i "$T/$kind.data" -F ip,sym,addr 2>/dev/null | awk '{ print $NF, $1 }')" \
		"$kind: perf script"
	"$HITMAP" report -i "$T/$kind.data" --json >"$T/$kind.json" 2>"$T/$kind.err" ||
		{ cat "$T/$kind.err" >&2; fail "report $kind"; }
	assert_eq "{'instruction': 2}" \
		"$(jq_py "$T/$kind.json" "{k: v for k, v in d['buckets'].items() if v}")" \
		"$kind: buckets"
	assert_eq "flow@$obj flow drops $off 2" \
		"$(jq_py "$T/$kind.json" "' '.join('%s %s %s %d %d' % (f['object'], f['struct'], f['path'], f['offset'], f['counts']['samples']) for l in d['lines'] for f in l['fields'])")" \
		"$kind: the field of both samples"
done
exit 0
