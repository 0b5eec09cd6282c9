#!/usr/bin/env python3
"""Check hitmap's pahole-1.26 lines against pahole 1.24's own numbers.

usage: member-holes.py PAHOLE_TEXT HITMAP_TEXT LABEL

pahole 1.26 adds, after a member of struct type, the holes of that type
("XXX last struct has ..., 2 holes") and, in the summary, "member types with
holes: N, total: M" (N members whose struct type has holes, M their holes);
hitmap prints them as "/* hitmap: " lines.  For every struct whose struct
members are all of named types, the numbers must be those pahole 1.24
prints in the summaries of the member types themselves ("holes: K",
"bit holes: B")."""
import re
import sys


def blocks(path):
    out, cur, name = {}, None, None
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if cur is None:
            m = re.match(r'^(struct|class) (.+?)( : .*)? \{$', line)
            if m:
                name, cur = m.group(2), []
            continue
        if line.startswith('}'):
            out.setdefault(name, cur)
            cur = None
        else:
            cur.append(line)
    return out


pa, hm, label = blocks(sys.argv[1]), blocks(sys.argv[2]), sys.argv[3]


def holes_of(name):
    summ = ' '.join(pa.get(name, []))
    h = re.search(r'sum members: \d+, holes: (\d+)', summ)
    b = re.search(r'bit holes: (\d+), sum bit holes', summ)
    return (int(h.group(1)) if h else 0, int(b.group(1)) if b else 0)


checked = 0
for name, lines in hm.items():
    top = [l for l in lines if re.match(r'^\t[^\t]', l)]
    if any(re.match(r'^\t(struct|union|class) \{', l) or l == '\t{' for l in top):
        continue  # an inline anonymous member: its holes are not a named type's
    want_lines, nh, th, nb, tb = [], 0, 0, 0, 0
    for l in top:
        m = re.match(r'^\t(?:struct|class) (\S+?)\s+\w+(\[\d+\])*;', l)
        if not m or m.group(2) or m.group(1) not in pa:  # an array is not a struct
            continue
        h, b = holes_of(m.group(1))
        if h or b:
            parts = []
            if h:
                parts.append('%d hole%s' % (h, 's' if h != 1 else ''))
            if b:
                parts.append('%d bit hole%s' % (b, 's' if b != 1 else ''))
            want_lines.append('/* hitmap: last struct has %s */' % ', '.join(parts))
        if h:
            nh, th = nh + 1, th + h
        if b:
            nb, tb = nb + 1, tb + b
    got_lines = [l.strip() for l in top if l.startswith('\t/* hitmap: last struct has')]
    if got_lines != want_lines:
        print('%s: %s: %r, pahole says %r' % (label, name, got_lines, want_lines))
        sys.exit(1)
    want = None
    if nh or nb:
        parts = []
        if nh:
            parts.append('%d, total: %d' % (nh, th))
        if nb:
            parts.append('bit holes: %d, total: %d' % (nb, tb))
        want = '/* hitmap: member types with holes: %s */' % ', '.join(parts)
    got = [l.strip() for l in top if 'member types with holes' in l]
    if got != ([want] if want else []):
        print('%s: %s: summary %r, pahole says %r' % (label, name, got, want))
        sys.exit(1)
    checked += 1
print('%s: %d structs: member type holes as pahole counts them' % (label, checked))
