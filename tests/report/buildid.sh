#!/bin/sh
# A stripped program, its DWARF in a separate debug file of another name,
# given with --binary: matched by the build-id that perf wrote into the
# recording's build-id table (its MMAP records carry none), with the mapped
# file's own segments for the addresses.  Real page-fault recording of the
# seed program's "touch" mode (g_big.a, .b, .c on three pages); oracle:
# perf script's fault addresses and perf's mapping record (as pagefault.sh).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require objcopy binutils
build_seed gcc "$T/full"
mkdir -p "$T/dbg" "$T/run"
objcopy --only-keep-debug "$T/full" "$T/dbg/renamed.debug" || fail "objcopy --only-keep-debug"
objcopy --strip-debug "$T/full" "$T/run/seed" || fail "objcopy --strip-debug"
if ! perf record -q -d -c 1 -e page-faults -o "$T/pf.data" -- "$T/run/seed" touch \
	>"$T/rec.out" 2>"$T/rec.err"; then
	grep -qi "not supported\|permission" "$T/rec.err" &&
		skip "the kernel refuses the page-faults event: $(head -1 "$T/rec.err")"
	cat "$T/rec.err" >&2
	fail "perf record failed"
fi
perf buildid-list -i "$T/pf.data" 2>/dev/null | grep -q "$T/run/seed" ||
	fail "perf wrote no build-id for the program"
base=$(perf script -i "$T/pf.data" --show-mmap-events 2>/dev/null |
	awk -v f="$T/run/seed" '/PERF_RECORD_MMAP2/ && $NF == f && / @ 0 / {
		s = $0; sub(/.*\[/, "", s); sub(/\(.*/, "", s); print s; exit }')
[ -n "$base" ] || fail "no mapping of the program in perf script"
big=$(($base + $(sym_addr "$T/full" g_big)))
perf script -i "$T/pf.data" -F addr 2>/dev/null | awk '{ print $1 }' >"$T/addrs"

"$HITMAP" report -i "$T/pf.data" --binary "$T/dbg/renamed.debug" --json >"$T/r.json" 2>"$T/r.err" ||
	{ cat "$T/r.err" >&2; fail "report --binary renamed.debug"; }
for f in a:0 b:8200 c:16400; do
	name=${f%%:*}; off=${f#*:}
	want=$(python3 -c "import sys
lo = $big + $off
print(sum(1 for l in open(sys.argv[1]) if lo <= int(l, 16) < lo + 8))" "$T/addrs")
	[ "$want" -ge 1 ] || fail "perf saw no fault on g_big.$name"
	assert_eq "$want" "$(jq_py "$T/r.json" "field('g_big.$name')['counts']['samples']")" \
		"faults on g_big.$name through --binary renamed.debug"
	assert_eq "$(($big + $off))" "$(jq_py "$T/r.json" "field('g_big.$name')['address']")" \
		"runtime address of g_big.$name from the mapped file's segments"
done
# without it nothing names g_big: no debug info anywhere for this build (a
# private HOME: perf's build-id cache in ~/.debug may hold an unstripped
# copy of this very build, recorded by another test)
mkdir -p "$T/home"
HOME=$T/home "$HITMAP" report -i "$T/pf.data" --json >"$T/n.json" 2>"$T/n.err" || fail "report"
assert_eq "None" "$(jq_py "$T/n.json" "field('g_big.a')")" "g_big.a without the debug file"
grep -qF "$T/run/seed: no debug info: its samples are unattributed" "$T/n.err" ||
	fail "no note for the stripped program: $(cat "$T/n.err")"
# the same debug file under a private debug dir's build-id path, found by
# the build-id of the program's mapping
id=$(readelf -n "$T/run/seed" | sed -n 's/.*Build ID: *//p')
mkdir -p "$T/dd/.build-id/$(echo "$id" | cut -c1-2)"
cp "$T/dbg/renamed.debug" "$T/dd/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
HOME=$T/home "$HITMAP" report -i "$T/pf.data" --debug-dir "$T/dd" --offline --json >"$T/dd.json" \
	2>"$T/dd.err" || { cat "$T/dd.err" >&2; fail "report --debug-dir"; }
for f in a b c; do
	assert_eq "$(jq_py "$T/r.json" "field('g_big.$f')['counts']['samples']")" \
		"$(jq_py "$T/dd.json" "field('g_big.$f')['counts']['samples']")" \
		"g_big.$f through --debug-dir"
done
# another build under the program's name: a warning, its samples unattributed
mkdir -p "$T/o"
build_seed clang "$T/o/seed"
HOME=$T/home "$HITMAP" report -i "$T/pf.data" --binary "$T/o/seed" --json >"$T/o.json" \
	2>"$T/o.err" || fail "report --binary another build"
grep -qF "warning: $T/o/seed: build-id " "$T/o.err" || fail "no build-id warning: $(cat "$T/o.err")"
assert_eq "None" "$(jq_py "$T/o.json" "field('g_big.a')")" "g_big.a through another build"
# the debug file alone cannot place the samples: the mapped file is gone
mv "$T/run/seed" "$T/seed.moved"
"$HITMAP" report -i "$T/pf.data" --binary "$T/dbg/renamed.debug" >"$T/m.out" 2>"$T/m.err" ||
	fail "report, program moved"
grep -qF "warning: $T/dbg/renamed.debug: a debug file: its samples need the mapped file $T/run/seed" \
	"$T/m.err" || fail "no warning for a debug file without its program: $(cat "$T/m.err")"
exit 0
