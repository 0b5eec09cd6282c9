#!/bin/sh
# What an unprivileged user gets, with kernel.perf_event_paranoid as it is
# here: watch mode (user space of a process one owns) works up to paranoid 2;
# CPU-wide recording needs 0 or lower, and the error says so.  Run as root,
# the test drops to nobody with setpriv; run as a user, it runs as that user.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/record/lib-watch.sh"

par=$(cat /proc/sys/kernel/perf_event_paranoid)
[ "$par" -ge 1 ] || skip "kernel.perf_event_paranoid is $par: every user may record CPU-wide"
if [ "$(id -u)" = 0 ]; then
	require setpriv util-linux
	as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
else
	as_user() { "$@"; }
fi
chmod 755 "$T"
mkdir -m 777 "$T/u"
as_user test -x "$HITMAP" || skip "$HITMAP is not reachable by an unprivileged user"

# CPU-wide: refused, naming the level needed.
assert_exit 3 "-a unprivileged" as_user "$HITMAP" record -a -e PERF_COUNT_SW_TASK_CLOCK \
	-o "$T/u/a.data" -- true
assert_eq "error: PERF_COUNT_SW_TASK_CLOCK: permission denied (kernel.perf_event_paranoid is $par; CPU-wide recording needs 0 or lower, or CAP_PERFMON: sysctl kernel.perf_event_paranoid=0)" \
	"$(cat "$T/err")" "-a: message"
[ ! -e "$T/u/a.data" ] || fail "-a: output file left behind"

# Watch mode on one's own process: allowed up to paranoid 2.
if [ "$par" -le 2 ]; then
	require_watchpoints
	build_counters "$T/c" gcc 5
	as_user "$HITMAP" record -q --watch g.a --watch g.b -o "$T/u/w.data" -- "$T/c" 100 1 ||
		fail "watch mode as an unprivileged user"
	[ -s "$T/u/w.data" ] || fail "watch mode: no output"
fi
exit 0
