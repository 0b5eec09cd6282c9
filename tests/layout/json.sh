#!/bin/sh
# hitmap layout --json: the "hitmap/1" document's structure (validated against
# layout-schema.json, the schema of hitmap-layout(1), with python3-jsonschema),
# and every value checked against what the same hitmap prints as text (itself
# checked against pahole by diff-pahole.sh) and against readelf for the binary
# fields.
. "$top_srcdir/tests/lib.sh"
require readelf binutils
fix=$TESTS_SRC/fixtures
build_fixture "$fix/mm_v2.c" "$T/mm" "${CC:-gcc}" 5 -O2
build_fixture "$fix/groups.c" "$T/groups" "${CC:-gcc}" 5 -O2
for b in mm groups; do
	"$HITMAP" layout "$T/$b" >"$T/$b.txt" || fail "$b: text"
	"$HITMAP" layout --json "$T/$b" >"$T/$b.json" || fail "$b: --json"
	"$HITMAP" layout --list "$T/$b" >"$T/$b.list" || fail "$b: --list"
	"$HITMAP" layout --list --json "$T/$b" >"$T/$b.ljson" || fail "$b: --list --json"
	readelf -n "$T/$b" | sed -n 's/.*Build ID: *//p' >"$T/$b.bid"
done
python3 - "$T" "$TESTS_SRC/layout/layout-schema.json" <<'PY' || fail "JSON does not match the text output"
import json, re, sys
T = sys.argv[1]

def text_blocks(path):
    out, cur, name = {}, None, None
    for l in open(path):
        l = l.rstrip('\n')
        m = re.match(r'^(struct|union|class) (\S+)( : .*)? \{$', l)
        if m:
            name, cur = m.group(2), []
            continue
        if cur is not None:
            if l.startswith('}'):
                out[name] = cur
                cur = None
            else:
                cur.append(l)
    return out

def check(b):
    doc = json.load(open('%s/%s.json' % (T, b)))
    assert doc['schema'] == 'hitmap/1'
    bi = doc['binary']
    assert bi['path'].endswith('/' + b) and bi['arch'] == 'x86_64', bi
    assert bi['cacheline_size'] == 64          # x86-64 ELF machine
    assert bi['build_id'] == open('%s/%s.bid' % (T, b)).read().strip(), bi
    text = text_blocks('%s/%s.txt' % (T, b))
    assert [s['name'] for s in doc['structs']] == list(text), 'same types, same order'
    for s in doc['structs']:
        lines = text[s['name']]
        summ = ' '.join(l.strip() for l in lines if l.startswith('\t/* '))
        m = re.search(r'size: (\d+), cachelines: (\d+), members: (\d+)', summ)
        assert m and (s['size'], s['cachelines']) == (int(m.group(1)), int(m.group(2))), s['name']
        assert len(s['members']) == int(m.group(3)), s['name']
        pad = re.search(r'/\* padding: (\d+) \*/', summ)
        assert s['padding'] == (int(pad.group(1)) if pad else 0), s['name']
        assert s['kind'] in ('struct', 'union', 'class')
        assert isinstance(s['decl_line'], int) and s['decl_file'].endswith('.c') or s['decl_file'].endswith('.h')
        # direct members: name, offset, size as the text prints them
        tm = []
        for l in lines:
            mm = re.match(r'^\t(?!/\*)(\S.*?);\s+/\*\s+(\d+)\s+(\d+) \*/$', l)
            if not mm:
                continue
            d = re.sub(r' __attribute__.*', '', mm.group(1))
            fp = re.search(r'\(\*+(\w+)', d)
            nm = fp.group(1) if fp else re.search(r'(\w+)(\[\d*\])*$', d).group(1)
            tm.append((nm, int(mm.group(2)), int(mm.group(3))))
        jm = [(x['name'], x['offset'], x['size']) for x in s['members']]
        assert jm == tm, (s['name'], jm, tm)
        for x in s['members']:
            assert x['cacheline'] == x['offset'] // 64
            assert x['straddles'] == (x['size'] > 0 and x['offset'] // 64 != (x['offset'] + x['size'] - 1) // 64)
            assert x['alignment'] >= 1 and isinstance(x['type'], str)
        # holes: each "XXX N bytes hole" comment, after the member above it
        th = [int(n) for n in re.findall(r'XXX (\d+) bytes? hole', '\n'.join(lines))]
        assert [h['size'] for h in s['holes']] == th, (s['name'], s['holes'], th)
        for h in s['holes']:
            after = [x for x in s['members'] if x['name'] == h['after']][0]
            assert h['offset'] == after['offset'] + after['size'], h
    lst = [l.rstrip('\n').split('\t') for l in open('%s/%s.list' % (T, b))]
    ldoc = json.load(open('%s/%s.ljson' % (T, b)))
    assert ldoc['schema'] == 'hitmap/1' and ldoc['binary'] == bi
    assert [[x['name'], str(x['size']), str(x['holes']), str(x['cachelines'])]
            for x in ldoc['structs']] == lst
    return doc

try:
    import jsonschema
    schema = json.load(open(sys.argv[2]))
    for b in ('mm', 'groups'):
        for suffix in ('json', 'ljson'):
            jsonschema.validate(json.load(open('%s/%s.%s' % (T, b, suffix))), schema)
    print('json: documents valid against layout-schema.json')
except ImportError:
    print('json: python3-jsonschema not installed, schema validation not run')

check('mm')
g = check('groups')
# groups.c: begin/end marker offsets as the text prints them
nd = [s for s in g['structs'] if s['name'] == 'netdev_like'][0]
off = {x['name']: x['offset'] for x in nd['members']}
want = []
for n in ('read_tx', 'write_rx', 'read_rx'):
    b, e = off['__cacheline_group_begin__' + n], off['__cacheline_group_end__' + n]
    want.append({'name': n, 'offset': b, 'size': e - b, 'aligned': n == 'write_rx',
                 'terminated': True})
assert nd['groups'] == want, nd['groups']
assert [(x['name'], x['offset'], x['size']) for x in nd['groups']] == \
    [('read_tx', 0, 18), ('write_rx', 64, 12), ('read_rx', 76, 4)]   # groups.c header
sk = [s for s in g['structs'] if s['name'] == 'sock_like'][0]
assert [(x['name'], x['terminated']) for x in sk['groups']] == \
    [('sock_write_rx', True), ('sock_read_tx', False)], sk['groups']
print('json: ok')
PY
