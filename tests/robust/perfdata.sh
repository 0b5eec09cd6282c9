#!/bin/sh
# Error contract of `hitmap report` on broken perf.data (see lib-robust.sh):
# a real recording cut at every 64-byte boundary, header fields, records and
# features that lie, in file and pipe mode.  Each must give exit 3 and one
# line naming the file and an offset, with nothing on stdout, within the
# timeout (no loop on a record that does not advance).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/robust/lib-robust.sh"

# A real recording with call chains: page faults carry a data address (-d).
# Without a usable perf, the real c2c recording of tests/data.
REAL="$T/real.data"
if command -v perf >/dev/null 2>&1 &&
   perf record -q -e page-faults -c 1 -d -g -o "$REAL" -- true >/dev/null 2>&1 &&
   perf record -q -e page-faults -c 1 -d -o - -- true >"$T/pipe.data" 2>/dev/null; then
	:
else
	cp "$TESTS_SRC/data/c2c-intel-perf5.4.data" "$REAL"
	: >"$T/pipe.data"
fi
run_hm report -i "$REAL"
[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "the intact recording is rejected"; }

# perf_file_header: magic, size, attr_size, attrs {offset, size} at 24,
# data {offset, size} at 40, adds_features bitmap at 72.
ATTRS=$(get64 "$REAL" 24)
DOFF=$(get64 "$REAL" 40)
DSIZE=$(get64 "$REAL" 48)
FEAT=$(get64 "$REAL" 72)
SIZE=$(wc -c <"$REAL")

# 1. Every cut is a truncated file: its header promises more (data.size, the
#    feature sections after the data).  A cut before the data section is
#    refused; one inside the data section is read up to the cut: one warning
#    line naming the offset, the report of what was read, and still exit 3
#    (tests/perf/truncated.sh counts the samples against perf); one in the
#    features after it reads every sample, as perf does, with one warning
#    naming the offset and the features lost, and still exit 3
#    (tests/perf/salvage.sh counts the samples against perf).
off=0 n=0 nkept=0 nfeat=0
while [ $off -lt "$SIZE" ]; do
	head -c $off "$REAL" >"$T/cut.data"
	if [ $off -ge $((DOFF + DSIZE)) ]; then
		run_hm report -i "$T/cut.data"
		[ "$rc" = 3 ] || { cat "$T/err" >&2; fail "cut at $off: exit $rc, want 3"; }
		grep -q "^warning: $T/cut.data: truncated at offset 0x[0-9a-f]* in the feature section, after the whole data section: every sample is read; features lost: [A-Z_, ]*\$" "$T/err" &&
			[ "$(grep -c '^warning: ' "$T/err")" = 1 ] &&
			! grep -qv '^\(warning\|note\): ' "$T/err" ||
			{ cat "$T/err" >&2; fail "cut at $off: want one warning line (and notes)"; }
		grep -q "^hitmap report: $T/cut.data\$" "$T/out" || fail "cut at $off: no report"
		nfeat=$((nfeat + 1))
	elif [ $off -ge "$DOFF" ]; then
		run_hm report -i "$T/cut.data"
		[ "$rc" = 3 ] || { cat "$T/err" >&2; fail "cut at $off: exit $rc, want 3"; }
		grep -q "^warning: $T/cut.data: truncated at offset 0x[0-9a-f]*: [0-9]* of $DSIZE bytes of the data section read; the samples before it are reported\$" "$T/err" &&
			[ "$(grep -c '^warning: ' "$T/err")" = 1 ] &&
			! grep -qv '^\(warning\|note\): ' "$T/err" ||
			{ cat "$T/err" >&2; fail "cut at $off: want one warning line (and notes)"; }
		grep -q "^hitmap report: $T/cut.data\$" "$T/out" || fail "cut at $off: no report"
		nkept=$((nkept + 1))
	else
		expect_err3 "^error: $T/cut.data: .*at offset 0x" report -i "$T/cut.data"
	fi
	off=$((off + 64)) n=$((n + 1))
done
echo "file mode: $n cuts, $nkept inside the data section read up to the cut, $nfeat in the features read whole, the rest refused"

# 2. Pipe mode: the stream has no length, so a cut between two records reads
#    as a shorter recording; a cut inside a record must be refused.  Record
#    starts are found by walking the size fields (header: magic, size 16).
if [ -s "$T/pipe.data" ]; then
	PSIZE=$(wc -c <"$T/pipe.data")
	starts=" "
	p=16
	while [ $p -lt "$PSIZE" ]; do
		starts="$starts$p "
		s=$(get16 "$T/pipe.data" $((p + 6)))
		[ "$s" -ge 8 ] || fail "pipe.data: record at $p has size $s"
		p=$((p + s))
	done
	off=64 n=0
	while [ $off -lt "$PSIZE" ]; do
		case "$starts" in *" $off "*) off=$((off + 64)); continue ;; esac
		head -c $off "$T/pipe.data" >"$T/cut.data"
		expect_err3 "at offset 0x" report -i - <"$T/cut.data"
		off=$((off + 64)) n=$((n + 1))
	done
	echo "pipe mode: $n cuts inside records, all refused"
fi

# 3. Header fields.
bad() { cp "$REAL" "$T/$1.data"; echo "$T/$1.data"; }
f=$(bad magic); put64 "$f" 0 0x1122334455667788
expect_err3 "at offset 0x" report -i "$f"
f=$(bad attrsize0); put64 "$f" 16 0
expect_err3 "attr_size" report -i "$f"
f=$(bad attrsizehuge); put64 "$f" 16 1099511627776
expect_err3 "attr_size" report -i "$f"
f=$(bad attrs-eof); put64 "$f" 24 1099511627776
expect_err3 "past end of file" report -i "$f"
# A data size past the end reads as a cut copy, so the reader goes on into
# the feature sections after the data, which are no records: refused there.
f=$(bad data-eof); put64 "$f" 48 1099511627776
expect_err3 "at offset 0x" report -i "$f"

# 4. Records: the first record of size 0, of size 4 (smaller than its own
#    8-byte header) and of a size running past the data.
f=$(bad rec0); put16 "$f" $((DOFF + 6)) 0
expect_err3 "smaller than its header" report -i "$f"
f=$(bad rec4); put16 "$f" $((DOFF + 6)) 4
expect_err3 "smaller than its header" report -i "$f"
f=$(bad reclong); put16 "$f" $((DOFF + 6)) 65528
expect_err3 "at offset 0x" report -i "$f"

# 5. An absurd call chain: the first sample (type 9) claims 2^60 entries.
#    Its nr follows the fixed fields sample_type selects, in the order of
#    perf_event.h: IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD.
ST=$(get64 "$REAL" $((ATTRS + 24)))
if [ $((ST & 0x20)) != 0 ] && [ $((ST & 0x10)) = 0 ]; then
	fixed=0
	for bit in 0x10000 0x1 0x2 0x4 0x8 0x40 0x200 0x80 0x100; do
		[ $((ST & bit)) != 0 ] && fixed=$((fixed + 8))
	done
	p=$DOFF
	while [ $p -lt $((DOFF + DSIZE)) ] && [ "$(get32 "$REAL" $p)" != 9 ]; do
		p=$((p + $(get16 "$REAL" $((p + 6)))))
	done
	[ $p -lt $((DOFF + DSIZE)) ] || fail "no sample in the recording"
	f=$(bad chain); put64 "$f" $((p + 8 + fixed)) 1152921504606846976
	expect_err3 "at offset 0x" report -i "$f"
	leak_check report -i "$f"
else
	echo "recording without call chains: the callchain case is not run"
fi

# 5b. An absurd branch stack: a generated c2c recording with BRANCH_STACK
#     (gen-c2c writes nr 0); its first sample's nr, after the header and
#     IP, TID, TIME, ADDR, ID, CPU, PERIOD, claims 2^60 entries.
GEN="$top_builddir/tests/perf/gen-c2c"
if [ -x "$GEN" ]; then
	"$GEN" -o "$T/br.data" --extra-bits 0x800 lcl-hitm:0x601008:2:1 || fail "gen-c2c"
	run_hm report -i "$T/br.data"
	[ "$rc" = 0 ] || { cat "$T/err" >&2; fail "gen-c2c branch-stack file is rejected"; }
	BD=$(get64 "$T/br.data" 40)
	p=$BD
	while [ "$(get32 "$T/br.data" $p)" != 9 ]; do
		p=$((p + $(get16 "$T/br.data" $((p + 6)))))
	done
	assert_eq 0 "$(get64 "$T/br.data" $((p + 64)))" "branch stack nr as written"
	put64 "$T/br.data" $((p + 64)) 1152921504606846976
	expect_err3 "at offset 0x" report -i "$T/br.data"
else
	echo "tests/perf/gen-c2c not built: the branch-stack case is not run"
fi

# 6. Features that lie.  The section table follows the data, one {offset,
#    size} per bit set in adds_features, lowest bit first: the first entry's
#    size runs past the end of the file, which reads as a file cut in that
#    feature: every sample is reported, with one warning naming the feature
#    lost, and exit 3; HOSTNAME's (bit 3) string length runs past its
#    section.
TAB=$((DOFF + DSIZE))
f=$(bad feat-eof); put64 "$f" $((TAB + 8)) 1099511627776
run_hm report -i "$f"
[ "$rc" = 3 ] && [ "$(grep -c '^warning: ' "$T/err")" = 1 ] &&
	grep -q "^warning: $f: truncated at offset 0x[0-9a-f]* in the feature section, after the whole data section: every sample is read; features lost: BUILD_ID\$" "$T/err" &&
	grep -q "^hitmap report: $f\$" "$T/out" ||
	{ cat "$T/err" >&2; fail "feature past the end of the file: want its samples, one warning, exit 3"; }
if [ $((FEAT & 8)) != 0 ]; then
	idx=$(( (FEAT & 1) + ((FEAT >> 1) & 1) + ((FEAT >> 2) & 1) ))
	H=$(get64 "$REAL" $((TAB + 16 * idx)))
	f=$(bad feat-str); put32 "$f" "$H" 4096
	expect_err3 "HOSTNAME" report -i "$f"
	leak_check report -i "$f"
fi

# 7. Not perf.data at all, an empty file, a directory, a missing file.
printf 'hello, world\n' >"$T/text.data"
expect_err3 "$T/text.data" report -i "$T/text.data"
: >"$T/empty.data"
expect_err3 "$T/empty.data" report -i "$T/empty.data"
expect_err3 "$T" report -i "$T"
expect_err3 "$T/none.data" report -i "$T/none.data"

# valgrind on a cut file and a broken record as well
head -c $((SIZE / 2)) "$REAL" >"$T/half.data"
leak_check report -i "$T/half.data"
leak_check report -i "$T/rec4.data"
exit 0
