#!/bin/sh
# SARIF 2.1.0 and JSON output of check, lint and diff.  The SARIF documents
# validate against the official schema (tests/data/sarif-schema-2.1.0.json,
# checked with python3-jsonschema) and every struct finding is located at the struct's
# declaration: the line of `struct d {` in directives.c, found with grep.
. "$top_srcdir/tests/lib.sh"
require python3 python3
python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema not installed"
S="$top_srcdir/tests/check"
SCHEMA="$TESTS_SRC/data/sarif-schema-2.1.0.json"
build_fixture "$S/directives.c" "$T/dir" gcc 5 -O0
build_fixture "$top_srcdir/tests/fixtures/mm_v1.c" "$T/v1" gcc 5 -O0
build_fixture "$top_srcdir/tests/fixtures/mm_v2.c" "$T/v2" gcc 5 -O0
build_fixture "$top_srcdir/tests/fixtures/groups.c" "$T/groups" gcc 5 -O0
build_fixture "$S/diff-rt.c" "$T/rt0" gcc 5 -O0
build_fixture "$S/diff-rt.c" "$T/rt1" gcc 5 -O0 -DRT
build_fixture "$S/lint.c" "$T/lint" gcc 5 -O0 -pthread
dline=$(grep -n '^struct d {' "$S/directives.c" | cut -d: -f1)
# struct spinlock of the RT build: the first definition in diff-rt.c
sline=$(grep -n '^typedef struct spinlock {' "$S/diff-rt.c" | sed -n '1s/:.*//p')

assert_exit 1 "check --sarif" "$HITMAP" check --sarif --rules "$S/fail.rules" "$T/dir"
mv "$T/out" "$T/check.sarif"
assert_exit 1 "check --json" "$HITMAP" check --json --rules "$S/fail.rules" "$T/dir"
mv "$T/out" "$T/check.json"
assert_exit 0 "lint --sarif" "$HITMAP" lint --sarif "$T/v2"
mv "$T/out" "$T/lint.sarif"
assert_exit 1 "diff --sarif" "$HITMAP" diff --sarif "$T/v1" "$T/v2"
mv "$T/out" "$T/diff.sarif"
assert_exit 1 "diff --json" "$HITMAP" diff --json "$T/v1" "$T/v2"
mv "$T/out" "$T/diff.json"
assert_exit 1 "groups --sarif" "$HITMAP" check --sarif "$T/groups"
mv "$T/out" "$T/groups.sarif"
# the summary kinds and member sizes of diff, lint's per-line findings
assert_exit 0 "diff-rt --sarif" "$HITMAP" diff --sarif "$T/rt0" "$T/rt1"
mv "$T/out" "$T/rt.sarif"
assert_exit 0 "diff-rt --json" "$HITMAP" diff --json "$T/rt0" "$T/rt1"
mv "$T/out" "$T/rt.json"
assert_exit 0 "diff-rt --json --limit 1" "$HITMAP" diff --json --limit 1 "$T/rt0" "$T/rt1"
mv "$T/out" "$T/rt-limit.json"
assert_exit 0 "lint --json" "$HITMAP" lint --json --explain "$T/lint"
mv "$T/out" "$T/lint.json"

python3 - "$T" "$SCHEMA" "$dline" "$S/findings-schema.json" "$sline" <<'PY' || fail "SARIF/JSON content"
import json, os, sys
import jsonschema
t, schema, dline, fschema, sline = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
def load(n):
    with open(os.path.join(t, n)) as f:
        return json.load(f)
docs = {n: load(n) for n in ("check.sarif", "lint.sarif", "diff.sarif", "groups.sarif",
                             "rt.sarif")}
# the findings JSON: the repository's schema, always
with open(fschema) as f:
    fs = json.load(f)
jsonschema.Draft7Validator.check_schema(fs)
for n in ("check.json", "diff.json", "rt.json", "rt-limit.json", "lint.json"):
    jsonschema.validate(load(n), fs)
with open(schema) as f:
    s = json.load(f)
for n, d in docs.items():
    jsonschema.validate(d, s)
c = docs["check.sarif"]
assert c["version"] == "2.1.0"
res = c["runs"][0]["results"]
# 13 errors, 1 warning, 3 notes: the same counts as fail.expected
levels = [r["level"] for r in res]
assert levels.count("error") == 13 and levels.count("warning") == 1 \
    and levels.count("note") == 3, levels
for r in res:
    if r["properties"]["object"] != "d":
        continue
    loc = r["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"].endswith("tests/check/directives.c"), loc
    assert loc["region"]["startLine"] == dline, (loc, dline)
    if r["ruleId"] != "absent":
        rel = r["relatedLocations"][0]["physicalLocation"]
        assert rel["artifactLocation"]["uri"].endswith("fail.rules"), rel
ids = {r["id"] for r in c["runs"][0]["tool"]["driver"]["rules"]}
assert {r["ruleId"] for r in res} == ids
d = docs["diff.sarif"]["runs"][0]["results"]
assert any(r["ruleId"] == "diff-hot-shared" and r["level"] == "error" and
           r["properties"]["members"] == ["page_table_lock", "mmap_lock"] for r in d)
j = load("check.json")
assert j["schema"] == "hitmap/1" and j["command"] == "check"
assert j["summary"]["errors"] == 13 and j["summary"]["warnings"] == 1
assert j["summary"]["rules"] == {"total": 17, "passed": 0, "failed": 13, "skipped": 4}, j["summary"]
apart = [f for f in j["findings"] if f["kind"] == "apart" and f["object"] == "d"
         and f["severity"] == "error"][0]
assert apart["members"] == ["hot", "cold"] and apart["cachelines"] == [0, 0]
assert apart["rule"]["line"] == 3 and apart["rule"]["column"] == 5
assert apart["decl"]["line"] == dline
rt = load("rt.json")
assert rt == load("rt-limit.json"), "--limit applies to the text only"
summ = [f for f in rt["findings"] if f["summary"]]
assert [f["kind"] for f in summ] == ["diff-structs", "diff-root-cause"], summ
assert summ[1]["object"] == "spinlock" and summ[1]["decl"]["line"] == sline, summ[1]
assert rt["findings"].index(summ[1]) == 1, "summary first"
ms = {(f["object"], f["members"][0]): f["message"] for f in rt["findings"]
      if f["kind"] == "diff-member-size"}
assert ms[("mm_struct", "page_table_lock")] == "page_table_lock 4 -> 32 (spinlock_t)", ms
assert rt["summary"] == {"errors": 0, "warnings": 0, "notes": 14}, rt["summary"]
rs = docs["rt.sarif"]["runs"][0]
rc = [r for r in rs["results"] if r["ruleId"] == "diff-root-cause"][0]
assert rc["properties"]["summary"] is True and rc["properties"]["score"] == 3, rc
assert rc["locations"][0]["physicalLocation"]["region"]["startLine"] == sline, rc
assert "diff-member-size" in {r["id"] for r in rs["tool"]["driver"]["rules"]}
lj = load("lint.json")
ls = [f for f in lj["findings"] if f["kind"] == "lint-shared"]
assert [(f["members"], f["cachelines"], f["score"]) for f in ls] == [
    (["arr", "m"], [2, 2], 8), (["a_lock", "a_counter"], [0, 0], 7),
    (["st.lock", "refs"], [1, 1], 4)], ls
assert "pair arr + m: lock + lock, +8" in ls[0]["detail"], ls[0]
dj = load("diff.json")
assert dj["inputs"][0].endswith("/v1") and dj["inputs"][1].endswith("/v2")
assert dj["summary"]["errors"] == 4, dj["summary"]
PY
exit 0
