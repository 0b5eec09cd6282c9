#!/bin/sh
# diff --html: two builds of a struct whose member `lock` moved: both
# layouts are drawn side by side with every member at the offsets and sizes
# of each build's layout --json, the moved member marked on both sides and
# the old one linking to the new; the page requests nothing and logs no error.
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
grep -q 'moved members linked' "$T/check.out" && ! grep -q ' 0 moved' "$T/check.out" ||
	fail "no moved member found"
html_quiet "$T/d.html" d
