#!/bin/sh
# A process's mappings when its exec's COMM record comes after the new
# program's MMAP2 records in the file (the exec on one CPU, the first maps
# on another: perf writes each CPU's ring buffer in turn).  A real timer
# recording of tests/report/regs-share.c is rewritten by exec-late.py so
# that the COMM follows the rest of its round; every record keeps its time.
# Oracles: perf script reads both files alike, and regs-oracle.py (objdump's
# instructions and perf script's registers) finds every sample of the
# program in report --regs-log of the rewritten file, none missing.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require objdump binutils
require python3 python3

bin="$T/regs-gcc"
build_fixture "$RSRC/regs-share.c" "$bin" gcc 5 -O2 -pthread
regs_rec "$T/a.data" "$bin" false 100 >"$T/a.out" ||
	skip "perf record -e cpu-clock --user-regs fails here: $(head -1 "$T/rec.err")"
perf script -i "$T/a.data" -F ip,uregs 2>/dev/null | grep -q 'AX:0x' ||
	skip "perf record -e cpu-clock --user-regs records no user registers here"
objdump -d "$bin" >"$T/dis" || fail "objdump -d $bin"
nm -S "$bin" >"$T/nm" || fail "nm -S $bin"
n=$(python3 "$RSRC/exec-late.py" "$T/a.data" "$T/b.data") || fail "exec-late.py: $n"
echo "the exec's COMM moved past $n records" >&2
for f in a b; do
	perf script --ns -i "$T/$f.data" -F tid,time,ip,sym,symoff,dso,uregs \
		>"$T/$f.script" 2>/dev/null || fail "perf script $f.data"
done
cmp -s "$T/a.script" "$T/b.script" || fail "perf script reads the rewritten file differently"
"$HITMAP" report -i "$T/b.data" --regs-log "$T/b.log" --json >"$T/b.json" 2>"$T/b.err" ||
	{ cat "$T/b.err" >&2; fail "report b.data"; }
python3 "$RSRC/regs-oracle.py" "$T/dis" "$T/b.script" "$T/b.log" "$T/a.out" regs-gcc \
	"$T/nm" >"$T/oracle" || fail "oracle"
agree=$(awk '$1 == "agree" { print $2 }' "$T/oracle")
for k in disagree missing offfield; do
	v=$(awk -v k=$k '$1 == k { print $2 }' "$T/oracle")
	[ "$v" = 0 ] || { head -20 "$T/oracle" >&2; fail "rewritten file: $v samples $k"; }
done
[ "$agree" -gt 100 ] || fail "only $agree samples compared"
echo "$agree samples agree with the oracle after the exec moved, 0 missing" >&2
