#!/bin/sh
# Timer mode: hitmap record samples the command's threads on a software
# clock with their general registers, in a perf.data that perf itself reads.
# Oracles: perf evlist and perf script (perf's own parsing of the file), and
# the fixture, which prints its text range, its threads' ids and the address
# each thread's loop holds in %rdi.
. "$top_srcdir/tests/lib.sh"
require perf linux-perf
require python3
build_fixture "$TESTS_SRC/record/timer-threads.c" "$T/tt" "${CC:-gcc}" 5 -O2 -pthread
N=30000000

# The probe: perf's own timer sampling with registers works here.
perf record -q -e task-clock -c 100000 --user-regs=AX,IP -o "$T/probe.data" -- "$T/tt" 1000000 \
	>/dev/null 2>"$T/probe.err" ||
	{ cat "$T/probe.err" >&2; skip "perf record of task-clock with registers fails here"; }

"$HITMAP" record --timer -o "$T/t.data" -- "$T/tt" $N >"$T/tt.out" 2>"$T/rec.err" ||
	{ cat "$T/rec.err" >&2; fail "record --timer -- tt"; }
cat "$T/rec.err" >&2
grep -q "^note: recording timer samples with registers (task-clock, [0-9]* Hz, user space)$" \
	"$T/rec.err" || fail "record does not say which evidence it records"

# The event as perf reads it.
perf evlist -v -i "$T/t.data" >"$T/evlist" 2>&1 || { cat "$T/evlist" >&2; fail "perf evlist"; }
grep -q "sample_type: IP|TID|TIME|ID|CPU|PERIOD|REGS_USER," "$T/evlist" &&
	grep -q "sample_regs_user: 0xff01ff" "$T/evlist" && grep -q "^task-clock: type: 1, " "$T/evlist" &&
	grep -q "inherit: 1" "$T/evlist" ||
	{ cat "$T/evlist" >&2; fail "the event: task-clock, inherited, IP|TID|TIME|ID|CPU|PERIOD|REGS_USER, AX..IP R8..R15"; }

# Every sample, as perf script prints it.
perf script -i "$T/t.data" -F pid,tid,ip,sym,dso,period,uregs >"$T/t.script" 2>"$T/ps.err" ||
	{ cat "$T/ps.err" >&2; fail "perf script cannot read the recording"; }
python3 - "$T/tt.out" "$T/t.script" "$T/tt" <<'PY' || fail "samples against the fixture's truth"
import re, sys
out, script, prog = sys.argv[1:4]
text = None
threads = {}
for line in open(out):
    w = line.split()
    if w[0] == "text":
        text = (int(w[1], 16), int(w[2], 16))
    elif w[0] == "thread":
        threads[int(w[1])] = int(w[2], 16)
assert text and len(threads) == 2, "fixture output"
regs_names = "AX BX CX DX SI DI BP SP IP R8 R9 R10 R11 R12 R13 R14 R15".split()
per = {t: [0, 0, 0, 0] for t in threads}   # samples, in text, in the program's dso, DI = its counter
pids = set()
n = 0
for line in open(script):
    m = re.match(r"\s*(\d+)/(\d+)\s+(\d+)\s+([0-9a-f]+)\s+(.*?)\s+ABI:(\d+)\s+(.*)$", line)
    assert m, "unparsed perf script line: " + line
    pid, tid, period, ip = int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4), 16)
    regs = dict((k, int(v, 16)) for k, v in re.findall(r"(\w+):(0x[0-9a-f]+)", m.group(7)))
    n += 1
    assert m.group(6) == "2", "ABI 64-bit: " + line
    assert sorted(regs) == sorted(regs_names), "the 17 general registers: " + line
    assert period == 100000, "period 100000 ns (10000 Hz): " + line
    assert regs["IP"] == ip, "the sampled IP register is the sample's IP: " + line
    pids.add(pid)
    assert tid == pid or tid in threads, "a thread the program did not have: " + line
    if tid in threads:
        c = per[tid]
        c[0] += 1
        if text[0] <= ip < text[1]:
            c[1] += 1
            c[3] += regs["DI"] == threads[tid]
        c[2] += m.group(5).endswith("(" + prog + ")")
assert len(pids) == 1, "one process: %s" % pids
for t, (s, intext, indso, di) in per.items():
    print("thread %d: %d samples, %d in the program's text, %d in its dso, %d with %%rdi = its counter"
          % (t, s, intext, indso, di))
    assert s >= 50, "thread %d: too few samples" % t
    assert intext >= 0.9 * s, "thread %d: samples outside the program's text" % t
    assert indso == intext, "thread %d: perf resolves %d of %d text IPs to the program (MMAP2)" % (t, indso, intext)
    assert di >= 0.9 * intext, "thread %d: %%rdi is not its counter's address" % t
print("%d samples" % n)
PY

# The rate: -c is the period in ns, -F the frequency.
"$HITMAP" record --timer -q -c 200000 -o "$T/c.data" -- "$T/tt" 1000000 >/dev/null ||
	fail "record --timer -c 200000"
assert_eq 200000 "$(perf script -i "$T/c.data" -F period 2>/dev/null | sort -u | tr -d ' ')" "-c 200000: the period"
"$HITMAP" record --timer -q -F 1000 -o "$T/f.data" -- "$T/tt" 1000000 >/dev/null ||
	fail "record --timer -F 1000"
assert_eq 1000000 "$(perf script -i "$T/f.data" -F period 2>/dev/null | sort -u | tr -d ' ')" "-F 1000: the period"
"$HITMAP" record --timer --dry-run >"$T/plan" 2>/dev/null || fail "record --timer --dry-run"
grep -q "^0 task-clock: type=1 config=0x1 .* period=100000 .* regs_user=0xff01ff regs_intr=0" "$T/plan" ||
	{ cat "$T/plan" >&2; fail "--dry-run: the timer event"; }

# -a: every CPU's cpu-clock; with the privilege to sample the kernel, the
# kernel's samples carry the interrupted registers.
"$HITMAP" record --timer -q -a -o "$T/a.data" -- "$T/tt" 3000000 >/dev/null 2>"$T/a.err" ||
	{ cat "$T/a.err" >&2; fail "record --timer -a"; }
perf evlist -v -i "$T/a.data" >"$T/a.evlist" 2>&1
grep -q "^cpu-clock: type: 1, " "$T/a.evlist" || { cat "$T/a.evlist" >&2; fail "-a: cpu-clock"; }
if [ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 1 ]; then
	grep -q "REGS_USER|REGS_INTR" "$T/a.evlist" && grep -q "sample_regs_intr: 0xff01ff" "$T/a.evlist" ||
		{ cat "$T/a.evlist" >&2; fail "-a: REGS_INTR with the general registers"; }
	perf script -i "$T/a.data" -F ip,sym,iregs >"$T/a.script" 2>"$T/ps.err" ||
		{ cat "$T/ps.err" >&2; fail "perf script -F iregs"; }
	# kallsyms shows the kernel's addresses to root (kptr_restrict)
	python3 - "$T/a.script" "$(id -u)" <<'PY' || fail "-a: kernel samples and their registers"
import re, sys
k = u = named = 0
for line in open(sys.argv[1]):
    m = re.match(r"\s*([0-9a-f]+)\s+(\S+)\s+ABI:\d+\s+(.*)$", line)
    if not m:
        continue
    ip = int(m.group(1), 16)
    regs = dict((a, int(b, 16)) for a, b in re.findall(r"(\w+):(0x[0-9a-f]+)", m.group(3)))
    assert regs["IP"] == ip, "interrupted IP is the sample's IP: " + line
    if ip >= 0xffff800000000000:
        k += 1
        named += m.group(2) != "[unknown]"
    else:
        u += 1
print("-a: %d kernel (%d named by perf: the kernel's map) and %d user samples with interrupted registers" % (k, named, u))
assert k > 0 and u > 0
assert sys.argv[2] != "0" or named >= 0.5 * k, "perf names too few kernel IPs: no [kernel.kallsyms] map?"
PY
fi
exit 0
