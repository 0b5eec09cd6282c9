#!/bin/sh
# diff --html: two builds of a struct whose member `lock` moved: both
# layouts are drawn side by side with every member at the offsets and sizes
# of each build's layout --json, the moved member marked on both sides and
# the old one linking to the new, and only it (the members it shifts keep
# their order: not moved); the page requests nothing and logs no error.
# The page names each input once (not in every pair), puts the summary
# ("1 struct compared") on a line of its own, not as "note: : ...", and
# root causes first.  In Chromium at 1400 and 1920 px, the two sides of a
# pair never overlap: neither the sides' boxes nor what shows of their
# member tables (getBoundingClientRect over the DevTools protocol).
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/html/lib-html.sh"

cat >"$T/s.c" <<'C'
struct conn {
#ifdef NEW
	long lock;
#endif
	int id;
	char name[60];
	long hits, misses;
	struct a_structure_with_a_rather_long_name_to_widen_the_table *a_member_with_a_long_name_too;
#ifndef NEW
	long lock;
#endif
	short flags;
};
struct conn c;
C
build_fixture "$T/s.c" "$T/old" gcc 5 -O0 -c
build_fixture "$T/s.c" "$T/new" gcc 5 -O0 -c -DNEW
"$HITMAP" layout -C conn --json "$T/old" >"$T/old.json" || fail "layout old"
"$HITMAP" layout -C conn --json "$T/new" >"$T/new.json" || fail "layout new"
"$HITMAP" diff --html "$T/d.html" "$T/old" "$T/new" >"$T/d.txt"
[ $? -le 1 ] || fail "diff --html failed"
[ -s "$T/d.html" ] || fail "no page written"
html_dom "$T/d.html" d
python3 "$HTML_SRC/domcheck.py" diff "$T/d.dom" "$T/old.json" "$T/new.json" >"$T/check.out" ||
	{ cat "$T/check.out"; fail "page and JSON differ"; }
cat "$T/check.out"
# every member but lock moved down by 8 or stayed: at least lock is linked
grep -q ' 1 moved members linked' "$T/check.out" || fail "want lock, only, moved"
html_quiet "$T/d.html" d
grep -q 'note: : ' "$T/d.dom" && fail "a finding without an object printed as 'note: : '"
grep -q '<p class="hm-summary">1 struct compared, ' "$T/d.dom" || fail "no summary line"
# the paths once, in the list of inputs; each side of a pair says old or new
grep -q "<dd>$T/old</dd>" "$T/d.dom" && grep -q "<dd>$T/new</dd>" "$T/d.dom" ||
	fail "the inputs are not listed"
grep -q "<h3>$T/" "$T/d.dom" && fail "a pair repeats an input's path"
grep -q '<h3>old</h3>' "$T/d.dom" || fail "a pair does not say which side is old"
python3 - "$T/d.dom" <<'PY' || fail "findings not in order: root causes, errors, warnings, notes"
import re, sys
items = re.findall(r'<li class="hm-finding (\w+)( hm-root)?"', open(sys.argv[1]).read())
rank = [0 if r else {"error": 1, "warning": 2, "note": 3}[s] for s, r in items]
assert items and rank == sorted(rank), items
PY
for w in 1400 1920; do
	python3 "$HTML_SRC/cdp.py" "$CHROMIUM" "$T/d.html" "$T/w$w.cdp" --width $w --pairs ||
		fail "cdp.py at $w px"
	python3 - "$T/w$w.cdp" $w <<'PY' || fail "at $2 px the two sides overlap"
import json, sys
pairs = json.load(open(sys.argv[1]))["pairs"]
assert pairs, "no pair measured"
for p in pairs:
    old, new = [s for s in p if s["side"] == "old"][0], [s for s in p if s["side"] == "new"][0]
    assert old["box"][2] <= new["box"][0], ("sides overlap", old["box"], new["box"])
    for s in (old, new):
        t, b = s["table"], s["box"]
        # what shows of the table: all of it, or the part its side clips
        right = t[2] if s["overflow"] == "visible" else min(t[2], b[2])
        assert b[0] <= t[0] and right <= b[2], ("table outside its side", s)
print("%s px: %d pairs, sides and tables apart" % (sys.argv[2], len(pairs)))
PY
done
