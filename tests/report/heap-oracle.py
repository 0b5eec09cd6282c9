#!/usr/bin/env python3
"""Oracle for tests/report/heap.sh: what every sample inside a heap object
must be attributed to, from the fixture's own printout (object addresses,
offsetof, sizeof) and perf script's sample addresses; compared with the
JSON report.

heap-oracle.py PROGRAM_OUTPUT ADDRS REPORT_JSON [--all-in-objects] [--bin=PATH]
  ADDRS: one sample a line, as perf script -F ip,sym,addr prints it: the
  data address first, the IP's function last.  A stack object counts only
  the samples of its own function (its frame's memory is reused by others).
  --bin=PATH: ADDRS is perf script -F ip,sym,addr,dso, and only the samples
  whose IP is in PATH are judged by the fixture's printout; the others
  (the C library's and the dynamic loader's code, named from their debug
  files) may be attributed only to fields outside the fixture's objects.
PROGRAM_OUTPUT lines: "field STRUCT.PATH OFF SIZE", "size STRUCT N",
"object STRUCT ADDR" (named STRUCT@ADDR), "stack STRUCT ADDR FUNC:VAR" (a
frame's: only FUNC's samples count), "tls STRUCT ADDR tls:VAR" (a thread's
__thread variable), "raw ADDR" and "dup ADDR" (pages nothing may name).
Prints one line per check that failed and exits 1, or prints a summary."""
import json
import re
import sys

out, addrs_file, report = sys.argv[1:4]
all_in = "--all-in-objects" in sys.argv[4:]
# --stack=START+LEN, the [stack] mapping perf recorded.  A frame below it (the
# stack grew past it; perf.data has no record of that) is a known gap of
# the attribution: its samples may be named or not, never misnamed.
stack = None
binary = None
for arg in sys.argv[4:]:
    if arg.startswith("--bin="):
        binary = arg[6:]
    if arg.startswith("--stack="):
        lo, n = arg[8:].split("+")
        stack = (int(lo, 16), int(lo, 16) + int(n, 16))
STRATEGIES = ("instruction", "tls", "per-cpu")
fields, sizes, objects, unnamed = {}, {}, [], []
for line in open(out):
    w = line.split()
    if w[0] == "field":
        s, f = w[1].split(".", 1)
        fields.setdefault(s, []).append((f, int(w[2]), int(w[3])))
    elif w[0] == "size":
        sizes[w[1]] = int(w[2])
    elif w[0] == "object":
        objects.append((w[1], int(w[2], 16), None))
    elif w[0] == "stack":
        # a struct variable in a frame: named "function:variable"
        objects.append((w[1], int(w[2], 16), w[3]))
    elif w[0] == "tls":
        objects.append((w[1], int(w[2], 16), w[3]))
    elif w[0] in ("raw", "dup"):
        unnamed.append(int(w[1], 16))

want = {}  # (object, path) -> samples
gap = {}   # the same, below the recorded [stack] mapping
outside = 0
foreign = []  # data addresses of the samples whose IP is in another file
for line in open(addrs_file):
    w = line.split()
    if binary:
        dso = w[-1].strip("()")
        del w[-1]
    a, func = int(w[0], 16), w[-1].split(".")[0]
    if binary and dso != binary:
        foreign.append(a)
        continue
    for s, base, name in objects:
        if name and not name.startswith("tls:") and func != name.split(":")[0]:
            continue
        if base <= a < base + sizes[s]:
            off = a - base
            f = [n for n, o, z in fields[s] if o <= off < o + z]
            key = (name or "%s@0x%x" % (s, base), f[0] if f else "(padding)")
            if name and stack and not name.startswith("tls:") and \
                    not stack[0] <= a < stack[1]:
                gap[key] = gap.get(key, 0) + 1
            else:
                want[key] = want.get(key, 0) + 1
            break
    else:
        outside += 1

d = json.load(open(report))
got = {}
bad = []
for l in d["lines"]:
    for f in l["fields"]:
        if f["strategy"] not in STRATEGIES:
            continue
        # an array member's element: "pad[123]" is in "pad"
        k = (f["object"], re.sub(r"\[\d+\]$", "", f["path"]))
        got[k] = got.get(k, 0) + f["counts"]["samples"]
        for u in unnamed:
            if f["address"] <= u < f["address"] + f["size"]:
                bad.append("page 0x%x attributed: %s.%s" % (u, k[0], k[1]))
for k, n in sorted(want.items()):
    if not n <= (got.get(k) or 0) <= n + gap.get(k, 0):
        bad.append("%s.%s: %s samples attributed, want %d" % (k[0], k[1], got.get(k), n))
# other files' samples in fields outside the fixture's objects
extent = {}
for l in d["lines"]:
    for f in l["fields"]:
        if f["strategy"] in STRATEGIES:
            k = (f["object"], re.sub(r"\[\d+\]$", "", f["path"]))
            extent.setdefault(k, []).append((f["address"], f["address"] + f["size"]))
def in_fixture(lo, hi):
    return any(lo < base + sizes[s] and base < hi for s, base, name in objects if not name)
theirs = 0
for k, n in sorted(got.items()):
    if k in want:
        continue
    mine = sum(1 for a in foreign for lo, hi in extent[k] if lo <= a < hi)
    if any(in_fixture(lo, hi) for lo, hi in extent[k]):
        mine = 0
    theirs += min(n, mine)
    if n > gap.get(k, 0) + mine:
        bad.append("%s.%s: %d samples attributed, in no object" % (k[0], k[1], n))
inobj = sum(want.values())
b = d["buckets"]
by_insn = sum(b[k] for k in STRATEGIES)
if not inobj <= by_insn <= inobj + sum(gap.values()) + theirs:
    bad.append("instruction buckets %d, want %d (samples in objects)" % (by_insn, inobj))
if gap:
    print("below the recorded [stack] mapping (a known gap): %d samples" % sum(gap.values()))
if sum(b.values()) != d["samples"]:
    bad.append("buckets sum to %d, samples %d" % (sum(b.values()), d["samples"]))
if all_in and outside:
    bad.append("%d samples outside the objects" % outside)
for m in bad:
    print(m)
if bad:
    sys.exit(1)
print("%d samples in %d fields attributed; %d elsewhere; %d by other files' code in "
      "their own objects" % (inobj, len(want), outside, theirs))
