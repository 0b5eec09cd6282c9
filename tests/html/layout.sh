#!/bin/sh
# layout --html: every member the layout JSON lists is on the page (Chromium's
# --dump-dom) with the JSON's offset and size, every leaf member drawn as a
# block, one row per cacheline; with --profile the members carry heat; Tab
# and the arrow keys move between members with a visible focus.  The
# page requests nothing and logs no error; a page that does both is caught
# (the check itself can fail).
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/html/lib-html.sh"

# the three layout fixtures in one object (one page, one browser start)
for fx in nest bits basic; do
	build_fixture "$TESTS_SRC/layout/fx-$fx.c" "$T/$fx.o" gcc 5 -O0 -c
done
ld -r -o "$T/nest" "$T/nest.o" "$T/bits.o" "$T/basic.o" || fail "ld -r"
"$HITMAP" layout --json "$T/nest" >"$T/all.json" || fail "layout --json"
"$HITMAP" layout --html "$T/all.html" "$T/nest" >"$T/all.txt" || fail "layout --html"
# the text on stdout is the same with or without --html
"$HITMAP" layout "$T/nest" | cmp -s - "$T/all.txt" || fail "--html changed the text"
html_dom "$T/all.html" all
python3 "$HTML_SRC/domcheck.py" layout "$T/all.dom" "$T/all.json" || fail "page and JSON differ"

# heat from a profile: the hot members' blocks carry a heat level
cat >"$T/p.json" <<'PJ'
{ "schema": "hitmap-profile/1",
  "source": { "input": "t", "kind": "hitm", "samples": 30, "attributed": 30 },
  "cacheline_size": 64,
  "structs": [ { "name": "anon", "kind": "struct", "size": 24,
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

# no request, no console error; and the keyboard: Tab past the metric menu
# and the heading's link reaches the first member's block, drawn with a
# visible focus ring and its counts in the tip; the right arrow goes to the
# next member, the left one back
html_quiet "$T/heat.html" heat --keys Tab,Tab,Tab,ArrowRight,ArrowLeft
python3 - "$T/heat.cdp" <<'PY' || fail "keyboard navigation"
import json, sys
k = json.load(open(sys.argv[1]))["keys"]
f = k[2]
assert f["path"] == "kind" and f["offset"] == "0" and "hm-b" in f["cls"], f
assert f["outline"] not in ("0px", "") and f["tip"] and "offset 0, size 4" in f["tip"], f
assert "12" in f["tip"], f	# its lcl_hitm
assert (k[3]["path"], k[3]["offset"]) == ("l", "8"), k[3]
assert (k[4]["path"], k[4]["offset"]) == ("kind", "0"), k[4]
PY

# a page that cannot be written: said, exit 3; --explain has no report
assert_exit 3 "unwritable --html" "$HITMAP" layout --html "$T/no/such/dir/x.html" "$T/nest"
grep -q "$T/no/such/dir/x.html: cannot write the HTML page" "$T/err" || fail "unwritable: $(cat "$T/err")"
assert_exit 2 "report --explain --html" "$HITMAP" report --explain 0x10 --html "$T/x.html"
[ ! -e "$T/x.html" ] || fail "report --explain wrote a page"

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
