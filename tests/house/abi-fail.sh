#!/bin/sh
# check-abi can fail: against a copy of the public headers with one
# declaration taken out (the library then exports a symbol no header
# declares) and a function and a variable planted (declared, but neither
# exported nor in the map), it names each difference with its header:line.
# And against a library of its own, built here, whose one program uses only
# part of what it exports, it names each export no program uses and each
# wrong line of the list of those not yet made internal.
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
assert_exit 1 "planted ABI differences" sh "$ABI" --programs "" --headers "$T/inc" "$lib"
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

# Exports no program uses.  The program reads a variable too: a copy
# relocation makes it define it, and that is a use.
u=$T/users
mkdir -p "$u/inc/hitmap"
cat >"$u/inc/hitmap/u.h" <<'EOF'
int hm_used(void);
int hm_unused(void);
int hm_listed(void);
extern int hm_used_var;
extern int hm_unused_var;
EOF
cat >"$u/lib.c" <<'EOF'
#include "hitmap/u.h"
int hm_used(void) { return 0; }
int hm_unused(void) { return 1; }
int hm_listed(void) { return 2; }
int hm_used_var = 3;
int hm_unused_var = 4;
EOF
cat >"$u/libhitmap.map" <<'EOF'
HITMAP_0.1 {
global:
	hm_used;
	hm_unused;
	hm_listed;
	hm_used_var;
	hm_unused_var;
local:
	*;
};
EOF
cat >"$u/prog.c" <<'EOF'
#include "hitmap/u.h"
int main(void) { return hm_used() + hm_used_var; }
EOF
gcc -shared -fPIC -I"$u/inc" -Wl,-soname,libhitmap.so.0 \
	-Wl,--version-script="$u/libhitmap.map" -o "$u/libhitmap.so" "$u/lib.c" ||
	fail "build the planted library"
gcc -I"$u/inc" -o "$u/prog" "$u/prog.c" -L"$u" -lhitmap || fail "build the planted program"
printf '# not yet\nhm_listed  # a reason\nhm_used\nhm_gone\n' >"$u/unused.txt"
assert_exit 1 "exports no program uses" sh "$ABI" --headers "$u/inc" --map "$u/libhitmap.map" \
	--programs "$u/prog" --unused "$u/unused.txt" "$u/libhitmap.so"
cat "$T/err" >&2
cat >"$T/want" <<'EOF'
abi: libhitmap.map lists hm_unused, which no program outside the library uses
abi: libhitmap.map lists hm_unused_var, which no program outside the library uses
abi: unused.txt lists hm_gone, which libhitmap.map does not list
abi: unused.txt lists hm_used as unused, but prog uses it
EOF
assert_files_eq "$T/want" "$T/err" "check-abi messages on exports no program uses"

echo "check-abi fails on each planted difference and on each export no program uses"
