#!/usr/bin/env python3
"""Oracle for tests/report/kmem.sh, from the real perf script and pahole.

  kmem-oracle.py pick SCRIPT PAHOLE_DIR PLAN [early]
      SCRIPT: `perf script -F time,event,trace --ns` of a kmem recording.
      PAHOLE_DIR: `pahole -C TYPE` printouts, one file per TYPE.
      Chooses objects live for a while (filp, sock_inode_cache and
      names_cache), a pointer member of each one's type (the deepest field
      there is the member itself), and a kernel address inside no live
      object; writes PLAN (JSON) and prints kmem-inject's ADDR@TIME:CPU specs.
      early: each sample is written in the file before the records of its
      object's allocation (in an object) or free (in no live object), its
      time still after them: ADDR@TIME:CPU=POS.
  kmem-oracle.py order PLAN DUMP
      DUMP: `perf report -D` of the injected file (records in file order).
      Each planned sample of an early PLAN is in the file before the kmem
      record at its 'pos' time (its object's allocation or free), its own
      time after it.
  kmem-oracle.py check PLAN REPORT_JSON
      Every planned sample is named TYPE@0xBASE.path with strategy
      kmem-cache and its allocation's cache and call site; the address in
      no live object is in no field.
"""
import json
import re
import sys

EV = re.compile(r'^\s*(\d+)\.(\d+):\s+kmem:(\w+):\s+(.*)$')
KV = re.compile(r'(\w+)=(\S+)')
MEMBER = re.compile(r'^\t(?!\t)(.*[*]\s*)(\w+);\s+/\*\s+(\d+)\s+(\d+)\s+\*/')

# The cache's type: the table hitmap documents (filp, sock_inode_cache)
# and what the test gives --type-of-cache (names_cache: struct filename,
# which getname() takes from it).
CACHES = {'filp': 'file', 'sock_inode_cache': 'socket_alloc', 'names_cache': 'filename'}
# Where the member is looked up: socket_alloc starts with its struct socket.
MEMBER_OF = {'file': ('file', ''), 'socket_alloc': ('socket', 'socket.'),
             'filename': ('filename', '')}


def events(path):
    out = []
    for line in open(path):
        m = EV.match(line)
        if not m:
            continue
        t = int(m.group(1)) * 10**9 + int(m.group(2).ljust(9, '0')[:9])
        kv = dict(KV.findall(m.group(4)))
        out.append((t, m.group(3), kv))
    return sorted(out, key=lambda e: e[0])


def lifetimes(evs):
    """Objects as (base, size, cache, site, t_alloc, t_free or None)."""
    live, objs = {}, []
    for t, name, kv in evs:
        ptr = int(kv.get('ptr', '0').replace('(nil)', '0'), 16)
        if name in ('kmem_cache_free', 'kfree'):
            if ptr in live:
                objs[live.pop(ptr)][5] = t
        elif name in ('kmem_cache_alloc', 'kmalloc') and ptr:
            if ptr in live:
                objs[live.pop(ptr)][5] = t
            live[ptr] = len(objs)
            objs.append([ptr, int(kv['bytes_alloc']), kv.get('name'), kv['call_site'], t, None])
    return objs


def live_at(objs, addr, t):
    return [o for o in objs if o[0] <= addr < o[0] + o[1] and o[4] <= t and
            (o[5] is None or t < o[5])]


def pointer_members(path):
    out = []
    for line in open(path):
        m = MEMBER.match(line)
        if m and '(' not in m.group(1):
            out.append((m.group(2), int(m.group(3))))
    return out


def pick(script, pdir, plan_path, early=None):
    evs = events(script)
    objs = lifetimes(evs)
    end = evs[-1][0] if evs else 0
    plan = {'samples': [], 'outside': []}
    for cache, typ in CACHES.items():
        member_type, prefix = MEMBER_OF[typ]
        members = pointer_members('%s/%s' % (pdir, member_type))
        if len(members) < 2:
            sys.exit('pahole -C %s: fewer than two pointer members' % member_type)
        # the newest object that lives long enough for two samples
        cands = [o for o in objs if o[2] == cache and ((o[5] or end + 10**6) - o[4]) > 4]
        if not cands:
            sys.exit('perf script shows no lasting %s object' % cache)
        o = cands[-1]
        name, off = members[1]
        t = o[4] + 1
        addr = o[0] + off + 3
        # another live object there would make the answer another's
        assert len(live_at(objs, addr, t)) == 1, (cache, hex(addr))
        plan['samples'].append({'cache': cache, 'type': typ, 'base': o[0], 'addr': addr,
                                'time': t, 'path': prefix + name, 'site': o[3],
                                'pos': o[4]})
    # an address in no live object: a freed object's, after its free,
    # before anything is allocated over it again
    # (and not in a sampled object's range: the report's fields say where,
    # not when)
    taken = [(x[0], x[0] + x[1]) for x in objs
             if any(x[0] == s['base'] for s in plan['samples'])]
    for o in reversed(objs):
        if o[5] is not None and not live_at(objs, o[0] + 8, o[5] + 1) and \
                not live_at(objs, o[0] + 8, o[5] + 2) and \
                not any(lo <= o[0] + 8 < hi for lo, hi in taken):
            plan['outside'].append({'addr': o[0] + 8, 'time': o[5] + 1, 'pos': o[5]})
            break
    if not plan['outside']:
        sys.exit('perf script shows no freed object to sample after its free')
    json.dump(plan, open(plan_path, 'w'))
    for s in plan['samples'] + plan['outside']:
        pos = '=%d' % s['pos'] if early else ''
        print('0x%x@%d:0%s 0x%x@%d:1%s' % (s['addr'], s['time'], pos, s['addr'],
                                           s['time'] + 1, pos))


DUMP = re.compile(r'^\d+ (\d+) (0x[0-9a-f]+) \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE.* addr: (\S+)')


def order(plan_path, dump):
    plan = json.load(open(plan_path))
    recs = []
    for line in open(dump):
        m = DUMP.match(line)
        if m:
            recs.append((int(m.group(1)), int(m.group(2), 16), int(m.group(3), 16)))
    bad = []
    for s in plan['samples'] + plan['outside']:
        kmem = [off for t, off, addr in recs if t == s['pos'] and addr == 0]
        mine = [(t, off) for t, off, addr in recs if addr == s['addr']]
        if not kmem or len(mine) != 2:
            bad.append('0x%x: %d kmem records at %d, %d samples' % (s['addr'], len(kmem),
                                                                    s['pos'], len(mine)))
        elif any(off > min(kmem) or t <= s['pos'] for t, off in mine):
            bad.append('0x%x: samples %s, kmem record at offset 0x%x, time %d' %
                       (s['addr'], mine, min(kmem), s['pos']))
    if bad:
        sys.exit('\n'.join(bad))


def check(plan_path, report):
    plan = json.load(open(plan_path))
    d = json.load(open(report))
    fields = [f for l in d['lines'] for f in l['fields'] if f['object']]
    bad = []
    for s in plan['samples']:
        obj = '%s@0x%x' % (s['type'], s['base'])
        got = [f for f in fields if f['object'] == obj and f['path'] == s['path']]
        if len(got) != 1:
            bad.append('%s.%s: not in the report (fields: %s)' %
                       (obj, s['path'], [(f['object'], f['path']) for f in fields]))
            continue
        f = got[0]
        if f['strategy'] != 'kmem-cache' or f['counts']['samples'] != 2:
            bad.append('%s.%s: strategy %s, %d samples' % (obj, s['path'], f['strategy'],
                                                           f['counts']['samples']))
        al = f.get('allocation') or {}
        if al.get('cache') != s['cache'] or al.get('base') != s['base']:
            bad.append('%s.%s: allocation %s' % (obj, s['path'], al))
        if s['site'].startswith('0x') and al.get('site_address') != int(s['site'], 16):
            bad.append('%s.%s: site %s, perf script says %s' % (obj, s['path'],
                                                                al.get('site_address'), s['site']))
    want = 2 * len(plan['samples'])
    if d['buckets']['kmem-cache'] != want:
        bad.append('kmem-cache bucket %d, want %d' % (d['buckets']['kmem-cache'], want))
    for s in plan['outside']:
        for f in fields:
            if f['address'] <= s['addr'] < f['address'] + max(f['size'], 1):
                bad.append('0x%x (no live object) named %s.%s' % (s['addr'], f['object'],
                                                                 f['path']))
    if d['samples'] != want + 2 * len(plan['outside']):
        bad.append('%d samples, want %d' % (d['samples'], want + 2 * len(plan['outside'])))
    if bad:
        sys.exit('\n'.join(bad))
    print('ok: %d objects named, %d address outside' % (len(plan['samples']),
                                                       len(plan['outside'])))


if __name__ == '__main__':
    if sys.argv[1] == 'pick':
        pick(*sys.argv[2:6])
    elif sys.argv[1] == 'order':
        order(*sys.argv[2:4])
    else:
        check(*sys.argv[2:4])
