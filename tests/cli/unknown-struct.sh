#!/bin/sh
# One message for a -C name the binary lacks, in every command that takes
# one: "FILE: no struct, union or class named 'X'", with the close names
# (did you mean) when there are some; exit 2.  diff names both builds when
# neither has it.
. "$top_srcdir/tests/lib.sh"
build_fixture "$top_srcdir/tests/check/reasons.c" "$T/r" gcc 5 -O0
for cmd in "layout" "check" "lint" "suggest --lint"; do
	assert_exit 2 "$cmd -C con" "$HITMAP" $cmd -C con "$T/r"
	assert_eq "error: $T/r: no struct, union or class named 'con' (did you mean 'conn'?)" \
		"$(cat "$T/err")" "$cmd -C con"
	assert_exit 2 "$cmd -C slab_con" "$HITMAP" $cmd -C slab_con "$T/r"
	assert_eq "error: $T/r: no struct, union or class named 'slab_con' (did you mean 'slab_conn'?)" \
		"$(cat "$T/err")" "$cmd -C slab_con"
	assert_exit 2 "$cmd -C zzzzzzzz" "$HITMAP" $cmd -C zzzzzzzz "$T/r"
	assert_eq "error: $T/r: no struct, union or class named 'zzzzzzzz'" \
		"$(cat "$T/err")" "$cmd -C zzzzzzzz"
done
# diff: a name neither build has
assert_exit 2 "diff -C con" "$HITMAP" diff -C con "$T/r" "$T/r"
assert_eq "error: $T/r and $T/r: no struct, union or class named 'con' (did you mean 'conn'?)" \
	"$(cat "$T/err")" "diff -C con"
exit 0
