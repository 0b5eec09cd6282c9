#!/bin/sh
# hitmap lint on lint-units.c (its header derives every expected line): a
# lock type is a unit (struct rw_semaphore is not linted, its members are
# never candidates), a finding names every lock before the atomics, lines
# are numbered with the object on a line boundary (membarrier_state at 80
# is line 1), one finding per line, and `placement line-aligned` from
# --rules is honoured.  pahole is the layout oracle: the offsets the
# header states are checked first, and every member of a finding must
# touch the line it names.
. "$top_srcdir/tests/lib.sh"
require clang clang
require pahole dwarves
require python3 python3
S="$top_srcdir/tests/check"
for cc in gcc clang; do
	for dw in 4 5; do
		what="$cc -gdwarf-$dw"
		build_fixture "$S/lint-units.c" "$T/lu" $cc $dw -O0
		pahole -C M "$T/lu" | awk '/\/\*[ 0-9]+\*\/$/ {
			n = $0; sub(/;.*/, "", n); sub(/\).*/, "", n); sub(/.*[ *(]/, "", n)
			print n, $(NF - 2), $(NF - 1) }' >"$T/offsets" || fail "$what: pahole -C M"
		for want in "get_unmapped_area 24 8" "membarrier_state 80 4" "mm_users 84 4" \
			    "mm_count 88 4" "page_table_lock 108 4" "mmap_lock 112 40" \
			    "pinned_vm 200 8"; do
			grep -qx "$want" "$T/offsets" || fail "$what: pahole does not say $want"
		done
		assert_exit 0 "$what: lint" "$HITMAP" lint "$T/lu"
		assert_files_eq "$S/lint-units.expected" "$T/out" "$what: lint"
		assert_exit 0 "$what: lint --rules" "$HITMAP" lint --rules "$S/lint-units.rules" "$T/lu"
		assert_files_eq "$S/lint-units-aligned.expected" "$T/out" "$what: lint --rules (placement)"
		for r in "" "--rules $S/lint-units.rules"; do
			assert_exit 0 "$what: lint --json $r" "$HITMAP" lint --json $r "$T/lu"
			python3 - "$T/out" "$T/offsets" <<'PY' || fail "$what: lint --json $r: lines differ from pahole's"
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
off = {}
for l in open(sys.argv[2]):
    n, o, s = l.split()
    off[n] = (int(o), int(s))
keys = [(x["object"], x["cachelines"][0]) for x in f]
assert len(keys) == len(set(keys)), "two findings on one line"
for x in f:
    assert x["object"] == "M", "a lock's insides linted: %s" % x["object"]
    line = x["cachelines"][0]
    assert x["cachelines"] == [line, line], x
    placed = "by placement" in x["message"]
    for i, m in enumerate(x["members"]):
        assert "." not in m, "a member inside a lock: %s" % m
        o, s = off[m]
        touches = o // 64 <= line <= (o + s - 1) // 64
        if not placed or i == 0:
            assert touches, "%s (%d, %d) is not on line %d" % (m, o, s, line)
PY
		done
	done
done
exit 0
