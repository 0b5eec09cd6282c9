#!/bin/sh
# Big-endian targets, where DWARF counts a bitfield's bit offset from the
# most significant bit and that bit is stored first: the C layout fixtures
# cross-built by clang for 64-bit and 32-bit big-endian PowerPC (lld links
# them without a libc), DWARF 4 and 5.  Every body equals pahole's, which
# prints bit positions in memory order, and `--list` equals `pahole
# --sizes`, as diff-pahole.sh checks for x86-64 (with pahole's 64-byte
# lines: hitmap's default for PowerPC is 128).
. "$top_srcdir/tests/lib.sh"
require pahole dwarves
require clang clang
require ld.lld lld
m=$T/manifest
printf '%s\n' "$TESTS_SRC/layout/pahole-exceptions.txt" >"$m"
n=0
for target in powerpc64-linux-gnu powerpc-linux-gnu; do
	for dw in 4 5; do
		for fx in basic bits align nest; do
			bin="$T/$fx-$target-$dw"
			echo "+ clang --target=$target -ffreestanding -nostdlib -fuse-ld=lld -Wl,-e,main -g -gdwarf-$dw -O0 -o $bin fx-$fx.c" >&2
			clang --target=$target -ffreestanding -nostdlib -fuse-ld=lld -Wl,-e,main \
				-Wno-main-return-type -g -gdwarf-$dw -O0 -o "$bin" \
				"$TESTS_SRC/layout/fx-$fx.c" || fail "cannot build $bin"
			readelf -h "$bin" | grep -q "big endian" || fail "$bin is not big-endian"
			pahole -F dwarf -M --suppress_force_paddings "$bin" >"$bin.pa" 2>/dev/null
			"$HITMAP" layout -c 64 "$bin" >"$bin.hm" || fail "hitmap layout $bin"
			printf 'body\t%s\t%s\t%s\n' "$bin.pa" "$bin.hm" "fx-$fx $target $dw" >>"$m"
			pahole -F dwarf --sizes "$bin" >"$bin.sizes" 2>/dev/null
			"$HITMAP" layout -c 64 --list "$bin" >"$bin.list" || fail "hitmap layout --list $bin"
			printf 'list\t%s\t%s\t%s\t64\n' "$bin.sizes" "$bin.list" "fx-$fx $target $dw" >>"$m"
			n=$((n + 1))
		done
	done
done
echo "$n big-endian builds"
python3 "$TESTS_SRC/layout/compare.py" manifest "$m" || fail "hitmap layout differs from pahole"
exit 0
