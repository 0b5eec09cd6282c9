#!/bin/sh
# Allocation tracking end to end: `hitmap record --alloc --watch` on a heap
# object that two threads write (tests/record/alloc.c), then `hitmap report`
# must name the block's allocation site, bounds and allocator, checked
# against what the fixture prints about its own allocation (address, sizeof,
# __LINE__ of the calloc call) and against perf's own reading of the file
# (`perf script`: the calloc return sample's symbol and %ax).
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/record/lib-watch.sh"
require python3 python3
require perf linux-perf
require setarch util-linux
require_watchpoints
[ -r /sys/bus/event_source/devices/uprobe/type ] ||
	skip "the kernel has no uprobe PMU (/sys/bus/event_source/devices/uprobe)"
N=500

for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	bin="$T/alloc-$cc"
	build_fixture "$TESTS_SRC/record/alloc.c" "$bin" $cc 5 -O1 -pthread
	# The oracle run: where the block is, how big, allocated on which line.
	setarch -R "$bin" 1 >"$T/$cc.first" || fail "$cc: fixture failed"
	read -r _ addr _ size _ line <"$T/$cc.first"
	[ -n "$line" ] || fail "$cc: fixture printed '$(cat "$T/$cc.first")'"
	set +e
	setarch -R "$HITMAP" record -q --alloc --watch "$addr/16:w" -o "$T/$cc.data" -- \
		"$bin" $N >"$T/$cc.out" 2>"$T/$cc.err"
	rc=$?
	set -e 2>/dev/null; set +e
	if [ $rc -ne 0 ]; then
		grep -q -e "not supported by this kernel" -e "permission denied" "$T/$cc.err" &&
			skip "the kernel refuses the events: $(head -1 "$T/$cc.err")"
		cat "$T/$cc.err" >&2
		fail "$cc: hitmap record --alloc failed"
	fi
	assert_eq "$(cat "$T/$cc.first")" "$(cat "$T/$cc.out")" "$cc: the block moved between runs"

	# perf reads the file: the allocator's events by name, the return's IP
	# in flow_new and %ax (perf's own dump of the registers) the block.
	perf script -i "$T/$cc.data" -F tid,event,ip,sym >"$T/$cc.script" 2>"$T/$cc.perr" ||
		{ cat "$T/$cc.perr" >&2; fail "$cc: perf script cannot read the file"; }
	grep -q "hitmap_alloc:free:" "$T/$cc.script" || fail "$cc: perf script shows no free"
	grep -A1 "hitmap_alloc:calloc__return:" "$T/$cc.script" >"$T/$cc.ret"
	grep -q " flow_new$" "$T/$cc.ret" || { cat "$T/$cc.ret" >&2; fail "$cc: perf: not in flow_new"; }
	perf script -D -i "$T/$cc.data" 2>/dev/null |
		awk '$2 == "AX" { ax = $3 } /hitmap_alloc:calloc__return:/ { print ax }' >"$T/$cc.ax"
	grep -qx "0x0*${addr#0x}" "$T/$cc.ax" ||
		{ cat "$T/$cc.ax" >&2; fail "$cc: perf: no calloc returned $addr"; }
	# N by the thread, one by calloc's zeroing, one by free's bookkeeping.
	[ "$(grep -c "mem:$addr/8:w" "$T/$cc.script")" -ge $N ] ||
		fail "$cc: perf: want at least $N writes of flow.a"

	"$HITMAP" report -i "$T/$cc.data" >"$T/$cc.txt" 2>"$T/$cc.rerr" ||
		{ cat "$T/$cc.rerr" >&2; fail "$cc: report failed"; }
	grep -q "allocated at flow_new+0x[0-9a-f]* (alloc.c:$line) by calloc, $size bytes at $addr$" \
		"$T/$cc.txt" || { cat "$T/$cc.txt" >&2; fail "$cc: report: no allocation site"; }
	"$HITMAP" report --json -i "$T/$cc.data" >"$T/$cc.json" || fail "$cc: report --json"
	python3 - "$T/$cc.json" "$addr" "$size" "$line" "$N" <<'PY' || fail "$cc: report --json"
import json, re, sys
doc = json.load(open(sys.argv[1]))
addr, size, line, n = int(sys.argv[2], 16), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
# The allocator's samples are not memory samples.
assert doc["samples"] >= 2 * n and doc["buckets"]["no-addr"] == 0, (doc["samples"], doc["buckets"])
rows = [f for l in doc["lines"] for f in l["fields"] if f["object"] and f["object"].startswith("flow@")]
assert sorted(f["path"] for f in rows) == ["a", "b"], [f["path"] for f in rows]
for f in rows:
    al = f["allocation"]
    assert (al["blocks"], al["base"], al["size"], al["function"]) == (1, addr, size, "calloc"), al
    assert re.fullmatch(r"flow_new\+0x[0-9a-f]+ \(alloc\.c:%s\)" % line, al["site"]), al["site"]
    assert f["counts"]["writes"] == n, f["counts"]
PY
done

# A block freed and its address handed out again by another call: both
# blocks held the watched fields, so no site is evidence for them.
bin="$T/alloc-gcc"
setarch -R "$bin" 1 reuse >"$T/reuse.first" || fail "reuse: fixture failed"
addr1=$(awk '$1 == "flow" { print $2 }' "$T/reuse.first")
addr2=$(awk '$1 == "again" { print $2 }' "$T/reuse.first")
[ "$addr1" = "$addr2" ] || fail "reuse: glibc did not reuse the block ($addr1, then $addr2)"
setarch -R "$HITMAP" record -q --alloc --watch "$addr1/16:w" -o "$T/reuse.data" -- \
	"$bin" $N reuse >"$T/reuse.out" 2>"$T/reuse.err" ||
	{ cat "$T/reuse.err" >&2; fail "reuse: record failed"; }
assert_eq "$(cat "$T/reuse.first")" "$(cat "$T/reuse.out")" "reuse: the blocks moved between runs"
"$HITMAP" report -i "$T/reuse.data" >"$T/reuse.txt" || fail "reuse: report failed"
grep -q "in 2 heap blocks of different sites or sizes" "$T/reuse.txt" ||
	{ cat "$T/reuse.txt" >&2; fail "reuse: the reused address was not called ambiguous"; }
! grep -q "allocated at" "$T/reuse.txt" || fail "reuse: a site was named for a reused address"
"$HITMAP" report --json -i "$T/reuse.data" >"$T/reuse.json" || fail "reuse: report --json"
python3 - "$T/reuse.json" <<'PY' || fail "reuse: report --json"
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [f for l in doc["lines"] for f in l["fields"] if f["object"] and f["object"].startswith("flow@")]
assert rows and all(f["allocation"] == {"blocks": 2} for f in rows), [f.get("allocation") for f in rows]
PY
