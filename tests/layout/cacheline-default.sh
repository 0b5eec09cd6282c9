#!/bin/sh
# The default cacheline size comes from the binary's ELF machine, never from
# the host: mm_struct (296 bytes, tests/fixtures/mm_common.h) takes
# ceil(296/64) = 5 lines on x86-64 and arm64, ceil(296/128) = 3 on ppc64,
# ceil(296/256) = 2 on s390x.  The foreign objects are built with clang's
# cross targets (-ffreestanding -c: no foreign libc needed).  The command
# and a library caller that leaves the size 0 (layout-api --lines: the type
# table, hm_layout_new, the printers) agree.
# Attribution's lines follow the recording's machine the same way when no
# binary decides: one sample each at 0x7000000, +0x40 and +0x80 of a
# perf.data whose header names the machine (tests/perf/gen-c2c --arch; the
# header checked with perf's own reader) are 3 lines on x86-64 and arm64,
# 2 on ppc64le (0x7000000, 0x7000080) and 1 on s390x.
. "$top_srcdir/tests/lib.sh"
require clang clang
require perf linux-perf
src=$TESTS_SRC/fixtures/mm_v1.c
check() {	# check TARGET WANT-LINE WANT-ARCH
	echo "+ clang --target=$1 -ffreestanding -g -gdwarf-4 -c -o $T/$1.o $src" >&2
	clang --target="$1" -ffreestanding -g -gdwarf-4 -c -o "$T/$1.o" "$src" ||
		fail "cannot build for $1"
	"$HITMAP" layout --list "$T/$1.o" >"$T/$1.list" || fail "$1: hitmap layout --list"
	assert_eq "$2" "$(grep '^mm_struct	' "$T/$1.list")" "$1: --list line"
	"$HITMAP" layout --json -C mm_struct "$T/$1.o" >"$T/$1.json" || fail "$1: --json"
	python3 -c 'import json, sys
b = json.load(open(sys.argv[1]))["binary"]
assert (b["arch"], b["cacheline_size"]) == (sys.argv[2], int(sys.argv[3])), b' \
		"$T/$1.json" "$3" "$4" || fail "$1: JSON binary"
	"$top_builddir/tests/layout/layout-api" --lines "$T/$1.o" "$4" ||
		fail "$1: the library's default line size is not $4"
}
check x86_64-linux-gnu "mm_struct	296	2	5" x86_64 64
check aarch64-linux-gnu "mm_struct	296	2	5" aarch64 64
check powerpc64le-linux-gnu "mm_struct	296	2	3" ppc64 128
check s390x-linux-gnu "mm_struct	296	2	2" s390x 256
# -c overrides the machine's size
"$HITMAP" layout --list -c 64 "$T/s390x-linux-gnu.o" | grep -q '^mm_struct	296	2	5$' ||
	fail "-c 64 on s390x"
# report: the recording's machine
report_lines() {	# report_lines ARCH WANT-LINE-ADDRESSES
	"$top_builddir/tests/perf/gen-c2c" -o "$T/$1.data" --arch "$1" lcl-hitm:0x7000000:5:0:101 \
		st-l1hit:0x7000040:5:1:102 st-l1hit:0x7000080:5:1:102 || fail "gen-c2c --arch $1"
	assert_eq "# arch : $1" "$(perf report --header-only -i "$T/$1.data" 2>/dev/null |
		grep '^# arch')" "$1: perf reads the header's machine"
	"$HITMAP" report --json -i "$T/$1.data" >"$T/$1.report.json" || fail "$1: hitmap report"
	assert_eq "$2" "$(python3 -c 'import json, sys
print(" ".join(hex(l["address"]) for l in json.load(open(sys.argv[1]))["lines"]))' \
		"$T/$1.report.json")" "$1: report line addresses"
}
report_lines x86_64 "0x7000000 0x7000040 0x7000080"
report_lines aarch64 "0x7000000 0x7000040 0x7000080"
report_lines ppc64le "0x7000000 0x7000080"
report_lines s390x "0x7000000"
