#!/bin/sh
# No input waits on a FIFO (issue 30, items 3 and 9): every input path is
# opened with O_NONBLOCK and its type checked before anything is read.  A
# perf.data directory whose data or data.N is a FIFO, a --btf-base FIFO and
# a FIFO given as a binary are refused at once with one line naming the
# FIFO, exit 3.  A FIFO given as -i is a pipe meant as such (perf record -o
# FIFO): it is read once a writer came, and a message about its stream names
# it, not "standard input".
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/robust/lib-robust.sh"
require perf linux-perf
cd "$T" || exit 1
build_fixture "$TESTS_SRC/record/spin.c" spin "$CC" 4 -O1 -pthread
perf record -q -e cpu-clock -F 2000 -o full.data -- ./spin 10000000 >rec.out 2>rec.err ||
	{ cat rec.err >&2; skip "perf record -e cpu-clock does not work here (perf_event_paranoid?)"; }

# -i DIR whose data is a FIFO
mkdir d1 && mkfifo d1/data
expect_err3 "^error: d1: a directory without a perf.data file 'data': a FIFO, not a regular file$" \
	report -i d1

# -i DIR of perf record --threads whose data.0 is a FIFO
if perf record -q --threads -e cpu-clock -F 2000 -o thr.data -- ./spin 10000000 \
	>rec.out 2>rec.err && [ -f thr.data/data.0 ]; then
	rm thr.data/data.0 && mkfifo thr.data/data.0
	expect_err3 "^error: thr.data/data.0: cannot read the stream: a FIFO, not a regular file$" \
		report -i thr.data
else
	echo "perf record --threads does not work here: the data.0 case is not run" >&2
fi

# --btf-base FIFO, and a FIFO as the BTF or ELF file itself
mkfifo base.fifo obj.fifo
if [ -r /sys/kernel/btf/vmlinux ]; then
	expect_err3 "^error: base.fifo: a FIFO, not a regular file$" \
		layout --btf-base base.fifo /sys/kernel/btf/vmlinux
fi
expect_err3 "^error: obj.fifo: not a regular file$" layout obj.fifo

# -i FIFO: a pipe meant as such; a perf.data file (not a pipe stream) written
# into it is refused naming the FIFO
mkfifo in.fifo
(cat full.data >in.fifo) &
expect_err3 "^error: in.fifo: the pipe is not a perf.data pipe stream \(header size 104, want 16\) at offset 0x8$" \
	report -i in.fifo
wait
# standard input keeps its name
set +e
cat full.data | timeout "$TMO" "$HM_RUN" report -i - >out 2>err
rc=$?
[ "$rc" = 3 ] || fail "report -i - from a pipe: exit $rc, want 3"
grep -q "^error: <stdin>: standard input is not a perf.data pipe stream" err ||
	{ cat err >&2; fail "report -i -: message"; }
# and a real pipe stream through the FIFO is read whole
(perf record -q -e cpu-clock -F 2000 -o - -- ./spin 10000000 2>/dev/null >in.fifo) &
run_hm report -i in.fifo
wait
[ "$rc" = 0 ] || { cat err >&2; fail "report -i FIFO of a pipe stream: exit $rc"; }
grep -q "address samples" out || fail "report -i FIFO: no report"
exit 0
