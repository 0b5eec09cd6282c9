#!/bin/sh
# hm_binary: symbols, address lookups, build-id and arch of a fixture, against
# binutils (nm -S, readelf -n) as the oracle; from the file and from memory.
# Compressed debug sections load like plain ones.
. "$top_srcdir/tests/lib.sh"
DUMP="$top_builddir/tests/types/typedump"
SRC="$TESTS_SRC/types"
require nm binutils
require readelf binutils
CC=${CC:-gcc}

echo "+ $CC -g -O0 -Wl,--build-id -o $T/fx $SRC/fixture.c" >&2
$CC -g -O0 -Wl,--build-id -o "$T/fx" "$SRC/fixture.c" || fail "build"
bid=$(readelf -n "$T/fx" | sed -n 's/.*Build ID: *//p')
[ -n "$bid" ] || fail "no build-id from readelf"
case $(uname -m) in
x86_64) arch=x86_64 line=64 ;;
aarch64) arch=aarch64 line=64 ;;
*) skip "expectations written for x86_64 and aarch64 hosts" ;;
esac
for how in "" -m; do
	for s in g_plain g_int_array main g_static_counter; do
		# nm -S: address, size, type, name (a local like g_static_counter too)
		nm -S "$T/fx" | awk -v s=$s '$4 == s {print $1, $2, $3; exit}' >"$T/nm"
		read -r addr size type <"$T/nm" || fail "nm has no $s"
		kind=object
		case $type in [Tt]) kind=func ;; esac
		{
			echo "arch $arch cacheline $line build-id $bid"
			printf 'sym %s 0x%x %d\n' $s $((0x$addr)) $((0x$size))
			if [ $kind = object ]; then
				echo "object_at $s"; echo "func_at none"
			else
				echo "object_at none"; echo "func_at $s"
			fi
		} >"$T/want"
		"$DUMP" $how -y $s "$T/fx" >"$T/got" || fail "typedump -y $s"
		assert_files_eq "$T/want" "$T/got" "symbol $s ($how)"
	done
done
assert_exit 1 "unknown symbol" "$DUMP" -y no_such_symbol_here "$T/fx"

# zlib-compressed debug sections (SHF_COMPRESSED) load like plain ones
echo "+ $CC -g -gz=zlib -O0 -o $T/fxz $SRC/fixture.c" >&2
if $CC -g -gz=zlib -O0 -o "$T/fxz" "$SRC/fixture.c" 2>/dev/null &&
   readelf -S -W "$T/fxz" | grep -q ' \.debug_info .* C '; then
	"$DUMP" -o -V "$T/fx" >"$T/plain" || fail "plain load"
	for how in "" -m; do
		"$DUMP" $how -o -V "$T/fxz" >"$T/compressed" || fail "compressed load ($how)"
		assert_files_eq "$T/plain" "$T/compressed" "compressed debug sections ($how)"
	done
else
	echo "$CC -gz=zlib gives no compressed .debug_info here: not checked" >&2
fi
exit 0
