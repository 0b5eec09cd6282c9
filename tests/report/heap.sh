#!/bin/sh
# Attribution by instruction on heap and anonymous-mmap objects: the
# fixture tests/report/heap.c writes struct fields through pointers (helper
# functions, a field address computed into a register, an array walked by
# pointer, an array indexed by a register: s[i].hits), one object per page.  Real recordings: page faults (perf record
# -c 1 -d -e page-faults: the IP is the access) and hardware watchpoints
# (hitmap record --watch: the IP is the instruction after the access).
# A struct on the stack is named function:variable; a struct name with two
# definitions (tests/report/heap-dup.c) names nothing.  Oracles: the
# fixture's printout (object addresses, offsetof, sizeof) and
# perf script's sample addresses (tests/report/heap-oracle.py); objdump for
# the decoded instruction and its memory operand.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require objdump binutils
require setarch util-linux

# The load base of $1 in perf.data $2, from its mapping record at pgoff 0.
load_base() {
	perf script -i "$2" --show-mmap-events 2>/dev/null |
		awk -v f="$1" '/PERF_RECORD_MMAP2/ && $NF == f && / @ 0 / {
			s = $0; sub(/.*\[/, "", s); sub(/\(.*/, "", s); print s; exit }'
}

# check_insns BIN DATA: for every sample IP in BIN, the instruction hitmap
# decodes (bytes, memory operand) is the one objdump shows there.
check_insns() {
	base=$(load_base "$1" "$2")
	[ -n "$base" ] || fail "no mapping of $1 in perf script"
	perf script -i "$2" -F ip,dso 2>/dev/null | awk -v f="$1" '$2 == "(" f ")" { print $1 }' |
		sort -u >"$T/ips"
	[ -s "$T/ips" ] || fail "no sample IP in $1"
	# One disassembly of the binary, each IP's line looked up in it.
	objdump -d --insn-width=16 "$1" >"$T/od.all" || fail "objdump -d $1"
	while read -r ip; do
		link=$(hex $((0x$ip - base)))
		"$HITMAP" report --binary "$1" --explain "$link" >"$T/explain" 2>"$T/err" ||
			{ cat "$T/err" >&2; fail "explain $link"; }
		# The access rule's lines come first.
		bytes=$(awk '/^  instruction:/ { sub(/^  instruction: 0x[0-9a-f]+: /, "");
			sub(/  .*/, ""); print; exit }' "$T/explain")
		op=$(awk '/^  memory operand:/ { sub(/^  memory operand: /, ""); sub(/,.*/, "");
			print; exit }' "$T/explain")
		awk -v a="$(printf '%x' "$link")" '$1 == a ":" { print; exit }' "$T/od.all" >"$T/od"
		[ -s "$T/od" ] || fail "objdump shows no instruction at $link"
		odbytes=$(awk -F'\t' '{ print $2 }' "$T/od" | sed 's/ *$//')
		assert_eq "$odbytes" "$bytes" "$1 $link: instruction bytes"
		case $op in
		none) grep -q '(' "$T/od" && fail "$1 $link: objdump shows a memory operand" ;;
		*) grep -qF -- "$op" "$T/od" ||
			fail "$1 $link: memory operand '$op' not in objdump's '$(cat "$T/od")'" ;;
		esac
	done <"$T/ips"
}

for cc in gcc clang; do
	require $cc $cc
	for opt in -O0 -O2; do
		bin="$T/heap$cc$opt"
		build_fixture "$RSRC/heap.c" "$bin" $cc 5 $opt "$RSRC/heap-dup.c"
		if ! perf record -q -d -c 1 -e page-faults -o "$T/pf.data" -- "$bin" \
			>"$T/out" 2>"$T/rec.err"; then
			grep -qi "not supported\|permission" "$T/rec.err" &&
				skip "the kernel refuses the page-faults event: $(head -1 "$T/rec.err")"
			cat "$T/rec.err" >&2
			fail "perf record failed"
		fi
		perf script -i "$T/pf.data" -F ip,sym,addr,dso 2>/dev/null >"$T/addrs"
		# every line: libc's objects (from libc6-dbg) are ranked with them
		"$HITMAP" report -i "$T/pf.data" --json --top 100000 >"$T/r.json" 2>"$T/r.err" ||
			{ cat "$T/r.err" >&2; fail "$cc $opt: report"; }
		stk=$(perf script -i "$T/pf.data" --show-mmap-events 2>/dev/null |
			awk '/PERF_RECORD_MMAP2/ && $NF == "[stack]" { s = $0; sub(/^[^[]*\[/, "", s)
				st = s; sub(/\(.*/, "", st); ln = s; sub(/^[^(]*\(/, "", ln)
				sub(/\).*/, "", ln); print st "+" ln; exit }')
		python3 "$RSRC/heap-oracle.py" "$T/out" "$T/addrs" "$T/r.json" --bin="$bin" \
			${stk:+--stack=$stk} ||
			fail "$cc $opt: page faults attributed wrong"
		# The raw page is written through a char pointer: its sample
		# stays unattributed, in one of the instruction path's reasons.
		why=$(jq_py "$T/r.json" "sum(d['buckets'][k] for k in ('no-insn', 'no-mem-operand',
		      'no-variable', 'untyped-pointer', 'offset-outside-type', 'ambiguous-type'))")
		[ "$why" -ge 1 ] || fail "$cc $opt: no sample left unattributed with a reason"
		# The dup page is written through heap-dup.c's struct token.
		assert_eq 1 "$(jq_py "$T/r.json" "d['buckets']['ambiguous-type']")" \
			"$cc $opt: samples of an ambiguous struct name"
		check_insns "$bin" "$T/pf.data"
	done
done

# Watchpoints: four fields (a heap object, the mmap'd one, an array
# element walked by pointer, one indexed by a register), at the addresses a
# first run without ASLR printed.  Last, since it skips where watchpoints do
# not fire (the page-fault recordings above have passed by then).
require_watchpoints
cc=gcc
for opt in -O0 -O2; do
	bin="$T/heapw$opt"
	build_fixture "$RSRC/heap.c" "$bin" $cc 5 $opt "$RSRC/heap-dup.c"
	setarch -R "$bin" >"$T/out1" || fail "heap run"
	set -- $(awk '/^object/ { print $3 }' "$T/out1")
	[ $# -eq 11 ] || fail "heap printed $# objects, want 11"
	rx=$(hex $(($1 + 24))); drops=$(hex $(($4 + 56)))
	tail=$(hex $(($5 + 8))); hits=$(hex $(($9 + 16)))
	set +e
	"$HITMAP" record -q --watch "$rx/8:w" --watch "$hits/8:w" --watch "$drops/8:w" \
		--watch "$tail/8:w" -o "$T/w.data" -- setarch -R "$bin" >"$T/out2" 2>"$T/rec.err"
	rc=$?
	set -e 2>/dev/null; set +e
	if [ $rc -ne 0 ]; then
		grep -q -e "not supported by this kernel" -e "no free debug register" \
			-e "permission denied" "$T/rec.err" &&
			skip "the kernel refuses hardware breakpoint events: $(head -1 "$T/rec.err")"
		cat "$T/rec.err" >&2
		fail "hitmap record --watch failed"
	fi
	assert_eq "$(grep '^object' "$T/out1")" "$(grep '^object' "$T/out2")" \
		"$opt: object addresses of two runs under setarch -R"
	perf script -i "$T/w.data" -F ip,sym,addr 2>/dev/null >"$T/addrs"
	assert_eq 4 "$(awk '{ print $1 }' "$T/addrs" | sort -u | wc -l)" \
		"$opt: watched fields with samples"
	"$HITMAP" report -i "$T/w.data" --json --top 100000 >"$T/r.json" 2>"$T/r.err" ||
		{ cat "$T/r.err" >&2; fail "$opt: watch report"; }
	python3 "$RSRC/heap-oracle.py" "$T/out2" "$T/addrs" "$T/r.json" --all-in-objects ||
		fail "$opt: watchpoint samples attributed wrong"
done
exit 0
