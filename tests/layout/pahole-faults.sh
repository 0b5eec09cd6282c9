#!/bin/sh
# Every entry of pahole-exceptions.txt (and pahole's missing union summaries):
# show pahole's line and hitmap's line, and prove with the compiler that
# hitmap's text is the C truth and pahole's is not.
#
# C types: bodycheck.py turns a printed body back into a C declaration and
# static-asserts that it has the fixture type's size, alignment, member
# offsets and member types; hitmap's body must pass, pahole's must fail.
# C++ types: a check program asserts the numbers and declarators hitmap
# prints (sizeof, offsetof, pointer-to-member sizes, declarator spelling).
. "$top_srcdir/tests/lib.sh"
require pahole dwarves
require g++ g++
ldir=$TESTS_SRC/layout
echo "+ ${CC:-gcc} -g -gdwarf-5 -o $T/faults fx-main.c fx-faults.c" >&2
${CC:-gcc} -g -gdwarf-5 -o "$T/faults" "$ldir/fx-main.c" "$ldir/fx-faults.c" || fail "cannot link"
pahole -F dwarf -M --suppress_force_paddings "$T/faults" >"$T/pa" 2>/dev/null
"$HITMAP" layout "$T/faults" >"$T/hm" || fail "hitmap layout failed"

show() {	# first line where pahole and hitmap differ for type $1
	python3 - "$T/pa" "$T/hm" "$1" <<'PY'
import sys
def body(p, n):
    out, on = [], False
    for l in open(p, errors='replace'):
        l = l.rstrip('\n')
        if l.lstrip('\t').startswith('/* hitmap: '):
            continue
        if l.startswith(('struct %s {' % n, 'union %s {' % n, 'struct %s : ' % n)):
            on = True
        if on:
            out.append(l)
            if l.startswith('}') and l.endswith(';'):
                break
    return out
a, b = body(sys.argv[1], sys.argv[3]), body(sys.argv[2], sys.argv[3])
for x, y in zip(a + [''] * len(b), b + [''] * len(a)):
    if x != y:
        print('  pahole: %s\n  hitmap: %s' % (x.strip(), y.strip()))
        break
PY
}

n=0
for ty in quals_bad atomics declarators fnptrs packed_aligned packed_member; do
	grep -q "^$ty	" "$ldir/pahole-exceptions.txt" || fail "$ty missing from pahole-exceptions.txt"
	echo "$ty: $(grep "^$ty	" "$ldir/pahole-exceptions.txt" | cut -f2)"
	show "$ty"
	python3 "$ldir/bodycheck.py" "${CC:-gcc}" "$ldir/fx-faults.c" "$T/hm" "$ty" "$T/hm-$ty.c" ||
		fail "$ty: hitmap's body is not the C truth"
	if python3 "$ldir/bodycheck.py" "${CC:-gcc}" "$ldir/fx-faults.c" "$T/pa" "$ty" "$T/pa-$ty.c" \
		>/dev/null 2>&1; then
		fail "$ty: pahole's body passes the compiler check: no longer a pahole fault?"
	fi
	n=$((n + 1))
done

# -C with a name the file lacks: pahole exits 0 (silently nothing), hitmap 2.
pahole -F dwarf -C no_such_struct "$T/faults" >/dev/null 2>&1
assert_eq 0 "$?" "pahole -C no_such_struct exit status (fault fixed?)"
assert_exit 2 "hitmap layout -C no_such_struct" "$HITMAP" layout -C no_such_struct "$T/faults"
echo "-C no_such_struct: pahole exits 0, hitmap exits 2: $(cat "$T/err")"
n=$((n + 1))

# A typedef of an _Atomic type: pahole prints `typedef void NAME;`.
pahole -F dwarf -M --suppress_force_paddings -C atomic_long_c "$T/faults" >"$T/td.pa" 2>/dev/null
"$HITMAP" layout -C atomic_long_c "$T/faults" >"$T/td.hm" || fail "hitmap -C atomic_long_c"
echo "atomic_long_c: pahole: $(cat "$T/td.pa")  hitmap: $(cat "$T/td.hm")"
grep -q '^typedef void atomic_long_c;$' "$T/td.pa" || fail "pahole's atomic typedef changed"
printf '#include "%s"\n%s\n_Static_assert(__builtin_types_compatible_p(atomic_long_c, atomic_long_c__chk), "same");\n' \
	"$ldir/fx-faults.c" "$(sed 's/atomic_long_c;/atomic_long_c__chk;/' "$T/td.hm")" >"$T/td.c"
${CC:-gcc} -fsyntax-only "$T/td.c" || fail "hitmap's atomic typedef is not the C truth"
n=$((n + 1))

# Unions: pahole prints no summary; hitmap's numbers must be sizeof's.
size=$(sed -n '/^union plain_union {/,/^};/s/.*size: \([0-9]*\), cachelines: \([0-9]*\).*/\1 \2/p' "$T/hm")
pad=$(sed -n '/^union plain_union {/,/^};/s/.*padding: \([0-9]*\) .*/\1/p' "$T/hm")
sed -n '/^union plain_union {/,/^};/p' "$T/pa" | grep -q 'size:' &&
	fail "pahole now prints a union summary"
echo "plain_union: pahole prints no summary; hitmap: size/cachelines $size, padding $pad"
cat >"$T/u.c" <<EOC
#include "$ldir/fx-faults.c"
_Static_assert(sizeof(union plain_union) == ${size% *}, "union size");
_Static_assert((sizeof(union plain_union) + 63) / 64 == ${size#* }, "union cachelines");
_Static_assert(sizeof(union plain_union) - sizeof(((union plain_union *)0)->c) == $pad, "union padding");
EOC
${CC:-gcc} -fsyntax-only "$T/u.c" || fail "hitmap's union summary is wrong"
n=$((n + 1))

# C++: the numbers and declarators hitmap prints, asserted by the compiler.
g++ -g -gdwarf-5 -o "$T/cxx" "$ldir/fx-cxx.cc" || fail "cannot build fx-cxx.cc"
pahole -F dwarf -M --suppress_force_paddings "$T/cxx" >"$T/pa" 2>/dev/null
"$HITMAP" layout "$T/cxx" >"$T/hm" || fail "hitmap layout (C++) failed"
field() {	# field TYPE MEMBER-REGEX COLUMN(1=offset,2=size) from hitmap's output
	sed -n "/^[a-z]* $1[ {]/,/^};/p" "$T/hm" | grep -E "$2" | head -1 |
		sed 's/.*\/\* *\([0-9?]*\) *\([0-9]*\) \*\/$/\1 \2/' | cut -d' ' -f"$3"
}
summary() {	# summary TYPE KEY from hitmap's output
	sed -n "/^[a-z]* $1[ {]/,/^};/p" "$T/hm" | grep -o "$2: [0-9]*" | head -1 | cut -d' ' -f2
}
for ty in Empty HasEmpty Members Derived Diamond Left Right Base; do
	grep -q "^$ty	" "$ldir/pahole-exceptions.txt" || fail "$ty missing from pahole-exceptions.txt"
	echo "$ty: $(grep "^$ty	" "$ldir/pahole-exceptions.txt" | cut -f2)"
	show "$ty"
done
cat >"$T/c.cc" <<EOC
#include <cstddef>
#include <type_traits>
#include "$ldir/fx-cxx.cc"
static_assert(sizeof(Empty) == $(summary Empty size), "Empty size");
static_assert((sizeof(Empty) + 63) / 64 == $(summary Empty cachelines), "Empty cachelines");
static_assert(sizeof(HasEmpty::e) == $(field HasEmpty ' e;' 2), "HasEmpty::e size");
static_assert(sizeof(Members::pm) == $(field Members ' pm;' 2), "pointer to data member size");
static_assert(sizeof(Members::pmf) == $(field Members 'pmf' 2), "pointer to member function size");
static_assert(std::is_same<decltype(Members::pmf), void (Plain::*)()>::value, "pmf declarator");
static_assert(std::is_same<decltype(Members::rref), int &&>::value, "rref type");
static_assert($(sed -n '/^struct Derived /,/^};/p' "$T/hm" | sed -n 's/.*\/\* *[0-9]* *\([0-9]*\) \*\/$/\1/p' | paste -sd+) + $(summary Derived padding) == sizeof(Derived),
	      "Derived: its members (bases included) + padding = size");
static_assert(offsetof(Diamond, dd) == $(field Diamond ' dd;' 1), "Diamond::dd offset");
static_assert(offsetof(Diamond, dd) < 32, "no 65532-byte hole before dd");
static_assert(sizeof(Left) == $(summary Left size) && sizeof(Right) == $(summary Right size),
	      "a 16-byte object has no base at 4294967295");
static_assert(alignof(VBase) == alignof(int), "VBase is not packed");
int (**vptr_as_hitmap_prints)();
EOC
g++ -std=c++11 -Wno-invalid-offsetof -fsyntax-only "$T/c.cc" || fail "hitmap's C++ numbers are wrong"
grep -q 'BRAIN FART' "$T/hm" && fail "hitmap's sums disagree with the size"
grep -q 'BRAIN FART' "$T/pa" || fail "pahole's BRAIN FART is gone: fault fixed?"
for ty in Left Right Base; do
	grep -q "(\*\*_vptr\.$ty)()" "$T/hm" || fail "$ty: vtable pointer declarator"
done
echo 'int ()(void) * * vptr_as_pahole_prints;' >"$T/p.cc"
g++ -fsyntax-only "$T/p.cc" 2>/dev/null && fail "pahole's vtable pointer spelling compiles"
n=$((n + 8))
echo "$n pahole faults proven"
