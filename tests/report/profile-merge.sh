#!/bin/sh
# hitmap profile merge on real recordings: three runs of the seed program
# (two threads writing g_stats.hits and g_stats.misses, 300, 500 and 700
# iterations) with hardware watchpoints, each saved by report
# --save-profile.  The oracle is `perf script` of each recording through
# watch-oracle.py: the merged profile's samples, reads, writes and transfers
# of each field must be the sum of the three runs' oracle numbers.  check and
# suggest take the merged profile.  Profiles that do not match (another
# build-id for the same file, another data kind, a field elsewhere) are
# refused, naming both inputs, unless --force.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require_watchpoints
require setarch util-linux
require python3 python3
build_seed gcc "$T/seed"
A=$(hex $(($PIE_BASE + $(sym_addr "$T/seed" g_stats))))
B=$(hex $(($A + 8)))

: >"$T/oracle-all"
for n in 300 500 700; do
	if ! untrapped setarch "$(uname -m)" -R perf record -q --sample-cpu -e mem:$A:rw -e mem:$B:rw \
		-o "$T/r$n.data" -- "$T/seed" false $n >"$T/rec.out" 2>"$T/rec.err"; then
		grep -qi "not supported\|permission\|no such device\|Operation not" "$T/rec.err" &&
			skip "the kernel refuses hardware breakpoint events: $(head -1 "$T/rec.err")"
		cat "$T/rec.err" >&2
		fail "perf record failed"
	fi
	"$HITMAP" report -i "$T/r$n.data" --save-profile "$T/r$n.json" >/dev/null ||
		fail "report --save-profile r$n.data"
	perf script -i "$T/r$n.data" -F tid,cpu,time,event,ip 2>/dev/null |
		python3 "$RSRC/watch-oracle.py" >>"$T/oracle-all"
done
# the oracle's sums per field: hits is A, misses A + 8
awk -v a=$A '{ f = $1 == a ? "hits" : "misses"
	s[f] += $2; r[f] += $3; w[f] += $4; x[f] += $5 }
	END { for (f in s) print f, s[f], r[f], w[f], x[f] }' "$T/oracle-all" | sort >"$T/want"
[ "$(wc -l <"$T/want")" = 2 ] || { cat "$T/oracle-all" >&2; fail "oracle: two fields"; }

assert_exit 0 "merge" "$HITMAP" profile merge "$T/r300.json" "$T/r500.json" "$T/r700.json" \
	-o "$T/m.json"
fields() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
s = [s for s in d["structs"] if s["name"] == "stats"][0]
for f in s["fields"]:
    print(f["path"], f["samples"], f["reads"], f["writes"], f["transfers"])' "$1" | sort
}
fields "$T/m.json" >"$T/got"
assert_files_eq "$T/want" "$T/got" "merged counters = sum of perf script over the runs"

# pairs and CPU sets: sums and unions of the inputs; builds kept
python3 - "$T" <<'PY' || fail "merged pairs, cpus, builds"
import json, os, sys
t = sys.argv[1]
ins = [json.load(open(os.path.join(t, "r%d.json" % n))) for n in (300, 500, 700)]
m = json.load(open(os.path.join(t, "m.json")))
st = lambda d: [s for s in d["structs"] if s["name"] == "stats"][0]
assert m["source"]["samples"] == sum(d["source"]["samples"] for d in ins)
key = lambda p: (p["a"], p["b"])
want = {}
for d in ins:
    for p in st(d)["pairs"]:
        w = want.setdefault(key(p), [0, 0, set()])
        w[0] += p["samples"]; w[1] += p["transfers"]; w[2] |= set(p["cpus"])
got = {key(p): [p["samples"], p["transfers"], set(p["cpus"])] for p in st(m)["pairs"]}
assert got == want and got, (got, want)
for f in st(m)["fields"]:
    u = set()
    for d in ins:
        u |= set(c for g in st(d)["fields"] if g["path"] == f["path"] for c in g["cpus"])
    assert set(f["cpus"]) == u, (f, u)
b = m["source"]["builds"]
assert any(x["file"].endswith("/seed") for x in b), b
assert b == ins[0]["source"]["builds"], (b, ins[0]["source"]["builds"])
PY

# check and suggest read the merged profile: the pair's weight is the sum
w=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
p = [s for s in d["structs"] if s["name"] == "stats"][0]["pairs"][0]
print(p["hitm"] or p["transfers"] or p["samples"])' "$T/m.json")
assert_exit 1 "check --profile merged" "$HITMAP" check --profile "$T/m.json" "$T/seed"
# (the message is wrapped at 80 columns: join its lines first)
sed -e ':a' -e 'N' -e '$!ba' -e 's/\n    \([^ ]\)/ \1/g' "$T/out" |
	grep -q "^error: stats: hits and misses contend ($w in the profile) and share cacheline 0$" ||
	fail "check: the merged pair's weight $w: $(cat "$T/out")"
assert_exit 0 "suggest --profile merged" "$HITMAP" suggest --profile "$T/m.json" "$T/seed"
grep -q "^  shares a line: hits / misses (weight $w)$" "$T/out" ||
	fail "suggest: the merged pair's weight $w"

# mismatches: refused (exit 3) naming both inputs, unless --force
mangle() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))' "$T/r300.json" "$T/$1" "$2"
}
mangle other-build.json 'd["source"]["builds"] = [dict(b, build_id="00" * 20) if b["file"].endswith("/seed") else b for b in d["source"]["builds"]]'
mangle other-kind.json 'd["source"]["kind"] = "hitm"'
mangle other-offset.json '[f.update(offset=f["offset"] + 64) for s in d["structs"] if s["name"] == "stats" for f in s["fields"] if f["path"] == "misses"]'
for m in other-build:"the build of $T/seed" other-kind:"the data kind (watch vs hitm)" \
	other-offset:"where stats.misses is (offset+size) (8+8 vs 72+8)"; do
	f=${m%%:*}.json
	assert_exit 3 "merge $f" "$HITMAP" profile merge "$T/r500.json" "$T/$f" -o "$T/x.json"
	grep -qF "error: $T/r500.json and $T/$f differ: ${m#*:}" "$T/err" ||
		fail "merge $f: message: $(cat "$T/err")"
	[ -e "$T/x.json" ] && fail "merge $f: wrote an output"
	assert_exit 0 "merge --force $f" "$HITMAP" profile merge --force "$T/r500.json" \
		"$T/$f" -o "$T/x.json"
	rm -f "$T/x.json"
done
assert_exit 2 "merge without -o" "$HITMAP" profile merge "$T/r500.json"
assert_exit 2 "unknown subcommand" "$HITMAP" profile merj
grep -q "did you mean 'merge'" "$T/err" || fail "profile merj: $(cat "$T/err")"
printf '{"schema": "hitmap-profile/2"}' >"$T/v2.json"
assert_exit 3 "merge another schema" "$HITMAP" profile merge "$T/r500.json" "$T/v2.json" \
	-o "$T/x.json"
grep -q "v2.json:1:.*unsupported schema" "$T/err" || fail "schema message: $(cat "$T/err")"
exit 0
