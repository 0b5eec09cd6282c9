#!/bin/sh
# -C takes a struct's name as C spells it too: 'struct d' and 'union u' name
# what 'd' and 'u' name (pahole's first line, `struct d {`, is the oracle for
# which type that is), in layout, lint and suggest alike.
. "$top_srcdir/tests/lib.sh"
require pahole dwarves
build_fixture "$TESTS_SRC/check/directives.c" "$T/d" gcc 5 -O0
pahole -C d "$T/d" 2>/dev/null | head -1 >"$T/want"
assert_eq "struct d {" "$(cat "$T/want")" "pahole -C d"
assert_exit 0 "layout -C d" "$HITMAP" layout -C d "$T/d"
cp "$T/out" "$T/plain"
assert_exit 0 "layout -C 'struct d'" "$HITMAP" layout -C 'struct d' "$T/d"
assert_files_eq "$T/plain" "$T/out" "layout -C 'struct d'"
assert_exit 0 "layout -C 'struct  d,struct d'" "$HITMAP" layout -C ' struct  d' "$T/d"
assert_files_eq "$T/plain" "$T/out" "layout -C ' struct  d'"
set +e
"$HITMAP" lint -C d "$T/d" >"$T/l1" 2>&1; a=$?
"$HITMAP" lint -C 'struct d' "$T/d" >"$T/l2" 2>&1; b=$?
set -e 2>/dev/null; set +e
[ $a = $b ] || fail "lint -C 'struct d': exit $b, -C d $a"
assert_files_eq "$T/l1" "$T/l2" "lint -C 'struct d'"
exit 0
