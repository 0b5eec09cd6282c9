#!/usr/bin/env python3
"""Compare `hitmap layout --json` with `hitmap layout` (text) of the same
binary, member by member at every nesting level.

usage: jsontext.py TEXT JSON LABEL

The text is the pahole-compatible body (checked against pahole by
diff-pahole.sh), so it is the oracle: every struct of the text must be in the
JSON in the same order, and inside it every member the text prints with an
offset comment -- direct members, members of anonymous and named-member
nested types (`union {...} u;`), members of expanded named types with -E --
must appear as a JSON member at the same depth, in the same order, with the
same name, offset and size (an array whose element type the text prints
inline, `struct { int n; char c; } arr[3]`, with the members of its first
element); every "XXX N bytes hole" of the text must be a
JSON hole, in order.  Prints one line and exits 1 at the first difference."""
import json
import re
import sys

MEMBER = re.compile(r'^(\t+)(?!/\*)(\S.*?);\s+/\*\s+(\d+)(?::\s*\d+)?\s+(\d+) \*/$')
ANCESTOR = re.compile(r'^(\t+)/\* (?:struct|class|union) (\S.*?)\s+<ancestor>; \*/\s+'
                      r'/\*\s+(\d+|\?)\s+(\d+) \*/$')
OPEN = re.compile(r'^(\t+)(?:const |volatile )*(struct|union|class|enum)\b[^;]*\{$')
# -E: an expanded base class is a comment over several lines
ANC_OPEN = re.compile(r'^\t+/\* (?:struct|class|union) (.+?)(?: : .*)? \{$')
ANC_CLOSE = re.compile(r'^\t+\}<ancestor>; \*/\s+/\*\s+(\d+|\?)\s+(\d+) \*/$')
TYPEDEF_NOTE = re.compile(r'^(\t+)(?:/\* typedef [^*]*\*/ )+')
CLOSE = re.compile(r'^(\t+)\}(.*?);\s+/\*\s+(\d+)(?::\s*\d+)?\s+(\d+) \*/$')
TOP = re.compile(r'^(struct|union|class) (.+?)( : .*)? \{$')


ATTR = re.compile(r'__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)')


def member_name(decl):
    """The declarator's name; names() is the fallback for ones it cannot
    pick out (an array of function pointers)."""
    d = ATTR.sub('', decl).strip()
    fp = re.search(r'\((?:[\w:<>, ]*::)?\*+(?:const )?([\w.$]+)\)', d)
    if fp:
        return fp.group(1)
    d = re.sub(r':\d+$', '', d)
    m = re.search(r'([\w.$]+)(\[\d*\])*$', d)
    return m.group(1) if m else None


def text_structs(path):
    """[(name, members, holes)], members a list of [name, offset, size, children]."""
    out = []
    stack = None
    anc = None
    for line in open(path):
        line = line.rstrip('\n')
        line = TYPEDEF_NOTE.sub(r'\1', line)
        if anc is not None:
            if ANC_OPEN.match(line):
                anc_depth += 1
                continue
            m = ANC_CLOSE.match(line)
            if m:
                anc_depth -= 1
            if m and not anc_depth:
                off = None if m.group(1) == '?' else int(m.group(1))
                stack[-1].append([anc, off, int(m.group(2)), [], 'ancestor'])
                anc = None
            continue
        if stack is None:
            m = TOP.match(line)
            if m:
                top = []
                stack = [top]
                holes = [[]]
                name = m.group(2)
            continue
        if line == '};' or line.startswith('}'):
            out.append((name, top, holes[0]))
            stack = None
            continue
        h = re.search(r'XXX (\d+) bytes? hole', line)
        if h:
            holes[-1].append(int(h.group(1)))
            continue
        m = ANC_OPEN.match(line)
        if m:
            anc, anc_depth = m.group(1), 1
            continue
        m = OPEN.match(line)
        if m:
            kids = []
            stack[-1].append([None, None, None, kids, m.group(2)])
            stack.append(kids)
            holes.append([])
            continue
        m = CLOSE.match(line)
        if m and len(stack) > 1:
            stack.pop()
            inner = holes.pop()
            node = stack[-1][-1]
            rest = ATTR.sub('', m.group(2)).strip()
            nm = re.search(r'([\w.$]+)(\[\d*\])*(:\d+)?$', rest)
            node[0] = nm.group(1) if nm else None
            node[1], node[2] = int(m.group(3)), int(m.group(4))
            if rest.startswith('*') or node[4] == 'enum':
                # a pointer to an anonymous type (its body has the pointee's
                # own offsets), an enum: none of them has members in the
                # layout
                node[3] = []
                node[4] = 'leaf'
            elif not rest.endswith(']'):
                # an array's body is its first element's: its members are
                # listed, its holes repeat in every element and are not the
                # struct's
                holes[-1].extend(inner)
            continue
        m = ANCESTOR.match(line)
        if m:
            off = None if m.group(3) == '?' else int(m.group(3))
            stack[-1].append([m.group(2), off, int(m.group(4)), [], 'ancestor'])
            continue
        m = MEMBER.match(line)
        if m:
            stack[-1].append([member_name(m.group(2)), int(m.group(3)), int(m.group(4)), [],
                              'member', m.group(2)])
    return out


def json_tree(members):
    res = []
    for x in members:
        if x['name'] is None and not x.get('members') and x['bit_size']:
            continue  # an unnamed bitfield: the text prints no offset for it
        res.append([x['name'], x['offset'], x['size'], json_tree(x.get('members', []))])
    return res


def compare(label, where, t, j):
    for i in range(max(len(t), len(j))):
        if i >= len(t) or i >= len(j):
            extra = (t if len(t) > len(j) else j)[i]
            side = 'text' if len(t) > len(j) else 'json'
            return '%s: %s: only the %s has member %r' % (label, where, side, extra[:3])
        a, b = t[i], j[i]
        if a[1] is None:  # virtual base, offset unknown in the text
            a, b = [a[0], None, None, a[3], a[4]], [b[0], None, None, b[3]]
        if a[0] != b[0] and a[4] == 'member' and b[0] in re.findall(r'[\w.$]+', a[5]):
            a = [b[0]] + a[1:]
        if a[:3] != b[:3]:
            return '%s: %s: member %d is %r in the text, %r in the JSON' % (
                label, where, i, a[:3], b[:3])
        if a[4] == 'ancestor':
            continue  # a base class: the text lists no members of it
        err = compare(label, '%s.%s' % (where, a[0]), a[3], b[3])
        if err:
            return err
    return None


def main():
    text, js, label = sys.argv[1:4]
    ts = text_structs(text)
    doc = json.load(open(js))
    names = [s['name'] for s in doc['structs']]
    if [t[0] for t in ts] != names:
        print('%s: the text and the JSON list different structs' % label)
        return 1
    nmem = 0
    for (name, tm, th), s in zip(ts, doc['structs']):
        err = compare(label, name, tm, json_tree(s['members']))
        if err:
            print(err)
            return 1
        jh = [h['size'] for h in s['holes']]
        if th != jh:
            print('%s: %s: holes %r in the text, %r in the JSON' % (label, name, th, jh))
            return 1

        def count(ms):
            return sum(1 + count(m[3]) for m in ms)
        nmem += count(tm)
    print('%s: %d structs, %d members at every level equal' % (label, len(ts), nmem))
    return 0


if __name__ == '__main__':
    sys.exit(main())
