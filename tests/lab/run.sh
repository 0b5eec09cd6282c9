#!/bin/sh
# The kernel lab's tests (make check-kernel): each boots Debian's 6.1 kernel
# under QEMU, records seed workloads in it and checks hitmap's reports
# against oracles.  Exit 77 when every test skipped (the message names what
# is missing), 1 when one failed.
here=$(cd "$(dirname "$0")" && pwd)
status=77
for t in "$here"/*.test; do
	echo "--- $(basename "$t")"
	start=$(date +%s)
	bash "$t"
	rc=$?
	echo "--- $(basename "$t"): exit $rc in $(( $(date +%s) - start )) s"
	case $rc in
	0) [ $status = 77 ] && status=0 ;;
	77) ;;
	*) status=1 ;;
	esac
done
exit $status
