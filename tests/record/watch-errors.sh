#!/bin/sh
# Watch expressions → breakpoints, checked with --dry-run (link-time
# addresses, nothing opened), and the errors a user can make.
# Addresses: nm's link-time address of g plus offsets read off
# tests/record/counters.c (struct pair { long a; long b; }: a at 0, b at 8,
# 16 bytes; with -DPADDED b at 64 and sizeof 128).  x86 breakpoints cover
# 1, 2, 4 or 8 naturally aligned bytes, so a range is split into the
# largest aligned pieces ("slots"); a slot watched for reads and writes takes
# two breakpoints (a W and an RW), and a thread has 4.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/record/lib-watch.sh"
require nm binutils

build_counters "$T/c" gcc 5
build_counters "$T/p" gcc 5 -DPADDED
g=$(link_addr "$T/c" g)

# plan ARGS...: "bp_addr bp_len bp_type" per event of a dry run.
plan() {
	"$HITMAP" record --dry-run "$@" >"$T/plan.out" || { cat "$T/err" >&2; fail "dry run: $*"; }
	sed -n 's/.* bp_addr=\([^ ]*\) bp_len=\([^ ]*\) bp_type=\([^ ]*\) .*/\1 \2 \3/p' "$T/plan.out"
}
hex() { printf '%#x' "$1"; }

# The whole object: 2 slots; reads and writes fit (4 breakpoints).
# bp_type 2 = HW_BREAKPOINT_W, 3 = HW_BREAKPOINT_RW (linux/hw_breakpoint.h).
printf '%s 8 2\n%s 8 3\n%s 8 2\n%s 8 3\n' $(hex $g) $(hex $g) $(hex $((g+8))) $(hex $((g+8))) \
	>"$T/want"
plan --watch g --binary "$T/c" >"$T/got"
assert_files_eq "$T/want" "$T/got" "--watch g"
# The command names the binary when --binary is absent.
plan --watch g -- "$T/c" >"$T/got"
assert_files_eq "$T/want" "$T/got" "--watch g -- CMD"
# Fields.
printf '%s 8 2\n%s 8 3\n' $(hex $((g+8))) $(hex $((g+8))) >"$T/want"
plan --watch g.b --binary "$T/c" >"$T/got"
assert_files_eq "$T/want" "$T/got" "--watch g.b"
# Writes only: one breakpoint per slot.
printf '%s 8 2\n%s 8 2\n' $(hex $g) $(hex $((g+8))) >"$T/want"
plan --watch g:w --binary "$T/c" >"$T/got"
assert_files_eq "$T/want" "$T/got" "--watch g:w"
# Symbol + offset / length, split at alignment: g+4/12 = 4 bytes at g+4,
# then 8 at g+8.
printf '%s 4 2\n%s 4 3\n%s 8 2\n%s 8 3\n' $(hex $((g+4))) $(hex $((g+4))) $(hex $((g+8))) \
	$(hex $((g+8))) >"$T/want"
plan --watch g+4/12 --binary "$T/c" >"$T/got"
assert_files_eq "$T/want" "$T/got" "--watch g+4/12"
# An absolute address: 0x1000/3 = 2 bytes at 0x1000, 1 at 0x1002.
printf '0x1000 2 2\n0x1000 2 3\n0x1002 1 2\n0x1002 1 3\n' >"$T/want"
plan --watch 0x1000/3 --binary "$T/c" >"$T/got"
assert_files_eq "$T/want" "$T/got" "--watch 0x1000/3"
# Three slots: reads and writes would need 6, so AUTO falls back to writes.
printf '%s 8 2\n%s 8 2\n%s 8 2\n' $(hex $(( $(link_addr "$T/p" g) ))) \
	$(hex $(( $(link_addr "$T/p" g) + 8))) $(hex $(( $(link_addr "$T/p" g) + 16))) >"$T/want"
plan --watch g+0/24 --binary "$T/p" >"$T/got"
assert_files_eq "$T/want" "$T/got" "--watch g+0/24 (writes only)"

# Errors.
# The padded object: 128 bytes = 16 slots, too many even for writes only.
assert_exit 2 "too many breakpoints" "$HITMAP" record --watch g -o "$T/x.data" -- "$T/p"
assert_eq "error: watch: 16 breakpoints needed, the CPU has 4 per thread" \
	"$(head -1 "$T/err")" "too many: message"
grep -q "split the watches over several runs" "$T/err" || fail "too many: no advice"
[ ! -e "$T/x.data" ] || fail "too many: output file left behind"
# :rw explicitly: two fields x 2 slots... 4 breakpoints for g.a:rw and g.b:rw
# fit; g:rw + g.a:rw (6) does not.
assert_exit 2 "g:rw + g.a:rw" "$HITMAP" record --dry-run --watch g:rw --watch g.a:rw --binary "$T/c"
assert_exit 2 "unknown variable" "$HITMAP" record --dry-run --watch gg.a --binary "$T/c"
assert_eq "error: gg.a: no global variable or symbol gg in $T/c" "$(head -1 "$T/err")" \
	"unknown variable: message"
assert_eq "note: did you mean g?" "$(sed -n 2p "$T/err")" "unknown variable: suggestion"
assert_exit 2 "unknown field" "$HITMAP" record --dry-run --watch g.c --binary "$T/c"
assert_eq "error: g.c: g has no field c" "$(cat "$T/err")" "unknown field: message"
assert_exit 2 "field of a scalar" "$HITMAP" record --dry-run --watch g.a.x --binary "$T/c"
assert_eq "error: g.a.x: g.a is not a struct or union" "$(cat "$T/err")" "scalar field: message"
assert_exit 2 ":rw with -c" "$HITMAP" record --dry-run --watch g.a:rw -c 3 --binary "$T/c"
assert_exit 2 "bad suffix" "$HITMAP" record --dry-run --watch g.a:x --binary "$T/c"
assert_exit 2 "bad length" "$HITMAP" record --dry-run --watch g+0/0 --binary "$T/c"
assert_exit 2 "no command" "$HITMAP" record --watch g.a
assert_exit 2 "watch with -a" "$HITMAP" record -a --watch g.a -- "$T/c"
assert_exit 3 "missing binary" "$HITMAP" record --watch g.a -- "$T/nonexistent"
# A command that does not exec the binary itself: its load bias is unknown
# (a usage error: run the binary directly).  Found once the command runs,
# after the watchpoint self-check: last, since it skips where watchpoints do
# not fire (record then stops at the self-check, exit 3).
require_watchpoints
assert_exit 2 "binary not mapped" "$HITMAP" record --watch g.a --binary "$T/c" -o "$T/y.data" \
	-- sh -c "exec $T/c"
grep -q "not mapped by process" "$T/err" || { cat "$T/err" >&2; fail "not mapped: message"; }
exit 0
