#!/bin/sh
# The watchpoint model counts in time order, not file order.  perf record
# writes each CPU's ring buffer in chunks, so a file holds CPU 0's samples of
# a round, then CPU 1's, with a FINISHED_ROUND record between rounds.  Here
# gen-watch writes such a file: two threads on CPUs 0 and 1 take turns
# writing g_stats.hits (CPU 0) and g_stats.misses (CPU 1), one cacheline, a
# write-only breakpoint on each; CPU 1's writes fall 500 ns after CPU 0's,
# except one that has the very time of CPU 0's (equal times keep file order,
# as perf's do).  The oracle is watch-oracle.py over perf script (time
# order).  In time order the writes alternate between the CPUs, so every
# write but the first finds the line last written by the other CPU: N writes
# per CPU give CPU 0's field N - 1 transfers and CPU 1's N.  Counted in file
# order the model would see only the chunk boundaries (2 * ROUNDS - 1).
# The same samples with no FINISHED_ROUND at all (hitmap record's files have
# none) must come out the same through the bounded reorder window.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
GENW="$top_builddir/tests/report/gen-watch"
build_fixture "$RSRC/seed.c" "$T/seed" gcc 4 -O1 -pthread -fno-pie -no-pie
A=$(sym_addr "$T/seed" g_stats)
B=$(hex $(($A + 8)))
# The first PT_LOAD of the non-PIE executable: mapped where it is linked.
set -- $(readelf -lW "$T/seed" | awk '$1 == "LOAD" { print $2, $3; exit }')
MOFF=$1 MVADDR=$2
ROUNDS=4 PER=25 N=100	# N = ROUNDS * PER writes per CPU
BASE=5000000000000	# ns
IP=0x401136

# script ROUNDS_ON: the record script for gen-watch.
script() {
	echo "event $A w"
	echo "event $B w"
	echo "comm 100 seed"
	r=0
	while [ $r -lt $ROUNDS ]; do
		for cpu in 0 1; do
			i=$((r * PER))
			while [ $i -lt $(((r + 1) * PER)) ]; do
				t=$((BASE + i * 1000 + cpu * 500))
				# one tie: CPU 1's 11th write at CPU 0's time
				[ $cpu = 1 ] && [ $i = 10 ] && t=$((BASE + i * 1000))
				echo "sample $cpu 100 $((101 + cpu)) $cpu $t $IP"
				i=$((i + 1))
			done
			# the process's map reaches the file after CPU 0's first
			# chunk, as an exec's does in a real recording
			[ $r = 0 ] && [ $cpu = 0 ] &&
				echo "mmap 100 $MVADDR 0x200000 $MOFF $T/seed"
		done
		[ "$1" = rounds ] && echo round
		r=$((r + 1))
	done
}

# check NAME: hitmap's per-field numbers equal the oracle's and the model's.
check() {
	"$HITMAP" report -i "$T/$1.data" --json >"$T/$1.json" 2>"$T/$1.err" ||
		{ cat "$T/$1.err" >&2; fail "report $1"; }
	perf script --ns -i "$T/$1.data" -F tid,cpu,time,event,ip 2>/dev/null |
		python3 "$RSRC/watch-oracle.py" >"$T/$1.oracle"
	printf '%s %d 0 %d %d\n%s %d 0 %d %d\n' "$A" $N $N $((N - 1)) "$B" $N $N $N \
		>"$T/$1.model"
	assert_files_eq "$T/$1.model" "$T/$1.oracle" "$1: perf script oracle = the model"
	jq_py "$T/$1.json" "'\n'.join('%s %d %d %d %d' % (hex(f['address']), f['counts']['samples'], f['counts']['reads'], f['counts']['writes'], f['counts']['transfers']) for l in d['lines'] for f in l['fields'])" |
		sort >"$T/$1.ours"
	assert_files_eq "$T/$1.oracle" "$T/$1.ours" "$1: samples reads writes transfers per field"
	assert_eq "false sharing" "$(jq_py "$T/$1.json" "line('g_stats')[0]['verdict']")" \
		"$1 verdict"
}

script rounds | "$GENW" -o "$T/rounds.data" || fail "gen-watch rounds"
[ "$(perf script -i "$T/rounds.data" --show-round-events -F event 2>/dev/null |
	grep -c FINISHED_ROUND)" = $ROUNDS ] || fail "rounds.data: expected $ROUNDS rounds"
check rounds
script none | "$GENW" -o "$T/none.data" || fail "gen-watch none"
check none
exit 0
