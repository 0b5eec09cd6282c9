#!/bin/sh
# Attribution by instruction in a stripped executable: the instruction
# bytes are the mapped (stripped) file's, the variables, types and function
# symbols its separate debug file's (objcopy --only-keep-debug), found by
# .gnu_debuglink beside it or by build-id under --debug-dir.  Without the
# debug file nothing of the fixture's objects is named.  Oracles: the
# fixture's printout (tests/report/heap.c: addresses, offsetof, sizeof) and
# perf script's sample addresses, through tests/report/heap-oracle.py;
# readelf for what the stripped file lacks.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require objcopy binutils
require readelf binutils

# record DIR BIN: page faults of DIR/BIN's run into DIR/pf.data, its
# printout in DIR/out, perf script's samples in DIR/addrs.  perf script
# names the functions from a build-id folder of the test's own that holds
# the unstripped build ($full): the oracle needs them for the stack object,
# and ~/.debug may or may not hold this build (it does only when an earlier
# test recorded it), which made the oracle's answer depend on test order.
record() {
	(cd "$1" && perf record -N -q -d -c 1 -e page-faults -o pf.data -- "./$2" >out 2>rec.err) || {
		grep -qi "not supported\|permission" "$1/rec.err" &&
			skip "the kernel refuses the page-faults event: $(head -1 "$1/rec.err")"
		cat "$1/rec.err" >&2
		fail "perf record failed"
	}
	perf --buildid-dir "$T/perfbid" script -i "$1/pf.data" -F ip,sym,addr,dso 2>/dev/null \
		>"$1/addrs"
}

for cc in gcc clang; do
	require $cc $cc
	full="$T/full$cc"
	build_fixture "$RSRC/heap.c" "$full" $cc 5 -O2 "$RSRC/heap-dup.c"
	id=$(readelf -n "$full" | awk '/Build ID:/ { print $3 }')
	[ -n "$id" ] || fail "$cc: the fixture has no build-id"
	mkdir -p "$T/link$cc" "$T/byid$cc" "$T/none$cc" \
		"$T/dbg$cc/.build-id/$(echo "$id" | cut -c1-2)"
	objcopy --only-keep-debug "$full" "$T/link$cc/heap.debug"
	cp "$T/link$cc/heap.debug" \
		"$T/dbg$cc/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
	objcopy --strip-all --add-gnu-debuglink="$T/link$cc/heap.debug" "$full" "$T/link$cc/heap"
	objcopy --strip-all "$full" "$T/byid$cc/heap"
	objcopy --strip-all "$full" "$T/none$cc/heap"
	perf --buildid-dir "$T/perfbid" buildid-cache --add "$full" ||
		fail "$cc: perf buildid-cache --add"
	for f in link byid; do
		readelf -S "$T/$f$cc/heap" | grep -q -e '\.debug_info' -e '\.symtab' &&
			fail "$cc $f: objcopy --strip-all left DWARF or symbols"
	done

	# By .gnu_debuglink, the debug file beside the binary.
	record "$T/link$cc" heap
	"$HITMAP" report -i "$T/link$cc/pf.data" --json --top 100000 >"$T/r.json" 2>"$T/r.err" ||
		{ cat "$T/r.err" >&2; fail "$cc: report (debuglink)"; }
	python3 "$RSRC/heap-oracle.py" "$T/link$cc/out" "$T/link$cc/addrs" "$T/r.json" \
		--bin="$T/link$cc/heap" || fail "$cc: stripped, debuglink: attributed wrong"
	[ "$(jq_py "$T/r.json" "d['buckets']['instruction']")" -ge 8 ] ||
		fail "$cc: stripped, debuglink: fewer than 8 samples by instruction"

	# By build-id, under --debug-dir.
	record "$T/byid$cc" heap
	"$HITMAP" report -i "$T/byid$cc/pf.data" --debug-dir "$T/dbg$cc" --json --top 100000 \
		>"$T/r.json" 2>"$T/r.err" || { cat "$T/r.err" >&2; fail "$cc: report (build-id)"; }
	python3 "$RSRC/heap-oracle.py" "$T/byid$cc/out" "$T/byid$cc/addrs" "$T/r.json" \
		--bin="$T/byid$cc/heap" || fail "$cc: stripped, build-id: attributed wrong"

	# --explain takes the function's name from the debug file's symbols.
	off=$(awk '$1 == "field" && $2 == "flow.rx_bytes" { print $3 }' "$T/byid$cc/out")
	"$HITMAP" report --binary "$T/byid$cc/heap" --debug-dir "$T/dbg$cc" --explain bump \
		>"$T/explain" 2>"$T/err" || { cat "$T/err" >&2; fail "$cc: explain bump"; }
	assert_eq "  field: flow.rx_bytes (offset $off, 8 bytes)" \
		"$(grep -m1 '^  field:' "$T/explain")" "$cc: explain bump in the stripped file"

	# No debug file: the fixture's objects stay unnamed.  (perf's
	# build-id cache is left out: other tests' perf record put the same
	# build, unstripped, in ~/.debug.)
	record "$T/none$cc" heap
	mkdir -p "$T/nocache"
	"$HITMAP" report -i "$T/none$cc/pf.data" --offline --buildid-dir "$T/nocache" \
		--json --top 100000 \
		>"$T/r.json" 2>"$T/r.err" || { cat "$T/r.err" >&2; fail "$cc: report (no debug)"; }
	assert_eq 0 "$(jq_py "$T/r.json" "len([f for l in d['lines'] for f in l['fields']
		if (f['object'] or '').split('@')[0] in ('flow', 'pair', 'token')])")" \
		"$cc: fields named without a debug file"
done
exit 0
