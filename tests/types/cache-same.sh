#!/bin/sh
# The type cache changes nothing: for every fixture, C and C++ (the layout
# fixtures, gcc and clang; fx-units-*.cc linked in both orders, g++ and
# clang++, DWARF 4 and 5), the whole printout, --list and --json, and every
# struct's own printout (-C NAME), are byte-identical with --no-cache, with a
# cold cache (an empty cache directory per command) and a warm one (filled
# by a --list first); and each -C printout is that struct's block of the
# whole printout.  fx-units-*.cc hold what once differed: a base class whose
# key function is in the other unit (std::future_error: a 0-byte ancestor
# and a 16-byte hole with -C), and a template's member typedef
# (std::__atomic_base<unsigned int>::__int_type: 1 byte instead of 4).  The
# sizes are also checked against the compiler (static_assert).  fx-cxx-scope.cc
# (g++ and clang++, DWARF 4 and 5) adds same-named types of several scopes
# and nested classes, each -C'd by its qualified name.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/layout/build-fixtures.sh"
require clang++ clang
here=$TESTS_SRC/types
build_layout_fixtures "$T" gcc:5:-O2 clang:4:-O2
bins="$T/gcc-5-O2/fx $T/gcc-5-O2/fxcxx $T/gcc-5-O2/mm_v2 $T/gcc-5-O2/groups
      $T/clang-4-O2/fx $T/clang-4-O2/fxcxx $T/clang-4-O2/mm_v1"
for cxx in g++ clang++; do
	for dw in 4 5; do
		for order in "a b" "b a"; do
			# shellcheck disable=SC2086
			set -- $order
			out=$T/units-$cxx-$dw-$1$2
			echo "+ $cxx -g -gdwarf-$dw -O0 -o $out fx-units-$1.cc fx-units-$2.cc" >&2
			$cxx -g -gdwarf-$dw -O0 -o "$out" "$here/fx-units-$1.cc" "$here/fx-units-$2.cc" ||
				fail "cannot build $out"
			bins="$bins $out"
		done
		# same-named types of different namespaces and classes, nested
		# classes (tests/types/cxx-scope.sh)
		out=$T/scope-$cxx-$dw
		echo "+ $cxx -g -gdwarf-$dw -O0 -o $out fx-cxx-scope.cc" >&2
		$cxx -g -gdwarf-$dw -O0 -o "$out" "$here/fx-cxx-scope.cc" || fail "cannot build $out"
		bins="$bins $out"
	done
done
run3() {	# run3 LABEL OUT ARGS...: OUT.n (--no-cache), OUT.c (cold), OUT.w (warm)
	label=$1; o=$2; shift 2
	"$HITMAP" layout --no-cache "$@" >"$o.n" 2>&1 || fail "$label: --no-cache $*"
	rm -rf "$T/cold"
	XDG_CACHE_HOME=$T/cold "$HITMAP" layout "$@" >"$o.c" 2>&1 || fail "$label: cold $*"
	XDG_CACHE_HOME=$T/warm "$HITMAP" layout "$@" >"$o.w" 2>&1 || fail "$label: warm $*"
	cmp -s "$o.n" "$o.c" || { diff "$o.n" "$o.c" | head; fail "$label: $* differs cold"; }
	cmp -s "$o.n" "$o.w" || { diff "$o.n" "$o.w" | head; fail "$label: $* differs warm"; }
}
n=0
for b in $bins; do
	label=${b#"$T"/}
	rm -rf "$T/warm"
	XDG_CACHE_HOME=$T/warm "$HITMAP" layout --list "$b" >/dev/null || fail "$label: --list"
	ls "$T"/warm/hitmap/*.types >/dev/null 2>&1 || fail "$label: no cache written"
	run3 "$label" "$b.all" "$b"
	run3 "$label" "$b.list" --list "$b"
	run3 "$label" "$b.json" --json "$b"
	cut -f1 "$b.list.n" >"$b.names"
	k=0
	while IFS= read -r name; do
		k=$((k + 1))
		run3 "$label" "$b.one$k" -C "$name" "$b"
		n=$((n + 1))
	done <"$b.names"
	python3 - "$b" <<'PY' || fail "$label: a -C printout is not its block of the whole printout"
import re, sys
b = sys.argv[1]
def block(path, name):
    out, on = [], False
    for l in open(path):
        if not on and re.match(r'^(struct|union|class) %s( : .*)? \{$' % re.escape(name), l):
            on = True
        if on:
            out.append(l)
            if l.startswith('}'):
                return ''.join(out)
    return None
for k, name in enumerate(open(b + '.names').read().split('\n')[:-1], 1):
    a, o = block(b + '.all.n', name), block('%s.one%d.n' % (b, k), name)
    if a is None or a != o:
        print('%s: whole:\n%s\n-C:\n%s' % (name, a, o))
        sys.exit(1)
PY
	case $label in units-*)
		# the compiler's sizes for what hitmap printed
		python3 - "$b.json.n" "$here/fx-units.h" >"$b.chk.cc" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
print('#include "%s"' % sys.argv[2])
for s in doc['structs']:
    if s['name'] in ('Keyed', 'OnKeyed', 'HoldsA', 'HoldsB') or s['name'].startswith('Box<'):
        print('static_assert(sizeof(%s) == %d, "sizeof %s");' % (s['name'], s['size'], s['name']))
        for m in s['members']:
            if m['name'] and not m['name'].startswith('_vptr') and m['name'] != 'Keyed':
                print('static_assert(offsetof(%s, %s) == %d, "%s.%s");'
                      % (s['name'], m['name'], m['offset'], s['name'], m['name']))
PY
		c++ -std=c++17 -Wno-invalid-offsetof -fsyntax-only "$b.chk.cc" ||
			fail "$label: printed sizes are not the compiler's"
		;;
	esac
done
echo "$n -C printouts equal with --no-cache, a cold and a warm cache, and their whole-file blocks"
