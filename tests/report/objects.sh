#!/bin/sh
# Instances and containers, from real recordings (hardware watchpoints,
# hitmap record --watch, at the addresses a first run without ASLR printed)
# of tests/report/objects.c:
#  - lock: a struct embedding a pthread_mutex_t, taken in turn by two
#    threads that bump the counters it guards.  glibc's pthread_mutex_lock
#    sees only a `pthread_mutex_t *` (libc6-dbg's DWARF): the lock word is
#    named by the embedding struct, outer@BASE.lock.__data.__lock, on one
#    instance line with the counters, verdict true sharing.
#  - many: four objects of one type, one per line, each written by one
#    thread, at .x or .y by turns: four instances, each line private, no
#    false sharing although by type x and y are written by two CPUs.
#  - helper: a spinlock of the fixture's own embedded in struct guarded,
#    taken through spin_take(struct spin *) and released through the
#    struct guarded * with the counter it guards: the lock word, seen
#    through both types, is one row, guarded@BASE.lk.word, with the samples
#    of both functions, next to guarded@BASE.count, verdict true sharing.
#  - pun: a struct pair pointer 8 bytes into a struct box, which has no
#    pair member there: the pair's field is in an unknown container.
# Oracles: the fixture's printout (addresses, offsetof, sizeof) and perf
# script's sample addresses and symbols.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require_watchpoints
require setarch util-linux

# watch OUT BIN MODE ADDR/LEN...: record BIN MODE with write watchpoints.
watch() {
	out=$1 bin=$2 mode=$3; shift 3
	args=
	for w in "$@"; do args="$args --watch $w:w"; done
	if ! "$HITMAP" record -q $args -o "$out" -- setarch -R "$bin" "$mode" >"$T/out2" \
		2>"$T/rec.err"; then
		grep -q -e "not supported by this kernel" -e "no free debug register" \
			-e "permission denied" "$T/rec.err" &&
			skip "the kernel refuses hardware breakpoint events: $(head -1 "$T/rec.err")"
		cat "$T/rec.err" >&2
		fail "hitmap record --watch failed"
	fi
	assert_eq "$(grep '^object' "$T/out1")" "$(grep '^object' "$T/out2")" \
		"$cc: object addresses of two runs under setarch -R"
}

# wide_ips DATA: the sampled IPs (watchpoints trap after the access) whose
# instruction before them is a vector move of 16 or 32 bytes to or from
# memory, by objdump from the IP's symbol to the IP.  Such a store of two
# fields trips the watchpoint on each at the watched address, which is then
# not the access's start: which field and which instance is not known.
wide_ips() {
	perf script -i "$1" --show-mmap-events -F ip,sym,symoff,dso 2>/dev/null | python3 -c '
import re, subprocess, sys
maps, seen = [], set()
for l in sys.stdin:
    m = re.search(r"PERF_RECORD_MMAP2 .*\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|0) .*r-xp (\S+)", l)
    if m:
        maps.append((int(m[1], 16), int(m[2], 16), int(m[3], 16), m[4]))
        continue
    m = re.match(r"\s*([0-9a-f]+) .*\+(0x[0-9a-f]+) \((\S+)\)", l)
    if not m or m[1] in seen:
        continue
    seen.add(m[1])
    ip, off, dso = int(m[1], 16), int(m[2], 16), m[3]
    for start, size, pgoff, path in maps:
        if path == dso and start <= ip < start + size:
            link = ip - start + pgoff
            break
    else:
        sys.exit("no mapping of %s for %#x" % (dso, ip))
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "--start-address=%#x" % (link - off),
                          "--stop-address=%#x" % link, dso], capture_output=True, text=True).stdout
    last = [x for x in out.splitlines() if re.match(r"\s+[0-9a-f]+:\t", x)][-1]
    if re.search(r"\tv?mov\w*\s.*%[xy]mm\d+", last) and "(" in last:
        print(m[1])'
}

# off NAME: the offset of field NAME in the printout; size NAME its size.
off() { awk -v f="$1" '$1 == "field" && $2 == f { print $3 }' "$T/out1"; }
size() { awk -v f="$1" '$1 == "field" && $2 == f { print $4 }' "$T/out1"; }

for cc in gcc clang; do
	require $cc $cc
	bin="$T/objects-$cc"
	build_fixture "$RSRC/objects.c" "$bin" $cc 5 -O2 -pthread
	libc=$(readlink -f "$(ldd "$bin" | sed -n 's/.*libc\.so\.6 => \([^ ]*\).*/\1/p')")
	id=$(readelf -n "$libc" | sed -n 's/.*Build ID: *//p')
	dbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
	[ -f "$dbg" ] || skip "libc's debug file $dbg not installed (Debian package libc6-dbg)"

	# ---- lock ----
	setarch -R "$bin" lock >"$T/out1" || fail "$cc: objects lock"
	base=$(awk '$1 == "object" { print $3 }' "$T/out1")
	lk=$(hex $((base + $(off lock.__data.__lock)))) turn=$(hex $((base + $(off turn))))
	hits=$(hex $((base + $(off hits))))
	watch "$T/l.data" "$bin" lock "$lk/$(size lock.__data.__lock)" "$turn/$(size turn)" \
		"$hits/$(size hits)"
	perf script -i "$T/l.data" -F ip,sym,addr 2>/dev/null >"$T/addrs" || fail "perf script"
	wide_ips "$T/l.data" >"$T/wide" || fail "$cc: objdump of the sampled instructions"
	"$HITMAP" report -i "$T/l.data" --json >"$T/r.json" 2>"$T/r.err" ||
		{ cat "$T/r.err" >&2; fail "$cc: report"; }
	"$HITMAP" report -i "$T/l.data" >"$T/r.txt" 2>"$T/r.err" || fail "$cc: report (text)"
	python3 - "$T/r.json" "$T/addrs" "$base" "$T/out1" "$T/wide" <<'EOP' || fail "$cc: lock instance wrong"
import json, sys
d = json.load(open(sys.argv[1]))
base = int(sys.argv[3], 16)
offs = {l.split()[1]: (int(l.split()[2]), int(l.split()[3]))
        for l in open(sys.argv[4]) if l.startswith('field ')}
# perf script: samples per watched address in the functions that see a
# typed pointer: the lock word's in glibc's that take a pthread_mutex_t *
# (the futex wait sees an int *), the counters' in turn().  main's
# initialising stores go through the global pointer: no variable, or with
# clang one 16-byte store of turn and hits that trips both watchpoints, at
# each watched address, so which field and instance is not known: both
# samples in wide-access, never hits named as turn of an object 8 bytes on
# A sample whose trapping instruction is a 16- or 32-byte vector access
# (objdump, wide_ips) is never named: wide-access, or no-variable when its
# base register holds none (gcc's main).
want, typed = {}, ('pthread_mutex_lock', 'pthread_mutex_unlock', 'pthread_mutex_init',
                   'turn')
wide_ip = {int(l, 16) for l in open(sys.argv[5]).read().split()}
inmain = wide = 0
for l in open(sys.argv[2]):
    w = l.split()
    a, ip, sym = int(w[0], 16), int(w[1], 16), ' '.join(w[2:])
    if ip in wide_ip:
        wide += 1
        continue
    if not any(sym.startswith(f) or ('_' + f) in sym for f in typed):
        inmain += sym.startswith('main')
        continue
    want[a] = want.get(a, 0) + 1
nv, wa = d['buckets']['no-variable'], d['buckets']['wide-access']
assert nv + wa == inmain + wide and nv >= inmain, (nv, wa, inmain, wide)
obj = 'outer@0x%x' % base
lines = [l for l in d['lines'] if any(f['object'] == obj for f in l['fields'])]
assert len(lines) == 1, 'lines with %s: %d' % (obj, len(lines))
l = lines[0]
got = {f['path']: f for f in l['fields']}
for p in ('lock.__data.__lock', 'turn', 'hits'):
    f = got.get(p)
    assert f, '%s.%s missing: %s' % (obj, p, sorted(got))
    assert f['object'] == obj and f['struct'] == 'outer', f
    assert f['offset'] == offs[p][0] and f['size'] == offs[p][1], (p, f['offset'], f['size'])
    assert f['counts']['samples'] == want.get(base + offs[p][0]), (p, f['counts']['samples'], want)
    assert f['cpus'] == [0, 1], (p, f['cpus'])
assert all(f['object'] == obj for f in l['fields']), [f['object'] for f in l['fields']]
assert l['verdict'] == 'true sharing', l['verdict']
assert l['instances'] == 1 and d['instances'] == {'outer': 1}, (l['instances'], d['instances'])
EOP
	grep -qF "outer@$base.lock.__data.__lock" "$T/r.txt" ||
		fail "$cc: the text report does not name the lock by its container: $(cat "$T/r.txt")"
	grep -q "pthread_mutex_t@" "$T/r.txt" && fail "$cc: the lock is still named by its own type"

	# ---- many ----
	setarch -R "$bin" many >"$T/out1" || fail "$cc: objects many"
	set -- $(awk '$1 == "object" { print $3 }' "$T/out1")
	[ $# -eq 4 ] || fail "$cc: objects many printed $# objects, want 4"
	x=$(off x) y=$(off y)
	watch "$T/m.data" "$bin" many "$(hex $(($1 + x)))/8" "$(hex $(($2 + y)))/8" \
		"$(hex $(($3 + x)))/8" "$(hex $(($4 + y)))/8"
	perf script -i "$T/m.data" -F ip,sym,addr 2>/dev/null >"$T/addrs" || fail "perf script"
	"$HITMAP" report -i "$T/m.data" --json >"$T/r.json" 2>"$T/r.err" ||
		{ cat "$T/r.err" >&2; fail "$cc: report"; }
	python3 - "$T/r.json" "$T/addrs" "$x" "$y" "$@" <<'EOP' || fail "$cc: many instances wrong"
import json, sys
d = json.load(open(sys.argv[1]))
want = {}
for l in open(sys.argv[2]):    # the writers' stores (main's memset is libc's)
    w = l.split()
    if w[2].startswith('set_'):
        want[int(w[0], 16)] = want.get(int(w[0], 16), 0) + 1
x, y = int(sys.argv[3]), int(sys.argv[4])
bases = [int(b, 16) for b in sys.argv[5:]]
assert d['instances'] == {'pair': 4}, d['instances']
for i, b in enumerate(bases):
    obj = 'pair@0x%x' % b
    lines = [l for l in d['lines'] if any(f['object'] == obj for f in l['fields'])]
    assert len(lines) == 1, (obj, len(lines))
    l = lines[0]
    assert l['instances'] == 1 and len(l['fields']) == 1, (obj, l['instances'], len(l['fields']))
    f = l['fields'][0]
    p, o = ('y', y) if i % 2 else ('x', x)
    assert f['path'] == p and f['offset'] == o, (obj, f['path'], f['offset'])
    assert f['counts']['samples'] == want[b + o], (obj, f['counts']['samples'], want[b + o])
    assert l['verdict'] == 'private', (obj, l['verdict'])
assert not [l for l in d['lines'] if 'sharing' in l['verdict']], 'a sharing verdict'
EOP

	# ---- helper ----
	setarch -R "$bin" helper >"$T/out1" || fail "$cc: objects helper"
	base=$(awk '$1 == "object" { print $3 }' "$T/out1")
	watch "$T/h.data" "$bin" helper "$(hex $((base + $(off lk.word))))/$(size lk.word)" \
		"$(hex $((base + $(off count))))/$(size count)"
	perf script -i "$T/h.data" -F ip,sym,addr 2>/dev/null >"$T/addrs" || fail "perf script"
	"$HITMAP" report -i "$T/h.data" --json >"$T/r.json" 2>"$T/r.err" ||
		{ cat "$T/r.err" >&2; fail "$cc: report"; }
	"$HITMAP" report -i "$T/h.data" >"$T/r.txt" 2>"$T/r.err" || fail "$cc: report (text)"
	python3 - "$T/r.json" "$T/addrs" "$base" "$T/out1" <<'EOP' || fail "$cc: helper rows wrong"
import json, sys
d = json.load(open(sys.argv[1]))
base = int(sys.argv[3], 16)
offs = {l.split()[1]: (int(l.split()[2]), int(l.split()[3]))
        for l in open(sys.argv[4]) if l.startswith('field ')}
# perf script: the samples per watched address in the two functions with a
# typed pointer (main's memset is libc's, through a void *).
want = {}
for l in open(sys.argv[2]):
    w = l.split()
    if w[2].startswith(('spin_take', 'guarded_bump')):
        want[(int(w[0], 16), w[2].split('+')[0])] = want.get((int(w[0], 16), w[2].split('+')[0]), 0) + 1
lk, cnt = base + offs['lk.word'][0], base + offs['count'][0]
assert want.get((lk, 'spin_take')) and want.get((lk, 'guarded_bump')), want
obj = 'guarded@0x%x' % base
lines = [l for l in d['lines'] if any(f['object'] == obj for f in l['fields'])]
assert len(lines) == 1, 'lines with %s: %d' % (obj, len(lines))
l = lines[0]
rows = [(f['object'], f['path'], f['offset'], f['size'], f['counts']['samples']) for f in l['fields']]
assert rows == [(obj, 'lk.word', offs['lk.word'][0], offs['lk.word'][1],
                 want[(lk, 'spin_take')] + want[(lk, 'guarded_bump')]),
                (obj, 'count', offs['count'][0], offs['count'][1],
                 want.get((cnt, 'guarded_bump')))], rows
assert not [f for x in d['lines'] for f in x['fields'] if (f['object'] or '').startswith('spin@')]
assert l['verdict'] == 'true sharing', l['verdict']
assert l['instances'] == 1 and d['instances'] == {'guarded': 1}, (l['instances'], d['instances'])
EOP
	[ "$(grep -c "^  guarded@$base\.lk\.word" "$T/r.txt")" -eq 1 ] ||
		fail "$cc: the text report has not one row of guarded@$base.lk.word: $(cat "$T/r.txt")"

	# ---- pun ----
	setarch -R "$bin" pun >"$T/out1" || fail "$cc: objects pun"
	base=$(awk '$1 == "object" { print $3 }' "$T/out1")
	pun=$(awk '$1 == "pun" { print $2 }' "$T/out1")
	a=$(hex $((base + $(off a)))) y=$(hex $((base + pun + $(off y))))
	watch "$T/p.data" "$bin" pun "$a/8" "$y/8"
	"$HITMAP" report -i "$T/p.data" --json >"$T/r.json" 2>"$T/r.err" ||
		{ cat "$T/r.err" >&2; fail "$cc: report"; }
	"$HITMAP" report -i "$T/p.data" >"$T/r.txt" 2>"$T/r.err" || fail "$cc: report (text)"
	python3 - "$T/r.json" "$base" "$pun" <<'EOP' || fail "$cc: pun container wrong"
import json, sys
d = json.load(open(sys.argv[1]))
base, pun = int(sys.argv[2], 16), int(sys.argv[3])
f = {x['object']: x for l in d['lines'] for x in l['fields']}
b, p = f['box@0x%x' % base], f['pair@0x%x' % (base + pun)]
assert b['path'] == 'a' and b['container'] is None, b
assert p['path'] == 'y' and p['container'] == 'unknown', p
assert d['instances'] == {'box': 1, 'pair': 1}, d['instances']
EOP
	grep -qF "pair@$(hex $((base + pun))).y in an unknown container" "$T/r.txt" ||
		fail "$cc: the text report does not say the container is unknown: $(cat "$T/r.txt")"
done
exit 0
