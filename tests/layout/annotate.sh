#!/bin/sh
# hitmap's additions to pahole's text, on the seed case and the group markers:
#  - mm_v2 (no has_pinned): mmap_lock (56..95, mm_common.h) straddles lines
#    0-1 and is noted; mm_v1: no member straddles, no note;
#  - groups.c: each begin/end pair is noted with its byte span (groups.c header);
#  - removing the "/* hitmap: " lines leaves pahole's text (diff-pahole.sh).
. "$top_srcdir/tests/lib.sh"
fix=$TESTS_SRC/fixtures
build_fixture "$fix/mm_v1.c" "$T/mm_v1" "${CC:-gcc}" 5 -O2
build_fixture "$fix/mm_v2.c" "$T/mm_v2" "${CC:-gcc}" 5 -O2
build_fixture "$fix/groups.c" "$T/groups" "${CC:-gcc}" 5 -O2
"$HITMAP" layout -C mm_struct "$T/mm_v2" >"$T/v2" || fail "layout v2"
assert_eq "	/* hitmap: mmap_lock straddles cachelines 0-1 (bytes 56..95) */" \
	"$(grep '/\* hitmap: ' "$T/v2")" "mm_v2 straddle note"
grep -B1 '/\* hitmap: mmap_lock' "$T/v2" | head -1 | grep -q 'mmap_lock;' ||
	fail "the note follows the mmap_lock line"
"$HITMAP" layout -C mm_struct "$T/mm_v1" >"$T/v1" || fail "layout v1"
grep -q '/\* hitmap: ' "$T/v1" && fail "mm_v1: nothing straddles, yet a note"
"$HITMAP" layout -C netdev_like,sock_like "$T/groups" >"$T/g" || fail "layout groups"
grep '/\* hitmap: ' "$T/g" >"$T/notes"
cat >"$T/want" <<'EOW'
	/* hitmap: group read_tx: bytes 0..17 (18 bytes), cachelines 0-0 */
	/* hitmap: group write_rx: bytes 64..75 (12 bytes), cachelines 1-1 */
	/* hitmap: group read_rx: bytes 76..79 (4 bytes), cachelines 1-1 */
	/* hitmap: last struct has 1 hole */
	/* hitmap: group sock_write_rx: bytes 12..19 (8 bytes), cachelines 0-0 */
	/* hitmap: group sock_read_tx: begins at byte 20, no end marker */
	/* hitmap: member types with holes: 1, total: 1 */
EOW
assert_files_eq "$T/want" "$T/notes" "group notes"
