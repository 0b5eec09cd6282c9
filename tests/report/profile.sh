#!/bin/sh
# Profiles: report --save-profile on HITM data with known counts (the same
# generated file as hitm.sh), its contending pairs and truly shared fields,
# a save → load → save round trip that must be byte-identical, and loader
# errors (FILE:LINE:COL, exit 3).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
RT="$top_builddir/tests/report/profile-rt"
[ -x "$GEN" ] && [ -x "$RT" ] || fail "gen-c2c / profile-rt not built"

build_seed gcc "$T/seed"
st=$(($PIE_BASE + $(sym_addr "$T/seed" g_stats)))
lk=$(($PIE_BASE + $(sym_addr "$T/seed" blocked_lock_lock)))
# Counts as in hitm.sh: hits 5 lcl-HITM + 3 stores on CPU 0; misses 4 rmt-HITM
# + 2 stores on CPU 1; limit 6 loads on CPU 1; the lock 5 HITM + 5 stores
# from CPUs 0 and 1.
gen -o "$T/c2c.data" --pid 4242 --ip $(hex $(($PIE_BASE + 0x1200))) \
	--mmap $(hex $PIE_BASE),0x10000,0,"$T/seed" \
	lcl-hitm:$(hex $st):5:0:101 st-l1hit:$(hex $st):3:0:101 \
	rmt-hitm:$(hex $((st + 8))):4:1:102 st-l1miss:$(hex $((st + 8))):2:1:102 \
	l1hit:$(hex $((st + 16))):6:1:102 \
	lcl-hitm:$(hex $lk):3:0:101 lcl-hitm:$(hex $lk):2:1:102 \
	st-l1hit:$(hex $lk):4:0:101 st-l1hit:$(hex $lk):1:1:102 || fail "gen-c2c"
"$HITMAP" report -i "$T/c2c.data" --save-profile "$T/p.json" >/dev/null ||
	fail "report --save-profile"
P="$T/p.json"
py() { python3 -c "import json,sys
d = json.load(open(sys.argv[1]))
S = {s['name']: s for s in d['structs']}
F = lambda s, p: [f for f in S[s]['fields'] if f['path'] == p][0]
print($1)" "$P"; }
assert_eq "hitmap-profile/1" "$(py "d['schema']")" "schema"
assert_eq "hitm 30 30 64" "$(py "d['source']['kind'], d['source']['samples'], d['source']['attributed'], d['cacheline_size']" | tr -d "(),'")" "source"
assert_eq "struct 24 ['g_stats']" "$(py "S['stats']['kind'], S['stats']['size'], S['stats']['objects']" | sed "s/^('//; s/', / /; s/, \[/ [/; s/)$//")" "struct stats"
assert_eq "0 8 5 3 [0] [101]" "$(py "F('stats','hits')['offset'], F('stats','hits')['size'], F('stats','hits')['lcl_hitm'], F('stats','hits')['stores'], F('stats','hits')['cpus'], F('stats','hits')['threads']" | tr -d '(),')" "stats.hits"
assert_eq "8 4 2 [1]" "$(py "F('stats','misses')['offset'], F('stats','misses')['rmt_hitm'], F('stats','misses')['st_l1miss'], F('stats','misses')['cpus']" | tr -d '(),')" "stats.misses"
# Contending pairs on the falsely shared line: fields of different groups
# (CPU 0: hits; CPU 1: misses, limit), one of them written: (hits, misses),
# (hits, limit); misses and limit, accessed by the same CPU, are no pair.
# samples = the samples of both fields: 8+6, 8+6.
assert_eq "hits:misses:14:9 hits:limit:14:5" \
	"$(py "' '.join('%s:%s:%d:%d' % (q['a'], q['b'], q['samples'], q['hitm']) for q in S['stats']['pairs'])")" \
	"contending pairs"
# blocked_lock_lock's type is an anonymous struct (spinlock_t): filed as the
# variable, its one field truly shared.
assert_eq "variable locked 10 5 [0, 1]" \
	"$(py "S['blocked_lock_lock']['kind'], S['blocked_lock_lock']['true_shared'][0]['field'], S['blocked_lock_lock']['true_shared'][0]['samples'], S['blocked_lock_lock']['true_shared'][0]['hitm'], S['blocked_lock_lock']['true_shared'][0]['cpus']" | sed "s/^('//; s/', '/ /; s/', / /; s/, \[/ [/; s/)$//; s/, \([0-9]\)/ \1/g; s/\[0 1\]/[0, 1]/")" \
	"true sharing"

# Round trip: what is loaded is saved unchanged.
"$RT" "$P" "$T/p2.json" || fail "profile-rt load"
assert_files_eq "$P" "$T/p2.json" "profile round trip"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$T/p2.json" || fail "not JSON"

# hm_profile_from_perf() gives the same profile as report --save-profile.
"$RT" --from-perf "$T/c2c.data" "$T/p3.json" || fail "hm_profile_from_perf"
assert_files_eq "$P" "$T/p3.json" "hm_profile_from_perf vs --save-profile"

# The heat table printed beside a layout: the labels of the three fields
# (hits: 5 HITM, 3 stores; misses: 4 HITM, 2 stores; limit: 6 loads only).
"$RT" --print "$T/seed" stats "$P" >"$T/heat.txt" || fail "hm_heat_print_struct"
printf '%s\n' "/* hitmap heat: stats */" \
	"      0  hits                                     hitm 5 st 3 cpus 1" \
	"      8  misses                                   hitm 4 st 2 cpus 1" \
	"     16  limit                                    hitm 0 st 0 cpus 1" >"$T/heat.want"
assert_files_eq "$T/heat.want" "$T/heat.txt" "heat table of struct stats"

# A hand-written profile: unknown keys are ignored (later versions of schema
# 1 may add some), \u escapes and surrogate pairs are decoded to UTF-8.
printf '%s' '{"schema":"hitmap-profile/1","future":[1,2.5e3,{"x":null}],"structs":[
{"name":"caf\u00e9 \ud83d\ude00","kind":"variable","size":8,"fields":[
{"path":"","offset":0,"size":8,"samples":3,"cpus":[0,7],"threads":[]}]}]}' >"$T/hand.json"
"$RT" "$T/hand.json" "$T/hand2.json" || fail "hand-written profile"
assert_eq "café 😀 variable 3 [0, 7]" "$(python3 -c "import json,sys
s = json.load(open(sys.argv[1]))['structs'][0]
print(s['name'], s['kind'], s['fields'][0]['samples'], s['fields'][0]['cpus'])" "$T/hand2.json")" \
	"hand-written profile contents"

# Loader errors: one line FILE:LINE:COL: what, exit 3.
err_case() {
	printf '%s' "$2" >"$T/bad.json"
	assert_exit 3 "bad profile ($1)" "$RT" "$T/bad.json" "$T/out.json"
	assert_eq "error: $T/bad.json:$1" "$(cat "$T/err")" "message for $1"
}
err_case "1:1: unexpected end of input" ""
err_case "2:17: trailing comma" '{"schema": 1,
  "structs": [],}'
err_case "1:11: expected ':' after member name" '{"schema" 1}'
err_case "1:2: missing \"schema\": \"hitmap-profile/1\"" ' {}'
err_case "1:11: unsupported schema \"x/2\" (want hitmap-profile/1)" '{"schema":"x/2"}'
err_case "3:24: \"offset\" must be a non-negative integer" '{"schema":"hitmap-profile/1","structs":[
 {"name":"s","fields":[
  {"path":"a","offset":-1}]}]}'
err_case "1:40: \"structs\" must be an array" '{"schema":"hitmap-profile/1","structs":{}}'
err_case "1:3: invalid escape in string" '["\q"]'
err_case "1:2: leading zero in number" '[01]'
err_case "1:31: trailing characters after the document" '{"schema":"hitmap-profile/1"} x'
deep=$(python3 -c "print('[' * 100 + ']' * 100)")
err_case "1:66: nesting too deep" "$deep"
# A missing file is exit 3 too.
assert_exit 3 "missing profile" "$RT" "$T/nope.json" "$T/out.json"
exit 0
