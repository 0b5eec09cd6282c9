#!/bin/sh
# The loader against the compiler: for every struct of tests/types/fixture.c,
# built with gcc and clang at DWARF 4 and 5, the sizes, offsets and alignments
# the loader reads from DWARF equal what the same compiler prints with sizeof,
# offsetof and _Alignof (fixture-oracle.c).  Bitfield positions, which C cannot
# print, are compared with pahole's "offset:bit" column.
. "$top_srcdir/tests/lib.sh"
DUMP="$top_builddir/tests/types/typedump"
SRC="$TESTS_SRC/types"
STRUCTS=list_head,plain,ptrs,arrays,misc,packed,line,atom,usesfwd
found=0

for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	found=1
	for dw in 4 5; do
		fx="$T/fx-$cc-$dw"
		build_fixture "$SRC/fixture.c" "$fx" $cc $dw -O0
		echo "+ $cc -gdwarf-$dw -O0 -I$SRC -o $fx.oracle $SRC/fixture-oracle.c" >&2
		$cc -g -gdwarf-$dw -O0 -I"$SRC" -o "$fx.oracle" "$SRC/fixture-oracle.c" ||
			fail "cannot build the oracle with $cc"
		"$fx.oracle" >"$fx.want"
		"$DUMP" -o -C $STRUCTS "$fx" >"$fx.got" || fail "typedump failed on $fx"
		# pointer-target annotations are checked in dedup.sh
		sed -i 's/ -> [a-z]*$//' "$fx.got"
		assert_files_eq "$fx.want" "$fx.got" "$cc -gdwarf-$dw: layout differs from the compiler's"

		if command -v pahole >/dev/null 2>&1; then
			for s in bits ubits pbits mixbits; do
				pahole -F dwarf -M --suppress_force_paddings -C $s "$fx" 2>/dev/null |
				awk -v s=$s '
				/^\t[^\t].*;.*\/\*/ {
					line = $0
					decl = line; sub(/;.*/, "", decl)
					n = split(decl, w, /[ \t*]+/); name = w[n]
					c = line; sub(/.*\/\*/, "", c); sub(/\*\/.*/, "", c)
					if (name ~ /:/) {
						split(name, nb, ":"); split(c, p, ":")
						gsub(/ /, "", p[1]); split(p[2], q, " ")
						printf "%s.%s bits %s:%s %s\n", s, nb[1], p[1], q[1], nb[2]
					} else {
						split(c, q, " ")
						printf "%s.%s off %s size %s\n", s, name, q[1], q[2]
					}
				}' >"$fx.$s.want"
				# pahole prints no alignments: compare the rest
				"$DUMP" -o -C $s "$fx" | tail -n +2 | sed 's/ align [0-9]*$//' >"$fx.$s.got"
				assert_files_eq "$fx.$s.want" "$fx.$s.got" "$cc -gdwarf-$dw: $s bitfields differ from pahole"
			done
		else
			echo "pahole not installed (Debian package dwarves): bitfield check skipped" >&2
		fi
	done
done
[ $found = 1 ] || skip "neither gcc nor clang installed"
exit 0
