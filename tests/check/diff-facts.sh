#!/bin/sh
# The notes of hitmap diff — size, alignment gained, members added, removed,
# moved to another line, alignment attribute, pairs newly sharing or no
# longer sharing a line, a group span — on diff-facts.c built without and
# with -DV2 (its header comment derives each one).  No error: exit 0, also
# with --fail-on warn.  gcc and clang, DWARF 4 and 5.
. "$top_srcdir/tests/lib.sh"
require clang clang
S="$top_srcdir/tests/check"
cd "$T" || exit 1
for cc in gcc clang; do
	for dw in 4 5; do
		what="$cc -gdwarf-$dw"
		build_fixture "$S/diff-facts.c" v1 $cc $dw -O0
		build_fixture "$S/diff-facts.c" v2 $cc $dw -O0 -DV2
		assert_exit 0 "$what: diff" "$HITMAP" diff --fail-on warn v1 v2
		assert_files_eq "$S/diff-facts.expected" "$T/out" "$what: diff"
	done
done
exit 0
