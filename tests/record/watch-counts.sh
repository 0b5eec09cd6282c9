#!/bin/sh
# Watch mode on this machine, checked with `perf script` as the oracle.
#
# tests/record/counters.c: each worker thread does exactly N atomic
# increments of its own counter (`lock add`: one write) and then R plain
# reads; nothing else touches g.  With -c 1 every access is a sample, so per
# counter: N samples of its :w event and R of its :rw event (a write fires
# both breakpoints and the recorder keeps only the :w one), all from one
# thread.  From the source: g.a at g+0, g.b at g+8 (two longs), g+64 with
# -DPADDED.  The runtime address minus nm's link-time address is the PIE
# load bias: a multiple of the page size.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/record/lib-watch.sh"
require perf linux-perf
require nm binutils
require clang clang

N=2000 R=5
page=$(getconf PAGESIZE)

# run_case NAME BIN OFF_B WATCHERS_B: record g.a and g.b, check every count.
run_case() {
	name=$1 bin=$2 off_b=$3
	"$HITMAP" record --watch g.a --watch g.b -o "$T/$name.data" -- "$bin" $N $R \
		2>"$T/$name.err" || { cat "$T/$name.err" >&2; fail "$name: record failed"; }
	grep -q "^hitmap record: $((2*N + 2*R)) samples ($((2*N)) writes, $((2*R)) reads), 0 lost" \
		"$T/$name.err" || { cat "$T/$name.err" >&2; fail "$name: summary"; }
	perf script -f -i "$T/$name.data" -F tid,event,addr >"$T/$name.txt" 2>"$T/$name.perr" ||
		{ cat "$T/$name.perr" >&2; fail "$name: perf script cannot read the file"; }
	assert_eq $((2*N + 2*R)) "$(wc -l <"$T/$name.txt" | tr -d ' ')" "$name: perf script samples"
	link=$(link_addr "$bin" g)
	a=$(awk '{ print $3 }' "$T/$name.txt" | sort | head -1)
	a=$((0x${a#0x}))
	bias=$((a - link))
	assert_eq 0 $((bias % page)) "$name: load bias $bias is page aligned"
	b=$((a + off_b))
	assert_eq $N "$(count_samples "$T/$name.txt" w $a)" "$name: writes to g.a"
	assert_eq $R "$(count_samples "$T/$name.txt" rw $a)" "$name: reads of g.a"
	assert_eq $N "$(count_samples "$T/$name.txt" w $b)" "$name: writes to g.b"
	assert_eq $R "$(count_samples "$T/$name.txt" rw $b)" "$name: reads of g.b"
	assert_eq 1 "$(tids_at "$T/$name.txt" $a)" "$name: threads on g.a"
	assert_eq 1 "$(tids_at "$T/$name.txt" $b)" "$name: threads on g.b"
	assert_eq 2 "$(awk '{ print $1 }' "$T/$name.txt" | sort -u | wc -l | tr -d ' ')" \
		"$name: threads in all"
}

build_counters "$T/gcc5" gcc 5
require_breakpoints "$T/gcc5"
run_case gcc-dwarf5 "$T/gcc5" 8
build_counters "$T/clang4" clang 4
run_case clang-dwarf4 "$T/clang4" 8
build_counters "$T/padded" gcc 5 -DPADDED
run_case padded "$T/padded" 64
build_counters "$T/nopie" gcc 4 -fno-pie -no-pie
run_case no-pie "$T/nopie" 8

# One counter, both workers: 2N writes and 2R reads of g.a from 2 threads.
build_counters "$T/shared" gcc 5 -DSHARED
"$HITMAP" record -q --watch g.a -o "$T/shared.data" -- "$T/shared" $N $R || fail "shared: record"
perf script -f -i "$T/shared.data" -F tid,event,addr >"$T/shared.txt" 2>/dev/null ||
	fail "shared: perf script"
a=$(awk '{ print $3 }' "$T/shared.txt" | sort -u)
a=$((0x${a#0x}))
assert_eq $((2*N)) "$(count_samples "$T/shared.txt" w $a)" "shared: writes"
assert_eq $((2*R)) "$(count_samples "$T/shared.txt" rw $a)" "shared: reads"
assert_eq 2 "$(tids_at "$T/shared.txt" $a)" "shared: threads"

# The same bytes by symbol, offset and length: g+8/8 is g.b.
"$HITMAP" record -q --watch g+8/8:w -o "$T/sym.data" -- "$T/gcc5" $N $R || fail "sym: record"
perf script -f -i "$T/sym.data" -F tid,event,addr >"$T/sym.txt" 2>/dev/null || fail "sym: script"
assert_eq $N "$(wc -l <"$T/sym.txt" | tr -d ' ')" "g+8/8:w samples"

# -c 10: one sample per 10 writes (writes only: :rw needs -c 1).  The kernel
# restarts a breakpoint's period when a thread is switched back in, so a
# thread can lose a partial period per switch: between N/10 - 3 and N/10.
"$HITMAP" record -q --watch g.a:w --watch g.b:w -c 10 -o "$T/c10.data" -- "$T/gcc5" $N $R ||
	fail "-c 10: record"
perf script -f -i "$T/c10.data" -F tid,event,addr >"$T/c10.txt" 2>/dev/null || fail "-c 10: script"
for addr in $(awk '{ print $3 }' "$T/c10.txt" | sort -u); do
	n=$(count_samples "$T/c10.txt" w $((0x${addr#0x})))
	[ "$n" -le $((N / 10)) ] && [ "$n" -ge $((N / 10 - 3)) ] ||
		fail "-c 10: $n samples at $addr, want $((N / 10 - 3))..$((N / 10))"
done
assert_eq 0 "$(grep -c ':rw:' "$T/c10.txt")" "-c 10: no read events"
exit 0
