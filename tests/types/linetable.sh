#!/bin/sh
# hitmap's own .debug_line reader (src/lib/dwarf/dwline.c), which names the files
# behind DW_AT_decl_file and the code locations of reports:
#  - the rows of every line program equal binutils' (`readelf -wL -W`) on
#    gcc and clang builds, DWARF 2 to 5;
#  - every file name equals libdwarf's dwarf_srcfiles(), except libdwarf's
#    known fault of prefixing a relative comp dir to DWARF 5's directory 0
#    (only possible with -fdebug-prefix-map, and counted);
#  - a struct declared in a header under a sub-directory is declared in
#    "$T/inc/shape.h" in `layout --json` (clang records "./inc/shape.h":
#    "." components are left out), in executables and in object files;
#  - a line table whose length runs past its section costs the declaration
#    files only: one warning naming the file, section and offset, the
#    layout itself unchanged, exit 0.
. "$top_srcdir/tests/lib.sh"
LC="$top_builddir/tests/types/linecmp"
require readelf binutils
[ -x "$LC" ] || fail "$LC is not built (make check builds it)"

mkdir -p "$T/inc"
cat >"$T/inc/shape.h" <<'X'
struct shape {
	int sides;
	long area;
};
static inline long shape_area(const struct shape *s) { return s->area * s->sides; }
X
cat >"$T/main.c" <<'X'
#include <stdio.h>
#include "inc/shape.h"
struct shape g_shape = { 4, 9 };
int main(void)
{
	printf("%ld\n", shape_area(&g_shape));
	return 0;
}
X

readelf_rows() {	# the rows readelf decodes: "NAME LINE ADDR"
	readelf -wL -W "$1" |
		awk 'NF >= 3 && $3 ~ /^0x/ && ($2 ~ /^[0-9]+$/ || $2 == "-") { print $1, $2, $3 }'
}

n=0
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || skip "$cc not installed"
	for v in 2 3 4 5; do
		for map in "" "-fdebug-prefix-map=$T=."; do
			b="$T/t-$cc-$v${map:+-rel}"
			(cd "$T" && $cc -g -gdwarf-$v -O1 $map -o "$b" main.c) ||
				fail "$cc -gdwarf-$v $map: build failed"
			"$LC" -r "$b" >"$b.hm" || fail "linecmp -r $b"
			readelf_rows "$b" >"$b.re"
			[ -s "$b.re" ] || fail "readelf printed no rows for $b"
			assert_files_eq "$b.re" "$b.hm" "line rows of $cc -gdwarf-$v $map"
			out=$("$LC" "$b") || { echo "$out" >&2; fail "file names of $cc -gdwarf-$v $map"; }
			# absolute comp dirs leave libdwarf no room for its fault
			[ -n "$map" ] || assert_eq 0 "${out##* }" "libdwarf faults with $cc -gdwarf-$v"
			n=$((n + 1))
		done
	done
	# decl_file through the command, DWARF 4 and 5, linked and as an
	# object file (whose line_strp offsets are relocations)
	for v in 4 5; do
		(cd "$T" && $cc -g -gdwarf-$v -O1 -c -o "$T/o-$cc-$v.o" main.c) ||
			fail "$cc -gdwarf-$v -c: build failed"
		for b in "$T/t-$cc-$v" "$T/o-$cc-$v.o"; do
			"$HITMAP" layout --json -C shape "$b" >"$T/j" || fail "layout --json $b"
			assert_eq "\"decl_file\": \"$T/inc/shape.h\"," \
				"$(grep -o '"decl_file": "[^"]*",' "$T/j")" "decl_file of shape in $b"
		done
	done
done
echo "$n builds: rows equal readelf's, file names equal libdwarf's"

# A unit length past the end of .debug_line: the header is refused whole.
b="$T/t-gcc-5"
"$HITMAP" layout -C shape "$b" >"$T/good" || fail "layout of $b"
off=$(readelf -S -W "$b" | awk '$2 == ".debug_line" { print $5 }')
[ -n "$off" ] || fail "no .debug_line in $b"
cp "$b" "$T/bad"
printf '\360\377\377\177' | dd of="$T/bad" bs=1 seek=$((0x$off)) conv=notrunc 2>/dev/null
"$HITMAP" layout -C shape "$T/bad" >"$T/out" 2>"$T/err" || fail "layout with a broken line table: exit $?"
assert_files_eq "$T/good" "$T/out" "layout with a broken line table"
assert_eq "warning: $T/bad: .debug_line: header past the end of the section at offset 0x0; declaration files of its types are unknown" \
	"$(cat "$T/err")" "warning for a broken line table"
"$HITMAP" layout --json -C shape "$T/bad" 2>/dev/null | grep -q '"decl_file": "' &&
	fail "a decl_file from a refused line table"
exit 0
