#!/bin/sh
# Timer samples and the kmem tracepoints in one recording: --kmem means
# "also the kernel's allocations" in timer mode too, and on a machine with
# no memory-sampling PMU `hitmap record -a --kmem` records both (timer
# samples with the interrupted registers, from which report computes the
# address, and the allocations that name the slab object it is in).
# Oracles: perf evlist and perf script (perf's own parsing of the file),
# tracefs (the tracepoints' ids), sysfs (which PMUs the kernel has) and the
# fixture, which prints its pid and how many files it opened.
# shellcheck disable=SC2086  # $PAGES: an option and its value
. "$top_srcdir/tests/lib.sh"
require perf linux-perf
require python3
require_tracefs
for e in kmem_cache_alloc kmalloc kmem_cache_free kfree; do
	[ -r "$TRACEFS/events/kmem/$e/id" ] || skip "tracepoint kmem:$e missing"
done
build_fixture "$TESTS_SRC/record/kmem-open.c" "$T/ko" "${CC:-gcc}" 5 -O2
N=500
# every CPU's allocations, on a loaded machine: a large ring buffer
PAGES="--mmap-pages 2048"

# The probe: perf itself records every CPU's clock with the interrupted
# registers and a kmem tracepoint here.
perf record -q -a -I -e cpu-clock -e kmem:kmem_cache_alloc -o "$T/probe.data" -- "$T/ko" 10 10 \
	>/dev/null 2>"$T/probe.err" ||
	{ cat "$T/probe.err" >&2; skip "perf record -a -I -e cpu-clock -e kmem:kmem_cache_alloc fails here"; }

# check FILE: the recording FILE holds cpu-clock samples with the general
# registers (the fixture's among them) and the fixture's N filp allocations.
check() {
	perf evlist -v -i "$1" >"$T/evlist" 2>&1 || { cat "$T/evlist" >&2; fail "perf evlist $1"; }
	grep -q "^cpu-clock: .*sample_type: IP|TID|TIME|ID|CPU|PERIOD|REGS_USER|REGS_INTR,.*sample_regs_intr: 0xff01ff" "$T/evlist" ||
		{ cat "$T/evlist" >&2; fail "$1: cpu-clock with the interrupted registers"; }
	for e in kmem_cache_alloc kmalloc kmem_cache_free kfree; do
		grep -q "^kmem:$e: type: 2, .*config: $(printf '0x%x' "$(cat "$TRACEFS/events/kmem/$e/id")"), .*sample_type: IP|TID|TIME|ID|CPU|PERIOD|RAW," "$T/evlist" ||
			{ cat "$T/evlist" >&2; fail "$1: kmem:$e, tracefs's id, IP|TID|TIME|ID|CPU|PERIOD|RAW"; }
	done
	perf script -i "$1" -F sw:pid,tid,event,ip,iregs -F trace:pid,event,trace >"$T/script" 2>"$T/ps.err" ||
		{ cat "$T/ps.err" >&2; fail "$1: perf script cannot read the recording"; }
	lost=$(sed -n 's/.* samples, \([0-9]*\) lost, .*/\1/p' "$T/rec.err")
	python3 - "$T/ko.out" "$T/script" "$lost" <<'PY' || fail "$1: samples against the fixture's truth"
import re, sys
pid, n = map(int, re.match(r"pid (\d+) opens (\d+)", open(sys.argv[1]).read()).groups())
regs_names = "AX BX CX DX SI DI BP SP IP R8 R9 R10 R11 R12 R13 R14 R15".split()
clock = mine = kernel = filp = kmem = 0
for line in open(sys.argv[2]):
    # an exiting task's pid or tid reads -1 (the kernel's, as perf prints it)
    m = re.match(r"\s*(-?\d+)/(-?\d+)\s+cpu-clock:\s+([0-9a-f]+)\s+ABI:(\d+)\s+(.*)$", line)
    if m:
        regs = dict((k, int(v, 16)) for k, v in re.findall(r"(\w+):(0x[0-9a-f]+)", m.group(5)))
        assert sorted(regs) == sorted(regs_names), "the 17 general registers: " + line
        assert regs["IP"] == int(m.group(3), 16), "the IP register is the sample's IP: " + line
        clock += 1
        mine += int(m.group(1)) == pid
        kernel += int(m.group(3), 16) >= 1 << 63
        continue
    m = re.match(r"\s*(-?\d+)\s+kmem:(\w+):\s+(.*)$", line)
    assert m, "unparsed perf script line: " + line
    kmem += 1
    filp += int(m.group(1)) == pid and m.group(2) == "kmem_cache_alloc" and " name=filp " in m.group(3)
print("%d cpu-clock samples (%d of pid %d, %d in the kernel), %d kmem events, %d filp allocations "
      "by pid %d" % (clock, mine, pid, kernel, kmem, filp, pid))
assert mine >= 50, "the fixture's 300 ms of CPU time: too few samples"
assert kernel > 0, "no kernel samples: the interrupted registers are the kernel's too"
# records the ring buffer lost (the summary's count) may be some of them
lost = int(sys.argv[3])
assert filp >= n if not lost else filp > 0, \
    "%d filp allocations, the fixture opened %d files (%d records lost)" % (filp, n, lost)
PY
}

# --timer --kmem: on any machine.
"$HITMAP" record --timer -a --kmem $PAGES -o "$T/t.data" -- "$T/ko" $N 300 >"$T/ko.out" 2>"$T/rec.err" ||
	{ cat "$T/rec.err" >&2; fail "record --timer -a --kmem"; }
cat "$T/rec.err" >&2
grep -q "^note: recording timer samples with registers (cpu-clock, [0-9]* Hz, user and kernel) and the kmem tracepoints$" \
	"$T/rec.err" || fail "record --timer --kmem does not say it records both"
grep -q "^ *[1-9][0-9]* kernel allocations and frees (kmem tracepoints)$" "$T/rec.err" ||
	fail "no count of kmem events in the summary"
check "$T/t.data"

# Without --timer: the same where the kernel has no memory-sampling PMU
# (sysfs: no cpu*/events/mem-loads (Intel), no ibs_op (AMD), no arm_spe).
pmus=/sys/bus/event_source/devices
if ls -d $pmus/cpu*/events/mem-loads $pmus/ibs_op $pmus/arm_spe* >/dev/null 2>&1; then
	echo "this machine has a memory-sampling PMU ($(ls -d $pmus/cpu*/events/mem-loads $pmus/ibs_op $pmus/arm_spe* 2>/dev/null | tr '\n' ' ')): the fallback is not what -a --kmem records here"
	exit 0
fi
"$HITMAP" record -a --kmem --dry-run >"$T/plan" 2>"$T/plan.err" || { cat "$T/plan.err" >&2; fail "-a --kmem --dry-run"; }
grep -q "^0 cpu-clock: type=1 config=0 .* regs_intr=0xff01ff$" "$T/plan" ||
	{ cat "$T/plan" >&2; fail "--dry-run: cpu-clock with the interrupted registers first"; }
i=1
for e in kmem_cache_alloc kmalloc kmem_cache_free kfree; do
	grep -q "^$i kmem:$e: type=2 config=$(printf '0x%x' "$(cat "$TRACEFS/events/kmem/$e/id")") " "$T/plan" ||
		{ cat "$T/plan" >&2; fail "--dry-run: kmem:$e with tracefs's id"; }
	i=$((i + 1))
done
assert_eq 5 "$(grep -c '^[0-9]' "$T/plan")" "--dry-run: five events"
"$HITMAP" record -a --kmem $PAGES -o "$T/n.data" -- "$T/ko" $N 300 >"$T/ko.out" 2>"$T/rec.err" ||
	{ cat "$T/rec.err" >&2; fail "record -a --kmem"; }
cat "$T/rec.err" >&2
grep -q "^note: no memory-sampling PMU and no --watch: recording timer samples with registers (cpu-clock, [0-9]* Hz, user and kernel) and the kmem tracepoints$" \
	"$T/rec.err" || fail "record -a --kmem does not say it records both"
check "$T/n.data"
