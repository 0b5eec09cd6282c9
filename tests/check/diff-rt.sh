#!/bin/sh
# hitmap diff of one source in two configurations (diff-rt.c, plain and
# -DRT: spinlock_t becomes PREEMPT_RT's 32-byte lock).  The summary comes
# first: structs compared, changed, only in one build, then the root cause
# (struct spinlock, moving three structs); member size changes are stated.
# Checked against pahole: every struct's size in both builds (--sizes)
# gives the counts of the summary line, and the size notes of the members
# that grew are pahole's member sizes.  gcc and clang, DWARF 4 and 5.
. "$top_srcdir/tests/lib.sh"
require clang clang
require pahole dwarves
S="$top_srcdir/tests/check"
cd "$T" || exit 1
for cc in gcc clang; do
	for dw in 4 5; do
		what="$cc -gdwarf-$dw"
		build_fixture "$S/diff-rt.c" old $cc $dw -O0
		build_fixture "$S/diff-rt.c" new $cc $dw -O0 -DRT
		assert_exit 0 "$what: diff" "$HITMAP" diff old new
		assert_files_eq "$S/diff-rt.expected" "$T/out" "$what: diff"

		# the summary line, from pahole's struct sizes
		pahole --sizes old | sort -k1,1 >pa.old
		pahole --sizes new | sort -k1,1 >pa.new
		join pa.old pa.new | awk '{ n++; if ($2 != $4) c++ }
			END { printf "%d %d ", n, c }' >pa.sum
		join -v1 pa.old pa.new | wc -l | tr -d ' \n' >>pa.sum
		printf ' ' >>pa.sum
		join -v2 pa.old pa.new | wc -l | tr -d ' \n' >>pa.sum
		sed -n '1s/^note: \([0-9]*\) structs compared, \([0-9]*\) changed; \([0-9]*\) only in the old build, \([0-9]*\) only in the new$/\1 \2 \3 \4/p' \
			"$T/out" >hm.sum
		assert_eq "$(cat pa.sum)" "$(cat hm.sum)" "$what: summary counts against pahole"

		# "STRUCT.MEMBER OLD NEW" for every member whose size changed
		for v in old new; do
			for s in mm_struct wq holder; do
				pahole -C $s $v | awk -v s=$s '$NF == "*/" && $(NF-3) == "/*" && $(NF-2) ~ /^[0-9]+$/ {
					m = $(NF-4); sub(";", "", m); print s "." m, $(NF-1) }'
			done
		done | awk '{ if ($1 in o) { if (o[$1] != $2) print $1, o[$1], $2 }
			else o[$1] = $2 }' | sort >pa.mem
		grep -v '^note: [a-z_]*: alignment ' "$T/out" |
			sed -n 's/^note: \([a-z_]*\): \([a-z_]*\) \([0-9]*\) -> \([0-9]*\) ([^+-][^)]*)$/\1.\2 \3 \4/p' |
			sort >hm.mem
		assert_files_eq pa.mem hm.mem "$what: member sizes against pahole"
		pahole -C spinlock old | grep -q 'size: 4,' && pahole -C spinlock new |
			grep -q 'size: 32,' || fail "$what: pahole: spinlock is not 4 -> 32"
		grep -q '^note: spinlock: root cause: size 4 -> 32 (+28), moves 3 structs' "$T/out" ||
			fail "$what: root cause"
	done
done
exit 0
