#!/bin/sh
# rules/linux on the running kernel's BTF: the mm_struct rules about
# mmap_lock judge the layout the way the kernel source asks, with pahole's
# offsets as the oracle.  include/linux/mm_types.h, above mmap_lock: "its
# two hot fields 'count' and 'owner' sit in 2 different cachelines ... please
# be careful with adding new fields before mmap_lock, which can easily push
# the 2 fields into one cacheline": a mmap_lock that straddles a line is what
# upstream wants (no finding), count and owner on one line is an error.
# page_table_lock on mmap_lock's line is a warning (the fix that parted them
# never reached mainline), never an error.  mm_struct starts a line
# (SLAB_HWCACHE_ALIGN, `placement line-aligned`), so a line is offset / 64.
. "$top_srcdir/tests/lib.sh"
require pahole dwarves
k=/sys/kernel/btf/vmlinux
[ -r "$k" ] || skip "no /sys/kernel/btf/vmlinux on this kernel"
pahole -F btf -C mm_struct "$k" >"$T/mm" 2>/dev/null &&
	grep -q 'mmap_lock;' "$T/mm" || skip "pahole cannot read $k"
pahole -F btf -C rw_semaphore "$k" >"$T/rwsem" 2>/dev/null || fail "pahole -C rw_semaphore"
off() {	# off FILE MEMBER: the offset pahole prints for MEMBER
	awk -v m="$2;" '$0 ~ "[ *]" m " *\\/\\*" { sub(/.*\/\* */, ""); print $1; exit }' "$1"
}
lock=$(off "$T/mm" mmap_lock) ptl=$(off "$T/mm" page_table_lock)
cnt=$(off "$T/rwsem" count) own=$(off "$T/rwsem" owner)
[ -n "$lock" ] && [ -n "$ptl" ] && [ -n "$cnt" ] && [ -n "$own" ] ||
	fail "pahole: mmap_lock '$lock' page_table_lock '$ptl' count '$cnt' owner '$own'"
echo "pahole: page_table_lock $ptl, mmap_lock $lock (count +$cnt, owner +$own)"

set +e
"$HITMAP" check --rules "$top_srcdir/rules/linux" "$k" >"$T/c" 2>"$T/e"; rc=$?
set -e 2>/dev/null; set +e
[ $rc -le 1 ] || { cat "$T/e" >&2; fail "check --rules rules/linux $k: exit $rc"; }
cat "$T/c"

# count and owner
c=$((lock + cnt)) o=$((lock + own))
if [ $((c / 64)) = $((o / 64)) ]; then
	grep -qx "error: mm_struct: mmap_lock.count and mmap_lock.owner share cacheline $((c / 64))" "$T/c" ||
		fail "count ($c) and owner ($o) share line $((c / 64)): no error"
else
	! grep -q 'mmap_lock.count and mmap_lock.owner' "$T/c" ||
		fail "count ($c) and owner ($o) are on two lines, yet a finding"
fi
# mmap_lock straddling a line boundary is never a finding
! grep -q 'mmap_lock straddles' "$T/c" || fail "mmap_lock's straddle is a finding"
# page_table_lock and mmap_lock: a warning at most
end=$((lock + 40 - 1))
size=$(awk '/size:/ { gsub(/,/, ""); print $3; exit }' "$T/rwsem")
[ -n "$size" ] && end=$((lock + size - 1))
if [ $((ptl / 64)) = $((lock / 64)) ] || [ $((ptl / 64)) = $((end / 64)) ]; then
	grep -qx "warning: mm_struct: mmap_lock and page_table_lock share cacheline $((ptl / 64))" "$T/c" ||
		fail "page_table_lock ($ptl) on mmap_lock's line ($lock..$end): no warning"
else
	! grep -q 'mmap_lock and page_table_lock' "$T/c" || fail "page_table_lock apart, yet a finding"
fi
! grep -q '^error: mm_struct: mmap_lock and page_table_lock' "$T/c" ||
	fail "page_table_lock next to mmap_lock is an error"
# exit 1 only for an error
if grep -q '^error:' "$T/c"; then assert_eq 1 $rc "exit status"; else assert_eq 0 $rc "exit status"; fi
exit 0
