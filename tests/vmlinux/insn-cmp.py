#!/usr/bin/env python3
"""Compare hitmap report --json with gdb's answer per site (insn-oracle.py).

usage: insn-cmp.py SITES ORACLE CATEGORY REPORT.json [CATEGORY REPORT.json...]

Each report was made from a generated perf.data holding one sample per site
of that oracle category (typed, offset, untyped, none), each at its own
data address; the field row a sample lands in is found by its IP (the row's
code locations).  A typed site agrees when hitmap names gdb's struct and the
same member path, or a prefix of gdb's or gdb's a prefix of its (union
members: hitmap and gdb may descend into different members of one union at
the same byte); it is wrong when hitmap names another struct or another
top-level member.  Sites of the other categories must stay unattributed,
except that a "none" site may be named through register tracking (the value
was copied from a variable before the access), counted apart.  Prints the
counts and one line per wrong answer; exit 1 on any wrong answer, an
attribution at an untyped or offset site, or agreement under 90 %."""
import json
import os
import sys

# the IPs in the recording are the sites' plus this (the KASLR shift of insn.test)
KASLR = int(os.environ.get("INSN_SHIFT", "0x2a000000"), 0)


def rows_by_ip(path):
    d = json.load(open(path))
    out = {}
    for line in d["lines"]:
        for f in line["fields"]:
            for loc in f.get("locations", []):
                out[(loc["ip"] - KASLR) & (2**64 - 1)] = (f["struct"], f["path"])
    return d["buckets"], out


def main():
    oracle = {}
    for line in open(sys.argv[2]):
        f = line.split()
        oracle[int(f[0], 16)] = f[1:]
    bad = 0
    summary = []
    for i in range(3, len(sys.argv), 2):
        cat, buckets, rows = sys.argv[i], *rows_by_ip(sys.argv[i + 1])
        n = agree = prefix = wrong = attributed = 0
        for pc, o in oracle.items():
            if o[0] != cat:
                continue
            n += 1
            got = rows.get(pc, (None, None))
            if got[0] is None:
                continue
            attributed += 1
            if cat != "typed":
                if cat in ("offset", "untyped"):
                    wrong += 1
                    print("0x%x: gdb %s, hitmap %s.%s" % (pc, " ".join(o), got[0], got[1]))
                continue
            want_s, want_p = o[2], o[3]
            if got[0] == want_s and got[1] == want_p:
                agree += 1
            elif got[0] == want_s and (got[1].startswith(want_p + ".") or
                                       want_p.startswith(got[1] + ".")):
                agree += 1
                prefix += 1
            else:
                wrong += 1
                print("0x%x: gdb %s.%s (%s), hitmap %s.%s" %
                      (pc, want_s, want_p, o[1], got[0], got[1]))
        un = {k: v for k, v in buckets.items() if v and k != "instruction"}
        s = "%s: sites %d attributed %d" % (cat, n, attributed)
        if cat == "typed":
            s += " agree %d (%.1f %%, %d by a union prefix) wrong %d" % (
                agree, 100.0 * agree / n if n else 0, prefix, wrong)
            if n and agree * 10 < n * 9:
                bad += 1
        elif cat not in ("offset", "untyped"):
            s += " (beyond gdb's view)"
        else:
            s += " wrong %d" % wrong
        s += " unattributed " + (" ".join("%s %d" % kv for kv in sorted(un.items())) or "-")
        summary.append(s)
        bad += wrong
    for s in summary:
        print(s)
    return 1 if bad else 0


sys.exit(main())
