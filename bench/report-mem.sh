#!/bin/sh
# bench/report-mem.sh [VMLINUX]: the memory `hitmap report` takes per
# distinct cacheline and on a page-fault recording.
#   report-mem-NAME-lines bytes-per-line B goal<=100 PASS|MISS
#       gen-c2c files of N samples spread over N cachelines (one CPU, one
#       thread: perf c2c's common line), at two N: peak RSS above the run
#       on a file of 100 k samples over 100 k lines, per distinct line more
#       than that file has (what does not grow with the lines, the address
#       memo of attr/ bounded at 4 MB among it, is in both).  The distinct
#       lines are counted from `perf script`'s addresses.  The same figure
#       at both N shows the memory is linear in the lines.
#   report-mem-pagefault-first rss KB
#   report-mem-pagefault rss KB goal<=51200 PASS|MISS
#       peak RSS on a page-fault recording (perf record -d -c 1 -e
#       page-faults) of tests/attr/tasks.c run for 12250 rounds: about
#       122 k samples over 49 k task instances.  The first report of the
#       file reads the program's and the C library's DWARF (types and
#       scopes) and keeps what it learnt in the cache, a private
#       XDG_CACHE_HOME here; the goal is on a report of the same file again,
#       as a user looks at a recording more than once.
# Memory flat in the number of samples: bench/report.sh, report-rss-flat.
# VMLINUX is accepted (bench/run-all.sh passes it) and unused.
# HITMAP overrides ./hitmap, GEN ./tests/perf/gen-c2c, CC gcc.
set -u
HITMAP=${HITMAP:-./hitmap}
here=$(cd "$(dirname "$0")" && pwd)
GEN=${GEN:-$(dirname "$HITMAP")/tests/perf/gen-c2c}
CC=${CC:-gcc}
command -v perf >/dev/null 2>&1 || { echo "perf not installed (linux-perf)" >&2; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not installed" >&2; exit 77; }
. "$here/lib.sh"
export XDG_CACHE_HOME="$out/cache"

rss() {	# rss FILE: hitmap report's peak RSS in KB on FILE
	/usr/bin/time -f '%M' -o "$out/time" $hm_cmd report -i "$1" >/dev/null 2>"$out/err" ||
		{ echo "report-mem: hitmap report -i $1 failed" >&2; cat "$out/err" >&2; exit 1; }
	tail -n 1 "$out/time"
}

lines() {	# lines FILE: distinct 64-byte lines of FILE's sample addresses
	perf script -i "$1" -F addr 2>/dev/null | python3 -c '
import sys
print(len({int(w, 16) >> 6 for w in sys.stdin.read().split()}))'
}

gen() {	# gen N FILE: N samples over N lines, one CPU and one thread
	"$GEN" -o "$2" -n "$1" --random "$1@0x10000000" --cpus 8 >/dev/null || exit 1
}

gen 100000 "$out/base.data"
base_rss=$(rss "$out/base.data")
base_lines=$(lines "$out/base.data")
for n in 250000 1000000; do
	gen $n "$out/$n.data"
	r=$(rss "$out/$n.data")
	l=$(lines "$out/$n.data")
	rm -f "$out/$n.data"
	awk -v n=$n -v r="$r" -v l="$l" -v br="$base_rss" -v bl="$base_lines" 'BEGIN {
		b = (r - br) * 1024 / (l - bl)
		name = n >= 1000000 ? n / 1000000 "M" : n / 1000 "k"
		printf "report-mem-%s-lines bytes-per-line %.0f goal<=100 %s\n", name, b,
			b <= 100 ? "PASS" : "MISS"
		printf "  (%d distinct lines, peak %d KB; 100 k-sample file: %d lines, %d KB)\n",
			l, r, bl, br > "/dev/stderr" }'
done

# the page-fault recording
sed 's/^#define ROUNDS 300$/#define ROUNDS 12250/' "$here/../tests/attr/tasks.c" >"$out/tasks.c"
cp "$here/../tests/attr/fixture.h" "$out/"
$CC -g -O2 -pthread -o "$out/tasks" "$out/tasks.c" || exit 1
perf record -q -d -c 1 -e page-faults -o "$out/pf.data" -- "$out/tasks" >/dev/null 2>"$out/rec" ||
	{ echo "report-mem: perf record refused" >&2; cat "$out/rec" >&2; exit 77; }
r=$(rss "$out/pf.data")
echo "report-mem-pagefault-first rss ${r}KB"
r=$(rss "$out/pf.data")
awk -v r="$r" 'BEGIN { printf "report-mem-pagefault rss %dKB goal<=51200KB %s\n", r,
	r <= 51200 ? "PASS" : "MISS" }'
