#!/bin/sh
# `hitmap diff --rules` gives each rule one verdict: regressed (an error),
# fixed or still failing (notes), never fixed and regressed at once.  The
# oracle is the program's own offsetof printout (64-byte lines, the struct
# is line-aligned) and the rule file diff-verdict.rules; diff-verdict.c
# says which verdict each rule must get.
. "$top_srcdir/tests/lib.sh"
S=$TESTS_SRC/check
build_fixture "$S/diff-verdict.c" "$T/v1" gcc 5 -O0
build_fixture "$S/diff-verdict.c" "$T/v2" gcc 5 -O0 -DV2
"$T/v1" >"$T/o1" && "$T/v2" >"$T/o2" || fail "fixture does not run"
line() { awk -v m="$2" '{ for (i = 1; i < NF; i++) if ($i == m) print int($(i + 1) / 64) }' "$1"; }
# the oracle's facts, from the offsets
for o in o1 o2; do
	[ "$(line $T/$o cnt)" = "$(line $T/$o x)" ] || fail "$o: cnt is alone: the fixture is wrong"
done
[ "$(line $T/o1 p)" = "$(line $T/o1 q)" ] && [ "$(line $T/o1 p)" != "$(line $T/o1 r)" ] &&
	[ "$(line $T/o2 p)" = "$(line $T/o2 r)" ] && [ "$(line $T/o2 p)" != "$(line $T/o2 q)" ] ||
	fail "p q r: the fixture is wrong"
[ "$(line $T/o1 u)" != "$(line $T/o1 v)" ] && [ "$(line $T/o2 u)" = "$(line $T/o2 v)" ] &&
	[ "$(line $T/o1 w)" = "$(line $T/o1 z)" ] && [ "$(line $T/o2 w)" != "$(line $T/o2 z)" ] ||
	fail "u v w z: the fixture is wrong"

assert_exit 1 "diff --rules" "$HITMAP" diff --no-lint --rules "$S/diff-verdict.rules" "$T/v1" "$T/v2"
grep -E '^(error|warning|note): vs: (regression|fixed|still failing):' "$T/out" >"$T/got"
cat >"$T/want" <<EOW
error: vs: regression: p and r share cacheline $(line $T/o2 p)
error: vs: regression: u and v share cacheline $(line $T/o2 u)
note: vs: still failing: cnt shares cacheline 0 with a, b2, x and 2 more
note: vs: fixed: w and z share cacheline $(line $T/o1 w)
EOW
assert_files_eq "$T/want" "$T/got" "one verdict per rule"
# no rule is both fixed and regressed: the rules' lines in the JSON
assert_exit 1 "diff --rules --json" "$HITMAP" diff --json --no-lint \
	--rules "$S/diff-verdict.rules" "$T/v1" "$T/v2"
python3 - "$T/out" <<'PY' || fail "a rule with two verdicts"
import json, sys
v = {}
for f in json.load(open(sys.argv[1]))["findings"]:
    m = f["message"]
    for w in ("regression", "fixed", "still failing"):
        if m.startswith(w + ":"):
            v.setdefault(f.get("rule", {}).get("line", m), set()).add(w)
bad = {k: s for k, s in v.items() if len(s) > 1}
sys.exit(1 if bad or len(v) != 4 else 0)
PY
# the reverse: p q r regresses again (p and q), u v is fixed, w z regresses
assert_exit 1 "diff --rules v2 v1" "$HITMAP" diff --no-lint --rules "$S/diff-verdict.rules" "$T/v2" "$T/v1"
grep -c '^note: vs: fixed: p and r' "$T/out" | grep -qx 0 || fail "v2 -> v1: p r fixed and p q regressed"
exit 0
