#!/bin/sh
# -j N, the parallel DWARF walk (dwarf-par.c): the table is the serial
# walk's whatever the number of threads.  The oracle is -j1, the serial walk
# itself (no worker, no replay): for binaries of many units — every fixture
# built with gcc and clang, DWARF 4 and 5, as one relocatable file, one shared
# library and one executable; C++ with namespaces and nested classes; split
# DWARF, whose skeletons the replay leaves to the serial walk; a unit of
# corrupt DWARF in the middle — -j2, -j3 and -j4 print byte-identical
#  - layout of every struct, --list, --json, -C of several names (found in
#    different units, and not found: the same suggestions), -E;
#  - typedump -A -V: every table entry by id with its members, and every
#    global variable — ids follow the walk's order, so this is the order too;
#  - the same messages and exit status for the corrupt file.
. "$top_srcdir/tests/lib.sh"
require ld binutils
require objcopy binutils
DUMP="$top_builddir/tests/types/typedump"
L="$TESTS_SRC/layout"
export HITMAP_NO_CACHE=1

# the fixtures of tests/layout and tests/types, several defining `main`
SRCS="$L/fx-align.c $L/fx-basic.c $L/fx-bits.c $L/fx-faults.c $L/fx-nest.c $L/fx-heat.c
$TESTS_SRC/types/fixture.c $TESTS_SRC/fixtures/groups.c $TESTS_SRC/fixtures/mm_v1.c"

# compare FILE WHAT [names for -C]: every output at -j1 and at -j2..4
compare() {
	f=$1; what=$2; shift 2
	names=$(cat "$T/names")
	for j in 1 2 3 4; do
		o="$T/out.$j"
		{
			"$HITMAP" layout -j$j "$f" 2>&1; echo "exit $?"
			"$HITMAP" layout -j$j --list "$f" 2>&1; echo "exit $?"
			"$HITMAP" layout -j$j --json "$f" 2>&1; echo "exit $?"
			"$HITMAP" layout -j$j -E -C "$names" "$f" 2>&1; echo "exit $?"
			"$HITMAP" layout -j$j -C "$names,no_such_struct_xyz" "$f" 2>&1; echo "exit $?"
			"$HITMAP" layout -j$j --json -C "$names" "$f" 2>&1; echo "exit $?"
			"$DUMP" -j $j -A -V "$f" 2>&1; echo "exit $?"
			TYPEDUMP_DEBUG=1 "$DUMP" -j $j -l "$f" 2>&1; echo "exit $?"
		} >"$o"
		[ $j = 1 ] || assert_files_eq "$T/out.1" "$o" "$what: -j$j differs from -j1"
	done
	grep -q '^exit 0$' "$T/out.1" || fail "$what: nothing loaded"
}

# a few struct names spread over the units, from the serial walk's list
pick_names() {
	"$HITMAP" layout -j1 --list "$1" | awk '{ print $1 }' |
		awk 'NR % 7 == 1' | head -6 | paste -sd, - >"$T/names"
	[ -s "$T/names" ] || fail "no structs in $1"
}

for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || skip "$cc not installed"
	for dw in 4 5; do
		d="$T/$cc-$dw"
		mkdir -p "$d"
		n=0
		for s in $SRCS; do
			n=$((n + 1))
			echo "+ $cc -g -gdwarf-$dw -O0 -fPIC -Dmain=main_$n -c $s" >&2
			$cc -g -gdwarf-$dw -O0 -fPIC -Dmain=main_$n -c -o "$d/u$n.o" "$s" ||
				fail "cannot build $s with $cc"
			# several fixtures define the same globals: each unit keeps
			# its own (its DWARF is untouched)
			objcopy -w -L '*' "$d/u$n.o" || fail "objcopy"
		done
		ld -r -o "$d/all.o" "$d"/u*.o || fail "ld -r"
		$cc -shared -o "$d/all.so" "$d"/u*.o || fail "$cc -shared"
		$cc -o "$d/all" "$d"/u*.o "$L/fx-main.c" || fail "$cc: link"
		for f in "$d/all.o" "$d/all.so" "$d/all"; do
			pick_names "$f"
			compare "$f" "$cc DWARF $dw $(basename "$f")"
		done
	done
done

# C++: namespaces, classes nested in classes (C++ units take the serial walk
# in their turn, between units read by workers), two link orders
for cxx in g++ clang++; do
	command -v $cxx >/dev/null 2>&1 || continue
	d="$T/$cxx"
	mkdir -p "$d"
	$cxx -g -O0 -fPIC -c -o "$d/a.o" "$L/fx-cxx.cc" || fail "$cxx fx-cxx.cc"
	$cxx -g -O0 -fPIC -Dmain=main_2 -c -o "$d/b.o" "$TESTS_SRC/types/fixture-cxx.cc" ||
		fail "$cxx fixture-cxx.cc"
	$cxx -shared -o "$d/ab.so" "$d/a.o" "$d/b.o" || fail "$cxx -shared"
	$cxx -shared -o "$d/ba.so" "$d/b.o" "$d/a.o" || fail "$cxx -shared"
	for f in "$d/ab.so" "$d/ba.so"; do
		pick_names "$f"
		compare "$f" "$cxx $(basename "$f")"
	done
done

# split DWARF: skeleton units, read through their .dwo files
d="$T/split"
mkdir -p "$d"
(cd "$d" && gcc -g -gsplit-dwarf -O0 -c "$L/fx-basic.c" "$L/fx-bits.c" "$L/fx-nest.c" &&
	gcc -g -O0 -c "$L/fx-align.c" && gcc -o split fx-basic.o fx-bits.o fx-nest.o fx-align.o \
	"$L/fx-main.c") || fail "split DWARF build"
pick_names "$d/split"
compare "$d/split" "split DWARF"

# corrupt DWARF in a middle unit: the same message, exit status and nothing
# else, for any number of threads (the serial walk of that unit says it)
cp "$T/gcc-5/all.o" "$T/bad.o"
python3 - "$T/bad.o" <<'X' || fail "cannot corrupt"
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
# the ELF section headers: find .debug_info
shoff, = struct.unpack_from('<Q', b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
def sh(i):
    return struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shentsize)
stroff = sh(shstrndx)[4]
for i in range(shnum):
    h = sh(i)
    name = bytes(b[stroff + h[0]:b.index(0, stroff + h[0])])
    if name == b'.debug_info':
        off, size = h[4], h[5]
        break
# the fourth unit's first child gets an abbreviation code that does not exist
pos = 0
for _ in range(3):
    length, = struct.unpack_from('<I', b, off + pos)
    pos += 4 + length
# DWARF 5 header: length 4, version 2, unit type 1, address size 1, abbrev 4;
# the unit DIE's code, then its attributes: put junk a little way in
for k in range(40, 48):
    b[off + pos + k] = 0xff
open(p, 'wb').write(b)
X
for j in 1 2 4; do
	"$HITMAP" layout -j$j --list "$T/bad.o" >"$T/bad.$j" 2>&1
	echo "exit $?" >>"$T/bad.$j"
	[ $j = 1 ] || assert_files_eq "$T/bad.1" "$T/bad.$j" "corrupt unit: -j$j differs from -j1"
done
echo "corrupt unit (-j1 and -jN alike):" >&2
cat "$T/bad.1" | tail -3 >&2

# -j's range
assert_exit 2 "-j0" "$HITMAP" layout -j0 --list "$T/gcc-5/all"
grep -q "expects a number from 1 to 256" "$T/err" || fail "-j0: message"
exit 0
