#!/bin/sh
# C++: a struct of two std::atomic<long> counters (pair.cc; offsets in its
# header comment) with `apart produced consumed`, spelled --style cxx.  The
# struct is 8-aligned, so weights are averaged over 8 starts: the counters
# (0..7, 8..15) share a line from 7 of them.  "align consumed" puts it at 64,
# name at 72, sizeof 128 (+104) and leaves nothing; its patch uses alignas(64)
# and, like every proposal, rebuilds with g++ and clang++ to the predicted
# layout.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/suggest/oracle.sh"

mkdir -p "$T/src"
cp "$TESTS_SRC/suggest/pair.cc" "$T/src/" || fail "cannot copy the fixture"
printf 'struct pair_counters {\n\tapart produced consumed\n}\n' >"$T/p.rules"
for ccf in "g++ -g -O2" "clang++ -g -O2"; do
	cxx=${ccf%% *}
	pkg=g++; [ "$cxx" = clang++ ] && pkg=clang
	command -v "$cxx" >/dev/null || skip "$cxx not installed (Debian package $pkg)"
	(cd "$T/src" && $ccf -o "$T/pair-$cxx" pair.cc) || fail "cannot build pair.cc"
	assert_exit 0 "suggest ($cxx)" "$HITMAP" suggest --rules "$T/p.rules" --style cxx "$T/pair-$cxx"
	grep -q '^  contention on shared lines: 0.88 of 1$' "$T/out" || fail "today ($cxx)"
	grep -A5 '^#1 align consumed$' "$T/out" | grep -q '^   remaining contention: 0 of 0.88 today (0%)$' ||
		fail "align consumed first ($cxx)"
	grep -A1 '^#1 ' "$T/out" | grep -q '^   cost: +104 bytes (sizeof 24 -> 128), cachelines 1 -> 2,$' ||
		fail "cost ($cxx)"
	n=$(grep -c '^#[0-9]' "$T/out")
	for k in $(seq "$n"); do
		oracle "$k" pair_counters "$T/src" pair.cc "$T/pair-$cxx" "$ccf" \
			--rules "$T/p.rules" --style cxx
	done
	grep -q '^+	alignas(64) std::atomic<long> consumed;	// written by the consumer$' \
		"$T/oracle-1.diff" || fail "alignas patch ($cxx)"
done
