#!/bin/sh
# Debug info where distributions keep it: a stripped fixture whose DWARF sits
# in a build-id folder, behind .gnu_debuglink (beside it, in .debug/, under a
# debug dir; CRC checked), on a local debuginfod server; and libc from
# Debian's libc6-dbg.  Oracle: pahole on the unstripped file (the same DWARF).
. "$top_srcdir/tests/lib.sh"
require pahole dwarves
require objcopy binutils
fix=$TESTS_SRC/fixtures
exc=$TESTS_SRC/layout/pahole-exceptions.txt

build_fixture "$fix/mm_v1.c" "$T/prog" "${CC:-gcc}" 5 -O2
id=$(readelf -n "$T/prog" | sed -n 's/.*Build ID: *//p')
[ -n "$id" ] || fail "$T/prog: no build-id (the fixture build should have one)"
pahole -F dwarf -M --suppress_force_paddings -C mm_struct "$T/prog" >"$T/pahole" 2>/dev/null
[ -s "$T/pahole" ] || fail "pahole printed nothing for mm_struct"

# stripped copies: the DWARF goes to prog.debug
echo "+ objcopy --only-keep-debug $T/prog $T/prog.debug; strip -g" >&2
objcopy --only-keep-debug "$T/prog" "$T/prog.debug" || fail "objcopy --only-keep-debug"
objcopy --strip-debug "$T/prog" "$T/stripped" || fail "objcopy --strip-debug"

# same_as_pahole WHAT ARGS...: hitmap layout -C mm_struct ARGS equals pahole
same_as_pahole() {
	what=$1; shift
	"$HITMAP" layout -C mm_struct "$@" >"$T/hm" 2>"$T/hm.err" ||
		{ cat "$T/hm.err" >&2; fail "$what: hitmap layout failed"; }
	python3 "$TESTS_SRC/layout/compare.py" body "$T/pahole" "$T/hm" "$exc" "$what" >&2 ||
		fail "$what: body differs from pahole's"
}

# 1. by build-id in a private debug dir
mkdir -p "$T/dbg/.build-id/$(echo "$id" | cut -c1-2)"
cp "$T/prog.debug" "$T/dbg/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
same_as_pahole "build-id in --debug-dir" --debug-dir "$T/dbg" --offline "$T/stripped"
# -v says where the debug info came from
"$HITMAP" layout -v -C mm_struct --debug-dir "$T/dbg" --offline "$T/stripped" >/dev/null 2>"$T/v" ||
	fail "-v failed"
grep -qF "$T/stripped: debug info from $T/dbg/.build-id/" "$T/v" ||
	fail "-v does not say where the debug info came from: $(cat "$T/v")"
grep -qF "(build-id)" "$T/v" || fail "-v does not name the build-id lookup: $(cat "$T/v")"
# a file in the build-id place that is another build is not taken
build_fixture "$fix/mm_v2.c" "$T/other" "${CC:-gcc}" 5 -O2
mkdir -p "$T/bad/.build-id/$(echo "$id" | cut -c1-2)"
cp "$T/other" "$T/bad/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
assert_exit 3 "another build in the build-id place" \
	"$HITMAP" layout -C mm_struct --debug-dir "$T/bad" --offline "$T/stripped"
grep -qF "no DWARF debug info; tried $T/bad/.build-id/" "$T/err" || fail "message: $(cat "$T/err")"

# 2. .gnu_debuglink, beside the binary, in .debug/, under a debug dir
mkdir -p "$T/dl/.debug" "$T/dl2" "$T/root$T/dl2"
objcopy --add-gnu-debuglink="$T/prog.debug" "$T/stripped" "$T/dl/linked" || fail "add-gnu-debuglink"
cp "$T/dl/linked" "$T/dl2/linked"
cp "$T/prog.debug" "$T/dl/prog.debug"
same_as_pahole "debuglink beside the binary" --offline "$T/dl/linked"
mv "$T/dl/prog.debug" "$T/dl/.debug/prog.debug"
same_as_pahole "debuglink in .debug/" --offline "$T/dl/linked"
cp "$T/prog.debug" "$T/root$T/dl2/prog.debug"
same_as_pahole "debuglink under a debug dir" --debug-dir "$T/root" --offline "$T/dl2/linked"
# another file under the debuglink name: its CRC differs, it is not read
objcopy --only-keep-debug "$T/other" "$T/dl/.debug/prog.debug" || fail "objcopy other"
assert_exit 3 "debuglink with a wrong CRC" "$HITMAP" layout -C mm_struct --offline "$T/dl/linked"
grep -qF "warning: $T/dl/.debug/prog.debug: ignored: its CRC does not match the .gnu_debuglink of $T/dl/linked" \
	"$T/err" || fail "CRC mismatch message: $(cat "$T/err")"
grep -qF "error: $T/dl/linked: no DWARF debug info; tried " "$T/err" || fail "message: $(cat "$T/err")"
grep -qF "debuginfod (offline)" "$T/err" || fail "--offline not in the message: $(cat "$T/err")"

# 3. a local debuginfod server serving the debug file
if command -v debuginfod >/dev/null 2>&1; then
	mkdir -p "$T/srv" && cp "$T/prog.debug" "$T/srv/"
	port=$((20000 + $$ % 20000))
	debuginfod -p "$port" -F "$T/srv" -d "$T/db.sqlite" -t0 -g0 >"$T/srv.log" 2>&1 &
	srv=$!
	DEBUGINFOD_URLS=http://127.0.0.1:$port DEBUGINFOD_CACHE_PATH=$T/dcache
	export DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH
	ok=
	for i in $(seq 1 60); do	# the first scan takes a few seconds
		rm -rf "$T/dcache"	# libdebuginfod caches misses too
		if "$HITMAP" layout -C mm_struct "$T/stripped" >"$T/hm" 2>"$T/hm.err"; then ok=1; break; fi
		kill -0 "$srv" 2>/dev/null || break
		sleep 0.5
	done
	[ -n "$ok" ] || { kill "$srv"; cat "$T/srv.log" "$T/hm.err" >&2; fail "debuginfod: not found"; }
	grep -q "^hitmap: asking debuginfod (DEBUGINFOD_URLS) for debug info" "$T/hm.err" ||
		fail "no progress line while asking debuginfod: $(cat "$T/hm.err")"
	same_as_pahole "debuginfod" "$T/stripped"
	"$HITMAP" layout -v -C mm_struct "$T/stripped" >/dev/null 2>"$T/v"
	grep -qF "(debuginfod)" "$T/v" || fail "-v does not name debuginfod: $(cat "$T/v")"
	kill "$srv"; wait "$srv" 2>/dev/null
	# server gone, cache emptied: the message names what was tried
	rm -rf "$T/dcache"
	assert_exit 3 "debuginfod stopped" "$HITMAP" layout -C mm_struct "$T/stripped"
	grep -qF "debuginfod at http://127.0.0.1:$port (" "$T/err" ||
		fail "stopped server not in the message: $(cat "$T/err")"
	unset DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH
else
	echo "debuginfod not installed (Debian package debuginfod): server part not run" >&2
fi
# The client library is opened on first use: where it cannot be (an empty
# file bind-mounted over it, in a mount namespace of the test's own), the
# search names that among the places tried and the binary has no types.
lib=$(/sbin/ldconfig -p | awk '$1 == "libdebuginfod.so.1" { print $NF; exit }')
if [ -n "$lib" ] && [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	: >"$T/empty.so"
	DEBUGINFOD_URLS=http://127.0.0.1:9 unshare -m sh -c \
		'mount --bind "$1" "$2" && exec "$3" layout -C mm_struct "$4"' sh \
		"$T/empty.so" "$lib" "$HITMAP" "$T/stripped" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 3 ] || { cat "$T/err" >&2; fail "no client library: exit $rc, want 3"; }
	grep -qF "debuginfod at http://127.0.0.1:9 (no client library: " "$T/err" ||
		fail "the missing client library is not in the message: $(cat "$T/err")"
else
	echo "not root, no unshare -m, or no libdebuginfod.so.1 in ld.so's cache:" \
		"the case of a client library that cannot be opened not run" >&2
fi

# 4. libc from libc6-dbg, found by build-id under /usr/lib/debug
libc=$(ldd "$T/prog" | sed -n 's/.*libc\.so\.6 => \([^ ]*\).*/\1/p')
lid=$(readelf -n "$libc" | sed -n 's/.*Build ID: *//p')
ldbg=/usr/lib/debug/.build-id/$(echo "$lid" | cut -c1-2)/$(echo "$lid" | cut -c3-).debug
[ -f "$ldbg" ] || skip "libc's debug file $ldbg not installed (Debian package libc6-dbg)"
pahole -F dwarf -M --suppress_force_paddings -C malloc_state "$ldbg" >"$T/pahole" 2>/dev/null
"$HITMAP" layout -C malloc_state "$libc" >"$T/hm" || fail "layout -C malloc_state $libc"
python3 "$TESTS_SRC/layout/compare.py" body "$T/pahole" "$T/hm" "$exc" "libc malloc_state" >&2 ||
	fail "libc malloc_state differs from pahole's"
exit 0
