#!/bin/sh
# Across compilation units: a struct from a header included by three CUs is
# stored once; a struct only declared in one CU (pointer member) resolves to
# its definition in another; a name defined differently in two CUs keeps the
# first definition in walk order for lookups, and the list repeats a name only
# for a different definition (pahole --sizes, the oracle); unknown names get
# suggestions.  Sources are written here so each expectation sits beside
# its cause.
. "$top_srcdir/tests/lib.sh"
DUMP="$top_builddir/tests/types/typedump"

cat >"$T/hdr.h" <<'X'
struct shared {
	long a;
	int b;
};
typedef struct shared shared_t;
struct opaque;
struct holder {
	struct opaque *op;
	struct shared *sh;
};
X
cat >"$T/a.c" <<'X'
#include "hdr.h"
shared_t sa;		/* through the typedef, so it is emitted */
struct holder ha;
struct local_a { int only_in_a; } la;
struct twice { int x; } ta;		/* 4 bytes: first in walk order */
int main(void) { return 0; }
X
cat >"$T/b.c" <<'X'
#include "hdr.h"
struct shared sb;
struct opaque { char name[24]; } ob;	/* the definition, 24 bytes */
struct twice { long x, y; } tb;		/* another struct twice, 16 bytes */
X
cat >"$T/c.c" <<'X'
#include "hdr.h"
struct shared sc;
struct holder hc;
X
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	for dw in 4 5; do
		out="$T/prog-$cc-$dw"
		echo "+ $cc -g -gdwarf-$dw -o $out a.c b.c c.c" >&2
		(cd "$T" && $cc -g -gdwarf-$dw -O0 -o "$out" a.c b.c c.c) || fail "build"
		assert_eq 1 "$("$DUMP" -c shared "$out")" "$cc-$dw: struct shared stored once"
		assert_eq 1 "$("$DUMP" -c holder "$out")" "$cc-$dw: struct holder stored once"
		# holder.op points to the definition from b.c (a.c and c.c only
		# declare struct opaque).  A full load resolves it; a -C load
		# stops at the first CU defining holder and keeps the declaration
		# (all a layout needs of a pointer's target is its name).
		assert_eq "holder.op off 0 size 8 align 8 -> complete" \
			"$("$DUMP" -o "$out" | grep '^holder.op')" "$cc-$dw: declaration resolved"
		assert_eq "holder.op off 0 size 8 align 8 -> declaration" \
			"$("$DUMP" -o -C holder "$out" | grep '^holder.op')" "$cc-$dw: -C load"
		assert_eq "struct opaque size 24 align 1" \
			"$("$DUMP" -o -C opaque "$out" | head -1)" "$cc-$dw: opaque"
		# two different definitions are two types; the list has both (in
		# walk order: a.c's 4 bytes, then b.c's 16), lookup gives the first
		assert_eq 2 "$("$DUMP" -c twice "$out")" "$cc-$dw: two struct twice"
		assert_eq "twice 4 twice 16" "$("$DUMP" -l "$out" | grep '^twice ' | tr '\n' ' ' |
			sed 's/ $//')" "$cc-$dw: both twice listed"
		# the whole list, names and sizes, in pahole --sizes' order
		if command -v pahole >/dev/null 2>&1; then
			pahole -F dwarf --sizes "$out" | cut -f1,2 | tr '\t' ' ' >"$out.want"
			"$DUMP" -l "$out" >"$out.got"
			assert_files_eq "$out.want" "$out.got" "$cc-$dw: list differs from pahole --sizes"
		fi
		assert_eq "struct twice size 4 align 4" \
			"$("$DUMP" -o -C twice "$out" | head -1)" "$cc-$dw: lookup twice"
		# a typedef name finds its struct, as with pahole -C
		assert_eq "typedef shared_t|struct shared size 16 align 8" \
			"$("$DUMP" -o -C shared_t "$out" | head -2 | tr '\n' '|' | sed 's/|$//')" \
			"$cc-$dw: typedef name"
		# unknown name: exit 2 and the closest names
		assert_exit 2 "unknown struct" "$DUMP" -C sharde "$out"
		assert_eq "error: $out: no struct named sharde (did you mean: shared)" \
			"$(cat "$T/err")" "$cc-$dw: suggestion"
	done
done
exit 0
