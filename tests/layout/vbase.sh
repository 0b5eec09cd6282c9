#!/bin/sh
# C++ virtual bases and reused base tails, with the compiler as the oracle.
# fx-vbase.cc and fx-cxx.cc are built by g++ and clang++ at DWARF 4 and 5;
# for every class of interest, a program generated from hitmap's text checks
# at run time that each base hitmap prints (virtual ones included, which
# DWARF places only by a vtable-reading expression) sits at the offset the
# compiler gives (static_cast from a complete object), that each member sits
# at its offset, that the size is sizeof, and that a base drawn at N bytes
# leaves the derived class's own members outside its N bytes.  Nearly empty
# virtual bases (primary bases of the class or of a base) and empty ones are
# placed too: no "?" is left.
. "$top_srcdir/tests/lib.sh"
require g++ g++
require clang++ clang
ldir=$TESTS_SRC/layout
classes="A B C Deep Istream Istrstream Iostream Reuse Left Right Diamond Derived
	UsesNE UsesEmpty OnNE TwoNE DynNE UsesEV2 ViaV"
n=0
for cxx in g++ clang++; do
	for dw in 4 5; do
		out=$T/$cxx-$dw
		mkdir -p "$out"
		echo "+ $cxx -g -gdwarf-$dw -c fx-vbase.cc fx-cxx.cc" >&2
		$cxx -g -gdwarf-$dw -c -o "$out/v.o" "$ldir/fx-vbase.cc" || fail "cannot build fx-vbase.cc"
		$cxx -g -gdwarf-$dw -c -o "$out/x.o" "$ldir/fx-cxx.cc" || fail "cannot build fx-cxx.cc"
		: >"$out/hm"
		for f in v x; do
			"$HITMAP" layout "$out/$f.o" >>"$out/hm" || fail "$cxx DWARF $dw: hitmap layout $f.o failed"
		done
		python3 - "$out/hm" "$classes" >"$out/check.cc" <<'PY' || fail "cannot generate the check"
import re, sys
text = open(sys.argv[1]).read()
print('#include <cstdio>\n#include <cstddef>\n#include <cstdint>')
print('#define private public\n#define main fx_cxx_main')
print('#include "fx-vbase.cc"\n#include "fx-cxx.cc"\n#undef main')
print('int main() { int bad = 0;')
line = re.compile(r'/\* +(\d+|\?) +(\d+) \*/$')
for cls in sys.argv[2].split():
    m = re.search(r'^struct %s[ {].*?^};' % re.escape(cls), text, re.S | re.M)
    if not m:
        print('puts("%s: not printed"); bad++;' % cls); continue
    body = m.group(0)
    print('{ static %s o; const char *b = (const char *)&o; (void)b;' % cls)
    size = re.search(r'/\* size: (\d+)', body).group(1)
    print('if (sizeof(%s) != %s) { printf("%s: size %s, sizeof %%zu\\n", sizeof(%s)); bad++; }'
          % (cls, size, cls, size, cls))
    ends = []	# (name, offset, drawn size) of bases; members after
    for l in body.split('\n'):
        l = l.strip()
        r = line.search(l)
        if not r:
            continue
        off, sz = r.group(1), int(r.group(2))
        a = re.match(r'/\* struct (\w+) +<ancestor>; \*/', l)
        if a:
            if off == '?':
                print('printf("%s: base %s at ?\\n"); bad++;' % (cls, a.group(1)))
                continue
            print('if ((const char *)static_cast<const %s *>(&o) - b != %s) { printf("%s: base %s at %s, compiler %%td\\n", (const char *)static_cast<const %s *>(&o) - b); bad++; }'
                  % (a.group(1), off, cls, a.group(1), off, a.group(1)))
            ends.append((a.group(1), int(off), sz))
            continue
        f = re.match(r'.*?(\w+);', l)
        if not f or '_vptr' in l or off == '?':
            continue
        nm = f.group(1)
        print('if ((const char *)&o.%s - b != %s) { printf("%s.%s at %s, compiler %%td\\n", (const char *)&o.%s - b); bad++; }'
              % (nm, off, cls, nm, off, nm))
        for bn, bo, bs in ends:
            print('if ((const char *)&o.%s - b >= %d && (const char *)&o.%s - b < %d) { puts("%s: %s inside base %s drawn %d..%d"); bad++; }'
                  % (nm, bo, nm, bo + bs, cls, nm, bn, bo, bo + bs))
    print('}')
print('return bad != 0; }')
PY
		$cxx -std=c++11 -w -I"$ldir" -o "$out/check" "$out/check.cc" || fail "$cxx DWARF $dw: the check does not compile"
		"$out/check" || fail "$cxx DWARF $dw: hitmap's C++ layout differs from the compiler's"
		# every virtual base, direct or not, listed once in the complete object
		for pair in C:V1 C:V2 Deep:C Deep:V1 Deep:V2 Istrstream:Ios Iostream:Ios Diamond:VBase \
			    Left:VBase B:V2 OnNE:NE TwoNE:NE TwoNE:NE2 ViaV:NE ViaV:V1 UsesEV2:EmptyV; do
			ty=${pair%%:*} vb=${pair#*:}
			c=$(sed -n "/^struct $ty /,/^};/p" "$out/hm" | grep -c "/\* struct $vb  *<ancestor>; \*/")
			[ "$c" = 1 ] || fail "$cxx DWARF $dw: $ty lists its virtual base $vb $c times"
		done
		for ty in UsesNE UsesEmpty OnNE TwoNE DynNE UsesEV2 ViaV; do
			sed -n "/^struct $ty /,/^};/p" "$out/hm" | grep -q '<ancestor>; \*/ *\/\*     ? ' &&
				fail "$cxx DWARF $dw: $ty's virtual base is left unknown"
		done
		n=$((n + 1))
	done
done
echo "$n configurations: every base and member where the compiler puts it"
