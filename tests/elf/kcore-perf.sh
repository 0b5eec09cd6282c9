#!/bin/sh
# A real `perf record --kcore` of the running kernel: perf saves a
# perf.data directory (data, kcore_dir/{kcore,kallsyms,modules}).
# - `hitmap report -i DIR` reads it: as many samples as `perf script -i
#   DIR` prints;
# - the jump-label sites of the running kernel (its __jump_table, read by
#   gdb from /proc/kcore at the addresses kallsyms gives) hold in the copy
#   the bytes that ran: hitmap's kcore reader (tests/elf/kcore-bytes) must
#   find there exactly what gdb reads from the saved copy as a core file,
#   and each is a jump label's nop or jmp (2 or 5 bytes).
# Needs root and /proc/kcore (CONFIG_PROC_KCORE); skipped, saying which,
# when perf refuses.  The running kernel has no DWARF here, so fields are
# the business of tests/elf/kcore.sh and tests/vmlinux/kcore.test.
. "$top_srcdir/tests/lib.sh"
require perf linux-perf
require gdb gdb
require python3 python3
KB="$top_builddir/tests/elf/kcore-bytes"
[ -x "$KB" ] || fail "kcore-bytes is not built (make check builds it)"
[ -r /proc/kcore ] || skip "no readable /proc/kcore (kernel without CONFIG_PROC_KCORE, or not root): perf record --kcore cannot copy it"

D="$T/pd"
perf record --kcore -e page-faults -d -c 1 -o "$D" -- \
	sh -c 'dd if=/dev/zero of=/dev/null bs=1M count=4 2>/dev/null; ls -R /usr/share >/dev/null' \
	>"$T/rec.out" 2>"$T/rec.err" ||
	skip "perf record --kcore refuses: $(grep -v '^\[' "$T/rec.err" | head -1)"
for f in data kcore_dir/kcore kcore_dir/kallsyms kcore_dir/modules; do
	[ -s "$D/$f" ] || [ "$f" = kcore_dir/modules ] || fail "perf record --kcore wrote no $f"
done

# the directory form: hitmap's sample count is perf's
"$HITMAP" report -i "$D" --json >"$T/r.json" 2>"$T/r.err" || { cat "$T/r.err" >&2; fail "report -i DIR"; }
n=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["samples"])' "$T/r.json")
p=$(perf script -i "$D" -F ip 2>/dev/null | wc -l)
echo "report -i DIR: $n samples; perf script -i DIR: $p"
[ "$n" = "$p" ] && [ "$n" -gt 0 ] || fail "report -i DIR read $n samples, perf $p"

# jump-label sites, from the running kernel's own table
ks() { awk -v s="$1" '$3 == s && NF == 3 { print $1; exit }' "$D/kcore_dir/kallsyms"; }
js=$(ks __start___jump_table) je=$(ks __stop___jump_table)
[ -n "$js" ] && [ -n "$je" ] || skip "no __start___jump_table in the kernel's kallsyms"
gdb -nx -batch -ex "core-file /proc/kcore" -ex "python
import struct
inf = gdb.selected_inferior()
s, e = 0x$js, 0x$je
tab = bytes(inf.read_memory(s, e - s))
n = len(tab) // 16
out = open('$T/sites', 'w')
for i in range(0, n, max(1, n // 200)):
    code, = struct.unpack_from('<i', tab, i * 16)
    out.write('%x\n' % ((s + i * 16 + code) % 2**64))
" >"$T/gdb.log" 2>&1 || { tail -3 "$T/gdb.log" >&2; fail "gdb cannot read the jump table from /proc/kcore"; }
[ -s "$T/sites" ] || fail "no jump-label site read from /proc/kcore"
args=$(awk '{ printf "%s 5 ", $1 }' "$T/sites")
# shellcheck disable=SC2086
"$KB" "$D/kcore_dir" $args >"$T/hm" || fail "kcore-bytes on the copy"
# gdb stops a script at its first error: ask only where the reader found bytes
paste -d ' ' "$T/sites" "$T/hm" | awk '$2 != "none" { print $1 }' >"$T/held"
{
	echo "core-file $D/kcore_dir/kcore"
	awk '{ print "x/5xb 0x" $1 }' "$T/held"
} >"$T/gdb.cmd"
gdb -nx -batch -x "$T/gdb.cmd" 2>/dev/null | sed -n 's/^0x[0-9a-f]*[^:]*:\t//p' |
	tr '\t' ' ' | sed 's/0x//g' >"$T/gdb"
python3 - "$T/sites" "$T/hm" "$T/gdb" <<'PY' || fail "the copy's bytes at the jump labels"
import sys
sites = open(sys.argv[1]).read().split()
hm = open(sys.argv[2]).read().splitlines()
gd = open(sys.argv[3]).read().splitlines()
held = [(a, h) for a, h in zip(sites, hm) if h != "none"]
print("%d jump-label sites, %d in the copy's text" % (len(sites), len(held)))
assert held, "no site in the copy"
assert len(gd) == len(held), "gdb read %d of the %d sites the reader found" % (len(gd), len(held))
kinds = {}
for (a, h), g in zip(held, gd):
    assert h == g.strip(), "%s: kcore-bytes %s, gdb %s" % (a, h, g)
    b = h.split()
    k = ("jmp" if b[0] in ("e9", "eb") else
         "nop5" if b[:5] == ["0f", "1f", "44", "00", "00"] else
         "nop2" if b[:2] == ["66", "90"] else None)
    assert k, "%s: %s is no jump label's nop or jmp" % (a, h)
    kinds[k] = kinds.get(k, 0) + 1
print("the reader and gdb agree; the sites hold %s" % kinds)
PY
echo "PASS"
