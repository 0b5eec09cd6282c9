#!/bin/sh
# SARIF 2.1.0 and JSON output of check, lint and diff.  The SARIF documents
# validate against the official schema (../shared/data/sarif-schema-2.1.0.json,
# checked with python3-jsonschema; only that check is skipped when the schema
# file is absent) and every struct finding is located at the struct's
# declaration: the line of `struct d {` in directives.c, found with grep.
. "$top_srcdir/tests/lib.sh"
require python3 python3
python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema not installed"
S="$top_srcdir/tests/check"
SCHEMA="$SHARED/data/sarif-schema-2.1.0.json"
build_fixture "$S/directives.c" "$T/dir" gcc 5 -O0
build_fixture "$top_srcdir/tests/fixtures/mm_v1.c" "$T/v1" gcc 5 -O0
build_fixture "$top_srcdir/tests/fixtures/mm_v2.c" "$T/v2" gcc 5 -O0
build_fixture "$top_srcdir/tests/fixtures/groups.c" "$T/groups" gcc 5 -O0
dline=$(grep -n '^struct d {' "$S/directives.c" | cut -d: -f1)

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

python3 - "$T" "$SCHEMA" "$dline" <<'PY' || fail "SARIF/JSON content"
import json, os, sys
t, schema, dline = sys.argv[1], sys.argv[2], int(sys.argv[3])
def load(n):
    with open(os.path.join(t, n)) as f:
        return json.load(f)
docs = {n: load(n) for n in ("check.sarif", "lint.sarif", "diff.sarif", "groups.sarif")}
if os.path.exists(schema):
    import jsonschema
    with open(schema) as f:
        s = json.load(f)
    for n, d in docs.items():
        jsonschema.validate(d, s)
else:
    print("schema absent: validation skipped", file=sys.stderr)
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
dj = load("diff.json")
assert dj["inputs"][0].endswith("/v1") and dj["inputs"][1].endswith("/v2")
assert dj["summary"]["errors"] == 4, dj["summary"]
PY
exit 0
