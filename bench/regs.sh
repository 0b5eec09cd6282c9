#!/bin/sh
# bench/regs.sh [VMLINUX]: hitmap beside perf 6.12's data-type profiling
# (perf report -s type,typeoff) on timer recordings with sampled registers
# (perf record -e cpu-clock --user-regs=... --sample-cpu) of
# tests/report/regs-share.c.  One line per measurement:
#   target measured anchor ratio goal PASS|MISS|INFO
#   regs-types-MODE-CC   samples named right by hitmap and by perf 6.12, sample
#                        by sample against the truth (tests/report/regs-judge.py:
#                        registers, objdump's operand, the program's printout);
#                        PASS: hitmap >= perf and no sample named wrong
#   regs-1M-wall         report on one real recording of about 1 M samples
#                        (two threads, -O2 gcc, recorded until the file holds
#                        REGS_MB MB, default 200), median of RUNS runs, each
#                        tool in turn: ratio = hitmap / perf, goal <= 0.5
#   regs-1M-cpu          the same for user + system time (info: steadier than
#                        wall time on a shared machine)
#   regs-1M-rss          peak RSS, goal <= 1
#   regs-1M-syslibs-wall hitmap also reading the system's libraries and their
#                        debug info (info)
# Both tools read the program alone: perf 6.12 from --symfs with an empty
# build-id cache, and only the program's samples (--dsos: else it crashes on
# some recordings' samples in other files), hitmap from --sysroot on the
# same folder (and every sample).  Times from /usr/bin/time -v.  perf 6.12 comes
# from bench/perf612.sh (PERF612 overrides).  VMLINUX is accepted
# (bench/run-all.sh passes it) and unused.  HITMAP overrides ./hitmap, RUNS 3.
set -u
HITMAP=${HITMAP:-./hitmap}
RUNS=${RUNS:-3}
REGS_MB=${REGS_MB:-200}
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../tests/report
command -v perf >/dev/null 2>&1 || { echo "perf not installed (linux-perf)" >&2; exit 77; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not installed (time)" >&2; exit 77; }
command -v objdump >/dev/null 2>&1 || { echo "objdump not installed (binutils)" >&2; exit 77; }
PERF612=${PERF612:-$(sh "$here/perf612.sh" 2>/dev/null | tail -n 1)}
[ -x "$PERF612" ] || { echo "perf 6.12 not available (bench/perf612.sh)" >&2; exit 77; }
out=$(mktemp -d "${TMPDIR:-/tmp}/hitmap-regs.XXXXXX")
trap 'rm -rf "$out"' EXIT

# In a build tree ./hitmap is libtool's wrapper script: time the program.
hm_dir=$(dirname "$HITMAP")
if [ -x "$hm_dir/.libs/hitmap" ] && head -n 1 "$HITMAP" | grep -q '^#!'; then
	hm_cmd="env LD_LIBRARY_PATH=$hm_dir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} $hm_dir/.libs/hitmap"
else
	hm_cmd=$HITMAP
fi

REGS=AX,BX,CX,DX,SI,DI,BP,SP,IP,R8,R9,R10,R11,R12,R13,R14,R15
mkdir -p "$out/bin" "$out/symfs$out/bin"
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || { echo "regs: no $cc" >&2; continue; }
	$cc -g -O2 -pthread -o "$out/bin/regs-$cc" "$src/regs-share.c" || exit 1
	cp "$out/bin/regs-$cc" "$out/symfs$out/bin/"
	objdump -d "$out/bin/regs-$cc" >"$out/$cc.dis" || exit 1
	nm -S "$out/bin/regs-$cc" >"$out/$cc.nm" || exit 1
done

# 1. sample by sample, on one recording of each mode and compiler
for mode in false padded true one; do
	for cc in gcc clang; do
		[ -x "$out/bin/regs-$cc" ] || continue
		d=$out/$mode-$cc
		perf record -q -o "$d.data" -e cpu-clock -c 50000 --user-regs=$REGS --sample-cpu \
			-- "$out/bin/regs-$cc" $mode 200 >"$d.out" 2>"$d.rec" ||
			{ cat "$d.rec" >&2; exit 1; }
		$HITMAP report -i "$d.data" --regs-log "$d.log" --json >"$d.json" 2>"$d.err" ||
			{ cat "$d.err" >&2; exit 1; }
		perf script --ns -i "$d.data" -F tid,time,ip,sym,symoff,dso,uregs >"$d.script" \
			2>/dev/null || exit 1
		rm -rf "$out/buildid"
		"$PERF612" --buildid-dir "$out/buildid" report -i "$d.data" --stdio -n \
			-s dso,symoff,type,typeoff --dsos regs-$cc --symfs "$out/symfs" >"$d.perf" 2>"$d.perf.err" ||
			{ cat "$d.perf.err" >&2; exit 1; }
		python3 "$src/regs-judge.py" "$out/$cc.dis" "$d.script" "$d.out" "regs-$cc" \
			"$out/$cc.nm" "$d.log" "$d.json" "$d.perf" >"$d.judge" || exit 1
		awk -v t="regs-types-$mode-$cc" '
			$1 == "hitmap" { hr = $3; hw = $5 } $1 == "perf" { pr = $3 }
			END { printf "%s %dright %dright %s >=,0wrong %s\n", t, hr, pr,
				(pr > 0 ? sprintf("%.3f", hr / pr) : "-"),
				(hr >= pr && hw == 0 ? "PASS" : "MISS") }' "$d.judge"
	done
done

# 2. report on about 1 M samples: one recording, stopped at REGS_MB MB.
# perf 6.12 crashes on some recordings (SIGSEGV, or an exit status 1 after
# lost chunks): up to three recordings, the first it reads is measured.
big=$out/big.data
tries=0
while :; do
	tries=$((tries + 1))
	rm -f "$big"
	perf record -q -o "$big" -e cpu-clock -c 10000 --user-regs=$REGS --sample-cpu \
		-- "$out/bin/regs-gcc" true 3600000 3600000 >"$out/big.out" 2>"$out/big.rec" &
	rec=$!
	while kill -0 $rec 2>/dev/null &&
		[ "$(stat -c %s "$big" 2>/dev/null || echo 0)" -lt $((REGS_MB * 1000000)) ]; do
		sleep 1
	done
	kill -INT $rec 2>/dev/null
	wait $rec
	rm -rf "$out/buildid"
	"$PERF612" --buildid-dir "$out/buildid" report -i "$big" --stdio -s type,typeoff \
		--dsos regs-gcc --symfs "$out/symfs" >/dev/null 2>"$out/big.perf.err" && break
	echo "regs: perf 6.12 fails on recording $tries (exit $?)" >&2
	[ $tries -lt 3 ] || exit 1
done
n=$(perf report -i "$big" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
echo "regs: $n samples in $(($(stat -c %s "$big") / 1000000)) MB" >&2

measure() {	# measure NAME CMD...: appends "wall-s cpu-s rss-KB" to $out/NAME.all
	name=$1; shift
	/usr/bin/time -v -o "$out/$name.time" "$@" >"$out/$name.out" 2>"$out/$name.err" ||
		{ echo "$name: command failed: $*" >&2; cat "$out/$name.err" >&2; exit 1; }
	awk -F': ' '
		/User time/ { cpu += $2 } /System time/ { cpu += $2 }
		/Elapsed \(wall clock\)/ { k = split($2, p, ":"); w = 0
			for (i = 1; i <= k; i++) w = w * 60 + p[i] }
		/Maximum resident/ { rss = $2 }
		END { printf "%.4f %.4f %d\n", w, cpu, rss }' "$out/$name.time" >>"$out/$name.all"
}
median() {	# median NAME COLUMN
	sort -n -k "$2" "$out/$1.all" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}
line() {	# line TARGET UNIT MEASURED ANCHOR GOAL-OP GOAL
	awk -v t="$1" -v u="$2" -v h="$3" -v p="$4" -v op="$5" -v g="$6" 'BEGIN {
		r = p > 0 ? h / p : 0
		ok = op == "<=" ? r <= g : 1
		printf "%s %s%s %s%s %.3f %s %s\n", t, h, u, p, u, r, (op == "-" ? "-" : op g),
			(op == "-" ? "INFO" : ok ? "PASS" : "MISS") }'
}

i=0
while [ $i -lt "$RUNS" ]; do
	measure hm $hm_cmd report -i "$big" --sysroot "$out/symfs"
	rm -rf "$out/buildid"
	measure pf "$PERF612" --buildid-dir "$out/buildid" report -i "$big" --stdio \
		-s type,typeoff --dsos regs-gcc --symfs "$out/symfs"
	measure hmsys $hm_cmd report -i "$big"
	i=$((i + 1))
done
line regs-1M-wall s "$(median hm 1)" "$(median pf 1)" "<=" 0.5
line regs-1M-cpu s "$(median hm 2)" "$(median pf 2)" - -
line regs-1M-rss KB "$(median hm 3)" "$(median pf 3)" "<=" 1
line regs-1M-syslibs-wall s "$(median hmsys 1)" "$(median pf 1)" - -
