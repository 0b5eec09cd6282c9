#!/bin/sh
# hitmap beside perf 6.12's data-type profiling (perf report -s
# type,typeoff) on the same timer recordings with sampled registers (perf
# record -e cpu-clock --user-regs=... --sample-cpu) of
# tests/report/regs-share.c built by gcc and clang -O2, in its four modes:
# two threads on one line, the same a line apart, a lock and its data, one
# writer; heap objects reached through helper functions.  Sample by sample
# (tests/report/regs-judge.py) against the truth: the instruction the rule
# of hitmap(1) means, its address from perf script's registers and
# objdump's operand, its field from the program's printout (object
# address, offsetof).  On every recording hitmap names no sample wrong,
# names each right one with its instance's address, and names at least as
# many right as perf 6.12.  perf 6.12 comes from bench/perf612.sh (installed
# when missing); it reads the program alone (--symfs) and an empty
# build-id cache, and keeps the program's samples (--dsos): else it
# crashes (SIGSEGV) on some recordings' samples in other files.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require objdump binutils
require python3 python3

PERF612=${PERF612:-$(sh "$top_srcdir/bench/perf612.sh" 2>"$T/perf612.err" | tail -n 1)}
[ -x "$PERF612" ] ||
	skip "perf 6.12 cannot be installed (bench/perf612.sh): $(tail -n 1 "$T/perf612.err")"

# The probe: a timer recording with user registers yields samples here.
regs_probe "$RSRC/regs-share.c" one 50

for cc in gcc clang; do
	require $cc $cc
	mkdir -p "$T/bin" "$T/symfs$T/bin"
	bin="$T/bin/regs-$cc"
	build_fixture "$RSRC/regs-share.c" "$bin" $cc 5 -O2 -pthread
	cp "$bin" "$T/symfs$bin"
	objdump -d "$bin" >"$T/$cc.dis" || fail "objdump -d $bin"
	nm -S "$bin" >"$T/$cc.nm" || fail "nm -S $bin"
done

printf '%-14s %8s %8s %8s %8s %8s %8s %8s\n' recording hm-right hm-wrong hm-unnam instance \
	pf-right pf-wrong pf-unnam >&2
for mode in false padded true one; do
	for cc in gcc clang; do
		n=$mode-$cc
		d="$T/$n"
		regs_rec "$d.data" "$T/bin/regs-$cc" $mode 200 >"$d.out" ||
			fail "perf record $n: $(cat "$T/rec.err")"
		"$HITMAP" report -i "$d.data" --regs-log "$d.log" --json >"$d.json" 2>"$d.err" ||
			{ cat "$d.err" >&2; fail "report $n"; }
		perf script --ns -i "$d.data" -F tid,time,ip,sym,symoff,dso,uregs \
			>"$d.script" 2>/dev/null || fail "perf script $n"
		rm -rf "$T/buildid"
		"$PERF612" --buildid-dir "$T/buildid" report -i "$d.data" --stdio -n \
			-s dso,symoff,type,typeoff --dsos regs-$cc --symfs "$T/symfs" >"$d.perf" 2>"$d.perf.err" ||
			{ cat "$d.perf.err" >&2; fail "perf 6.12 report $n"; }
		python3 "$RSRC/regs-judge.py" "$T/$cc.dis" "$d.script" "$d.out" "regs-$cc" \
			"$T/$cc.nm" "$d.log" "$d.json" "$d.perf" -v >"$d.judge" ||
			fail "regs-judge.py $n"
		set -- $(awk '$1 == "hitmap" { print $3, $5, $7, $9 }' "$d.judge") \
			$(awk '$1 == "perf" { print $3, $5, $7 }' "$d.judge")
		[ $# = 7 ] || { cat "$d.judge" >&2; fail "$n: no judgement"; }
		printf '%-14s %8s %8s %8s %8s %8s %8s %8s\n' $n "$@" >&2
		[ "$2" = 0 ] || { cat "$d.judge" >&2; fail "$n: hitmap names $2 samples wrong"; }
		[ "$4" = "$1" ] || { cat "$d.judge" >&2; fail "$n: $1 right, $4 with the instance"; }
		[ "$1" -ge "$5" ] || { cat "$d.judge" >&2; fail "$n: hitmap $1 right, perf 6.12 $5"; }
		[ "$1" -gt 100 ] || { cat "$d.judge" >&2; fail "$n: only $1 samples judged right"; }
	done
done
exit 0
