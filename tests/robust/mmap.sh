#!/bin/sh
# Safety with untrusted perf.data (issue 8): the files named by MMAP records
# are opened only when they are regular files (a FIFO or a device must not
# block the report), read-only, and their names are printed with control
# bytes escaped.  A real recording of /bin/true has its MMAP name (and the
# build-id table's copy) rewritten in place to the hostile names.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/robust/lib-robust.sh"
require perf linux-perf
require python3 python3
cd "$T" || exit 1
D=$(pwd -P)
# Only absolute names are opened (others are [heap], //anon...): record a
# copy of true under a long absolute name, so that the hostile names, also
# absolute and in the scratch directory, fit in its place.
for p in /usr/bin/true /bin/true; do [ -x "$p" ] && break; done
[ -x "$p" ] || skip "no /usr/bin/true (Debian package coreutils)"
TRUE="$D/a-copy-of-true-with-a-long-name-that-leaves-room"
cp "$p" "$TRUE" || fail "cannot copy $p"
perf record -q -e page-faults -c 1 -d -o real.data -- "$TRUE" >/dev/null 2>&1 ||
	skip "perf cannot record page faults here (perf_event_paranoid?)"
run_hm report -i real.data
[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "the intact recording is rejected"; }
grep -q "$TRUE: no debug info" "$T/err" || { cat "$T/err" >&2; fail "$TRUE was not opened"; }

# rename NEW OUT: real.data with every NUL-terminated "$TRUE" replaced by NEW
# (at most as long, NUL padded so every record keeps its size).
rename() {
	python3 - "$TRUE" "$1" real.data "$2" <<'PY' || fail "cannot rewrite real.data"
import sys
old, new, src, dst = sys.argv[1].encode() + b"\0", sys.argv[2].encode("latin-1"), sys.argv[3], sys.argv[4]
assert len(new) < len(old)
data = open(src, "rb").read()
n = data.count(old)
assert n >= 1, "no MMAP name to rewrite"
open(dst, "wb").write(data.replace(old, new + b"\0" * (len(old) - len(new))))
PY
}

# 1. A FIFO nobody writes to: opening it for reading would block forever.
mkfifo fifo || fail "mkfifo"
rename "$D/fifo" fifo.data
run_hm report -i fifo.data
[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "MMAP of a FIFO: exit $rc"; }
grep -q "fifo" "$T/err" && fail "the FIFO was read as a binary"

# 2. A character device.
rename /dev/zero dev.data
run_hm report -i dev.data
[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "MMAP of /dev/zero: exit $rc"; }

# 3. A name with ESC and a newline, naming a real ELF file (a copy of
#    true): its "no debug info" note shows the name escaped, on one line.
name=$(printf '%s/a\033[7m\nb' "$D")
cp "$TRUE" "$name" || fail "cannot create the hostile file name"
rename "$name" ctl.data
run_hm report -i ctl.data
[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "control bytes in an MMAP name: exit $rc"; }
grep -q "^note: $D/a\\\\x1b\\[7m\\\\x0ab: no debug info" "$T/err" ||
	{ cat -v "$T/err" >&2; fail "the name is not printed escaped"; }
if LC_ALL=C grep -q "$(printf '\033')" "$T/err" "$T/out"; then
	fail "a raw ESC reached the terminal"
fi
exit 0
