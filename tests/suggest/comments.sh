#!/bin/sh
# suggest --patch moves a member with what belongs to it (comments.c, the
# head of Linux 6.1's mm_struct with its comments and #ifdefs; offsets in
# its header comment).  With `apart mmap_lock page_table_lock` and
# line-aligned objects:
#  - mmap_lock to the top takes the comment above it along (golden:
#    comments.diff);
#  - mmap_lock to the end goes after lru_gen's #endif, not inside it;
#  - page_table_lock to the top or the end takes the rest of its comment,
#    which runs on for two lines;
#  - with `apart membarrier_state mm_count`, membarrier_state to the end
#    moves with its kerneldoc and the #ifdef CONFIG_MEMBARRIER around it,
#    and the blank line above it (golden: comments-ifdef.diff);
#  - with `apart map_count mm_count`, map_count to the end is refused: it
#    shares #ifdef CONFIG_MMU with pgtables_bytes; the warning names
#    mm_struct.map_count and its line, 55.
# Each patch keeps every line of the source (sorted lines compared), applies,
# rebuilds with gcc and clang, and `hitmap layout` of the rebuild equals the
# predicted layout (oracle.sh).
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/suggest/oracle.sh"

fixture comments.c
printf 'struct mm_struct {\n\tapart mmap_lock page_table_lock\n}\n' >"$T/mm.rules"
printf 'struct mm_struct {\n\tapart membarrier_state mm_count\n}\n' >"$T/mb.rules"
printf 'struct mm_struct {\n\tapart map_count mm_count\n}\n' >"$T/mc.rules"
cat >"$T/expected" <<'EOF2'
#1 move mmap_lock to the top
   cost: +0 bytes (sizeof 136 -> 136), cachelines 3 -> 3,
   remaining contention: 0 of 1 today (0%)
#2 move mmap_lock to the end
   cost: +0 bytes (sizeof 136 -> 136), cachelines 3 -> 3,
   remaining contention: 0 of 1 today (0%)
#3 move page_table_lock to the top
   cost: +8 bytes (sizeof 136 -> 144), cachelines 3 -> 3,
   remaining contention: 0 of 1 today (0%)
#4 move page_table_lock to the end
   cost: +8 bytes (sizeof 136 -> 144), cachelines 3 -> 3,
   remaining contention: 0 of 1 today (0%)
#5 align mmap_lock
   cost: +56 bytes (sizeof 136 -> 192), cachelines 3 -> 3,
   remaining contention: 0 of 1 today (0%)
EOF2
sort "$T/src/tests/suggest/comments.c" >"$T/orig.sorted"
# every line of the source is in the patched one, and nothing else
same_lines() {
	sort "$T/oracle-$1/tests/suggest/comments.c" >"$T/new.sorted"
	cmp -s "$T/orig.sorted" "$T/new.sorted" ||
		{ diff "$T/orig.sorted" "$T/new.sorted" >&2; fail "$2: lines lost or added"; }
}
for ccf in "gcc -g -gdwarf-5 -O2" "clang -g -gdwarf-4 -O0"; do
	cc=${ccf%% *}
	ev="--rules $T/mm.rules --assume-aligned"
	suggest_built "$T/c-$cc" "$ccf" tests/suggest/comments.c $ev
	for k in 1 2 3 4; do
		oracle $k mm_struct "$T/src" tests/suggest/comments.c "$T/c-$cc" "$ccf" $ev
		same_lines $k "proposal #$k ($cc)"
	done
	assert_files_eq "$TESTS_SRC/suggest/comments.diff" "$T/oracle-1.diff" "patch of #1 ($cc)"
	grep -q '^+#endif /\* CONFIG_LRU_GEN \*/$' "$T/oracle-2.diff" && fail "mmap_lock inside #ifdef CONFIG_LRU_GEN ($cc)"
	grep -A7 '^ #endif /\* CONFIG_LRU_GEN \*/$' "$T/oracle-2.diff" | grep -q '^+		struct rw_semaphore mmap_lock;$' ||
		fail "mmap_lock not after lru_gen's #endif ($cc)"
	for k in 3 4; do
		grep -A2 '^+		spinlock_t page_table_lock; /\* Protects page tables and some$' "$T/oracle-$k.diff" |
			sed -n 3p | grep -q '^+					     \*/$' || fail "page_table_lock's comment cut (#$k, $cc)"
	done

	ev="--rules $T/mb.rules --assume-aligned"
	"$HITMAP" suggest $ev "$T/c-$cc" | grep -q '^#1 move membarrier_state to the end$' ||
		fail "membarrier_state to the end is not #1 ($cc)"
	oracle 1 mm_struct "$T/src" tests/suggest/comments.c "$T/c-$cc" "$ccf" $ev
	same_lines 1 "membarrier_state to the end ($cc)"
	assert_files_eq "$TESTS_SRC/suggest/comments-ifdef.diff" "$T/oracle-1.diff" \
		"patch of membarrier_state to the end ($cc)"

	ev="--rules $T/mc.rules --assume-aligned"
	"$HITMAP" suggest $ev "$T/c-$cc" | grep -q '^#2 move map_count to the end$' ||
		fail "map_count to the end is not #2 ($cc)"
	assert_exit 0 "refused patch ($cc)" "$HITMAP" suggest $ev --patch --source-root "$T/src" \
		--proposal 2 "$T/c-$cc"
	grep -qx 'warning: tests/suggest/comments.c:55: moving mm_struct.map_count out of preprocessor conditionals it shares with other members is not safe to do blindly' \
		"$T/err" || { cat "$T/err" >&2; fail "refusal does not name map_count and its line ($cc)"; }
	grep -q '^struct mm_struct {$' "$T/out" || fail "layout not printed after the refusal ($cc)"
done

# In kernel style, mm_struct starts a line without --assume-aligned: Linux
# 6.1 creates its slab cache with SLAB_HWCACHE_ALIGN at kernel/fork.c:3129
# (proc_caches_init(): kmem_cache_create_usercopy("mm_struct", ...,
# SLAB_HWCACHE_ALIGN|SLAB_PANIC|SLAB_ACCOUNT, ...)), and the 136-byte
# objects are larger than half a line.  The proposals are those of
# --assume-aligned; in the default style nothing pins the start.
ev="--rules $T/mm.rules --style kernel"
assert_exit 0 "kernel style" "$HITMAP" suggest $ev "$T/c-gcc"
grep -qx 'note: mm_struct objects start a cacheline: their slab cache is created with SLAB_HWCACHE_ALIGN (kernel/fork.c:3129)' \
	"$T/out" || { cat "$T/out" >&2; fail "kernel style: no SLAB_HWCACHE_ALIGN note"; }
grep -v '^note: mm_struct objects start a cacheline' "$T/out" >"$T/kslab"
assert_exit 0 "kernel style, aligned" "$HITMAP" suggest $ev --assume-aligned "$T/c-gcc"
assert_files_eq "$T/out" "$T/kslab" "kernel style: SLAB_HWCACHE_ALIGN = --assume-aligned"
assert_exit 0 "default style" "$HITMAP" suggest --rules "$T/mm.rules" "$T/c-gcc"
grep -q '^  object start not pinned to a line' "$T/out" || fail "start pinned in the default style"

# Never trade one contended pair for another: with `apart mmlist pgd` (apart
# today: pgd 16, mmlist 96), "move mmap_lock to the end" would part the
# three locks but bring mmlist up to 56..71, on pgd's line 0; it is left
# out with a note, and every proposal kept leaves mmlist and pgd apart
# (offsets from each proposal's layout, lines of 64 bytes from 0).
printf 'struct mm_struct {\n\tapart mmap_lock page_table_lock map_count\n\tapart mmlist pgd\n}\n' >"$T/tr.rules"
ev="--rules $T/tr.rules --assume-aligned"
assert_exit 0 "trade" "$HITMAP" suggest $ev "$T/c-gcc"
grep -qx 'note: 1 proposal left out: they put mmlist and pgd, contended per the evidence, on one line' \
	"$T/out" || { cat "$T/out" >&2; fail "no note for the traded pair"; }
grep -q '^#[0-9]* move mmap_lock to the end$' "$T/out" && fail "a proposal that puts mmlist on pgd's line"
n=$(grep -c '^#[0-9]' "$T/out")
[ "$n" -gt 0 ] || fail "trade: no proposal"
k=1
while [ $k -le "$n" ]; do
	"$HITMAP" suggest $ev --proposal $k --layout-only "$T/c-gcc" >"$T/l" || fail "--proposal $k"
	m=$(sed -n 's|.* mmlist;  *\/\* *\([0-9]*\) .*|\1|p' "$T/l")
	p=$(sed -n 's|.* pgd;  *\/\* *\([0-9]*\) .*|\1|p' "$T/l")
	[ -n "$m" ] && [ -n "$p" ] || fail "proposal $k: no mmlist or pgd"
	[ $(((m + 15) / 64)) -lt $((p / 64)) ] || [ $((m / 64)) -gt $(((p + 7) / 64)) ] ||
		fail "proposal $k: mmlist $m and pgd $p on one line"
	k=$((k + 1))
done
