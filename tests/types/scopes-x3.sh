#!/bin/sh
# The scope index on names libdwarf 20210528 cannot read by itself: past a
# unit's 65 536th string clang's DWARF 5 uses DW_FORM_strx3, which
# src/lib/dwarf/dwarf-x3.h splits in two.  A function declared after a
# struct of 70 000 members has its own and its variables' names in strx3;
# scopedump must name them and place them as llvm-dwarfdump reads the DIEs
# (gdb 13 fails an internal assertion on this file, so it is no oracle).
. "$top_srcdir/tests/lib.sh"
SD="$top_builddir/tests/types/scopedump"
require clang
require llvm-dwarfdump llvm
require nm binutils
[ -x "$SD" ] || fail "$SD is not built (make check builds it)"

awk 'BEGIN {
	print "struct W {"
	for (i = 0; i < 70000; i++) printf "\tint member_%d;\n", i
	print "};"
	print "struct W gw;"
	print "long use_w(struct W *wide_param, long scale_param)"
	print "{"
	print "\tlong local_total = wide_param->member_5 * scale_param;"
	print ""
	print "\treturn local_total + wide_param->member_69999;"
	print "}"
	print "int main(int argc, char **argv) { (void)argv; return (int)use_w(&gw, argc); }"
}' >"$T/x3.c"
clang -g -gdwarf-5 -O0 -o "$T/x3" "$T/x3.c" || fail "clang build failed"
llvm-dwarfdump --debug-abbrev "$T/x3" | grep -q DW_FORM_strx3 ||
	fail "the fixture has no DW_FORM_strx3: it tests nothing"

# llvm-dwarfdump: use_w's frame base, and its variables' names and
# DW_OP_fbreg offsets
llvm-dwarfdump --debug-info "$T/x3" | awk '
	/DW_TAG_/ { if (name != "" && inf && loc != "") print name, "fbreg", fb, loc
		    name = ""; loc = "" }
	/DW_TAG_subprogram/ { inf = 0; sfb = "" }
	/DW_AT_frame_base/ { if (match($0, /DW_OP_reg[0-9]+/)) sfb = substr($0, RSTART + 9, RLENGTH - 9) }
	/DW_AT_name\t\("use_w"\)/ { inf = 1; fb = sfb }
	inf && /DW_AT_location\t\(DW_OP_fbreg -?[0-9]+\)/ { match($0, /-?[0-9]+\)/); loc = substr($0, RSTART, RLENGTH - 1) }
	inf && /DW_AT_name/ && !/"use_w"/ { match($0, /"[^"]*"/); name = substr($0, RSTART + 1, RLENGTH - 2) }
	END { if (name != "" && inf && loc != "") print name, "fbreg", fb, loc }' |
	sort >"$T/want"
[ "$(wc -l <"$T/want")" = 3 ] || { cat "$T/want" >&2; fail "llvm-dwarfdump: want 3 variables of use_w"; }

pc=$(nm "$T/x3" | awk '$3 == "use_w" { print $1 }')
[ -n "$pc" ] || fail "nm: no use_w"
pc=$(printf '%x' $((0x$pc + 8)))
"$SD" "$T/x3" "$pc" >"$T/out" || fail "scopedump x3 $pc"
head -1 "$T/out" | grep -q "^pc 0x$pc 3 use_w 0 0$" || { cat "$T/out" >&2; fail "scope of use_w"; }
awk 'NR > 1 { print $1, $2, $3, $4 }' "$T/out" | sort >"$T/got"
assert_files_eq "$T/want" "$T/got" "variables of use_w (names in DW_FORM_strx3)"
grep -q "^  wide_param .* \*struct W$" "$T/out" || fail "type of wide_param: $(cat "$T/out")"
