#!/bin/sh
# The verdict model on HITM data: c2c-like load/store samples (written by
# tests/perf/gen-c2c, so every count is known) on the globals of
# tests/report/verdict.c (PIE, gcc).  The whole text report is golden
# (verdict-hitm.golden, addresses folded to ADDR, main's line as addr2line
# gives it to MAIN); the JSON carries each verdict's rule and evidence.
# Per line (CPU: count):
#   g_mix     lock and count HITM loads and stores from CPUs 0 and 1 (true
#             sharing), x only from CPU 0 and y only from CPU 1 (false)
#   g_lock    lock and count, both from CPUs 0 and 1: true sharing of both
#   g_pair    a from CPU 0, b from CPU 1: false sharing
#   g_one     count: 2000 stores from CPU 0, 3 HITM loads from CPU 1 (the
#             final read: too few to make CPU 1 an actor): private
#   g_padded  a: 5000 stores from CPU 0, 600 loads from CPU 1 of them 6
#             HITM: 0.11 % of the accesses, 95 % upper bound 0.23 %, below
#             the 1 % floor: private; b: 3 stores from CPU 0 and 2 HITM
#             from CPU 1: a high rate but too few, insufficient evidence (2
#             transfers)
#   progress  [1][0]: 8 HITM loads and 4 L1 hits, all from CPU 1, no store:
#             another cache held the line modified, but its writer went
#             unsampled: insufficient evidence (8 transfers), not private
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require addr2line binutils
[ -x "$GEN" ] || fail "tests/perf/gen-c2c is not built"
build_fixture "$RSRC/verdict.c" "$T/verdict" gcc 4 -O2 -pthread -fPIE -pie
a() { hex $(($PIE_BASE + $(sym_addr "$T/verdict" $1) + $2)); }
ip=$(($PIE_BASE + $(sym_addr "$T/verdict" main)))
gen -o "$T/c2c.data" --pid 4242 --ip $(hex $ip) \
	--mmap $(hex $PIE_BASE),0x10000,0,"$T/verdict" \
	lcl-hitm:$(a g_mix 0):6:0:101 lcl-hitm:$(a g_mix 0):6:1:102 \
	st-l1hit:$(a g_mix 0):6:0:101 st-l1hit:$(a g_mix 0):6:1:102 \
	lcl-hitm:$(a g_mix 8):3:0:101 lcl-hitm:$(a g_mix 8):3:1:102 \
	st-l1hit:$(a g_mix 8):3:0:101 st-l1hit:$(a g_mix 8):3:1:102 \
	lcl-hitm:$(a g_mix 16):4:0:101 st-l1hit:$(a g_mix 16):8:0:101 \
	rmt-hitm:$(a g_mix 24):4:1:102 st-l1miss:$(a g_mix 24):8:1:102 \
	lcl-hitm:$(a g_lock 0):5:0:101 lcl-hitm:$(a g_lock 0):5:1:102 \
	st-l1hit:$(a g_lock 0):5:0:101 st-l1hit:$(a g_lock 0):5:1:102 \
	l1hit:$(a g_lock 8):4:0:101 l1hit:$(a g_lock 8):4:1:102 \
	st-l1hit:$(a g_lock 8):5:0:101 st-l1hit:$(a g_lock 8):5:1:102 \
	lcl-hitm:$(a g_pair 0):7:0:101 st-l1hit:$(a g_pair 0):9:0:101 \
	lcl-hitm:$(a g_pair 8):6:1:102 st-l1hit:$(a g_pair 8):9:1:102 \
	st-l1hit:$(a g_one 8):2000:0:101 lcl-hitm:$(a g_one 8):3:1:4242 \
	st-l1hit:$(a g_padded 0):5000:0:101 l1hit:$(a g_padded 0):594:1:102 \
	lcl-hitm:$(a g_padded 0):6:1:102 \
	st-l1hit:$(a g_padded 64):3:0:101 lcl-hitm:$(a g_padded 64):2:1:102 \
	lcl-hitm:$(a progress 64):8:1:102 l1hit:$(a progress 64):4:1:102 ||
	fail "gen-c2c failed"

"$HITMAP" report -i "$T/c2c.data" >"$T/r.txt" 2>"$T/r.err" ||
	{ cat "$T/r.err" >&2; fail "report failed"; }
awk 'length > 80 { exit 1 }' "$T/r.txt" || fail "text report wider than 80 columns"
# main's line (the code location of every sample) from addr2line, so
# that the golden does not move with the fixture's lines
main_line=$(addr2line -e "$T/verdict" $(sym_addr "$T/verdict" main) | sed 's/.*://')
sed -e 's/0x[0-9a-f]\{8,\}/ADDR/g' -e "s|$T/||" -e "s/(verdict\.c:$main_line)/(verdict.c:MAIN)/" \
	"$T/r.txt" >"$T/r.norm"
assert_files_eq "$RSRC/verdict-hitm.golden" "$T/r.norm" "text report"

# JSON: verdict, rule and the evidence numbers per line, by first object.
"$HITMAP" report -i "$T/c2c.data" --json >"$T/r.json" || fail "json report"
jq_py "$T/r.json" "'\n'.join('%s %s %s %d %d %d %d %s/%s' % (l['fields'][0]['object'], l['verdict'].replace(' ', '_'), l['rule']['id'], l['verdict_evidence']['transfers'], l['verdict_evidence']['accesses'], l['verdict_evidence']['false_sharing']['transfers'], l['verdict_evidence']['true_sharing']['transfers'], ','.join(l['verdict_evidence']['false_sharing']['fields']) or '-', ','.join(l['verdict_evidence']['true_sharing']['fields']) or '-') for l in d['lines'])" >"$T/j.out"
cat >"$T/j.want" <<'W'
g_mix false_and_true_sharing parts 26 60 8 18 g_mix.x,g_mix.y/g_mix.lock,g_mix.count
g_pair false_sharing parts 13 31 13 0 g_pair.a,g_pair.b/-
g_lock true_sharing parts 10 38 0 10 -/g_lock.lock,g_lock.count
progress insufficient_evidence unseen-writer 8 12 0 0 -/-
g_padded private below-rate 6 5600 0 0 -/-
g_one private one-actor 3 2003 0 0 -/-
g_padded insufficient_evidence few-transfers 2 5 0 0 -/-
W
assert_files_eq "$T/j.want" "$T/j.out" "JSON verdicts, rules and evidence"

# A saved profile carries the parts: contending pairs from the false sharing
# parts, truly shared fields from the true sharing parts.
"$HITMAP" report -i "$T/c2c.data" --save-profile "$T/p.json" >/dev/null || fail "save-profile"
python3 - "$T/p.json" >"$T/p.out" <<'PY' || fail "profile"
import json, sys
d = json.load(open(sys.argv[1]))
for s in sorted(d["structs"], key=lambda s: s["name"]):
    print(s["name"], "pairs", " ".join("%s:%s" % (p["a"], p["b"]) for p in s["pairs"]) or "-",
          "shared", " ".join(t["field"] for t in s["true_shared"]) or "-")
PY
cat >"$T/p.want" <<'W'
locked pairs - shared lock count
mix pairs lock:x lock:y count:x count:y x:y shared lock count
one pairs - shared -
padded pairs - shared -
pair pairs a:b shared -
progress pairs - shared -
W
assert_files_eq "$T/p.want" "$T/p.out" "profile pairs and true sharing"
exit 0
