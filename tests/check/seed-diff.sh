#!/bin/sh
# The seed regression (see tests/fixtures/mm_common.h for the offsets):
# removing `atomic_t has_pinned` moves page_table_lock (56 -> 52) next to
# mmap_lock (64 -> 56), so both fall into cacheline 0.  `hitmap diff v1 v2`
# must fail naming the two locks, whichever evidence says they must stay
# apart: lint alone (a spinlock_t and a struct rw_semaphore), a rule, or a
# profile whose pair is page_table_lock / mmap_lock.count.  `diff v1 v1`
# passes.  Built with gcc and clang, DWARF 4 and 5: the output is the same.
. "$top_srcdir/tests/lib.sh"
require clang clang
S="$top_srcdir/tests/check"
F="$top_srcdir/tests/fixtures"
cd "$T" || exit 1
for cc in gcc clang; do
	for dw in 4 5; do
		build_fixture "$F/mm_v1.c" v1 $cc $dw -O0
		build_fixture "$F/mm_v2.c" v2 $cc $dw -O0
		what="$cc -gdwarf-$dw"

		assert_exit 1 "$what: diff (lint)" "$HITMAP" diff v1 v2
		assert_files_eq "$S/seed-diff-lint.expected" "$T/out" "$what: diff (lint)"
		grep -q '^error: mm_struct: page_table_lock and mmap_lock now share cacheline 0' \
			"$T/out" || fail "$what: lint finding missing"

		assert_exit 1 "$what: diff (rule)" "$HITMAP" diff --no-lint \
			--rules "$S/seed.rules" v1 v2
		sed "s|$S/||" "$T/out" >"$T/out.rule"
		assert_files_eq "$S/seed-diff-rule.expected" "$T/out.rule" "$what: diff (rule)"

		assert_exit 1 "$what: diff (profile)" "$HITMAP" diff --no-lint \
			--profile "$S/seed-profile.json" v1 v2
		assert_files_eq "$S/seed-diff-profile.expected" "$T/out" "$what: diff (profile)"

		# The reverse change repairs the rule: a note, exit 0.
		assert_exit 0 "$what: diff v2 v1 (rule)" "$HITMAP" diff --no-lint \
			--rules "$S/seed.rules" v2 v1
		grep -q '^note: mm_struct: fixed: mmap_lock and page_table_lock share cacheline 0$' \
			"$T/out" || fail "$what: the repaired rule is not reported"

		assert_exit 0 "$what: diff v1 v1" "$HITMAP" diff --rules "$S/seed.rules" \
			--profile "$S/seed-profile.json" v1 v1
		assert_eq "note: 8 structs compared, 0 changed; 0 only in the old build, 0 only in the new
hitmap diff: 0 errors, 0 warnings, 0 notes" "$(cat "$T/out")" "$what: diff v1 v1"
	done
done
exit 0
