#!/bin/sh
# bench/btf.sh VMLINUX: `hitmap layout --btf` beside `pahole -F btf` on the
# same file in the same run — one struct (-C tcp_sock) and the whole list
# (--list against --sizes) — and the same on the running kernel's
# /sys/kernel/btf/vmlinux when it is readable.  Runs take tens of
# milliseconds, so each side is the best of five.  One line per measurement:
#   target measured anchor ratio goal PASS|MISS
# (ratio = hitmap / pahole; goal: at most 1.5).  HITMAP overrides ./hitmap.
set -u
V=${1:?usage: bench/btf.sh VMLINUX}
HITMAP=${HITMAP:-./hitmap}
GOAL=1.5
command -v pahole >/dev/null 2>&1 || { echo "pahole not installed (dwarves)" >&2; exit 77; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not installed (time)" >&2; exit 77; }
out=$(mktemp -d "${TMPDIR:-/tmp}/hitmap-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT

best() {	# best CMD...: "seconds kilobytes", the fastest of five runs
	for i in 1 2 3 4 5; do
		/usr/bin/time -f '%e %M' -o "$out/t" "$@" >/dev/null 2>&1 ||
			{ echo "command failed: $*" >&2; exit 1; }
		cat "$out/t"
	done | sort -n | head -1
}

line() {	# line TARGET UNIT HITMAP-VALUE PAHOLE-VALUE
	awk -v t="$1" -v u="$2" -v h="$3" -v p="$4" -v g="$GOAL" 'BEGIN {
		r = p > 0 ? h / p : 0
		printf "%s %s%s %s%s %.3f %s %s\n", t, h, u, p, u, r, g, (r <= g ? "PASS" : "MISS")
	}'
}

run() {		# run LABEL FILE [HITMAP-FLAG]
	label=$1 f=$2 flag=${3:-}
	set -- $(best "$HITMAP" layout $flag -C tcp_sock "$f") $(best pahole -F btf -C tcp_sock "$f")
	line "btf-$label-C-tcp_sock-wall" s "$1" "$3"
	line "btf-$label-C-tcp_sock-rss" KB "$2" "$4"
	set -- $(best "$HITMAP" layout $flag --list "$f") $(best pahole -F btf --sizes "$f")
	line "btf-$label-list-wall" s "$1" "$3"
	line "btf-$label-list-rss" KB "$2" "$4"
}

run vmlinux "$V" --btf
[ -r /sys/kernel/btf/vmlinux ] && run sysfs /sys/kernel/btf/vmlinux
exit 0
