#!/bin/sh
# Evidence other than a profile, nothing-to-do cases, refused patches and the
# command's exit statuses, on the mm_struct fixtures (offsets in
# tests/fixtures/mm_common.h).
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/suggest/oracle.sh"

mkdir -p "$T/src/tests/fixtures"
cp "$TESTS_SRC/fixtures/mm_common.h" "$TESTS_SRC/fixtures/mm_v1.c" \
	"$TESTS_SRC/fixtures/mm_v2.c" "$T/src/tests/fixtures/" || fail "cannot copy the fixtures"
for v in mm_v1 mm_v2; do
	echo "+ (cd $T/src && gcc -g -O2 -o $T/$v tests/fixtures/$v.c)" >&2
	(cd "$T/src" && gcc -g -O2 -o "$T/$v" "tests/fixtures/$v.c") || fail "cannot build $v"
done
printf 'struct mm_struct {\n\tapart mmap_lock page_table_lock\n}\n' >"$T/mm.rules"

# Rules, object start unknown (mm_struct is 8-aligned): of the 8 starts, only
# start 8 puts a line boundary between page_table_lock (52..55) and mmap_lock
# (56..95), so today 7/8 = 0.875 of the rule's weight 1 is on a shared line.
# Moving mmap_lock to the top (0..39, page_table_lock then at 92..95) shares a
# line only from start 32 (32..71 and 124..127 both touch line 1): 1/8 left.
assert_exit 0 "rules" "$HITMAP" suggest --rules "$T/mm.rules" "$T/mm_v2"
grep -q '^evidence: rules .*mm.rules (no measurement: each pair weighs 1)$' "$T/out" ||
	fail "rules evidence line"
grep -q '^  contention on shared lines: 0.88 of 1$' "$T/out" || fail "today with unknown start"
grep -A4 '^#[0-9]* move mmap_lock to the top$' "$T/out" |
	grep -q '^   remaining contention: 0.12 of 0.88 today (14%)$' ||
	fail "move to the top with unknown start"

# Lint as evidence: said to be the weakest kind.
assert_exit 0 "lint" "$HITMAP" suggest --lint -C mm_struct --assume-aligned "$T/mm_v2"
grep -q '^  (the weakest kind: a guess from member types, no measurement;$' "$T/out" ||
	fail "lint evidence not labelled as the weakest"
grep -q '^  shares a line: page_table_lock / mmap_lock (weight 1)$' "$T/out" ||
	fail "lint pair page_table_lock/mmap_lock"

# Nothing to do: v1 keeps the locks on lines 0 and 1 (56..59, 64..103).
assert_exit 0 "v1" "$HITMAP" suggest --rules "$T/mm.rules" --assume-aligned "$T/mm_v1"
assert_eq "no contending pair shares a line today: nothing to do" "$(tail -1 "$T/out")" "v1"
# ... and a profile with no contention in it.
cat >"$T/empty.profile" <<'JSON'
{"schema": "hitmap-profile/1", "source": {"input": "x", "kind": "hitm", "samples": 0,
 "attributed": 0}, "cacheline_size": 64,
 "structs": [{"name": "mm_struct", "kind": "struct", "size": 288, "fields": [],
   "pairs": [], "true_shared": []}]}
JSON
assert_exit 0 "empty profile" "$HITMAP" suggest --profile "$T/empty.profile" "$T/mm_v2"
assert_eq "no evidence of contention: nothing to do" "$(tail -1 "$T/out")" "empty profile"
assert_exit 0 "empty profile json" "$HITMAP" suggest --profile "$T/empty.profile" --json "$T/mm_v2"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["structs"][0]; assert s["proposals"] == [] and s["nothing_to_do"].endswith("nothing to do"), s' "$T/out" ||
	fail "empty profile JSON"

# A member declared with others on one line is not patched: warning, layout.
printf 'struct mm_struct {\n\tapart start_code end_code\n}\n' >"$T/se.rules"
assert_exit 0 "refused patch" "$HITMAP" suggest --rules "$T/se.rules" --assume-aligned \
	--patch --source-root "$T/src" "$T/mm_v2"
grep -q 'mm_common.h:76: the declaration of mm_struct.start_code is not one plain declaration' "$T/err" ||
	fail "refusal reason"
grep -q "^warning: no patch for 'move start_code to the top': printing its layout only$" "$T/err" ||
	fail "refusal warning"
grep -q '^	long unsigned int          start_code;           /\*     0     8 \*/$' "$T/out" ||
	fail "layout printed instead of the patch"
# A source root without the file.
mkdir -p "$T/empty"
assert_exit 0 "no source" "$HITMAP" suggest --rules "$T/mm.rules" --patch --source-root "$T/empty" "$T/mm_v2"
grep -q 'mm_common.h: not found under ' "$T/err" || fail "missing source reason"

# Exit statuses.
assert_exit 2 "no evidence option" "$HITMAP" suggest "$T/mm_v2"
assert_exit 2 "unknown struct" "$HITMAP" suggest --rules "$T/mm.rules" -C mm_strukt "$T/mm_v2"
grep -q "no struct, union or class named 'mm_strukt' (did you mean 'mm_struct'" "$T/err" || fail "did you mean"
assert_exit 2 "bad style" "$HITMAP" suggest --rules "$T/mm.rules" --style k "$T/mm_v2"
assert_exit 2 "patch without root" "$HITMAP" suggest --rules "$T/mm.rules" --patch "$T/mm_v2"
assert_exit 3 "missing profile" "$HITMAP" suggest --profile "$T/nope.json" "$T/mm_v2"
printf '{"schema": "hitmap-profile/1", "structs": [' >"$T/bad.json"
assert_exit 3 "malformed profile" "$HITMAP" suggest --profile "$T/bad.json" "$T/mm_v2"
assert_exit 0 "help" "$HITMAP" suggest --help
for opt in --profile --input --rules --lint --style --max-growth --keep-size --patch \
	--source-root --json --proposal --layout-only --assume-aligned --cacheline-size \
	--binary --vmlinux --object; do
	grep -q -- "$opt\|--\[no-\]${opt#--}" "$T/out" || fail "--help does not document $opt"
done

# `alone mm_count` (mm_count 44..47 shares line 0 with every member from mmap
# to mmap_lock): with line-aligned objects, align mm_count (to 64) and keep
# map_count off its line either by aligning map_count too (to 128) or by 60
# bytes of padding after mm_count (64 + 4 + 60 = 128); both add 64 + 32 = 96
# bytes (the 8-byte hole at 56 closes into the new lines, the struct rounds up
# to 384).  Both patches are applied, rebuilt and compared.
printf 'struct mm_struct {\n\talone mm_count\n}\n' >"$T/alone.rules"
ev="--rules $T/alone.rules --assume-aligned"
assert_exit 0 "alone" "$HITMAP" suggest $ev "$T/mm_v2"
summary "$T/out" >"$T/summary"
cat >"$T/expected" <<'EOF2'
#1 align mm_count and the member after it (map_count)
   cost: +96 bytes (sizeof 288 -> 384), cachelines 5 -> 6,
   remaining contention: 0 of 1 today (0%)
#2 give mm_count a line of its own (padding after it)
   cost: +96 bytes (sizeof 288 -> 384), cachelines 5 -> 6,
   remaining contention: 0 of 1 today (0%)
EOF2
assert_files_eq "$T/expected" "$T/summary" "alone proposals"
for k in 1 2; do
	oracle $k mm_struct "$T/src" tests/fixtures/mm_v2.c "$T/mm_v2" "gcc -g -O2" $ev
done

# A profile's truly shared field wants no other *hot* field on its line:
# mm_count written from 4 CPUs, pgd (32..39) read by all of them, nothing else
# sampled.  Moving mm_count to the end (280.. after flags) leaves pgd's line
# without it at no cost beyond its 4 bytes plus a 4-byte hole: +8.
cat >"$T/ts.profile" <<'JSON'
{"schema": "hitmap-profile/1", "source": {"input": "x", "kind": "hitm", "samples": 90,
 "attributed": 90}, "cacheline_size": 64,
 "structs": [{"name": "mm_struct", "kind": "struct", "size": 288,
   "fields": [{"path": "mm_count", "offset": 44, "size": 4, "loads": 10, "stores": 60,
               "cpus": [0, 1, 2, 3]},
              {"path": "pgd", "offset": 32, "size": 8, "loads": 20, "stores": 0,
               "cpus": [0, 1, 2, 3]}],
   "pairs": [],
   "true_shared": [{"field": "mm_count", "samples": 60, "hitm": 40, "lines": 1,
                    "cpus": [0, 1, 2, 3]}]}]}
JSON
assert_exit 0 "true sharing" "$HITMAP" suggest --profile "$T/ts.profile" --assume-aligned "$T/mm_v2"
grep -A3 '^#1 ' "$T/out" | grep -q '^   remaining contention: 0 of 40 today (0%)$' ||
	fail "true sharing: best proposal leaves contention"
grep -q '^#[0-9] move mm_count to the end$' "$T/out" || fail "true sharing: move to the end"
