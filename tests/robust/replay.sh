#!/bin/sh
# Every seed of tests/fuzz/corpus/ and every reproducer of tests/robust/repro/
# through the fuzz targets' code (tests/fuzz/replay.c), in the ordinary build
# and, in CI, under ASan/UBSan: a bug the fuzzers found stays found.
# Reproducers are filed by target: repro/<target>-*.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/robust/lib-robust.sh"
n=0
for target in perfdata elf rules profile btf answers attr; do
	prog="$top_builddir/tests/robust/replay-$target"
	[ -x "$prog" ] || fail "$prog is not built (make check builds it)"
	set --
	for f in "$top_srcdir/tests/fuzz/corpus/$target"/* "$top_srcdir/tests/robust/repro/$target"-*; do
		[ -f "$f" ] && set -- "$@" "$f"
	done
	[ $# -gt 0 ] || continue
	# (the perfdata target writes a directory input's files under TMPDIR)
	TMPDIR="$T" timeout 60 "$prog" "$@" || fail "replay-$target: exit $? on one of: $*"
	n=$((n + $#))
done
echo "replayed $n inputs"
[ "$n" -gt 0 ] || fail "nothing replayed"

# The same reproducers through the command, with what each must say now.
R="$top_srcdir/tests/robust/repro"
for a in "" -E; do
	# DWARF 2-4 bit offset larger than its storage unit: wrapped to 2^61
	expect_err3 "elf-bitoffset.o: corrupt DWARF.*bitfield offset out of range" \
		layout $a "$R/elf-bitoffset.o"
	# zero-sized bitfield of a sizeless type (was a division by zero); the
	# command stops earlier, at a broken abbreviation
	expect_err3 "elf-div0.o: corrupt DWARF" layout $a "$R/elf-div0.o"
	# struct list_head holding itself by value: alignment and layout
	# recursed round the cycle to their depth limits, 2^64 calls
	# its DW_AT_name of DIE 0x15c lies past .debug_str too, which the
	# name check now refuses before the cycle is met
	expect_err3 "elf-nesting-cycle.o: (corrupt debug info: 'list_head' holds itself|corrupt DWARF in CU at offset 0x0: DIE at offset 0x15c: DW_AT_name: )" \
		layout $a "$R/elf-nesting-cycle.o"
	# empty member list (was pointer arithmetic on NULL): loads fine
	# (its DW_AT_name string offsets lie past .debug_str: refused by the
	# name check, one line, no longer read as anonymous structs)
	expect_err3 "elf-nullofs.o: corrupt DWARF in CU at offset 0x0: DIE at offset 0x33: DW_AT_name: " \
		layout $a "$R/elf-nullofs.o"
	# raw BTF whose typedefs form a cycle (was an endless loop in alignof),
	# and nested anonymous members doubling at every level through a cycle
	# (was 2^32 layout fields)
	expect_err3 "btf-typedef-cycle.raw: corrupt debug info: type chain .* does not end" \
		layout $a "$R/btf-typedef-cycle.raw"
	expect_err3 "btf-anon-explode.raw: corrupt debug info" layout $a "$R/btf-anon-explode.raw"
	# a pointer that points at itself (the printer looped on it)
	expect_err3 "btf-pointer-cycle.raw: corrupt debug info: type chain .* does not end" \
		layout $a "$R/btf-pointer-cycle.raw"
done
# Line table headers that made libdwarf 20210528's dwarf_srcfiles() read
# past its heap buffer (valgrind: invalid read; ASan: crash) when a
# decl_file was named: hitmap reads .debug_line itself now.  The first
# loads (its line table is intact as far as hitmap reads it), the second
# stops at a broken abbreviation table.
# (a member's DW_AT_type there cannot be read: refused, one line, by the
# reference check; the line table is read before, and leak-checked below)
expect_err3 "elf-srcfiles-overread.o: corrupt DWARF in CU at offset 0x0: DIE at offset 0x339: DW_AT_type: " \
	layout "$R/elf-srcfiles-overread.o"
leak_check layout --json "$R/elf-srcfiles-overread.o"
expect_err3 "elf-srcfiles-asan.o: corrupt DWARF in CU at offset 0x0" \
	layout "$R/elf-srcfiles-asan.o"
leak_check layout "$R/elf-srcfiles-asan.o"
# A DW_AT_sibling that points at its own DIE: the walk went round it for
# ever (the fuzzer's 10 s timeout; the command spun for minutes).
# (its DW_AT_name there is past .debug_str too: the name check may speak
# first)
expect_err3 "elf-sibling-loop.o: corrupt DWARF in CU at offset 0x0: (the sibling of the DIE at 0x70 is at 0x70, not after it|DIE at offset 0x70: DW_AT_name: )" \
	layout "$R/elf-sibling-loop.o"
# Anonymous structs that hold two pointers to themselves: the printout
# (which expands anonymous members and pointees, and named members with -E)
# doubles at every level down to its depth limit (the fuzzer gave up after
# 20 s; printing up to the 16 MiB cap took 20-80 s under ASan).  Its size,
# counted on the type graph first, refuses it before anything is printed
# (tests/robust/expand-size.sh checks that count against real C).
for a in "" -E; do
	run_hm layout $a "$R/btf-expand-explode.raw"
	assert_eq 3 "$rc" "btf-expand-explode.raw $a: exit status"
	assert_eq "error: $R/btf-expand-explode.raw: cannot print layout: File too large (the output above is incomplete)" \
		"$(cat "$T/err")" "btf-expand-explode.raw $a"
done
