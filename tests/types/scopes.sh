#!/bin/sh
# The scope index (src/lib/dwarf/dwarf-scope.c) against gdb's `info scope`:
# tests/types/fx-scopes.c built by gcc and clang at -O0 and -O2 with DWARF 4
# and 5; at every instruction with a memory operand of its functions (from
# objdump), every variable and parameter gdb locates at that PC must be the
# one scopedump reports, name for name, in the same register, at the same
# frame base offset or address, and none that gdb has no location for
# (optimized out, entry values, constants) may be reported
# (tests/types/scopes-cmp.py says how gdb's text is read).  A multi-location
# symbol (a location list) is compared in the range gdb prints that holds the
# PC; at -O2 such symbols must be among those compared.  gdb lists the
# blocks up to the nearest function, an inlined one included, so hitmap's
# variables are compared for the innermost function body only (fn_depth).
# PCs in no function (padding objdump shows under a function) are counted,
# not compared: gdb lists the file's static block there.  Types: the
# parameters of count_rx and word_len, pointer depth and record, against the
# fixture's own declarations as gdb's `ptype` prints them (locals' types are
# not checked: gdb has no PC-scoped `whatis`).  Corrupt DWARF
# (bytes flipped in the sections the index reads, tests/types/scopes-mutate.py)
# is an error or an answer, never a crash or a hang.
. "$top_srcdir/tests/lib.sh"
SD="$top_builddir/tests/types/scopedump"
CMP="$top_srcdir/tests/types/scopes-cmp.py"
require gdb
require objdump binutils
require python3
require readelf binutils
[ -x "$SD" ] || fail "$SD is not built (make check builds it)"

FUNCS='count_rx|walk|sum_array|word_len|main|conn_total'
n=0
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || skip "$cc not installed"
	for o in 0 2; do
		for v in 4 5; do
			b="$T/fx-$cc-O$o-dw$v"
			$cc -g -gdwarf-$v -O$o -o "$b" "$top_srcdir/tests/types/fx-scopes.c" ||
				fail "$cc -O$o -gdwarf-$v: build failed"
			objdump -d --no-show-raw-insn "$b" >"$b.dis" || fail "objdump $b"
			pcs=$(awk -v re="^[0-9a-f]+ <($FUNCS)>:" '
				$0 ~ re { f = 1; next }
				/^$/ { f = 0 }
				f && /\(/ { sub(":", "", $1); print "0x" $1 }' "$b.dis")
			[ -n "$pcs" ] || fail "no memory operands found in $b"
			printf 'info scope *%s\n' $pcs >"$b.cmd"
			gdb -nx -batch -x "$b.cmd" "$b" >"$b.gdb" 2>&1 || fail "gdb on $b"
			# shellcheck disable=SC2086
			"$SD" "$b" $pcs >"$b.hm" || fail "scopedump $b"
			out=$(python3 "$CMP" "$b.gdb" "$b.hm") ||
				{ echo "$out" >&2; fail "$cc -O$o -gdwarf-$v: scopes differ from gdb"; }
			echo "$cc -O$o -gdwarf-$v: $(echo "$out" | tail -1)"
			located=$(echo "$out" | tail -1 | awk '{ print $8 }')
			[ "$located" -gt 0 ] || fail "$cc -O$o -gdwarf-$v: gdb located nothing"
			# optimized code: location lists, which gdb prints as
			# multi-location, must be among the cases compared
			multi=$(echo "$out" | tail -1 | awk '{ print $10 }')
			[ $o = 0 ] || [ "$multi" -gt 0 ] ||
				fail "$cc -O$o -gdwarf-$v: no multi-location variable compared"

			# parameter types: gdb's ptype of the functions (one gdb
			# for the three questions)
			ptype=$(gdb -nx -batch -ex 'ptype count_rx' -ex 'ptype word_len' \
				-ex 'ptype conn_t' "$b" 2>&1)
			echo "$ptype" | grep -q '^type = long (struct conn \*, long)$' ||
				fail "gdb ptype count_rx: $ptype"
			echo "$ptype" | grep -q '^type = long (union word \*, const conn_t \* const \*)$' ||
				fail "gdb ptype word_len: $ptype"
			cpc=$(awk '/^[0-9a-f]+ <count_rx>:/ { getline; sub(":", "", $1); print "0x" $1 }' "$b.dis")
			wpc=$(awk '/^[0-9a-f]+ <word_len>:/ { getline; sub(":", "", $1); print "0x" $1 }' "$b.dis")
			got=$("$SD" "$b" "$cpc" "$wpc" | awk '$5 == "param" { print $1, $NF == "-" ? "-" : $(NF-1) " " $NF }' | sort -u | tr '\n' ';')
			# conn_t is a typedef of struct conn (gdb: `ptype conn_t`)
			echo "$ptype" | grep -q '^type = struct conn {$' ||
				fail "gdb ptype conn_t: $ptype"
			# at a function's first instruction its parameters are
			# located in every configuration (registers, or the frame)
			for want in 'c *struct conn' 'w *union word' 'pc **struct conn'; do
				case ";$got" in
				*";$want;"*) ;;
				*) fail "$cc -O$o -gdwarf-$v: parameter types '$got', want '$want'" ;;
				esac
			done
			if [ $o = 2 ]; then
				out=$(python3 "$top_srcdir/tests/types/scopes-mutate.py" "$SD" "$b" \
					$v 60 "$T" $pcs) || { echo "$out" >&2; fail "$cc -O$o -gdwarf-$v: corrupt DWARF"; }
				echo "$cc -O$o -gdwarf-$v corrupt: $(echo "$out" | tail -1)"
			fi
			n=$((n + 1))
		done
	done
done
assert_eq 8 "$n" "configurations compared"

# no .debug_info: -ENODATA, exit 3
$CC -O2 -o "$T/nodebug" "$top_srcdir/tests/types/fx-scopes.c" || fail "build without -g"
assert_exit 3 "scopedump without .debug_info" "$SD" "$T/nodebug" 0x1000
grep -q "No data available" "$T/err" || fail "scopedump without .debug_info: $(cat "$T/err")"
