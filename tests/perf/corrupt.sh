#!/bin/sh
# Broken perf.data files: every one gives exit 3 and one line naming the
# file and an offset, never a crash or a hang (run it in a sanitizer build
# to make ASan/UBSan check the same).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/perf/lib-perf.sh"

# expect_bad FILE PATTERN: perf-dump fails with exit 3 and one error line
# containing "at offset 0x" and PATTERN.
expect_bad() {
	set +e
	"$PD" --records "$1" >"$T/bad.out" 2>"$T/bad.err"
	rc=$?
	set -e 2>/dev/null; set +e
	[ "$rc" = 3 ] || { cat "$T/bad.err" >&2; fail "$1: exit $rc, want 3 ($2)"; }
	[ "$(wc -l <"$T/bad.err")" = 1 ] || { cat "$T/bad.err" >&2; fail "$1: want one error line"; }
	grep -q "^perf-dump: error: $1: .*at offset 0x" "$T/bad.err" ||
		{ cat "$T/bad.err" >&2; fail "$1: no 'FILE: ... at offset 0x..' message"; }
	grep -q -- "$2" "$T/bad.err" || { cat "$T/bad.err" >&2; fail "$1: message lacks '$2'"; }
}

# put64 FILE OFFSET VALUE / put16: overwrite little-endian integers
putn() {
	n=$1 f=$2 off=$3 v=$4 i=0 bytes=""
	while [ $i -lt "$n" ]; do
		bytes="$bytes\\$(printf '%03o' $(( (v >> (8 * i)) & 255 )))"
		i=$((i + 1))
	done
	# shellcheck disable=SC2059
	printf "$bytes" | dd of="$f" bs=1 seek="$off" conv=notrunc 2>/dev/null
}
put64() { putn 8 "$@"; }
put32() { putn 4 "$@"; }
put16() { putn 2 "$@"; }
get64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }

# A generated file with a call chain in every sample (sample_type | CALLCHAIN).
"$GEN" -o "$T/ok.data" --extra-bits 0x20 lcl-hitm:0x601008:3:1 st-l1hit:0x601000:2 || fail gen
"$PD" "$T/ok.data" >/dev/null || fail "the intact file is rejected"
DOFF=$(get64 "$T/ok.data" 40)
DSIZE=$(get64 "$T/ok.data" 48)

# 1. Truncated at every 64-byte boundary: the generated file, the two real
#    files, and a compressed recording when perf can make one.
files="$T/ok.data"
for f in c2c-intel-perf5.4.data mem-intel-perf4.4.data; do
	files="$files $DATA/$f"
done
if command -v perf >/dev/null 2>&1 &&
   perf record -q -z -d -e page-faults -c 1 -o "$T/z.data" -- sh -c : >/dev/null 2>&1; then
	files="$files $T/z.data"
fi
n=0
for f in $files; do
	size=$(wc -c <"$f")
	"$PD" --truncate-every 64 "$f" >"$T/cuts.txt" || fail "perf-dump --truncate-every $f"
	assert_eq $(( (size + 63) / 64 )) "$(wc -l <"$T/cuts.txt")" "$f: number of cuts"
	if grep -v "^0x[0-9a-f]* 3 $f: .*\(truncated\|past end of file\|not a perf.data\).* at offset 0x" \
		"$T/cuts.txt" >"$T/cuts.bad"; then
		head -5 "$T/cuts.bad" >&2
		fail "$f: a cut is read without the right error"
	fi
	n=$((n + $(wc -l <"$T/cuts.txt")))
	# the same through files and the exit code, for a few cuts
	for off in 0 64 $((size / 2 / 64 * 64)) $(( (size - 1) / 64 * 64 )); do
		head -c $off "$f" >"$T/cut.data"
		expect_bad "$T/cut.data" "truncated\|past end of file\|not a perf.data"
	done
done
echo "truncations: $n, all rejected"

# 2. Header fields.
bad() {	# bad NAME: a fresh copy of the intact file to break
	cp "$T/ok.data" "$T/$1.data"
	echo "$T/$1.data"
}
f=$(bad magic); put64 "$f" 0 0x1122334455667788
expect_bad "$f" "bad magic"
f=$(bad attrsize0); put64 "$f" 16 0
expect_bad "$f" "bad attr_size 0"
f=$(bad attrsizehuge); put64 "$f" 16 1099511627776
expect_bad "$f" "bad attr_size"
f=$(bad attrs-eof); put64 "$f" 24 1099511627776
expect_bad "$f" "attr section .* past end of file"
f=$(bad data-eof); put64 "$f" 48 1099511627776
expect_bad "$f" "data section .* past end of file"
f=$(bad data0); put64 "$f" 48 0
expect_bad "$f" "perf did not finish"
f=$(bad hsize); put64 "$f" 8 3
expect_bad "$f" "bad header size"

# 3. Records: the first record's size 0 and 4 (smaller than its header),
#    then a call chain claiming 2^60 entries in the first sample.
f=$(bad rec0); put16 "$f" $((DOFF + 6)) 0
expect_bad "$f" "record size 0 smaller than its header"
f=$(bad rec4); put16 "$f" $((DOFF + 6)) 4
expect_bad "$f" "record size 4 smaller than its header"
f=$(bad reclong); put16 "$f" $((DOFF + 6)) 65528
expect_bad "$f" "truncated record"
S=$("$PD" --records --offsets "$T/ok.data" | awk '$2 == "sample" { print $1; exit }')
# sample: header, ip, tid, time, addr, id, cpu, period, then callchain nr
f=$(bad chain); put64 "$f" $((S + 64)) 1152921504606846976
expect_bad "$f" "callchain of 1152921504606846976 entries"

# A TEXT_POKE whose byte counts run past its record.
"$GEN" -o "$T/poke.data" --text-poke 0xffffffffab0011e0:e906f80a02:488b470890 \
	lcl-hitm:0x601008 || fail gen
P=$("$PD" --records --offsets "$T/poke.data" | awk '$2 == "text_poke" { print $1; exit }')
[ -n "$P" ] || fail "no text_poke record in $T/poke.data"
cp "$T/poke.data" "$T/poke-long.data"; put16 "$T/poke-long.data" $((P + 18)) 65535
expect_bad "$T/poke-long.data" "truncated TEXT_POKE record at offset $P"

# 4. Features that lie: the feature table points past the end of the file,
#    HOSTNAME's string length runs past the feature, EVENT_DESC's count is
#    absurd.  The table follows the data; HOSTNAME (bit 3) is its first entry.
TAB=$((DOFF + DSIZE))
f=$(bad feat-eof); put64 "$f" $((TAB + 8)) 1099511627776
expect_bad "$f" "feature 3 .* past end of file"
H=$(get64 "$T/ok.data" $TAB)
f=$(bad feat-str); put32 "$f" "$H" 4096
expect_bad "$f" "HOSTNAME feature: string length past the end"
# EVENT_DESC (bit 12) is the 10th entry (bits 3-11 come first)
E=$(get64 "$T/ok.data" $((TAB + 9 * 16)))
f=$(bad feat-evdesc); put32 "$f" "$E" 100000000
expect_bad "$f" "EVENT_DESC feature: event count past the end"

# 5. Every byte of small files set to 0x00, 0x7f, 0x80 and 0xff in turn:
#    each variant reads cleanly or fails with an offset (and, in a
#    sanitizer build, without a sanitizer report).
"$GEN" -o "$T/sw.data" --swap --identifier --extra-bits 0x20 lcl-hitm:0x601008:2:1 \
	st-l1hit:0x601000 || fail gen
"$GEN" -o "$T/zc.data" --compress2 100,16 lcl-hitm:0x601008:2:1 st-l1hit:0x601000 || fail gen
for f in "$T/ok.data" "$T/sw.data" "$T/zc.data"; do
	"$PD" --mutate "$f" >"$T/mut.txt" || fail "perf-dump --mutate $f"
	tail -1 "$T/mut.txt" | grep -q ' without-offset 0$' ||
		{ head -5 "$T/mut.txt" >&2; fail "$f: mutations without an offset in the message"; }
done

# 6. A pipe-mode stream cut every 8 bytes: a cut at a record boundary is a
#    shorter valid stream (exit 0), any other cut an error with an offset.
if command -v perf >/dev/null 2>&1 &&
   perf record -q -o - -d -e page-faults -c 1 -- sh -c : >"$T/pipe.data" 2>/dev/null; then
	"$PD" --truncate-every 8 "$T/pipe.data" >"$T/pcuts.txt" || fail "pipe cuts"
	if grep -v "^0x[0-9a-f]* 0 $\|^0x[0-9a-f]* 3 .* at offset 0x" "$T/pcuts.txt" >"$T/pcuts.bad"; then
		head -5 "$T/pcuts.bad" >&2
		fail "pipe stream cut without a clean end or an offset"
	fi
	grep -q "^0x[0-9a-f]* 3 " "$T/pcuts.txt" || fail "no pipe cut was an error"
fi

# 7. Not perf.data at all, and an empty file.
printf 'hello, world\n' >"$T/text.data"
expect_bad "$T/text.data" "truncated header\|bad magic"
: >"$T/empty.data"
expect_bad "$T/empty.data" "truncated header"
echo "corrupt: ok"
