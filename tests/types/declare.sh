#!/bin/sh
# hm_types_declare spells member declarations as C does: for struct ptrs the
# fixture source itself is the oracle (its members are written in canonical
# spelling), whichever compiler and DWARF version produced the DWARF.  The
# split form (type | declarator) is what the layout printer aligns in columns.
. "$top_srcdir/tests/lib.sh"
DUMP="$top_builddir/tests/types/typedump"
SRC="$TESTS_SRC/types"

sed -n '/^struct ptrs {/,/^};/p' "$SRC/fixture.c" | sed '1d;$d' |
	sed 's/^\t//; s/;$//' >"$T/want"
# `struct list_head *next, *prev;` is two declarations: check list_head too
printf 'struct list_head *next\nstruct list_head *prev\n' >"$T/want.lh"
cat >"$T/want.split" <<'X'
int|*p
int|* const cp
const char|*name
void|(*fn)(int)
void|(*vec[4])(int)
char|(*arrp)[16]
struct plain|*sp
const volatile int|*cvp
int|**pp
char|* const *cpp
int|(*cmp)(const void *, const void *)
void|(*noproto)()
int|(*varf)(const char *, ...)
struct list_head|list
X
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	for dw in 4 5; do
		fx="$T/fx-$cc-$dw"
		build_fixture "$SRC/fixture.c" "$fx" $cc $dw -O0
		"$DUMP" -d -C ptrs "$fx" | tail -n +2 >"$fx.out" || fail "typedump failed"
		awk -F' [|] ' '{print $2}' "$fx.out" >"$fx.got"
		assert_files_eq "$T/want" "$fx.got" "$cc -gdwarf-$dw: declarations"
		awk -F' [|] ' '{print $3}' "$fx.out" >"$fx.split"
		assert_files_eq "$T/want.split" "$fx.split" "$cc -gdwarf-$dw: split declarations"
		"$DUMP" -C list_head "$fx" | tail -n +2 | awk -F' [|] ' '{print $2}' >"$fx.lh"
		assert_files_eq "$T/want.lh" "$fx.lh" "$cc -gdwarf-$dw: list_head"
		# _Atomic is DW_TAG_atomic_type in DWARF 5; DWARF 4 has no way to
		# say it and the compilers drop it
		atomic=$("$DUMP" -C atom "$fx" | awk -F' [|] ' 'NR == 2 {print $2}')
		if [ $dw = 5 ]; then
			assert_eq "_Atomic int counter" "$atomic" "$cc -gdwarf-5: _Atomic"
		else
			assert_eq "int counter" "$atomic" "$cc -gdwarf-4: _Atomic dropped"
		fi
	done
done
exit 0
