#!/bin/sh
# Salvage like perf (issue 30, items 5 and 6).  A perf.data cut at or after
# the end of its data section (every sample present, the feature section
# missing or cut) is read whole, with a warning naming the features lost;
# the oracle is perf script, which reads such files: hitmap counts the same
# samples.  A report of a cut input is partial: --json and --save-profile
# carry a "truncated" object (what was cut, the offset, the samples kept),
# the exit status is 3, and check and suggest refuse such a profile unless
# --allow-partial.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/robust/lib-robust.sh"
require perf linux-perf
require python3
cd "$T" || exit 1
build_fixture "$TESTS_SRC/record/spin.c" spin "$CC" 4 -O1 -pthread
perf record -q -e cpu-clock -F 2000 -o full.data -- ./spin 30000000 >rec.out 2>rec.err ||
	{ cat rec.err >&2; skip "perf record -e cpu-clock does not work here (perf_event_paranoid?)"; }
set -- $(python3 -c 'import struct, sys
h = open(sys.argv[1], "rb").read(56)
print(*struct.unpack("<QQ", h[40:56]))' full.data)
dend=$(($1 + $2))
size=$(wc -c <full.data)
total=$(perf script -i full.data -F ip 2>/dev/null | wc -l)
[ "$total" -ge 10 ] || skip "perf recorded only $total cpu-clock samples"
run_hm report -i full.data
assert_eq "$total address samples" "$(sed -n 2p out)" "the whole file"

for cut in "$dend" $((dend + 7)) $((dend + 40)) $(( (dend + size) / 2 )) $((size - 1)); do
	head -c "$cut" full.data >cut.data
	p=$(perf script -i cut.data -F ip 2>/dev/null | wc -l)
	assert_eq "$total" "$p" "perf script on the file cut at $cut (the oracle)"
	run_hm report -i cut.data --json
	[ "$rc" = 3 ] || { cat err >&2; fail "cut at $cut: exit $rc, want 3"; }
	grep -q "^warning: cut.data: truncated at offset 0x$(printf %x "$cut") in the feature section, after the whole data section: every sample is read; features lost: [A-Z_]" err ||
		{ cat err >&2; fail "cut at $cut: the warning"; }
	[ "$(grep -c . err)" = 1 ] || { cat err >&2; fail "cut at $cut: one line on stderr"; }
	python3 - out "$p" "$cut" <<'PY' || fail "cut at $cut: the JSON report"
import json, sys
r = json.load(open(sys.argv[1]))
t = r["truncated"]
assert r["samples"] == int(sys.argv[2]), r["samples"]
assert t["what"] == "feature section", t
assert t["offset"] == int(sys.argv[3]), t
assert t["samples_kept"] == int(sys.argv[2]), t
assert t["features_lost"], t
PY
	echo "cut at $cut: $p samples (perf script: $p)" >&2
done

# a profile of a cut file: marked, reloaded, refused by check and suggest
head -c "$dend" full.data >cut.data
run_hm report -i cut.data --save-profile cut.prof
[ "$rc" = 3 ] || fail "--save-profile of the cut file: exit $rc"
python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["truncated"]
assert t["what"] == "feature section" and t["offset"] == int(sys.argv[2]), t' cut.prof "$dend" ||
	fail "the profile has no truncated object"
msg="^error: cut.prof: made from a truncated recording \(feature section cut at offset $dend, $total samples kept\): give --allow-partial to use it$"
expect_err3 "$msg" check --profile cut.prof ./spin
expect_err3 "$msg" suggest --profile cut.prof ./spin
run_hm check --allow-partial --profile cut.prof ./spin
[ "$rc" = 0 ] || { cat err >&2; fail "check --allow-partial: exit $rc"; }
run_hm suggest --allow-partial --profile cut.prof ./spin
[ "$rc" = 0 ] || { cat err >&2; fail "suggest --allow-partial: exit $rc"; }
# a merge with a partial profile is partial
run_hm report -i full.data --save-profile full.prof
run_hm profile merge -o sum.prof full.prof cut.prof
[ "$rc" = 0 ] || { cat err >&2; fail "profile merge: exit $rc"; }
expect_err3 "^error: sum.prof: made from a truncated recording" check --profile sum.prof ./spin
# a whole recording's profile has no marker and is accepted
grep -q '"truncated"' full.prof && fail "the whole recording's profile says truncated"
run_hm check --profile full.prof ./spin
[ "$rc" = 0 ] || { cat err >&2; fail "check of a whole profile: exit $rc"; }

# a cut inside the data section: the marker says how many samples were kept
set -- $(python3 -c 'import struct, sys
h = open(sys.argv[1], "rb").read(56)
print(*struct.unpack("<QQ", h[40:56]))' full.data)
head -c $(($1 + $2 / 2)) full.data >half.data
run_hm report -i half.data --json
[ "$rc" = 3 ] || fail "cut in the data: exit $rc"
python3 - out <<'PY' || fail "cut in the data: the JSON report"
import json, sys
r = json.load(open(sys.argv[1]))
t = r["truncated"]
assert t["what"] == "data section", t
assert t["samples_kept"] == r["samples"] and r["samples"] > 0, t
assert "features_lost" not in t, t
PY
exit 0
