#!/bin/sh
# Rule-file errors: every message carries FILE:LINE:COL (columns count bytes
# from 1), parsing reports them all, and the command exits 3 (malformed
# input) without checking anything.  bad.rules holds one error per line; the
# expected messages are in bad.rules.expected.
. "$top_srcdir/tests/lib.sh"
S="$top_srcdir/tests/check"
build_fixture "$S/directives.c" "$T/dir" gcc 5 -O0
cd "$S" || exit 1
assert_exit 3 "malformed rule file" "$HITMAP" check --rules bad.rules "$T/dir"
assert_files_eq "$S/bad.rules.expected" "$T/err" "rule-file errors"
[ -s "$T/out" ] && fail "a malformed rule file must not produce findings"

# An unreadable rule file is input that cannot be read: exit 3, one line.
assert_exit 3 "missing rule file" "$HITMAP" check --rules "$T/none.rules" "$T/dir"
assert_eq "error: $T/none.rules: No such file or directory" "$(cat "$T/err")" \
	"missing rule file"

# One error in an otherwise good file still fails the whole run.
printf 'struct d {\n    apart hot\n}\n' >"$T/one.rules"
assert_exit 3 "one error" "$HITMAP" check --rules "$T/one.rules" "$T/dir"
assert_eq "$T/one.rules:2:5: error: 'apart' needs at least two members" \
	"$(cat "$T/err")" "one error"

# A file of comments or nothing checks nothing: an error naming the file,
# not "0 rules" and exit 0.
: >"$T/empty.rules"
printf '# only a comment\n\n' >"$T/comments.rules"
for f in empty comments; do
	assert_exit 3 "$f rule file" "$HITMAP" check --rules "$T/$f.rules" "$T/dir"
	assert_eq "$T/$f.rules:1:1: error: no rules in this file (only comments and blank lines)" \
		"$(cat "$T/err")" "$f rule file"
done

# The same parser serves lint (contended-type lines) and diff.
assert_exit 3 "lint with a bad rule file" "$HITMAP" lint --rules bad.rules "$T/dir"
assert_exit 3 "diff with a bad rule file" "$HITMAP" diff --rules bad.rules "$T/dir" "$T/dir"
exit 0
