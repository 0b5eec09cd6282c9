#!/bin/sh
# Raw BTF built byte by byte, in both byte orders, then broken one field at a
# time: every broken blob must be refused with exit 3 and one message naming
# the file, the place and the offset — never a crash or a partial table.
#
# The blob: type 1 is `int` (4 bytes, signed, 32 bits); type 2 is
# `struct s { int a; int b:3; }`, 8 bytes, kind_flag set, so each member
# offset word holds (bitfield size << 24 | bit offset): a at bit 0, b at
# bit 32 with 3 bits.  Strings: "\0int\0s\0a\0b\0" (offsets 1, 5, 7, 9).
# Header 24 bytes, type section 16 + 12 + 2*12 = 52 bytes, strings 11.
. "$top_srcdir/tests/lib.sh"
BTFCMP="$top_builddir/tests/btf/btfcmp"

oct4() { printf '\\%03o\\%03o\\%03o\\%03o' "$@"; }
w32() {
	v=$1
	if [ "$E" = le ]; then
		printf "$(oct4 $((v & 255)) $((v >> 8 & 255)) $((v >> 16 & 255)) $((v >> 24 & 255)))"
	else
		printf "$(oct4 $((v >> 24 & 255)) $((v >> 16 & 255)) $((v >> 8 & 255)) $((v & 255)))"
	fi
}
# magic 0xeb9f in the blob's order, then version and flags
magic() {
	if [ "$E" = le ]; then printf '\237\353'; else printf '\353\237'; fi
	printf "\\$(printf %03o "${VER:-1}")\\000"
}
blob() {
	magic; w32 24; w32 0; w32 "${TLEN:-52}"; w32 52; w32 "${SLEN:-11}"
	w32 1; w32 $(( ${KIND1:-1} << 24 )); w32 4; w32 $(( 1 << 24 | 32 ))
	w32 5; w32 $(( 1 << 31 | 4 << 24 | ${VLEN:-2} )); w32 8
	w32 "${MNAME:-7}"; w32 "${MTYPE:-1}"; w32 "${MOFF:-0}"
	w32 9; w32 1; w32 $(( 3 << 24 | 32 ))
	printf '\000int\000s\000a\000b\000'
}

# Both byte orders load to the same struct.  The bitfield's position is
# counted in memory order within its 4-byte unit (at offset 4), as pahole
# prints it: bit 32 of the struct is bit 0 of the unit in either byte order
# (the least significant bit of a little-endian unit, the most significant
# of a big-endian one).
for E in le be; do
	blob >"$T/$E.btf"
	"$BTFCMP" --raw "$T/$E.btf" >"$T/$E.out" 2>"$T/$E.err" || { cat "$T/$E.err" >&2; fail "$E blob refused"; }
	printf 'struct s size=8 align=0 alignof=4 members=2\n  int a off=0\n  int b off=4 bits=3@0/4\n' \
		>"$T/$E.want"
	assert_files_eq "$T/$E.want" "$T/$E.out" "$E blob"
done

# refuse EXPECTED-MESSAGE: the blob built with the current overrides.
refuse() {
	blob >"$T/bad.btf"
	assert_exit 3 "$1" "$BTFCMP" --raw "$T/bad.btf"
	assert_eq "btfcmp: $T/bad.btf: $1" "$(cat "$T/err")" "message"
}
E=le
blob | head -c 20 >"$T/short.btf"
assert_exit 3 "short" "$BTFCMP" --raw "$T/short.btf"
assert_eq "btfcmp: $T/short.btf: BTF: truncated header (need 24 bytes, have 20) at offset 0x0" \
	"$(cat "$T/err")" "short message"
VER=2 refuse "BTF: unsupported version 2 (need 1) at offset 0x2"
# body = 52 + 11 = 0x3f bytes
TLEN=500 refuse "BTF: type section [0x0, +0x1f4) beyond the end (0x3f bytes) at offset 0x8"
# type 1's info word is at 24 + 4
KIND1=25 refuse "BTF: type 1 has unknown kind 25 at offset 0x1c"
# type 2 starts at 24 + 16 = 0x28; 5 members need 60 bytes, 24 are left
VLEN=5 refuse "BTF: truncated type 2 (struct with 5 entries needs 60 more bytes, have 24) at offset 0x28"
# member a: name at 0x28 + 12, type at + 16, offset at + 20
MNAME=200 refuse "BTF type 2 (struct): name offset 0xc8 beyond the string section (0xb bytes) at offset 0x34"
MTYPE=99 refuse "BTF type 2 (struct): refers to type 99 (only 2 types) at offset 0x38"
MOFF=64 refuse "BTF type 2 (struct): member 0 at bit 64 beyond the struct (8 bytes) at offset 0x3c"
MOFF=3 refuse "BTF type 2 (struct): member 0 at bit 3, not a byte boundary at offset 0x3c"
# the string section (at 24 + 52 = 0x4c) cut before its last NUL
SLEN=10 refuse "BTF: string section must end with a NUL byte at offset 0x4c"
E=be MTYPE=99 refuse "BTF type 2 (struct): refers to type 99 (only 2 types) at offset 0x38"

# Every byte of both blobs set to 0x00, to 0xff and flipped: each load
# succeeds or is refused with one message; run under the sanitizers this
# also checks that no byte makes the loader read out of bounds.
for E in le be; do
	"$BTFCMP" --mutate "$T/$E.btf" >"$T/mut.out" || fail "$E: a mutation crashed or misreported"
	assert_eq "mutations 261" "$(cut -d' ' -f1,2 "$T/mut.out")" "$E mutation count (24 + 52 + 11 = 87 bytes x 3)"
done
exit 0
