#!/bin/sh
# hitmap layout's errors: exact messages and exit statuses (docs/design.md: 2 usage
# or unknown struct, 3 unreadable or malformed input).
. "$top_srcdir/tests/lib.sh"
fix=$TESTS_SRC/fixtures
build_fixture "$fix/mm_v1.c" "$T/mm" "${CC:-gcc}" 5 -O0
echo "+ ${CC:-gcc} -O2 -o $T/stripped $fix/mm_v1.c (no -g)" >&2
${CC:-gcc} -O2 -o "$T/stripped" "$fix/mm_v1.c" || fail "cannot build"
printf 'not an ELF file\n' >"$T/text"

expect() {	# expect STATUS STDERR-LINE ARGS...
	want=$1; line=$2; shift 2
	assert_exit "$want" "hitmap layout $*" "$HITMAP" layout "$@"
	assert_eq "$line" "$(head -1 "$T/err")" "stderr of hitmap layout $*"
	[ -s "$T/out" ] && fail "hitmap layout $*: output on stdout despite the error"
	return 0
}
# a stripped file: every place its debug info could be is named
assert_exit 3 "hitmap layout $T/stripped" "$HITMAP" layout "$T/stripped"
case $(cat "$T/err") in
"error: $T/stripped: no DWARF debug info; tried /usr/lib/debug/.build-id/"*"debuginfod (DEBUGINFOD_URLS unset)") ;;
*) fail "stripped file: $(cat "$T/err")" ;;
esac
expect 3 "error: $T/nonexistent: no such file" "$T/nonexistent"
expect 3 "error: $T/text: not an ELF file" "$T/text"
# unknown names: up to three closest, exit 2, nothing printed for the good name
expect 2 "error: $T/mm: no struct, union or class named 'mm_strct' (did you mean 'mm_struct'?)" \
	-C mm_struct,mm_strct "$T/mm"
expect 2 "error: $T/mm: no struct, union or class named 'rb_nod' (did you mean 'rb_node', 'rb_root'?)" \
	-C rb_nod "$T/mm"
expect 2 "error: option '-c' expects a power of two from 8 to 65536, not '48'" -c 48 "$T/mm"
expect 2 "error: one FILE expected, got 2" "$T/mm" "$T/mm"
expect 2 "error: unknown option '--bogus'" --bogus "$T/mm"
expect 2 "error: option '-C' needs a value" -C '' "$T/mm"
# a typedef name works as with pahole, but --list/--json need a struct behind it
expect 2 "error: $T/mm: typedef 'u64' does not name a struct, union or class" --list -C u64 "$T/mm"
"$HITMAP" layout --list -C atomic_t "$T/mm" >"$T/out" || fail "--list -C atomic_t"
assert_eq "atomic_t	4	0	1" "$(cat "$T/out")" "--list of a typedef'd anonymous struct (mm_common.h)"
# --help documents every option (a negatable one as --[no-]NAME)
"$HITMAP" layout --help >"$T/help" || fail "--help"
for o in -C --cacheline-size -E --expand --list --json; do
	grep -q -- "$o\|--\[no-\]${o#--}" "$T/help" || fail "--help does not document $o"
done
# -c overrides the ELF machine's line size: 128-byte lines, mm_struct is 296 bytes
"$HITMAP" layout -c 128 -C mm_struct "$T/mm" >"$T/out" || fail "-c 128"
grep -q 'size: 296, cachelines: 3,' "$T/out" || fail "-c 128: cachelines of a 296-byte struct"
grep -q 'cacheline 1 boundary (128 bytes)' "$T/out" || fail "-c 128: boundary"
