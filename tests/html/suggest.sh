#!/bin/sh
# suggest --html on the false-sharing example with a rule keeping its two
# counters apart: each proposal is drawn before (today's layout, every member
# at the offsets and sizes of layout --json) and after (the size and lines
# of suggest --json), with its byte cost; the page requests nothing and logs
# no error.
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
grep -q 'ok suggest: 1 structs, [1-9]' "$T/check.out" || fail "no proposal drawn"
html_quiet "$T/s.html" s
