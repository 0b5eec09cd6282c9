#!/bin/sh
# PMU mode's recording machinery (per-CPU ring buffers, inherit to threads,
# -a, -p, COMM/MMAP2 synthesis, the perf.data) exercised on any machine with
# a software event given through -e (libpfm4's PERF_COUNT_SW_TASK_CLOCK,
# which is not a memory event, so no data_src).  `perf script` is the oracle:
# it must read every sample hitmap says it wrote, with the command's name.
. "$top_srcdir/tests/lib.sh"
require perf linux-perf

build_fixture "$TESTS_SRC/record/spin.c" "$T/spin" gcc 5 -O1 -pthread
EV="-e PERF_COUNT_SW_TASK_CLOCK -c 1000000"	# one sample per ms of CPU

# summary_samples ERRFILE: the sample count of hitmap's summary line.
summary_samples() {
	sed -n 's/^hitmap record: \([0-9]*\) samples, \([0-9]*\) lost.*/\1 \2/p' "$1"
}

# A command: every sample is the command's, from both of its threads.
"$HITMAP" record $EV -o "$T/cmd.data" -- "$T/spin" 100000000 2>"$T/cmd.err" ||
	{ cat "$T/cmd.err" >&2; fail "record -- CMD"; }
set -- $(summary_samples "$T/cmd.err")
n=$1
assert_eq 0 "$2" "-- CMD: lost samples"
[ "$n" -gt 0 ] || fail "-- CMD: no samples"
perf script -f -i "$T/cmd.data" -F comm,tid >"$T/cmd.txt" 2>"$T/cmd.perr" ||
	{ cat "$T/cmd.perr" >&2; fail "-- CMD: perf script"; }
assert_eq "$n" "$(wc -l <"$T/cmd.txt" | tr -d ' ')" "-- CMD: perf script sample count"
assert_eq spin "$(awk '{ print $1 }' "$T/cmd.txt" | sort -u)" "-- CMD: command name"
assert_eq 2 "$(awk '{ print $2 }' "$T/cmd.txt" | sort -u | wc -l | tr -d ' ')" "-- CMD: threads"
# The attr as perf reads it back: what c2c needs, plus ID and side-band.
perf report -f --header-only -i "$T/cmd.data" >"$T/hdr.txt" 2>/dev/null || fail "header"
grep -q "sample_type = IP|TID|TIME|ADDR|ID|CPU|PERIOD|DATA_SRC|PHYS_ADDR," "$T/hdr.txt" ||
	{ grep "event :" "$T/hdr.txt" >&2; fail "sample_type in the header"; }
grep -q "inherit = 1" "$T/hdr.txt" || fail "events not inherited"
grep -q "mmap2 = 1" "$T/hdr.txt" || fail "no mmap2 tracking"
perf report -f -D -i "$T/cmd.data" 2>/dev/null | grep -q "PERF_RECORD_MMAP2 .*r-xp $T/spin" ||
	fail "no MMAP2 record of the command"

# perf c2c report opens it and counts every sample as a record.
perf c2c report -f -i "$T/cmd.data" --stdio >"$T/c2c.txt" 2>"$T/c2c.err" ||
	{ cat "$T/c2c.err" >&2; fail "perf c2c report cannot read the file"; }
assert_eq "$n" "$(sed -n 's/^ *Total records *: *\([0-9]*\)$/\1/p' "$T/c2c.txt")" \
	"perf c2c report: total records"

# -p: an existing process, until it exits.
"$T/spin" 400000000 &
pid=$!
sleep 0.1
"$HITMAP" record $EV -p $pid -o "$T/pid.data" 2>"$T/pid.err" ||
	{ cat "$T/pid.err" >&2; fail "record -p"; }
wait $pid
perf script -f -i "$T/pid.data" -F pid,comm >"$T/pid.txt" 2>/dev/null || fail "-p: perf script"
assert_eq "$(summary_samples "$T/pid.err" | cut -d' ' -f1)" "$(wc -l <"$T/pid.txt" | tr -d ' ')" \
	"-p: perf script sample count"
assert_eq "spin $pid" "$(awk '{ print $1, $2 }' "$T/pid.txt" | sort -u)" "-p: only that process"

# -a with a command: every CPU while the command runs; the command is there.
"$HITMAP" record -q -a $EV -o "$T/all.data" -- "$T/spin" 100000000 || fail "record -a"
perf script -f -i "$T/all.data" -F comm >"$T/all.txt" 2>/dev/null || fail "-a: perf script"
grep -q "spin" "$T/all.txt" || fail "-a: no sample of the command"

# Bad -e and no command.
assert_exit 2 "-p with a command" "$HITMAP" record $EV -p 1 -- true
assert_exit 3 "-p of no process" "$HITMAP" record $EV -p 999999999 -o "$T/none.data"
exit 0
