#!/bin/sh
# The installed library works from outside the tree: `make install
# DESTDIR=...` puts every public header under include/hitmap/, libhitmap.so
# and hitmap.pc under lib/; a program built with nothing but `pkg-config
# --cflags --libs hitmap` prints a struct exactly as pahole does; the installed
# library exports only what the installed headers declare (check-abi).
. "$top_srcdir/tests/lib.sh"
require pkg-config pkg-config
require pahole dwarves
require gcc gcc
dest=$T/root
${MAKE:-make} -C "$top_builddir" install DESTDIR="$dest" >"$T/install.log" 2>&1 ||
	{ tail -20 "$T/install.log" >&2; fail "make install DESTDIR failed"; }
pc=$(find "$dest" -name hitmap.pc -path '*/pkgconfig/*')
[ -n "$pc" ] || fail "hitmap.pc not installed"
pcdir=${pc%/*}
libdir=${pcdir%/pkgconfig}
so=$libdir/libhitmap.so
[ -e "$so" ] || fail "libhitmap.so not installed in ${libdir#"$dest"}"

# Every public header, under include/hitmap/ beside the .pc file's includedir.
incdir=$dest$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=includedir hitmap)
for h in "$top_srcdir"/include/hitmap/*.h; do
	cmp -s "$h" "$incdir/hitmap/${h##*/}" || fail "${h##*/} not installed in ${incdir#"$dest"}/hitmap"
done

flags=$(PKG_CONFIG_PATH=$pcdir PKG_CONFIG_SYSROOT_DIR=$dest pkg-config --cflags --libs hitmap) ||
	fail "pkg-config --cflags --libs hitmap"
# A sanitizer build's library needs its runtime in the program too.
san=${HM_SAN_CFLAGS:-}
echo "+ gcc $san outside.c $flags" >&2
# shellcheck disable=SC2086
gcc -Wall -Wextra -Werror $san -o "$T/outside" "$TESTS_SRC/house/outside.c" $flags ||
	fail "outside program does not build with pkg-config's flags"

cat >"$T/fx.c" <<'C'
struct holey { char c; long l; short s; };
struct spread {
	int flag;
	char name[50];
	long counters[8];
	short tail;
	struct holey h;
	void *p[4];
};
struct spread s;
struct holey h;
int main(void) { return 0; }
C
build_fixture "$T/fx.c" "$T/fx" gcc 5 -O0
for name in holey spread; do
	pahole -F dwarf -M --suppress_force_paddings -C "$name" "$T/fx" >"$T/$name.pa" ||
		fail "pahole -C $name"
	LD_LIBRARY_PATH=$libdir "$T/outside" "$T/fx" "$name" >"$T/$name.hm" ||
		fail "outside program failed on $name"
	grep -v '/\* hitmap: ' "$T/$name.hm" >"$T/$name.out"
	assert_files_eq "$T/$name.pa" "$T/$name.out" "outside program: struct $name differs from pahole"
done
# hitmap's own lines (pahole 1.26's member-type holes) come through the API
grep -qF '/* hitmap: member types with holes: 1, total: 1 */' "$T/spread.hm" ||
	fail "outside program: struct spread lacks the member-type holes line"
# It ran against the installed copy, not the build tree's.
LD_LIBRARY_PATH=$libdir ldd "$T/outside" | grep -qF "=> $libdir/libhitmap.so" ||
	{ LD_LIBRARY_PATH=$libdir ldd "$T/outside" >&2; fail "outside program not linked to $so"; }

sh "$TESTS_SRC/house/abi.sh" --headers "$incdir" "$so" || fail "installed library: check-abi"
# libdebuginfod, and libcurl with the libraries under it, is opened when a
# search first asks a server (tests/elf/debuginfo.sh), never linked: no
# hitmap process maps them at start.
cmd=$(find "$dest" -path '*/bin/hitmap')
[ -n "$cmd" ] || fail "hitmap not installed"
for f in "$so" "$cmd"; do
	if readelf -d "$f" | grep -E 'NEEDED.*(libdebuginfod|libcurl|libcapstone|libpfm)' >&2; then
		fail "${f#"$dest"} links libdebuginfod, libcurl, capstone or libpfm4"
	fi
done
# (they are opened on first use: src/lib/elf/capstone-lib.h)
if LD_LIBRARY_PATH=$libdir ldd "$cmd" | grep -E 'libdebuginfod|libcurl|libcapstone|libpfm' >&2; then
	fail "the installed hitmap loads libdebuginfod, libcurl, capstone or libpfm4 at start"
fi
echo "installed library, headers and hitmap.pc work from outside the tree"
