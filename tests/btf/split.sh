#!/bin/sh
# Split BTF, the form of a kernel module's BTF (/sys/kernel/btf/MODULE): its
# type ids and string offsets continue those of a base BTF (the kernel's).
# tests/btf/fx-split.c is built twice; pahole encodes the plain build as the
# base and the -DSPLIT build on top of it, so mod_s refers to struct
# base_s and struct list in the base.  Loaded with its base, mod_s must be
# what the split build's DWARF says and what pahole -F btf prints; alone,
# the split blob must be refused with a hint.
. "$top_srcdir/tests/lib.sh"
require pahole dwarves
BTFCMP="$top_builddir/tests/btf/btfcmp"
src="$TESTS_SRC/btf/fx-split.c"

build_fixture "$src" "$T/base" gcc 5 -O0
build_fixture "$src" "$T/mod" gcc 5 -O0 -DSPLIT
pahole --btf_encode_detached="$T/base.btf" "$T/base" || fail "pahole: base BTF"
pahole --btf_base="$T/base.btf" --btf_encode_detached="$T/mod.btf" "$T/mod" ||
	fail "pahole: split BTF"

# mod.btf holds only what the base lacks: mod_s (and its pointer and array
# types), not base_s
"$BTFCMP" --raw --base "$T/base.btf" "$T/mod.btf" mod_s base_s >"$T/split.dump" ||
	fail "split BTF refused"
"$BTFCMP" "$T/mod" mod_s base_s >"$T/dwarf.dump" || fail "DWARF of the split build"
assert_files_eq "$T/dwarf.dump" "$T/split.dump" "split BTF vs DWARF"

pahole -F btf --btf_base="$T/base.btf" -C mod_s "$T/mod.btf" 2>/dev/null |
	awk '/^\t[^\t]/ && /\/\*[ 0-9:]+\*\/$/ {
		c = $0; sub(/.*\/\*/, "", c); sub(/\*\/$/, "", c)
		gsub(/: +/, ":", c); split(c, f, " "); print f[1], f[2] }' >"$T/want"
"$BTFCMP" --offsets --raw --base "$T/base.btf" "$T/mod.btf" mod_s | tail -n +2 >"$T/got"
[ -s "$T/want" ] || fail "pahole printed no members of mod_s"
assert_files_eq "$T/want" "$T/got" "split BTF offsets vs pahole -F btf"

# the split strings start where the base's end, not with a NUL
off=$(od -A n -t u4 -j 16 -N 4 "$T/mod.btf" | tr -d ' ')
assert_exit 3 "split alone" "$BTFCMP" --raw "$T/mod.btf"
assert_eq "btfcmp: $T/mod.btf: BTF: string section does not start with a NUL byte (split BTF? give its base with --btf-base) at offset $(printf '0x%x' $((24 + off)))" \
	"$(cat "$T/err")" "split alone message"

# every byte of the split blob set to 0x00, 0xff and flipped, on top of the
# intact base: loaded or refused with one message, never a crash
"$BTFCMP" --mutate --base "$T/base.btf" "$T/mod.btf" >"$T/mut.out" ||
	fail "a mutation of the split blob crashed or misreported"
assert_eq "mutations $((3 * $(wc -c <"$T/mod.btf")))" "$(cut -d' ' -f1,2 "$T/mut.out")" \
	"mutation count (3 per byte)"
# the command: --btf-base (a module's BTF on the kernel's) for layout and
# the judges; pahole prints the DWARF of the same build
"$HITMAP" layout -C mod_s "$T/mod" >"$T/mod.dwarf" || fail "layout of the split build's DWARF"
"$HITMAP" layout -C mod_s --btf-base "$T/base.btf" "$T/mod.btf" >"$T/mod.split" ||
	fail "layout --btf-base"
assert_files_eq "$T/mod.dwarf" "$T/mod.split" "layout of split BTF vs DWARF"
assert_exit 3 "split BTF without its base" "$HITMAP" layout -C mod_s "$T/mod.btf"
assert_eq "error: $T/mod.btf: BTF: string section does not start with a NUL byte (split BTF? give its base with --btf-base) at offset $(printf '0x%x' $((24 + off)))" \
	"$(cat "$T/err")" "split alone: one line naming --btf-base"
assert_exit 0 "lint --btf-base" "$HITMAP" lint -C mod_s --btf-base "$T/base.btf" "$T/mod.btf"
exit 0
