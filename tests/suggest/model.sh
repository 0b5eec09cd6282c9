#!/bin/sh
# suggest's layout model on bitfields and packing (bits.c; offsets in its
# header comment), with `apart a lock` / `apart v lock`:
#  - struct bf: the bitfields stay put behind `a` (moving what precedes a run
#    of bitfields could repack it, so such proposals are not made);
#    "align lock": lock 64..67, b 72..79, sizeof rounds to 128: +104;
#    "move lock to the end": lock 24..27, sizeof rounds to 32: +8, and it
#    leaves the pair on one line from 5 of the 8 possible starts (0.62 of
#    today's 0.88).  Both are patched, rebuilt with gcc and clang, compared.
#  - struct pk is packed: the C rules do not give back its offsets (v is at
#    1, the rules give 8), so no proposals, and the output says why.
#  - struct nd mixes bitfields and ordinary members in one storage unit, as
#    net_device does (reg_state:8, bool dismantle, rtnl_link_state:16 at 8):
#    that block (8..11) stays in one piece.  With `apart a lock` (a 0..7,
#    lock 16..19: apart only from starts 48 and 56, so 6/8 today):
#    "align lock" puts lock at 64 and b at 72, sizeof 128 (+96); moving lock
#    to the end (b moves up to 16, lock to 24) keeps sizeof 32 and leaves
#    the pair on one line from 5 of the 8 starts.
#  - struct al: hot carries aligned(16), which every proposal keeps.  With
#    `apart lock hot` (lock 0..3, hot 16..23, 16-aligned: apart only from
#    start 48, so 3/4 today): "align hot" adds aligned(64) beside the existing
#    attribute (hot 64, c 72, sizeof 128: +96); per-line padding puts c first,
#    lock at 64 and hot at 128 (still 16-aligned): sizeof 144, +112.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/suggest/oracle.sh"

mkdir -p "$T/src"
cp "$TESTS_SRC/suggest/bits.c" "$T/src/" || fail "cannot copy the fixture"
printf 'struct bf {\n\tapart a lock\n}\nstruct pk {\n\tapart v lock\n}\nstruct nd {\n\tapart a lock\n}\nstruct al {\n\tapart lock hot\n}\n' >"$T/bits.rules"
cat >"$T/expected" <<'EOF2'
#1 align lock
   cost: +104 bytes (sizeof 24 -> 128), cachelines 1 -> 2,
   remaining contention: 0 of 0.88 today (0%)
#2 move lock to the end
   cost: +8 bytes (sizeof 24 -> 32), cachelines 1 -> 1,
   remaining contention: 0.62 of 0.88 today (71%)
EOF2
cat >"$T/expected-nd" <<'EOF2'
#1 align lock
   cost: +96 bytes (sizeof 32 -> 128), cachelines 1 -> 2,
   remaining contention: 0 of 0.75 today (0%)
#2 move lock to the end
   cost: +0 bytes (sizeof 32 -> 32), cachelines 1 -> 1,
   remaining contention: 0.62 of 0.75 today (83%)
EOF2
cat >"$T/expected-al" <<'EOF2'
#1 align hot
   cost: +96 bytes (sizeof 32 -> 128), cachelines 1 -> 2,
   remaining contention: 0 of 0.75 today (0%)
#2 one line per written member (explicit padding)
   cost: +112 bytes (sizeof 32 -> 144), cachelines 1 -> 3,
   remaining contention: 0 of 0.75 today (0%)
EOF2
for ccf in "gcc -g -O2" "clang -g -O2"; do
	cc=${ccf%% *}
	command -v "$cc" >/dev/null || skip "$cc not installed (Debian package $cc)"
	(cd "$T/src" && $ccf -o "$T/bits-$cc" bits.c) || fail "cannot build bits.c"
	assert_exit 0 "suggest bf ($cc)" "$HITMAP" suggest --rules "$T/bits.rules" -C bf "$T/bits-$cc"
	summary "$T/out" >"$T/summary"
	assert_files_eq "$T/expected" "$T/summary" "struct bf ($cc)"
	for k in 1 2; do
		oracle $k bf "$T/src" bits.c "$T/bits-$cc" "$ccf" --rules "$T/bits.rules" -C bf
	done
	assert_exit 0 "suggest pk ($cc)" "$HITMAP" suggest --rules "$T/bits.rules" -C pk "$T/bits-$cc"
	assert_eq "its layout does not follow the plain C rules (v is at 1, the rules give 8;" \
		"$(tail -2 "$T/out" | head -1)" "struct pk ($cc)"
	assert_exit 0 "suggest nd ($cc)" "$HITMAP" suggest --rules "$T/bits.rules" -C nd "$T/bits-$cc"
	summary "$T/out" >"$T/summary"
	assert_files_eq "$T/expected-nd" "$T/summary" "struct nd ($cc)"
	for k in 1 2; do
		oracle $k nd "$T/src" bits.c "$T/bits-$cc" "$ccf" --rules "$T/bits.rules" -C nd
	done
	assert_exit 0 "suggest al ($cc)" "$HITMAP" suggest --rules "$T/bits.rules" -C al "$T/bits-$cc"
	summary "$T/out" >"$T/summary"
	assert_files_eq "$T/expected-al" "$T/summary" "struct al ($cc)"
	for k in 1 2; do
		oracle $k al "$T/src" bits.c "$T/bits-$cc" "$ccf" --rules "$T/bits.rules" -C al
	done
	grep -q '^+	long hot __attribute__((aligned(16))) __attribute__((aligned(64)));$' \
		"$T/oracle-1.diff" || fail "existing alignment kept ($cc)"
done
