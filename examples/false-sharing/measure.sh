#!/bin/sh
# Measure the false-sharing examples on this machine: each program as it is,
# patched by hitmap's best proposal, and built with -DPADDED (the hand fix),
# RUNS runs each, interleaved; prints the median wall-clock and CPU times
# and the speedups.  Run from the build directory:
#     sh measure.sh [--rt] [RUNS]
# --rt runs the programs under SCHED_FIFO (chrt -f 10, needs root) so that
# other jobs cannot keep the two threads from running at the same time —
# without it, a busy machine hides false sharing.
set -e
here=$(cd "$(dirname "$0")" && pwd)
HITMAP=${HITMAP:-./hitmap}
CC=${CC:-gcc}
rt=
if [ "${1:-}" = --rt ]; then
	rt="chrt -f 10"
	shift
fi
runs=${1:-5}
out=${TMPDIR:-/tmp}/hitmap-measure.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT

# The evidence for each example: which members contend (as a rule file).
rules() {
	case $1 in
	counters) printf 'struct counters {\n\tapart hits misses\n}\n' ;;
	stats) printf 'struct lreg_stats {\n\talone sx sy sxx syy sxy\n}\n' ;;
	lock) printf 'struct table {\n\tapart lock slots\n\tapart lock mask\n\tapart updates slots\n\tapart updates mask\n}\n' ;;
	esac
}

# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# time_one BIN: "wall cpu" in milliseconds
time_one() {
	$rt /usr/bin/time -f '%e %U %S' -o "$out/t" "$1" >/dev/null
	awk '{ printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000 }' "$out/t"
}

printf '%-9s %-8s %9s %9s %8s\n' program build wall-ms cpu-ms speedup
for p in counters stats lock; do
	$CC -g -O2 -pthread "$here/$p.c" -o "$out/$p.orig"
	$CC -g -O2 -pthread -DPADDED "$here/$p.c" -o "$out/$p.padded"
	rules $p >"$out/$p.rules"
	"$HITMAP" suggest --rules "$out/$p.rules" --patch --source-root "$here" \
		"$out/$p.orig" >"$out/$p.patch"
	mkdir -p "$out/$p.src" && cp "$here/$p.c" "$out/$p.src/"
	(cd "$out/$p.src" && patch -s -p1 <"$out/$p.patch")
	$CC -g -O2 -pthread "$out/$p.src/$p.c" -o "$out/$p.hitmap"
	for i in $(seq "$runs"); do
		for v in orig hitmap padded; do
			time_one "$out/$p.$v" >>"$out/$p.$v.times"
		done
	done
	base=$(cut -d' ' -f1 "$out/$p.orig.times" | median)
	for v in orig hitmap padded; do
		w=$(cut -d' ' -f1 "$out/$p.$v.times" | median)
		c=$(cut -d' ' -f2 "$out/$p.$v.times" | median)
		printf '%-9s %-8s %9d %9d %7.1fx\n' $p $v "$w" "$c" \
			"$(awk -v a="$base" -v b="$w" 'BEGIN { print (b > 0 ? a / b : 0) }')"
	done
	echo "          hitmap's patch: $(grep '^+' "$out/$p.patch" | grep -v '^+++' | head -3 | sed 's/^+[[:space:]]*//' | tr '\n' ' ')"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs${rt:+, programs run with $rt}"
