#!/bin/sh
# A bogus header size (issue 30, item 8): 2^40 in the header-size field at
# offset 8 is refused with one line naming the file and the offset, exit 3,
# as perf refuses it (the oracle: perf script fails on the same file).  The
# sizes perf reads, 104 and the old 72, stay accepted.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/robust/lib-robust.sh"
require perf linux-perf
require python3
cd "$T" || exit 1
build_fixture "$TESTS_SRC/record/spin.c" spin "$CC" 4 -O1 -pthread
perf record -q -e cpu-clock -F 2000 -o full.data -- ./spin 10000000 >rec.out 2>rec.err ||
	{ cat rec.err >&2; skip "perf record -e cpu-clock does not work here (perf_event_paranoid?)"; }
run_hm report -i full.data
[ "$rc" = 0 ] || { cat err >&2; fail "the intact recording: exit $rc"; }
for size in 1099511627776 112 4096; do
	cp full.data bad.data
	python3 -c 'import struct, sys
f = open(sys.argv[1], "r+b"); f.seek(8); f.write(struct.pack("<Q", int(sys.argv[2])))' \
		bad.data "$size"
	perf script -i bad.data >/dev/null 2>&1 && fail "perf script reads header size $size"
	expect_err3 "^error: bad.data: bad header size $size at offset 0x8 \(a perf.data header is 104 bytes, or 72 in old files\)$" \
		report -i bad.data
done
exit 0
