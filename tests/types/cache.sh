#!/bin/sh
# The persistent type cache ($XDG_CACHE_HOME/hitmap/BUILD-ID.types; lib.sh
# points XDG_CACHE_HOME into the scratch directory).  The oracle is hitmap
# itself with --no-cache: a cache may make a run faster, never different.
#  - the first -C query of a binary loads only what it asks (the fast path
#    a bisection needs) and leaves BUILD-ID.types.wanted; the next cold run
#    (or any whole-file run) writes exactly one cache file, BUILD-ID.types
#    with the build-id readelf prints, and removes the mark; warm runs leave
#    the file alone (same inode: read, not rebuilt);
#  - cold, warm and --no-cache (and HITMAP_NO_CACHE=1) print byte-identical
#    layout text, --json, -E and --list for several fixture structs, built
#    with gcc and clang;
#  - a truncated, bit-flipped, wrong-version or wrong-build-id cache file is
#    ignored silently and rebuilt: same output, no message, and the rebuilt
#    file equals the one first written (the format is deterministic);
#  - so is a FIFO (no hang) or a symlink (not followed) in its place;
#  - hostile files with a valid checksum (cache-mutate.py) never crash it;
#  - two runs started together on an empty cache both succeed with the same
#    output and leave one whole file, no temporaries;
#  - a rebuilt binary (other build-id; or the same build-id with other
#    contents) never gets the old binary's types;
#  - the library writes only when its load options ask (typedump, which
#    calls hm_types_load() directly): no options, or the cache without
#    cache_write, leave the directory untouched, whole-file or -C; with
#    cache_write the file lands in the cache_dir given; and a table read
#    from the cache lists for -C exactly what a direct -C load lists.
. "$top_srcdir/tests/lib.sh"
require readelf binutils
SRC="$TESTS_SRC/types"
C="$XDG_CACHE_HOME/hitmap"
STRUCTS="plain bits ptrs misc usesfwd"

build_id() {
	readelf -n "$1" | sed -n 's/.*Build ID: *//p' | head -1
}

# outputs FILE PREFIX [hitmap options]: every output form compared below
outputs() {
	f=$1; p=$2; shift 2
	for s in $STRUCTS; do
		"$HITMAP" layout "$@" -C $s "$f" >"$p.$s.txt" 2>"$p.$s.err" || fail "layout -C $s $f"
		"$HITMAP" layout "$@" --json -C $s "$f" >"$p.$s.json" 2>>"$p.$s.err" ||
			fail "layout --json -C $s $f"
	done
	"$HITMAP" layout "$@" -E -C misc,ptrs "$f" >"$p.E.txt" 2>"$p.E.err" || fail "layout -E $f"
	"$HITMAP" layout "$@" --list "$f" >"$p.list" 2>"$p.list.err" || fail "layout --list $f"
	"$HITMAP" layout "$@" --list --json "$f" >"$p.list.json" 2>>"$p.list.err" ||
		fail "layout --list --json $f"
	"$HITMAP" layout "$@" "$f" >"$p.all" 2>"$p.all.err" || fail "layout $f"
}

same_outputs() {
	for x in "$T/ref".*; do
		y="$1${x#"$T/ref"}"
		assert_files_eq "$x" "$y" "$2: $(basename "$y")"
	done
}

inode() {
	stat -c %i "$1"
}

for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	fx="$T/fx-$cc"
	build_fixture "$SRC/fixture.c" "$fx" $cc 5 -O0
	bid=$(build_id "$fx")
	[ -n "$bid" ] || fail "$cc: fixture has no build-id"
	rm -rf "$XDG_CACHE_HOME"

	outputs "$fx" "$T/ref" --no-cache
	[ ! -e "$C" ] || [ -z "$(ls -A "$C")" ] || fail "$cc: --no-cache wrote a cache file"
	HITMAP_NO_CACHE=1 outputs "$fx" "$T/env"
	[ ! -e "$C" ] || [ -z "$(ls -A "$C")" ] || fail "$cc: HITMAP_NO_CACHE=1 wrote a cache file"
	same_outputs "$T/env" "$cc: HITMAP_NO_CACHE=1 differs from --no-cache"

	"$HITMAP" layout -C plain "$fx" >"$T/first" || fail "$cc: first -C run"
	assert_files_eq "$T/ref.plain.txt" "$T/first" "$cc: first -C run"
	assert_eq "$bid.types.wanted" "$(ls -A "$C")" "$cc: cache directory after a first -C run"
	# the first run of outputs() builds the cache, the rest are warm
	outputs "$fx" "$T/cold"
	assert_eq "$bid.types" "$(ls -A "$C")" "$cc: cache directory after a cold run"
	ino=$(inode "$C/$bid.types")
	cp "$C/$bid.types" "$T/good"
	same_outputs "$T/cold" "$cc: cached runs differ from --no-cache"
	outputs "$fx" "$T/warm"
	same_outputs "$T/warm" "$cc: warm runs differ from --no-cache"
	assert_eq "$ino" "$(inode "$C/$bid.types")" "$cc: warm runs rewrote the cache file"
	cmp -s "$T/good" "$C/$bid.types" || fail "$cc: warm runs changed the cache file"

	# corrupt cache files: ignored, rebuilt, same output, no message
	size=$(stat -c %s "$T/good")
	ver=$("$HITMAP" --version | sed 's/^hitmap //')
	for how in empty header half last-byte flip-header flip-payload version build-id longer \
		   fifo symlink; do
		cp "$T/good" "$C/$bid.types"
		case $how in
		empty) : >"$C/$bid.types" ;;
		header) truncate -s 100 "$C/$bid.types" ;;
		half) truncate -s $((size / 2)) "$C/$bid.types" ;;
		last-byte) truncate -s $((size - 1)) "$C/$bid.types" ;;
		# byte 4 is inside the format number, the last byte in the payload
		flip-header) printf '\377' | dd of="$C/$bid.types" bs=1 seek=4 conv=notrunc 2>/dev/null ;;
		flip-payload)
			b=$(od -An -tu1 -j $((size - 1)) -N1 "$C/$bid.types" | tr -d ' ')
			nb='\125'; [ "$b" = 85 ] && nb='\252'
			printf "$nb" | dd of="$C/$bid.types" bs=1 seek=$((size - 1)) conv=notrunc 2>/dev/null ;;
		# the version string sits at byte 16, after magic (8), format and
		# byte-order mark (4 each)
		version)
			got=$(dd if="$C/$bid.types" bs=1 skip=16 count=${#ver} 2>/dev/null)
			assert_eq "$ver" "$got" "$cc: version string at byte 16"
			printf '9.9.9' | dd of="$C/$bid.types" bs=1 seek=16 conv=notrunc 2>/dev/null ;;
		# another binary's cache file under this build-id's name
		build-id) cp "$T/other-bid.types" "$C/$bid.types" 2>/dev/null ||
				{ build_fixture "$SRC/fixture.c" "$T/other" $cc 5 -O0 -Wl,--build-id=0x0123456789abcdef
				  "$HITMAP" layout --list "$T/other" >/dev/null || fail "layout other"
				  cp "$C/0123456789abcdef.types" "$T/other-bid.types"
				  rm -f "$C/0123456789abcdef.types"
				  cp "$T/other-bid.types" "$C/$bid.types"; } ;;
		longer) printf 'junk' >>"$C/$bid.types" ;;
		# not a regular file: must neither hang nor be followed
		fifo) rm -f "$C/$bid.types"; mkfifo "$C/$bid.types" ;;
		symlink) rm -f "$C/$bid.types"; ln -s "$T/good" "$C/$bid.types" ;;
		esac
		"$HITMAP" layout -C misc "$fx" >"$T/c.txt" 2>"$T/c.err" || fail "$cc: $how: layout failed"
		assert_files_eq "$T/ref.misc.txt" "$T/c.txt" "$cc: $how: output"
		assert_eq "" "$(cat "$T/c.err")" "$cc: $how: messages"
		[ -f "$C/$bid.types" ] && [ ! -L "$C/$bid.types" ] &&
			cmp -s "$T/good" "$C/$bid.types" || fail "$cc: $how: cache file not rebuilt"
	done

	# hostile files that pass the checksum (cache-mutate.py recomputes it):
	# the bounds checks must hold, whatever the run then prints
	if command -v python3 >/dev/null 2>&1; then
		python3 "$SRC/cache-mutate.py" "$T/good" "$T/mut." 20 1 || fail "cache-mutate.py"
		for m in "$T"/mut.*; do
			for args in "-E -C misc,ptrs" "--list" "--json -C arrays"; do
				cp "$m" "$C/$bid.types"
				"$HITMAP" layout $args "$fx" >"$T/m.out" 2>"$T/m.err"
				rc=$?
				[ $rc -le 3 ] || fail "$cc: $(basename "$m"): layout $args: exit $rc"
				! grep -q 'Sanitizer\|runtime error' "$T/m.err" ||
					fail "$cc: $(basename "$m"): $(cat "$T/m.err")"
			done
		done
		cp "$T/good" "$C/$bid.types"
	fi

	# two runs at once on an empty cache, both writing it
	rm -rf "$XDG_CACHE_HOME"
	"$HITMAP" layout --list "$fx" >"$T/p1" 2>"$T/p1.err" & p1=$!
	"$HITMAP" layout --list "$fx" >"$T/p2" 2>"$T/p2.err" & p2=$!
	wait $p1 || fail "$cc: first concurrent run failed"
	wait $p2 || fail "$cc: second concurrent run failed"
	assert_files_eq "$T/ref.list" "$T/p1" "$cc: first concurrent run"
	assert_files_eq "$T/ref.list" "$T/p2" "$cc: second concurrent run"
	assert_eq "$bid.types" "$(ls -A "$C")" "$cc: cache directory after concurrent runs"
	cmp -s "$T/good" "$C/$bid.types" || fail "$cc: concurrent runs left a different file"
	rm -f "$T/other-bid.types"
done

# Rebuilt binaries at the same path.  v1 and v2 of struct s differ in size
# (4 and 16 bytes: int vs long + int + padding), so a stale entry shows.
cat >"$T/v1.c" <<'X'
struct s { int a; } g;
int main(void) { return 0; }
X
cat >"$T/v2.c" <<'X'
struct s { long a; int b; } g;
int main(void) { return 0; }
X
rm -rf "$XDG_CACHE_HOME"
build_fixture "$T/v1.c" "$T/bin" $CC 5 -O0 -Wl,--build-id=0x1111111111111111
"$HITMAP" layout "$T/bin" >"$T/v1.txt" || fail "layout v1"
grep -q 'size: 4,' "$T/v1.txt" || fail "v1: struct s is not 4 bytes: $(cat "$T/v1.txt")"
build_fixture "$T/v2.c" "$T/bin" $CC 5 -O0 -Wl,--build-id=0x2222222222222222
"$HITMAP" layout "$T/bin" >/dev/null || fail "layout v2 (writes its cache)"
"$HITMAP" layout -C s "$T/bin" >"$T/v2.txt" || fail "layout v2"
"$HITMAP" layout --no-cache -C s "$T/bin" >"$T/v2.want" || fail "layout v2 --no-cache"
assert_files_eq "$T/v2.want" "$T/v2.txt" "new build-id: old cache entry reused"
grep -q 'size: 16,' "$T/v2.txt" || fail "v2: struct s is not 16 bytes: $(cat "$T/v2.txt")"
assert_eq "1111111111111111.types 2222222222222222.types" "$(ls "$C" | tr '\n' ' ' | sed 's/ $//')" "cache files per build-id"
# the same build-id forced on other contents: the size and mtime in the
# header tell them apart
build_fixture "$T/v1.c" "$T/bin" $CC 5 -O0 -Wl,--build-id=0x2222222222222222
"$HITMAP" layout "$T/bin" >"$T/v1b.txt" || fail "layout v1 again"
assert_files_eq "$T/v1.txt" "$T/v1b.txt" "same build-id, other contents: old entry reused"

# ---- the library's own defaults: no write unless asked ----
DUMP="$top_builddir/tests/types/typedump"
fx="$T/fx-lib"
build_fixture "$SRC/fixture.c" "$fx" $CC 5 -O0
bid=$(build_id "$fx")
rm -rf "$XDG_CACHE_HOME" "$T/kc"
"$DUMP" "$fx" >"$T/lib.all" || fail "typedump"
"$DUMP" -C plain,misc "$fx" >"$T/lib.only" || fail "typedump -C"
"$DUMP" -C plain,misc "$fx" >/dev/null || fail "typedump -C, twice"
[ ! -e "$C" ] || [ -z "$(ls -A "$C")" ] || fail "a load without cache options wrote: $(ls -A "$C")"
"$DUMP" -k "$T/kc" "$fx" >"$T/lib.k" || fail "typedump -k"
"$DUMP" -k "$T/kc" -C plain,misc "$fx" >/dev/null || fail "typedump -k -C"
"$DUMP" -k "$T/kc" -C plain,misc "$fx" >/dev/null || fail "typedump -k -C, twice"
[ ! -e "$T/kc" ] || fail "a load without cache_write wrote: $(ls -A "$T/kc")"
[ ! -e "$C" ] || [ -z "$(ls -A "$C")" ] || fail "a load with a cache_dir wrote elsewhere"
assert_files_eq "$T/lib.all" "$T/lib.k" "typedump -k without a cache file"
mkdir "$T/kc"
"$DUMP" -K "$T/kc" "$fx" >"$T/lib.K" || fail "typedump -K"
assert_eq "$bid.types" "$(ls -A "$T/kc")" "cache_dir after a whole-file load with cache_write"
assert_files_eq "$T/lib.all" "$T/lib.K" "typedump -K"
"$DUMP" -k "$T/kc" "$fx" >"$T/lib.hit" || fail "typedump -k, cached"
assert_files_eq "$T/lib.all" "$T/lib.hit" "typedump from the cache"
"$DUMP" -k "$T/kc" -C plain,misc "$fx" >"$T/lib.onlyhit" || fail "typedump -k -C, cached"
assert_files_eq "$T/lib.only" "$T/lib.onlyhit" "-C from the cache lists what a direct -C load lists"
assert_eq "$bid.types" "$(ls -A "$T/kc")" "cache_dir after reading"
exit 0
