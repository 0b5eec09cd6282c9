# Shared by the watch-mode tests: build the fixture, probe breakpoint support.

# build_counters OUT CC DWARF [flags...]: tests/record/counters.c, -O2.
build_counters() {
	out=$1; cc=$2; dw=$3; shift 3
	build_fixture "$TESTS_SRC/record/counters.c" "$out" "$cc" "$dw" -O2 -pthread "$@"
}

# Skip when hardware watchpoints do not fire on this machine (the real perf
# counts the watched writes of a probe), or when the kernel refuses hardware
# breakpoint events (the only reasons a watch test may skip): then try one
# breakpoint on the fixture.
require_breakpoints() {
	require_watchpoints
	set +e
	"$HITMAP" record -q --watch g.a:w -o "$T/probe.data" -- "$1" 1 0 >"$T/probe.out" 2>&1
	rc=$?
	set -e 2>/dev/null; set +e
	if [ $rc -ne 0 ]; then
		if grep -q -e "not supported by this kernel" -e "no free debug register" \
			-e "permission denied" "$T/probe.out"; then
			skip "the kernel refuses hardware breakpoint events: $(head -1 "$T/probe.out")"
		fi
		cat "$T/probe.out" >&2
		fail "hitmap record --watch failed"
	fi
}

# link_addr BINARY SYMBOL: the symbol's link-time address (nm), in hex.
link_addr() {
	nm "$1" | awk -v s="$2" '$3 == s { print "0x" $1 }'
}

# count_samples SCRIPT EVENT_SUFFIX ADDR: samples of the :w or :rw event at
# runtime address ADDR in `perf script -F tid,event,addr` output.
count_samples() {
	awk -v suf=":$2:" -v a="$(printf '%x' "$3")" '
		{ ev = $2; ad = $3; sub(/^0x/, "", ad) }
		substr(ev, length(ev) - length(suf) + 1) == suf && ad == a { n++ }
		END { print n + 0 }' "$1"
}

# tids_at SCRIPT ADDR: distinct thread ids with samples at ADDR.
tids_at() {
	awk -v a="$(printf '%x' "$2")" '{ ad = $3; sub(/^0x/, "", ad) } ad == a { print $1 }' "$1" |
		sort -u | wc -l | tr -d ' '
}
