#!/bin/sh
# Alignment attributes inferred from the running kernel's BTF print as
# `pahole -F btf` prints them (the oracle): an inline anonymous struct that
# is line-aligned (mm_struct's `struct { atomic_t mm_count; }
# ____cacheline_aligned_in_smp;`) shows `__attribute__((__aligned__(64)))`
# once, not once for the type and once for the member, and a named struct
# whose alignment only a member carries gets no attribute of its own.  The
# structs compared are those whose layout has such a member; hitmap's own
# `/* hitmap: ... */` comments aside, the text is pahole's.
. "$top_srcdir/tests/lib.sh"
require pahole dwarves
k=/sys/kernel/btf/vmlinux
[ -r "$k" ] || skip "no /sys/kernel/btf/vmlinux on this kernel"
pahole -F btf -C mm_struct "$k" >"$T/probe" 2>/dev/null && grep -q mm_count "$T/probe" ||
	skip "pahole cannot read $k"
"$HITMAP" layout --no-cache "$k" >"$T/all" 2>/dev/null || fail "layout $k"
n=$(grep -c '__aligned__([0-9]*))) __attribute__((__aligned__' "$T/all")
assert_eq 0 "$n" "doubled alignment attributes in the layout of $k"
for s in mm_struct; do
	pahole -F btf -C $s "$k" 2>/dev/null >"$T/$s.pa" || fail "pahole -C $s"
	"$HITMAP" layout --no-cache -C $s "$k" | grep -v '/\* hitmap: ' >"$T/$s.hm" ||
		fail "layout -C $s"
	assert_files_eq "$T/$s.pa" "$T/$s.hm" "layout -C $s vs pahole -F btf"
done
exit 0
