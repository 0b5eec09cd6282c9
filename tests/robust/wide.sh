#!/bin/sh
# A struct with 100 000 members: layout, lint and check stay linear.
#
# Generated at test time: struct W repeats seven members — char c, long l,
# unsigned int b:3, void *p, atomic_t a, short s[3], int i (the number is
# the member's index) — 14 286 times, less two at the end.  Laid out as the
# compilers do: c at 0, l at 8, b in the unit at 16, p at 24, a at 32, s at
# 36, i at 44, the next c at 48: a 48-byte period.  Every command runs under
# `timeout 20`; a walk that tests every member against every other one
# takes minutes.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/robust/lib-robust.sh"
require pahole dwarves
require clang clang
TMO=20
N=100000

awk -v N=$N 'BEGIN {
	print "typedef struct { int counter; } atomic_t;"
	print "struct W {"
	for (i = 0; i < N; i++) {
		k = i % 7
		if (k == 0) printf "\tchar c%d;\n", i
		else if (k == 1) printf "\tlong l%d;\n", i
		else if (k == 2) printf "\tunsigned int b%d : 3;\n", i
		else if (k == 3) printf "\tvoid *p%d;\n", i
		else if (k == 4) printf "\tatomic_t a%d;\n", i
		else if (k == 5) printf "\tshort s%d[3];\n", i
		else printf "\tint i%d;\n", i
	}
	print "};"
	print "struct W g_wide;"
}' >"$T/wide.c"

# pahole 1.24 counts members in 16 bits and holes and bit holes in 8: its
# summary wraps (100000 members print as 34464).  Wrap hitmap's the same
# way before comparing; everything else must be equal.
wrap_counts() {
	awk 'function wrap(s, key, mod,   v) {
		if (!match(s, ", " key ": [0-9]+"))
			return s
		v = substr(s, RSTART + length(key) + 4, RLENGTH - length(key) - 4)
		return substr(s, 1, RSTART - 1) ", " key ": " (v % mod) substr(s, RSTART + RLENGTH)
	}
	/^\t\/\* size: / { $0 = wrap($0, "members", 65536) }
	/^\t\/\* sum members: / { $0 = wrap($0, "holes", 256) }
	/^\t\/\* sum bitfield members: / { $0 = wrap($0, "bit holes", 256) }
	{ print }' "$1"
}

# clang's DWARF 5 names the strings past the 65 536th with DW_FORM_strx3
# (see src/lib/dwarf/dwarf-x3.h), in an object file whose string offsets are
# relocations.
for build in gcc-4 gcc-5 clang-4 clang-5; do
	cc=${build%-*}
	dw=${build#*-}
	o=$T/$build.o
	build_fixture "$T/wide.c" "$o" $cc $dw -O0 -c
	pahole -F dwarf -M --suppress_force_paddings -C W "$o" >"$T/pa" 2>/dev/null
	run_hm layout -C W "$o"
	[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "$build: layout -C W: exit $rc"; }
	grep -q "size: 685720, cachelines: 10715, members: 100000 " "$T/out" ||
		fail "$build: W is 14 285 periods of 48 bytes and one of 40: 685720 bytes"
	wrap_counts "$T/out" >"$T/hm"
	assert_files_eq "$T/pa" "$T/hm" "$build: layout -C W differs from pahole"

	run_hm layout --list "$o"
	[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "$build: layout --list: exit $rc"; }
	grep -q "^W	685720	" "$T/out" || { cat "$T/out" >&2; fail "$build: --list: W 685720"; }

	# lint, with W aligned to 8 (long, pointer): two atomics 48 bytes apart
	# span 52 bytes, which some 8-aligned start puts on one line; 96 apart
	# they never are.  So each of the 14 286 atomics (a_k at 32 + 48k) is
	# paired with the next, the pair counted on a_k's line, (32 + 48k) / 64
	# for k = 0..14 284: every line 0..10 713, as 48 < 64 (10 714 findings).
	# Each atomic has read-mostly pointers on its line (its own p, 8 bytes
	# before it); the last one, a_14285 at 685 712 (line 10 714), has only
	# them: one lint-read-mostly finding.
	run_hm lint --json "$o"
	[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "$build: lint: exit $rc"; }
	assert_eq 10714 "$(grep -c '"kind": "lint-shared"' "$T/out")" "$build: lint-shared"
	assert_eq 1 "$(grep -c '"kind": "lint-read-mostly"' "$T/out")" \
		"$build: lint-read-mostly"

	# check: a4/a11 are 48 bytes apart (may share), a4/a18 96 (never),
	# max-size is pahole's size
	printf 'struct W {\n    apart a4 a11\n    apart a4 a18\n    max-size 685720\n}\n' \
		>"$T/w.rules"
	run_hm check --rules "$T/w.rules" "$o"
	[ "$rc" = 1 ] || { cat "$T/err" "$T/out" >&2; fail "$build: check: exit $rc, want 1"; }
	grep -q "3 rules: 2 passed, 1 failed" "$T/out" ||
		{ cat "$T/out" >&2; fail "$build: check: want a4/a11 to fail, the others to pass"; }
	run_hm check --lint -C W "$o"
	[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "$build: check --lint: exit $rc"; }

	# suggest on lint's 14 285 pairs: every variant copies 100 000 slots,
	# so the search stops at its memory budget, says so, and still
	# proposes (bounded: once it was cubic in memory and killed at 3 000)
	run_hm suggest --lint -C W "$o"
	[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "$build: suggest --lint: exit $rc"; }
	grep -q "^note: search stopped at 256 MiB of variants (100000 members each)" "$T/out" ||
		{ head -20 "$T/out" >&2; fail "$build: suggest: no note on the stopped search"; }
	# how many of the variants tried survive ranking is the ranking's
	# business (the growth budget, equal layouts), and so is which change
	# of a4 (the first atomic, in the first pair) comes first; the list
	# stays within one screen's 8 and starts with a4
	grep -Eq "^[1-8] proposals?, best first" "$T/out" ||
		{ head -20 "$T/out" >&2; fail "$build: suggest: want 1 to 8 proposals"; }
	grep -Eq "^#1 (align|move) a4( |$)" "$T/out" ||
		{ head -20 "$T/out" >&2; fail "$build: suggest: want #1 to align or move a4"; }
done
exit 0
