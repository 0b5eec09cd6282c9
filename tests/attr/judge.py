#!/usr/bin/env python3
"""Sample by sample, the field each tool names against the truth.

judge.py --out PRINTOUT --script SCRIPT --bin PATH [--hitmap JSON]
         [--perf REPORT] [--allow-unnamed STRUCT.PATH]... [-v]

PRINTOUT: the fixture's own printout (tests/attr/fixture.h): field offsets
and sizes from the compiler, every object's address.  SCRIPT: perf script
-F addr,ip,sym,symoff,dso.  A sample is judged when its IP is in PATH and its
data address inside a printed object; its truth is the leaf field there
(or, for a field inside an embedded struct, that struct's own member: a
struct list_head's `next` is task.node.next).

JSON: hitmap report --json --top N over the same recording.  A field row
names every sample whose address it covers, as many as it counts.  REPORT:
perf 6.12 report --stdio -n -s dso,symoff,type,typeoff (perf names a type
and offset per instruction, never an address).

A name is right when it is the truth's struct and path (an array index, when
the name has one, included) or a member enclosing it, without an index
(perf's "hist" for hist[3].n), wrong when it is anything else, unnamed when
there is none.  Prints "TOOL right wrong unnamed" per tool; -v adds the
wrong and unnamed samples by function.  --allow-unnamed: the fields where
an unnamed sample is no failure of the check below.
--check: exit 1 unless hitmap names no sample wrong and leaves none unnamed
outside the allowed fields."""
import json
import re
import sys
from collections import Counter, defaultdict

args = sys.argv[1:]
opt = {"--allow-unnamed": []}
flags = set()
i = 0
while i < len(args):
    a = args[i]
    if a in ("-v", "--check"):
        flags.add(a)
        i += 1
        continue
    if a == "--allow-unnamed":
        opt[a].append(args[i + 1])
    else:
        opt[a] = args[i + 1]
    i += 2

fields = defaultdict(list)  # struct -> [(path, off, size)]
sizes = {}
embeds = defaultdict(list)  # struct -> [(path prefix, inner struct)]
objects = []  # (lo, hi, struct, base)
for line in open(opt["--out"]):
    w = line.split()
    if not w:
        continue
    if w[0] == "field":
        s, p = w[1].split(".", 1)
        fields[s].append((p, int(w[2]), int(w[3])))
    elif w[0] == "size":
        sizes[w[1]] = int(w[2])
    elif w[0] == "embed":
        s, p = w[1].split(".", 1)
        embeds[s].append((p, w[2]))
    elif w[0] == "object":
        base = int(w[2], 16)
        objects.append((base, base + sizes[w[1]], w[1], base))
    elif w[0] == "array":
        base, n = int(w[2], 16), int(w[3])
        objects.append((base, base + n * sizes[w[1]], w[1], None))
objects.sort()
los = [o[0] for o in objects]


def truth(addr):
    """The names that are right for a data address: a set of (struct, path)."""
    import bisect
    k = bisect.bisect_right(los, addr) - 1
    if k < 0:
        return None
    lo, hi, s, base = objects[k]
    if not lo <= addr < hi:
        return None
    if base is None:  # an array of s
        base = lo + (addr - lo) // sizes[s] * sizes[s]
    off = addr - base
    for p, o, z in fields[s]:
        if o <= off < o + z:
            names = {(s, p)}
            for pre, inner in embeds[s]:
                if p.startswith(pre + "."):
                    names.add((inner, p[len(pre) + 1:]))
            return names, "%s.%s" % (s, p)
    return {(s, "(padding)")}, "%s.(padding)" % s


samples = []  # (addr, symoff)
line_re = re.compile(r"^\s*([0-9a-f]+)\s.*\s([0-9a-f]+)\s+(\S+)\s+\(([^)]*)\)\s*$")
for line in open(opt["--script"]):
    m = line_re.match(line)
    if not m or m.group(4) != opt["--bin"]:
        continue
    samples.append((int(m.group(1), 16), m.group(3)))
judged = [(a, so, truth(a)) for a, so in samples]
judged = [(a, so, t) for a, so, t in judged if t]


def right(name, t):
    s, p = name
    for ts, tp in t[0]:
        if s != ts:
            continue
        if p == tp:
            return True
        # A name without the element's index ("hist[].n", "hist.n") or an
        # enclosing member ("hist", "node") is right, if coarser; a wrong
        # index is wrong.
        if re.search(r"\[\d+\]", p):
            continue
        bare, tbare = re.sub(r"\[[^]]*\]", "", p), re.sub(r"\[\d+\]", "", tp)
        if bare == tbare or tbare.startswith(bare + "."):
            return True
    return False


def tally(tool, answers):
    """answers: per judged sample, a (struct, path) or None."""
    r = w = u = 0
    bad = Counter()
    unallowed = 0
    for (a, so, t), ans in zip(judged, answers):
        if ans is None:
            u += 1
            bad[(so, t[1], "unnamed")] += 1
            if t[1] not in opt["--allow-unnamed"] and \
                    re.sub(r"\[\d+\]", "", t[1]) not in opt["--allow-unnamed"]:
                unallowed += 1
        elif right(ans, t):
            r += 1
        else:
            w += 1
            bad[(so, t[1], "%s.%s" % ans)] += 1
    print("%s right %d wrong %d unnamed %d" % (tool, r, w, u))
    if "-v" in flags:
        for (so, tr, got), n in sorted(bad.items()):
            print("  %-28s %-22s %5d  %s" % (so, tr, n, got))
    return w, unallowed


status = 0
if "--hitmap" in opt:
    d = json.load(open(opt["--hitmap"]))
    rows = []
    for l in d["lines"]:
        for f in l["fields"]:
            if f["object"] is None:
                continue
            rows.append([f["address"], f["address"] + f["size"], f["struct"], f["path"],
                         f["counts"]["samples"]])
    rows.sort()
    import bisect
    starts = [r[0] for r in rows]
    answers = []
    for a, so, t in judged:
        ans = None
        # rows are at most a few overlapping: look back a little
        k = bisect.bisect_right(starts, a) - 1
        while k >= 0 and k > bisect.bisect_right(starts, a) - 64:
            r = rows[k]
            if r[0] <= a < r[1] and r[4] > 0:
                r[4] -= 1
                ans = (r[2], r[3])
                break
            k -= 1
        answers.append(ans)
    w, u = tally("hitmap", answers)
    if "--check" in flags and (w or u):
        status = 1
if "--perf" in opt:
    per = defaultdict(Counter)
    for line in open(opt["--perf"]):
        if line.startswith("#") or not line.strip():
            continue
        m = re.match(r"^\s*[\d.]+%\s+(\d+)\s+(.*?)\s{2,}\[.\]\s+(\S+)\s+(.*)$", line)
        if not m:
            continue
        n, so, rest = int(m.group(1)), m.group(3), m.group(4)
        cols = re.split(r"\s{2,}", rest.strip())
        tm = re.match(r"^(.*) [+-](0x[0-9a-f]+|\d+) \((.*)\)$", cols[-1])
        if not tm or tm.group(1) == "(unknown)" or tm.group(3) == "no field":
            per[so][None] += n
        else:
            s = re.sub(r"^(struct|union|class) ", "", tm.group(1))
            per[so][(s, tm.group(3))] += n
    answers = []
    for a, so, t in judged:
        c = per.get(so)
        ans = None
        if c:
            k = max(c, key=lambda x: c[x])
            # take this sample's share from the instruction's answers
            for k2 in list(c):
                if c[k2] > 0:
                    k = k2
                    break
            c[k] -= 1
            ans = k
        answers.append(ans)
    tally("perf", answers)
sys.exit(status)
