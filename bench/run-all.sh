#!/bin/sh
# Run every benchmark against its anchor (pahole, perf) in one go.  Each
# bench/*.sh prints lines `target measured anchor ratio goal PASS|MISS`; this
# script gathers them under one header.
#   bench/run-all.sh [VMLINUX]    (default: the test cache's Debian vmlinux)
set -u
here=$(cd "$(dirname "$0")" && pwd)
VMLINUX=${1:-}
if [ -z "$VMLINUX" ]; then
	. "$here/../tests/vmlinux/fetch.sh" || exit 1
fi
export HITMAP=${HITMAP:-$here/../hitmap}
# the targets are cold runs: no type cache (layout.sh opts back in for its
# cached and warm lines, in a private cache directory)
export HITMAP_NO_CACHE=1
printf '%-34s %12s %12s %8s %8s %s\n' target measured anchor ratio goal result
for b in layout report report-mem report-kernel check btf html regs; do
	[ -f "$here/$b.sh" ] || continue
	sh "$here/$b.sh" "$VMLINUX" | grep -E ' (PASS|MISS)$'
done
