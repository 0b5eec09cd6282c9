#!/bin/sh
# hitmap diff on a name defined differently in two files of one program
# (diff-dups.c: struct priv of src/x/priv.c and of src/y/priv.c).  The old
# and new builds sit in different directories and link the files in
# opposite orders, so neither load order nor the absolute declaration path
# pairs the definitions: only the shared path tail (src/y/priv.c) does.
# The notes are those diff-dups.c's header derives for y's priv, and
# nothing is said of x's (unchanged) one.  gcc and clang, DWARF 4 and 5.
. "$top_srcdir/tests/lib.sh"
S="$top_srcdir/tests/check/diff-dups.c"
cat >"$T/want" <<'X'
note: 2 structs compared, 1 changed; 0 only in the old build, 0 only in the new
note: priv: size 72 -> 64 (-8), cachelines 2 -> 1
note: priv: name 60 -> 52 (char[52])
note: priv: hits moved from offset 64 (line 1) to 56 (line 0)
note: priv: 1 member changed offset
note: priv: 2 member pairs newly share a cacheline
  flags + hits
  name + hits
hitmap diff: 0 errors, 0 warnings, 5 notes
X
for cc in gcc clang; do
	require $cc $cc
	for dw in 4 5; do
		for v in old new; do
			d="$T/$cc-$dw-$v"
			def=
			[ $v = new ] && def=-DV2
			mkdir -p "$d/src/x" "$d/src/y"
			cp "$S" "$d/src/x/priv.c"
			cp "$S" "$d/src/y/priv.c"
			cp "$S" "$d/src/main.c"
			(cd "$d" && $cc -g -gdwarf-$dw -O0 -c -DX $def src/x/priv.c -o x.o &&
			 $cc -g -gdwarf-$dw -O0 -c -DY $def src/y/priv.c -o y.o &&
			 $cc -g -gdwarf-$dw -O0 -c -DMAIN src/main.c -o m.o) ||
				fail "$cc -gdwarf-$dw: cannot build $v"
		done
		(cd "$T/$cc-$dw-old" && $cc -o app m.o x.o y.o) || fail "link old"
		(cd "$T/$cc-$dw-new" && $cc -o app m.o y.o x.o) || fail "link new"
		assert_exit 0 "$cc -gdwarf-$dw: diff" "$HITMAP" diff "$T/$cc-$dw-old/app" \
			"$T/$cc-$dw-new/app"
		assert_files_eq "$T/want" "$T/out" "$cc -gdwarf-$dw: diff of two priv definitions"
		assert_exit 0 "$cc -gdwarf-$dw: diff -C priv" "$HITMAP" diff -C priv \
			"$T/$cc-$dw-old/app" "$T/$cc-$dw-new/app"
		assert_files_eq "$T/want" "$T/out" "$cc -gdwarf-$dw: diff -C priv"
	done
done
exit 0
