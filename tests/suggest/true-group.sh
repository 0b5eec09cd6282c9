#!/bin/sh
# True sharing of a group of fields, through the saved profile: two threads
# take a spinlock and write the two counters it guards (struct guarded of
# tests/suggest/true-group.c), recorded with cpu-clock and the
# sampled user registers (no memory PMU or watchpoint needed).  Oracles:
# the program's own printout (the object's address, each field's offset)
# and perf script (both threads' CPUs on the object).  report
# --save-profile must keep the lock and what it guards together as one
# truly shared group; suggest --profile must propose nothing (the lock and
# its data are meant to share a line: moving them apart removes no
# transfer) and say that the contention is true sharing.  A profile written
# before the groups (the key removed) still loads and gives each truly
# shared field alone, as it did; merging two profiles keeps the group.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require python3 python3
regs_probe "$RSRC/regs-share.c" one 50

bin="$T/true-group"
build_fixture "$TESTS_SRC/suggest/true-group.c" "$bin" gcc 5 -O2 -pthread
# a loaded machine may run the threads one after the other: record again
# (at most 3 times) until the report calls the object's line true sharing
for try in 1 2 3; do
	regs_rec "$T/t.data" "$bin" 300 >"$T/t.out" || fail "perf record: $(cat "$T/rec.err")"
	addr=$(awk '$1 == "object" { print $3 }' "$T/t.out")
	obj="guarded@$(hex $((addr)))"
	"$HITMAP" report -i "$T/t.data" --json --save-profile "$T/t.prof" >"$T/t.json" 2>"$T/t.err" ||
		[ $? = 1 ] || { cat "$T/t.err" >&2; fail "report"; }
	v=$(jq_py "$T/t.json" "' '.join(sorted(set(l['verdict'] for l in line('$obj'))))")
	[ "$v" = "true sharing" ] && break
	echo "recording $try: the line of $obj is '$v'; again" >&2
done
assert_eq "true sharing" "$v" "verdict of $obj's line"

# The fields the threads wrote, by the program's offsets: every field of
# the object the report names must be one the program printed.
fields=$(awk '$1 == "field" { print $2 }' "$T/t.out" | sort | tr '\n' ' ' | sed 's/ $//')
assert_eq "count data lock" "$fields" "the program's fields"
named=$(jq_py "$T/t.json" "' '.join(sorted(set(f['path'] for l in line('$obj') for f in l['fields'] if f['object'] == '$obj')))")
for f in $named; do
	case " $fields " in *" $f "*) ;; *) fail "report names $obj.$f, not a field the program wrote" ;; esac
done
# perf script: samples of both CPUs inside the object's bytes
cpus=$(perf script -i "$T/t.data" -F cpu 2>/dev/null | sort -u | wc -l)
[ "$cpus" -ge 2 ] || fail "perf script shows $cpus CPU(s)"

# The profile: one group, the fields the line truly shared, together.
python3 - "$T/t.prof" "$named" >"$T/groups" <<'EOF' || fail "profile groups"
import json, sys
p = json.load(open(sys.argv[1]))
s = [s for s in p["structs"] if s["name"] == "guarded"][0]
ts = sorted(f["field"] for f in s["true_shared"])
for g in s["true_shared_groups"]:
    print(" ".join(g["fields"]), g["lines"], g["samples"])
# the groups hold the truly shared fields, each once
assert sorted(f for g in s["true_shared_groups"] for f in g["fields"]) == ts, ts
EOF
ngroups=$(wc -l <"$T/groups")
assert_eq 1 "$ngroups" "true sharing groups of guarded ($(cat "$T/groups"))"
members=$(awk '{ print NF - 2 }' "$T/groups")
[ "$members" -ge 2 ] || fail "the group holds $members field(s): $(cat "$T/groups")"
echo "group: $(cat "$T/groups")" >&2

# suggest: nothing to separate, and why
"$HITMAP" suggest --profile "$T/t.prof" -C guarded --json "$bin" >"$T/s.json" ||
	[ $? = 1 ] || fail "suggest --profile"
why=$(python3 -c "import json,sys; s = json.load(open(sys.argv[1]))['structs'][0]
print(len(s['proposals']), s['nothing_to_do'] or '')" "$T/s.json")
case $why in
"0 the contention is true sharing of "*"(kept together): no layout removes it: nothing to do") ;;
*) fail "suggest on true sharing: $why" ;;
esac
for f in $(awk '{ $NF = ""; $(NF - 1) = ""; print }' "$T/groups"); do
	case $why in *" $f"*) ;; *) fail "the reason names no $f: $why" ;; esac
done

# A profile from before the groups: each truly shared field a group of one,
# each wanting a line of its own (the old behaviour).
python3 - "$T/t.prof" "$T/old.prof" <<'EOF' || fail "old profile"
import json, sys
p = json.load(open(sys.argv[1]))
for s in p["structs"]:
    del s["true_shared_groups"]
json.dump(p, open(sys.argv[2], "w"))
EOF
"$HITMAP" suggest --profile "$T/old.prof" -C guarded --json "$bin" >"$T/old.json" ||
	[ $? = 1 ] || fail "suggest --profile (old profile)"
n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['structs'][0]['proposals']))" \
	"$T/old.json")
[ "$n" -gt 0 ] || fail "an old profile's truly shared fields no longer make groups"

# merge: the group summed, not lost
assert_exit 0 "profile merge" "$HITMAP" profile merge -o "$T/m.prof" "$T/t.prof" "$T/t.prof"
python3 - "$T/t.prof" "$T/m.prof" <<'EOF' || fail "merged groups"
import json, sys
a, m = (json.load(open(f)) for f in sys.argv[1:])
ga = [g for s in a["structs"] if s["name"] == "guarded" for g in s["true_shared_groups"]]
gm = [g for s in m["structs"] if s["name"] == "guarded" for g in s["true_shared_groups"]]
assert [g["fields"] for g in ga] == [g["fields"] for g in gm], (ga, gm)
assert [2 * g["samples"] for g in ga] == [g["samples"] for g in gm], (ga, gm)
assert [2 * g["lines"] for g in ga] == [g["lines"] for g in gm], (ga, gm)
EOF
exit 0
