#!/bin/sh
# A CI gate on struct layouts, as a plain shell recipe.
#
#   examples/ci/gate.sh [PATCH]
#
# Builds src/ twice — the base as it is, and patched with PATCH (default:
# remove-has_pinned.patch) — with debug info, then lets `hitmap diff` compare
# the two builds: it fails (exit 1) when the patch breaks a rule of mm.rules
# or puts two locks/atomics on one cacheline, and prints the affected lines of
# both layouts side by side, ready to paste into a review.  With a kernel tree
# the same three steps are: build vmlinux at the base commit, build it at the
# patch, `hitmap diff --rules rules/linux/*.rules base/vmlinux new/vmlinux`.
#
# Environment: HITMAP (default: hitmap on PATH), CC (default: cc),
# SARIF=FILE to also write the findings as SARIF 2.1.0 for code scanning.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
patch=${1:-$here/remove-has_pinned.patch}
patch=$(cd "$(dirname "$patch")" && pwd)/$(basename "$patch")
HITMAP=${HITMAP:-hitmap}
# a relative path (HITMAP=./hitmap) must survive the cd below
case $HITMAP in
*/*) HITMAP=$(cd "$(dirname "$HITMAP")" && pwd)/$(basename "$HITMAP") ;;
esac
CC=${CC:-cc}
work=$(mktemp -d "${TMPDIR:-/tmp}/hitmap-gate.XXXXXX")
trap 'rm -rf "$work"' EXIT

# 1. the base and the patched tree
cp -R "$here/src" "$work/base"
cp -R "$here/src" "$work/patched"
(cd "$work/patched" && patch -s -p1 <"$patch")

# 2. the same build of both, with DWARF
for tree in base patched; do
	"$CC" -g -O2 -c -o "$work/$tree/mm.o" "$work/$tree/mm.c"
done

# 3. the gate: exit 1 on a layout regression
if [ -n "${SARIF:-}" ]; then
	"$HITMAP" diff --sarif --rules "$here/mm.rules" "$work/base/mm.o" \
		"$work/patched/mm.o" >"$SARIF" || true
fi
cd "$work"
set +e
"$HITMAP" diff --rules "$here/mm.rules" base/mm.o patched/mm.o
rc=$?
[ $rc -le 1 ] || echo "gate: hitmap diff failed to run (exit $rc)" >&2
exit $rc
