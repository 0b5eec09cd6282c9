#!/bin/sh
# check-abi can fail: against a copy of the public headers with one
# declaration taken out (the library then exports a symbol no header
# declares) and a function and a variable planted (declared, but neither
# exported nor in the map), it names each difference with its header:line.
. "$top_srcdir/tests/lib.sh"
require gcc gcc
require nm binutils
ABI=$TESTS_SRC/house/abi.sh
lib=$top_builddir/.libs/libhitmap.so
[ -f "$lib" ] || fail "$lib not built"

cp -R "$top_srcdir/include" "$T/inc" || fail "copy include"
h=$T/inc/hitmap/binary.h
grep -q '^void hm_binary_close(hm_binary \*bin);$' "$h" || fail "binary.h: no hm_binary_close"
sed '/^void hm_binary_close(hm_binary \*bin);$/d' "$h" >"$T/x"
# Plants go before the closing #endif's C++ guard, a variable over two lines.
awk '/^#ifdef __cplusplus/ && ++n == 2 {
	print "int hm_planted_missing(const hm_binary *bin);"
	print "extern const char *const"
	print "\thm_planted_table[];"
}
{ print }' "$T/x" >"$h"
fl=$(grep -n '^int hm_planted_missing' "$h" | cut -d: -f1)
vl=$((fl + 1))
assert_exit 1 "planted ABI differences" sh "$ABI" --headers "$T/inc" "$lib"
cat "$T/err" >&2
grep -v '^abi: note: ' "$T/err" >"$T/got"
cat >"$T/want" <<EOF
abi: $T/inc/hitmap/binary.h:$fl: hm_planted_missing is declared but libhitmap.map does not list it
abi: $T/inc/hitmap/binary.h:$fl: hm_planted_missing is declared but libhitmap.so does not export it
abi: $T/inc/hitmap/binary.h:$vl: hm_planted_table is declared but libhitmap.map does not list it
abi: $T/inc/hitmap/binary.h:$vl: hm_planted_table is declared but libhitmap.so does not export it
abi: libhitmap.map lists hm_binary_close, which no public header declares
abi: libhitmap.so exports hm_binary_close, which no public header declares
EOF
assert_files_eq "$T/want" "$T/got" "check-abi messages"

echo "check-abi fails on each planted difference"
