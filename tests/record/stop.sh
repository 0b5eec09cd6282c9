#!/bin/sh
# hitmap record stops when asked while its command runs, and a recorder
# killed outright leaves a file that reads up to its last flush:
#  - --duration 2 over a command that never ends returns within 3 s;
#  - SIGINT and SIGTERM to hitmap record alone stop it, the command is sent
#    SIGINT, the file is complete;
#  - SIGKILL after 2 s leaves a file whose samples perf script and report
#    both read (the same number);
#  - -o over an existing file keeps it as FILE.old, the file is 0600;
#  - record -p of no process: one error line.
# Timer mode, which records on any machine perf works on.  Oracle: perf
# script, and the command's own pid (it is gone, or was orphaned).
. "$top_srcdir/tests/lib.sh"
require perf linux-perf
build_fixture "$TESTS_SRC/record/forever.c" "$T/forever" "${CC:-gcc}" 5 -O1

perf record -q -e task-clock -c 100000 -o "$T/probe.data" -- true >/dev/null 2>"$T/probe.err" ||
	{ cat "$T/probe.err" >&2; skip "perf record of task-clock fails here"; }

# Whatever fails, no recorder or command of this test outlives it.
rec=
reap() {
	[ -z "$rec" ] || kill -KILL $rec 2>/dev/null
	for f in "$T"/*.pid; do
		[ -s "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null
	done
	return 0
}
trap 'x=$?; reap; (exit $x); hm_cleanup' EXIT

ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# samples FILE: perf script's count of its samples, and it reads the file.
samples() {
	perf script -i "$1" -F ip >"$T/ps.out" 2>"$T/ps.err" ||
		{ cat "$T/ps.err" >&2; fail "perf script cannot read $1"; }
	wc -l <"$T/ps.out" | tr -d ' '
}

# gone PIDFILE: the command ran and is no longer running.
gone() {
	[ -s "$1" ] || fail "the command never ran"
	p=$(cat "$1")
	for i in $(seq 1 20); do
		kill -0 "$p" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$p"
	fail "the command $p still runs"
}

# --duration with a command that never ends.
t0=$(date +%s%N)
"$HITMAP" record --timer --duration 2 -o "$T/d.data" -- "$T/forever" "$T/d.pid" 2>"$T/d.err"
rc=$?
t=$(ms "$t0")
echo "record --duration 2 -- forever: returned after $t ms" >&2
[ $rc -eq 0 ] || { cat "$T/d.err" >&2; fail "--duration 2: exit $rc"; }
[ "$t" -lt 6000 ] || fail "--duration 2 took $t ms"
gone "$T/d.pid"
grep -q "stopped; the command was sent SIGINT" "$T/d.err" || { cat "$T/d.err" >&2; fail "--duration: the summary"; }
n=$(samples "$T/d.data")
[ "$n" -gt 0 ] || fail "--duration 2: no sample"
[ "$(stat -c %a "$T/d.data")" = 600 ] || fail "the recording is not mode 0600: $(stat -c %a "$T/d.data")"

# start NAME [OPTIONS]: record forever in the background until it records.
start() {
	name=$1; shift
	"$HITMAP" record --timer "$@" -o "$T/$name.data" -- "$T/forever" "$T/$name.pid" \
		2>"$T/$name.err" &
	rec=$!
	for i in $(seq 1 100); do
		grep -q "^hitmap record: recording" "$T/$name.err" && [ -s "$T/$name.pid" ] && return 0
		kill -0 $rec 2>/dev/null || break
		sleep 0.1
	done
	cat "$T/$name.err" >&2
	fail "$name: record did not start"
}

# A signal to hitmap record alone (not the command's process group).
for sig in INT TERM; do
	start $sig
	sleep 1
	t0=$(date +%s%N)
	kill -$sig $rec
	wait $rec
	rc=$?
	t=$(ms "$t0")
	echo "SIG$sig to record: stopped after $t ms" >&2
	[ $rc -eq 0 ] || { cat "$T/$sig.err" >&2; fail "SIG$sig: exit $rc"; }
	[ "$t" -lt 3000 ] || fail "SIG$sig: stopping took $t ms"
	gone "$T/$sig.pid"
	n=$(samples "$T/$sig.data")
	[ "$n" -gt 0 ] || fail "SIG$sig: no sample"
	grep -q "^hitmap record: wrote $T/$sig.data" "$T/$sig.err" || { cat "$T/$sig.err" >&2; fail "SIG$sig: no summary"; }
	"$HITMAP" report -i "$T/$sig.data" >"$T/$sig.rep" 2>"$T/rep.err" ||
		{ cat "$T/rep.err" >&2; fail "SIG$sig: report of the stopped recording"; }
	assert_eq "$n address samples" "$(sed -n 2p "$T/$sig.rep")" "SIG$sig: report's samples"
done

# SIGKILL: the file reads up to the last flush, for perf and for report.
start KILL
sleep 2
kill -KILL $rec
wait $rec
kill -KILL "$(cat "$T/KILL.pid")" 2>/dev/null	# the orphaned command
n=$(samples "$T/KILL.data")
echo "SIGKILL after 2 s: perf script reads $n samples" >&2
[ "$n" -gt 0 ] || fail "SIGKILL: no sample"
"$HITMAP" report -i "$T/KILL.data" >"$T/KILL.rep" 2>"$T/rep.err" ||
	{ cat "$T/rep.err" >&2; fail "SIGKILL: report of the killed recording"; }
cat "$T/rep.err" >&2
assert_eq "$n address samples" "$(sed -n 2p "$T/KILL.rep")" "SIGKILL: report's samples"

# -o over an existing file: the old one is kept as FILE.old, untouched
# until the new one is complete.
echo old >"$T/o.data"
"$HITMAP" record --timer -q --duration 1 -o "$T/o.data" -- "$T/forever" "$T/o.pid" ||
	fail "record over an existing file"
assert_eq old "$(cat "$T/o.data.old")" "the older recording, kept"
[ ! -e "$T/o.data.partial" ] || fail "the partial file is left"
[ "$(samples "$T/o.data")" -gt 0 ] || fail "the new recording"
[ "$(stat -c %a "$T/o.data")" = 600 ] || fail "the renamed recording is not 0600"
# killed: the existing file is whole, the partial one beside it reads too
echo old >"$T/ko.data"
"$HITMAP" record --timer -q -o "$T/ko.data" -- "$T/forever" "$T/ko.pid" 2>/dev/null &
rec=$!
for i in $(seq 1 50); do [ -s "$T/ko.pid" ] && break; sleep 0.1; done
sleep 1
kill -KILL $rec
wait $rec
kill -KILL "$(cat "$T/ko.pid")" 2>/dev/null
assert_eq old "$(cat "$T/ko.data")" "a killed recording leaves the existing file"
[ "$(samples "$T/ko.data.partial")" -gt 0 ] || fail "the partial recording of a killed recorder"

# record -p of no process: exit 3, one line.
for opts in "--timer" "--watch g"; do
	assert_exit 3 "record $opts -p of no process" "$HITMAP" record $opts -p 999999999 -o "$T/p.data"
	assert_eq 1 "$(wc -l <"$T/err" | tr -d ' ')" "record $opts -p of no process: one error line"
	grep -q "^error: process 999999999: no such process$" "$T/err" ||
		{ cat "$T/err" >&2; fail "record $opts -p: the message"; }
done
exit 0
