#!/bin/sh
# Messages and limits (issue 30, item 9).
#  - a .gnu_debuglink that exists but is refused is named with the reason,
#    never reported as "no .gnu_debuglink";
#  - a file with BTF's magic too short to be BTF says so, not only "not an
#    ELF file";
#  - the type cache keeps under HITMAP_CACHE_MAX_MB, the least recently
#    used entries evicted, the one just written kept.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/robust/lib-robust.sh"
require python3
require objcopy binutils
cd "$T" || exit 1
cat >a.c <<'C'
struct s { int a; long b; } g;
#ifdef N
int n_build = N;	/* a build-id of its own per N */
#endif
int main(void) { return g.a; }
C
"$CC" -g -O1 -Wl,--build-id=none -o full a.c || fail "cc"
objcopy --strip-debug full stripped || fail "objcopy --strip-debug"
cp full ab.debug
objcopy --add-gnu-debuglink=ab.debug stripped linked || fail "objcopy --add-gnu-debuglink"
# the name "ab.debug" becomes "a/.debug": a path, which the lookup refuses
python3 - linked <<'PY' || fail "cannot patch the debuglink"
import sys
b = open(sys.argv[1], "rb").read()
assert b.count(b"ab.debug\0") == 1
open(sys.argv[1], "wb").write(b.replace(b"ab.debug\0", b"a/.debug\0"))
PY
expect_err3 "^error: linked: no DWARF debug info; tried its .gnu_debuglink \(refused: its name holds a '/' \(a file name, not a path, is looked for\)\)" \
	layout linked
grep -q "no .gnu_debuglink" err && fail "a refused debuglink reported as none"
# without any debuglink the old hint stays
expect_err3 "^error: stripped: no DWARF debug info \(no build-id, no .gnu_debuglink: built without -g\?\)$" \
	layout stripped

# a short file with BTF's magic
printf '\237\353\001\000\030\000\000\000\000\000' >short.btf
expect_err3 "^error: short.btf: BTF magic at offset 0x0, but 10 bytes are too short to be BTF \(its header is 24 bytes\)$" \
	layout short.btf

# the type cache's size limit: three builds, each loaded twice (the second
# load writes its entry); with a limit of 0 MiB only the newest is kept
export XDG_CACHE_HOME="$T/xdg"
unset HITMAP_NO_CACHE
for i in 1 2 3; do
	"$CC" -g -O1 -DN=$i -Wl,--build-id=sha1 -o b$i a.c || fail "cc b$i"
done
for i in 1 2 3; do
	run_hm layout b$i && run_hm layout b$i
	[ "$rc" = 0 ] || { cat err >&2; fail "layout b$i"; }
done
assert_eq 3 "$(ls "$XDG_CACHE_HOME"/hitmap/*.types | wc -l)" "entries under the default limit"
touch -d '2000-01-01' "$XDG_CACHE_HOME"/hitmap/*.types
"$CC" -g -O1 -DN=4 -Wl,--build-id=sha1 -o b4 a.c || fail "cc b4"
HITMAP_CACHE_MAX_MB=0 "$HM_RUN" layout b4 >/dev/null 2>&1
HITMAP_CACHE_MAX_MB=0 "$HM_RUN" layout b4 >/dev/null 2>&1 || fail "layout b4"
id4=$(readelf -n b4 | awk '/Build ID/ { print $3 }')
assert_eq "$id4.types" "$(cd "$XDG_CACHE_HOME"/hitmap && ls *.types)" "only the newest entry kept at 0 MiB"
exit 0
