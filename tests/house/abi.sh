#!/bin/sh
# check-abi: libhitmap.so exports exactly the functions and variables that the
# public headers declare, and libhitmap.map lists exactly those; and with
# --programs, every one of them is used by a program outside the library.
#
#   tests/house/abi.sh [--headers DIR] [--map FILE] [--programs LIST]
#                      [--unused FILE] [LIB]
#
# DIR holds hitmap/*.h (default: the checkout's include/), FILE the version
# script (default: the checkout's libhitmap.map), LIB the shared library
# (default: the built .libs/libhitmap.so).
#
# LIST (default: $HM_ABI_PROGRAMS, which `make check-abi` and `make check`
# set to every program the tree builds) names the programs outside the
# library: the command, the test programs, the fuzz targets, relative to the
# build directory; a name ending in .c is a source (relative to the source
# directory) compiled against the headers, the outside program of
# install.sh.  Those that link libhitmap.so are its users: the symbols they
# take from it are what the ABI must keep.
# An export none of them uses must go (made internal), unless the --unused
# FILE (default: tests/house/abi-unused.txt) lists it as not done yet; that
# list may only shrink: a name on it that a program uses, or that the map
# no longer lists, is an error too.
#
# Functions come from GCC's -aux-info on a file that includes every header
# (the compiler's own list: macros, line breaks and attributes cannot fool
# it); variables from the preprocessed headers, every `extern` statement that
# is not a function.  Exports are `nm -D --defined-only`.
#
# Exit status: 0 they agree, 1 they differ (every difference named), 2 bad
# usage, 77 gcc or nm missing.
set -u
srcdir=$(cd "${top_srcdir:-$(dirname "$0")/../..}" && pwd)
builddir=${top_builddir:-$srcdir}
inc=$srcdir/include
map=$srcdir/libhitmap.map
lib=$builddir/.libs/libhitmap.so
programs=${HM_ABI_PROGRAMS:-}
unused=$srcdir/tests/house/abi-unused.txt
while [ $# -gt 0 ]; do
	case $1 in
	--headers) inc=$2; shift 2 ;;
	--map) map=$2; shift 2 ;;
	--programs) programs=$2; shift 2 ;;
	--unused) unused=$2; shift 2 ;;
	-*) echo "usage: abi.sh [--headers DIR] [--map FILE] [--programs LIST] [--unused FILE] [LIB]" >&2; exit 2 ;;
	*) lib=$1; shift ;;
	esac
done
# -aux-info is GCC's, whatever CC the tree is built with.
gcc=${HM_ABI_GCC:-gcc}
command -v "$gcc" >/dev/null 2>&1 || { echo "SKIP: gcc not installed (Debian package gcc)" >&2; exit 77; }
command -v nm >/dev/null 2>&1 || { echo "SKIP: nm not installed (Debian package binutils)" >&2; exit 77; }
for f in "$inc/hitmap" "$map" "$lib"; do
	[ -e "$f" ] || { echo "abi: $f not found" >&2; exit 2; }
done
inc=$(cd "$inc" && pwd)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hitmap-abi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for h in "$inc"/hitmap/*.h; do
	printf '#include "hitmap/%s"\n' "${h##*/}"
done >"$tmp/all.c"
"$gcc" -std=gnu11 -I"$inc" -fsyntax-only -aux-info "$tmp/aux" "$tmp/all.c" ||
	{ echo "abi: the public headers do not compile on their own" >&2; exit 1; }
"$gcc" -std=gnu11 -I"$inc" -E "$tmp/all.c" >"$tmp/pp" || exit 1
nm -D --defined-only "$lib" >"$tmp/nm" || { echo "abi: nm cannot read $lib" >&2; exit 1; }

# What the programs outside the library use: "PROGRAM SYMBOL" lines.
: >"$tmp/uses"
if [ -n "$programs" ]; then
	command -v readelf >/dev/null 2>&1 || { echo "SKIP: readelf not installed (Debian package binutils)" >&2; exit 77; }
	[ -f "$unused" ] || { echo "abi: $unused not found" >&2; exit 2; }
	soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
	for p in $programs; do
		case $p in /*) f=$p ;; *.c) f=$srcdir/$p ;; *) f=$builddir/$p ;; esac
		case $p in
		*.c)
			# A source: its object's undefined symbols.
			"$gcc" -std=gnu11 -I"$inc" -c -o "$tmp/user.o" "$f" ||
				{ echo "abi: $p does not compile against the headers" >&2; exit 1; }
			nm --undefined-only "$tmp/user.o" >"$tmp/syms" ;;
		*)
			# libtool keeps the real program under .libs/ while the
			# library is not installed.
			d=$(dirname "$f"); b=${f##*/}
			[ -f "$d/.libs/$b" ] && f=$d/.libs/$b
			[ -f "$f" ] || { echo "abi: $p is not built (make check builds it)" >&2; exit 2; }
			readelf -d "$f" 2>/dev/null | grep -q "(NEEDED).*\[$soname\]" || continue
			# Defined ones too: a variable the program reads is
			# copied into it (a copy relocation), so it defines it.
			nm -D "$f" >"$tmp/syms" ;;
		esac
		awk -v p="${p##*/}" '{ s = $NF; sub(/@.*/, "", s); print p, s }' "$tmp/syms" >>"$tmp/uses"
	done
fi

# Where a header is named in messages: relative to the checkout when inside it.
case $inc in "$srcdir"/*) show=${inc#"$srcdir"/} ;; *) show=$inc ;; esac

[ -n "$programs" ] || unused=/dev/null
LC_ALL=C awk -v inc="$inc/hitmap/" -v show="$show/hitmap/" -v lib="${lib##*/}" -v map="${map##*/}" -v mapf="$map" \
	-v checkusers="$([ -n "$programs" ] && echo 1)" -v unusedf="$unused" -v unusedn="${unused##*/}" '
function say(msg) { print "abi: " msg; bad = 1 }
# ---- functions: /* PATH:LINE:NC */ extern int hm_foo (int);
FILENAME ~ /\/aux$/ {
	if (!match($0, /^\/\* [^ ]+:[0-9]+:/)) next
	loc = substr($0, 4, RLENGTH - 4)
	if (index(loc, inc) != 1) next
	rest = substr($0, index($0, "*/") + 2)
	if (rest ~ /^[ \t]*static/) next	# static inline functions are not exported
	if (!match(rest, /[A-Za-z_][A-Za-z0-9_]* \(/)) next
	name = substr(rest, RSTART, RLENGTH - 2)
	if (!(name in decl)) decl[name] = show substr(loc, length(inc) + 1)
	next
}
# ---- variables: extern statements of the preprocessed headers
FILENAME ~ /\/pp$/ {
	if ($0 ~ /^# [0-9]+ "/) {
		split($0, m, "\"")
		cur = m[2]; ln = $2 - 1
		ours = index(cur, inc) == 1
		next
	}
	ln++
	if (!ours) next
	if (text ~ /^[ \t\n]*$/) stl = ln	# a statement starts here
	text = text $0 "\n"
	# One statement per ";": remember where each extern one starts.
	while ((i = index(text, ";")) > 0) {
		st = substr(text, 1, i - 1); text = substr(text, i + 1); at = stl; stl = ln
		if (st !~ /^[ \t\n]*extern[ \t\n]/ || index(st, "(")) continue
		sub(/=.*/, "", st); gsub(/\[[^]]*\]/, "", st); gsub(/[ \t\n]+$/, "", st)
		if (!match(st, /[A-Za-z_][A-Za-z0-9_]*$/)) continue
		name = substr(st, RSTART)
		if (!(name in decl)) decl[name] = show substr(cur, length(inc) + 1) ":" at
	}
	next
}
# ---- the version script
FILENAME == mapf {
	if ($0 ~ /^[ \t]*local:/) { inglobal = 0; next }
	if ($0 ~ /^[ \t]*global:/) { inglobal = 1; next }
	if (!inglobal) next
	s = $0; gsub(/\/\*.*\*\//, "", s)
	while (match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*;/)) {
		name = substr(s, RSTART, RLENGTH - 1); sub(/[ \t]+$/, "", name)
		s = substr(s, RSTART + RLENGTH)
		listed[name] = 1
	}
	next
}
# ---- nm -D --defined-only: ADDR TYPE NAME[@@VERSION]
FILENAME ~ /\/nm$/ {
	if (NF < 3 || $2 == "A") next	# "A": the version nodes themselves
	name = $3; ver = ""
	if ((i = index(name, "@")) > 0) { ver = substr(name, i); sub(/^@+/, "", ver); name = substr(name, 1, i - 1) }
	exported[name] = 1; version[name] = ver; anyver = anyver || ver != ""
}
# ---- what the programs use, then the exports not yet made internal
FILENAME ~ /\/uses$/ { if (!($2 in user)) user[$2] = $1; next }
FILENAME == unusedf {
	if ($0 ~ /^[ \t]*(#|$)/) next
	notyet[$1] = 1
	next
}
END {
	if (checkusers) {
		for (s in listed) {
			if (!(s in user) && !(s in notyet))
				say(map " lists " s ", which no program outside the library uses")
			if ((s in user) && (s in notyet))
				say(unusedn " lists " s " as unused, but " user[s] " uses it")
		}
		for (s in notyet)
			if (!(s in listed))
				say(unusedn " lists " s ", which " map " does not list")
	}
	for (s in decl) {
		if (s !~ /^hm_/) say(decl[s] ": " s " is declared without the hm_ prefix")
		if (!(s in exported)) say(decl[s] ": " s " is declared but " lib " does not export it")
		if (!(s in listed)) say(decl[s] ": " s " is declared but " map " does not list it")
	}
	for (s in exported) {
		if (s in decl) {
			if (anyver && version[s] !~ /^HITMAP_/) say(s " is exported without a HITMAP_ version node")
			continue
		}
		say(lib " exports " s ", which no public header declares" (s ~ /^hm_/ ? "" : " (and without the hm_ prefix)"))
	}
	for (s in listed)
		if (!(s in decl)) say(map " lists " s ", which no public header declares")
	exit bad
}
' "$tmp/aux" "$tmp/pp" "$map" "$tmp/nm" "$tmp/uses" "$unused" >"$tmp/msgs"
rc=$?
# Sorted, so that two runs print the same.
LC_ALL=C sort "$tmp/msgs" >&2
exit $rc
