#!/bin/sh
# Generate the perf.data inputs of the report benchmark: c2c-like files of
# 1 M and 5 M samples (loads and stores with L1 hits, local and remote HITMs,
# L1-missing stores) spread over 4096 cachelines from 0x601000, written by
# the test generator tests/perf/gen-c2c.
#   bench/report-gen.sh OUTDIR [GEN-C2C OPTIONS...]
# Extra options go to every gen-c2c run, e.g. `--mmap START,LEN,PGOFF,BINARY`
# to map a fixture binary over the addresses (see gen-c2c --help).  Prints the
# files made, one per line.  GEN overrides the generator's path.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: bench/report-gen.sh OUTDIR [GEN-C2C OPTIONS...]}
shift
GEN=${GEN:-${top_builddir:-$here/..}/tests/perf/gen-c2c}
[ -x "$GEN" ] || { echo "report-gen: $GEN not built (make check builds it)" >&2; exit 1; }
mkdir -p "$out"
for n in 1000000 5000000; do
	f="$out/c2c-$((n / 1000000))M.data"
	"$GEN" -o "$f" -n "$n" --random 4096@0x601000 --cpus 8 "$@" \
		l1hit:0:1:0 l1hit:0:1:1 lcl-hitm:0:1:2 rmt-hitm:0:1:3 st-l1hit:0:1:4 \
		st-l1miss:0:1:5 l3hit:0:1:6 rmt-hitm-skx:0:1:7
	echo "$f"
done
