#!/bin/sh
# Debian kernel integration tests: fetch the 6.1 cloud vmlinux with DWARF once
# into a cache outside the tree, then run every tests/vmlinux/*.test against it.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/fetch.sh"
status=0
for t in "$here"/*.test; do
	[ -e "$t" ] || continue
	echo "--- $(basename "$t")"
	sh "$t" "$VMLINUX"
	rc=$?
	[ $rc = 0 ] || [ $rc = 77 ] || status=1	# 77: skipped, the test said why
done
exit $status
