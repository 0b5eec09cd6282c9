#!/bin/sh
# bench/report-kernel.sh [VMLINUX]: `hitmap report --vmlinux` with
# attribution by instruction beside `perf c2c report --stdio -k VMLINUX` on
# the same generated kernel recording (tests/perf/gen-c2c): 1 M c2c-like
# samples cycling over every memory-operand instruction DISP(%REG) of 1 in 8
# of the kernel's functions (objdump's listing, tests/vmlinux/insn-sites.py:
# some 45 000 distinct IPs), KASLR-shifted with perf's kernel map, each at
# a slab-like data address of its own, so that every sample goes through the
# instruction path.  Cold: no type cache (HITMAP_NO_CACHE=1).  Both tools
# read the same file in the same run, alternately, RUNS times (default 1);
# the median of each is kept.  Lines (target measured anchor ratio goal):
#   report-kernel-1M-wall, -cpu   hitmap / perf (INFO): perf c2c does no
#                                 type or instruction work, so it is no
#                                 anchor for a report that does; the judged
#                                 anchor is perf 6.12's data-type profiling,
#                                 which does (bench/kernel-vs-perf.sh: at
#                                 least 10x faster).  CPU time (user + sys)
#                                 is the steadier one on a shared machine
#   report-kernel-1M-rss          hitmap's peak RSS against 400 MB, goal <= 1
#   report-kernel-2M-cpu          hitmap's CPU time on 2 M samples over the
#                                 same IPs / on 1 M (memoised per distinct
#                                 IP: the samples add only their counting)
#   report-kernel-ips             distinct IPs, and the share of samples
#                                 named by instruction (INFO)
#   report-kernel-1M-shuffled-wall, -cpu
#                                 the same 1 M samples in shuffled order (a
#                                 recording in time order meets its IPs in no
#                                 order; the sites are in address order),
#                                 against perf on that file (INFO)
#   report-kernel-1M-read-wall    hitmap reading and counting the same file
#                                 without --vmlinux / perf (INFO): what the
#                                 report costs before any type or
#                                 instruction work.  perf c2c reports this file's
#                                 samples as "No Page Map Rejects" (slab
#                                 addresses are in no map) and types none
# HITMAP overrides ./hitmap, GEN ./tests/perf/gen-c2c.
set -u
HITMAP=${HITMAP:-./hitmap}
here=$(cd "$(dirname "$0")" && pwd)
GEN=${GEN:-$(dirname "$HITMAP")/tests/perf/gen-c2c}
RUNS=${RUNS:-1}
. "$here/kernel-setup.sh"
# the same samples with the IPs in no order, as a recording in time order
# has them (the sites file is in address order)
python3 -c 'import random, sys
l = open(sys.argv[1]).read().splitlines()
random.Random(7).shuffle(l)
print("\n".join(l))' "$out/specs" >"$out/specs-s" || exit 1
for n in 1 2 s; do
	sp="$out/specs" k=$n
	[ $n = s ] && sp="$out/specs-s" k=1
	"$GEN" -o "$out/$n.data" -n ${k}000000 --specs "$sp" \
		--mmap "$kmap" >/dev/null || exit 1
done

i=0
while [ $i -lt "$RUNS" ]; do
	measure hm1 $hm_cmd report -i "$out/1.data" --vmlinux "$V"
	measure pf1 perf c2c report -i "$out/1.data" --stdio -k "$V"
	measure hm2 $hm_cmd report -i "$out/2.data" --vmlinux "$V"
	measure hm0 $hm_cmd report -i "$out/1.data"
	measure hms $hm_cmd report -i "$out/s.data" --vmlinux "$V"
	measure pfs perf c2c report -i "$out/s.data" --stdio -k "$V"
	i=$((i + 1))
done
line report-kernel-1M-wall s "$(median hm1 1)" "$(median pf1 1)" - -
line report-kernel-1M-cpu s "$(median hm1 2)" "$(median pf1 2)" - -
line report-kernel-1M-rss KB "$(median hm1 3)" 409600 "<=" 1
line report-kernel-2M-cpu s "$(median hm2 2)" "$(median hm1 2)" "<=" 1.3
line report-kernel-1M-read-wall s "$(median hm0 1)" "$(median pf1 1)" - -
line report-kernel-1M-shuffled-wall s "$(median hms 1)" "$(median pfs 1)" - -
line report-kernel-1M-shuffled-cpu s "$(median hms 2)" "$(median pfs 2)" - -
ips=$(wc -l <"$out/sites")
named=$(awk '/^attributed:/ { print $2; exit }' "$out/hm1.out")
echo "report-kernel-ips ${ips} ${named:-0}/1000000 0 - INFO"
