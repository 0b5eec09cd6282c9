#!/usr/bin/env python3
"""What `hitmap diff` summarises, derived from two pahole printouts alone
(pahole -F dwarf --suppress_force_paddings VMLINUX, old and new).

Prints one line "COMPARED CHANGED ONLY_OLD ONLY_NEW" and then, for each
named type T given after the two files (without any: each root cause, a
changed type whose change is its own and moves others, ranked as hitmap
ranks them), "T OLD_SIZE NEW_SIZE MOVED": MOVED
is the number of compared structs (or unions) other than T that changed
and hold T by value at any depth (a member spelt "struct T" or "union T",
arrays included, anonymous members looked into); changed means a different
size or a member at a different offset or size.  A name defined several
times (static structs of one name) pairs its definitions in the order
pahole prints them, the order of the units; it counts once in the "only
in" counts."""
import re
import sys

HEAD = re.compile(r'^(struct|union) ([A-Za-z0-9_]+) \{$')
MEMBER = re.compile(r'^\t+(.*?)\s*/\*\s+(\d+)(?::\s*(\d+))?\s+(\d+)\s+\*/$')
SIZE = re.compile(r'/\* size: (\d+),')
HELD = re.compile(r'^(?:const |volatile )*(struct|union) ([A-Za-z0-9_]+)\s+[A-Za-z0-9_]+'
                  r'(\[[0-9\]\[]*)?( __attribute__.*)?;$')


def parse(path):
    defs = {}
    cur = None
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = HEAD.match(line)
            if m and cur is None:
                cur = {'name': m.group(2), 'size': None, 'members': [], 'held': set()}
                continue
            if cur is None:
                continue
            if line.startswith('}'):	# "};" or "} __attribute__((...));"
                defs.setdefault(cur['name'], []).append(cur)
                cur = None
                continue
            m = SIZE.search(line)
            if m and line.startswith('\t/*'):
                cur['size'] = int(m.group(1))
                continue
            m = MEMBER.match(line)
            if m:
                decl = m.group(1)
                cur['members'].append((decl, int(m.group(2)), m.group(3), int(m.group(4))))
                h = HELD.match(decl)
                if h:
                    cur['held'].add(h.group(2))
    return defs


def differs(a, b):
    return a['size'] != b['size'] or a['members'] != b['members']


def main():
    old, new = parse(sys.argv[1]), parse(sys.argv[2])
    roots = sys.argv[3:]
    # definitions of one name pair in the order pahole prints them (the
    # order of the units, the same in two builds of one source)
    pairs = [(n, i, o, d) for n, ds in new.items() if n in old
             for i, (o, d) in enumerate(zip(old[n], ds))]
    changed = [(n, i) for n, i, o, d in pairs if differs(o, d)]
    print(len(pairs), len(changed), sum(1 for n in old if n not in new),
          sum(1 for n in new if n not in old))
    held = {}
    for n, ds in new.items():
        for i, d in enumerate(ds):
            held[(n, i)] = d['held']
    if not roots:
        roots = sorted({n for n, i in changed if own_change(old, new, n, i, changed)})
    out = []
    for t in roots:
        moved = 0
        for s in changed:
            if s[0] == t:
                continue
            seen, todo = set(), [s[0]]
            first = True
            while todo:
                x = todo.pop()
                if x in seen:
                    continue
                seen.add(x)
                # the struct's own definition, then every definition of
                # what it holds
                hs = held[s] if first else set().union(
                    *(held[(x, i)] for i in range(len(new.get(x, ())))))
                first = False
                todo.extend(hs)
            moved += t in seen
        out.append((-moved, t, old[t][0]['size'], new[t][0]['size'], moved))
    # as hitmap ranks them: most moved first, then by name; moving none,
    # a change is no one else's cause
    for _, t, a, b, moved in sorted(out):
        if moved or sys.argv[3:]:
            print(t, a, b, moved)


def member_names(d):
    return [re.sub(r'[\[:;].*', '', m[0].split()[-1]).lstrip('*') for m in d['members']]


def own_change(old, new, n, i, changed):
    """A change of its own: a member added or removed, or resized other
    than by a changed struct type it holds (an array's element included)."""
    o, d = old[n][i], new[n][i]
    on, nn = member_names(o), member_names(d)
    if sorted(on) != sorted(nn):
        return True
    cn = {x for x, _ in changed}
    osz = dict(zip(on, o['members']))
    for name, m in zip(nn, d['members']):
        om = osz[name]
        if om[3] == m[3]:
            continue
        h = HELD.match(m[0])
        if not h or h.group(2) not in cn:
            return True
    return o['size'] != d['size'] and not any(
        osz[name][3] != m[3] for name, m in zip(nn, d['members']))

main()
