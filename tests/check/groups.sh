#!/bin/sh
# Kernel cacheline groups (tests/fixtures/groups.c derives the offsets):
# every __cacheline_group_begin__G/_end__G pair is reported with its span as
# a note; a begin without an end is an error (what the kernel's
# CACHELINE_ASSERT_GROUP_MEMBER would refuse to build); the aligned group
# write_rx starts line 1 and passes.  A group inside an embedded struct is
# reported once, for the struct that declares it.  --no-groups skips all.
. "$top_srcdir/tests/lib.sh"
require clang clang
S="$top_srcdir/tests/check"
for cc in gcc clang; do
	for dw in 4 5; do
		what="$cc -gdwarf-$dw"
		build_fixture "$top_srcdir/tests/fixtures/groups.c" "$T/groups" $cc $dw -O0
		assert_exit 1 "$what: groups" "$HITMAP" check "$T/groups"
		assert_files_eq "$S/groups.expected" "$T/out" "$what: groups"
		# With 128-byte lines every group of netdev_like sits on line 0.
		assert_exit 0 "$what: groups -c 128" "$HITMAP" check -c 128 -C netdev_like "$T/groups"
		assert_files_eq "$S/groups-128.expected" "$T/out" "$what: groups -c 128"
		assert_exit 0 "$what: --no-groups" "$HITMAP" check --no-groups "$T/groups"
		assert_eq "hitmap check: 0 errors, 0 warnings, 0 notes" "$(cat "$T/out")" \
			"$what: --no-groups"
	done
done
exit 0
