#!/bin/sh
# C++ scopes (fx-cxx-scope.cc, g++ and clang++, DWARF 4 and 5): structs of the
# same name in different namespaces and classes, with different layouts,
# are different types printed by their qualified names; classes nested in
# classes are in the whole-file printout; -C takes a qualified name, and a
# plain one when it means one type (the global one, or the only one), and
# else says it is ambiguous, naming each candidate (exit 2).  Oracles: the
# compiler (a sizeof/offsetof program generated from hitmap's JSON) and gdb
# (tests/types/gdbtypes.py: size, members' offsets and sizes, bases).
. "$top_srcdir/tests/lib.sh"
require g++ g++
require clang++ clang
require gdb gdb
require python3 python3
here=$TESTS_SRC/types
n=0
for cxx in g++ clang++; do
	for dw in 4 5; do
		b=$T/cxxscope-$cxx-$dw
		echo "+ $cxx -g -gdwarf-$dw -O0 -o $b fx-cxx-scope.cc" >&2
		$cxx -g -gdwarf-$dw -O0 -o "$b" "$here/fx-cxx-scope.cc" || fail "cannot build $b"
		"$HITMAP" layout --no-cache --list "$b" >"$b.list" || fail "$cxx-$dw: --list"
		cut -f1 "$b.list" | sort >"$b.names"
		printf '%s\n' 'alpha::Node' 'alpha::Outer' 'alpha::Outer::Inner' 'beta::Node' \
			'beta::deep::Node' 'beta::Outer' 'beta::Outer::Inner' 'beta::Outer::Leaf' \
			'gam::(anonymous namespace)::Node' 'Node' 'User' | sort >"$b.want"
		assert_files_eq "$b.want" "$b.names" "$cxx-$dw: the types and their scopes"
		"$HITMAP" layout --no-cache "$b" >"$b.all" || fail "$cxx-$dw: layout"
		for j in 1 2; do
			"$HITMAP" layout --no-cache -j $j "$b" >"$b.j$j" || fail "$cxx-$dw: -j $j"
			cmp -s "$b.all" "$b.j$j" || fail "$cxx-$dw: -j $j prints otherwise"
		done
		# the compiler: every printed struct's size and members' offsets
		"$HITMAP" layout --no-cache --json "$b" >"$b.json" || fail "$cxx-$dw: --json"
		python3 - "$b.json" "$here/fx-cxx-scope.cc" >"$b.chk.cc" <<'PY' || fail "cannot generate the check"
import json, sys
doc = json.load(open(sys.argv[1]))
print('#include <cstddef>\n#define main fx_main\n#include "%s"\n#undef main' % sys.argv[2])
for s in doc['structs']:
    t = s['name'].replace('(anonymous namespace)::', '')
    print('static_assert(sizeof(%s) == %d, "sizeof %s");' % (t, s['size'], s['name']))
    for m in s['members']:
        if m.get('name'):
            print('static_assert(offsetof(%s, %s) == %d, "%s.%s");'
                  % (t, m['name'], m['offset'], s['name'], m['name']))
PY
		$cxx -std=c++11 -fsyntax-only -w "$b.chk.cc" || fail "$cxx-$dw: sizes or offsets are not the compiler's"
		grep -c static_assert "$b.chk.cc" | grep -qx 37 || fail "$cxx-$dw: not 11 sizes and 26 offsets checked"
		# gdb
		python3 "$here/gdbtypes.py" "$b.all" "$b" >"$b.gdb" || fail "$cxx-$dw: gdb failed"
		grep -qx '11 types, 0 differ' "$b.gdb" || { cat "$b.gdb"; fail "$cxx-$dw: gdb reads the types otherwise"; }
		# -C by qualified name: the type's block of the whole printout
		i=0
		while IFS= read -r name; do
			i=$((i + 1))
			"$HITMAP" layout --no-cache -C "$name" "$b" >"$b.one.$i" ||
				fail "$cxx-$dw: -C '$name'"
		done <"$b.names"
		python3 - "$b.all" "$b.names" "$b.one" <<'PY' || fail "$cxx-$dw: a -C NAME printout is not its block"
import re, sys
def block(path, name):
    out, on = [], False
    for l in open(path):
        if not on and re.match(r'^(struct|class|union) %s( : .*)? \{$' % re.escape(name), l):
            on = True
        if on:
            out.append(l)
            if l.startswith('}'):
                return ''.join(out)
names = [l.rstrip('\n') for l in open(sys.argv[2])]
bad = 0
for i, name in enumerate(names, 1):
    a, o = block(sys.argv[1], name), block('%s.%d' % (sys.argv[3], i), name)
    if a is None or a != o:
        print("-C '%s' is not its block" % name)
        bad = 1
sys.exit(bad)
PY
		# plain names: the global one, the only one, or ambiguous
		"$HITMAP" layout --no-cache -C Node "$b" | head -1 >"$b.plain"
		"$HITMAP" layout --no-cache -C Leaf "$b" | head -1 >>"$b.plain"
		printf '%s\n' 'struct Node {' 'struct beta::Outer::Leaf {' >"$b.plain.want"
		assert_files_eq "$b.plain.want" "$b.plain" "$cxx-$dw: plain -C names"
		for c in cache nocache; do
			[ $c = cache ] && flag= || flag=--no-cache
			rc=0
			# shellcheck disable=SC2086
			XDG_CACHE_HOME=$T/xdg "$HITMAP" layout $flag -C Inner "$b" >"$b.out" 2>"$b.err" || rc=$?
			[ $rc = 2 ] || fail "$cxx-$dw ($c): -C Inner exits $rc, not 2"
			[ ! -s "$b.out" ] || fail "$cxx-$dw ($c): -C Inner printed something"
			grep -qxF "error: $b: 'Inner' is ambiguous: 'alpha::Outer::Inner', 'beta::Outer::Inner' (quote a qualified name: -C 'ns::Inner')" "$b.err" ||
				{ cat "$b.err"; fail "$cxx-$dw ($c): the ambiguity message"; }
		done
		# the gates and suggest take -C names as layout does: never the
		# first of several (a finding about the wrong struct)
		for cmd in lint check "suggest --lint"; do
			rc=0
			# shellcheck disable=SC2086
			"$HITMAP" $cmd --no-cache -C Inner "$b" >"$b.out" 2>"$b.err" || rc=$?
			[ $rc = 2 ] || { cat "$b.err"; fail "$cxx-$dw: $cmd -C Inner exits $rc, not 2"; }
			grep -qxF "error: $b: 'Inner' is ambiguous: 'alpha::Outer::Inner', 'beta::Outer::Inner' (quote a qualified name: -C 'ns::Inner')" "$b.err" ||
				{ cat "$b.err"; fail "$cxx-$dw: $cmd's ambiguity message"; }
			# shellcheck disable=SC2086
			"$HITMAP" $cmd --no-cache -C 'alpha::Outer::Inner' "$b" >"$b.out" 2>"$b.err" ||
				{ cat "$b.err"; fail "$cxx-$dw: $cmd -C 'alpha::Outer::Inner'"; }
		done
		n=$((n + 1))
	done
done
echo "$n builds: scopes as the compiler and gdb see them"
