#!/bin/sh
# HITM data: c2c-like load/store samples (written by tests/perf/gen-c2c) on
# the globals of the seed program, with the MMAP2 record of the PIE binary
# so the load bias must be applied.  Per-field counts are the ones written
# (listed below); per-line counts must equal perf c2c report's.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
[ -x "$GEN" ] || fail "tests/perf/gen-c2c is not built"

for cc in gcc clang; do
	require $cc $cc
	build_seed $cc "$T/seed-$cc"
	bin="$T/seed-$cc"
	base=$PIE_BASE
	st=$(($base + $(sym_addr "$bin" g_stats)))
	lk=$(($base + $(sym_addr "$bin" blocked_lock_lock)))
	ip=$(($base + $(sym_addr "$bin" main)))
	# struct stats { long hits, misses, limit; }: hits +0, misses +8, limit +16.
	# hits:   5 local HITM loads + 3 L1-hit stores, CPU 0, thread 101
	# misses: 4 remote HITM loads + 2 L1-miss stores, CPU 1, thread 102
	# limit:  6 L1-hit loads, CPU 1 (read only)
	# blocked_lock_lock.locked: 3+2 local HITM loads and 4+1 L1-hit stores
	#         from CPUs 0 and 1
	gen -o "$T/c2c.data" --pid 4242 --ip $(hex $ip) \
		--mmap $(hex $base),0x10000,0,"$bin" \
		lcl-hitm:$(hex $st):5:0:101 st-l1hit:$(hex $st):3:0:101 \
		rmt-hitm:$(hex $((st + 8))):4:1:102 st-l1miss:$(hex $((st + 8))):2:1:102 \
		l1hit:$(hex $((st + 16))):6:1:102 \
		lcl-hitm:$(hex $lk):3:0:101 lcl-hitm:$(hex $lk):2:1:102 \
		st-l1hit:$(hex $lk):4:0:101 st-l1hit:$(hex $lk):1:1:102 ||
		fail "gen-c2c failed"

	"$HITMAP" report -i "$T/c2c.data" --json >"$T/r.json" 2>"$T/r.err" ||
		{ cat "$T/r.err" >&2; fail "$cc: report failed"; }
	J="$T/r.json"
	assert_eq "30 30" "$(jq_py $J "d['samples'], d['buckets']['global']" | tr -d '(),')" \
		"$cc: samples, attributed to globals"
	assert_eq "5 0 5 3 0 [0] 1" "$(jq_py $J "' '.join(str(x) for x in [field('g_stats.hits')['counts'][k] for k in ('lcl_hitm','rmt_hitm','loads','stores','st_l1miss')] + [field('g_stats.hits')['cpus'], field('g_stats.hits')['threads']])" | sed 's/\[0\]/[0]/')" \
		"$cc: g_stats.hits lcl_hitm rmt_hitm loads stores st_l1miss cpus threads"
	assert_eq "0 4 4 2 2 0" "$(jq_py $J "' '.join(str(field('g_stats.misses')['counts'][k]) for k in ('lcl_hitm','rmt_hitm','loads','stores','st_l1miss','st_l1hit'))")" \
		"$cc: g_stats.misses counts"
	assert_eq "6 0 [1]" "$(jq_py $J "field('g_stats.limit')['counts']['loads'], field('g_stats.limit')['counts']['stores'], field('g_stats.limit')['cpus']" | tr -d '(),')" \
		"$cc: g_stats.limit counts"
	assert_eq "5 5 [0, 1]" "$(jq_py $J "field('blocked_lock_lock.locked')['counts']['lcl_hitm'], field('blocked_lock_lock.locked')['counts']['stores'], field('blocked_lock_lock.locked')['cpus']" | sed 's/^(//; s/)$//; s/, \[/ [/; s/^\([0-9]*\), /\1 /')" \
		"$cc: blocked_lock_lock.locked counts"
	assert_eq "false sharing" "$(jq_py $J "line('g_stats')[0]['verdict']")" "$cc: g_stats verdict"
	assert_eq "true sharing" "$(jq_py $J "line('blocked_lock_lock')[0]['verdict']")" \
		"$cc: blocked_lock_lock verdict"

	# The text report names both fields of the falsely shared line.
	"$HITMAP" report -i "$T/c2c.data" >"$T/r.txt" || fail "$cc: text report failed"
	grep -q "^Line 1: $(hex $(( st & ~63 ))): false sharing" "$T/r.txt" ||
		{ cat "$T/r.txt" >&2; fail "$cc: line 1 is not the false sharing of g_stats"; }
	# 9 HITM in 20 loads and stores; hits on CPU 0, misses and limit on
	# CPU 1: two groups, all three fields in the false sharing part.
	tr '\n' ' ' <"$T/r.txt" | tr -s ' ' |
		grep -q "evidence: 9 HITM transfers in 20 accesses (45 %, 95 % bounds 25.8-65.8 %); 2 CPUs in 2 groups; false sharing (9 HITM transfers): g_stats.hits, g_stats.misses, g_stats.limit rule:" ||
		fail "$cc: evidence does not name the fields of the false sharing"
	awk 'length > 80 { exit 1 }' "$T/r.txt" || fail "$cc: text report wider than 80 columns"
	"$HITMAP" report -i "$T/c2c.data" -d rmt --top 1 >"$T/r1.txt" || fail "-d rmt failed"
	assert_eq 1 "$(grep -c '^Line ' "$T/r1.txt")" "--top 1"

	# Per cacheline, hitmap's counts equal perf c2c report's table.
	perf c2c report -i "$T/c2c.data" --stdio >"$T/c2c.txt" 2>"$T/c2c.err" ||
		{ cat "$T/c2c.err" >&2; fail "perf c2c report rejected the file"; }
	awk '/Shared Data Cache Line Table/ { t = 1; next }
	     /Shared Cache Line Distribution Pareto/ { t = 0 }
	     t && $1 ~ /^[0-9]+$/ && $2 ~ /^0x/ { print $2, $7, $8, $10, $11, $12, $13 }' \
		"$T/c2c.txt" | sort >"$T/perf-lines"
	jq_py $J "'\n'.join('%s %d %d %d %d %d %d' % (hex(l['address']), l['c2c']['lcl_hitm'], l['c2c']['rmt_hitm'], l['c2c']['load'], l['c2c']['store'], l['c2c']['st_l1hit'], l['c2c']['st_l1miss']) for l in d['lines'] if l['c2c']['tot_hitm'])" |
		sort >"$T/our-lines"
	[ -s "$T/perf-lines" ] || fail "no lines parsed from perf c2c report"
	assert_files_eq "$T/perf-lines" "$T/our-lines" "$cc: per-line lcl_hitm rmt_hitm loads stores st_l1hit st_l1miss vs perf c2c"
done
exit 0
