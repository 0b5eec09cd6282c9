#!/bin/sh
# The report header's "instances:" line: the struct types with more than one
# object with samples, the most objects first (ties by name), twelve at the
# most, then how many more types there are; JSON counts every type.  A
# kernel recording reaches objects of some 1 700 types, and the header must
# not push the shared lines off the screen.  Truth by construction: fifteen
# struct types s0..s14 of a fixture, sK with 2 + K % 4 objects named by
# --object at heap addresses of their own (one sample each), and s15 with
# one object (not in the line).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require gcc gcc
[ -x "$GEN" ] || fail "tests/perf/gen-c2c is not built"
{
	i=0
	while [ $i -le 15 ]; do
		echo "struct s$i { long a, b; } g$i;"
		i=$((i + 1))
	done
	echo "int main(void) { return 0; }"
} >"$T/types.c"
build_fixture "$T/types.c" "$T/types" gcc 5 -O0

# One object per 4 KiB from 0x7f0000000000, a sample at each one's .b.
set -- --binary "$T/types"
specs= k=0 i=0
while [ $i -le 15 ]; do
	n=$((2 + i % 4))
	[ $i -eq 15 ] && n=1
	j=0
	while [ $j -lt $n ]; do
		a=$((0x7f0000000000 + k * 4096))
		set -- "$@" --object "struct s$i@$(hex $a)"
		specs="$specs l1hit:$(hex $((a + 8))):1:0"
		k=$((k + 1)) j=$((j + 1))
	done
	i=$((i + 1))
done
# shellcheck disable=SC2086
gen -o "$T/i.data" $specs || fail "gen-c2c"
"$HITMAP" report -i "$T/i.data" "$@" >"$T/out" 2>"$T/err" || { cat "$T/err" >&2; fail "report"; }
"$HITMAP" report -i "$T/i.data" "$@" --json >"$T/i.json" 2>"$T/err" ||
	{ cat "$T/err" >&2; fail "report --json"; }

# By construction: 5 objects for s3 s7 s11, 4 for s2 s6 s10 s14, 3 for s1 s5
# s9 s13, 2 for s0 s4 s8 s12; the first twelve, names in strcmp order.
assert_eq "instances: s11 5, s3 5, s7 5, s10 4, s14 4, s2 4, s6 4, s1 3, s13 3, s5 3,
  s9 3, s0 2, and 3 more types" \
	"$(sed -n '/^instances:/,/^[^ ]/p' "$T/out" | sed '/^$/d' | grep -v '^Shared')" \
	"the instances line"
assert_eq "$k samples" "$(jq_py "$T/i.json" "d['buckets']['object']") samples" \
	"every sample named by its object"
assert_eq "{'s0': 2, 's1': 3, 's10': 4, 's11': 5, 's12': 2, 's13': 3, 's14': 4, 's15': 1, 's2': 4, 's3': 5, 's4': 2, 's5': 3, 's6': 4, 's7': 5, 's8': 2, 's9': 3}" \
	"$(jq_py "$T/i.json" "dict(sorted(d['instances'].items()))")" \
	"JSON's instances: every type"
exit 0
