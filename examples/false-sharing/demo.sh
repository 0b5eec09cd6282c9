#!/bin/sh
# The hitmap demo: a struct whose two counters, written by two threads, share a
# cacheline.  Run from the build directory (make demo).
set -e
here=$(cd "$(dirname "$0")" && pwd)
HITMAP=${HITMAP:-./hitmap}
out=${TMPDIR:-/tmp}/hitmap-demo.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT

echo "== build examples/false-sharing/counters.c with -g"
${CC:-gcc} -g -O2 -pthread "$here/counters.c" -o "$out/counters"
echo
echo "== hitmap layout -C counters: where the fields sit on cachelines"
"$HITMAP" layout -C counters "$out/counters"
