#!/bin/sh
# Deep nesting with several members per level: no exponential walk.
#
# Generated at test time: struct S_i (i = 1..40) holds S_(i-1) three times in
# a union — as a member, as an array of a volatile typedef of a const
# typedef of it, and as a two-dimensional array — plus, every fourth level,
# a zero-length array of it and a 16-byte aligned member, and bitfields or
# pointers on the others.  S0 holds two atomic_t.  A walk that descends into every member
# type without remembering what it computed visits S0 3^40 times; gcc and
# clang compile the file in milliseconds and pahole prints it at once.
# Every command runs under `timeout 20`, so such a walk fails the test
# rather than hanging it.  The layouts must equal pahole's.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/robust/lib-robust.sh"
require pahole dwarves
require clang clang
TMO=20
D=40

awk -v D=$D 'BEGIN {
	print "typedef struct { int counter; } atomic_t;"
	print "struct S0 { atomic_t cnt; atomic_t cnt2; };"
	for (i = 1; i <= D; i++) {
		p = i - 1
		printf "typedef const struct S%d C%d;\ntypedef volatile C%d V%d;\n", p, p, p, p
		printf "struct S%d {\n\tunion {\n\t\tstruct S%d a;\n\t\tV%d b[1];\n", i, p, p
		printf "\t\tstruct S%d c[1][1];\n\t} u;\n", p
		if (i % 4 == 0)
			printf "\tchar tag;\n\tC%d z[0];\n\tlong long w __attribute__((aligned(16)));\n", p
		else if (i % 4 == 1)
			printf "\tshort tag;\n\tconst char *name;\n"
		else if (i % 4 == 2)
			printf "\tvoid *tag;\n"
		else
			printf "\tint tag : 3;\n\tunsigned int flag : 1;\n"
		print "};"
	}
	printf "struct S%d g_top;\n", D
}' >"$T/deep.c"

# pahole_cmp WHAT PAHOLE-ARGS -- HITMAP-ARGS: the two printouts are equal
# once hitmap's own "/* hitmap: " lines are left out.
pahole_cmp() {
	what=$1; shift
	pa=
	while [ "$1" != -- ]; do pa="$pa $1"; shift; done
	shift
	# shellcheck disable=SC2086
	pahole -F dwarf -M --suppress_force_paddings $pa >"$T/pa" 2>/dev/null
	run_hm "$@"
	[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "$what: hitmap $*: exit $rc"; }
	grep -v '/\* hitmap: ' "$T/out" >"$T/hm"
	[ -s "$T/pa" ] || fail "$what: pahole printed nothing"
	assert_files_eq "$T/pa" "$T/hm" "$what: hitmap $* differs from pahole"
}

for cc in gcc clang; do
	# the compiler's own sizeof and _Alignof
	{ cat "$T/deep.c"; printf '#include <stdio.h>\nint main(void)\n{\n'
	  printf '\tprintf("%%zu %%zu\\n", sizeof(struct S%d), _Alignof(struct S%d));\n' $D $D
	  printf '\treturn 0;\n}\n'; } >"$T/size.c"
	$cc -o "$T/size-$cc" "$T/size.c" || fail "cannot build size.c with $cc"
	want=$("$T/size-$cc")
	for dw in 4 5; do
		o=$T/$cc-$dw.o
		build_fixture "$T/deep.c" "$o" $cc $dw -O0 -c
		pahole_cmp "$cc -gdwarf-$dw" -C S$D "$o" -- layout -C S$D "$o"
		# size and alignment of the top struct, as the compiler has them
		run_hm layout -C S$D --json "$o"
		sz=$(grep -m1 '"size":' "$T/out" | tr -dc 0-9)
		al=$(grep -m1 '"alignment":' "$T/out" | tr -dc 0-9)
		assert_eq "$want" "$sz $al" "$cc -gdwarf-$dw: sizeof and _Alignof S$D"
		pahole_cmp "$cc -gdwarf-$dw" "$o" -- layout "$o"

		# lint: S10 lies within the 32 levels a layout expands.  Each of
		# its 10 unions has the arrays b and c (lint judges an array by
		# what it holds: S0's atomic_t) beside a, down to the innermost
		# S0's cnt and cnt2; all but those two are alternatives of one
		# union, no pair.  cnt and cnt2 are S0's pair, reported at S0
		# (-C S10 lints it too).  S10's tag, a pointer (read-mostly), is at
		# 160 on line 2, which S10's u.b and u.c (S9: 160 bytes) and S9's
		# u.b and u.c (S8: 144 bytes) reach, and nothing deeper (S7: 112):
		# those four are contention-prone next to it.
		run_hm lint -C S10 --json "$o"
		[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "$cc -gdwarf-$dw: lint -C S10: exit $rc"; }
		n=$(grep '"message":' "$T/out" | sed 's/^ *"message": //' | tr '\n' ' ')
		assert_eq '"cacheline 2: u.a.u.b, u.a.u.c, u.b and u.c (0 locks, 4 atomics) next to 1 read-mostly member; score 4", "cacheline 0: cnt and cnt2 (0 locks, 2 atomics, 1 pair); score 1", ' \
			"$n" "$cc -gdwarf-$dw: lint -C S10"
		# S40's expansion stops 32 levels down (16 structs, 16 unions) at
		# a union that holds S0's atomic_t 24 structs further down, an
		# alternative of the arrays b and c above it as in S10, and S40
		# has no read-mostly member: no finding, in the time allowed.
		run_hm lint -C S$D "$o"
		[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "$cc -gdwarf-$dw: lint -C S$D: exit $rc"; }
		assert_eq "hitmap lint: 0 errors, 0 warnings, 0 notes" "$(cat "$T/out")" \
			"$cc -gdwarf-$dw: lint -C S$D"
		run_hm lint "$o"
		[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "$cc -gdwarf-$dw: lint: exit $rc"; }

		# check: u (bytes 0-751) and tag (752) share line 11; max-size is
		# pahole's size.
		printf 'struct S%d {\n    apart u tag\n    max-size 784\n}\n' $D >"$T/r.rules"
		run_hm check --rules "$T/r.rules" "$o"
		[ "$rc" = 1 ] || { cat "$T/err" "$T/out" >&2; fail "$cc -gdwarf-$dw: check: exit $rc, want 1"; }
		grep -q "^error: S$D: u and tag share cacheline 11" "$T/out" ||
			fail "$cc -gdwarf-$dw: check: apart u tag not reported"
		grep -q "2 rules: 1 passed, 1 failed" "$T/out" ||
			fail "$cc -gdwarf-$dw: check: max-size 784 should pass"

		run_hm suggest --lint -C S$D "$o"
		[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "$cc -gdwarf-$dw: suggest --lint: exit $rc"; }
		grep -q "^today: 784 bytes, 13 cachelines, 1 hole (15 bytes)" "$T/out" ||
			fail "$cc -gdwarf-$dw: suggest: S$D today is pahole's 784 bytes, 1 hole of 15"
	done
	# the same source from two DWARF versions: the same layouts
	run_hm diff "$T/$cc-4.o" "$T/$cc-5.o"
	[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "$cc: diff -gdwarf-4 -gdwarf-5: exit $rc"; }
	grep -q "hitmap diff: 0 errors, 0 warnings" "$T/out" ||
		{ cat "$T/out" >&2; fail "$cc: diff between DWARF versions found changes"; }
done
# -E on a chain 40 deep (each level one struct, or a union of one, and an
# int): every level printed as pahole prints it, its indentation stopping
# at 16 tabs (the printer once gave up past 24 levels and printed members
# without type or name).
awk 'BEGIN {
	print "struct C0 { int x; };"
	for (i = 1; i <= 40; i++)
		printf "struct C%d { struct C%d a%d; int y%d; };\n", i, i - 1, i, i
	print "struct U0 { int x; };"
	for (i = 1; i <= 40; i++)
		printf "struct U%d { union { struct U%d a%d; long l%d; }; int y%d; };\n", i, i - 1, i, i, i
	print "struct C40 g_c; struct U40 g_u;"
}' >"$T/chain.c"
for cc in gcc clang; do
	for dw in 4 5; do
		o=$T/chain-$cc-$dw.o
		build_fixture "$T/chain.c" "$o" $cc $dw -O0 -c
		for s in C40 U40; do
			pahole_cmp "$cc -gdwarf-$dw" -E -C $s "$o" -- layout -E -C $s "$o"
		done
	done
done
exit 0
