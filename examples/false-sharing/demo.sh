#!/bin/sh
# The hitmap demo: a struct whose two counters, written by two threads, share a
# cacheline.  Run from the build directory (make demo).
set -e
here=$(cd "$(dirname "$0")" && pwd)
HITMAP=${HITMAP:-./hitmap}
out=${TMPDIR:-/tmp}/hitmap-demo.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT

echo "== build examples/false-sharing/counters.c with -g"
${CC:-gcc} -g -O2 -pthread "$here/counters.c" -o "$out/counters"
echo
echo "== hitmap layout -C counters: where the fields sit on cachelines"
"$HITMAP" layout -C counters "$out/counters"
echo "   (pahole's format; hits 0..7 and misses 8..15 share cacheline 0)"

# ---- record + report: evidence from the running program (hitmap record) ----
# The best evidence this machine gives: a memory-sampling PMU (loads and stores
# sampled as perf c2c does); else hardware watchpoints on the two counters,
# when record's self-check finds that they fire (in some virtual machines the
# hypervisor never delivers them); else timer samples with the registers,
# from which report computes each sample's data address.
echo
evidence_kind=
if "$HITMAP" record --dry-run 2>/dev/null | grep -q '^pmu: ' &&
	! "$HITMAP" record --dry-run 2>/dev/null | grep -q '^pmu: [a-z]*-clock '; then
	echo "== hitmap record: memory sampling with this CPU's PMU"
	"$HITMAP" record -o "$out/perf.data" -- "$out/counters" 50000000 && evidence_kind=pmu
fi
if [ -z "$evidence_kind" ]; then
	echo "== hitmap record --watch: no memory-sampling PMU, so hardware watchpoints"
	echo "   on both counters, which see every access of both threads"
	if "$HITMAP" record --watch g_counters.hits --watch g_counters.misses \
		-o "$out/perf.data" -- "$out/counters" 20000 2>"$out/watch.err"; then
		cat "$out/watch.err" >&2
		evidence_kind=watch
	else
		cat "$out/watch.err" >&2
		grep -q 'watchpoints do not fire' "$out/watch.err" || exit 3
	fi
fi
if [ -z "$evidence_kind" ]; then
	echo
	echo "== hitmap record --timer: no PMU and no working watchpoints here, so timer"
	echo "   samples with the registers (report computes the data addresses from them)"
	"$HITMAP" record --timer -o "$out/perf.data" -- "$out/counters" 50000000
	evidence_kind=timer
fi
echo
echo "== hitmap report: the fields behind the line transfers ($evidence_kind evidence)"
# the same report drawn as one self-contained page, kept after the demo
html=${HITMAP_DEMO_HTML:-$PWD/hitmap-demo-report.html}
"$HITMAP" report -i "$out/perf.data" --html "$html" | tee "$out/report.txt"
echo
echo "== the report as a page (cachelines drawn, heat by colour and pattern):"
echo "   $html"
echo "   open it in any browser, e.g. xdg-open '$html' (it fetches nothing)"
attributed=$(sed -n 's/^attributed: \([0-9]*\) .*/\1/p' "$out/report.txt" | head -1)
if [ "${attributed:-0}" = 0 ]; then
	samples=$(sed -n '2s/^\([0-9]*\) .*/\1/p' "$out/report.txt")
	noaddr=$(sed -n 's/.*no-addr \([0-9]*\).*/\1/p' "$out/report.txt" | head -1)
	echo
	echo "== the $evidence_kind recording gave no evidence: report attributed none of"
	echo "   its ${samples:-0} samples to a field${noaddr:+ ($noaddr of them with no data address}${noaddr:+ the report could use)}"
fi
# ---- end of record + report ----

# ---- suggest + patch + timing: hitmap's proposal, applied and measured ----
# The best proposal for struct counters, from the recording above when there
# is one (else from a one-line rule naming the pair), as a patch against
# counters.c; both builds are then timed on this machine.  The timing is shown,
# not asserted: it depends on the machine and on what else runs on it.
echo
evidence=
if [ "${attributed:-0}" != 0 ] &&
	"$HITMAP" suggest -C counters -i "$out/perf.data" "$out/counters" 2>/dev/null |
	grep -q '^#1 '; then
	evidence="-i $out/perf.data"
else
	# said, never silent: what follows rests on a rule, not on measurement
	echo "== no proposal from the recording: suggest from a one-line rule naming the"
	echo "   pair instead (what the rule says, not what was measured)"
	printf 'struct counters {\n\tapart hits misses\n}\n' >"$out/counters.rules"
	evidence="--rules $out/counters.rules"
fi
echo "== hitmap suggest -C counters $evidence: the best placement, its cost,"
echo "   and the contention it leaves"
"$HITMAP" suggest -C counters $evidence --proposal 1 "$out/counters" | tee "$out/suggest.txt"
echo
echo "== hitmap suggest --patch: the same proposal as a patch against counters.c"
"$HITMAP" suggest -C counters $evidence --patch --source-root "$here" "$out/counters" \
	>"$out/counters.patch"
cat "$out/counters.patch"
mkdir -p "$out/patched"
cp "$here/counters.c" "$out/patched/"
(cd "$out/patched" && patch -s -p1 <"$out/counters.patch")
${CC:-gcc} -g -O2 -pthread "$out/patched/counters.c" -o "$out/counters-patched"
echo
echo "== hitmap layout of the patched build"
"$HITMAP" layout -C counters "$out/counters-patched"
echo
# Other jobs on the CPUs keep the two threads from running at once and hide
# the effect; as root, run the programs under SCHED_FIFO for the timing.
rt=
if [ "$(id -u)" = 0 ] && command -v chrt >/dev/null 2>&1; then
	rt="chrt -f 10"
fi
echo "== timing both builds (100 million increments per thread, best of 3${rt:+, under $rt})"
best() {
	b=
	for i in 1 2 3; do
		s=$(date +%s%N)
		$rt "$1" >/dev/null
		e=$(date +%s%N)
		t=$(( (e - s) / 1000000 ))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b"
}
t0=$(best "$out/counters")
t1=$(best "$out/counters-patched")
left=$(sed -n 's/^   remaining contention: \(.*\)$/\1/p' "$out/suggest.txt" | head -1)
echo "   original: ${t0} ms   patched: ${t1} ms"
awk -v a="$t0" -v b="$t1" 'BEGIN { if (b > 0) printf "   measured speedup: %.1fx\n", a / b }'
echo "   hitmap's prediction: remaining contention $left"
if [ -z "$rt" ]; then
	echo "   (load average $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs: when other jobs keep the"
	echo "   CPUs busy the two threads seldom run at once and the gap shrinks)"
fi
# ---- end of suggest + patch + timing ----
