#!/bin/sh
# The kernel lab's tests (make check-kernel): each boots Debian's 6.1 kernel
# under QEMU, records seed workloads in it and checks hitmap's reports
# against oracles.  Exit 77 when every test skipped (the message names what
# is missing), 1 when one failed.  LAB_RUNS=N runs each test N times (a
# verdict must hold in every boot), 1 by default.
here=$(cd "$(dirname "$0")" && pwd)
status=77
runs=${LAB_RUNS:-1}
case $runs in ''|*[!0-9]*|0) echo "run.sh: LAB_RUNS=$runs: not a count" >&2; exit 2 ;; esac
all=$(date +%s)
i=1
while [ $i -le "$runs" ]; do
	for t in "$here"/*.test; do
		echo "--- $(basename "$t") (run $i of $runs)"
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
	i=$((i + 1))
done
echo "--- the kernel lab: exit $status in $(( $(date +%s) - all )) s"
exit $status
