#!/bin/sh
# bench/types-vs-perf.sh: hitmap report beside perf 6.12's data-type
# profiling (perf report -s type,typeoff) on the same page-fault recordings
# of the attribution fixtures (tests/attr/{flows,tasks,chains}.c, gcc and
# clang -O2, two threads), judged sample by sample against the truth each
# program prints (offsetof, object addresses) by tests/attr/judge.py.
# One line per recording and tool:
#   types-RECORDING-TOOL right R wrong W unnamed U
# then one line per recording:
#   types-RECORDING hitmap-right R perf-right P PASS|MISS
# PASS: hitmap names at least as many samples right as perf and none wrong.
# Then per recording, hitmap report and perf 6.12 report -s type,typeoff
# timed on the file (wall and CPU time to the microsecond, the median of
# TYPES_RUNS runs, 5 by default, the tools taking turns run by run; each
# run execs the program itself, as perf's does, not libtool's wrapper or
# env):
#   types-RECORDING-wall hitmap H perf P ratio R goal<=0.5 PASS|MISS
#   types-RECORDING-cpu  the same for CPU time (user + sys): steadier than
#                        wall time on a shared machine
#   types-RECORDING-rss hitmap H KB perf P KB
# and the same three for hitmap report --sysroot SYMFS, which like perf
# reads the program's DWARF alone (hitmap reads the C library's too, from
# libc6-dbg, to name the samples in malloc and the thread library).  These
# lines compare the same work; they do not change the exit status:
#   types-RECORDING-scope-wall, -scope-cpu, -scope-rss
# Then the same speed lines on larger recordings:
#   pf30k, pf122k
#           page-fault recordings of tests/attr/tasks.c run for 3000 and
#           12250 rounds (gcc -O2): 30 k and 122 k samples over 12 k and
#           49 k task instances
#   timer   a timer recording with registers (perf record -e cpu-clock
#           -c 50000 --user-regs: 40 k samples) of tests/report/regs-share.c
#           false 1000 (two threads writing two fields of one line, gcc
#           -O2), perf 6.12 limited to the program's samples (--dsos) as
#           tests/report/regs-vs-perf.sh does (it crashes on others)
# and, from the two page-fault recordings, what each tool's CPU time grows
# by per sample (INFO): the ratio that larger recordings of that kind,
# nearly every sample on an object not seen before, come near:
#   types-pf-per-sample hitmap H us perf P us ratio R INFO
# The judged report is the second of the file, answered from what the
# first kept in the cache, and must print what the first printed.  Every
# timed command has run once before it is timed (the judging run, or one
# untimed run): both tools' caches hold the files' answers then, as on
# any second look at a recording (hitmap's type cache and answers, kept
# under a private XDG_CACHE_HOME; perf's build-id directory).  hitmap
# --sysroot keeps its own: it reads the program's copy under SYMFS, whose
# mtime differs, and in a shared cache each of the two would find the
# other's entries for the program stale and make them again every run.
# perf 6.12 comes from bench/perf612.sh (PERF612 overrides); it reads the
# program alone (--symfs) and an empty build-id cache, else it crashes on
# the C library's samples.  HITMAP overrides ./hitmap; -v shows the wrong
# and unnamed samples by instruction; TYPES_KEEP=DIR keeps the recordings,
# outputs and judgements there.
set -u
HITMAP=${HITMAP:-./hitmap}
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../tests/attr
verbose=
[ "${1:-}" = -v ] && verbose=-v
command -v perf >/dev/null 2>&1 || { echo "perf not installed (linux-perf)" >&2; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not installed" >&2; exit 77; }
PERF612=${PERF612:-$(sh "$here/perf612.sh" 2>/dev/null | tail -n 1)}
[ -x "$PERF612" ] || { echo "perf 6.12 not available (bench/perf612.sh)" >&2; exit 77; }
if [ -n "${TYPES_KEEP:-}" ]; then
	out=$TYPES_KEEP
	mkdir -p "$out"
else
	out=$(mktemp -d "${TMPDIR:-/tmp}/hitmap-types.XXXXXX")
	trap 'rm -rf "$out"' EXIT
fi
export XDG_CACHE_HOME="$out/cache"

# libtool's wrapper script costs a shell before hitmap starts: time the
# program it runs (as bench/lib.sh does)
hm_dir=$(dirname "$HITMAP")
runs=${TYPES_RUNS:-5}
if [ -x "$hm_dir/.libs/hitmap" ] && head -n 1 "$HITMAP" | grep -q '^#!'; then
	hm_cmd="env LD_LIBRARY_PATH=$hm_dir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} $hm_dir/.libs/hitmap"
else
	hm_cmd=$HITMAP
fi
# (one env: the timing execs the program itself, not a second env)
hm_sys_cmd="env XDG_CACHE_HOME=$out/cache-sysroot ${hm_cmd#env }"

# timed FILE CMD... [";" FILE CMD...]...: run each CMD (output discarded)
# $runs times, taking turns (hitmap, perf, hitmap, perf, ...: a change in
# the machine's load during the runs weighs on every command alike); each
# FILE gets "WALL RSS-KB CPU 0", the medians of wall time, peak RSS and
# CPU time (user + system), in seconds to the microsecond (/usr/bin/time
# prints hundredths, and a small report takes a few of them).  A CMD of
# "env VAR=VALUE... PROGRAM ARG..." runs PROGRAM with those variables set,
# as env(1) would, but without env: its exec and start-up (0.8 ms here)
# are not hitmap's, and perf 6.12 is timed without one.
timing='
import os, re, statistics, subprocess, sys, time
runs, groups = int(sys.argv[1]), [[]]
for a in sys.argv[2:]:
    if a == ";":
        groups.append([])
    else:
        groups[-1].append(a)
jobs = []
for g in groups:
    cmd, env = g[1:], dict(os.environ)
    if cmd[0] == "env":
        cmd = cmd[1:]
        while cmd and re.match(r"[A-Za-z_][A-Za-z0-9_]*=", cmd[0]):
            k, v = cmd.pop(0).split("=", 1)
            env[k] = v
    jobs.append((g[0], cmd, env, []))
for _ in range(runs):
    for out, cmd, env, got in jobs:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, st, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        if not os.WIFEXITED(st) or os.WEXITSTATUS(st):
            sys.exit("timed: %s failed" % " ".join(cmd))
        got.append((wall, ru.ru_maxrss, ru.ru_utime + ru.ru_stime))
for out, cmd, env, got in jobs:
    med = [statistics.median_low(v) for v in zip(*got)]
    with open(out, "w") as f:
        f.write("%.6f %d %.6f 0\n" % tuple(med))
'
timed() {
	python3 -c "$timing" "$runs" "$@"
}

# speed FILE-HITMAP FILE-PERF NAME: the wall, cpu and rss lines
speed() {
	paste "$1" "$2" | awk -v n="$3" '{
		r = $5 > 0 ? $1 / $5 : 0
		printf "%s-wall hitmap %.3fs perf %.3fs ratio %.2f goal<=0.5 %s\n", n, $1, $5,
			r, r <= 0.5 ? "PASS" : "MISS"
		h = $3 + $4; p = $7 + $8; r = p > 0 ? h / p : 0
		printf "%s-cpu hitmap %.3fs perf %.3fs ratio %.2f goal<=0.5 %s\n", n, h, p,
			r, r <= 0.5 ? "PASS" : "MISS"
		printf "%s-rss hitmap %d KB perf %d KB\n", n, $2, $6 }'
}

# timed_pair NAME DATA SYMFS [PERF-OPTION...]: hitmap report, perf 6.12's
# report -s type,typeoff and hitmap report --sysroot SYMFS on DATA, each
# run once untimed and then timed; the wall, cpu and rss lines of NAME and
# NAME-scope.  Exit status 1 on a MISS of NAME's lines.
timed_pair() {
	n=$1 d=$2 sym=$3
	shift 3
	mkdir -p "$out/buildid-$n"
	$hm_cmd report -i "$d" >/dev/null 2>&1 || return 1
	"$PERF612" --buildid-dir "$out/buildid-$n" report -i "$d" --stdio -s type,typeoff \
		--symfs "$sym" "$@" >/dev/null 2>&1 || return 1
	$hm_sys_cmd report --sysroot "$sym" -i "$d" >/dev/null 2>&1 || return 1
	timed "$out/$n.hm.time" $hm_cmd report -i "$d" \; \
		"$out/$n.perf.time" "$PERF612" --buildid-dir "$out/buildid-$n" report -i "$d" \
		--stdio -s type,typeoff --symfs "$sym" "$@" \; \
		"$out/$n.scope.time" $hm_sys_cmd report --sysroot "$sym" -i "$d" || return 1
	speed "$out/$n.hm.time" "$out/$n.perf.time" "types-$n" | tee "$out/$n.speed"
	speed "$out/$n.scope.time" "$out/$n.perf.time" "types-$n-scope"
	! grep -q MISS "$out/$n.speed"
}

status=0
for prog in flows tasks chains; do
	for cc in gcc clang; do
		command -v $cc >/dev/null 2>&1 || { echo "types-$prog-$cc: no $cc" >&2; continue; }
		name=$prog-$cc
		bin=$out/bin/$name
		mkdir -p "$out/bin" "$out/symfs$out/bin" "$out/buildid-$name"
		$cc -g -O2 -pthread -o "$bin" "$src/$prog.c" || exit 1
		cp "$bin" "$out/symfs$bin"
		perf record -q -d -c 1 -e page-faults -o "$out/$name.data" -- "$bin" \
			>"$out/$name.out" 2>"$out/$name.rec" || { cat "$out/$name.rec" >&2; exit 1; }
		perf script -i "$out/$name.data" -F addr,ip,sym,symoff,dso >"$out/$name.script" 2>/dev/null
		# judged: the second report, answered from what the first kept,
		# which must print the same
		$HITMAP report -i "$out/$name.data" --json --top 100000 >"$out/$name.cold.json" \
			2>"$out/$name.hm.err" || { cat "$out/$name.hm.err" >&2; exit 1; }
		$HITMAP report -i "$out/$name.data" --json --top 100000 >"$out/$name.json" \
			2>"$out/$name.hm.err" || { cat "$out/$name.hm.err" >&2; exit 1; }
		cmp -s "$out/$name.cold.json" "$out/$name.json" || {
			echo "types-$name: the second report differs from the first" >&2
			status=1
		}
		"$PERF612" --buildid-dir "$out/buildid-$name" report -i "$out/$name.data" --stdio -n \
			-s dso,symoff,type,typeoff --symfs "$out/symfs" >"$out/$name.perf" \
			2>"$out/$name.perf.err" || { cat "$out/$name.perf.err" >&2; exit 1; }
		python3 "$src/judge.py" --out "$out/$name.out" --script "$out/$name.script" \
			--bin "$bin" --hitmap "$out/$name.json" --perf "$out/$name.perf" $verbose \
			>"$out/$name.judge" || exit 1
		sed -n "s/^\(hitmap\|perf\) /types-$name-\1 /p; /^  /p" "$out/$name.judge"
		awk -v n="types-$name" '$1 == "hitmap" { hr = $3; hw = $5 } $1 == "perf" { pr = $3 }
			END { printf "%s hitmap-right %d perf-right %d %s\n", n, hr, pr,
				(hr >= pr && hw == 0) ? "PASS" : "MISS" }' "$out/$name.judge" |
			tee "$out/$name.line"
		grep -q MISS "$out/$name.line" && status=1
		# speed and memory on the same file: hitmap's report beside
		# perf 6.12's report -s type,typeoff; then hitmap reading the
		# program's DWARF alone, as perf does (run once first, as the
		# other two were)
		$hm_sys_cmd report --sysroot "$out/symfs" -i "$out/$name.data" >/dev/null 2>&1 ||
			exit 1
		timed "$out/$name.hm.time" $hm_cmd report -i "$out/$name.data" \; \
			"$out/$name.perf.time" "$PERF612" --buildid-dir "$out/buildid-$name" \
			report -i "$out/$name.data" --stdio -s type,typeoff --symfs "$out/symfs" \; \
			"$out/$name.scope.time" $hm_sys_cmd report --sysroot "$out/symfs" \
			-i "$out/$name.data" || exit 1
		speed "$out/$name.hm.time" "$out/$name.perf.time" "types-$name" |
			tee "$out/$name.speed"
		grep -q MISS "$out/$name.speed" && status=1
		speed "$out/$name.scope.time" "$out/$name.perf.time" "types-$name-scope"
	done
done

# the larger recordings: speed only
mkdir -p "$out/big$out/big"
cp "$src/fixture.h" "$out/big/"
for r in 30k:3000 122k:12250; do
	n=pf${r%%:*}
	sed "s/^#define ROUNDS 300\$/#define ROUNDS ${r#*:}/" "$src/tasks.c" >"$out/big/$n.c"
	gcc -g -O2 -pthread -o "$out/big/$n" "$out/big/$n.c" || exit 1
	cp "$out/big/$n" "$out/big$out/big/"
	perf record -q -d -c 1 -e page-faults -o "$out/$n.data" -- "$out/big/$n" \
		>/dev/null 2>"$out/$n.rec" || { cat "$out/$n.rec" >&2; exit 1; }
	timed_pair $n "$out/$n.data" "$out/big" || status=1
	perf script -i "$out/$n.data" -F ip 2>/dev/null | wc -l >"$out/$n.samples"
done
paste "$out/pf30k.samples" "$out/pf30k.hm.time" "$out/pf30k.perf.time" \
	"$out/pf122k.samples" "$out/pf122k.hm.time" "$out/pf122k.perf.time" | awk '{
	# per file: its samples, then hitmap and perf as WALL RSS CPU 0
	n = $10 - $1
	if (n <= 0) exit
	h = ($13 - $4) / n * 1e6; p = ($17 - $8) / n * 1e6
	printf "types-pf-per-sample hitmap %.3fus perf %.3fus ratio %.2f INFO\n", h, p,
		(p > 0 ? h / p : 0) }'
gcc -g -O2 -pthread -o "$out/big/regs-share" "$here/../tests/report/regs-share.c" || exit 1
cp "$out/big/regs-share" "$out/big$out/big/"
if perf record -q -o "$out/timer.data" -e cpu-clock -c 50000 \
	--user-regs=AX,BX,CX,DX,SI,DI,BP,SP,IP,R8,R9,R10,R11,R12,R13,R14,R15 --sample-cpu \
	-- "$out/big/regs-share" false 1000 >/dev/null 2>"$out/timer.rec"; then
	timed_pair timer "$out/timer.data" "$out/big" --dsos regs-share || status=1
else
	echo "types-timer: perf record -e cpu-clock --user-regs fails here: $(head -1 "$out/timer.rec")" >&2
fi
exit $status
