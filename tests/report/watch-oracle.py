"""Oracle for hitmap report on watchpoint data, from `perf script` output.

Reads `perf script -F event,cpu,time` lines (perf sorts them by time) and
replays the coherence model documented in hitmap-report(1):
  a write by CPU c to a line last written by another CPU is a transfer;
  a read by CPU c is a transfer when another CPU wrote the line since c
  last touched it.
Events: mem:ADDR:rw and mem:ADDR:w (mem:ADDR/LEN:... as hitmap record
names them).  A field with both kinds of breakpoint:
an rw sample next to a w sample of the same thread and IP is that write;
the other rw samples are reads.  A field with rw only: every access is
taken as a write.  Prints, per watched address, "ADDR samples reads writes
transfers" (the line of every address is ADDR & ~63)."""
import re
import sys

rows = []
for n, text in enumerate(sys.stdin):
    m = re.match(r'\s*(\d+)\s+\[(\d+)\]\s+([\d.]+):(?:\s+\d+)?\s+mem:(0x[0-9a-f]+)(?:/\d+)?:(rw|w):\s+([0-9a-f]+)', text)
    if not m:
        continue
    tid, cpu, t, addr, kind, ip = m.groups()
    rows.append(dict(tid=int(tid), cpu=int(cpu), t=t, addr=int(addr, 16), w=kind == 'w',
                     ip=ip, seq=n, drop=False))

has_w = {r['addr'] for r in rows if r['w']}
by_tid = sorted(rows, key=lambda r: (r['tid'], r['t'], r['seq']))
for i, r in enumerate(by_tid):
    if not r['w']:
        continue
    for j in (i - 1, i + 1):
        if 0 <= j < len(by_tid):
            o = by_tid[j]
            if not o['w'] and not o['drop'] and o['tid'] == r['tid'] and o['addr'] == r['addr'] and o['ip'] == r['ip']:
                o['drop'] = True
                break

stats = {}
lines = {}
for r in sorted(rows, key=lambda r: (r['t'], r['seq'])):
    if r['drop']:
        continue
    write = r['w'] or r['addr'] not in has_w
    s = stats.setdefault(r['addr'], [0, 0, 0, 0])
    s[0] += 1
    s[2 if write else 1] += 1
    st = lines.setdefault(r['addr'] & ~63, {'lw': None, 'holders': set()})
    c = r['cpu']
    if write:
        t = st['lw'] is not None and st['lw'] != c
        st['lw'] = c
        st['holders'] = {c}
    else:
        t = st['lw'] is not None and st['lw'] != c and c not in st['holders']
        st['holders'].add(c)
    s[3] += int(t)
for a in sorted(stats):
    print(hex(a), *stats[a])
