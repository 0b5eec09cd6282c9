#!/bin/sh
# Rules naming what the binary lacks.  A name absent with no close match is a
# note (kernel configurations differ); one a present name is close to is a
# typo, a warning with that name, so `--fail-on warn` stops a gate whose rule
# checks nothing; --strict makes every absent name an error, in check and in
# diff (which evaluates the rules on the new binary).  The present names
# (mm_struct, mmap_lock, page_table_lock) are those of the fixture's source.
. "$top_srcdir/tests/lib.sh"
build_fixture "$TESTS_SRC/fixtures/mm_v2.c" "$T/mm" gcc 5 -O0
grep -q '^struct mm_struct {' "$TESTS_SRC/fixtures/mm_common.h" ||
	fail "fixture: no struct mm_struct"
for m in mmap_lock page_table_lock; do
	grep -q "[ *]$m;" "$TESTS_SRC/fixtures/mm_common.h" || fail "fixture: no member $m"
done
cat >"$T/r.rules" <<'R'
struct mm_struct {
    apart mmap_lok page_table_lock
}
struct mm_strcut {
    apart mmap_lock page_table_lock
}
struct no_such_thing_here {
    apart a b
}
R
# The printer wraps long messages at 80 columns: join them back.
unwrap() { awk '/^    [^ ]/ { sub(/^    /, " "); printf "%s", $0; next }
	NR > 1 { print "" } { printf "%s", $0 } END { print "" }' "$T/out" >"$T/got"; }
cat >"$T/want" <<W
warning: mm_struct: member 'mmap_lok' not in this binary (did you mean 'mmap_lock'?)
  rule $T/r.rules:2:5 (absent)
warning: mm_strcut: struct 'mm_strcut' not in this binary (did you mean 'mm_struct'?)
  rule $T/r.rules:5:5 (absent)
note: no_such_thing_here: struct 'no_such_thing_here' not in this binary (skipped)
  rule $T/r.rules:8:5 (absent)
hitmap check: 3 rules: 0 passed, 0 failed, 3 skipped
hitmap check: 0 errors, 2 warnings, 1 note
W
assert_exit 0 "check" "$HITMAP" check --rules "$T/r.rules" "$T/mm"
unwrap
assert_files_eq "$T/want" "$T/got" "check: typos are warnings"
assert_exit 1 "check --fail-on warn" "$HITMAP" check --fail-on warn --rules "$T/r.rules" "$T/mm"

sed -e 's/^warning:/error:/' -e 's/^note:/error:/' -e 's/ (skipped)$//' \
	-e 's/0 errors, 2 warnings, 1 note/3 errors, 0 warnings, 0 notes/' "$T/want" >"$T/want-strict"
assert_exit 1 "check --strict" "$HITMAP" check --strict --rules "$T/r.rules" "$T/mm"
unwrap
assert_files_eq "$T/want-strict" "$T/got" "check --strict: every absent name an error"

# Only the far-off name: a note, exit 0 even at --fail-on warn; --strict: 1.
sed -n '7,9p' "$T/r.rules" >"$T/far.rules"
assert_exit 0 "check, far name, --fail-on warn" "$HITMAP" check --fail-on warn \
	--rules "$T/far.rules" "$T/mm"
assert_exit 1 "check --strict, far name" "$HITMAP" check --strict --rules "$T/far.rules" "$T/mm"

# diff: today a rule naming nothing vanished silently; the typos are warnings
# (the far name stays quiet), --strict makes all three errors.
assert_exit 0 "diff" "$HITMAP" diff -C mm_struct --rules "$T/r.rules" "$T/mm" "$T/mm"
unwrap
assert_eq 2 "$(grep -c "^warning: .* not in this binary (did you mean '" "$T/got")" "diff: typos"
grep -q no_such_thing_here "$T/out" && fail "diff: a far name is reported"
assert_exit 1 "diff --fail-on warn" "$HITMAP" diff --fail-on warn -C mm_struct \
	--rules "$T/r.rules" "$T/mm" "$T/mm"
assert_exit 1 "diff --strict" "$HITMAP" diff --strict -C mm_struct --rules "$T/r.rules" \
	"$T/mm" "$T/mm"
unwrap
assert_eq 3 "$(grep -c '^error: .* not in this binary' "$T/got")" "diff --strict: errors"
exit 0
