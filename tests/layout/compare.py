#!/usr/bin/env python3
"""Compare hitmap's layout text with pahole's, type by type.

usage: compare.py body PAHOLE_OUT HITMAP_OUT EXCEPTIONS LABEL
       compare.py list PAHOLE_SIZES HITMAP_LIST EXCEPTIONS LABEL LINE_SIZE
       compare.py manifest FILE   (one of the above per line, tab-separated,
                                   without the EXCEPTIONS argument, which is
                                   given once as the first line)

body: both files hold one or more `struct|union|class NAME ... {` ... `};`
blocks.  hitmap's own lines (those starting with "/* hitmap: " after the
indentation) are removed first.  A union's summary comment block is removed
from hitmap's text too: pahole prints none for unions (a pahole fault that
pahole-faults.sh proves).  Types named in EXCEPTIONS are not compared here;
each one is checked by pahole-faults.sh.
list: `pahole --sizes` lines (name size holes) against `hitmap layout --list`
lines (name size cachelines holes): same names in the same order, same size
and holes, cachelines = ceil(size / LINE_SIZE).
Prints one summary line; exit 1 on any difference."""
import re
import sys

HEAD = re.compile(r'^(struct|union|class) (.*?)( : .*)? \{$')


def exceptions(path):
    names = set()
    for line in open(path):
        line = line.split('#', 1)[0].strip()
        if line:
            names.add(line.split('\t')[0].split()[0])
    return names


def blocks(path, strip_notes):
    out, cur, name, kind = [], None, None, None
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if strip_notes and line.lstrip('\t').startswith('/* hitmap: '):
            continue
        if cur is None:
            m = HEAD.match(line)
            if m:
                kind, name, cur = m.group(1), m.group(2), [line]
            continue
        cur.append(line)
        if line.startswith('}') and line.endswith(';'):
            out.append((kind, name, cur))
            cur = None
    return out


def drop_union_summary(lines):
    # the blank line and the comment lines before the closing brace
    end = len(lines) - 1
    i = end
    while i > 1 and lines[i - 1].startswith('\t/* '):
        i -= 1
    if i < end and i > 1 and lines[i - 1] == '':
        return lines[:i - 1] + lines[end:]
    return lines


def body(pa, hm, exc, label):
    exc = exceptions(exc)
    p, h = blocks(pa, False), blocks(hm, True)
    bad = 0
    if [b[1] for b in p] != [b[1] for b in h]:
        print('%s: type lists differ: pahole %d, hitmap %d' % (label, len(p), len(h)))
        sp, sh = [b[1] for b in p], [b[1] for b in h]
        print('  only pahole:', sorted(set(sp) - set(sh))[:10])
        print('  only hitmap:', sorted(set(sh) - set(sp))[:10])
        return 1
    compared = skipped = 0
    for (kind, name, pl), (_, _, hl) in zip(p, h):
        if name in exc:
            skipped += 1
            continue
        if kind == 'union':
            hl = drop_union_summary(hl)
        compared += 1
        if pl != hl:
            bad += 1
            print('%s: %s %s differs from pahole:' % (label, kind, name))
            for a, b in zip(pl + [''] * len(hl), hl + [''] * len(pl)):
                if a != b:
                    print('  pahole: %s\n  hitmap: %s' % (a, b))
                    break
    print('%s: %d types compared, %d exceptions, %d differ' % (label, compared, skipped, bad))
    return 1 if bad else 0


def listing(pa, hm, exc, label, line):
    exc = exceptions(exc)
    p = [l.rstrip('\n').split('\t') for l in open(pa) if l.strip()]
    h = [l.rstrip('\n').split('\t') for l in open(hm) if l.strip()]
    bad = 0
    if [x[0] for x in p] != [x[0] for x in h]:
        print('%s: --list names differ from pahole --sizes (%d vs %d)' % (label, len(h), len(p)))
        return 1
    for a, b in zip(p, h):
        if a[0] in exc:
            continue
        size, holes = int(a[1]), int(a[2])
        want = [a[0], str(size), str(holes), str((size + line - 1) // line)]
        if b != want:
            bad += 1
            if bad <= 20:
                print('%s: --list %s: hitmap %s, pahole %s' % (label, a[0], b, a))
    print('%s: %d list lines compared, %d differ' % (label, len(p), bad))
    return 1 if bad else 0


def manifest(path):
    lines = [l.rstrip('\n').split('\t') for l in open(path) if l.strip()]
    exc, status, total = lines[0][0], 0, 0
    for a in lines[1:]:
        if a[0] == 'body':
            status |= body(a[1], a[2], exc, a[3])
        else:
            status |= listing(a[1], a[2], exc, a[3], int(a[4]))
        total += 1
    print('%d comparisons, %s' % (total, 'all equal' if not status else 'DIFFERENCES'))
    return status


if __name__ == '__main__':
    if sys.argv[1] == 'manifest':
        sys.exit(manifest(sys.argv[2]))
    if sys.argv[1] == 'body':
        sys.exit(body(*sys.argv[2:6]))
    sys.exit(listing(*sys.argv[2:6], int(sys.argv[6])))
