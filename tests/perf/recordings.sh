#!/bin/sh
# Real recordings made here with perf record on the fixture target.c, each
# file's samples equal to perf script's:
#  - page faults with data addresses (-d), with the build-id table;
#  - two hardware write breakpoints on the fields of its shared_pair (two
#    events);
#  - compressed (-z, small ring buffer: many chunks);
#  - pipe mode (-o -) with a tracepoint (TRACING_DATA payload, RAW samples),
#    from a pipe and from a file, and perf inject's file-mode copy of it;
#  - call chains (-g) with MMAP2 records in build-id form (--buildid-mmap).
# Also: gen-c2c --host-topology describes this machine as perf record does.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/perf/lib-perf.sh"
require perf linux-perf
require nm binutils
build_fixture "$top_srcdir/tests/perf/target.c" "$T/target" "$CC" 4 -O1 -no-pie -pthread
rec() {	# rec OUT PERF-RECORD-ARGS...: a recording of the target, or skip
	out=$1; shift
	perf record -q -o "$out" "$@" >"$T/rec.out" 2>"$T/rec.err" ||
		{ cat "$T/rec.err" >&2; skip "perf record does not work here (perf_event_paranoid?)"; }
}

# 1. page faults: 64 fresh pages touched, at least one fault each
rec "$T/pf.data" -d -e page-faults -c 1 -- "$T/target" 10 64
compare_samples "$T/pf.data" tid,addr,ip 64
perf buildid-list -i "$T/pf.data" 2>/dev/null >"$T/bid-perf"
"$PD" --info "$T/pf.data" | sed -n 's/^build_id //p' >"$T/bid-ours"
assert_files_eq "$T/bid-perf" "$T/bid-ours" "build-id table"

# the writer's --host-topology header: sibling lists, core and socket of
# each cpu, node cpu lists as in perf record's header
topo() {
	perf report -i "$1" --header-only -I 2>/dev/null |
		sed -n 's/^# \(sibling sockets\|sibling threads\|node[0-9]* cpu list\) *: */\1 /p
			s/^# CPU \([0-9]*\): Core ID \([-0-9]*\),.* Socket ID \([-0-9]*\)/cpu \1 core \2 socket \3/p'
}
"$GEN" -o "$T/gtopo.data" --host-topology --cpus "$(getconf _NPROCESSORS_CONF)" l1hit:0x601000 ||
	fail "gen-c2c --host-topology"
topo "$T/pf.data" >"$T/topo.perf"
topo "$T/gtopo.data" >"$T/topo.ours"
[ -s "$T/topo.perf" ] || fail "perf shows no topology"
assert_files_eq "$T/topo.perf" "$T/topo.ours" "host topology"

# compressed, small ring buffer: many chunks, records straddling them
# (huge pages may take several of the 3000 pages in one fault).  On a busy
# machine perf drains the 8-page buffer too late and loses samples (LOST
# records): up to three recordings, for one with enough samples
for try in 1 2 3; do
	rec "$T/z.data" -z -m 8 -d -e page-faults -c 1 -- "$T/target" 10 3000
	[ "$(perf script -i "$T/z.data" -F ip 2>/dev/null | wc -l)" -ge 1000 ] && break
done
compare_samples "$T/z.data" tid,addr,ip 1000
"$PD" --stat "$T/z.data" 2>/dev/null | grep -q ' compressed 1 ' || fail "z.data not compressed"

# 2. pipe mode with a tracepoint when tracefs allows one
ev="-e sched:sched_process_exec -e page-faults"
# shellcheck disable=SC2086
perf record -q -o - $ev -c 1 -d -- "$T/target" 10 32 >"$T/pipe.data" 2>"$T/rec.err" || {
	ev="-e page-faults"
	perf record -q -o - $ev -c 1 -d -- "$T/target" 10 32 >"$T/pipe.data" 2>"$T/rec.err" ||
		skip "perf record -o - does not work here"
}
compare_samples "$T/pipe.data" tid,addr,ip 32
cat "$T/pipe.data" | "$PD" - >"$T/pipe.ours" || fail "pipe mode from a pipe"
"$PD" - <"$T/pipe.data" >"$T/pipe.ours2" || fail "pipe mode from a file on stdin"
assert_files_eq "$T/pipe.ours" "$T/pipe.ours2" "pipe stream read from a pipe and a file"
perf script -i - -G -F tid,addr,ip <"$T/pipe.data" 2>/dev/null | awk 'NF { $1 = $1; print }' | sort >"$T/pipe.perf"
samples_ours "$T/pipe.data" tid,addr,ip | sort >"$T/pipe.s"
assert_files_eq "$T/pipe.perf" "$T/pipe.s" "pipe-mode samples read from stdin by perf"
"$PD" --info - <"$T/pipe.data" >"$T/pipe.info"
grep -q '^mode pipe$' "$T/pipe.info" || fail "pipe mode not reported"
grep -q '^event [0-9] name page-faults type 1 ' "$T/pipe.info" || fail "pipe mode event name"
case $ev in *sched*)
	grep -q '^event 0 name sched:sched_process_exec type 2 ' "$T/pipe.info" ||
		fail "tracepoint event";;
esac
perf inject -i - -o "$T/inj.data" <"$T/pipe.data" 2>/dev/null || fail "perf inject"
if perf script -i "$T/inj.data" >/dev/null 2>&1; then
	compare_samples "$T/inj.data" tid,addr,ip 32
else
	# perf 6.1's inject writes TRACING_DATA into the file without its
	# payload; perf script rejects the file, and so must hitmap
	assert_exit 3 "perf-dump on perf inject's broken file" "$PD" "$T/inj.data"
	grep -q "TRACING_DATA.* at offset 0x" "$T/err" || fail "inject: $(cat "$T/err")"
fi

# 3. call chains (context markers included) equal perf's raw dump of them
#    (sorted: the dump may reorder), and MMAP2 build ids equal perf's
rec "$T/g.data" -g --buildid-mmap -d -e page-faults -c 1 -- "$T/target" 10 16
compare_samples "$T/g.data" tid,addr,ip 16
perf report -D -i "$T/g.data" 2>/dev/null | awk '
	/FP chain: nr:/ { if (c != "") print c; c = ""; inchain = 1; n = $NF; sub("nr:", "", n); if (n == 0) print "-"; next }
	inchain && /^\.\.\.\.\. *[0-9]+: / { v = $NF; sub(/^0+/, "", v); if (v == "") v = "0"
		c = c (c == "" ? "" : ",") "0x" v; next }
	{ if (c != "") print c; c = ""; inchain = 0 }
	END { if (c != "") print c }' | sort >"$T/g.perf"
"$PD" "$T/g.data" | awk '$1 == "sample" { v = "-"; for (i = 2; i <= NF; i++) if ($i ~ /^callchain=/) { v = substr($i, 11); if (v == "") v = "-" } print v }' | sort >"$T/g.ours"
[ -s "$T/g.perf" ] || fail "perf shows no call chains"
assert_files_eq "$T/g.perf" "$T/g.ours" "call chains"
perf script -i "$T/g.data" --show-mmap-events -F tid 2>/dev/null |
	sed -n 's/.*PERF_RECORD_MMAP2 .*(\(0x[0-9a-f]*\)) @ .* <\([0-9a-f]*\)>\]: .* \(.*\)$/\1 \2 \3/p' >"$T/b.perf"
"$PD" "$T/g.data" | sed -n 's/^mmap2 .* len=\([^ ]*\) .* build_id=\([^ ]*\) .* file=\(.*\)$/\1 \2 \3/p' >"$T/b.ours"
[ -s "$T/b.perf" ] || fail "perf shows no build-id MMAP2 records"
assert_files_eq "$T/b.perf" "$T/b.ours" "MMAP2 build-id records"
# 4. breakpoints on shared_pair.a and .b: each writer thread stores LOOPS
#    times to its field and a write breakpoint samples every store (last: it
#    skips where watchpoints do not fire)
require_watchpoints
A=$(nm "$T/target" | awk '$3 == "shared_pair" { print $1 }')
[ -n "$A" ] || fail "no shared_pair in the target"
B=$(printf '%x' $((0x$A + 8)))
LOOPS=300
rec "$T/bp.data" -e "mem:0x$A:w" -e "mem:0x$B:w" -d -- "$T/target" $LOOPS 4
compare_samples "$T/bp.data" tid,addr,ip $((2 * LOOPS))
"$PD" --records "$T/bp.data" | awk '$1 == "sample" { print $2, $5, $7 }' | sort | uniq -c |
	awk -v l=$LOOPS '$1 == l { print $2, $4 }' >"$T/bp.got"
printf 'ev=0 addr=0x%s\nev=1 addr=0x%s\n' "$(echo "$A" | sed 's/^0*//')" "$B" >"$T/bp.want"
assert_files_eq "$T/bp.want" "$T/bp.got" "one thread with $LOOPS samples per field"
"$PD" --info "$T/bp.data" | grep -c "type 5 .* bp 0x[0-9a-f]*/2/" >"$T/bp.n"
assert_eq 2 "$(cat "$T/bp.n")" "two write-breakpoint events"
echo "recordings: ok"
