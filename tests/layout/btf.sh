#!/bin/sh
# hitmap layout --btf, from the command line, against pahole -F btf (the
# loader itself is tested member by member in tests/btf/):
#  - on tests/btf/fx-btf.c encoded by pahole -J: --list gives pahole -F btf
#    --sizes (name, size, holes) and each body is pahole -F btf's, except
#      un             a union: hitmap prints the summary pahole leaves out
#                     (hitmap-layout(1), DIFFERENCES FROM PAHOLE);
#      packed_aligned, all
#                     alignment attributes, which BTF does not record: both
#                     tools infer them from holes and padding, differently
#                     (hitmap-layout(1), --btf);
#  - a file whose DWARF was stripped but .BTF kept is read through BTF
#    without --btf; a file with neither is exit 3;
#  - the .BTF section as a raw file (what /sys/kernel/btf/vmlinux is) gives
#    the same list; its JSON has no arch and no build-id;
#  - the running kernel's /sys/kernel/btf/vmlinux, when readable: --list is
#    pahole -F btf --sizes, in the same order.
. "$top_srcdir/tests/lib.sh"
require pahole dwarves
require objcopy binutils
fx="$T/fx"
build_fixture "$TESTS_SRC/btf/fx-btf.c" "$fx" gcc 5 -O0
echo "+ pahole -J $fx" >&2
pahole -J "$fx" || fail "pahole -J"

# list FILE [OPTS]: hitmap's --list as pahole --sizes prints it.
list() { f=$1; shift; "$HITMAP" layout --list "$@" "$f" | cut -f1-3; }

pahole -F btf --sizes "$fx" >"$T/want" 2>/dev/null || fail "pahole -F btf --sizes"
[ "$(wc -l <"$T/want")" -gt 5 ] || fail "pahole listed too little"
list "$fx" --btf >"$T/got" || fail "layout --btf --list"
assert_files_eq "$T/want" "$T/got" "--btf --list vs pahole -F btf --sizes"
for s in $(cut -f1 "$T/want"); do
	case $s in un | packed_aligned | all) continue ;; esac
	"$HITMAP" layout --btf -C "$s" "$fx" | grep -v '/\* hitmap: ' >"$T/h" ||
		fail "layout --btf -C $s"
	pahole -F btf -M --suppress_force_paddings -C "$s" "$fx" >"$T/p" 2>/dev/null ||
		fail "pahole -F btf -C $s"
	assert_files_eq "$T/p" "$T/h" "--btf -C $s vs pahole -F btf"
done

# No DWARF, .BTF kept: BTF without asking.  Neither: exit 3.
objcopy --strip-debug "$fx" "$T/nodwarf" || fail "objcopy --strip-debug"
"$HITMAP" layout -C bits,list "$T/nodwarf" >"$T/auto" || fail "layout of a file without DWARF"
"$HITMAP" layout --btf -C bits,list "$fx" >"$T/asked" || fail "layout --btf -C bits,list"
assert_files_eq "$T/asked" "$T/auto" "BTF used when DWARF is gone"
objcopy --remove-section .BTF "$T/nodwarf" "$T/nothing" || fail "objcopy --remove-section"
assert_exit 3 "neither DWARF nor BTF" "$HITMAP" layout -C bits "$T/nothing"

# Raw BTF.
objcopy --dump-section .BTF="$T/raw.btf" "$fx" "$T/junk" || fail "objcopy --dump-section"
list "$T/raw.btf" >"$T/raw" || fail "layout --list raw.btf"
assert_files_eq "$T/want" "$T/raw" "raw BTF --list"
"$HITMAP" layout --json -C bits "$T/raw.btf" >"$T/raw.json" || fail "--json raw.btf"
assert_eq "None None 64 bits" "$(python3 -c "import json,sys
d = json.load(open(sys.argv[1]))
print(d['binary']['arch'], d['binary']['build_id'], d['binary']['cacheline_size'], d['structs'][0]['name'])" "$T/raw.json")" \
	"raw BTF JSON binary"

# The running kernel's BTF.
k=/sys/kernel/btf/vmlinux
if [ -r "$k" ]; then
	pahole -F btf --sizes "$k" >"$T/kwant" 2>/dev/null || fail "pahole -F btf --sizes $k"
	list "$k" >"$T/kgot" || fail "layout --list $k"
	assert_files_eq "$T/kwant" "$T/kgot" "$k: --list vs pahole -F btf --sizes"
else
	echo "$k not readable: running-kernel part not run" >&2
fi
exit 0
