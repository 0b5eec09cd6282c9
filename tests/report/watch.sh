#!/bin/sh
# Real recordings with hardware watchpoints (perf record -e mem:ADDR:rw) on
# the seed program, PIE, run with ASLR off so field addresses are known
# before the run (PIE base + nm address).  The oracle is watch-oracle.py
# over `perf script` of the same file: samples, reads, writes and transfers
# per watched field must be equal.  Also pipe mode and -z compression.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require_watchpoints
require setarch util-linux
build_seed gcc "$T/seed"
A=$(hex $(($PIE_BASE + $(sym_addr "$T/seed" g_stats))))
B=$(hex $(($A + 8)))
L=$(hex $(($PIE_BASE + $(sym_addr "$T/seed" blocked_lock_lock))))
W=$(hex $(($PIE_BASE + $(sym_addr "$T/seed" g_locked_work))))
NORAND="setarch $(uname -m) -R"

# rec OUT EVENTS... -- CMD: perf record, or skip if the kernel refuses.
rec() {
	out=$1; shift
	if ! untrapped $NORAND perf record -q --sample-cpu "$@" >"$T/rec.out" 2>"$T/rec.err"; then
		grep -qi "not supported\|permission\|no such device\|Operation not" "$T/rec.err" &&
			skip "the kernel refuses hardware breakpoint events: $(head -1 "$T/rec.err")"
		cat "$T/rec.err" >&2
		fail "perf record failed"
	fi
}

# False sharing: two threads write g_stats.hits and g_stats.misses.
rec "$T/fs.data" -e mem:$A:rw -e mem:$B:rw -o "$T/fs.data" -- "$T/seed" false 2000
"$HITMAP" report -i "$T/fs.data" --json >"$T/fs.json" || fail "report fs.data"
watch_compare "$T/fs.data" "$T/fs.json"
assert_eq "false sharing" "$(jq_py "$T/fs.json" "line('g_stats')[0]['verdict']")" "fs verdict"
assert_eq "g_stats.hits g_stats.misses" \
	"$(jq_py "$T/fs.json" "' '.join(f['object'] + '.' + f['path'] for f in line('g_stats')[0]['fields'])")" \
	"fs fields"
# 2000 iterations of a load and a store per thread = 4000 samples per field.
assert_eq "4000 4000" "$(jq_py "$T/fs.json" "field('g_stats.hits')['counts']['samples'], field('g_stats.misses')['counts']['samples']" | tr -d '(),')" \
	"fs samples per field"
"$HITMAP" report -i "$T/fs.data" >"$T/fs.txt" || fail "text report"
# The workers go in lock step: the line's transfers are most of its
# accesses, all of them the false sharing of hits and misses.
tr '\n' ' ' <"$T/fs.txt" | tr -s ' ' |
	grep -q "evidence: [0-9]* transfers in 8000 accesses ([0-9.]* %, 95 % bounds [0-9.]*-[0-9.]* %); 2 threads in 2 groups; false sharing ([0-9]* transfers): g_stats.hits, g_stats.misses rule: 5 or more" ||
	{ cat "$T/fs.txt" >&2; fail "fs text evidence"; }
grep -q "false_worker+0x[0-9a-f]* (seed.c:[0-9]*)" "$T/fs.txt" || fail "no code location"

# True sharing: a lock every thread takes, and the counter (alone on its
# line) every thread increments under it; a w and an rw breakpoint on each
# tell writes from reads.
rec "$T/ts.data" -e mem:$L:rw -e mem:$L:w -e mem:$W:rw -e mem:$W:w -o "$T/ts.data" -- \
	"$T/seed" true 1000
"$HITMAP" report -i "$T/ts.data" --json >"$T/ts.json" || fail "report ts.data"
watch_compare "$T/ts.data" "$T/ts.json"
assert_eq "true sharing" "$(jq_py "$T/ts.json" "line('blocked_lock_lock')[0]['verdict']")" "ts verdict"
assert_eq "true sharing" "$(jq_py "$T/ts.json" "line('g_locked_work')[0]['verdict']")" \
	"counter verdict"
# g_locked_work++ under the lock, 1000 times per thread: 2000 writes.  It is
# one read-modify-write instruction at -O1 (both breakpoints fire once: a
# write) or a load and a store; either way the reads are the rw samples
# beyond the w ones.
wrw=$(perf script -i "$T/ts.data" -F event 2>/dev/null | grep -c "mem:$W:rw:")
assert_eq "$((wrw - 2000)) 2000" "$(jq_py "$T/ts.json" "field('g_locked_work')['counts']['reads'], field('g_locked_work')['counts']['writes']" | tr -d '(),')" \
	"counter reads and writes"
assert_eq "False" "$(jq_py "$T/ts.json" "d['assumed_writes']")" "w+rw: no assumed writes"
nw=$(perf script -i "$T/ts.data" -F event 2>/dev/null | grep -c "mem:$L:w:")
assert_eq "$nw" "$(jq_py "$T/ts.json" "field('blocked_lock_lock.locked')['counts']['writes']")" \
	"ts writes = the w breakpoint's samples"

# Pipe mode: perf writes to stdout, hitmap reads stdin.
$NORAND perf record -q --sample-cpu -e mem:$A:rw -e mem:$B:rw -o - -- "$T/seed" false 500 \
	2>"$T/pipe.err" | tee "$T/pipe.data" | "$HITMAP" report -i - --json >"$T/pipe.json" ||
	fail "pipe mode report"
watch_compare "$T/pipe.data" "$T/pipe.json"
assert_eq "1000 1000" "$(jq_py "$T/pipe.json" "field('g_stats.hits')['counts']['samples'], field('g_stats.misses')['counts']['samples']" | tr -d '(),')" \
	"pipe samples per field"

# Compressed (-z): zstd records.
rec "$T/z.data" -z -e mem:$A:rw -e mem:$B:rw -o "$T/z.data" -- "$T/seed" false 500
"$HITMAP" report -i "$T/z.data" --json >"$T/z.json" || fail "report z.data"
watch_compare "$T/z.data" "$T/z.json"
assert_eq "false sharing" "$(jq_py "$T/z.json" "line('g_stats')[0]['verdict']")" "z verdict"
exit 0
