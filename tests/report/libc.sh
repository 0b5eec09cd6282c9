#!/bin/sh
# Samples in a stripped system library are named from its debug info where
# Debian keeps it (libc6-dbg, under /usr/lib/debug/.build-id).  A real
# recording of page faults (perf record -d -c 1) of a program that mallocs:
# ld.so's relocations and libc's start-up write libc's data pages.  Oracle:
# perf script's fault addresses, libc's load base from perf's mapping record,
# and nm -S on libc's debug file: every field hitmap names in libc lies
# inside the nm symbol of its object, and every fault inside a libc data
# symbol that has a DWARF type is counted there.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require nm binutils
cat >"$T/m.c" <<'EOS'
#include <stdio.h>
#include <stdlib.h>
int main(void) { void *p = malloc(100); printf("%p\n", p); free(p); return 0; }
EOS
build_fixture "$T/m.c" "$T/m" "${CC:-gcc}" 5 -O2
libc=$(ldd "$T/m" | sed -n 's/.*libc\.so\.6 => \([^ ]*\).*/\1/p')
libc=$(readlink -f "$libc")
id=$(readelf -n "$libc" | sed -n 's/.*Build ID: *//p')
dbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
[ -f "$dbg" ] || skip "libc's debug file $dbg not installed (Debian package libc6-dbg)"
if ! perf record -q -d -c 1 -e page-faults -o "$T/pf.data" -- "$T/m" >"$T/rec.out" 2>"$T/rec.err"; then
	grep -qi "not supported\|permission" "$T/rec.err" &&
		skip "the kernel refuses the page-faults event: $(head -1 "$T/rec.err")"
	cat "$T/rec.err" >&2
	fail "perf record failed"
fi
# libc's load base (its mapping at file offset 0) and end, from perf's
# mapping records "[START(LEN) @ PGOFF ...]"
perf script -i "$T/pf.data" --show-mmap-events 2>/dev/null |
	awk '/PERF_RECORD_MMAP2/ && $NF ~ /libc\.so\.6$/ {
		s = $0; sub(/.*\[/, "", s); st = s; sub(/\(.*/, "", st)
		ln = s; sub(/^[^(]*\(/, "", ln); sub(/\).*/, "", ln)
		pg = s; sub(/^[^@]*@ /, "", pg); sub(/ .*/, "", pg)
		print st, ln, pg }' >"$T/maps"
base=$(awk '$3 == "0" || $3 == "0x0" { print $1; exit }' "$T/maps")
end=$(python3 -c 'import sys
print(hex(max(int(a, 16) + int(b, 16) for a, b, _ in (l.split() for l in open(sys.argv[1])))))' "$T/maps")
[ -n "$base" ] || fail "no mapping of libc in perf script"
perf script -i "$T/pf.data" -F addr 2>/dev/null | awk '{ print $1 }' >"$T/addrs"
nm -S --defined-only "$dbg" | awk 'NF == 4 && $3 ~ /^[bBdDrR]$/' >"$T/nm"
"$HITMAP" report -i "$T/pf.data" --json >"$T/r.json" 2>"$T/r.err" ||
	{ cat "$T/r.err" >&2; fail "report"; }
grep -q "libc.so.6: no debug info" "$T/r.err" && fail "libc's debug info was not found: $(cat "$T/r.err")"
# -v says where it came from
"$HITMAP" report -v -i "$T/pf.data" >/dev/null 2>"$T/v.err" || fail "report -v"
grep -qF "hitmap: $libc: debug info from $dbg (build-id)" "$T/v.err" ||
	grep -qF "debug info from $dbg (build-id)" "$T/v.err" ||
	fail "report -v does not say where libc's debug info came from: $(cat "$T/v.err")"
# the recording is of the running kernel (perf's build-id table): report
# takes its vmlinux with DWARF when installed, and says so; never another's
if perf buildid-list -i "$T/pf.data" 2>/dev/null | grep -q "^$(perf buildid-list -k 2>/dev/null) \[kernel.kallsyms\]$"; then
	k=/usr/lib/debug/boot/vmlinux-$(uname -r)
	if [ -r "$k" ]; then
		grep -qxF "hitmap: --vmlinux: the running kernel's, $k" "$T/v.err" ||
			fail "report does not take the running kernel's vmlinux: $(cat "$T/v.err")"
	else
		grep -q "^hitmap: --vmlinux:" "$T/v.err" &&
			fail "report took a vmlinux that is not installed: $(cat "$T/v.err")"
	fi
fi
python3 - "$T/r.json" "$T/nm" "$T/addrs" "$base" "$end" <<'EOP' || fail "libc attribution differs from nm"
import json, re, sys
d = json.load(open(sys.argv[1]))
base, end = int(sys.argv[4], 16), int(sys.argv[5], 16)
syms = []
for l in open(sys.argv[2]):
    a, s, _, n = l.split()
    syms.append((int(a, 16), int(s, 16), n))
def sym_at(x):     # every name of the symbol at x (aliases: __GI_...)
    return {n for a, s, n in syms if a <= x < a + max(s, 1)}
named = {}
for l in d['lines']:
    for f in l['fields']:
        if f['object'] is None:
            continue
        if not base <= f['address'] < end:
            continue        # another binary's object (ld.so, the program)
        link = f['address'] - base
        obj = re.sub(r'\[.*', '', f['object'])
        want = sym_at(link)
        if obj not in want:
            sys.exit(f"{f['object']}.{f['path']} at libc+{link:#x}: nm says {want}")
        named[obj] = named.get(obj, 0) + f['counts']['samples']
# every fault inside a libc data symbol hitmap named is counted there
faults = {}
for a in open(sys.argv[3]):
    if not base <= int(a, 16) < end:
        continue
    for n in sym_at(int(a, 16) - base) & set(named):
        faults[n] = faults.get(n, 0) + 1
if faults != named:
    sys.exit(f"per-object samples: perf+nm {faults}, hitmap {named}")
if not named:
    sys.exit("no libc object named")
print(f"{sum(named.values())} libc samples in {len(named)} objects, all as nm places them")
EOP
exit 0
