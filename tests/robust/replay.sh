#!/bin/sh
# Every seed of tests/fuzz/corpus/ and every reproducer of tests/robust/repro/
# through the fuzz targets' code (tests/fuzz/replay.c), in the ordinary build
# and, in CI, under ASan/UBSan: a bug the fuzzers found stays found.
# Reproducers are filed by target: repro/<target>-*.
. "$top_srcdir/tests/lib.sh"
n=0
for target in perfdata elf rules profile btf; do
	prog="$top_builddir/tests/robust/replay-$target"
	[ -x "$prog" ] || fail "$prog is not built (make check builds it)"
	set --
	for f in "$top_srcdir/tests/fuzz/corpus/$target"/* "$top_srcdir/tests/robust/repro/$target"-*; do
		[ -f "$f" ] && set -- "$@" "$f"
	done
	[ $# -gt 0 ] || continue
	timeout 60 "$prog" "$@" || fail "replay-$target: exit $? on one of: $*"
	n=$((n + $#))
done
echo "replayed $n inputs"
[ "$n" -gt 0 ] || fail "nothing replayed"
