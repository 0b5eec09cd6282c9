#!/bin/sh
# Code locations in reports come from hitmap's own .debug_line reader.  A
# sample whose IP lies in code inlined from a header must be placed in that
# header, at the line binutils' addr2line gives for the same address, with
# gcc and clang, DWARF 4 and 5.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require addr2line binutils
require readelf binutils
[ -x "$GEN" ] || fail "tests/perf/gen-c2c is not built"

mkdir -p "$T/inc"
cat >"$T/inc/shape.h" <<'X'
struct shape {
	long sides;
	long area;
};
static inline void shape_grow(struct shape *s, long by)
{
	s->area += by * s->sides;
}
X
cat >"$T/main.c" <<'X'
#include "inc/shape.h"
struct shape g_shape = { 4, 9 };
long g_by = 3;
int main(void)
{
	for (int i = 0; i < 1000; i++)
		shape_grow(&g_shape, g_by + i);
	return g_shape.area == 0;
}
X

# where ADDR: the location report gives a sample at link address ADDR
where() {
	gen -o "$T/c2c.data" --pid 4242 --ip $(hex $(($PIE_BASE + $1))) \
		--mmap $(hex $PIE_BASE),0x10000,0,"$bin" \
		lcl-hitm:$(hex $((st + 8))):3:0:101 >/dev/null || fail "gen-c2c failed"
	"$HITMAP" report -i "$T/c2c.data" --json >"$T/r.json" 2>"$T/r.err" ||
		{ cat "$T/r.err" >&2; fail "$cc -gdwarf-$v: report failed"; }
	jq_py "$T/r.json" "field('g_shape.area')['locations'][0]['location']"
}

n=0 m=0
for cc in gcc clang; do
	require $cc $cc
	for v in 4 5; do
		bin="$T/m-$cc-$v"
		(cd "$T" && $cc -g -gdwarf-$v -O2 -fPIE -pie -o "$bin" main.c) ||
			fail "$cc -gdwarf-$v: build failed"
		st=$(($PIE_BASE + $(sym_addr "$bin" g_shape)))
		# the first row binutils places in shape.h
		link=$(readelf -wL -W "$bin" | awk '$1 == "shape.h" && $2 ~ /^[0-9]+$/ { print $3; exit }')
		[ -n "$link" ] || fail "$cc -gdwarf-$v: no code from shape.h in the line table"
		want=$(addr2line -e "$bin" "$link" | sed 's/ (discriminator [0-9]*)//; s|.*/||')
		off=$(printf '0x%x' $((link - $(sym_addr "$bin" main))))
		assert_eq "main+$off ($want)" "$(where $link)" "$cc -gdwarf-$v: location of the sample"
		case $want in shape.h:[0-9]*) ;; *) fail "addr2line placed $link in $want" ;; esac
		# ten addresses spread over main, most of them inside a row's
		# range rather than at its start, placed where addr2line places them
		lo=$(($(sym_addr "$bin" main)))
		size=$((0x$(nm -S "$bin" | awk '$4 == "main" { print $2 }')))
		step=$(( (size + 9) / 10 ))
		a=$lo
		while [ $a -lt $((lo + size)) ]; do
			want=$(addr2line -e "$bin" $(hex $a) | sed 's/ (discriminator [0-9]*)//; s|.*/||')
			got=$(where $a)
			assert_eq "($want)" "${got#* }" "$cc -gdwarf-$v: location of main+$((a - lo))"
			a=$((a + step)) m=$((m + 1))
		done
		n=$((n + 1))
	done
done
echo "$n builds, $m addresses: samples placed as addr2line places them"
exit 0
