#!/bin/sh
# layout --json lists the members the text prints inline: those of an array
# of anonymous structs (`struct { int n; char c; } arr_anon[3]`, at its first
# element, as the text shows them) and of a named member of anonymous struct
# type, at every depth, and with -E those of arrays of named structs and
# typedefs too.  Oracles: the compiler (tests/layout/fx-anon-array.c prints
# offsetof and sizeof of every member the text shows, in its order), on gcc
# and clang, DWARF 4 and 5; and on gcc builds pahole's own text, walked
# member by member against the JSON by jsontext.py (pahole 1.24 prints
# clang's anonymous types a second time, at file scope, so its text of the
# clang builds is no oracle).
. "$top_srcdir/tests/lib.sh"
require python3 python3
require pahole dwarves
src=$TESTS_SRC/layout/fx-anon-array.c
for cc in gcc clang; do
	command -v $cc >/dev/null || { [ $cc = clang ] && continue; fail "no gcc"; }
	for dw in 4 5; do
		b=$T/$cc-$dw
		build_fixture "$src" "$b" $cc $dw -O0
		"$b" >"$b.oracle" || fail "$cc-$dw: the fixture did not run"
		for e in "" -E; do
			"$HITMAP" layout $e --json -C outer "$b" >"$b.json$e" ||
				fail "$cc-$dw: layout $e --json"
			python3 - "$b.json$e" "$b.oracle" "$e" >"$b.got$e" <<'PY' || fail "$cc-$dw $e: flattening the JSON"
import json, re, sys
doc = json.load(open(sys.argv[1]))
def walk(ms, prefix):
    for m in ms:
        if m['name'] is None:
            walk(m.get('members', []), prefix)
            continue
        path = prefix + m['name']
        print(path, m['offset'], m['size'])
        dims = len(re.findall(r'\[\d*\]', re.sub(r'^.*\}', '', m['type'])))
        walk(m.get('members', []), path + '[0]' * dims + '.')
walk(doc['structs'][0]['members'], '')
PY
			if [ -n "$e" ]; then
				cut -d' ' -f2- "$b.oracle" >"$b.want$e"
			else
				grep '^A ' "$b.oracle" | cut -d' ' -f2- >"$b.want$e"
			fi
			assert_files_eq "$b.want$e" "$b.got$e" "$cc-$dw $e: JSON members vs offsetof"
			if [ $cc = gcc ]; then
				pahole $e -C outer "$b" >"$b.pahole$e" || fail "$cc-$dw: pahole $e"
				python3 "$TESTS_SRC/layout/jsontext.py" "$b.pahole$e" "$b.json$e" \
					"$cc-$dw pahole $e" || fail "$cc-$dw $e: the JSON differs from pahole's text"
			fi
		done
	done
done
exit 0
