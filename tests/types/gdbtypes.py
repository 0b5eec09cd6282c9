#!/usr/bin/env python3
"""Compare hitmap's layout text with gdb, a second DWARF reader: for every
struct, class and union printed (the first block of each name, what -C NAME
prints), gdb looks the type up by the printed name through its Python API
(the type ptype /o prints: its sizeof, and the byte offset of every direct
base and data member), and the two must agree on the size, on each named
non-bitfield data member's offset and size, and on each non-virtual base's
offset.  Prints one line per type that
differs ("differs: NAME<TAB>what"), then "N types, M differ".

With --qualify TEXT, a plain name (an older hitmap's text) is looked up as
the first name in TEXT that spells it with a scope (load order is the same),
or as itself.

usage: gdbtypes.py HITMAP-TEXT BINARY [--qualify TEXT]"""
import json
import os
import re
import subprocess
import sys
import tempfile

LINE = re.compile(r'/\* +(\d+|\?) +(\d+) \*/$')
HEAD = re.compile(r'^(struct|class|union) (.*?)(?: : (.*))? \{$')


def blocks(path):
    """name -> (size, {member: offset}, {base: offset}) of the first block."""
    out, cur, depth = {}, None, 0
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if cur is None:
            m = HEAD.match(line)
            if m and m.group(2):
                cur = [m.group(2), None, {}, {}]
                depth = 0
            continue
        if line.startswith('}'):
            if cur[0] not in out and cur[1] is not None:
                out[cur[0]] = (cur[1], cur[2], cur[3])
            cur = None
            continue
        ind = len(line) - len(line.lstrip('\t'))
        s = line.strip()
        if s.endswith('{'):
            depth += 1
            continue
        if s.startswith('}'):
            depth -= 1
            continue
        m = re.search(r'/\* size: (\d+)', s)
        if m and ind == 1:
            cur[1] = int(m.group(1))
            continue
        r = LINE.search(s)
        if not r or ind != 1 or depth or r.group(1) == '?':
            continue
        a = re.match(r'/\* (?:class|struct|union) (.*?) +<ancestor>; \*/', s)
        if a:
            cur[3][a.group(1)] = int(r.group(1))
            continue
        code = s[:r.start()].strip()
        if not code.endswith(';') or re.search(r':\d+;$', code) or 'static ' in code:
            continue
        n = re.search(r'(\w+)(\[[^]]*\])*;$', code)
        if n and not code.startswith('/*'):
            cur[2][n.group(1)] = (int(r.group(1)), int(r.group(2)))
    return out


GDB_PY = r'''
import gdb, json
out = {}
for name in json.load(open(NAMES)):
    try:
        try:
            t = gdb.lookup_type(name).strip_typedefs()
        except gdb.error:	# a C struct tag
            t = gdb.parse_and_eval('(struct %s *)0' % name).type.target()
        mem, bases, vbases = {}, {}, []
        for f in t.fields():
            if f.is_base_class:
                if getattr(f, 'is_virtual', False) or getattr(f, 'bitpos', None) is None:
                    vbases.append(str(f.type))
                else:
                    bases[str(f.type.strip_typedefs())] = f.bitpos // 8
            elif getattr(f, 'bitpos', None) is not None and f.name and not f.bitsize and not f.artificial:
                mem[f.name] = [f.bitpos // 8, f.type.sizeof]
        out[name] = [t.sizeof, mem, bases]
    except Exception as e:
        out[name] = str(e)
json.dump(out, open(OUT, 'w'))
'''


def plain(name):
    """The name without its scope (hitmap spells a base as its members'
    types are spelt, pahole's way)."""
    depth, cut = 0, 0
    for i, ch in enumerate(name):
        if ch in '<(':
            depth += 1
        elif ch in '>)':
            depth -= 1
        elif not depth and name.startswith('::', i):
            cut = i + 2
    return name[cut:]


def main():
    hm, binary = sys.argv[1], sys.argv[2]
    bl = blocks(hm)
    names = sorted(bl)
    qual = {}
    if len(sys.argv) > 4 and sys.argv[3] == '--qualify':
        for q in blocks(sys.argv[4]):	# dicts keep the text's order
            qual.setdefault(plain(q), q)
    look = sorted(set(qual.get(n, n) for n in names))
    with tempfile.TemporaryDirectory() as d:
        nf, of, pf = (os.path.join(d, x) for x in ('names.json', 'out.json', 'q.py'))
        json.dump(look, open(nf, 'w'))
        open(pf, 'w').write('NAMES = %r\nOUT = %r\n' % (nf, of) + GDB_PY)
        subprocess.run(['gdb', '-nx', '-batch', '-ex', 'set pagination off',
                        '-ex', 'source ' + pf, binary],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        gd = json.load(open(of))
    bad = 0
    for name in names:
        size, mem, bases = bl[name]
        g = gd.get(qual.get(name, name))
        why = []
        if not isinstance(g, list):
            why.append('gdb: %s' % g)
        else:
            if g[0] != size:
                why.append('size %d, gdb %d' % (size, g[0]))
            for k, v in mem.items():
                if k in g[1] and tuple(g[1][k]) != v:
                    why.append('%s at %d size %d, gdb %d size %d' % ((k,) + v + tuple(g[1][k])))
                elif k not in g[1]:
                    why.append('%s: gdb has no such member' % k)
            gb = {plain(re.sub(r'^(class|struct|union) ', '', k)): v for k, v in g[2].items()}
            for k, v in bases.items():
                if k in gb and gb[k] != v:
                    why.append('base %s at %d, gdb %d' % (k, v, gb[k]))
        if why:
            bad += 1
            print('differs: %s\t%s' % (name, '; '.join(why)))
    print('%d types, %d differ' % (len(names), bad))


main()
