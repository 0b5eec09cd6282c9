#!/bin/sh
# The EXAMPLES of hitmap-lint(1) and hitmap-diff(1) run as printed: each
# line, taken from the page, runs in a folder where vmlinux, old/vmlinux and
# new/vmlinux are the seed fixtures (mm_v2, mm_v1, mm_v2) and rules/ is the
# source tree's; it must exit 0 or 1 (findings), never 2 (usage) or 3, and
# print its closing count line (or, with --sarif, a SARIF document).
. "$top_srcdir/tests/lib.sh"
F="$top_srcdir/tests/fixtures"
cd "$T" || exit 1
mkdir -p old new
build_fixture "$F/mm_v2.c" vmlinux gcc 5 -O0
build_fixture "$F/mm_v1.c" old/vmlinux gcc 5 -O0
cp vmlinux new/vmlinux
ln -s "$top_srcdir/rules" rules
hitmap() { "$HITMAP" "$@"; }
n=0
for page in hitmap-lint.1 hitmap-diff.1; do
	sed -n '/^\.SH EXAMPLES/,/^\.fi/p' "$top_srcdir/man/$page" | sed '1,2d;$d' |
		sed 's/\\-/-/g' >"$T/ex"
	[ -s "$T/ex" ] || fail "$page: no examples"
	while IFS= read -r line; do
		n=$((n + 1))
		eval "$line" >"$T/ex.out" 2>"$T/ex.err" </dev/null
		rc=$?
		[ $rc = 0 ] || [ $rc = 1 ] ||
			{ cat "$T/ex.err" >&2; fail "$page: '$line' exits $rc"; }
		f=$T/ex.out
		case $line in *'>'*) f=$T/${line##*>}; f=${f% } ;; esac
		tail -1 "$f" | grep -q '^hitmap [a-z]*: [0-9]* error' ||
			grep -q '"version": "2.1.0"' "$f" ||
			fail "$page: '$line' printed no findings"
	done <"$T/ex"
done
[ $n -ge 8 ] || fail "only $n examples"
exit 0
