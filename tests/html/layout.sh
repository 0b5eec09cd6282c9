#!/bin/sh
# layout --html: every member the layout JSON lists is on the page (Chromium's
# --dump-dom) with the JSON's offset and size, every leaf member drawn as a
# block, one row per cacheline; with --profile the members carry heat.  The
# page requests nothing and logs no error; a page that does both is caught
# (the check itself can fail).
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/html/lib-html.sh"

for fx in nest bits basic; do
	build_fixture "$TESTS_SRC/layout/fx-$fx.c" "$T/$fx" gcc 5 -O0 -c
	"$HITMAP" layout --json "$T/$fx" >"$T/$fx.json" || fail "$fx: layout --json"
	"$HITMAP" layout --html "$T/$fx.html" "$T/$fx" >"$T/$fx.txt" || fail "$fx: layout --html"
	# the text on stdout is the same with or without --html
	"$HITMAP" layout "$T/$fx" | cmp -s - "$T/$fx.txt" || fail "$fx: --html changed the text"
	html_dom "$T/$fx.html" "$fx"
	python3 "$HTML_SRC/domcheck.py" layout "$T/$fx.dom" "$T/$fx.json" || fail "$fx: page and JSON differ"
done
html_quiet "$T/nest.html" nest

# heat from a profile: the hot members' blocks carry a heat level
cat >"$T/p.json" <<'PJ'
{ "schema": "hitmap-profile/1",
  "source": { "input": "t", "kind": "hitm", "samples": 30, "attributed": 30 },
  "cacheline_size": 64,
  "structs": [ { "name": "anon", "kind": "struct", "size": 40,
    "fields": [ { "path": "kind", "offset": 0, "size": 4, "samples": 20, "loads": 10,
                  "stores": 10, "lcl_hitm": 12, "rmt_hitm": 0, "cpus": [0, 1] },
                { "path": "after", "offset": 24, "size": 4, "samples": 10, "loads": 10,
                  "stores": 0, "lcl_hitm": 3, "rmt_hitm": 0, "cpus": [1] } ] } ] }
PJ
"$HITMAP" layout -C anon --profile "$T/p.json" --json "$T/nest" >"$T/heat.json" || fail "heat json"
"$HITMAP" layout -C anon --profile "$T/p.json" --html "$T/heat.html" "$T/nest" >/dev/null ||
	fail "layout --profile --html"
html_dom "$T/heat.html" heat
python3 "$HTML_SRC/domcheck.py" layout "$T/heat.dom" "$T/heat.json" || fail "heat: page and JSON differ"
# 12 of 12 HITM: the hottest level; 3 of 12: the lowest but one
grep -o '<div [^>]*data-path="kind"[^>]*class="hm-b[^"]*"' "$T/heat.dom" | grep -q 'hm-h4' ||
	fail "heat: 'kind' (12 HITM of 12) is not drawn at level 4"
grep -o '<div [^>]*data-path="after"[^>]*class="hm-b[^"]*"' "$T/heat.dom" | grep -q 'hm-h1' ||
	fail "heat: 'after' (3 HITM of 12) is not drawn at level 1"

# the checker of requests and console errors fails on a page that has them
cat >"$T/bad.html" <<'BAD'
<!DOCTYPE html><html><body><img src="http://127.0.0.1:9/x.png">
<script>console.error("bad page"); document.body.dataset.ready = "1";</script></body></html>
BAD
python3 "$HTML_SRC/cdp.py" "$CHROMIUM" "$T/bad.html" "$T/bad.cdp" || fail "cdp.py on bad.html"
python3 - "$T/bad.cdp" <<'PY' || fail "the request and the console error of bad.html went unseen"
import json, sys
r = json.load(open(sys.argv[1]))
assert any("127.0.0.1:9" in u for u in r["requests"]), r
assert any("bad page" in c for c in r["console"]), r
PY
