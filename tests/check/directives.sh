#!/bin/sh
# Every rule directive, passing (pass.rules) and failing (fail.rules), on
# directives.c, whose offsets are derived in its header comment (pahole
# prints the same).  Outputs are compared exactly; a global's link-time
# address depends on the compiler and is masked.  gcc and clang, DWARF 4/5.
. "$top_srcdir/tests/lib.sh"
require clang clang
S="$top_srcdir/tests/check"
cd "$S" || exit 1
for cc in gcc clang; do
	for dw in 4 5; do
		what="$cc -gdwarf-$dw"
		build_fixture "$S/directives.c" "$T/dir" $cc $dw -O0

		assert_exit 0 "$what: pass.rules" "$HITMAP" check -v --rules pass.rules "$T/dir"
		assert_files_eq "$S/pass.expected" "$T/out" "$what: pass.rules"

		assert_exit 1 "$what: fail.rules" "$HITMAP" check --rules fail.rules "$T/dir"
		sed 's/0x[0-9a-f]*/0xADDR/' "$T/out" >"$T/out.masked"
		assert_files_eq "$S/fail.expected" "$T/out.masked" "$what: fail.rules"

		# --fail-on warn turns the warn rule into a failure of its own.
		printf 'struct d {\n    warn apart next in.b\n}\n' >"$T/warn.rules"
		assert_exit 0 "$what: warn rule, --fail-on error" "$HITMAP" check \
			--rules "$T/warn.rules" "$T/dir"
		assert_exit 1 "$what: warn rule, --fail-on warn" "$HITMAP" check \
			--fail-on warn --rules "$T/warn.rules" "$T/dir"

		# --assume-aligned: u is then laid out from a line boundary, so b and
		# c (lines 0 and 1) no longer can share.
		printf 'struct u {\n    apart b c\n}\n' >"$T/u.rules"
		assert_exit 1 "$what: u worst case" "$HITMAP" check --rules "$T/u.rules" "$T/dir"
		assert_exit 0 "$what: u assumed aligned" "$HITMAP" check --assume-aligned \
			--rules "$T/u.rules" "$T/dir"

		# --pair-lines: hot (line 0) and next (line 1) form one prefetch pair.
		printf 'struct d {\n    apart hot next\n}\n' >"$T/p.rules"
		assert_exit 0 "$what: lines 0/1 apart" "$HITMAP" check --rules "$T/p.rules" "$T/dir"
		assert_exit 1 "$what: lines 0/1 paired" "$HITMAP" check --pair-lines \
			--rules "$T/p.rules" "$T/dir"
		assert_eq "error: d: hot and next share the prefetch pair of cachelines 0-1" \
			"$(head -1 "$T/out")" "$what: --pair-lines message"
	done
done
exit 0
