#!/bin/sh
# Corrupt DWARF caught (issue 30, item 7).  A corpus built at test time from
# tests/robust/fx-dwarf.c: deterministic one-byte edits of its .debug_abbrev,
# .debug_info and .debug_str (dwarf-mutate.py: 75 per section) and
# .debug_str cut to one byte.  For each mutated binary `hitmap layout`
# must
#   - exit 3 with exactly one line on stderr (the unit and the offset) and
#     nothing on stdout, or
#   - exit 0 with the unmodified binary's output, or
#   - exit 0 with the output pahole prints for the mutated binary: an edit
#     that leaves consistent DWARF (a renamed string, a moved member) is a
#     different program, not a corrupt one, and pahole (libdw) is the
#     oracle of what it says.
# A wrong layout (exit 0, output neither) fails the test.  The counts are
# printed to the log.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/robust/lib-robust.sh"
require python3
require pahole dwarves
require readelf binutils
cd "$T" || exit 1
build_fixture "$TESTS_SRC/robust/fx-dwarf.c" fx gcc 5 -O1
"$HM_RUN" layout --no-cache fx >base.out 2>base.err || { cat base.err >&2; fail "the fixture"; }
[ -s base.err ] && { cat base.err >&2; fail "the fixture: a diagnostic"; }
pahole -F dwarf -M --suppress_force_paddings fx >base.pa 2>/dev/null
grep -av '/\* hitmap: ' base.out | cmp -s - base.pa ||
	skip "pahole's layout of the fixture differs from hitmap's: no oracle for the edits"
n=$(python3 "$TESTS_SRC/robust/dwarf-mutate.py" fx corpus) || fail "dwarf-mutate.py"
same=0 err3=0 renamed=0
for f in corpus/*; do
	set +e
	timeout "$TMO" "$HM_RUN" layout --no-cache "$f" >out 2>err
	rc=$?
	set +e
	case $rc in
	3)
		[ "$(grep -c . err)" = 1 ] && grep -q '^error: .*at offset 0x' err && [ ! -s out ] ||
			{ cat err >&2; fail "$f: exit 3 but not one error line naming the offset"; }
		err3=$((err3 + 1)) ;;
	0)
		if cmp -s out base.out; then
			same=$((same + 1))
		else
			timeout "$TMO" pahole -F dwarf -M --suppress_force_paddings "$f" >pa 2>/dev/null
			grep -av '/\* hitmap: ' out | cmp -s - pa ||
				{ diff -a base.out out | head -20 >&2; fail "$f: exit 0 with a wrong layout"; }
			renamed=$((renamed + 1))
		fi ;;
	*)
		cat err >&2
		fail "$f: exit $rc" ;;
	esac
done
echo "$n mutations: $err3 refused (exit 3, one line), $same unchanged, $renamed consistent edits as pahole reads them, 0 wrong layouts" >&2
# .debug_str cut to one byte: refused, naming the unit and the DIE
grep -q . corpus/*-debug_str-cut-1 || fail "no cut corpus entry"
run_hm layout --no-cache corpus/*-debug_str-cut-1
[ "$rc" = 3 ] || fail ".debug_str cut to one byte: exit $rc, want 3"
exit 0
