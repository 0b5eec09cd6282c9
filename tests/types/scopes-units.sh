#!/bin/sh
# The scope index answers the same when lookups go back to units before the
# last one built, many times.  It reads the units' headers at open and then
# lets libdwarf's handle go; a build opens another, which reads headers only
# as far as the furthest unit built: a unit behind is found in libdwarf's
# list of the units read, and after 16 such builds the handle reads every
# unit instead (dwarf-scope-names.c, dws_attach()).  A program of 40
# units, each with a function of its own (a struct pointer parameter, a
# loop, a local), built by gcc and clang at -O2, DWARF 4 and 5; scopedump
# asked at every memory-operand PC of those functions in address order and
# in reverse (39 builds behind the handle's place).  Oracle: gdb's `info
# scope` at those PCs (tests/types/scopes-cmp.py) for the address order; the
# reverse order's answer per PC must be the address order's, byte for byte.
. "$top_srcdir/tests/lib.sh"
SD="$top_builddir/tests/types/scopedump"
CMP="$top_srcdir/tests/types/scopes-cmp.py"
require gdb
require objdump binutils
require python3
[ -x "$SD" ] || fail "$SD is not built (make check builds it)"

N=40
i=0
while [ $i -lt $N ]; do
	cat >"$T/u$i.c" <<EOF
struct node$i { long val, hits; struct node$i *next; };

__attribute__((noinline)) long walk$i(struct node$i *n, long k)
{
	long sum = 0;

	for (; n; n = n->next) {
		n->hits += k;
		sum += n->val * $((i + 1));
	}
	return sum;
}
EOF
	i=$((i + 1))
done
{
	i=0
	while [ $i -lt $N ]; do
		echo "struct node$i { long val, hits; struct node$i *next; };"
		echo "long walk$i(struct node$i *n, long k);"
		i=$((i + 1))
	done
	echo 'int main(int argc, char **argv)'
	echo '{'
	echo '	long s = 0;'
	i=0
	while [ $i -lt $N ]; do
		echo "	{ struct node$i a = { argc, 0, 0 }; s += walk$i(&a, argc); }"
		i=$((i + 1))
	done
	echo '	(void)argv;'
	echo '	return (int)s;'
	echo '}'
} >"$T/main.c"

n=0
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || skip "$cc not installed"
	for v in 4 5; do
		b="$T/fx-$cc-dw$v"
		srcs=""
		i=0
		while [ $i -lt $N ]; do
			srcs="$srcs $T/u$i.c"
			i=$((i + 1))
		done
		# shellcheck disable=SC2086
		$cc -g -gdwarf-$v -O2 -o "$b" "$T/main.c" $srcs || fail "$cc -gdwarf-$v: build failed"
		objdump -d --no-show-raw-insn "$b" | awk '
			/^[0-9a-f]+ <walk[0-9]+>:/ { f = 1; next }
			/^$/ { f = 0 }
			f && /\(/ { sub(":", "", $1); print "0x" $1 }' >"$b.addr"
		units=$(objdump -d --no-show-raw-insn "$b" | grep -c '^[0-9a-f]* <walk[0-9]*>:')
		assert_eq $N "$units" "$cc -gdwarf-$v: functions walkN"
		[ "$(wc -l <"$b.addr")" -ge $N ] || fail "$cc -gdwarf-$v: too few memory operands"
		tac "$b.addr" >"$b.rev"
		printf 'info scope *%s\n' $(cat "$b.addr") >"$b.cmd"
		gdb -nx -batch -x "$b.cmd" "$b" >"$b.gdb" 2>&1 || fail "gdb on $b"
		for order in addr rev; do
			# shellcheck disable=SC2046
			"$SD" "$b" $(cat "$b.$order") >"$b.$order.hm" || fail "scopedump $b ($order)"
		done
		out=$(python3 "$CMP" "$b.gdb" "$b.addr.hm") ||
			{ echo "$out" >&2; fail "$cc -gdwarf-$v: scopes differ from gdb"; }
		echo "$cc -gdwarf-$v: $(echo "$out" | tail -1)"
		# per PC, the same lines in both orders (see scopes-order.sh)
		for f in addr rev; do
			awk '/^pc / { pc = $2 } { print pc "\t" $0 }' "$b.$f.hm" |
				sort -s -t "$(printf '\t')" -k1,1 >"$b.$f.bypc"
		done
		diff "$b.addr.bypc" "$b.rev.bypc" >"$b.rev.diff" ||
			{ head -20 "$b.rev.diff" >&2; fail "$cc -gdwarf-$v: reverse order differs from address order"; }
		# the parameter of every unit's function is found
		located=$(grep -c '^  n ' "$b.addr.hm")
		[ "$located" -ge $N ] || fail "$cc -gdwarf-$v: parameter n located at $located PCs"
		n=$((n + 1))
	done
done
assert_eq 4 "$n" "configurations compared"
