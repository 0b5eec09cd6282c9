#!/bin/sh
# Relocatable objects: .rela.debug_* must be applied (names are DW_FORM_strp
# offsets that only relocations fill in), for the machines hitmap knows.
# clang cross-compiles the fixture with -c; for these LP64 targets struct
# plain / list_head / ptrs have the same layout as on x86-64, so the native
# executable's load (checked against the compiler in oracle.sh) is the oracle.
. "$top_srcdir/tests/lib.sh"
DUMP="$top_builddir/tests/types/typedump"
SRC="$TESTS_SRC/types"
require clang clang
NAMES=plain,list_head,ptrs

build_fixture "$SRC/fixture.c" "$T/native" clang 4 -O0
"$DUMP" -o -C $NAMES "$T/native" >"$T/want" || fail "native load"
ran=0
for tgt in x86_64-linux-gnu:x86_64:64 aarch64-linux-gnu:aarch64:64 \
	   powerpc64le-linux-gnu:ppc64:128 powerpc64-linux-gnu:ppc64:128 \
	   s390x-linux-gnu:s390x:256 riscv64-linux-gnu:riscv:64; do
	triple=${tgt%%:*} rest=${tgt#*:} arch=${rest%:*} line=${rest#*:}
	echo "+ clang --target=$triple -ffreestanding -g -gdwarf-4 -O0 -c fixture.c" >&2
	clang --target=$triple -ffreestanding -g -gdwarf-4 -O0 -c -o "$T/$triple.o" \
		"$SRC/fixture.c" 2>"$T/cc.err" || { echo "clang cannot target $triple" >&2; continue; }
	ran=1
	"$DUMP" -o -C $NAMES "$T/$triple.o" >"$T/$triple.got" || fail "$triple: load"
	assert_files_eq "$T/want" "$T/$triple.got" "$triple: relocated DWARF"
	# the cacheline size comes from the ELF machine, not the host
	"$DUMP" -y g_plain "$T/$triple.o" | head -1 >"$T/$triple.arch"
	assert_eq "arch $arch cacheline $line build-id none" "$(cat "$T/$triple.arch")" "$triple: arch"
done
[ $ran = 1 ] || skip "clang has no cross targets"
exit 0
