#!/bin/sh
# bench/layout.sh VMLINUX: wall time and peak RSS of `hitmap layout -C tcp_sock`
# and `hitmap layout --list` beside pahole's (`-C tcp_sock`, `--sizes`) on the
# same file in the same run.  One line per measurement:
#   target measured anchor ratio goal PASS|MISS
# (ratio = hitmap / pahole; goal: at most 0.25).  HITMAP overrides ./hitmap.
# The cold lines run without the type cache (HITMAP_NO_CACHE=1); the cached
# lines use a private empty cache, in order: the first -C run (fast path, no
# cache written), --list (loads everything and writes the cache), then warm
# -C runs, whose goal is absolute (at most 0.2 s for any single struct).
# The -j2 lines put `hitmap layout -j2` beside `pahole -j2` (both on two
# threads), cold, BENCH_REPEAT times (default 3) each right after the
# other, and print the medians of the times and of the ratios (goals: 0.25
# for time, 0.1 for peak RSS): the machine may be shared, so a ratio is
# only ever taken within one repetition.
set -u
V=${1:?usage: bench/layout.sh VMLINUX}
HITMAP=${HITMAP:-./hitmap}
GOAL=0.25
command -v pahole >/dev/null 2>&1 || { echo "pahole not installed (dwarves)" >&2; exit 77; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not installed (time)" >&2; exit 77; }
out=$(mktemp -d "${TMPDIR:-/tmp}/hitmap-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT

measure() {	# measure NAME CMD...: "seconds kilobytes"
	name=$1; shift
	/usr/bin/time -f '%e %M' -o "$out/$name.time" "$@" >"$out/$name.out" 2>/dev/null ||
		{ echo "$name: command failed: $*" >&2; exit 1; }
	cat "$out/$name.time"
}

line() {	# line TARGET UNIT HITMAP-VALUE PAHOLE-VALUE
	awk -v t="$1" -v u="$2" -v h="$3" -v p="$4" -v g="$GOAL" 'BEGIN {
		r = p > 0 ? h / p : 0
		printf "%s %s%s %s%s %.3f %s %s\n", t, h, u, p, u, r, g, (r <= g ? "PASS" : "MISS")
	}'
}

line_abs() {	# line_abs TARGET HITMAP-SECONDS PAHOLE-SECONDS GOAL-SECONDS
	awk -v t="$1" -v h="$2" -v p="$3" -v g="$4" 'BEGIN {
		r = p > 0 ? h / p : 0
		printf "%s %ss %ss %.3f %ss %s\n", t, h, p, r, g, (h <= g ? "PASS" : "MISS")
	}'
}

set -- $(measure hm-one env HITMAP_NO_CACHE=1 "$HITMAP" layout -C tcp_sock "$V"); hm_one_t=$1; hm_one_m=$2
set -- $(measure pa-one pahole -F dwarf -M --suppress_force_paddings -C tcp_sock "$V"); pa_one_t=$1; pa_one_m=$2
set -- $(measure hm-list env HITMAP_NO_CACHE=1 "$HITMAP" layout --list "$V"); hm_list_t=$1; hm_list_m=$2
export XDG_CACHE_HOME="$out/cache"
set -- $(measure hm-cc env -u HITMAP_NO_CACHE "$HITMAP" layout -C tcp_sock "$V"); hm_cc_t=$1; hm_cc_m=$2
set -- $(measure hm-cl env -u HITMAP_NO_CACHE "$HITMAP" layout --list "$V"); hm_cl_t=$1; hm_cl_m=$2
set -- $(measure hm-warm env -u HITMAP_NO_CACHE "$HITMAP" layout -C tcp_sock "$V"); hm_warm_t=$1
set -- $(measure hm-warm2 env -u HITMAP_NO_CACHE "$HITMAP" layout -C task_struct "$V"); hm_warm2_t=$1
set -- $(measure pa-list pahole -F dwarf --sizes "$V"); pa_list_t=$1; pa_list_m=$2

# median of the numbers on stdin
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
		else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# jline TARGET UNIT GOAL FILE: FILE has "hitmap pahole" per repetition
jline() {
	h=$(awk '{ print $1 }' "$4" | median)
	p=$(awk '{ print $2 }' "$4" | median)
	r=$(awk '{ print ($2 > 0 ? $1 / $2 : 0) }' "$4" | median)
	awk -v t="$1" -v u="$2" -v h="$h" -v p="$p" -v r="$r" -v g="$3" 'BEGIN {
		printf "%s %s%s %s%s %.3f %s %s\n", t, h, u, p, u, r, g, (r <= g ? "PASS" : "MISS")
	}'
}

R=${BENCH_REPEAT:-3}
: >"$out/jl.t"; : >"$out/jl.m"; : >"$out/jt.t"; : >"$out/jt.m"
for rep in $(seq "$R"); do
	set -- $(measure hm-jl env HITMAP_NO_CACHE=1 "$HITMAP" layout -j2 --list "$V"); a=$1; b=$2
	set -- $(measure pa-jl pahole -F dwarf -j2 --sizes "$V")
	echo "$a $1" >>"$out/jl.t"; echo "$b $2" >>"$out/jl.m"
	set -- $(measure hm-jt env HITMAP_NO_CACHE=1 "$HITMAP" layout -j2 -C tcp_sock "$V"); a=$1; b=$2
	set -- $(measure pa-jt pahole -F dwarf -j2 -M --suppress_force_paddings -C tcp_sock "$V")
	echo "$a $1" >>"$out/jt.t"; echo "$b $2" >>"$out/jt.m"
done

line layout-C-tcp_sock-wall s "$hm_one_t" "$pa_one_t"
line layout-C-tcp_sock-rss KB "$hm_one_m" "$pa_one_m"
line layout-list-wall s "$hm_list_t" "$pa_list_t"
line layout-list-rss KB "$hm_list_m" "$pa_list_m"
line layout-C-tcp_sock-cold-cached-wall s "$hm_cc_t" "$pa_one_t"
line layout-C-tcp_sock-cold-cached-rss KB "$hm_cc_m" "$pa_one_m"
line layout-list-cold-cached-wall s "$hm_cl_t" "$pa_list_t"
line layout-list-cold-cached-rss KB "$hm_cl_m" "$pa_list_m"
line_abs layout-C-tcp_sock-warm-wall "$hm_warm_t" "$pa_one_t" 0.2
line_abs layout-C-task_struct-warm-wall "$hm_warm2_t" "$pa_one_t" 0.2
jline layout-list-j2-wall s 0.25 "$out/jl.t"
jline layout-list-j2-rss KB 0.1 "$out/jl.m"
jline layout-C-tcp_sock-j2-wall s 0.25 "$out/jt.t"
jline layout-C-tcp_sock-j2-rss KB 0.1 "$out/jt.m"
