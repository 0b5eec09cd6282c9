#!/bin/sh
# Members inside an anonymous struct, as Linux 6.1 declares mm_struct
# (anon.c; offsets in its header comment: page_table_lock 28..31 and
# mmap_lock 32..71 on line 0).  suggest works on the anonymous struct's
# members and reports sizes of the outer struct, whose flexible cpu_bitmap
# follows the anonymous struct:
#  - mmap_lock to the top (0..39): the members before it move down by 40 and
#    end where they ended (map_count 64, page_table_lock 68, mmlist 72): +0;
#  - mmap_lock to the end (64..103 after flags 56..63): +0;
#  - one line per written member, padding: both locks go after flags
#    (56..63), page_table_lock at 64 needs no padding, mmap_lock needs 60
#    bytes to start line 2 at 128, ending at 168: +64;
#  - align mmap_lock: at 64, mmlist 104, hiwater_rss 120, flags 128, the
#    anonymous struct ends at 136 and rounds up to 192 (64-aligned): +88.
# Each patch is applied, rebuilt with gcc and clang and compared.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/suggest/oracle.sh"

fixture anon.c
printf 'struct mm_struct {\n\tapart mmap_lock page_table_lock\n}\n' >"$T/mm.rules"
cat >"$T/expected" <<'EOF2'
#1 move mmap_lock to the top
   cost: +0 bytes (sizeof 104 -> 104), cachelines 2 -> 2,
   remaining contention: 0 of 1 today (0%)
#2 move mmap_lock to the end
   cost: +0 bytes (sizeof 104 -> 104), cachelines 2 -> 2,
   remaining contention: 0 of 1 today (0%)
#3 one line per written member (explicit padding)
   cost: +64 bytes (sizeof 104 -> 168), cachelines 2 -> 3,
   remaining contention: 0 of 1 today (0%)
#4 align mmap_lock
   cost: +88 bytes (sizeof 104 -> 192), cachelines 2 -> 3,
   remaining contention: 0 of 1 today (0%)
EOF2
ev="--rules $T/mm.rules --assume-aligned"
for ccf in "gcc -g -gdwarf-4 -O2" "clang -g -gdwarf-5 -O0"; do
	cc=${ccf%% *}
	suggest_built "$T/a-$cc" "$ccf" tests/suggest/anon.c $ev
	for k in 1 2 3 4; do
		oracle $k mm_struct "$T/src" tests/suggest/anon.c "$T/a-$cc" "$ccf" $ev
	done
	grep -q '^+		struct rw_semaphore mmap_lock __attribute__((aligned(64)));$' \
		"$T/oracle-4.diff" || fail "patch edits the member inside the anonymous struct"
done
