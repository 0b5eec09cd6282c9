#!/bin/sh
# bench/report.sh [VMLINUX]: `hitmap report` beside `perf c2c report --stdio`
# on the same generated files (tests/perf/gen-c2c: 1 M and 5 M c2c-like
# samples spread over 64 cachelines of a fixture's globals, with the
# fixture's MMAP2 record so every sample goes through attribution).  One line
# per measurement:
#   target measured anchor ratio goal PASS|MISS
#   report-1M-wall, report-5M-wall   ratio = hitmap / perf, goal <= 0.1 (10x)
#   report-1M-cpu, report-5M-cpu     the same for user + sys CPU time
#   report-5M-rate                   samples per second, goal >= 3 M/s
#   report-1M-rss, report-5M-rss     ratio = hitmap / perf (no goal: info)
#   report-rss-flat                  hitmap's 5 M RSS / its 1 M RSS, goal <= 1.1
# VMLINUX is accepted (bench/run-all.sh passes it) and unused.
# HITMAP overrides ./hitmap, GEN ./tests/perf/gen-c2c, CC gcc.
set -u
HITMAP=${HITMAP:-./hitmap}
here=$(cd "$(dirname "$0")" && pwd)
GEN=${GEN:-$(dirname "$HITMAP")/tests/perf/gen-c2c}
CC=${CC:-gcc}
command -v perf >/dev/null 2>&1 || { echo "perf not installed (linux-perf)" >&2; exit 77; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not installed (time)" >&2; exit 77; }
[ -x "$GEN" ] || { echo "$GEN not built (make check builds it)" >&2; exit 1; }
out=$(mktemp -d "${TMPDIR:-/tmp}/hitmap-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT

$CC -g -O1 -pthread -fPIE -pie -o "$out/seed" "$here/../tests/report/seed.c" || exit 1
base=0x555555554000
data=$(nm "$out/seed" | awk '$3 == "g_big" { print $1 }')
lines_at=$(printf '0x%x' $((base + 0x$data)))

measure() {	# measure NAME CMD...: "wall-seconds kilobytes cpu-seconds"
	name=$1; shift
	/usr/bin/time -f '%e %M %U %S' -o "$out/$name.time" "$@" >"$out/$name.out" 2>"$out/$name.err" ||
		{ echo "$name: command failed: $*" >&2; cat "$out/$name.err" >&2; exit 1; }
	awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$out/$name.time"
}

line() {	# line TARGET UNIT MEASURED ANCHOR GOAL-OP GOAL
	awk -v t="$1" -v u="$2" -v h="$3" -v p="$4" -v op="$5" -v g="$6" 'BEGIN {
		r = p > 0 ? h / p : 0
		ok = op == "<=" ? r <= g : op == ">=" ? r >= g : 1
		goal = op == "-" ? "-" : op g
		printf "%s %s%s %s%s %.3f %s %s\n", t, h, u, p, u, r, goal, (op == "-" ? "INFO" : ok ? "PASS" : "MISS")
	}'
}

for n in 1 5; do
	"$GEN" -o "$out/$n.data" -n ${n}000000 --random 64@$lines_at \
		--mmap $base,0x10000,0,"$out/seed" >/dev/null || exit 1
	set -- $(measure hm$n "$HITMAP" report -i "$out/$n.data"); eval hm_t$n=$1 hm_m$n=$2 hm_c$n=$3
	set -- $(measure pf$n perf c2c report -i "$out/$n.data" --stdio); eval pf_t$n=$1 pf_m$n=$2 pf_c$n=$3
	rm -f "$out/$n.data"
done
line report-1M-wall s "$hm_t1" "$pf_t1" "<=" 0.1
line report-5M-wall s "$hm_t5" "$pf_t5" "<=" 0.1
# CPU time (user + sys): steadier than wall time on a shared machine.
line report-1M-cpu s "$hm_c1" "$pf_c1" "<=" 0.1
line report-5M-cpu s "$hm_c5" "$pf_c5" "<=" 0.1
rate=$(awk -v t="$hm_t5" 'BEGIN { printf "%.0f", (t > 0 ? 5000000 / t : 0) }')
prate=$(awk -v t="$pf_t5" 'BEGIN { printf "%.0f", (t > 0 ? 5000000 / t : 0) }')
awk -v h="$rate" -v p="$prate" 'BEGIN {
	r = p > 0 ? h / p : 0
	printf "report-5M-rate %s/s %s/s %.3f >=3000000/s %s\n", h, p, r,
		(h >= 3000000 ? "PASS" : "MISS") }'
line report-1M-rss KB "$hm_m1" "$pf_m1" - -
line report-5M-rss KB "$hm_m5" "$pf_m5" - -
line report-rss-flat KB "$hm_m5" "$hm_m1" "<=" 1.1
