#!/usr/bin/env python3
"""Compile hitmap's text back: every struct and union it prints becomes C
again, and the compiler says whether that C has the layout of the original.

usage: compileback.py CC TEXT JSON OUT.c FIXTURE.c...

For every type of TEXT (hitmap layout's pahole-compatible body) the body is
turned into C -- comments dropped, the type renamed NAME__chk -- after the
fixture sources, which provide the dependencies (the named types and
typedefs the body uses).  Then static assertions, one per fact:

  sizeof and _Alignof of NAME__chk equal those of the original;
  for every member the JSON lists, at every level (its dotted path, the
  C member designator: anonymous levels have no name), offsetof in the
  copy equals offsetof in the original and the offset hitmap printed;
  for bitfields, which offsetof cannot take, the copy is compared as a
  whole by the size and alignment checks.

OUT.c is compiled with `CC -std=gnu11 -fsyntax-only`; the exit status is
the compiler's, its first error names the type and the fact."""
import json
import re
import subprocess
import sys

cc, text, js, out = sys.argv[1:5]
fixtures = sys.argv[5:]


def bodies(path):
    res, cur, name = {}, None, None
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if cur is None:
            m = re.match(r'^(struct|union) (\w+) \{$', line)
            if m:
                cur, name, kind = [line], m.group(2), m.group(1)
            continue
        cur.append(line)
        if line.startswith('}') and line.endswith(';'):
            src = '\n'.join(cur)
            src = re.sub(r'/\*.*?\*/', '', src, flags=re.S)
            src = src.replace('%s %s {' % (kind, name), '%s %s__chk {' % (kind, name), 1)
            # an inline enum's enumerators would be declared twice
            src = re.sub(r'(?m)^(\t+)(\w+)(\s*= -?\d+,)$', r'\1\2__chk\3', src)
            res[name] = (kind, src)
            cur = None
    return res


def paths(members, prefix, acc):
    for m in members:
        p = prefix
        if m['name'] is not None:
            p = (prefix + '.' if prefix else '') + m['name']
        if m['name'] is not None and not m['bit_size'] and m['size'] > 0:
            acc.append((p, m['offset']))
        # an array's members are its first element's (hitmap-layout(1))
        paths(m.get('members', []), p + '[0]' if m['type'].endswith(']') else p, acc)
    return acc


body = bodies(text)
doc = json.load(open(js))
lines = ['#include <stddef.h>'] + ['#include "%s"' % f for f in fixtures]
checks = []
n = 0
for s in doc['structs']:
    name = s['name']
    if name not in body:
        continue
    kind, src = body[name]
    lines.append(src)
    T, C = '%s %s' % (kind, name), '%s %s__chk' % (kind, name)
    checks.append('_Static_assert(sizeof(%s) == sizeof(%s), "%s: sizeof");' % (C, T, name))
    checks.append('_Static_assert(_Alignof(%s) == _Alignof(%s), "%s: alignment");'
                  % (C, T, name))
    checks.append('_Static_assert(sizeof(%s) == %d, "%s: printed size");' % (T, s['size'], name))
    for p, off in paths(s['members'], '', []):
        checks.append('_Static_assert(offsetof(%s, %s) == offsetof(%s, %s), "%s.%s: offset");'
                      % (C, p, T, p, name, p))
        checks.append('_Static_assert(offsetof(%s, %s) == %d, "%s.%s: printed offset");'
                      % (T, p, off, name, p))
    n += 1
with open(out, 'w') as f:
    f.write('\n'.join(lines + checks) + '\n')
r = subprocess.run([cc, '-std=gnu11', '-fsyntax-only', out], capture_output=True, text=True)
if r.returncode:
    err = [l for l in r.stderr.split('\n') if 'error' in l][:3]
    print('%s: %s' % (out, '\n  '.join(err) if err else 'does not compile'))
else:
    print('%s: %d types, %d facts compile back with %s' % (out, n, len(checks), cc))
sys.exit(r.returncode)
