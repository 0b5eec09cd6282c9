#!/bin/sh
# hitmap layout --json lists every member the text prints, at every nesting
# level: for every struct of every layout fixture (C and C++, gcc and clang,
# DWARF 4 and 5), with and without -E, jsontext.py walks the text body (the
# pahole-compatible one diff-pahole.sh checks against pahole) and the JSON
# together and fails on the first member or hole that differs in name, order,
# offset or size -- named members of anonymous types (`union {...} u;`)
# included.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/layout/build-fixtures.sh"
require python3 python3
build_layout_fixtures "$T" gcc:4:-O0 gcc:5:-O2 clang:4:-O2 clang:5:-O0
for bin in "$T"/*/fx "$T"/*/fxcxx "$T"/*/mm_v1 "$T"/*/mm_v2 "$T"/*/groups; do
	label=${bin#"$T"/}
	for e in "" -E; do
		"$HITMAP" layout $e "$bin" >"$bin.txt$e" || fail "$label: hitmap layout $e"
		"$HITMAP" layout $e --json "$bin" >"$bin.json$e" || fail "$label: hitmap layout $e --json"
		python3 "$TESTS_SRC/layout/jsontext.py" "$bin.txt$e" "$bin.json$e" "$label $e" ||
			fail "$label $e: the JSON and the text differ"
	done
done
