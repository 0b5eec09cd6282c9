#!/bin/sh
# check-layering: the folders under src/lib/ include each other only along the
# arrows of HACKING.md's layering table, the folder graph has no cycle, and the
# command (src/cli/) includes only the public headers; no folder includes
# another's private header (NAME-int.h) unless HACKING.md's friends table
# lists that include; and, given the built objects, the folders call each
# other only along the arrows too, without a cycle: the link graph (each
# folder's objects' undefined symbols against the symbols the others'
# objects define, by nm) is what the library really depends on, whatever
# the includes say (a function declared in one folder's header and defined
# in another's file).
#
#   tests/house/layering.sh [--objects BUILDDIR] [ROOT]
#                                      check the tree at ROOT (default: the
#                                      checkout this script is in), and the
#                                      objects under BUILDDIR/src/lib/ (as a
#                                      test: $top_builddir's, when built)
#   tests/house/layering.sh --graph [--objects BUILDDIR] [ROOT]
#                                      print the derived folder graph instead
#                                      (the link graph with --objects)
#
# The table between the `layering:begin` and `layering:end` markers in
# ROOT/HACKING.md is the one source of truth: one row per folder, the public
# headers (include/hitmap/) it owns, the folders it may include.  An arrow
# allows everything it reaches (types -> elf -> base lets types include base);
# `*` allows every folder.  An include counts as an arrow to a folder when it
# names the folder ("perf/perfdata-int.h") or a public header the folder owns
# ("hitmap/perfdata.h"); a public header's own includes count for its owner.
#
# Exit status: 0 clean, 1 violations (each named file:line), 2 bad usage or a
# malformed table.
set -u
mode=check
objdir=
if [ "${1:-}" = "--graph" ]; then mode=graph; shift; fi
if [ "${1:-}" = "--objects" ] && [ $# -ge 2 ]; then objdir=$2; shift 2; fi
if [ $# -gt 1 ]; then echo "usage: layering.sh [--graph] [--objects BUILDDIR] [ROOT]" >&2; exit 2; fi
if [ $# -eq 1 ]; then
	root=$1
else
	root=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
	# Run as a test: the build tree's objects, once there are any.
	[ -z "$objdir" ] && [ -n "${top_builddir:-}" ] &&
		ls "$top_builddir"/src/lib/*/.libs/*.o >/dev/null 2>&1 && objdir=$top_builddir
fi
[ -z "$objdir" ] || objdir=$(cd "$objdir" 2>/dev/null && pwd) ||
	{ echo "layering: cannot enter the build tree" >&2; exit 2; }
cd "$root" 2>/dev/null || { echo "layering: cannot enter $root" >&2; exit 2; }
[ -f HACKING.md ] || { echo "layering: $root/HACKING.md not found" >&2; exit 2; }

# Folders, and every file whose includes count, with paths relative to root.
folders=$(for d in src/lib/*/; do [ -d "$d" ] && basename "$d"; done)
files=$(find src/lib include/hitmap src/cli -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort)
pubs=$(cd include/hitmap && ls *.h 2>/dev/null)

# The link graph's input: "SYM folder object name type" for every global
# symbol of every object of a folder (libtool's PIC objects in .libs/, else
# the plain ones), by one nm over all of them: a process per object costs
# seconds where starting a program is slow.
links=$(mktemp "${TMPDIR:-/tmp}/layering.XXXXXX") || exit 2
trap 'rm -f "$links"' EXIT
if [ -n "$objdir" ]; then
	set --
	for d in $folders; do
		found=
		for o in "$objdir/src/lib/$d/.libs/"*.o; do
			[ -f "$o" ] && { set -- "$@" "$o"; found=1; }
		done
		[ -n "$found" ] && continue
		for o in "$objdir/src/lib/$d/"*.o; do
			[ -f "$o" ] && set -- "$@" "$o"
		done
	done
	# nm -A -P: "OBJECT: NAME TYPE [VALUE SIZE]"; the folder is the
	# object's directory under src/lib/.
	[ $# -eq 0 ] || nm -A -P "$@" 2>/dev/null |
		awk -v pre="$objdir/" 'NF >= 3 {
			o = $1; sub(/:$/, "", o)
			if (index(o, pre) == 1) o = substr(o, length(pre) + 1)
			d = o; sub(/^src\/lib\//, "", d); sub(/\/.*/, "", d)
			print "SYM", d, o, $2, $3 }' >"$links"
fi

LC_ALL=C awk -v mode="$mode" -v folders="$folders" -v pubs="$pubs" -v links="$links" '
function trim(s) { sub(/^[ \t`]+/, "", s); sub(/[ \t`]+$/, "", s); return s }
function err(msg) { print "layering: " msg > "/dev/stderr"; bad = 1 }
function tabfail(msg) { print "layering: HACKING.md:" FNR ": " msg > "/dev/stderr"; tabbad = 1; exit 2 }
# The table is wrong, not the code: say so and stop (END runs after exit).
function tabstop(msg) { print "layering: " msg > "/dev/stderr"; tabbad = 1; exit 2 }

BEGIN {
	nf = split(folders, F, "\n")
	for (i = 1; i <= nf; i++) isfolder[F[i]] = 1
	np = split(pubs, P, "\n")
	for (i = 1; i <= np; i++) ispub[P[i]] = 1
}

# ---- the table ----
FILENAME == "HACKING.md" {
	if ($0 ~ /<!-- friends:begin -->/) { infr = 1; next }
	if ($0 ~ /<!-- friends:end -->/) { infr = 0; next }
	if (infr) {
		# | file | private header it may include |
		if ($0 !~ /^\|/) next
		split($0, c, "|")
		ff = trim(c[2]); fh = trim(c[3])
		if (ff == "file" || ff ~ /^-+$/ || ff == "") next
		friend[ff, fh] = FNR
		next
	}
	if ($0 ~ /<!-- layering:begin -->/) { intab = 1; next }
	if ($0 ~ /<!-- layering:end -->/) { intab = 0; seentab = 1; next }
	if (!intab || $0 !~ /^\|/) next
	n = split($0, c, "|")
	# | folder | owns | may include |  ->  c[2], c[3], c[4]
	name = trim(c[2])
	if (name == "folder" || name ~ /^-+$/ || name == "") next
	if (n < 5) tabfail("layering row needs | folder | owns | may include |")
	if (!(name in isfolder)) tabfail("folder " name " is not a folder of src/lib/")
	if (name in row) tabfail("folder " name " listed twice")
	row[name] = FNR
	k = split(c[3], hs, ",")
	for (j = 1; j <= k; j++) {
		h = trim(hs[j])
		if (h == "" || h == "-" || h == "—") continue
		if (!(h in ispub)) tabfail("public header " h " does not exist in include/hitmap/")
		if (h in owner) tabfail("public header " h " owned by both " owner[h] " and " name)
		owner[h] = name
	}
	k = split(c[4], as, ",")
	for (j = 1; j <= k; j++) {
		a = trim(as[j])
		if (a == "" || a == "-" || a == "—") continue
		if (a == "*") { any[name] = 1; continue }
		if (!(a in isfolder)) tabfail("arrow " name " -> " a ": no folder " a " in src/lib/")
		arrow[name, a] = 1
	}
	next
}

# ---- the first source file: the table is complete, close it ----
!closed {
	closed = 1
	if (!seentab) tabstop("HACKING.md has no layering table (<!-- layering:begin --> ... <!-- layering:end -->)")
	for (i = 1; i <= nf; i++)
		if (!(F[i] in row)) tabstop("HACKING.md: folder src/lib/" F[i] "/ is missing from the layering table")
	for (i = 1; i <= np; i++)
		if (!(P[i] in owner)) tabstop("HACKING.md: public header " P[i] " has no owner in the layering table")
	# `*` reaches every other folder.
	for (i = 1; i <= nf; i++) if (F[i] in any)
		for (j = 1; j <= nf; j++) if (i != j) arrow[F[i], F[j]] = 1
	# What each folder may include: the transitive closure of the arrows.
	for (i = 1; i <= nf; i++) for (j = 1; j <= nf; j++)
		if ((F[i], F[j]) in arrow) may[F[i], F[j]] = 1
	for (k = 1; k <= nf; k++) for (i = 1; i <= nf; i++) if ((F[i], F[k]) in may)
		for (j = 1; j <= nf; j++) if ((F[k], F[j]) in may) may[F[i], F[j]] = 1
	for (i = 1; i <= nf; i++) if ((F[i], F[i]) in may) {
		tabstop("HACKING.md: the layering table has a cycle through " F[i])
	}
}

# ---- the link graph: symbols of the objects ----
FILENAME == links {
	# SYM folder object name type
	haslinks = 1
	if ($5 == "U") { if (!(($2, $4) in und)) und[$2, $4] = $3 }
	else if ($5 ~ /^[A-TV-Z]$/) { def[$4] = $2; dobj[$4] = $3 }
	next
}

# ---- includes ----
/^[ \t]*#[ \t]*include[ \t]*["<]/ {
	line = $0
	sub(/^[ \t]*#[ \t]*include[ \t]*/, "", line)
	quoted = substr(line, 1, 1) == "\""
	t = substr(line, 2)
	sub(/[">].*/, "", t)
	split(FILENAME, p, "/")
	if (p[1] == "include") { from = owner[p[3]]; }
	else if (p[2] == "lib") from = p[3]
	else from = "cli"
	where = FILENAME ":" FNR

	if (t ~ /^hitmap\//) {
		h = substr(t, 8)
		if (!(h in owner)) { err(where ": " t " is not a public header"); next }
		to = owner[h]
	} else if (!quoted) {
		next			# a system header
	} else if (t == "config.h") {
		next			# configure results, for everyone
	} else if (index(t, "/") == 0) {
		# A header beside the includer.
		if (from == "cli" || p[1] == "include") next
		to = from
	} else {
		split(t, q, "/")
		if (!(q[1] in isfolder)) { err(where ": " t ": no folder " q[1] " in src/lib/"); next }
		to = q[1]
	}

	if (from == "cli") {
		if (t !~ /^hitmap\//)
			err(where ": src/cli includes " t ", an internal header of the library (the command may include only hitmap/*.h, config.h and its own headers)")
		next
	}
	if (from == to) next
	# A private header of another folder: only a listed friend.
	if (t ~ /-int\.h$/) {
		if ((FILENAME, t) in friend) usedfriend[FILENAME, t] = 1
		else err(where ": " from " includes " t ", a private header of " to " (not in the friends table of HACKING.md)")
	}
	if (!((from, to) in edge)) { edge[from, to] = where; via[from, to] = t }
	if (!((from, to) in may))
		err(where ": " from " includes " t " (" to "), an arrow the layering table in HACKING.md does not allow")
}

END {
	if (tabbad || !closed) exit 2
	for (k in friend) if (!(k in usedfriend)) {
		split(k, fk, SUBSEP)
		err("HACKING.md:" friend[k] ": friend " fk[1] " -> " fk[2] " is not an include of the tree (drop it)")
	}
	# The link graph: an undefined symbol of a folder that another defines.
	for (k in und) {
		split(k, uk, SUBSEP)
		a = uk[1]; s = uk[2]
		if (!(s in def) || def[s] == a) continue
		b = def[s]
		if ((a, b) in ledge && lsym[a, b] < s) continue
		ledge[a, b] = und[k] " uses " s " (" dobj[s] ")"
		lsym[a, b] = s
	}
	if (mode == "graph") {
		for (i = 1; i <= nf; i++) {
			s = ""
			for (j = 1; j <= nf; j++)
				if (haslinks ? ((F[i], F[j]) in ledge) : ((F[i], F[j]) in edge)) s = s " " F[j]
			print F[i] " ->" s
		}
		exit 0
	}
	for (i = 1; i <= nf; i++) for (j = 1; j <= nf; j++)
		if ((F[i], F[j]) in ledge && !((F[i], F[j]) in may))
			err("link: " ledge[F[i], F[j]] ": " F[i] " -> " F[j] ", an arrow the layering table in HACKING.md does not allow")
	# Cycles of the link graph, as below for the includes.
	for (i = 1; i <= nf; i++) {
		a = F[i]
		if (a in lcycle) continue
		delete prev; delete seen
		qh = 1; qt = 0; Q[++qt] = a; found = 0
		while (qh <= qt && !found) {
			x = Q[qh++]
			for (j = 1; j <= nf; j++) {
				y = F[j]
				if (!((x, y) in ledge) || (y in seen)) continue
				seen[y] = 1; prev[y] = x
				if (y == a) { found = 1; break }
				Q[++qt] = y
			}
		}
		if (!found) continue
		path = a; steps = ""; y = a
		do {
			x = prev[y]
			path = x " -> " path
			steps = ledge[x, y] (steps == "" ? "" : ", " steps)
			lcycle[x] = 1
			y = x
		} while (y != a)
		err("link: cycle between folders: " path ": " steps)
	}
	# Cycles among the folders actually included, whatever the table says:
	# for each folder in a cycle, the shortest way back to it, with the
	# include behind every step.
	for (i = 1; i <= nf; i++) {
		a = F[i]
		if (a in incycle) continue
		# Breadth-first from a along the real edges.
		delete prev; delete seen
		qh = 1; qt = 0; Q[++qt] = a; found = 0
		while (qh <= qt && !found) {
			x = Q[qh++]
			for (j = 1; j <= nf; j++) {
				y = F[j]
				if (!((x, y) in edge) || (y in seen)) continue
				seen[y] = 1; prev[y] = x
				if (y == a) { found = 1; break }
				Q[++qt] = y
			}
		}
		if (!found) continue
		# Walk back from a to a.
		path = a; steps = ""; y = a
		do {
			x = prev[y]
			path = x " -> " path
			steps = edge[x, y] " (" via[x, y] ")" (steps == "" ? "" : ", " steps)
			incycle[x] = 1
			y = x
		} while (y != a)
		err("cycle between folders: " path ": " steps)
	}
	exit bad
}
' HACKING.md $files "$links"
