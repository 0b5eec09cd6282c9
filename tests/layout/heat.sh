#!/bin/sh
# hitmap layout --profile / --heat: per-member heat beside the layout.
#
#  1. A hand-written profile on tests/layout/fx-heat.c (gcc and clang): each
#     note line follows the line of its member (checked by the member line's
#     offset comment, which C's layout rules fix: see the fixture), with the
#     label hm_heat_field_label() makes of the profile's numbers, summed over
#     sub-fields for a member printed on one line; a profile field the struct
#     lacks is named in the summary.
#  2. HITM data from the report tests' generator (tests/perf/gen-c2c) on the
#     seed program: `hitmap report` is the oracle — the layout's label of
#     each field must carry the numbers the report printed for it.
#  3. A real recording: two threads writing g_stats.hits and g_stats.misses,
#     hardware watchpoints via perf record -e mem:ADDR:rw (as in
#     tests/report/watch.sh); the same oracle, for --profile (from
#     report --save-profile), --heat and --json.
# Everywhere: dropping the heat notes gives exactly the output without
# --profile, and that output has no heat in it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"

# notes FILE: each heat note that follows a member line, with that line's
# offset comment.
notes() {
	awk '/\/\* hitmap: heat [^:]*: / && prev ~ /\/\* *[0-9?][0-9: ]* \*\/$/ {
		c = prev; sub(/.*\/\*/, "/*", c); sub(/^[\t ]*/, "", $0); print c, $0 }
	{ prev = $0 }' "$1"
}

# unchanged WITH WITHOUT: the heat notes are the only difference.
unchanged() {
	grep -v '/\* hitmap: heat' "$1" >"$T/stripped"
	assert_files_eq "$2" "$T/stripped" "$1 without heat notes"
	grep -q 'hitmap: heat' "$2" && fail "$2: heat in a layout without --profile"
	return 0
}

# ---- 1. placement, hand-written profile ----
# Offsets: a 0 (8 bytes); the anonymous union at 8 holds u1 (8, 4) and
# s1 (8, 2), s2 (10, 2); in 12 (8, struct pair alignment 4) with in.y at 16;
# named 24 (16: char, 7-byte hole, long d at 32); f1:3 and f2:5 share the
# 4-byte unit at 40 (f2 from bit 3); big 41 (70); arr 112 (12, int aligned).
cat >"$T/pt.json" <<'EOP'
{"schema":"hitmap-profile/1",
 "source":{"input":"hand","kind":"hitm","samples":45,"attributed":45},
 "cacheline_size":64,
 "structs":[{"name":"heated","kind":"struct","size":128,"objects":["g_heated"],
  "fields":[
   {"path":"a","offset":0,"size":8,"samples":5,"loads":3,"stores":2,"lcl_hitm":1,"cpus":[0]},
   {"path":"u1","offset":8,"size":4,"samples":4,"loads":3,"stores":1,"rmt_hitm":3,"cpus":[1]},
   {"path":"s2","offset":10,"size":2,"samples":4,"loads":4,"lcl_hitm":2,"cpus":[0,1]},
   {"path":"in.y","offset":16,"size":4,"samples":10,"loads":5,"stores":5,"lcl_hitm":5,"cpus":[2]},
   {"path":"named.d","offset":32,"size":8,"samples":7,"stores":7,"cpus":[0,3]},
   {"path":"f2","offset":40,"size":4,"samples":1,"loads":1,"cpus":[3]},
   {"path":"arr[0]","offset":112,"size":4,"samples":1,"stores":1,"cpus":[0,1]},
   {"path":"arr[2]","offset":120,"size":4,"samples":4,"stores":4,"cpus":[1]},
   {"path":"removed","offset":124,"size":4,"samples":9,"loads":9,"cpus":[5]}]}]}
EOP
# Labels: "hitm LCL+RMT st STORES cpus MOST-CPUS-OF-A-FIELD"; a member on one
# line sums its fields (in = in.y; arr = arr[0] + arr[2]: 5 stores).
cat >"$T/want1" <<'EOW'
/*     0     8 */ /* hitmap: heat a: hitm 1 st 2 cpus 1 */
/*     8     4 */ /* hitmap: heat u1: hitm 3 st 1 cpus 1 */
/*    10     2 */ /* hitmap: heat s2: hitm 2 st 0 cpus 2 */
/*    12     8 */ /* hitmap: heat in: hitm 5 st 5 cpus 1 */
/*    32     8 */ /* hitmap: heat named.d: hitm 0 st 7 cpus 2 */
/*    24    16 */ /* hitmap: heat named: hitm 0 st 7 cpus 2 */
/*    40: 3  4 */ /* hitmap: heat f2: hitm 0 st 0 cpus 1 */
/*   112    12 */ /* hitmap: heat arr: hitm 0 st 5 cpus 2 */
EOW
# -E prints struct pair's members too: in.y on its own line, then "}in;".
sed 's|^/\*    12     8 \*/.*|/*    16     4 */ /* hitmap: heat in.y: hitm 5 st 5 cpus 1 */\n&|' \
	"$T/want1" >"$T/wantE"
# 5+4+4+10+7+1+1+4+9 samples in all; "removed" is not in struct heated.
printf '%s\n' "	/* hitmap: heat: 45 samples of heated in $T/pt.json (hitm data) */" \
	"	/* hitmap: heat removed: not in this layout (9 samples) */" \
	"};" >"$T/want-sum"
for cc in gcc clang; do
	command -v $cc >/dev/null || { [ $cc = clang ] && continue; fail "no gcc"; }
	dw=5; [ $cc = clang ] && dw=4
	build_fixture "$TESTS_SRC/layout/fx-heat.c" "$T/fx-$cc" $cc $dw -O0
	"$HITMAP" layout -C heated "$T/fx-$cc" >"$T/plain" || fail "$cc: layout"
	"$HITMAP" layout --profile "$T/pt.json" -C heated "$T/fx-$cc" >"$T/hot" ||
		fail "$cc: layout --profile"
	notes "$T/hot" >"$T/got1"
	assert_files_eq "$T/want1" "$T/got1" "$cc: heat notes"
	tail -3 "$T/hot" >"$T/got-sum"
	assert_files_eq "$T/want-sum" "$T/got-sum" "$cc: heat summary"
	unchanged "$T/hot" "$T/plain"
	"$HITMAP" layout -E -C heated "$T/fx-$cc" >"$T/plainE" || fail "$cc: layout -E"
	"$HITMAP" layout -E --profile "$T/pt.json" -C heated "$T/fx-$cc" >"$T/hotE" ||
		fail "$cc: layout -E --profile"
	notes "$T/hotE" >"$T/gotE"
	assert_files_eq "$T/wantE" "$T/gotE" "$cc: heat notes with -E"
	unchanged "$T/hotE" "$T/plainE"
	# JSON: heat per member, anonymous levels summing their members; the
	# struct's heat is every field's, "removed" listed as gone.
	"$HITMAP" layout --json --profile "$T/pt.json" -C heated "$T/fx-$cc" >"$T/hot.json" ||
		fail "$cc: layout --json --profile"
	assert_eq "a:5:1:[0] None:8:5:[0, 1] u1:4:3:[1] None:4:2:[0, 1] s1:0:0:[] s2:4:2:[0, 1] in:10:5:[2] named:7:0:[0, 3] c:0:0:[] d:7:0:[0, 3] f1:0:0:[] f2:1:0:[3] big:0:0:[] arr:5:0:[0, 1] | 45 ['removed'] True" \
		"$(python3 -c "import json,sys
d = json.load(open(sys.argv[1]))
s = d['structs'][0]
def walk(ms):
    for m in ms:
        h = m['heat']
        yield '%s:%d:%d:%s' % (m['name'], h['samples'], h['lcl_hitm'] + h['rmt_hitm'], h['cpus'])
        yield from walk(m.get('members', []))
print(' '.join(walk(s['members'])), '|', s['heat']['samples'], s['heat']['gone'], s['heat']['in_profile'])" "$T/hot.json")" \
		"$cc: JSON heat"
	"$HITMAP" layout --json -C heated "$T/fx-$cc" >"$T/plain.json" || fail "$cc: --json"
	grep -q '"heat"' "$T/plain.json" && fail "$cc: heat in JSON without --profile"
done

# Usage and input errors.
assert_exit 2 "--profile with --heat" "$HITMAP" layout --profile "$T/pt.json" --heat x "$T/fx-gcc"
assert_exit 2 "--binary without --heat" "$HITMAP" layout --binary "$T/fx-gcc" "$T/fx-gcc"
assert_exit 2 "--list with --profile" "$HITMAP" layout --list --profile "$T/pt.json" "$T/fx-gcc"
assert_exit 3 "missing profile" "$HITMAP" layout --profile "$T/nope.json" "$T/fx-gcc"
grep -q "nope.json: cannot open" "$T/err" || fail "missing profile message: $(cat "$T/err")"
printf '{"schema":"hitmap-profile/1",\n "structs": [}' >"$T/bad.json"
assert_exit 3 "malformed profile" "$HITMAP" layout --profile "$T/bad.json" "$T/fx-gcc"
grep -q "bad.json:2:" "$T/err" || fail "malformed profile message: $(cat "$T/err")"
printf 'PERFILE2 but not really' >"$T/bad.data"
assert_exit 3 "malformed perf.data" "$HITMAP" layout --heat "$T/bad.data" "$T/fx-gcc"

# ---- 2. HITM data, report as the oracle ----
# rows FILE: report's field rows "path off col3 col4 ..." for g_stats.
rows() { awk '$1 ~ /^g_stats\./ && $2 ~ /^\+/ { sub(/^g_stats\./, "", $1); print }' "$1"; }
# ncpus LIST: how many CPUs "0,2-3" names.
ncpus() { echo "$1" | tr ',' '\n' | awk -F- '{ n += NF == 2 ? $2 - $1 + 1 : 1 } END { print n }'; }

[ -x "$GEN" ] || fail "tests/perf/gen-c2c not built"
build_seed gcc "$T/seed"
st=$(($PIE_BASE + $(sym_addr "$T/seed" g_stats)))
# As in tests/report/profile.sh: hits 5 lcl-HITM + 3 stores on CPU 0, misses
# 4 rmt-HITM + 2 stores on CPU 1, limit 6 loads on CPU 1.
gen -o "$T/c2c.data" --pid 4242 --ip $(hex $(($PIE_BASE + 0x1200))) \
	--mmap $(hex $PIE_BASE),0x10000,0,"$T/seed" \
	lcl-hitm:$(hex $st):5:0:101 st-l1hit:$(hex $st):3:0:101 \
	rmt-hitm:$(hex $((st + 8))):4:1:102 st-l1miss:$(hex $((st + 8))):2:1:102 \
	l1hit:$(hex $((st + 16))):6:1:102 || fail "gen-c2c"
"$HITMAP" report -i "$T/c2c.data" --save-profile "$T/c2c.json" >"$T/c2c.txt" ||
	fail "report c2c.data"
# HITM rows: field off lclHIT rmtHIT loads stores cpus
rows "$T/c2c.txt" | while read -r f off l r ld s cpus; do
	echo "heat $f: hitm $((l + r)) st $s cpus $(ncpus "$cpus")"
done >"$T/want2"
[ "$(wc -l <"$T/want2")" = 3 ] || { cat "$T/c2c.txt" >&2; fail "report rows for g_stats"; }
"$HITMAP" layout -C stats "$T/seed" >"$T/plain-stats" || fail "layout stats"
"$HITMAP" layout --heat "$T/c2c.data" -C stats "$T/seed" >"$T/heat-c2c" ||
	fail "layout --heat c2c.data"
sed -n 's|^\t/\* hitmap: \(heat [a-z]*: .*\) \*/$|\1|p' "$T/heat-c2c" >"$T/got2"
assert_files_eq "$T/want2" "$T/got2" "layout --heat labels = report rows (HITM)"
unchanged "$T/heat-c2c" "$T/plain-stats"
"$HITMAP" layout --profile "$T/c2c.json" -C stats "$T/seed" >"$T/prof-c2c" ||
	fail "layout --profile c2c.json"
sed "s|$T/c2c.json|$T/c2c.data|" "$T/prof-c2c" >"$T/prof-c2c.renamed"
assert_files_eq "$T/heat-c2c" "$T/prof-c2c.renamed" "--profile and --heat agree"

# ---- 3. a real recording with hardware watchpoints (last: it skips where
# watchpoints do not fire) ----
require perf linux-perf
require_watchpoints
require setarch util-linux
A=$(hex $st)
B=$(hex $((st + 8)))
if ! untrapped setarch "$(uname -m)" -R perf record -q --sample-cpu -e mem:$A:rw -e mem:$B:rw \
	-o "$T/fs.data" -- "$T/seed" false 2000 >"$T/rec.out" 2>"$T/rec.err"; then
	grep -qi "not supported\|permission\|no such device\|Operation not" "$T/rec.err" &&
		skip "the kernel refuses hardware breakpoint events: $(head -1 "$T/rec.err")"
	cat "$T/rec.err" >&2
	fail "perf record failed"
fi
"$HITMAP" report -i "$T/fs.data" --save-profile "$T/fs.json" >"$T/fs.txt" ||
	fail "report fs.data"
"$HITMAP" report -i "$T/fs.data" --json >"$T/fs-report.json" || fail "report --json fs.data"
# watch rows: field off xfers reads writes samples cpus
rows "$T/fs.txt" | while read -r f off x r w n cpus; do
	echo "heat $f: xfer $x wr $w cpus $(ncpus "$cpus")"
done >"$T/want3"
[ "$(wc -l <"$T/want3")" = 2 ] || { cat "$T/fs.txt" >&2; fail "report rows for hits, misses"; }
"$HITMAP" layout --profile "$T/fs.json" -C stats "$T/seed" >"$T/fs-prof" ||
	fail "layout --profile fs.json"
sed -n 's|^\t/\* hitmap: \(heat [a-z]*: .*\) \*/$|\1|p' "$T/fs-prof" >"$T/got3"
assert_files_eq "$T/want3" "$T/got3" "layout --profile labels = report rows (watch)"
# hits and misses each 2000 loads and 2000 stores (seed.c), all written:
# the summary counts the report's samples of both.
n=$(rows "$T/fs.txt" | awk '{ s += $6 } END { print s }')
grep -qx "	/\* hitmap: heat: $n samples of stats in $T/fs.json (watch data) \*/" "$T/fs-prof" ||
	{ cat "$T/fs-prof" >&2; fail "summary: $n samples"; }
unchanged "$T/fs-prof" "$T/plain-stats"
"$HITMAP" layout --heat "$T/fs.data" -C stats "$T/seed" >"$T/fs-heat" ||
	fail "layout --heat fs.data"
sed "s|$T/fs.data|$T/fs.json|" "$T/fs-heat" >"$T/fs-heat.renamed"
assert_files_eq "$T/fs-prof" "$T/fs-heat.renamed" "--heat and --profile agree (watch)"
# Without -C the profile picks the structs: only stats has samples.
"$HITMAP" layout --profile "$T/fs.json" "$T/seed" >"$T/fs-all" || fail "layout --profile, no -C"
assert_files_eq "$T/fs-prof" "$T/fs-all" "no -C: the profile's structs"
# JSON against the report's JSON, field by field.
"$HITMAP" layout --json --heat "$T/fs.data" -C stats "$T/seed" >"$T/fs-layout.json" ||
	fail "layout --json --heat"
assert_eq "$(jq_py "$T/fs-report.json" "' '.join('%s:%d:%d:%d:%d' % (f['path'], f['counts']['samples'], f['counts']['reads'], f['counts']['writes'], f['counts']['transfers']) for l in d['lines'] for f in l['fields'] if f['object'] == 'g_stats')")" \
	"$(python3 -c "import json,sys
d = json.load(open(sys.argv[1]))
print(' '.join('%s:%d:%d:%d:%d' % (m['name'], m['heat']['samples'], m['heat']['reads'], m['heat']['writes'], m['heat']['transfers']) for m in d['structs'][0]['members'] if m['heat']['samples']))" "$T/fs-layout.json")" \
	"layout --json heat = report --json counts"
exit 0
