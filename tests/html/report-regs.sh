#!/bin/sh
# report --html of a timer recording with user registers (no watchpoint or
# memory PMU needed): tests/report/regs-share.c, two threads writing the
# two fields of one line, recorded with cpu-clock and --sample-cpu.  Oracle:
# perf script of the same recording gives each sample's CPU; the report's
# --regs-log says which data address hitmap computed for it.  On the page
# (Chromium's DOM), each ranked line's CPUs column is the CPUs perf script
# gives that line's samples (never a thread id), and its count is the
# number of samples the log puts on that line; a field or member with a
# single sample is never drawn above the first heat level (h1), in the line
# details and in the struct drawings alike, while the hottest field is h4.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
. "$TESTS_SRC/html/lib-html.sh"
require perf linux-perf

[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] ||
	skip "two threads on two CPUs need 2 online CPUs (this machine has 1)"
regs_probe "$RSRC/regs-share.c" one 50
build_fixture "$RSRC/regs-share.c" "$T/rs" gcc 5 -O2 -pthread
# The level rule needs a field of a single sample, which only the stray
# samples outside the program's two fields give (ld.so's, libc's): up to
# five recordings for one that has such a field
for try in 1 2 3 4 5; do
	regs_rec "$T/rs.data" "$T/rs" false 200 >"$T/rs.out" || fail "perf record: $(cat "$T/rec.err")"
	"$HITMAP" report -i "$T/rs.data" --regs-log "$T/rs.log" --json >"$T/rs.json" ||
		fail "report --json"
	python3 -c 'import json, sys
sys.exit(not any(f["counts"]["samples"] == 1 for l in json.load(open(sys.argv[1]))["lines"]
                 for f in l["fields"]))' "$T/rs.json" && break
done
"$HITMAP" report -i "$T/rs.data" --html "$T/rs.html" >/dev/null || fail "report --html"
perf script --ns -i "$T/rs.data" -F tid,cpu,time 2>/dev/null >"$T/rs.script" ||
	fail "perf script"
html_dom "$T/rs.html" rs
python3 "$HTML_SRC/domcheck.py" report "$T/rs.dom" "$T/rs.json" || fail "page and JSON differ"
html_quiet "$T/rs.html" rs
python3 - "$HTML_SRC" "$T/rs.dom" "$T/rs.json" "$T/rs.script" "$T/rs.log" <<'PY' ||
import json, re, sys
sys.path.insert(0, sys.argv[1])
from domcheck import parse

def text(n):
    return n.all_text().strip()

# perf script: "comm tid [cpu] secs.nsecs:" -> the CPU of each sample time
cpu_at = {}
for ln in open(sys.argv[4]):
    m = re.search(r"(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):", ln)
    if m:
        cpu_at[int(m.group(3)) * 10**9 + int(m.group(4))] = int(m.group(2))
assert cpu_at, "perf script printed no sample"
doc = json.load(open(sys.argv[3]))
L = doc["cacheline_size"] if "cacheline_size" in doc else 64
lines = {l["address"]: l for l in doc["lines"]}
# the regs log: "time cpu tid ip kind insn-offset address" per sample
want = {a: [0, set()] for a in lines}
for ln in open(sys.argv[5]):
    f = ln.split()
    if len(f) < 7 or not f[6].startswith("0x"):
        continue
    a = int(f[6], 16) & ~(L - 1)
    if a in want:
        want[a][0] += 1
        want[a][1].add(cpu_at[int(f[0])])
root = parse(sys.argv[2])
seen = 0
for tr in root.find("tr", "hm-lineref"):
    a = int(tr.attrs["data-address"])
    tds = [k for k in tr.kids if k.tag == "td"]
    cpus, count = text(tds[5]), int(text(tds[4]))
    n, cs = want[a]
    if count != lines[a]["counts"]["samples"] or count != n:
        sys.exit("line %#x: page %d samples, JSON %d, regs log %d" %
                 (a, count, lines[a]["counts"]["samples"], n))
    if cpus != ",".join(str(c) for c in sorted(cs)):
        sys.exit("line %#x: CPUs %r on the page, perf script %s" % (a, cpus, sorted(cs)))
    seen += 1
assert seen == len(lines), (seen, len(lines))
# heat levels: in the line details and in the struct drawings
one = top = 0
for tr in root.find("tr", "hm-m"):
    tds = [k for k in tr.kids if k.tag == "td"]
    if len(tds) < 7 or not text(tds[6]).startswith("h"):
        continue
    v, lv = int(text(tds[5])), int(text(tds[6])[1:])
    if v <= 1 and lv > 1:
        sys.exit("field %s: %d sample at level h%d" % (tr.attrs.get("data-path"), v, lv))
    one += v == 1
    top += lv == 4
for b in root.find("div", "hm-b"):
    m = re.search(r", samples (\d+), (\w+)$", b.attrs.get("aria-label", ""))
    if m and int(m.group(1)) <= 1 and m.group(2) not in ("cold", "warm"):
        sys.exit("block %s: %s sample, %s" % (b.attrs.get("data-path"), m.group(1), m.group(2)))
assert one, "no single-sample field: the level rule is not exercised"
assert top, "no field at h4"
print("ok: %d lines with perf script's CPUs and the log's counts, %d single-sample fields "
      "at most h1, %d fields at h4" % (seen, one, top))
PY
	fail "page, perf script and the regs log differ"

# The same without --sample-cpu: perf script says the samples carry no CPU,
# the report's lists hold thread ids standing in for CPUs, and the page
# shows "unknown" in every CPUs cell, never those thread ids.
perf record -q -o "$T/nc.data" -e cpu-clock -c 50000 --user-regs=$REGS -- "$T/rs" false 200 \
	>/dev/null 2>"$T/rec.err" || fail "perf record without --sample-cpu: $(cat "$T/rec.err")"
perf script -i "$T/nc.data" -F tid,cpu >/dev/null 2>"$T/nc.err" &&
	fail "perf script prints a CPU of samples recorded without one"
grep -q 'do not have CPU attribute set' "$T/nc.err" || fail "perf script: $(cat "$T/nc.err")"
"$HITMAP" report -i "$T/nc.data" --json >"$T/nc.json" || fail "report --json, no CPU"
"$HITMAP" report -i "$T/nc.data" --html "$T/nc.html" >/dev/null || fail "report --html, no CPU"
html_dom "$T/nc.html" nc
python3 - "$HTML_SRC" "$T/nc.dom" "$T/nc.json" <<'PY' || fail "a thread id shown as a CPU"
import json, sys
sys.path.insert(0, sys.argv[1])
from domcheck import parse
doc = json.load(open(sys.argv[3]))
assert doc["cpu_from_tid"] and doc["lines"], "the report says its samples carry CPUs"
root = parse(sys.argv[2])
n = 0
for cls, col in (("hm-lineref", 5), ("hm-m", 7)):
    for tr in root.find("tr", cls):
        tds = [k for k in tr.kids if k.tag == "td"]
        if len(tds) > col and "mono" in tds[col].cls():
            got = tds[col].all_text().strip()
            assert got == "unknown", (cls, tr.attrs.get("data-address") or tr.attrs.get("data-path"), got)
            n += 1
assert n >= 2 * len(doc["lines"]), n
print("ok: %d CPUs cells, all unknown" % n)
PY
