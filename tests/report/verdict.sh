#!/bin/sh
# The verdict model on real hardware-watchpoint recordings (hitmap record
# --watch, ASLR off) of tests/report/verdict.c, three runs of each scenario:
# padded per-thread counters and one writer are private, a fair ticket
# lock with the counter it guards is true sharing of both, two counters of
# one struct written by two threads are false sharing, and a lock, its
# counter and two per-thread fields on one line are both.  Every run must give the verdicts,
# parts and rules of verdict.golden.  Oracles: the program's own addresses
# (`verdict addrs`), watch-oracle.py over perf script (samples, reads,
# writes, transfers per field) and the 95 % Wilson interval recomputed here
# from the report's transfers and accesses.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require setarch util-linux
require perf linux-perf
require python3 python3
require_watchpoints
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] ||
	skip "cross-CPU line transfers need 2 online CPUs (this machine has 1)"
build_fixture "$RSRC/verdict.c" "$T/verdict" gcc 4 -O2 -pthread -fPIE -pie
NORAND="setarch $(uname -m) -R"
$NORAND "$T/verdict" addrs >"$T/addrs" || fail "verdict addrs"

# Skip only when the kernel refuses hardware breakpoints.
if ! $NORAND "$HITMAP" record -q --watch g_pair.a:w -o "$T/probe.data" -- \
	"$T/verdict" one 1 >"$T/probe.out" 2>&1; then
	grep -q -e "not supported by this kernel" -e "no free debug register" \
		-e "permission denied" "$T/probe.out" &&
		skip "the kernel refuses hardware breakpoint events: $(head -1 "$T/probe.out")"
	cat "$T/probe.out" >&2
	fail "hitmap record --watch failed"
fi

# run NAME N WATCH...: three recordings; per run and line, the deterministic
# part of the verdict (verdict, rule, false and true sharing fields).
run() {
	name=$1 n=$2; shift 2
	for i in 1 2 3; do
		d="$T/$name-$i"
		$NORAND "$HITMAP" record -q "$@" -o "$d.data" -- "$T/verdict" $name $n \
			>/dev/null 2>"$d.rerr" || { cat "$d.rerr" >&2; fail "$name: record"; }
		"$HITMAP" report -i "$d.data" --json >"$d.json" 2>"$d.err" ||
			{ cat "$d.err" >&2; fail "$name: report"; }
		"$HITMAP" report -i "$d.data" >"$d.txt" 2>"$d.err" || fail "$name: text report"
		awk 'length > 80 { exit 1 }' "$d.txt" || fail "$name: text wider than 80 columns"
		perf script -i "$d.data" -F tid,cpu,time,event,ip 2>/dev/null |
			python3 "$RSRC/watch-oracle.py" >"$d.oracle"
		jq_py "$d.json" "'\n'.join('%s %d %d %d %d' % (hex(f['address']), f['counts']['samples'], f['counts']['reads'], f['counts']['writes'], f['counts']['transfers']) for l in d['lines'] for f in l['fields'])" |
			sort >"$d.ours"
		assert_files_eq "$d.oracle" "$d.ours" "$name run $i: samples reads writes transfers per field"
		python3 - "$d.json" "$T/addrs" "$name" <<'PY' || fail "$name run $i: evidence"
import json, math, sys
doc = json.load(open(sys.argv[1]))
addrs = dict(l.split() for l in open(sys.argv[2]))
name = sys.argv[3]
def wilson(k, n, z=1.959964):
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    r = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, (c - r) / d), min(1.0, (c + r) / d)
for line in doc["lines"]:
    e = line["verdict_evidence"]
    fields = line["fields"]
    for f in fields:
        full = f["object"] + "." + f["path"]
        assert hex(f["address"]) == addrs[full], (full, hex(f["address"]), addrs[full])
    assert e["transfers"] == sum(f["counts"]["transfers"] for f in fields)
    assert e["accesses"] == sum(f["counts"]["reads"] + f["counts"]["writes"] for f in fields)
    lo, hi = wilson(e["transfers"], e["accesses"])
    assert math.isclose(lo, e["rate_low"], rel_tol=1e-5, abs_tol=1e-12) and math.isclose(hi, e["rate_high"], rel_tol=1e-5), (lo, hi, e)
    assert e["false_sharing"]["transfers"] + e["true_sharing"]["transfers"] <= e["transfers"]
    print("%s: %s; rule %s; false: %s; true: %s" % (
        name, line["verdict"], line["rule"]["id"],
        ",".join(e["false_sharing"]["fields"]) or "-",
        ",".join(e["true_sharing"]["fields"]) or "-"))
PY
	done
}

{
	run padded 500 --watch g_padded.a:w --watch g_padded.b:w
	run one 1000 --watch g_one.self:w --watch g_one.count
	run lock 300 --watch g_lock.lock:w --watch g_lock.count:w
	run fs 500 --watch g_pair.a:w --watch g_pair.b:w
	run mixed 200 --watch g_mix.lock:w --watch g_mix.count:w --watch g_mix.x:w \
		--watch g_mix.y:w
} >"$T/verdicts" || exit 1
assert_files_eq "$RSRC/verdict.golden" "$T/verdicts" "verdicts of three runs each"

# The text report of the mixed line names both parts and the rule.
grep -q "^Line 1: 0x[0-9a-f]*: false and true sharing$" "$T/mixed-1.txt" ||
	{ cat "$T/mixed-1.txt" >&2; fail "mixed: text verdict"; }
tr '\n' ' ' <"$T/mixed-1.txt" | tr -s ' ' |
	grep -q "false sharing ([0-9]* transfers): g_mix.x, g_mix.y; true sharing ([0-9]* transfers): g_mix.lock, g_mix.count" ||
	{ cat "$T/mixed-1.txt" >&2; fail "mixed: text parts"; }
grep -q "^  rule: 5 or more transfers" "$T/mixed-1.txt" || fail "mixed: text rule"
exit 0
