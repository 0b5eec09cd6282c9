#!/bin/sh
# check-abi: libhitmap.so exports exactly the functions and variables that the
# public headers declare, and libhitmap.map lists exactly those.
#
#   tests/house/abi.sh [--headers DIR] [--map FILE] [LIB]
#
# DIR holds hitmap/*.h (default: the checkout's include/), FILE the version
# script (default: the checkout's libhitmap.map), LIB the shared library
# (default: the built .libs/libhitmap.so).
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
while [ $# -gt 0 ]; do
	case $1 in
	--headers) inc=$2; shift 2 ;;
	--map) map=$2; shift 2 ;;
	-*) echo "usage: abi.sh [--headers DIR] [--map FILE] [LIB]" >&2; exit 2 ;;
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

# Where a header is named in messages: relative to the checkout when inside it.
case $inc in "$srcdir"/*) show=${inc#"$srcdir"/} ;; *) show=$inc ;; esac

LC_ALL=C awk -v inc="$inc/hitmap/" -v show="$show/hitmap/" -v lib="${lib##*/}" -v map="${map##*/}" -v mapf="$map" '
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
{
	if (NF < 3 || $2 == "A") next	# "A": the version nodes themselves
	name = $3; ver = ""
	if ((i = index(name, "@")) > 0) { ver = substr(name, i); sub(/^@+/, "", ver); name = substr(name, 1, i - 1) }
	exported[name] = 1; version[name] = ver; anyver = anyver || ver != ""
}
END {
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
' "$tmp/aux" "$tmp/pp" "$map" "$tmp/nm" >"$tmp/msgs"
rc=$?
# Sorted, so that two runs print the same.
LC_ALL=C sort "$tmp/msgs" >&2
exit $rc
