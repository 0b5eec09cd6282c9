#!/bin/sh
# __thread variables from sampled registers: real timer recordings (perf
# record -e cpu-clock --user-regs=... --sample-cpu) of
# tests/report/regs-tls.c, gcc and clang -O2, two threads each counting
# into their own copy of a __thread struct, `hits` through a %fs-relative
# operand (gcc: addq $1,%fs:(%rdx), %rdx a constant; clang: addq
# $1,%fs:-N).  No %fs base is sampled: hitmap takes a thread's from a
# sample right after its load of %fs:0 (the thread pointer).  Oracle: the
# program's printout (each thread's id and the address of its copy,
# offsetof): every sample whose address lies in a copy is the copy of its
# own thread, at a field's start; every tls: row of the report is a
# printed copy's field, and so is every row at a copy's address, each with
# the samples the log gives it; and each thread's `hits` (only ever
# reached through %fs) is named in every recording.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require objdump binutils
require python3 python3

# The probe: a timer recording with user registers yields samples here.
regs_probe "$RSRC/regs-tls.c" 50

for cc in gcc clang; do
	require $cc $cc
	bin="$T/tls-$cc"
	build_fixture "$RSRC/regs-tls.c" "$bin" $cc 5 -O2 -pthread
	# hits is counted by a %fs-relative add (what the test is about)
	objdump -d "$bin" | awk '/<count>:/ { f = 1 } /^$/ { f = 0 } f && /addq.*%fs:/' |
		grep -q . || fail "$cc: no %fs-relative add in count()"
	for run in 1 2; do
		d="$T/$cc-$run"
		regs_rec "$d.data" "$bin" 300 >"$d.out" || fail "perf record $cc: $(cat "$T/rec.err")"
		"$HITMAP" report -i "$d.data" --regs-log "$d.log" --json --top 1000 >"$d.json" \
			2>"$d.err" || { cat "$d.err" >&2; fail "report $cc $run"; }
		python3 - "$d.out" "$d.log" "$d.json" >"$d.check" <<'PY' ||
import json, sys
out, log, js = sys.argv[1:4]
fields, copies = {}, {}
for line in open(out):
    w = line.split()
    if w[0] == 'field':
        fields[int(w[2])] = w[1]
    elif w[0] == 'thread':
        copies[int(w[2])] = (int(w[3], 16), int(w[4]))
hits = [o for o, n in fields.items() if n == 'hits'][0]
bad = []
named = {tid: 0 for tid in copies}
per_addr = {}
for line in open(log):
    t, cpu, tid, ip, rule, pc, addr = line.split()
    tid, pc, addr = int(tid), int(pc, 16), int(addr, 16)
    for owner, (base, size) in copies.items():
        if base <= addr < base + size:
            if owner != tid:
                bad.append('sample of thread %d at %#x: thread %d\'s copy' % (tid, addr, owner))
            elif addr - base not in fields:
                bad.append('sample of thread %d at %#x: no field start' % (tid, addr))
            per_addr[addr] = per_addr.get(addr, 0) + 1
            if addr == base + hits:
                named[tid] += 1
rows = 0
for l in json.load(open(js))['lines']:
    for f in l['fields']:
        mine = any(b <= f['address'] < b + s for b, s in copies.values())
        # Outside the program's copies only another module's TLS is right,
        # e.g. the C library's tls_dtor_list, read by __call_tls_dtors as a
        # thread exits; tc named there is wrong.
        if not mine and f['object'] != 'tls:tc':
            continue
        base = f['address'] - f['offset']
        if not any(base == b for b, s in copies.values()) or \
                fields.get(f['offset']) != f['path'] or f['object'] != 'tls:tc':
            bad.append('row %s.%s at %#x' % (f['object'], f['path'], f['address']))
        elif per_addr.get(f['address'], 0) != f['counts']['samples']:
            bad.append('row %s.%s at %#x: %d samples, the log %d' % (f['object'], f['path'],
                       f['address'], f['counts']['samples'], per_addr.get(f['address'], 0)))
        rows += f['counts']['samples']
print('named-fs', ' '.join('%d' % named[t] for t in sorted(named)))
print('rows', rows, 'log', sum(per_addr.values()))
for b in bad[:10]:
    print('bad', b)
sys.exit(1 if bad else 0)
PY
			{ cat "$d.check" >&2; fail "$cc $run: wrong samples"; }
		set -- $(awk '$1 == "named-fs" { print $2, $3 }' "$d.check")
		[ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] ||
			{ cat "$d.check" >&2; fail "$cc $run: a thread's hits (%fs-relative) unnamed"; }
		echo "$cc $run: $(tr '\n' ' ' <"$d.check")" >&2
	done
done
exit 0
