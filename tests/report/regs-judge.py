#!/usr/bin/env python3
"""Sample by sample, the field hitmap and perf 6.12 name on a timer
recording with sampled registers, against the truth.

usage: regs-judge.py OBJDUMP PERFSCRIPT PROGOUT PROGNAME NM REGSLOG JSON REPORT [-v]

The truth of a sample: the instruction the rule of hitmap(1), SAMPLED
REGISTERS, means (applied to objdump's instructions by regs-oracle.py), its
effective address from perf script's registers (PERFSCRIPT: perf script
--ns -F tid,time,ip,sym,symoff,dso,uregs), and the field at that address
from the program's printout (PROGOUT: "object STRUCT ADDR SIZE", "field
NAME OFF SIZE").  A sample is judged when that address is inside a printed
object.

hitmap: REGSLOG (report --regs-log) gives each sample's address, the JSON
report's field rows its name and instance (the row's address less its
offset).  Right: the truth's struct and field in the truth's instance;
wrong: any other name or instance; unnamed: no address or no row.

perf: REPORT (perf 6.12 report --stdio -n -s dso,symoff,type,typeoff)
names a type and offset per instruction, never an instance: each judged
sample takes one of its IP's answers.  Right: the truth's struct and field.

prints "TOOL right R wrong W unnamed U" per tool, hitmap's line with
"instance I" (samples named with the instance's address); -v adds the
wrong and unnamed samples by IP.
"""
import importlib.util
import json
import os
import re
import sys
from collections import Counter, defaultdict

spec = importlib.util.spec_from_file_location(
    'regs_oracle', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'regs-oracle.py'))
oracle = importlib.util.module_from_spec(spec)
spec.loader.exec_module(oracle)

args = [a for a in sys.argv[1:] if a != '-v']
verbose = '-v' in sys.argv[1:]
objdump, script, progout, prog, nm, log, hmjson, report = args[:8]

for line in open(nm):
    w = line.split()
    if len(w) == 4 and w[2] in 'tTwW':
        oracle.SIZED[w[3]] = (int(w[0], 16), int(w[1], 16))
funcs, where = oracle.parse_objdump(objdump)
syms = {name: ins[0][0] for name, ins in funcs.items() if ins}

objects, fields = [], []
for line in open(progout):
    w = line.split()
    if w and w[0] == 'object':
        objects.append((w[1], int(w[2], 16), int(w[3])))
    elif w and w[0] == 'field':
        fields.append((w[1], int(w[2]), int(w[3])))


def truth(ea):
    """(struct, field, base) of an address inside a printed object, or None."""
    for s, base, size in objects:
        if base <= ea < base + size:
            for f, off, fsize in fields:
                if off <= ea - base < off + fsize:
                    return (s, f, base)
            return (s, '(padding)', base)
    return None


judged = []  # (tid, time, symoff, truth)
for tid, t, ip, sym, off, link, regs in oracle.samples(script, prog, syms):
    rl, insn = oracle.rule(funcs, where, link)
    if not insn:
        continue
    tr = truth(oracle.effective(funcs, where, insn, regs, ip - link))
    if tr:
        judged.append((tid, t, '%s+0x%x' % (sym, off), tr))


def tally(tool, answers, extra=''):
    r = w = u = 0
    bad = Counter()
    for (tid, t, so, tr), (verdict, got) in zip(judged, answers):
        if verdict == 'right':
            r += 1
            continue
        if verdict == 'wrong':
            w += 1
        else:
            u += 1
        bad[(so, '%s.%s' % tr[:2], got)] += 1
    print('%s right %d wrong %d unnamed %d%s' % (tool, r, w, u, extra))
    if verbose:
        for (so, want, got), n in sorted(bad.items()):
            print('  %-24s %-16s %5d  %s' % (so, want, n, got))


# hitmap: the address of each sample, named by the row that holds it
hm = {}
for line in open(log):
    t, cpu, tid, ip, rl, pc, addr = line.split()
    hm[(int(tid), int(t))] = int(addr, 16)
rows = []
for ln in json.load(open(hmjson))['lines']:
    for f in ln['fields']:
        if f['object'] is not None and f['counts']['samples'] > 0:
            rows.append((f['address'], f['address'] + f['size'], f['struct'], f['path'],
                         f['address'] - f['offset']))
answers = []
instance = 0
for tid, t, so, tr in judged:
    a = hm.get((tid, t), 0)
    row = next((r for r in rows if r[0] <= a < r[1]), None) if a else None
    if row is None:
        answers.append(('unnamed', 'unnamed'))
        continue
    got = '%s.%s@%#x' % (row[2], row[3], row[4])
    if (row[2], row[3]) == tr[:2] and row[4] == tr[2]:
        answers.append(('right', got))
        instance += 1
    else:
        answers.append(('wrong', got))
tally('hitmap', answers, ' instance %d' % instance)

# perf 6.12: the answers of each instruction, one per sample
per = defaultdict(Counter)
parsed = 0
for line in open(report):
    if line.startswith('#') or not line.strip():
        continue
    # the dso column is left out when --dsos names one file
    m = re.match(r'^\s*[\d.]+%\s+(\d+)\s+(?:(.*?)\s{2,})?\[.\]\s+(\S+)\s+(.*)$', line)
    if not m:
        continue
    parsed += 1
    n, so, rest = int(m.group(1)), m.group(3), m.group(4)
    cols = re.split(r'\s{2,}', rest.strip())
    tm = re.match(r'^(.*) [+-](0x[0-9a-f]+|\d+) \((.*)\)$', cols[-1])
    if not tm or tm.group(1) == '(unknown)' or tm.group(3) == 'no field':
        per[so][None] += n
    else:
        per[so][(re.sub(r'^(struct|union|class) ', '', tm.group(1)), tm.group(3))] += n
if not parsed:
    sys.exit('regs-judge.py: no sample line in %s' % report)
answers = []
for tid, t, so, tr in judged:
    c = per.get(so)
    ans = None
    if c:
        ans = next((k for k in c if c[k] > 0), None)
        if ans is not None:
            c[ans] -= 1
    if ans is None:
        answers.append(('unnamed', 'unnamed'))
    elif ans == tr[:2]:
        answers.append(('right', '%s.%s' % ans))
    else:
        answers.append(('wrong', '%s.%s' % ans))
tally('perf', answers)
