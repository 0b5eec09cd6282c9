#!/bin/sh
# C++ classes with g++ and clang++ at DWARF 4 and 5: sizes, offsets and
# alignments equal the compiler's (fixture-cxx-oracle.cc; offsetof on classes
# with bases is conditionally supported and both compilers give the layout
# offset), and the members C++ adds are marked: base subobjects, virtual
# bases, the vtable pointer, static members (which take no space).
. "$top_srcdir/tests/lib.sh"
DUMP="$top_builddir/tests/types/typedump"
SRC="$TESTS_SRC/types"
NAMES=Derived,Poly,Diamond,Statics,Refs,Aligned,WithEmpty
ran=0

for cxx in g++ clang++; do
	command -v $cxx >/dev/null 2>&1 || continue
	ran=1
	for dw in 4 5; do
		fx="$T/cxx-$cxx-$dw"
		build_fixture "$SRC/fixture-cxx.cc" "$fx" $cxx $dw -O0
		echo "+ $cxx -g -gdwarf-$dw -Wno-invalid-offsetof -I$SRC -o $fx.oracle fixture-cxx-oracle.cc" >&2
		$cxx -g -gdwarf-$dw -O0 -Wno-invalid-offsetof -I"$SRC" -o "$fx.oracle" \
			"$SRC/fixture-cxx-oracle.cc" || fail "cannot build the oracle"
		"$fx.oracle" >"$fx.want"
		# the vtable pointer is not a C++ member: the oracle cannot name it
		"$DUMP" -o -C $NAMES "$fx" | grep -v '_vptr' | sed 's/ -> [a-z]*$//' >"$fx.got"
		assert_files_eq "$fx.want" "$fx.got" "$cxx -gdwarf-$dw: layout differs from the compiler's"

		"$DUMP" -C Derived,Poly,Left,Statics "$fx" >"$fx.flags"
		# struct Derived : Base — the base subobject first, at 0
		grep -q '^  (anon) off 0 inherit size 8 | struct Base$' "$fx.flags" ||
			fail "$cxx-$dw: base class member"
		# class Poly has a virtual destructor: gcc names the pointer
		# _vptr.Poly, clang _vptr$Poly
		grep -Eq '^  _vptr[.$]Poly off 0 artificial ' "$fx.flags" ||
			fail "$cxx-$dw: vtable pointer"
		# struct Left : virtual Base — offset known only at run time
		grep -q '^  (anon) off 0 inherit virtual size 8 | struct Base$' "$fx.flags" ||
			fail "$cxx-$dw: virtual base"
		grep -q '^  counter off 0 static ' "$fx.flags" || fail "$cxx-$dw: static member"
		# DW_AT_accessibility where the source changes it from the class
		# default (private)
		"$DUMP" -C Access "$fx" >"$fx.access"
		grep -q '^  prot off 4 protected size 4 ' "$fx.access" || fail "$cxx-$dw: protected"
		grep -q '^  pub off 8 public size 4 ' "$fx.access" || fail "$cxx-$dw: public"
		grep -q '^  limit off 0 static ' "$fx.flags" || fail "$cxx-$dw: static const member"
		# classes in namespaces and nested in classes are found by their
		# own name, as pahole -C finds them (values: the x86-64/LP64 ABI for
		# int a, long b; short s; Holder = Nested padded to 8 + Deep)
		"$DUMP" -o -C Deep,Nested,Holder "$fx" >"$fx.nest"
		printf '%s\n' "struct Deep size 16 align 8" "Deep.a off 0 size 4 align 4" \
			"Deep.b off 8 size 8 align 8" "struct Nested size 2 align 2" \
			"Nested.s off 0 size 2 align 2" "struct Holder size 24 align 8" \
			"Holder.n off 0 size 2 align 2" "Holder.d off 8 size 16 align 8" >"$fx.nest.want"
		assert_files_eq "$fx.nest.want" "$fx.nest" "$cxx-$dw: namespaces and nested classes"
		# C spelling of C++ declarators
		"$DUMP" -C Refs "$fx" | awk -F' [|] ' 'NR > 1 {print $2}' >"$fx.decl"
		printf '%s\n' 'int &ref' 'int &&rref' 'int Base::*pm' 'void (Base::*pmf)()' \
			'const char * const name' >"$fx.decl.want"
		assert_files_eq "$fx.decl.want" "$fx.decl" "$cxx-$dw: C++ declarators"
	done
done
[ $ran = 1 ] || skip "no C++ compiler (Debian package g++ or clang)"
exit 0
