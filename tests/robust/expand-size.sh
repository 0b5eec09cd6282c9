#!/bin/sh
# A printout that doubles at every level is refused before it is printed.
#
# `union { U a, b; }` gives both members one anonymous type, so n such
# levels print 2^(n+2) member lines (each level: two lines for a and b,
# plus what each expands to); pointees that are anonymous print inline as
# well, and with -E named members do.  The layout printer counts those
# lines on the type graph first: what it prints must be pahole's text, line
# for line, and what it refuses must be past the 16 MiB cap (20 bytes a
# line at least: 838 861 lines), refused with the cap's own error and
# without building the printout (its memory stays far below 16 MiB).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/robust/lib-robust.sh"

# gen N: the C of N levels, anonymous (top, ptop, ttop) and named (ntop).
gen() {
	t="union { int x; char y; }" u="union u0 { int x; char y; };" k=1
	while [ $k -le "$1" ]; do
		t="union { $t a, b; }"
		u="$u
union u$k { union u$((k - 1)) a, b; };"
		k=$((k + 1))
	done
	cat <<EOF
struct top { $t u; int tail; } top_v;
struct ptop { $t *p; int tail; } ptop_v;
typedef struct { $t u; int tail; } ttop;
ttop ttop_v;
$u
struct ntop { union u$1 u; int tail; } ntop_v;
EOF
}

# lines FILE: member lines (those ending in an offset comment)
lines() { grep -cE '/\* +[0-9]+ +[0-9]+ \*/$' "$1"; }

gen 8 >"$T/small.c"
gen 18 >"$T/big.c"
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || { echo "$cc not installed: skipped" >&2; continue; }
	case $cc in gcc) dw=4 ;; *) dw=5 ;; esac
	build_fixture "$T/small.c" "$T/small-$cc.o" $cc $dw -O0 -c
	build_fixture "$T/big.c" "$T/big-$cc.o" $cc $dw -O0 -c

	# 8 levels: 2^10 member lines in each, as pahole prints them
	for c in top ptop ttop "ntop -E"; do
		# shellcheck disable=SC2086
		run_hm layout -C $c "$T/small-$cc.o"
		assert_eq 0 "$rc" "$cc: layout -C $c (8 levels): exit status"
		assert_eq 1024 "$(lines "$T/out")" "$cc: layout -C $c (8 levels): member lines"
		# pahole reads gcc's object: on clang's it prints each anonymous
		# union a second time, as an unnamed member (clang declares the
		# type inside the struct); the text is the same for both compilers
		if command -v pahole >/dev/null 2>&1 && [ -f "$T/small-gcc.o" ]; then
			# shellcheck disable=SC2086
			pahole -C $c "$T/small-gcc.o" >"$T/pahole" ||
				fail "$cc: pahole -C $c failed"
			assert_files_eq "$T/pahole" "$T/out" "$cc: layout -C $c against pahole"
		fi
	done
	# without -E the named unions print by name
	run_hm layout -C ntop "$T/big-$cc.o"
	assert_eq 0 "$rc" "$cc: layout -C ntop (18 levels): exit status"
	assert_eq 2 "$(lines "$T/out")" "$cc: layout -C ntop (18 levels): member lines"

	# 18 levels: 2^20 lines, 20 MiB at the very least
	for c in top ptop ttop "ntop -E"; do
		# shellcheck disable=SC2086
		run_hm layout -C $c "$T/big-$cc.o"
		assert_eq 3 "$rc" "$cc: layout -C $c (18 levels): exit status"
		assert_eq "error: $T/big-$cc.o: cannot print layout: File too large" \
			"$(cat "$T/err")" "$cc: layout -C $c (18 levels)"
		[ -s "$T/out" ] && fail "$cc: layout -C $c (18 levels): output despite the error"
	done
	# the whole file: the types before the refused one are printed, and
	# the error says the output is incomplete
	run_hm layout "$T/big-$cc.o"
	assert_eq 3 "$rc" "$cc: layout (18 levels): exit status"
	assert_eq "error: $T/big-$cc.o: cannot print layout: File too large (the output above is incomplete)" \
		"$(cat "$T/err")" "$cc: layout (18 levels)"

	# Refused before printing: the peak memory of the refusal is that of
	# printing 8 levels (100 KiB), not 16 MiB more.
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o "$T/rss-small" "$HM_RUN" layout -C top "$T/small-$cc.o" >/dev/null
		/usr/bin/time -f %M -o "$T/rss-big" "$HM_RUN" layout -C top "$T/big-$cc.o" \
			>/dev/null 2>&1
		small=$(tail -1 "$T/rss-small") big=$(tail -1 "$T/rss-big")
		echo "$cc: peak memory: 8 levels printed $small KiB, 18 levels refused $big KiB"
		[ "$big" -lt $((small + 8192)) ] ||
			fail "$cc: the refusal took $big KiB, printing 8 levels $small KiB: it printed first"
	else
		echo "/usr/bin/time not installed (Debian package time): peak memory not compared" >&2
	fi
done
