#!/bin/sh
# A perf.data cut short: report reads up to the cut, warns naming the offset
# and how much of the data section was read, prints the report of what was
# read and exits 3 (input malformed).
#
# The rule: every record that lies whole before the cut is read, the
# partial one at the cut is not.  The oracle is perf: `perf script -D` on
# the whole file gives each SAMPLE record's offset and size, so the samples
# before a cut are counted from perf's own parse.  perf script itself (6.1)
# salvages fewer from the cut file: it queues samples for time ordering and
# delivers only those a FINISHED_ROUND flushed before the cut, dropping the
# queue at the error, so its count is only a lower bound (checked too).
#
# Cuts: inside a record, at a record boundary, right after the header
# (nothing read), before the data section (refused, as before), and a copy
# whose header says data size 0, as a perf record killed with SIGKILL
# leaves it (read to the end of the file).
. "$top_srcdir/tests/lib.sh"
require perf linux-perf
require python3
build_fixture "$TESTS_SRC/record/spin.c" "$T/spin" "$CC" 4 -O1 -pthread
perf record -q -e cpu-clock -F 2000 -o "$T/full.data" -- "$T/spin" 100000000 \
	>"$T/rec.out" 2>"$T/rec.err" ||
	{ cat "$T/rec.err" >&2; skip "perf record -e cpu-clock does not work here (perf_event_paranoid?)"; }
perf script -D -i "$T/full.data" >"$T/dump" 2>/dev/null || fail "perf script -D"
# data offset and size from the header (perf.data format: u64 at 40 and 48)
set -- $(python3 -c 'import struct, sys
h = open(sys.argv[1], "rb").read(56)
print(*struct.unpack("<QQ", h[40:56]))' "$T/full.data")
doff=$1 dsize=$2
# ends: the end offset of every SAMPLE record, from perf's dump lines
# "0xOFF@FILE [0xSIZE]: event: 9".
python3 - "$T/dump" >"$T/ends" <<'PY' || fail "perf script -D: no samples"
import re, sys
ends = []
for l in open(sys.argv[1], errors="replace"):
    m = re.match(r"^(0x[0-9a-f]+)@\S+ \[(0x[0-9a-f]+)\]: event: 9$", l)
    if m:
        ends.append(int(m.group(1), 16) + int(m.group(2), 16))
if not ends:
    sys.exit(1)
for e in sorted(ends):
    print(e)
PY
total=$(wc -l <"$T/ends")
[ "$total" -ge 20 ] || skip "perf recorded only $total cpu-clock samples"
before() { awk -v c="$1" '$1 <= c { n++ } END { print n + 0 }' "$T/ends"; }
hexoff() { printf '0x%x' "$1"; }

# check CUT FILE KIND: report on FILE (the first CUT bytes of full.data or a copy)
# reads the samples wholly before CUT and says where it stopped.
check() {
	ccut=$1 cf=$2 kind=$3
	n=$(before "$ccut")
	assert_exit 3 "report, cut at $ccut ($kind)" "$HITMAP" report -i "$cf"
	assert_eq "$n address samples" "$(sed -n 2p "$T/out")" "samples before $ccut ($kind)"
	case $kind in
	killed) msg="warning: $cf: truncated at offset $(hexoff "$stop"): $((stop - doff)) bytes of the data section read (its size is 0: perf did not finish writing the file); the samples before it are reported" ;;
	*) msg="warning: $cf: truncated at offset $(hexoff "$stop"): $((stop - doff)) of $dsize bytes of the data section read; the samples before it are reported" ;;
	esac
	assert_eq "$msg" "$(cat "$T/err")" "warning, cut at $ccut ($kind)"
	p=$(perf script -i "$cf" -F ip 2>/dev/null | wc -l)
	[ "$p" -le "$n" ] || fail "perf script salvaged $p samples before $ccut, hitmap $n"
	echo "cut $ccut ($kind): $n samples (perf script on the cut file: $p)" >&2
}

# A cut inside a sample record: the record before it ends at the last
# boundary, where the reader stops.
third=$(sed -n "$((total / 3))p" "$T/ends")
for cut in $((third - 3)) "$third" $(( $(sed -n "$((total * 2 / 3))p" "$T/ends") + 5 )) \
	$((doff + dsize - 1)); do
	head -c "$cut" "$T/full.data" >"$T/cut.data"
	# the reader stops at the last record boundary at or before the cut:
	# perf's dump lists every record's offset
	stop=$(python3 - "$T/dump" "$cut" <<'PY'
import re, sys
c = int(sys.argv[2]); best = 0
for l in open(sys.argv[1], errors="replace"):
    m = re.match(r"^(0x[0-9a-f]+)@\S+ \[(0x[0-9a-f]+)\]: event: \d+$", l)
    if m:
        e = int(m.group(1), 16) + int(m.group(2), 16)
        if e <= c and e > best:
            best = e
print(best)
PY
)
	check "$cut" "$T/cut.data" cut
done

# Nothing after the header: 0 samples, still a report and exit 3.
head -c "$doff" "$T/full.data" >"$T/cut.data"
stop=$doff
check "$doff" "$T/cut.data" cut
assert_eq "0 address samples" "$(sed -n 2p "$T/out")" "empty data section"

# Cut before the data section: nothing can be read; refused as before.
head -c $((doff - 8)) "$T/full.data" >"$T/cut.data"
assert_exit 3 "cut before the data" "$HITMAP" report -i "$T/cut.data"
grep -q '^error: .* section (offset .*) past end of file' "$T/err" ||
	{ cat "$T/err" >&2; fail "cut before the data: message"; }

# A killed perf record: data size 0 in the header, records up to a cut.
cut=$(( $(sed -n "$((total / 2))p" "$T/ends") + 2 ))
head -c "$cut" "$T/full.data" >"$T/killed.data"
printf '\0\0\0\0\0\0\0\0' | dd of="$T/killed.data" bs=1 seek=48 conv=notrunc 2>/dev/null
stop=$((cut - 2))
check "$cut" "$T/killed.data" killed

# The whole file: no warning, exit 0, every sample.
assert_exit 0 "report, whole file" "$HITMAP" report -i "$T/full.data"
assert_eq "$total address samples" "$(sed -n 2p "$T/out")" "whole file"
[ -s "$T/err" ] && { cat "$T/err" >&2; fail "whole file: a diagnostic"; }
exit 0
