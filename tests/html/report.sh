#!/bin/sh
# report --html of a real watchpoint recording (tests/record/counters.c: two
# threads on two CPUs writing g.a and g.b, one line): the drawn DOM has every
# bucket count and every line's fields with the offsets and sizes of report
# --json; the falsely shared line is marked; the page requests nothing and
# logs no error; and its screenshot is a drawing: many colours that are not
# grey (a page of text has none) and the contended line's red on thousands
# of pixels.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/record/lib-watch.sh"
. "$TESTS_SRC/html/lib-html.sh"

[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] ||
	skip "cross-CPU line transfers need 2 online CPUs (this machine has 1)"
build_counters "$T/fs" gcc 5
require_breakpoints "$T/fs"
"$HITMAP" record -q --watch g.a --watch g.b -o "$T/w.data" -- "$T/fs" 5000 5 ||
	fail "record failed"
"$HITMAP" report --json -i "$T/w.data" >"$T/w.json" || fail "report --json"
"$HITMAP" report --html "$T/w.html" -i "$T/w.data" >"$T/w.txt" || fail "report --html"
"$HITMAP" report -i "$T/w.data" | cmp -s - "$T/w.txt" || fail "--html changed the text"

html_dom "$T/w.html" w
python3 "$HTML_SRC/domcheck.py" report "$T/w.dom" "$T/w.json" || fail "page and JSON differ"
grep -q 'class="hm-row hm-contended"' "$T/w.dom" || fail "the false sharing line is not marked"
# the struct's drawing below marks its contended line too
grep -o '<section class="hm-struct"[^>]*data-struct="pair"' "$T/w.dom" >/dev/null ||
	fail "struct pair is not drawn"
html_quiet "$T/w.html" w

chromium_run shot --window-size=1280,1100 --screenshot="$T/w.png" "file://$T/w.html" >/dev/null ||
	fail "chromium --screenshot failed"
python3 "$HTML_SRC/pngcolors.py" "$T/w.png" b3141d >"$T/png.json" || fail "cannot decode the screenshot"
cat "$T/png.json"
python3 - "$T/png.json" <<'PY' || fail "the screenshot is not a drawing of the contended line"
import json, sys
p = json.load(open(sys.argv[1]))
# a text-only page of the same report: 0 chromatic colours, no red pixel
assert p["chromatic"] >= 10, p
assert p["b3141d"] >= 2000, p
PY
