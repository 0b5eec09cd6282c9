#!/bin/sh
# check-layering can fail: on a copy of the tree it passes once the command's
# internal includes are taken out, then fails naming file:line for a planted
# forbidden include, a planted cycle between folders, a planted internal
# include in src/cli/, a planted include of another folder's private header
# and a folder the table does not know; on a copy of the build tree's
# objects it passes, then fails naming object and symbol for a planted call
# that closes a cycle between folders no include shows.
. "$top_srcdir/tests/lib.sh"
LAYERING=$TESTS_SRC/house/layering.sh

mkdir -p "$T/tree/src"
cp -R "$top_srcdir/src/lib" "$top_srcdir/src/cli" "$T/tree/src/" || fail "copy src"
cp -R "$top_srcdir/include" "$top_srcdir/HACKING.md" "$T/tree/" || fail "copy include"
# The command's includes of internals (being removed from src/cli/), so that
# the copy is clean and each plant below is the only violation.
for f in "$T"/tree/src/cli/*.[ch]; do
	sed '/^#include "\(base\|heat\)\//d' "$f" >"$T/x" && cat "$T/x" >"$f"
done
sh "$LAYERING" "$T/tree" 2>"$T/err" || { cat "$T/err" >&2; fail "clean copy: check-layering failed"; }

# plant LINE FILE: append an include, print FILE:LINENO.
plant() {
	printf '%s\n' "$1" >>"$T/tree/$2"
	echo "$2:$(wc -l <"$T/tree/$2" | tr -d ' ')"
}
# perf knows nothing of layouts: a forbidden arrow, no cycle.
p1=$(plant '#include "layout/layout-int.h"' src/lib/perf/datasrc.c)
# types -> layout, while layout -> types: forbidden, and a cycle.
p2=$(plant '#include "hitmap/layout.h"' src/lib/types/types.c)
# the command reaching past the public headers.
p3=$(plant '#include "layout/layout-int.h"' src/cli/main.c)
# The arrow layout -> types the cycle closes with: layout.h's include.
lt=include/hitmap/layout.h:$(grep -n '^#include "hitmap/types.h"' "$T/tree/include/hitmap/layout.h" | head -1 | cut -d: -f1)
assert_exit 1 "planted violations" sh "$LAYERING" "$T/tree"
cat "$T/err" >&2
cat >"$T/want" <<EOF
layering: $p1: perf includes layout/layout-int.h (layout), an arrow the layering table in HACKING.md does not allow
layering: $p1: perf includes layout/layout-int.h, a private header of layout (not in the friends table of HACKING.md)
layering: $p3: src/cli includes layout/layout-int.h, an internal header of the library (the command may include only hitmap/*.h, config.h and its own headers)
layering: $p2: types includes hitmap/layout.h (layout), an arrow the layering table in HACKING.md does not allow
layering: cycle between folders: layout -> types -> layout: $lt (hitmap/types.h), $p2 (hitmap/layout.h)
EOF
LC_ALL=C sort "$T/want" >"$T/want.s"
LC_ALL=C sort "$T/err" >"$T/err.s"
assert_files_eq "$T/want.s" "$T/err.s" "check-layering messages"

# An arrow to output closes a cycle in the table itself: output -> *.
sed 's/^| `suggest` | `suggest.h` | `check`,/| `suggest` | `suggest.h` | `output`, `check`,/' \
	"$T/tree/HACKING.md" >"$T/x" && cat "$T/x" >"$T/tree/HACKING.md"
assert_exit 2 "an arrow to output" sh "$LAYERING" "$T/tree"
grep -q '^layering: HACKING.md: the layering table has a cycle through ' "$T/err" ||
	{ cat "$T/err" >&2; fail "an arrow to output: no table cycle reported"; }
cp "$top_srcdir/HACKING.md" "$T/tree/HACKING.md"

# The plants above out again: each is its file's last line.
for f in src/lib/perf/datasrc.c src/lib/types/types.c src/cli/main.c; do
	sed '$d' "$T/tree/$f" >"$T/x" && cat "$T/x" >"$T/tree/$f"
done
# Another folder's private header, not in the friends table.
p4=$(plant '#include "layout/layout-int.h"' src/lib/check/lint.c)
assert_exit 1 "a private header" sh "$LAYERING" "$T/tree"
assert_eq "layering: $p4: check includes layout/layout-int.h, a private header of layout (not in the friends table of HACKING.md)" \
	"$(cat "$T/err")" "private header message"
sed '$d' "$T/tree/src/lib/check/lint.c" >"$T/x" && cat "$T/x" >"$T/tree/src/lib/check/lint.c"

# The link graph: the build tree's objects pass; an object of types that
# calls a function of layout (layout -> types is an arrow) closes a cycle
# that only the symbols show.
for d in "$top_builddir"/src/lib/*/; do
	n=$(basename "$d")
	mkdir -p "$T/build/src/lib/$n/.libs"
	for o in "$d".libs/*.o; do
		[ -f "$o" ] && cp "$o" "$T/build/src/lib/$n/.libs/"
	done
done
ls "$T"/build/src/lib/layout/.libs/*.o >/dev/null 2>&1 || fail "no objects in $top_builddir/src/lib/layout/.libs"
sh "$LAYERING" --objects "$T/build" "$T/tree" 2>"$T/err" ||
	{ cat "$T/err" >&2; fail "the build tree's objects: check-layering failed"; }
printf 'void hm_layout_free(void *l);\nvoid planted(void *l);\nvoid planted(void *l) { hm_layout_free(l); }\n' >"$T/planted.c"
${CC:-cc} -c -o "$T/build/src/lib/types/.libs/planted.o" "$T/planted.c" || fail "compile the planted object"
assert_exit 1 "planted call" sh "$LAYERING" --objects "$T/build" "$T/tree"
cat "$T/err" >&2
grep -qx "layering: link: src/lib/types/.libs/planted.o uses hm_layout_free (src/lib/layout/.libs/layout.o): types -> layout, an arrow the layering table in HACKING.md does not allow" "$T/err" ||
	fail "planted call: no forbidden arrow reported"
grep -q "^layering: link: cycle between folders: layout -> types -> layout: src/lib/layout/.libs/[a-z-]*\.o uses hm_[a-z_]* (src/lib/types/.libs/[a-z-]*\.o), src/lib/types/.libs/planted.o uses hm_layout_free (src/lib/layout/.libs/layout.o)$" "$T/err" ||
	fail "planted call: no cycle reported"
assert_eq 2 "$(wc -l <"$T/err" | tr -d ' ')" "planted call: two messages"

# A folder the table does not know is an error of the table (exit 2).
mkdir "$T/tree/src/lib/newstage"
assert_exit 2 "unknown folder" sh "$LAYERING" "$T/tree"
assert_eq "layering: HACKING.md: folder src/lib/newstage/ is missing from the layering table" \
	"$(cat "$T/err")" "unknown folder message"
echo "check-layering fails on each planted violation"
