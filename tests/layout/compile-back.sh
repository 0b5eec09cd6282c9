#!/bin/sh
# C declarations that compile back: for every struct and union of every C
# layout fixture (gcc and clang, DWARF 4 and 5, -O0 and -O2), hitmap's text
# turned back into C (compileback.py: comments dropped, the type renamed,
# after the fixture sources that hold its dependencies) compiles, with the
# compiler that built the fixture, to the original's sizeof and alignment,
# and every member the JSON lists at every level has the original's offset
# and the printed one (_Static_asserts).  Cases that once failed: `const
# char *const groups[4]` (spelled `const const char * const`), vector
# members (spelled `int v[8]`), a struct packed only by the size of the
# union it sits in (mac80211's ieee80211_mgmt: sizeof 52 instead of 50).
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/layout/build-fixtures.sh"
require python3 python3
require clang clang
build_layout_fixtures "$T" gcc:4:-O0 gcc:5:-O2 clang:4:-O2 clang:5:-O0
src=$TESTS_SRC/layout
fix=$TESTS_SRC/fixtures
for dir in "$T"/*-*; do
	cfg=${dir#"$T"/}
	cc=${cfg%%-*}
	for b in fx mm_v1 mm_v2 groups; do
		case $b in
		fx) deps="$src/fx-main.c $src/fx-basic.c $src/fx-bits.c $src/fx-nest.c $src/fx-align.c $src/fx-faults.c" ;;
		*) deps=$fix/$b.c ;;
		esac
		"$HITMAP" layout "$dir/$b" >"$dir/$b.txt" || fail "$cfg/$b: hitmap layout"
		"$HITMAP" layout --json "$dir/$b" >"$dir/$b.json" || fail "$cfg/$b: hitmap layout --json"
		# shellcheck disable=SC2086
		python3 "$src/compileback.py" "$cc" "$dir/$b.txt" "$dir/$b.json" "$dir/$b-back.c" $deps ||
			fail "$cfg/$b: hitmap's text does not compile back to the same layout"
	done
done
