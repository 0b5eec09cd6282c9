#!/bin/sh
# Error contract of `hitmap layout` on broken ELF/DWARF (see lib-robust.sh):
# no debug info, a truncated .debug_info, a typedef cycle, absurd nesting.
# Built at test time from fx-robust.c and generated C.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/robust/lib-robust.sh"
require objcopy binutils
require readelf binutils
FX="$top_srcdir/tests/robust/fx-robust.c"

# 1. No DWARF at all.
"$CC" -O0 -o "$T/nodw" "$FX" || fail "cannot build $FX"
expect_err3 "$T/nodw: no DWARF debug info" layout "$T/nodw"

# The intact fixture: anonymous members lay out (under UBSan this once
# tripped over their missing name).
build_fixture "$FX" "$T/ok" gcc 4 -O0
run_hm layout -C holder "$T/ok"
[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "intact fixture: exit $rc"; }
grep -q "size: 24," "$T/out" || { cat "$T/out" >&2; fail "holder is 4+4(hole)+8+4+4 = 24 bytes"; }

# 2. .debug_info cut in half: the unit's length runs past the section.
objcopy --dump-section .debug_info="$T/di" "$T/ok" "$T/junk" || fail "objcopy --dump-section"
head -c $(( $(wc -c <"$T/di") / 2 )) "$T/di" >"$T/di.half"
objcopy --update-section .debug_info="$T/di.half" "$T/ok" "$T/cut" || fail "objcopy --update-section"
expect_err3 "$T/cut: corrupt" layout "$T/cut"
leak_check layout "$T/cut"

# 3. A typedef cycle: cyc_a's DW_AT_type (a ref4 in DWARF 4, relative to
#    its unit) is pointed at cyc_b, which refers back to cyc_a.  readelf -wi
#    prints the section offset of each DIE and attribute in <..> and of each
#    unit in its "Compilation Unit @ offset" line.
secoff=$(readelf -S -W "$T/ok" | sed -n 's/.*\] \.debug_info *PROGBITS *[0-9a-f]* \([0-9a-f]*\) .*/\1/p')
[ -n "$secoff" ] || fail "no .debug_info in readelf -S"
readelf -wi "$T/ok" >"$T/wi" 2>/dev/null
awk '
/Compilation Unit @ offset/ { cu = $NF; sub(/:$/, "", cu); sub(/^0x/, "", cu) }
/DW_TAG_typedef/ { die = $1; sub(/^<1></, "", die); sub(/>:$/, "", die) }
/DW_AT_name/ && / cyc_a$/ { a = die; acu = cu }
/DW_AT_name/ && / cyc_b$/ { b = die }
/DW_AT_type/ && a != "" && at == "" && die == a { at = $1; gsub(/[<>]/, "", at) }
END { if (a != "" && b != "" && at != "") print acu, at, b }
' "$T/wi" >"$T/patch"
read -r cu at b <"$T/patch" || fail "cyc_a/cyc_b not found in readelf -wi"
cp "$T/ok" "$T/cycle"
put32 "$T/cycle" $(( 0x$secoff + 0x$at )) $(( 0x$b - 0x$cu ))
expect_err3 "$T/cycle: corrupt debug info: type chain through 'cyc_[ab]' does not end" \
	layout -C holder "$T/cycle"
expect_err3 "does not end" layout -E -C holder "$T/cycle"
expect_err3 "does not end" layout "$T/cycle"
leak_check layout -E "$T/cycle"

# 4. Absurd nesting: 3000 structs each holding the previous one.  s_i is
#    4 bytes more than s_(i-1) (one int, no padding): s2999 is 12000 bytes.
#    Then 3000 structs each pointing at the next, declared in reverse, which
#    the loader reaches by following references only.
awk 'BEGIN {
	print "struct s0 { int a; };"
	for (i = 1; i < 3000; i++) printf "struct s%d { struct s%d m; int x; };\n", i, i - 1
	print "struct s2999 g_deep;"
	for (i = 0; i < 3000; i++) printf "struct p%d;\n", i
	for (i = 0; i < 2999; i++) printf "struct p%d { struct p%d *next; long v; };\n", i, i + 1
	print "struct p2999 { long v; };"
	print "struct p0 g_chain;"
}' >"$T/deep.c"
"$CC" -g -O0 -c -o "$T/deep.o" "$T/deep.c" || fail "cannot build deep.c"
run_hm layout -C s2999 "$T/deep.o"
[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "3000 nested structs: exit $rc"; }
grep -q "size: 12000," "$T/out" || { cat "$T/out" >&2; fail "s2999 is 3000 ints"; }
run_hm layout -E -C s2999 "$T/deep.o"
[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "3000 nested structs expanded: exit $rc"; }
grep -q "size: 12000," "$T/out" || fail "s2999 expanded: wrong size"
run_hm layout -C p0,p2998 "$T/deep.o"
[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "3000-deep pointer chain: exit $rc"; }
grep -q "struct p1 \*" "$T/out" || { cat "$T/out" >&2; fail "p0.next is a struct p1 *"; }
grep -q "struct p2999 \*" "$T/out" || { cat "$T/out" >&2; fail "p2998.next is a struct p2999 *"; }
run_hm layout "$T/deep.o"
[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "all 6000 structs: exit $rc"; }
# clang emits the outermost struct first and each member type after it:
# the loader meets the 3000 levels by recursion, not in order.
if command -v clang >/dev/null 2>&1; then
	clang -g -O0 -c -o "$T/deep-clang.o" "$T/deep.c" || fail "clang cannot build deep.c"
	run_hm layout -C s2999,p0 "$T/deep-clang.o"
	[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "clang, 3000 levels: exit $rc"; }
	grep -q "size: 12000," "$T/out" || { cat "$T/out" >&2; fail "clang: s2999 is 3000 ints"; }
	grep -q "struct p1 \*" "$T/out" || { cat "$T/out" >&2; fail "clang: p0.next is a struct p1 *"; }
fi
exit 0
