#!/bin/sh
# Bad inputs: each gives exit 3 and one `error: FILE: ...` line, never a crash
# or a hang.  The messages are the library's (hm_binary_open / hm_types_load).
. "$top_srcdir/tests/lib.sh"
DUMP="$top_builddir/tests/types/typedump"
SRC="$TESTS_SRC/types"
CC=${CC:-gcc}

# expect_error FILE MESSAGE: typedump exits 3 and prints exactly that line
expect_error() {
	assert_exit 3 "$1" "$DUMP" "$1"
	assert_eq "error: $1: $2" "$(cat "$T/err")" "message for $1"
}

echo "+ $CC -O0 -o $T/nodwarf $SRC/fixture.c" >&2
$CC -O0 -o "$T/nodwarf" "$SRC/fixture.c" || fail "cannot build"
# no debug info anywhere: the message lists every place looked at, which
# depends on the build-id, so only its start is fixed
expect_nodwarf() {
	case $(cat "$T/err") in
	"error: $1: no DWARF debug info; tried /usr/lib/debug/.build-id/"*"debuginfod (DEBUGINFOD_URLS unset)") ;;
	*) fail "message for $1: $(cat "$T/err")" ;;
	esac
}
assert_exit 3 "no DWARF" "$DUMP" "$T/nodwarf"
expect_nodwarf "$T/nodwarf"
# the same from memory, and a good file from memory loads like from disk
assert_exit 3 "no DWARF, from memory" "$DUMP" -m "$T/nodwarf"
expect_nodwarf "$T/nodwarf"

build_fixture "$SRC/fixture.c" "$T/fx" "$CC" 5 -O0
"$DUMP" "$T/fx" >"$T/from-file" || fail "fixture from file"
"$DUMP" -m "$T/fx" >"$T/from-mem" || fail "fixture from memory"
assert_files_eq "$T/from-file" "$T/from-mem" "hm_binary_open_mem"
cp "$T/fx" "$T/stripped"
if command -v strip >/dev/null 2>&1; then
	strip -g "$T/stripped"
	assert_exit 3 "stripped" "$DUMP" "$T/stripped"
	expect_nodwarf "$T/stripped"
fi

echo "not an object file" >"$T/text"
expect_error "$T/text" "not an ELF file"
: >"$T/empty"
expect_error "$T/empty" "empty file, not ELF"
expect_error "$T" "not a regular file"
expect_error "$T/missing" "no such file"
mkfifo "$T/fifo"
expect_error "$T/fifo" "not a regular file"

# Truncated: the section headers sit at the end of the file, so any cut
# leaves them (partly) outside it.
size=$(wc -c <"$T/fx")
head -c $((size - 1)) "$T/fx" >"$T/cut"
assert_exit 3 "truncated file" "$DUMP" "$T/cut"
grep -q "^error: $T/cut: truncated ELF file" "$T/err" || fail "truncated: $(cat "$T/err")"

# Corruption anywhere in the file: exit 0 (the byte did not matter) or 3
# (reported), never a signal.  Offsets are spread evenly over the file.
step=$((size / 97))
off=16
while [ $off -lt $size ]; do
	cp "$T/fx" "$T/bad"
	printf '\377\377\377\377' | dd of="$T/bad" bs=1 seek=$off conv=notrunc 2>/dev/null
	for how in "" -m; do	# from the file, and from memory
		"$DUMP" $how "$T/bad" >/dev/null 2>"$T/err"
		rc=$?
		case $rc in
		0) ;;
		3) [ "$(wc -l <"$T/err")" -ge 1 ] || fail "exit 3 without a message at offset $off" ;;
		*) cat "$T/err" >&2; fail "corruption at offset $off ($how): exit $rc" ;;
		esac
	done
	off=$((off + step))
done
exit 0
