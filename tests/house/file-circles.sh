#!/bin/sh
# The files of src/lib/dwarf/ and src/lib/attr/ call each other in one
# direction only: no circle between files inside either folder at link
# level.  A circle makes every file of it need all the others to be read,
# tested or replaced (dwarf.c held the error toolbox that dwarf-attr.c,
# dwarf-ns.c, dwarf-par.c and dwarf-units.c used while calling into each of
# them).  The graph is the objects' own: an edge from a file to another whose
# global symbol it leaves undefined (nm); tsort finds the circles.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
require nm binutils
require tsort coreutils

# tsort must say "loop" for a circle, or this test proves nothing
printf 'a b\nb c\nc a\n' | tsort >/dev/null 2>"$T/probe.err"
grep -q loop "$T/probe.err" || skip "tsort does not report loops"

# edges FOLDER: "from to" per call from one file of FOLDER into another
edges() {
	objs=$(ls "$top_builddir/src/lib/$1/.libs/"*.o 2>/dev/null) ||
		objs=$(ls "$top_builddir/src/lib/$1/"*.o 2>/dev/null) ||
		skip "no objects in $top_builddir/src/lib/$1 (build first)"
	for o in $objs; do
		f=$(basename "$o" .o)
		nm "$o" | awk -v f="$f" '$1 == "U" { print "U", f, $2 }
			NF == 3 && $2 ~ /^[TDBR]$/ { print "D", f, $3 }'
	done | awk '$1 == "D" { def[$3] = $2; next } { use[NR] = $2 " " $3 }
		END { for (i in use) { split(use[i], u, " ")
			if ((u[2] in def) && def[u[2]] != u[1]) print u[1], def[u[2]] } }' |
		sort -u
}

status=0
for folder in dwarf attr; do
	edges "$folder" >"$T/$folder.edges"
	[ -s "$T/$folder.edges" ] || fail "$folder: no call between its files found (nm)"
	tsort "$T/$folder.edges" >/dev/null 2>"$T/$folder.err"
	if grep -q loop "$T/$folder.err"; then
		echo "src/lib/$folder: files in a circle:" >&2
		grep -v loop "$T/$folder.err" | sed 's/^tsort: /  /' >&2
		status=1
	fi
done
[ $status -eq 0 ] || fail "circles between files (edges in $T/*.edges)"
exit 0
