#!/bin/sh
# BTF against DWARF for one fixture, the btfdiff idea at the type-table level:
# build tests/btf/fx-btf.c with gcc and clang, DWARF 4 and 5, let pahole -J
# encode its DWARF into a .BTF section, load the file both ways and compare
# every struct member by member (tests/btf/btfcmp --diff).
#
# The expected differences (fx-btf.gcc.diff, fx-btf.clang.diff) are the ones
# BTF cannot avoid, each visible in the fixture source:
#  - all.grid is int[2][3]; pahole -J writes multi-dimensional arrays as one
#    flat array, int[6]                                      (flat-array)
#  - natural_aligned is aligned(8) on a struct of one long: the attribute
#    changes no offset, so nothing in BTF shows it; gcc also records it on
#    the member all.na                                      (natural-alignment)
#  - packed_aligned is packed, aligned(4) with 7 bytes of members in 8:
#    one byte of tail padding is explained by aligned(2) already, the
#    smallest alignment that fits, so BTF infers 2             (alignment)
#  - clang records no alignment on structs, only on members, and not on a
#    member whose struct type carries one: aligned_member and all get 64
#    from BTF (the hole before aligned_member.x) but 0 from clang DWARF, and
#    all.am likewise                                        (natural-alignment)
# Everything else (sizes, offsets, bitfields, types as C spells them, the
# trailing x[] of struct flex against the x[0] of zero_mid) must agree.
#
# Then the pahole oracle: for every struct `pahole -F btf --sizes` lists, its
# size and the offset/size pairs pahole prints for each direct member must
# equal what hitmap's BTF loader put in the table (btfcmp --offsets), and
# the list itself (names in order, sizes, hole counts from hm_layout) must
# be pahole's (btfcmp --sizes).
# Finally the raw form: the .BTF section extracted with objcopy loads as a
# raw BTF file (like /sys/kernel/btf/vmlinux) into the same table.
. "$top_srcdir/tests/lib.sh"
require pahole dwarves
require objcopy binutils
BTFCMP="$top_builddir/tests/btf/btfcmp"
src="$TESTS_SRC/btf/fx-btf.c"

# pahole's member comments "/* OFF SIZE */" or "/* OFF: BIT SIZE */" at the
# first indentation level, as "OFF SIZE" / "OFF:BIT SIZE".
pahole_offsets() {
	awk '/^\t[^\t]/ && /\/\*[ 0-9:]+\*\/$/ {
		c = $0; sub(/.*\/\*/, "", c); sub(/\*\/$/, "", c)
		gsub(/: +/, ":", c); split(c, f, " "); print f[1], f[2] }'
}

for cc in gcc clang; do
	require $cc
	for dw in 4 5; do
		fx="$T/fx-$cc-$dw"
		build_fixture "$src" "$fx" $cc $dw -O0
		echo "+ pahole -J $fx" >&2
		pahole -J "$fx" || fail "pahole -J $fx"

		"$BTFCMP" --diff "$fx" >"$T/diff.txt" ||
			{ cat "$T/diff.txt" >&2; fail "$cc -gdwarf-$dw: BTF and DWARF differ"; }
		assert_files_eq "$TESTS_SRC/btf/fx-btf.$cc.diff" "$T/diff.txt" \
			"$cc -gdwarf-$dw: BTF vs DWARF differences"

		pahole -F btf --sizes "$fx" >"$T/sizes" 2>/dev/null || fail "pahole --sizes"
		names=$(cut -f1 "$T/sizes")
		[ -n "$names" ] || fail "pahole -F btf --sizes listed nothing"
		: >"$T/want"
		for n in $names; do
			echo "$n $(awk -v n="$n" '$1 == n { print $2 }' "$T/sizes")" >>"$T/want"
			pahole -F btf -C "$n" "$fx" 2>/dev/null | pahole_offsets >>"$T/want"
		done
		"$BTFCMP" --offsets --btf "$fx" $names >"$T/got" || fail "btfcmp --offsets"
		assert_files_eq "$T/want" "$T/got" "$cc -gdwarf-$dw: offsets vs pahole -F btf"
		# and pahole's struct list with sizes and hole counts
		"$BTFCMP" --sizes --btf "$fx" >"$T/got" || fail "btfcmp --sizes"
		assert_files_eq "$T/sizes" "$T/got" "$cc -gdwarf-$dw: --sizes vs pahole -F btf"

		objcopy --dump-section .BTF="$T/raw.btf" "$fx" "$T/junk" ||
			fail "objcopy --dump-section .BTF"
		"$BTFCMP" --btf "$fx" >"$T/elf.dump" || fail "btfcmp --btf"
		"$BTFCMP" --raw "$T/raw.btf" >"$T/raw.dump" || fail "btfcmp --raw"
		assert_files_eq "$T/elf.dump" "$T/raw.dump" "$cc -gdwarf-$dw: raw BTF vs .BTF"
	done
done

# Big-endian BTF: the same fixture for 64-bit big-endian PowerPC (clang and
# lld cross-build it without a libc), where pahole -J writes the .BTF in the
# target's byte order.  It must load to what the big-endian DWARF says, with
# the same differences as clang on x86-64.
if command -v ld.lld >/dev/null 2>&1; then
	for dw in 4 5; do
		be="$T/fx-ppc64-$dw"
		echo "+ clang --target=powerpc64-linux-gnu -ffreestanding -nostdlib -fuse-ld=lld -Wl,-e,main -g -gdwarf-$dw -O0 -o $be $src" >&2
		clang --target=powerpc64-linux-gnu -ffreestanding -nostdlib -fuse-ld=lld \
			-Wl,-e,main -g -gdwarf-$dw -O0 -o "$be" "$src" || fail "cannot build $be"
		pahole -J "$be" || fail "pahole -J $be"
		off=$(readelf -SW "$be" |
		      awk '{ for (i = 1; i < NF; i++) if ($i == ".BTF") print $(i + 3) }')
		[ -n "$off" ] || fail "ppc64: no .BTF section after pahole -J"
		od -A n -t x1 -N 2 -j $((0x$off)) "$be" | tr -d ' ' >"$T/magic"
		assert_eq "eb9f" "$(cat "$T/magic")" "ppc64 .BTF is big-endian"
		"$BTFCMP" --diff "$be" >"$T/diff.txt" ||
			{ cat "$T/diff.txt" >&2; fail "ppc64 -gdwarf-$dw: BTF and DWARF differ"; }
		assert_files_eq "$TESTS_SRC/btf/fx-btf.clang.diff" "$T/diff.txt" \
			"ppc64 -gdwarf-$dw: BTF vs DWARF differences"
	done
else
	echo "big-endian part skipped: ld.lld not installed (Debian package lld)" >&2
fi

# A file without .BTF: exit 3 and say so.
build_fixture "$src" "$T/nobtf" gcc 5 -O0
assert_exit 3 "no .BTF" "$BTFCMP" --btf "$T/nobtf"
assert_eq "btfcmp: $T/nobtf: no .BTF section" "$(cat "$T/err")" "no .BTF message"
exit 0
