#!/bin/sh
# Debug info that pahole 1.24 cannot read (it prints nothing): dwz-compressed
# files (partial units in the file itself, or in a supplementary file named
# by .gnu_debugaltlink) and split DWARF (.dwo files behind skeleton units).
# The oracle is the same program built normally: hitmap must load exactly the
# same structs, members and variable addresses from every form.
. "$top_srcdir/tests/lib.sh"
DUMP="$top_builddir/tests/types/typedump"
require dwz dwz

cat >"$T/hdr.h" <<'X'
struct shared {
	long a;
	int b;
	struct shared *next;
};
typedef struct shared shared_t;
struct counters {
	unsigned long hits, misses;
	unsigned flags : 3, busy : 1;
};
X
cat >"$T/a.c" <<'X'
#include "hdr.h"
struct only_a { shared_t s; char c; struct counters k; } ga;
struct counters ca;
int main(void) { return 0; }
X
cat >"$T/b.c" <<'X'
#include "hdr.h"
struct only_b { struct shared *p; int x; } gb;
struct shared gs;
struct counters cb;
X
cat >"$T/c.c" <<'X'
#include "hdr.h"
struct only_c { struct counters k[2]; } gc;
int main(void) { return gc.k[0].busy; }
X

# dump FILE: everything typedump loads, order-independent: members,
# variables, and each struct's decl file:line
dump() {
	"$DUMP" -o -V "$1" >"$1.raw" || fail "typedump $1"
	"$DUMP" "$1" | grep ' decl ' >>"$1.raw" || fail "typedump $1"
	sort "$1.raw"
}

for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	for dw in 4 5; do
		d="$T/$cc-$dw"
		mkdir -p "$d"
		cp "$T/hdr.h" "$T/a.c" "$T/b.c" "$T/c.c" "$d/"
		echo "+ $cc -g -gdwarf-$dw -O0 a.c b.c -o ab; $cc ... a.c? c.c -o c" >&2
		(cd "$d" && $cc -g -gdwarf-$dw -O0 -o ab a.c b.c && $cc -g -gdwarf-$dw -O0 -o c c.c) ||
			fail "build"
		dump "$d/ab" >"$d/ab.want"
		dump "$d/c" >"$d/c.want"

		# dwz, one file: partial units inside it
		cp "$d/ab" "$d/ab.dwz"
		if dwz "$d/ab.dwz" 2>"$d/dwz.err"; then
			dump "$d/ab.dwz" >"$d/ab.dwz.got"
			assert_files_eq "$d/ab.want" "$d/ab.dwz.got" "$cc-$dw: dwz single file"
		else
			echo "dwz cannot process $cc -gdwarf-$dw output: $(cat "$d/dwz.err")" >&2
			continue
		fi

		# dwz -m: types common to both programs move to a supplementary file
		cp "$d/ab" "$d/ab.m"
		cp "$d/c" "$d/c.m"
		(cd "$d" && dwz -m common.debug -M common.debug ab.m c.m) 2>"$d/dwz.err" ||
			fail "$cc-$dw: dwz -m: $(cat "$d/dwz.err")"
		[ -n "$(readelf -S "$d/ab.m" | grep gnu_debugaltlink)" ] ||
			fail "$cc-$dw: dwz -m made no supplementary file"
		dump "$d/ab.m" >"$d/ab.m.got"
		assert_files_eq "$d/ab.want" "$d/ab.m.got" "$cc-$dw: dwz -m (ab)"
		dump "$d/c.m" >"$d/c.m.got"
		assert_files_eq "$d/c.want" "$d/c.m.got" "$cc-$dw: dwz -m (c)"
		# without the supplementary file the types are gone: an error
		mv "$d/common.debug" "$d/common.away"
		assert_exit 3 "missing dwz file" "$DUMP" -l "$d/ab.m"
		assert_eq "error: $d/ab.m: dwz supplementary file common.debug not found (.gnu_debugaltlink)" \
			"$(cat "$T/err")" "$cc-$dw: missing dwz file message"
		mv "$d/common.away" "$d/common.debug"
	done
done

# split DWARF: gcc at DWARF 4 (GNU extension) and 5, clang at 5
for cfg in gcc:4 gcc:5 clang:5; do
	cc=${cfg%:*} dw=${cfg#*:}
	command -v $cc >/dev/null 2>&1 || continue
	d="$T/split-$cc-$dw"
	mkdir -p "$d"
	cp "$T/hdr.h" "$T/a.c" "$T/b.c" "$d/"
	echo "+ $cc -g -gdwarf-$dw -gsplit-dwarf -O0 -o ab a.c b.c" >&2
	(cd "$d" && $cc -g -gdwarf-$dw -O0 -o plain a.c b.c &&
		$cc -g -gdwarf-$dw -gsplit-dwarf -O0 -o ab a.c b.c) || fail "build split"
	ls "$d"/*.dwo >/dev/null 2>&1 || fail "$cc -gsplit-dwarf made no .dwo"
	dump "$d/plain" >"$d/want"
	dump "$d/ab" >"$d/got"
	assert_files_eq "$d/want" "$d/got" "$cc-$dw: split DWARF"
	# run from elsewhere: the .dwo is found through DW_AT_comp_dir
	(cd / && "$DUMP" -l "$d/ab" >/dev/null) || fail "$cc-$dw: split DWARF from another directory"
	dwo=$(ls "$d"/*.dwo | head -1)
	mv "$dwo" "$dwo.away"
	assert_exit 3 "missing .dwo" "$DUMP" -l "$d/ab"
	grep -q "^error: $d/ab: split DWARF file .*$(basename "$dwo") not found" "$T/err" ||
		fail "$cc-$dw: missing .dwo message: $(cat "$T/err")"
	mv "$dwo.away" "$dwo"
done
exit 0
