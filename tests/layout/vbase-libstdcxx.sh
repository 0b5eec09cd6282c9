#!/bin/sh
# libstdc++'s debug build (libstdc++6-12-dbg): every iostream class (each has
# basic_ios as a virtual base, directly or not) printed with its bases where
# the compiler puts them and no false padding, checked by a program
# generated from hitmap's text (tests/layout/iosvbase.py), built for both
# string ABIs: each printed block must match the compiler in one of them.
. "$top_srcdir/tests/lib.sh"
require g++ g++
require python3 python3
lib=/usr/lib/x86_64-linux-gnu/debug/libstdc++.so.6.0.30
[ -r "$lib" ] || skip "$lib missing (apt-get install libstdc++6-12-dbg)"
"$HITMAP" layout --no-cache "$lib" >"$T/hm" || fail "hitmap layout $lib failed"
python3 "$TESTS_SRC/layout/iosvbase.py" "$T/hm" >"$T/check.cc" || fail "cannot generate the check"
for abi in 0 1; do
	echo "+ g++ -D_GLIBCXX_USE_CXX11_ABI=$abi check.cc" >&2
	g++ -w -D_GLIBCXX_USE_CXX11_ABI=$abi -o "$T/check$abi" "$T/check.cc" || fail "the check does not compile"
	"$T/check$abi" >"$T/out$abi" || fail "the check failed to run"
done
paste "$T/out1" "$T/out0" | awk -F'\t' '
	{ all[$1] = 1; if ($3 != 1 && $6 != 1) { bad[$1] = 1; print "differs from the compiler: " $1 } }
	END { for (k in all) { n++; if (k in bad) b++ } printf "%d iostream classes, %d differ\n", n, b; exit (n != 23 || b > 0) }' ||
	fail "hitmap's iostream layouts differ from the compiler's"
