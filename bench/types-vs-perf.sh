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
# timed on the file (/usr/bin/time; the median of TYPES_RUNS runs, 3 by
# default):
#   types-RECORDING-wall hitmap H perf P ratio R goal<=0.5 PASS|MISS
#   types-RECORDING-cpu  the same for CPU time (user + sys): steadier than
#                        wall time on a shared machine
#   types-RECORDING-rss hitmap H KB perf P KB
# and the same three for hitmap report --sysroot SYMFS, which like perf
# reads the program's DWARF alone: the C library's (libc6-dbg), which
# hitmap reads by default to name the samples in malloc and the thread
# library, is most of its time on these small programs.  These lines
# compare the same work; they do not change the exit status:
#   types-RECORDING-scope-wall, -scope-cpu, -scope-rss
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
[ -x /usr/bin/time ] || { echo "/usr/bin/time not installed (time)" >&2; exit 77; }
PERF612=${PERF612:-$(sh "$here/perf612.sh" 2>/dev/null | tail -n 1)}
[ -x "$PERF612" ] || { echo "perf 6.12 not available (bench/perf612.sh)" >&2; exit 77; }
if [ -n "${TYPES_KEEP:-}" ]; then
	out=$TYPES_KEEP
	mkdir -p "$out"
else
	out=$(mktemp -d "${TMPDIR:-/tmp}/hitmap-types.XXXXXX")
	trap 'rm -rf "$out"' EXIT
fi

# libtool's wrapper script costs a shell before hitmap starts: time the
# program it runs (as bench/lib.sh does)
hm_dir=$(dirname "$HITMAP")
runs=${TYPES_RUNS:-3}
if [ -x "$hm_dir/.libs/hitmap" ] && head -n 1 "$HITMAP" | grep -q '^#!'; then
	hm_cmd="env LD_LIBRARY_PATH=$hm_dir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} $hm_dir/.libs/hitmap"
else
	hm_cmd=$HITMAP
fi

# timed FILE CMD...: run CMD $runs times; FILE gets the medians of wall
# time, peak RSS and CPU time (in the columns /usr/bin/time -f "%e %M %U %S"
# gives, system time 0)
timed() {
	t=$1
	shift
	: >"$t.all"
	for i in $(seq "$runs"); do
		/usr/bin/time -f "%e %M %U %S" -a -o "$t.all" "$@" >/dev/null 2>&1 || return 1
	done
	for c in 1 2 3; do
		awk -v c=$c '{ print c == 3 ? $3 + $4 : $c }' "$t.all" | sort -n |
			awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
	done | paste -s -d ' ' | sed 's/$/ 0/' >"$t"
}

# speed FILE-HITMAP FILE-PERF NAME: the wall, cpu and rss lines
speed() {
	paste "$1" "$2" | awk -v n="$3" '{
		r = $5 > 0 ? $1 / $5 : 0
		printf "%s-wall hitmap %.2fs perf %.2fs ratio %.2f goal<=0.5 %s\n", n, $1, $5,
			r, r <= 0.5 ? "PASS" : "MISS"
		h = $3 + $4; p = $7 + $8; r = p > 0 ? h / p : 0
		printf "%s-cpu hitmap %.2fs perf %.2fs ratio %.2f goal<=0.5 %s\n", n, h, p,
			r, r <= 0.5 ? "PASS" : "MISS"
		printf "%s-rss hitmap %d KB perf %d KB\n", n, $2, $6 }'
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
		$HITMAP report -i "$out/$name.data" --json --top 100000 >"$out/$name.json" \
			2>"$out/$name.hm.err" || { cat "$out/$name.hm.err" >&2; exit 1; }
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
		# program's DWARF alone, as perf does
		timed "$out/$name.hm.time" $hm_cmd report -i "$out/$name.data" || exit 1
		timed "$out/$name.perf.time" "$PERF612" --buildid-dir "$out/buildid-$name" \
			report -i "$out/$name.data" --stdio -s type,typeoff --symfs "$out/symfs" ||
			exit 1
		timed "$out/$name.scope.time" $hm_cmd report --sysroot "$out/symfs" \
			-i "$out/$name.data" || exit 1
		speed "$out/$name.hm.time" "$out/$name.perf.time" "types-$name" |
			tee "$out/$name.speed"
		grep -q MISS "$out/$name.speed" && status=1
		speed "$out/$name.scope.time" "$out/$name.perf.time" "types-$name-scope"
	done
done
exit $status
