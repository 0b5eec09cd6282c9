#!/bin/sh
# Error contract of `hitmap check` on broken rule files (see lib-robust.sh):
# every error is one line "FILE:LINE:COL: error: ...", the run exits 3 and
# checks nothing (stdout empty).  Unknown structs and members are notes, or
# errors (exit 1) in a `require` block, as hitmap-rules(5) says.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/robust/lib-robust.sh"
build_fixture "$top_srcdir/tests/robust/fx-robust.c" "$T/bin" gcc 5 -O0
cd "$T" || exit 1

# expect_rules PATTERN TEXT: TEXT (printf format) as r.rules gives exit 3,
# only FILE:LINE:COL error lines, one of them matching PATTERN.
expect_rules() {
	# shellcheck disable=SC2059
	printf "$2" >r.rules
	run_hm check --rules r.rules bin
	[ "$rc" = 3 ] || { cat "$T/err" >&2; fail "'$2': exit $rc, want 3"; }
	grep -v -q "^r\.rules:[0-9]*:[0-9]*: error: " "$T/err" &&
		{ cat "$T/err" >&2; fail "'$2': a line that is not FILE:LINE:COL: error:"; }
	grep -q -- "$1" "$T/err" || { cat "$T/err" >&2; fail "'$2': no '$1'"; }
	[ -s "$T/out" ] && { cat "$T/out" >&2; fail "'$2': findings despite the error"; }
	return 0
}

expect_rules "^r.rules:2:5: error: unknown directive 'frobnicate'" \
	'struct holder {\n    frobnicate x\n}\n'
expect_rules "^r.rules:1:1: error: block of 'holder' is not closed" \
	'struct holder {\n    apart x y\n'
expect_rules "^r.rules:1:1: error: " '}\n'
expect_rules "^r.rules:2:5: error: " 'struct holder {\n    struct inner {\n}\n}\n'
expect_rules "^r.rules:1:1: error: " 'strcut holder {\n}\n'
expect_rules "^r.rules:2:15: error: " 'struct holder {\n    max-size  big\n}\n'
expect_rules "^r.rules:2:15: error: " 'struct holder {\n    max-size  99999999999999999999999\n}\n'
# A control byte in a token is echoed escaped, never raw (a hostile file
# must not drive the terminal).  tests/robust/repro/rules-ctrl-token.rules.
cp "$top_srcdir/tests/robust/repro/rules-ctrl-token.rules" r.rules
run_hm check --rules r.rules bin
assert_eq 3 "$rc" "control byte in a directive"
assert_eq "r.rules:2:5: error: unknown directive 'apa\\x16rt' (did you mean 'apart'?)" \
	"$(cat "$T/err")" "control byte in a directive"
# A NUL byte, a very long line, binary junk: errors, no crash, no hang.
printf 'struct holder {\n    apart x\0y\n}\n' >r.rules
run_hm check --rules r.rules bin
assert_eq 3 "$rc" "NUL byte in a rule file"
awk 'BEGIN { printf "struct holder {\n    apart "; for (i = 0; i < 20000; i++) printf "m%d ", i; print "\n}" }' >r.rules
run_hm check --rules r.rules bin
[ "$rc" = 0 ] || [ "$rc" = 1 ] || [ "$rc" = 3 ] || fail "20000-member rule: exit $rc"
head -c 4096 "$HITMAP" >r.rules
run_hm check --rules r.rules bin
assert_eq 3 "$rc" "binary junk as a rule file"
leak_check check --rules r.rules bin

# Unknown struct and member: a note and exit 0; in a require block an
# error finding and exit 1.  Never exit 3: the rule file itself is fine.
printf 'struct nosuch {\n    apart a b\n}\n' >r.rules
run_hm check --rules r.rules bin
assert_eq 0 "$rc" "unknown struct"
grep -q "^note: nosuch: struct 'nosuch' not in this binary" "$T/out" || fail "unknown struct: no note"
printf 'struct nosuch {\n    require\n    apart a b\n}\n' >r.rules
run_hm check --rules r.rules bin
assert_eq 1 "$rc" "unknown struct, require"
printf 'struct holder {\n    apart x nosuch\n}\n' >r.rules
run_hm check --rules r.rules bin
assert_eq 0 "$rc" "unknown member"
grep -q "^note: holder: member 'nosuch' not in this binary" "$T/out" || fail "unknown member: no note"
printf 'struct holder {\n    require\n    apart x nosuch\n}\n' >r.rules
run_hm check --rules r.rules bin
assert_eq 1 "$rc" "unknown member, require"

# Duplicate rules: refused, pointing at the first; a rule with other members
# or another struct is not a duplicate.
printf 'struct holder {\n    apart x y\n    apart x y\n}\n' >r.rules
run_hm check --rules r.rules bin
assert_eq 3 "$rc" "duplicate rules"
assert_eq "r.rules:3:5: error: duplicate rule: same as r.rules:2:5" "$(cat "$T/err")" \
	"duplicate rule message"
[ -s "$T/out" ] && fail "duplicate rules: output despite the error"
printf 'struct holder {\n    apart x y\n    warn apart x z\n}\n' >r.rules
run_hm check --rules r.rules bin
assert_eq 1 "$rc" "near-duplicate rules are both kept"
exit 0
