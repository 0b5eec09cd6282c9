#!/usr/bin/env python3
"""Prove a layout text right or wrong with the compiler.

usage: bodycheck.py CC FIXTURE.c LAYOUT_TEXT NAME OUT.c

Turns the printed body of struct/union NAME into C (comments dropped, the
type renamed NAME__chk) and writes OUT.c: the fixture, that declaration, and
static assertions that the declared type has the fixture type's size,
alignment, and, member by member, the same offsets and (for named member
types) compatible types.  Then compiles OUT.c with CC and exits with the
compiler's status: 0 means the printed text is a faithful C declaration of
the type."""
import re
import subprocess
import sys

cc, fixture, text, name, out = sys.argv[1:6]
lines, body, kind = open(text, errors='replace').read().split('\n'), None, None
for i, l in enumerate(lines):
    m = re.match(r'^(struct|union) %s \{$' % re.escape(name), l)
    if m:
        kind = m.group(1)
        for j in range(i, len(lines)):
            if lines[j].startswith('}') and lines[j].endswith(';'):
                body = lines[i:j + 1]
                break
        break
if body is None:
    print('bodycheck: %s %s not found in %s' % ('type', name, text))
    sys.exit(2)
src = '\n'.join(body)
src = re.sub(r'/\*.*?\*/', '', src, flags=re.S)
src = src.replace('%s %s {' % (kind, name), '%s %s__chk {' % (kind, name), 1)
# top-level member names: lines indented by one tab ending in ';'
members = []
depth = 0
for l in src.split('\n'):
    s = l.strip()
    if depth == 1 and s.endswith(';') and ':' not in s and l.startswith('\t') \
            and not l.startswith('\t\t'):
        m = re.search(r'([A-Za-z_]\w*)\s*(\[[^;]*\])?\s*(__attribute__.*)?;$', s)
        if m and not s.startswith('}'):
            members.append((m.group(1), '(' not in s))
    if s.startswith('}') and depth == 2:
        m = re.search(r'([A-Za-z_]\w*)\s*(\[[^;]*\])?\s*;$', s)
        if m:
            members.append((m.group(1), False))
    depth += l.count('{') - l.count('}')
T, C = '%s %s' % (kind, name), '%s %s__chk' % (kind, name)
checks = ['_Static_assert(sizeof(%s) == sizeof(%s), "size");' % (C, T),
          '_Static_assert(_Alignof(%s) == _Alignof(%s), "alignment");' % (C, T)]
for m, typed in members:
    checks.append('_Static_assert(offsetof(%s, %s) == offsetof(%s, %s), "offset of %s");'
                  % (C, m, T, m, m))
    if typed:
        checks.append('_Static_assert(__builtin_types_compatible_p(__typeof__(((%s *)0)->%s), '
                      '__typeof__(((%s *)0)->%s)), "type of %s");' % (C, m, T, m, m))
with open(out, 'w') as f:
    f.write('#include <stddef.h>\n#include "%s"\n%s\n%s\n' % (fixture, src, '\n'.join(checks)))
r = subprocess.run([cc, '-std=gnu11', '-fsyntax-only', out], capture_output=True, text=True)
if r.returncode:
    err = [l for l in r.stderr.split('\n') if 'error' in l][:1]
    print('  %s: %s' % (out, err[0] if err else 'does not compile'))
sys.exit(r.returncode)
