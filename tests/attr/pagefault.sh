#!/bin/sh
# Attribution by instruction, sample by sample, on page-fault recordings of
# the fixtures tests/attr/{flows,tasks,chains}.c (gcc and clang -O2, two
# threads): heap structs through helper functions and 16-byte stores over
# two fields, container_of on an intrusive list and an array indexed with a
# stride equal to an unrelated struct's size, pointers loaded from memory
# (struct fields, a global pointer, a .bss pointer indexed, a pointer
# array's element).  Every counted field starts a fresh page, so each
# access faults once (perf record -c 1 -d -e page-faults: the IP is the
# access, the address the one accessed).  Oracle: each program's printout
# (offsetof, sizeof, every object's address) against perf script's
# addresses, in tests/attr/judge.py: no sample may be named wrong, and none
# left unnamed but those of the fields each fixture lists.  The second
# report of each recording, answered from what the first kept (the
# attribution's answers: no types, no decoder), is judged the same way.
. "$top_srcdir/tests/lib.sh"
require perf linux-perf
require taskset util-linux
ASRC="$top_srcdir/tests/attr"

# expect PROG CC: the fields whose samples may stay unnamed, each for a
# reason that leaves no evidence of the field
expect() {
	case $1-$2 in
	# clear_bytes(g): a 16-byte store over rx_bytes and tx_bytes faults
	# on tx_bytes' page at its first byte, inside the store: the
	# address alone does not say where the store began (wide-access)
	flows-*) echo flow.tx_bytes ;;
	# gcc: t->hist[k & 7] as t + ((k & 7) + 3) * 16: the pointer plus
	# an unknown multiple of 16 at offset 0 (task.id), no array there
	# (unknown-index).  clang's 0x30(%rdi,%rsi) is in the array hist of
	# 16-byte buckets: named task.hist, of an unknown instance (the
	# 16-byte access at a page's first byte may begin on the page
	# before, in the element before)
	tasks-gcc) echo task.hist.n ;;
	# gcc: step.isra.0 gets w->cur with no DWARF location, and worker's
	# w and c live where DWARF gives no register for them
	chains-gcc) echo ctr.hits work.cur cur.ctr ;;
	*) ;;
	esac
}

for prog in flows tasks chains; do
	for cc in gcc clang; do
		require $cc $cc
		bin="$T/$prog-$cc"
		build_fixture "$ASRC/$prog.c" "$bin" $cc 5 -O2 -pthread
		# One CPU, one ring buffer: the file's records in time order.
		# Across buffers the exec's mappings can come after samples
		# of the program (hitmap reads records in file order).
		if ! taskset -c 0 perf record -q -d -c 1 -e page-faults -o "$T/pf.data" -- "$bin" \
			>"$T/out" 2>"$T/rec.err"; then
			grep -qi "not supported\|permission" "$T/rec.err" &&
				skip "the kernel refuses the page-faults event: $(head -1 "$T/rec.err")"
			cat "$T/rec.err" >&2
			fail "perf record failed"
		fi
		perf script -i "$T/pf.data" -F addr,ip,sym,symoff,dso >"$T/script" 2>/dev/null
		"$HITMAP" report -i "$T/pf.data" --json --top 100000 >"$T/r.json" 2>"$T/r.err" ||
			{ cat "$T/r.err" >&2; fail "$prog $cc: report"; }
		allow=
		for f in $(expect $prog $cc); do allow="$allow --allow-unnamed $f"; done
		python3 "$ASRC/judge.py" --out "$T/out" --script "$T/script" --bin "$bin" \
			--hitmap "$T/r.json" $allow --check -v >"$T/judge" ||
			{ cat "$T/judge" >&2; fail "$prog $cc: samples named wrong or left unnamed"; }
		cat "$T/judge"
		n=$(awk '$1 == "hitmap" { print $3 + $5 + $7 }' "$T/judge")
		[ "$n" -ge 1000 ] || fail "$prog $cc: $n samples judged, want at least 1000"
		"$HITMAP" report -v -i "$T/pf.data" --json --top 100000 >"$T/r2.json" 2>"$T/r2.err" ||
			{ cat "$T/r2.err" >&2; fail "$prog $cc: second report"; }
		grep -q "attribution answers .* used" "$T/r2.err" ||
			fail "$prog $cc: the second report used no attribution answers: $(cat "$T/r2.err")"
		python3 "$ASRC/judge.py" --out "$T/out" --script "$T/script" --bin "$bin" \
			--hitmap "$T/r2.json" $allow --check -v >"$T/judge2" ||
			{ cat "$T/judge2" >&2; fail "$prog $cc: the second report named samples wrong or left them unnamed"; }
		cmp -s "$T/judge" "$T/judge2" ||
			{ diff "$T/judge" "$T/judge2" >&2; fail "$prog $cc: the second report is judged otherwise"; }
	done
done
