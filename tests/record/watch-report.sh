#!/bin/sh
# Watch mode end to end: `hitmap record --watch` then `hitmap report` on the
# three variants of tests/record/counters.c (N writes and R reads per worker,
# the two workers pinned to different CPUs):
#  - two counters on one line: false sharing naming g.a and g.b, with line
#    transfers in the thousands (the coherence model counts an access by a
#    CPU to a line last written by another CPU: with the workers
#    interleaving, a large share of the 2N writes);
#  - padded (-DPADDED): each line is touched by one thread on one CPU, so
#    no transfer at all and no sharing verdict ("private"; a smaller N
#    suffices);
#  - one shared counter (-DSHARED): true sharing, transfers in the thousands.
# Bounds: a transfer needs an access, so transfers <= 2N + 2R.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/record/lib-watch.sh"
require python3 python3

[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] ||
	skip "cross-CPU line transfers need 2 online CPUs (this machine has 1)"

N=20000 R=5

# verdicts NAME BINARY N WATCH...: record, report --json, print
# "verdict transfers fields" per line with samples.
verdicts() {
	name=$1 bin=$2 n=$3; shift 3
	"$HITMAP" record -q "$@" -o "$T/$name.data" -- "$bin" $n $R ||
		fail "$name: record failed"
	"$HITMAP" report --json -i "$T/$name.data" >"$T/$name.json" 2>"$T/$name.err" ||
		{ cat "$T/$name.err" >&2; fail "$name: report failed"; }
	python3 - "$T/$name.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["schema"] == "hitmap/1" and doc["kind"] == "watch", doc.get("kind")
for line in doc["lines"]:
    names = sorted({f["path"] for f in line["fields"] if f["counts"]["samples"]})
    print(line["verdict"], line["counts"]["transfers"], ",".join(names))
PY
}

build_counters "$T/fs" gcc 5
require_breakpoints "$T/fs"
build_counters "$T/padded" gcc 5 -DPADDED
build_counters "$T/shared" gcc 5 -DSHARED

verdicts fs "$T/fs" $N --watch g.a --watch g.b >"$T/fs.out" || fail "fs: json"
assert_eq 1 "$(wc -l <"$T/fs.out" | tr -d ' ')" "fs: one line"
read -r v1 v2 x fields <"$T/fs.out"
assert_eq "false sharing" "$v1 $v2" "fs: verdict"
assert_eq "a,b" "$fields" "fs: fields"
[ "$x" -ge 1000 ] && [ "$x" -le $((2*N + 2*R)) ] ||
	fail "fs: $x transfers, want 1000..$((2*N + 2*R))"

verdicts padded "$T/padded" 2000 --watch g.a --watch g.b >"$T/padded.out" || fail "padded: json"
assert_eq 2 "$(wc -l <"$T/padded.out" | tr -d ' ')" "padded: two lines"
assert_eq "private 0 a
private 0 b" "$(cat "$T/padded.out")" "padded: verdicts and transfers"

verdicts shared "$T/shared" $N --watch g.a >"$T/shared.out" || fail "shared: json"
assert_eq 1 "$(wc -l <"$T/shared.out" | tr -d ' ')" "shared: one line"
read -r v1 v2 x fields <"$T/shared.out"
assert_eq "true sharing" "$v1 $v2" "shared: verdict"
assert_eq a "$fields" "shared: field"
[ "$x" -ge 1000 ] && [ "$x" -le $((2*N + 2*R)) ] ||
	fail "shared: $x transfers, want 1000..$((2*N + 2*R))"
exit 0
