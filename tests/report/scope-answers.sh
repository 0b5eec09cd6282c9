#!/bin/sh
# The scope answers kept across runs ($XDG_CACHE_HOME/hitmap/BUILD-ID.scopes,
# beside the type cache; lib.sh points XDG_CACHE_HOME into the scratch
# directory).  The oracle is hitmap itself with --no-cache: answers kept
# may make a report faster, never different.  On page-fault recordings of
# two programs (tests/attr/chains.c and tasks.c, gcc -O2) that share the
# C library:
#  - the first report writes BUILD-ID.scopes for the program (the build-id
#    readelf prints) and, with libc6-dbg, for libc's debug file;
#  - the second reads them (-v says so), reads no DWARF (-v would say
#    so), rewrites nothing (same inode), and
#    prints text and --json byte-identical to the first and to --no-cache;
#  - the other program's report adds its questions to libc's answers and
#    prints what --no-cache prints; the first program's report then still
#    does;
#  - a truncated, bit-flipped, wrong-version or misplaced (another file's)
#    answers file is ignored (-v says why), the report unchanged, and the
#    file written again as it was first written (the answers of one
#    report are the same every time); the attribution's answers
#    (BUILD-ID.attr, tests/report/attr-answers.sh) are removed first, or
#    they would answer what the scopes are asked;
#  - hostile files with a valid checksum (answers-mutate.py) never crash
#    the report: exit 0, or 3 with a message.
. "$top_srcdir/tests/lib.sh"
require perf linux-perf
require readelf binutils
require taskset util-linux
ASRC="$top_srcdir/tests/attr"
C="$XDG_CACHE_HOME/hitmap"

build_id() {
	readelf -n "$1" | sed -n 's/.*Build ID: *//p' | head -1
}

for prog in chains tasks; do
	build_fixture "$ASRC/$prog.c" "$T/$prog" gcc 5 -O2 -pthread
	taskset -c 0 perf record -q -d -c 1 -e page-faults -o "$T/$prog.data" -- "$T/$prog" \
		>/dev/null 2>"$T/rec.err" || { cat "$T/rec.err" >&2; fail "perf record $prog"; }
	# the oracle: no answers read, none written
	"$HITMAP" report --no-cache -i "$T/$prog.data" >"$T/$prog.ref" 2>"$T/$prog.ref.err" ||
		fail "report --no-cache $prog: $(cat "$T/$prog.ref.err")"
	"$HITMAP" report --no-cache --json --top 100000 -i "$T/$prog.data" >"$T/$prog.ref.json" \
		2>>"$T/$prog.ref.err" || fail "report --no-cache --json $prog"
done
[ ! -d "$C" ] || [ -z "$(ls "$C")" ] || fail "--no-cache wrote to the cache: $(ls "$C")"

# report PROG NAME: text and JSON into $T/NAME.{txt,json}, -v messages into
# $T/NAME.v; both must equal the --no-cache run's
report() {
	"$HITMAP" report -v -i "$T/$1.data" >"$T/$2.txt" 2>"$T/$2.v" ||
		fail "report $1 ($2): $(cat "$T/$2.v")"
	"$HITMAP" report --json --top 100000 -i "$T/$1.data" >"$T/$2.json" 2>"$T/$2.err" ||
		fail "report --json $1 ($2): $(cat "$T/$2.err")"
	assert_files_eq "$T/$1.ref" "$T/$2.txt" "$2: the text report differs from --no-cache's"
	assert_files_eq "$T/$1.ref.json" "$T/$2.json" "$2: the JSON report differs from --no-cache's"
}

id=$(build_id "$T/chains")
f="$C/$id.scopes"
report chains cold
[ -s "$f" ] || fail "no answers file $f after the first report ($(ls "$C"))"
grep -qF "scope answers $f written" "$T/cold.v" || fail "-v does not say $f was written: $(cat "$T/cold.v")"
cp "$f" "$T/first"
libc=$(ldd "$T/chains" | sed -n 's/.*libc\.so\.6 => \([^ ]*\).*/\1/p')
lid=$(build_id "$(readlink -f "$libc")")
lf=
if [ -f "/usr/lib/debug/.build-id/$(echo "$lid" | cut -c1-2)/$(echo "$lid" | cut -c3-).debug" ]; then
	lf="$C/$lid.scopes"
	[ -s "$lf" ] || fail "no answers for libc's debug file ($lf)"
fi

ino=$(stat -c %i "$f")
report chains warm
grep -qF "scope answers $f used" "$T/warm.v" || fail "-v does not say $f was used: $(cat "$T/warm.v")"
grep -q "scope answers .* written" "$T/warm.v" && fail "a warm report wrote answers: $(cat "$T/warm.v")"
grep -q "scope answers do not hold" "$T/warm.v" && fail "a warm report read the DWARF: $(cat "$T/warm.v")"
[ "$(stat -c %i "$f")" = "$ino" ] || fail "a warm report replaced $f"
cmp -s "$f" "$T/first" || fail "a warm report changed $f"

# the second program: libc's answers grow, every report stays the same
if [ -n "$lf" ]; then
	lsize=$(stat -c %s "$lf")
	report tasks other
	grep -qF "scope answers $lf used" "$T/other.v" || fail "libc's answers were not read for tasks"
	[ "$(stat -c %s "$lf")" -ge "$lsize" ] || fail "libc's answers shrank"
	report chains again
fi

# damaged files: ignored, the report unchanged, the file written again
size=$(stat -c %s "$f")
for how in empty header half last-byte flip-header flip-payload version other; do
	cp "$T/first" "$f"
	case $how in
	empty) : >"$f" ;;
	header) truncate -s 100 "$f" ;;
	half) truncate -s $((size / 2)) "$f" ;;
	last-byte) truncate -s $((size - 1)) "$f" ;;
	flip-header) printf '\377' | dd of="$f" bs=1 seek=4 conv=notrunc 2>/dev/null ;;
	flip-payload)
		b=$(od -An -tu1 -j $((size - 1)) -N1 "$f" | tr -d ' ')
		printf "\\$(printf '%03o' $((b ^ 1)))" | dd of="$f" bs=1 seek=$((size - 1)) conv=notrunc 2>/dev/null ;;
	version) printf '9.9.9' | dd of="$f" bs=1 seek=16 conv=notrunc 2>/dev/null ;;
	other) [ -n "$lf" ] || continue
		cp "$lf" "$f" ;;
	esac
	rm -f "$C"/*.attr
	report chains "$how"
	grep -qF "scope answers $f ignored" "$T/$how.v" ||
		fail "$how: -v does not say $f was ignored: $(cat "$T/$how.v")"
	cmp -s "$f" "$T/first" || fail "$how: $f was not written again as it was first written"
done

# hostile answers that pass the checksum
python3 "$top_srcdir/tests/report/answers-mutate.py" "$T/first" "$T/mut." 30 1 ||
	fail "answers-mutate.py"
for m in "$T"/mut.*; do
	cp "$m" "$f"
	rm -f "$C"/*.attr
	"$HITMAP" report -i "$T/chains.data" >"$T/mut.out" 2>"$T/mut.err"
	rc=$?
	[ $rc -eq 0 ] || { [ $rc -eq 3 ] && [ -s "$T/mut.err" ]; } ||
		fail "$(basename "$m"): exit $rc: $(cat "$T/mut.err")"
done
exit 0
