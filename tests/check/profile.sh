#!/bin/sh
# check --profile on directives.c (offsets in its header comment) with
# profile.json, written by hand in the hitmap-profile/1 format of heat.h:
#  - pair hot/cold (both line 0) contends: error;
#  - pair hot/next (lines 0 and 1): passes;
#  - in.a is truly shared and sits on line 1 with the hot field next: error;
#  - solo is truly shared alone on line 3: passes;
#  - a member and a struct the binary lacks: notes; a scalar global entry is
#    not a struct and is left out.
# A malformed or missing profile is unreadable input: exit 3, one line.
. "$top_srcdir/tests/lib.sh"
S="$top_srcdir/tests/check"
build_fixture "$S/directives.c" "$T/dir" gcc 5 -O0
assert_exit 1 "check --profile" "$HITMAP" check --profile "$S/profile.json" "$T/dir"
assert_files_eq "$S/profile.expected" "$T/out" "check --profile"

printf '{ "schema": "hitmap-profile/1", "structs": [ { "name": ' >"$T/bad.json"
assert_exit 3 "malformed profile" "$HITMAP" check --profile "$T/bad.json" "$T/dir"
assert_eq "error: $T/bad.json:1:56: unexpected end of input" "$(cat "$T/err")" \
	"malformed profile"
assert_exit 3 "missing profile" "$HITMAP" check --profile "$T/none.json" "$T/dir"
[ "$(wc -l <"$T/err")" = 1 ] || fail "missing profile: one line expected"
exit 0
