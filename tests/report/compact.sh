#!/bin/sh
# Lines of one CPU, one thread and one code location are kept as counts
# only until an access needs a row: another CPU, another thread, another
# code location, or a counter past 255.  Unattributed c2c-like samples
# (tests/perf/gen-c2c, no maps) on lines that are promoted each way and on
# lines that stay compact: per line, the counts equal perf c2c report's,
# and the CPUs, threads and code locations are the ones written; the same
# with the samples under software events, whose lines are kept narrower.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require python3 python3
[ -x "$GEN" ] || fail "tests/perf/gen-c2c is not built"

# A 0x10000000: 3 local HITMs on CPU 0 (thread 101), then 2 on CPU 1 (102)
# B 0x10000040: 300 L1-hit loads on CPU 0, then 2 remote HITMs there
# C 0x10000080: 2 local HITMs at IP 0x401000, then 3 at 0x402000
# D 0x100000c0: 4 local HITMs and 1 L1-hit store, CPU 0, thread 101
# E 0x10000100: 6 remote HITMs on CPU 2, thread 103
# F 0x10000140: 2 local HITMs from thread 101, then 1 from 104, CPU 0
SPECS="lcl-hitm:0x10000008:3:0:101 lcl-hitm:0x10000010:2:1:102
	l1hit:0x10000040:300:0:101 rmt-hitm:0x10000048:2:0:101
	lcl-hitm:0x10000080:2:0:101:0x401000 lcl-hitm:0x10000088:3:0:101:0x402000
	lcl-hitm:0x100000c0:4:0:101 st-l1hit:0x100000c8:1:0:101
	rmt-hitm:0x10000100:6:2:103
	lcl-hitm:0x10000140:2:0:101 lcl-hitm:0x10000140:1:0:104"
# shellcheck disable=SC2086
gen -o "$T/c.data" --pid 4242 --ip 0x401000 $SPECS || fail "gen-c2c failed"

"$HITMAP" report -i "$T/c.data" --json --top 100 >"$T/r.json" 2>"$T/r.err" ||
	{ cat "$T/r.err" >&2; fail "report failed"; }
J="$T/r.json"
assert_eq 6 "$(jq_py $J "len(d['lines'])")" "lines"

# c2c_lines JSON: per line with HITMs, its address and c2c counts
c2c_lines() {
	jq_py "$1" "'\n'.join('%s %d %d %d %d %d %d' % (hex(l['address']), l['c2c']['lcl_hitm'], l['c2c']['rmt_hitm'], l['c2c']['load'], l['c2c']['store'], l['c2c']['st_l1hit'], l['c2c']['st_l1miss']) for l in d['lines'] if l['c2c']['tot_hitm'])"
}
# line_actors JSON: per line, its CPUs, threads, samples and code locations
line_actors() {
	jq_py "$1" "'\n'.join('%s %s %d %s %s' % (hex(l['address']), l['cpus'], l['threads'], l['counts']['samples'], sorted((hex(x['ip']), x['samples']) for f in l['fields'] for x in f['locations'])) for l in sorted(d['lines'], key=lambda l: l['address']))"
}

# Per cacheline, hitmap's counts equal perf c2c report's table.
perf c2c report -i "$T/c.data" --stdio >"$T/c2c.txt" 2>"$T/c2c.err" ||
	{ cat "$T/c2c.err" >&2; fail "perf c2c report rejected the file"; }
awk '/Shared Data Cache Line Table/ { t = 1; next }
     /Shared Cache Line Distribution Pareto/ { t = 0 }
     t && $1 ~ /^[0-9]+$/ && $2 ~ /^0x/ { print $2, $7, $8, $10, $11, $12, $13 }' \
	"$T/c2c.txt" | sort >"$T/perf-lines"
c2c_lines "$J" | sort >"$T/our-lines"
[ "$(wc -l <"$T/perf-lines")" -eq 6 ] || { cat "$T/c2c.txt" >&2; fail "perf c2c report: not 6 lines"; }
assert_files_eq "$T/perf-lines" "$T/our-lines" "per-line lcl_hitm rmt_hitm loads stores st_l1hit st_l1miss vs perf c2c"

# CPUs, threads, and code locations with their samples, as written.
line_actors "$J" >"$T/got"
cat >"$T/want" <<'EOF'
0x10000000 [0, 1] 2 5 [('0x401000', 5)]
0x10000040 [0] 1 302 [('0x401000', 302)]
0x10000080 [0] 1 5 [('0x401000', 2), ('0x402000', 3)]
0x100000c0 [0] 1 5 [('0x401000', 5)]
0x10000100 [2] 1 6 [('0x401000', 6)]
0x10000140 [0] 2 3 [('0x401000', 3)]
EOF
assert_files_eq "$T/want" "$T/got" "cpus threads samples locations per line"

# The same samples under software events (page faults), which the kernel
# never gives a data source: such a recording's lines are kept in records
# without counters (half a cacheline), and a sample that carries a data
# source all the same makes its line a row.  The counts stay perf c2c's.
# shellcheck disable=SC2086
gen -o "$T/s.data" --software --pid 4242 --ip 0x401000 $SPECS || fail "gen-c2c --software failed"
"$HITMAP" report -i "$T/s.data" --json --top 100 >"$T/s.json" 2>"$T/s.err" ||
	{ cat "$T/s.err" >&2; fail "report of software events failed"; }
c2c_lines "$T/s.json" | sort >"$T/sw-lines"
assert_files_eq "$T/perf-lines" "$T/sw-lines" "software events: per-line counts vs perf c2c"
line_actors "$T/s.json" >"$T/sw-got"
assert_files_eq "$T/want" "$T/sw-got" "software events: cpus threads samples locations per line"

# The text report ranks them by total HITM: E (6), A and C (5 each, by
# samples then address), D (4), F (3), B (2).
"$HITMAP" report -i "$T/c.data" --top 100 >"$T/r.txt" || fail "text report failed"
assert_eq "0x10000100 0x10000000 0x10000080 0x100000c0 0x10000140 0x10000040" \
	"$(sed -n 's/^Line [0-9]*: \(0x[0-9a-f]*\):.*/\1/p' "$T/r.txt" | tr '\n' ' ' | sed 's/ $//')" \
	"text report's lines in rank order"
exit 0
