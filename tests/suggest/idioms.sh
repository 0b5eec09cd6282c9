#!/bin/sh
# Kernel idioms in suggest's patches.  mmcount.c is the head of mm_struct
# before mm_count got its own line (offsets in its header comment: mm_count
# 24..27 shares line 0 with everything up to mmap_lock); cache.h defines
# ____cacheline_aligned_in_smp, CACHELINE_PADDING and the cacheline group
# macros as the kernel does.  With `alone mm_count`,
# kernel style, objects line-aligned and a 256-byte budget:
#  - mm_count at the top in `struct { ... } ____cacheline_aligned_in_smp;`
#    (the kernel's fix): the anonymous struct is 0..63, the other members
#    follow from 64 without the 4-byte hole of today (36..39) and end at
#    160, which the 64-byte alignment rounds to 192: +88;
#  - the same in place: a 40-byte hole 24..63 before it, map_count at 128,
#    flags ending at 200, rounded to 256: +152;
#  - mm_count between __cacheline_group_begin_aligned(mm_count) (an empty
#    __u8 array aligned to 64: mm_count at 64) and _end_aligned(mm_count)
#    (an empty __u8 array at 72, aligned to a long, and an empty struct
#    aligned to 64 at 128: map_count at 128), aligning mm_count and
#    map_count, padding after mm_count, and CACHELINE_PADDING(_pad1_) before
#    it and (_pad2_) after it (an empty struct cacheline_padding member
#    aligned to 64) cost the same +152 and rank after the anonymous struct.
# Each patch must apply (patch --dry-run first), the patched source must
# build with gcc and clang, and `hitmap layout` of the rebuild must equal the
# predicted layout (oracle.sh); pahole must agree with the gcc rebuilds.  The
# patches of #1, #3 and #6 are golden (mmcount.diff, mmcount-group.diff,
# mmcount-pad.diff).
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/suggest/oracle.sh"

fixture mmcount.c cache.h
printf 'struct mm_struct {\n\talone mm_count\n}\n' >"$T/mm.rules"
cat >"$T/expected" <<'EOF2'
#1 at the top, mm_count in an aligned anonymous struct
   cost: +88 bytes (sizeof 104 -> 192), cachelines 2 -> 3,
   remaining contention: 0 of 1 today (0%)
#2 mm_count in an aligned anonymous struct
   cost: +152 bytes (sizeof 104 -> 256), cachelines 2 -> 4,
   remaining contention: 0 of 1 today (0%)
#3 give mm_count a line of its own (cacheline group)
   cost: +152 bytes (sizeof 104 -> 256), cachelines 2 -> 4,
   remaining contention: 0 of 1 today (0%)
#4 align mm_count and the member after it (map_count)
   cost: +152 bytes (sizeof 104 -> 256), cachelines 2 -> 4,
   remaining contention: 0 of 1 today (0%)
#5 give mm_count a line of its own (padding after it)
   cost: +152 bytes (sizeof 104 -> 256), cachelines 2 -> 4,
   remaining contention: 0 of 1 today (0%)
#6 give mm_count a line of its own (CACHELINE_PADDING)
   cost: +152 bytes (sizeof 104 -> 256), cachelines 2 -> 4,
   remaining contention: 0 of 1 today (0%)
EOF2
ev="--rules $T/mm.rules --assume-aligned --style kernel --max-growth 256"
for ccf in "gcc -g -gdwarf-5 -O2" "clang -g -gdwarf-4 -O0"; do
	cc=${ccf%% *}
	suggest_built "$T/mm-$cc" "$ccf" tests/suggest/mmcount.c $ev
	"$HITMAP" suggest $ev --proposal 1 "$T/mm-$cc" >"$T/one" || fail "suggest --proposal 1"
	grep -q '^     mm_count: wrap in struct { ... } ____cacheline_aligned_in_smp;$' "$T/one" ||
		fail "the wrap edit is not listed ($cc)"
	"$HITMAP" suggest $ev --patch --source-root "$T/src" --proposal 1 "$T/mm-$cc" \
		>"$T/p1.diff" || fail "suggest --patch ($cc)"
	assert_files_eq "$TESTS_SRC/suggest/mmcount.diff" "$T/p1.diff" "patch of #1 ($cc)"
	(cd "$T/src" && patch --dry-run -s -p1 <"$T/p1.diff") || fail "patch --dry-run ($cc)"
	for kf in 3:group 6:pad; do
		k=${kf%%:*}
		"$HITMAP" suggest $ev --patch --source-root "$T/src" --proposal $k "$T/mm-$cc" \
			>"$T/p$k.diff" || fail "suggest --patch #$k ($cc)"
		assert_files_eq "$TESTS_SRC/suggest/mmcount-${kf#*:}.diff" "$T/p$k.diff" \
			"patch of #$k ($cc)"
		(cd "$T/src" && patch --dry-run -s -p1 <"$T/p$k.diff") ||
			fail "patch --dry-run #$k ($cc)"
	done
	"$HITMAP" suggest $ev --proposal 6 "$T/mm-$cc" >"$T/six" || fail "suggest --proposal 6"
	grep -q '^     mm_count: add CACHELINE_PADDING(_pad2_) after it$' "$T/six" ||
		fail "the CACHELINE_PADDING edit is not listed ($cc)"
	"$HITMAP" suggest $ev --proposal 3 "$T/mm-$cc" >"$T/three" || fail "suggest --proposal 3"
	grep -q '^     mm_count to mm_count: between __cacheline_group_begin_aligned(mm_count) and _end_aligned(mm_count)$' \
		"$T/three" || fail "the cacheline group edit is not listed ($cc)"
	for k in 1 2 3 4 5 6; do
		oracle $k mm_struct "$T/src" tests/suggest/mmcount.c "$T/mm-$cc" "$ccf" $ev
	done
	if [ "$cc" = gcc ] && command -v pahole >/dev/null; then
		for k in 1 2 3 6; do
			pahole -C mm_struct "$T/oracle-$k/rebuilt" >"$T/pahole-$k" ||
				fail "pahole on the rebuild of #$k"
			grep -v '/\* hitmap:' "$T/oracle-$k.actual" >"$T/hitmap-$k"
			assert_files_eq "$T/pahole-$k" "$T/hitmap-$k" "pahole on the rebuild of #$k"
		done
	fi
done
# other styles do not spell an anonymous struct's alignment the kernel's way:
# no such proposal there
"$HITMAP" suggest --rules "$T/mm.rules" --assume-aligned --max-growth 256 --style gnu \
	"$T/mm-gcc" >"$T/gnu" || fail "suggest --style gnu"
! grep -q 'anonymous struct\|CACHELINE_PADDING\|cacheline group' "$T/gnu" ||
	fail "a kernel-only proposal in gnu style"

# The kernel's 6.1 shape (anon.c): every member inside an anonymous struct.
# The aligned anonymous struct nests inside it at the top: mm_count 0..63,
# the other members from 64 (map_count 84, page_table_lock 88, mmap_lock
# 96..135), the outer anonymous struct ends at 168 and rounds to 192: +88.
fixture anon.c
ev="--rules $T/mm.rules --assume-aligned --style kernel"
for ccf in "gcc -g -O2" "clang -g -O0"; do
	cc=${ccf%% *}
	ccf="$ccf -include tests/suggest/cache.h"
	printf '%s\n' '#1 at the top, mm_count in an aligned anonymous struct' \
		'   cost: +88 bytes (sizeof 104 -> 192), cachelines 2 -> 3,' \
		'   remaining contention: 0 of 1 today (0%)' >"$T/expected"
	suggest_built "$T/a-$cc" "$ccf" tests/suggest/anon.c $ev
	oracle 1 mm_struct "$T/src" tests/suggest/anon.c "$T/a-$cc" "$ccf" $ev
	grep -q '^+			atomic_t mm_count;$' "$T/oracle-1.diff" ||
		fail "anon.c: mm_count not wrapped inside the anonymous struct ($cc)"
done

# The idiom the struct already uses wins: groups.c marks a group with the
# cacheline group macros, so `alone refs` in kernel style gets a cacheline
# group and neither an aligned anonymous struct nor CACHELINE_PADDING:
# refs at 64 after its begin marker (64), its end marker at 72, its pad at
# 128, lock at 128, stats 136..143, sizeof 192: +64, like moving refs to the top, aligning refs and lock, or
# padding after refs.
fixture groups.c
printf 'struct dev {\n\talone refs\n}\n' >"$T/dev.rules"
cat >"$T/expected" <<'EOF2'
#1 move refs to the top
   cost: +64 bytes (sizeof 128 -> 192), cachelines 2 -> 3,
   remaining contention: 0 of 1 today (0%)
#2 give refs a line of its own (cacheline group)
   cost: +64 bytes (sizeof 128 -> 192), cachelines 2 -> 3,
   remaining contention: 0 of 1 today (0%)
#3 align refs and the member after it (lock)
   cost: +64 bytes (sizeof 128 -> 192), cachelines 2 -> 3,
   remaining contention: 0 of 1 today (0%)
#4 give refs a line of its own (padding after it)
   cost: +64 bytes (sizeof 128 -> 192), cachelines 2 -> 3,
   remaining contention: 0 of 1 today (0%)
EOF2
ev="--rules $T/dev.rules --assume-aligned --style kernel"
for ccf in "gcc -g -O2" "clang -g -O0"; do
	cc=${ccf%% *}
	suggest_built "$T/g-$cc" "$ccf" tests/suggest/groups.c $ev
	grep -q '^note: the struct already uses cacheline groups: of the kernel idioms, only that is proposed$' \
		"$T/out" || fail "groups.c: the idiom in use is not named ($cc)"
	for k in 1 2 3 4; do
		oracle $k dev "$T/src" tests/suggest/groups.c "$T/g-$cc" "$ccf" $ev
	done
	grep -q '^+	__cacheline_group_begin_aligned(refs);$' "$T/oracle-2.diff" ||
		fail "groups.c: no cacheline group in the patch ($cc)"
done
