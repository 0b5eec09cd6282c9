#!/bin/sh
# bench/check.sh VMLINUX: wall time of `hitmap check --rules rules/linux/*.rules`
# beside `hitmap layout --list` on the same file in the same run, both cold
# (no type cache).  Prints `target measured anchor ratio goal PASS|MISS`
# (goal: check at most 1.5 times layout --list, issue 7 target 6).
set -u
V=${1:?usage: bench/check.sh VMLINUX}
here=$(cd "$(dirname "$0")" && pwd)
HITMAP=${HITMAP:-./hitmap}
[ -x /usr/bin/time ] || { echo "/usr/bin/time not installed (time)" >&2; exit 77; }
out=$(mktemp -d "${TMPDIR:-/tmp}/hitmap-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
export HITMAP_NO_CACHE=1

secs() {	# secs CMD...: wall seconds (check exits 1 when rules fail: fine)
	/usr/bin/time -f '%e' -o "$out/t" "$@" >/dev/null 2>&1
	[ $? -le 1 ] || { echo "command failed: $*" >&2; exit 1; }
	tail -n 1 "$out/t"
}

c=$(cd "$here/.." && secs "$HITMAP" check --rules rules/linux/*.rules "$V")
l=$(secs "$HITMAP" layout --list "$V")
awk -v c="$c" -v l="$l" 'BEGIN {
	r = l > 0 ? c / l : 0
	printf "check-rules-linux-wall %ss %ss %.3f 1.5 %s\n", c, l, r, (r <= 1.5 ? "PASS" : "MISS")
}'
