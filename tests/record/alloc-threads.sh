#!/bin/sh
# Allocation tracking in threads created after the recording starts
# (tests/record/alloc-threads.c): four threads, started one by one after a
# delay, each allocate their own object with malloc, calloc, posix_memalign
# and aligned_alloc.  `hitmap record --alloc --watch` on the four objects,
# then `hitmap report` must name each object's allocation site, checked
# against what the fixture prints (address, sizeof, __LINE__ of the call)
# and against perf's own reading of the file (`perf script`: each call's
# return in the fixture's function, from the thread's tid, and the block
# in %ax — for posix_memalign, in the one register its store probe samples).
# The probes must be gone from tracefs afterwards.
. "$top_srcdir/tests/lib.sh"
require python3 python3
require perf linux-perf
require setarch util-linux
require unshare util-linux
require_watchpoints
[ -r /sys/bus/event_source/devices/uprobe/type ] ||
	skip "the kernel has no uprobe PMU (/sys/bus/event_source/devices/uprobe)"
require_tracefs
[ -w $TRACEFS/uprobe_events ] ||
	skip "no writable $TRACEFS/uprobe_events (tracefs, root): new threads cannot be probed"
N=2000

# A recorder killed outright leaves its probes in tracefs; the next one
# removes them (below, after the first recording).
bin="$T/threads-gcc"
build_fixture "$TESTS_SRC/record/alloc-threads.c" "$bin" gcc 5 -O1 -pthread
addr=$(setarch -R "$bin" 1 | awk 'NR == 1 { print $3 }')
setarch -R "$HITMAP" record -q --alloc --watch "$addr/8:w" -o "$T/killed.data" -- \
	"$bin" 100000000 >/dev/null 2>&1 &
kpid=$!
i=0
while [ ! -d "$TRACEFS/events/hitmap_alloc_$kpid" ] && [ $i -lt 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
child=$(pgrep -P $kpid || true)
kill -9 $kpid
wait $kpid 2>/dev/null || true
for c in $child; do kill -9 "$c" 2>/dev/null || true; done
[ -d "$TRACEFS/events/hitmap_alloc_$kpid" ] ||
	fail "no group hitmap_alloc_$kpid in tracefs while that recorder ran"

for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	bin="$T/threads-$cc"
	build_fixture "$TESTS_SRC/record/alloc-threads.c" "$bin" $cc 5 -O1 -pthread
	setarch -R "$bin" 1 >"$T/$cc.first" || fail "$cc: fixture failed"
	[ "$(wc -l <"$T/$cc.first")" -eq 4 ] || fail "$cc: fixture printed '$(cat "$T/$cc.first")'"
	watches=$(awk '{ printf " --watch %s/8:w", $3 }' "$T/$cc.first")
	set +e
	# shellcheck disable=SC2086
	setarch -R "$HITMAP" record --alloc $watches -o "$T/$cc.data" -- "$bin" $N \
		>"$T/$cc.out" 2>"$T/$cc.err" &
	hpid=$!
	wait $hpid
	rc=$?
	set -e 2>/dev/null; set +e
	if [ $rc -ne 0 ]; then
		grep -q -e "not supported by this kernel" -e "permission denied" \
			-e "no free debug register" "$T/$cc.err" &&
			skip "the kernel refuses the events: $(head -1 "$T/$cc.err")"
		cat "$T/$cc.err" >&2
		fail "$cc: hitmap record --alloc failed"
	fi
	! grep -q "first threads only" "$T/$cc.err" || fail "$cc: $(cat "$T/$cc.err")"
	! grep -q "posix_memalign not probed" "$T/$cc.err" || fail "$cc: $(cat "$T/$cc.err")"
	assert_eq "$(cat "$T/$cc.first")" "$(cat "$T/$cc.out")" "$cc: the blocks moved between runs"
	[ ! -e "$TRACEFS/events/hitmap_alloc_$hpid" ] ||
		fail "$cc: the probes of hitmap_alloc_$hpid were left in tracefs"
	[ ! -e "$TRACEFS/events/hitmap_alloc_$kpid" ] ||
		fail "$cc: the probes of the killed recorder (hitmap_alloc_$kpid) were not removed"

	perf script -i "$T/$cc.data" -F pid,tid,event,ip,sym >"$T/$cc.script" 2>"$T/$cc.perr" ||
		{ cat "$T/$cc.perr" >&2; fail "$cc: perf script cannot read the file"; }
	# The register each call's block is in, as perf dumps it: %ax at a
	# return, the lone register of posix_memalign's store.
	perf script -D -i "$T/$cc.data" 2>/dev/null | awk '
		$1 == "...." && $2 ~ /^[A-Z0-9]+$/ { last = $3; if ($2 == "AX") ax = $3 }
		/ hitmap_alloc:[a-z_]+__return: *$/ { e = $NF; sub(/^hitmap_alloc:/, "", e); sub(/:$/, "", e); print e, ax }
		/ hitmap_alloc:posix_memalign__store: *$/ { print "posix_memalign__store", last }' \
		>"$T/$cc.regs"
	"$HITMAP" report -i "$T/$cc.data" >"$T/$cc.txt" 2>"$T/$cc.rerr" ||
		{ cat "$T/$cc.rerr" >&2; fail "$cc: report failed"; }
	"$HITMAP" report --json -i "$T/$cc.data" >"$T/$cc.json" || fail "$cc: report --json"
	python3 - "$T/$cc.first" "$T/$cc.script" "$T/$cc.regs" "$T/$cc.txt" "$T/$cc.json" $N \
		<<'PY' || fail "$cc: see above"
import json, re, sys
first, script, regs, txt, js, n = sys.argv[1:6] + [int(sys.argv[6])]
objs = []
for l in open(first):
    _, i, addr, _, size, _, line, _, func = l.split()
    objs.append((int(addr, 16), int(size), line, func))

# perf script: "PID/TID event:" then the IP line, "\t ADDR SYM".
calls, lines = [], open(script).read().splitlines()
for k, l in enumerate(lines):
    m = re.match(r"\s*(\d+)/(\d+)\s+hitmap_alloc:(\w+):", l)
    if m:
        sym = lines[k + 1].split()[1] if k + 1 < len(lines) and len(lines[k + 1].split()) > 1 else ""
        calls.append((int(m.group(1)), int(m.group(2)), m.group(3), sym))
dump = [l.split() for l in open(regs)]
for addr, size, line, func in objs:
    rets = [c for c in calls if c[2] == func + "__return" and c[3] == "new_by_" + func]
    assert len(rets) == 1, (func, rets)
    pid, tid = rets[0][:2]
    assert tid != pid, "%s: returned on the main thread %d, not a new one" % (func, tid)
    ev = func + ("__store" if func == "posix_memalign" else "__return")
    vals = [int(v, 16) for e, v in dump if e == ev]
    assert addr in vals, (func, hex(addr), [hex(v) for v in vals])

text = open(txt).read()
doc = json.load(open(js))
rows = {f["object"]: f for l in doc["lines"] for f in l["fields"]
        if f["object"] and f["object"].startswith("obj@")}
for addr, size, line, func in objs:
    want = "allocated at new_by_%s\\+0x[0-9a-f]+ \\(alloc-threads\\.c:%s\\) by %s, %d bytes at %#x" % (
        func, line, func, size, addr)
    assert re.search(want, text), "text: no line " + want
    f = rows.get("obj@%#x" % addr)
    assert f, ("no row for obj@%#x" % addr, sorted(rows))
    al = f["allocation"]
    assert (al["blocks"], al["base"], al["size"], al["function"]) == (1, addr, size, func), al
    assert re.fullmatch(r"new_by_%s\+0x[0-9a-f]+ \(alloc-threads\.c:%s\)" % (func, line), al["site"]), al
    # The thread's N writes (and show()'s memset, when it is seen as obj's).
    loc = [x["samples"] for x in f["locations"] if x["location"].startswith("worker+")]
    assert f["path"] == "hits" and loc == [n], (f["path"], f["locations"])
    assert f["counts"]["writes"] == sum(x["samples"] for x in f["locations"]), f
PY
done

# Without tracefs (hidden by a mount namespace of the recorder's own) the
# uprobe PMU's events are used, which new threads cannot inherit: the
# summary says so, and no thread's allocation is in the file.
bin="$T/threads-gcc"
setarch -R "$bin" 1 >"$T/pmu.first" || fail "pmu: fixture failed"
watches=$(awk '{ printf " --watch %s/8:w", $3 }' "$T/pmu.first")
# shellcheck disable=SC2016
unshare -m --propagation private sh -c '
	mount -t tmpfs none /sys/kernel/tracing || exit 99
	if [ -d /sys/kernel/debug/tracing ]; then mount -t tmpfs none /sys/kernel/debug || exit 99; fi
	shift; exec "$@"' sh x setarch -R "$HITMAP" record --alloc $watches -o "$T/pmu.data" -- \
	"$bin" $N >"$T/pmu.out" 2>"$T/pmu.err"
rc=$?
[ $rc -ne 99 ] || skip "cannot hide tracefs in a mount namespace (unshare -m)"
[ $rc -eq 0 ] || { cat "$T/pmu.err" >&2; fail "pmu: hitmap record --alloc failed"; }
grep -q "allocator probes on the first threads only" "$T/pmu.err" ||
	{ cat "$T/pmu.err" >&2; fail "pmu: the summary does not say new threads are not probed"; }
perf script -i "$T/pmu.data" -F tid,event,ip,sym >"$T/pmu.script" 2>"$T/pmu.perr" ||
	{ cat "$T/pmu.perr" >&2; fail "pmu: perf script cannot read the file"; }
grep -q "hitmap_alloc:calloc__return:" "$T/pmu.script" ||
	fail "pmu: not even the main thread's calls were recorded"
! grep -q " new_by_" "$T/pmu.script" || fail "pmu: a new thread's call was recorded"
"$HITMAP" report -i "$T/pmu.data" >"$T/pmu.txt" 2>/dev/null || fail "pmu: report failed"
! grep -q "allocated at new_by_" "$T/pmu.txt" || fail "pmu: report names a new thread's site"
