# bench/lib.sh: the harness bench/report.sh, bench/report-kernel.sh and
# bench/kernel-vs-perf.sh share (the last two through bench/kernel-setup.sh),
# sourced after they set HITMAP and GEN and checked their own tools.
# It fails (77) without /usr/bin/time and (1) without the generator, makes
# the scratch directory $out (removed on exit), sets $hm_cmd, the command
# that runs hitmap, and defines measure, median and line.
[ -x /usr/bin/time ] || { echo "/usr/bin/time not installed (time)" >&2; exit 77; }
[ -x "$GEN" ] || { echo "$GEN not built (make check builds it)" >&2; exit 1; }
out=$(mktemp -d "${TMPDIR:-/tmp}/hitmap-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT

# In a build tree ./hitmap is libtool's wrapper script, which costs a shell
# and ~10 ms before hitmap starts: time the program it runs instead.
hm_dir=$(dirname "$HITMAP")
if [ -x "$hm_dir/.libs/hitmap" ] && head -n 1 "$HITMAP" | grep -q '^#!'; then
	hm_cmd="env LD_LIBRARY_PATH=$hm_dir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} $hm_dir/.libs/hitmap"
else
	hm_cmd=$HITMAP
fi

measure() {	# measure NAME CMD...: appends "wall-s cpu-s rss-KB" to $out/NAME.all
	# perf stat times the command from its start to its exit (perf's own
	# start-up is not counted); /usr/bin/time gives the peak RSS.
	name=$1; shift
	perf stat -e task-clock -o "$out/$name.stat" -- \
		/usr/bin/time -f '%M' -o "$out/$name.time" "$@" >"$out/$name.out" 2>"$out/$name.err" ||
		{ echo "$name: command failed: $*" >&2; cat "$out/$name.err" >&2; exit 1; }
	awk -v rss="$(tail -n 1 "$out/$name.time")" '
		$2 == "msec" && $3 == "task-clock" { gsub(",", "", $1); cpu = $1 / 1000 }
		$2 == "seconds" && $3 == "time" && $4 == "elapsed" { wall = $1 }
		END { printf "%.4f %.4f %d\n", wall, cpu, rss }' "$out/$name.stat" >>"$out/$name.all"
}

median() {	# median NAME COLUMN: of the RUNS measurements of NAME
	sort -n -k "$2" "$out/$1.all" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}

line() {	# line TARGET UNIT MEASURED ANCHOR GOAL-OP GOAL
	awk -v t="$1" -v u="$2" -v h="$3" -v p="$4" -v op="$5" -v g="$6" 'BEGIN {
		r = p > 0 ? h / p : 0
		ok = op == "<=" ? r <= g : op == ">=" ? r >= g : 1
		goal = op == "-" ? "-" : op g
		printf "%s %s%s %s%s %.3f %s %s\n", t, h, u, p, u, r, goal, (op == "-" ? "INFO" : ok ? "PASS" : "MISS")
	}'
}
