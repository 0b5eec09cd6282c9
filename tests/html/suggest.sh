#!/bin/sh
# suggest --html on the false-sharing example.  With a rule keeping its two
# counters apart: each proposal is drawn before (today's layout, every member
# at the offsets and sizes of layout --json) and after (the size and lines
# of suggest --json), with its byte cost, and with no heat (a rule is not a
# measurement).  With a profile: the same, and every block on both sides
# carries the samples (loads + stores) the profile gives its field.  Neither
# page requests anything or logs an error.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/html/lib-html.sh"

build_fixture "$top_srcdir/examples/false-sharing/counters.c" "$T/c" gcc 5 -O2 -pthread
printf 'struct counters {\n\tapart hits misses\n}\n' >"$T/r.rules"
"$HITMAP" layout -C counters --json "$T/c" >"$T/l.json" || fail "layout --json"
"$HITMAP" suggest -C counters --rules "$T/r.rules" --json "$T/c" >"$T/s.json" || fail "suggest --json"
"$HITMAP" suggest -C counters --rules "$T/r.rules" --html "$T/s.html" "$T/c" >/dev/null ||
	fail "suggest --html"
html_dom "$T/s.html" s
python3 "$HTML_SRC/domcheck.py" suggest "$T/s.dom" "$T/s.json" "$T/l.json" >"$T/check.out" ||
	{ cat "$T/check.out"; fail "page and JSON differ"; }
cat "$T/check.out"
grep -q 'ok suggest: 1 structs, [1-9][0-9]* proposals, each before and after, 0 hot' "$T/check.out" ||
	fail "no proposal drawn, or heat from a rule"
html_quiet "$T/s.html" s

# A profile: hits and misses written by one thread each, contending, name
# and shift read by both.
python3 - "$T/l.json" >"$T/p.json" <<'PY' || fail "cannot write the profile"
import json, sys
m = {x["name"]: x for x in json.load(open(sys.argv[1]))["structs"][0]["members"]}
use = {"hits": (0, 700, [0]), "misses": (0, 500, [1]), "name": (300, 0, [0, 1]),
       "shift": (200, 0, [0, 1])}
fields = [{"path": k, "offset": m[k]["offset"], "size": m[k]["size"], "loads": l, "stores": s,
           "cpus": c} for k, (l, s, c) in sorted(use.items(), key=lambda i: m[i[0]]["offset"])]
pairs = [{"a": "hits", "b": "misses", "samples": 1200, "hitm": 400, "lines": 1, "cpus": [0, 1]}]
print(json.dumps({"schema": "hitmap-profile/1",
                  "source": {"input": "synthetic", "kind": "hitm", "samples": 1700,
                             "attributed": 1700},
                  "cacheline_size": 64,
                  "structs": [{"name": "counters", "kind": "struct", "size": json.load(open(sys.argv[1]))["structs"][0]["size"],
                               "fields": fields, "pairs": pairs, "true_shared": []}]}))
PY
"$HITMAP" suggest -C counters --profile "$T/p.json" --json "$T/c" >"$T/sp.json" ||
	fail "suggest --profile --json"
"$HITMAP" suggest -C counters --profile "$T/p.json" --html "$T/sp.html" "$T/c" >/dev/null ||
	fail "suggest --profile --html"
html_dom "$T/sp.html" sp
python3 "$HTML_SRC/domcheck.py" suggest "$T/sp.dom" "$T/sp.json" "$T/l.json" "$T/p.json" \
	>"$T/check.out" || { cat "$T/check.out"; fail "page, JSON and profile differ"; }
cat "$T/check.out"
grep -q 'ok suggest: 1 structs, [1-9][0-9]* proposals, each before and after, [1-9]' "$T/check.out" ||
	fail "no proposal drawn hot"
html_quiet "$T/sp.html" sp
