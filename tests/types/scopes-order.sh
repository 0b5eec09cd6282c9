#!/bin/sh
# The scope index answers the same whatever order PCs come in.  A sample's
# PC can be in any unit, and looking up a function of a unit after another
# unit's puts that unit's notes (its abstract instances' variables with a
# location, their static locals) back in place: kept from its first walk,
# or made again.  tests/types/fx-scopes.c and fx-scopes2.c (two units, each
# with an inlined function holding a static local) built by gcc and clang
# at -O2, DWARF 4 and 5; scopedump asked at every memory-operand PC of both
# units' functions in address order, then alternating between the units,
# then in reverse.  Oracle: gdb's `info scope` at those PCs
# (tests/types/scopes-cmp.py) for the address order; every other order's
# answer per PC must be the address order's, byte for byte, so it matches
# gdb as well.
. "$top_srcdir/tests/lib.sh"
SD="$top_builddir/tests/types/scopedump"
CMP="$top_srcdir/tests/types/scopes-cmp.py"
require gdb
require objdump binutils
require python3
[ -x "$SD" ] || fail "$SD is not built (make check builds it)"

FUNCS='count_rx|walk|sum_array|word_len|main|conn_total|meter_hit|meter_sum'
n=0
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || skip "$cc not installed"
	for v in 4 5; do
		b="$T/fx-$cc-dw$v"
		$cc -g -gdwarf-$v -O2 -o "$b" "$top_srcdir/tests/types/fx-scopes.c" \
			"$top_srcdir/tests/types/fx-scopes2.c" || fail "$cc -gdwarf-$v: build failed"
		objdump -d --no-show-raw-insn "$b" | awk -v re="^[0-9a-f]+ <($FUNCS)>:" '
			$0 ~ re { f = 1; fn = $2; next }
			/^$/ { f = 0 }
			f && /\(/ { sub(":", "", $1); print "0x" $1, fn }' >"$b.pcs"
		awk '$2 !~ /meter/ { print $1 }' "$b.pcs" >"$b.a"
		awk '$2 ~ /meter/ { print $1 }' "$b.pcs" >"$b.m"
		[ -s "$b.a" ] && [ -s "$b.m" ] || fail "$cc -gdwarf-$v: no memory operands in one of the units"
		# address order; the two units' PCs by turns; reverse
		awk '{ print $1 }' "$b.pcs" >"$b.addr"
		# the units by turns: paste's empty lines are the shorter one's end
		paste -d '\n' "$b.a" "$b.m" | grep . >"$b.turns"
		tac "$b.addr" >"$b.rev"
		printf 'info scope *%s\n' $(cat "$b.addr") >"$b.cmd"
		gdb -nx -batch -x "$b.cmd" "$b" >"$b.gdb" 2>&1 || fail "gdb on $b"
		for order in addr turns rev; do
			# shellcheck disable=SC2046
			"$SD" "$b" $(cat "$b.$order") >"$b.$order.hm" || fail "scopedump $b ($order)"
			if [ $order = addr ]; then
				out=$(python3 "$CMP" "$b.gdb" "$b.$order.hm") ||
					{ echo "$out" >&2; fail "$cc -gdwarf-$v: scopes differ from gdb"; }
				echo "$cc -gdwarf-$v $order: $(echo "$out" | tail -1)"
				continue
			fi
			# per PC, the same lines as in address order: each line keyed
			# by its PC, sorted by PC alone (sort -s keeps a PC's lines in
			# their order), the two orders' answers are the same text
			for f in addr $order; do
				awk '/^pc / { pc = $2 } { print pc "\t" $0 }' "$b.$f.hm" |
					sort -s -t "$(printf '\t')" -k1,1 >"$b.$f.bypc"
			done
			diff "$b.addr.bypc" "$b.$order.bypc" >"$b.$order.diff" ||
				{ head -20 "$b.$order.diff" >&2; fail "$cc -gdwarf-$v: $order order differs from address order"; }
		done
		# the other unit's static local is located in its inlined copies
		grep -q '^  calls addr ' "$b.addr.hm" || fail "$cc -gdwarf-$v: meter_sum's static local not found"
		n=$((n + 1))
	done
done
assert_eq 4 "$n" "configurations compared"
