#!/bin/sh
# bench/report.sh [VMLINUX]: `hitmap report` beside `perf c2c report --stdio`
# on the same generated files (tests/perf/gen-c2c: 1 M and 5 M c2c-like
# samples spread over 64 cachelines of a fixture's globals, with the
# fixture's MMAP2 record so every sample goes through attribution, and a
# 10 M file for hitmap's memory alone).  Both tools read the same file in
# the same run, alternately, RUNS times each; the median of each is kept.
# One line per measurement:
#   target measured anchor ratio goal PASS|MISS
#   report-1M-wall, report-5M-wall   wall time, ratio = hitmap / perf,
#                                    goal <= 0.1 (10x faster)
#   report-1M-cpu, report-5M-cpu     the same for CPU time (user + sys, perf
#                                    stat's task-clock): steadier than wall
#                                    time on a shared machine
#   report-5M-rate                   samples per wall-clock second, goal
#                                    >= 3 M/s (anchor: perf's rate)
#   report-1M-rss, report-5M-rss     peak RSS, ratio = hitmap / perf (info)
#   report-rss-flat                  hitmap's peak RSS on 10 M samples / on
#                                    1 M, goal <= 1.1 (does not grow)
# VMLINUX is accepted (bench/run-all.sh passes it) and unused.
# HITMAP overrides ./hitmap, GEN ./tests/perf/gen-c2c, CC gcc, RUNS 3.
set -u
HITMAP=${HITMAP:-./hitmap}
here=$(cd "$(dirname "$0")" && pwd)
GEN=${GEN:-$(dirname "$HITMAP")/tests/perf/gen-c2c}
CC=${CC:-gcc}
RUNS=${RUNS:-3}
command -v perf >/dev/null 2>&1 || { echo "perf not installed (linux-perf)" >&2; exit 77; }
. "$here/lib.sh"

$CC -g -O1 -pthread -fPIE -pie -o "$out/seed" "$here/../tests/report/seed.c" || exit 1
base=0x555555554000
data=$(nm "$out/seed" | awk '$3 == "g_big" { print $1 }')
lines_at=$(printf '0x%x' $((base + 0x$data)))

gen() {	# gen MILLIONS: the c2c-like file $out/MILLIONS.data
	"$GEN" -o "$out/$1.data" -n ${1}000000 --random 64@$lines_at \
		--mmap $base,0x10000,0,"$out/seed" >/dev/null || exit 1
}

for n in 1 5; do
	gen $n
	i=0
	while [ $i -lt "$RUNS" ]; do
		measure hm$n $hm_cmd report -i "$out/$n.data"
		measure pf$n perf c2c report -i "$out/$n.data" --stdio
		i=$((i + 1))
	done
	rm -f "$out/$n.data"
done
gen 10
measure hm10 $hm_cmd report -i "$out/10.data"
rm -f "$out/10.data"

line report-1M-wall s "$(median hm1 1)" "$(median pf1 1)" "<=" 0.1
line report-5M-wall s "$(median hm5 1)" "$(median pf5 1)" "<=" 0.1
line report-1M-cpu s "$(median hm1 2)" "$(median pf1 2)" "<=" 0.1
line report-5M-cpu s "$(median hm5 2)" "$(median pf5 2)" "<=" 0.1
awk -v t="$(median hm5 1)" -v pt="$(median pf5 1)" 'BEGIN {
	h = t > 0 ? 5000000 / t : 0; p = pt > 0 ? 5000000 / pt : 0
	printf "report-5M-rate %.0f/s %.0f/s %.3f >=3000000/s %s\n", h, p, (p > 0 ? h / p : 0),
		(h >= 3000000 ? "PASS" : "MISS") }'
line report-1M-rss KB "$(median hm1 3)" "$(median pf1 3)" - -
line report-5M-rss KB "$(median hm5 3)" "$(median pf5 3)" - -
line report-rss-flat KB "$(median hm10 3)" "$(median hm1 3)" "<=" 1.1
