#!/bin/sh
# make install puts the kernel's rule files under $(pkgdatadir)/rules/linux;
# `--rules linux/mm.rules` and `--rules linux` find them there when they are
# not found as named, and `check --rules-dir` lists them.  The install is
# staged (DESTDIR): HITMAP_RULES_DIR points the command at it.
. "$top_srcdir/tests/lib.sh"
dest=$T/root
${MAKE:-make} -C "$top_builddir" install DESTDIR="$dest" >"$T/install.log" 2>&1 ||
	{ tail -20 "$T/install.log" >&2; fail "make install DESTDIR failed"; }
rd=$(dirname "$(find "$dest" -path '*/hitmap/rules/linux/mm.rules')")
[ -n "$rd" ] && [ "$rd" != . ] || fail "rules/linux not installed"
rd=${rd%/linux}
for f in "$top_srcdir"/rules/linux/*.rules; do
	cmp -s "$f" "$rd/linux/${f##*/}" || fail "${f##*/} not installed as it is"
done
HITMAP_RULES_DIR=$rd
export HITMAP_RULES_DIR

# --rules-dir: the folder, then each file
(cd "$top_srcdir/rules" && ls linux/*.rules) | sed 's/^/  /' >"$T/want"
sed -i "1i $rd" "$T/want"
assert_exit 0 "check --rules-dir" "$HITMAP" check --rules-dir
assert_files_eq "$T/want" "$T/out" "check --rules-dir"

# by name, from another folder, and the whole folder at once
build_fixture "$TESTS_SRC/fixtures/mm_v2.c" "$T/mm" gcc 5 -O0
cd "$T" || fail "cd"
set +e
"$HITMAP" check --rules "$top_srcdir/rules/linux/mm.rules" mm >"$T/src.out" 2>&1; a=$?
"$HITMAP" check --rules linux/mm.rules mm >"$T/inst.out" 2>&1; b=$?
set -e 2>/dev/null; set +e
[ $a = $b ] || fail "check --rules linux/mm.rules: exit $b, the source tree's file $a"
sed "s#$top_srcdir/rules/#$rd/#g" "$T/src.out" >"$T/src.norm"
assert_files_eq "$T/src.norm" "$T/inst.out" "--rules linux/mm.rules: the installed file"
set +e
"$HITMAP" check --rules "$top_srcdir"/rules/linux/*.rules mm >"$T/all-src.out" 2>&1; a=$?
"$HITMAP" check --rules linux mm >"$T/all-inst.out" 2>&1; b=$?
set -e 2>/dev/null; set +e
[ $a = $b ] || fail "check --rules linux: exit $b, every file named $a"
sed "s#$top_srcdir/rules/#$rd/#g" "$T/all-src.out" >"$T/all-src.norm"
assert_files_eq "$T/all-src.norm" "$T/all-inst.out" "--rules linux: every installed file"
assert_exit 3 "a rule file found nowhere" "$HITMAP" check --rules linux/nosuch.rules mm
grep -q "linux/nosuch.rules" "$T/err" || fail "the message does not name the file: $(cat "$T/err")"
exit 0
