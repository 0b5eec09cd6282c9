#!/bin/sh
# --watch takes the paths report prints for array elements: `[N]` per
# dimension after a field or a variable (g_stats.cnt[0].n, grid[2][3], arr[5]),
# each index checked against its dimension.  Addresses come from nm (the
# variable) plus the offsetof() the fixture prints (tests/record/arrays.c);
# --dry-run opens nothing.  The errors name the column of the index.
. "$top_srcdir/tests/lib.sh"
require nm binutils
build_fixture "$TESTS_SRC/record/arrays.c" "$T/a" gcc 5 -O0
"$T/a" >"$T/offsets" || fail "fixture did not run"
link_addr() { nm "$1" | awk -v s="$2" '$3 == s { print "0x" $1 }'; }
g=$(link_addr "$T/a" g_stats)
arr=$(link_addr "$T/a" arr)
[ -n "$g" ] && [ -n "$arr" ] || fail "nm: no g_stats or arr"

# slots EXPR: the first breakpoint's address and the total length the
# slots cover (decimal).
slots() {
	"$HITMAP" record --dry-run --watch "$1:w" --binary "$T/a" >"$T/plan" 2>"$T/err" ||
		{ cat "$T/err" >&2; fail "dry run: $1"; }
	sed -n 's/.* bp_addr=\([^ ]*\) bp_len=\([^ ]*\) .*/\1 \2/p' "$T/plan" |
		awk 'NR == 1 { a = $1 } { n += $2 } END { printf "%d %d\n", a, n }'
}
while read -r path off size; do
	assert_eq "$((g + off)) $size" "$(slots "$path")" "--watch $path"
done <"$T/offsets"
# A variable that is an array; sizeof(long) is 8 on every target we build.
assert_eq "$((arr + 40)) 8" "$(slots 'arr[5]')" "--watch arr[5]"
assert_eq "$((arr + 12)) 4" "$(slots 'arr[1]+4/4')" "--watch arr[1]+4/4"

# err EXPR MESSAGE: a usage error with exactly that message.
err() {
	assert_exit 2 "--watch $1" "$HITMAP" record --dry-run --watch "$1" --binary "$T/a"
	assert_eq "error: $2" "$(cat "$T/err")" "--watch $1: message"
}
err 'g_stats.cnt[4].n' 'g_stats.cnt[4].n: column 13: index 4 is out of bounds for g_stats.cnt (4 elements)'
err 'g_stats.grid[2][5]' 'g_stats.grid[2][5]: column 17: index 5 is out of bounds for g_stats.grid[2] (5 elements)'
err 'g_stats.grid[3]' 'g_stats.grid[3]: column 14: index 3 is out of bounds for g_stats.grid (3 elements)'
err 'arr[6]' 'arr[6]: column 5: index 6 is out of bounds for arr (6 elements)'
err 'g_stats.x[0]' 'g_stats.x[0]: column 10: g_stats.x is not an array'
err 'g_stats.cnt[x]' 'g_stats.cnt[x]: column 13: expected an index and '"']'"
err 'g_stats.cnt[1' 'g_stats.cnt[1: column 13: expected an index and '"']'"
err 'g_stats.cnt[0]x' 'g_stats.cnt[0]x: column 15: unexpected '"'x'"
err 'g_stats.grid[1].n' 'g_stats.grid[1].n: g_stats.grid[1] is not a struct or union'
err 'g_stats.cnt[0].z' 'g_stats.cnt[0].z: g_stats has no field cnt[0].z'
exit 0
