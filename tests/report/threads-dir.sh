#!/bin/sh
# perf record --threads: a perf.data directory whose DIR/data holds the
# header and perf's own records and DIR/data.0, data.1 ... one ring buffer's
# records each.  Real recordings on this machine:
# - page faults (-e page-faults -d -c 1) of tests/report/threads-dir.c, four
#   threads on different CPUs writing one field each of g_pages, every field
#   on a page of its own: the program prints the fields' addresses and sizes
#   (ASLR off), perf script -i DIR gives every sample's address, and each
#   field's samples in the report are those perf script puts inside it; the
#   total is perf script's; the text and JSON reports equal those of the same
#   program recorded without --threads (thread ids renamed by order), as
#   does that of a compressed one (-z: a zstd stream per file);
# - hardware watchpoints on the seed program's false sharing, where the
#   order of the accesses across CPUs makes the transfers: samples, reads,
#   writes and transfers per field equal watch-oracle.py over perf script;
# - bad directories: a data.N cut inside a record, a missing data.N, a
#   stream name that is no data.N, the main file read alone: exit 3 and one
#   line naming the file (and offset), no report.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require setarch util-linux
perf record --help 2>/dev/null | grep -q -- '--threads' ||
	skip "this perf has no record --threads"
NORAND="setarch $(uname -m) -R"

# rec OUT ARGS... -- CMD: perf record into OUT, or skip if the kernel refuses.
rec() {
	out=$1; shift
	rm -rf "$out"
	if ! untrapped $NORAND perf record -q -o "$out" "$@" >"$T/rec.out" 2>"$T/rec.err"; then
		grep -qi "not supported\|permission\|no such device\|Operation not" "$T/rec.err" &&
			skip "the kernel refuses the event: $(head -1 "$T/rec.err")"
		cat "$T/rec.err" >&2
		fail "perf record $*"
	fi
}

# norm FILE PERFDATA: FILE with the recording's thread ids renamed T1, T2 ...
# in the order perf script first shows them, and its input named IN.
norm() {
	perf script -i "$2" -F tid 2>/dev/null >"$T/tids"
	python3 - "$1" "$T/tids" "$2" <<'PY'
import re, sys
text = open(sys.argv[1]).read().replace(sys.argv[3], "IN")
order = []
for l in open(sys.argv[2]):
    t = l.split()[0]
    if t not in order:
        order.append(t)
for i, t in enumerate(order):
    text = re.sub(r"\b%s\b" % t, "T%d" % (i + 1), text)
sys.stdout.write(text)
PY
}

for cc in gcc clang; do
	require $cc $cc
	build_fixture "$RSRC/threads-dir.c" "$T/td" $cc 5 -O1 -pthread -fPIE -pie -I "$RSRC"
	rec "$T/pf.d" --threads -e page-faults -d -c 1 -- "$T/td"
	cp "$T/rec.out" "$T/fields"
	[ -d "$T/pf.d" ] && [ -f "$T/pf.d/data" ] && [ -f "$T/pf.d/data.0" ] ||
		fail "$cc: perf record --threads wrote no data.N: $(ls "$T/pf.d")"
	# a data.N is a raw stream: records from offset 0, no perf.data header
	head -c 8 "$T/pf.d/data.0" | grep -q PERFILE && fail "data.0 has a perf.data header"
	perf script -i "$T/pf.d" -F addr 2>/dev/null | awk '{ print $1 }' >"$T/addrs"
	"$HITMAP" report -i "$T/pf.d" --json >"$T/pf.json" 2>"$T/pf.err" ||
		{ cat "$T/pf.err" >&2; fail "$cc: report of the directory"; }
	assert_eq "$(wc -l <"$T/addrs")" "$(jq_py "$T/pf.json" "d['samples']")" \
		"$cc: samples, perf script's"
	while read -r name addr size; do
		want=$(python3 -c "import sys
lo, n = int(sys.argv[2], 16), int(sys.argv[3])
print(sum(1 for l in open(sys.argv[1]) if lo <= int(l, 16) < lo + n))" "$T/addrs" $addr $size)
		[ "$want" -ge 1 ] || fail "$cc: perf saw no fault on g_pages.$name"
		assert_eq "$want" "$(jq_py "$T/pf.json" "field('g_pages.$name')['counts']['samples']")" \
			"$cc: faults on g_pages.$name"
		assert_eq "$(($addr))" "$(jq_py "$T/pf.json" "field('g_pages.$name')['address']")" \
			"$cc: address of g_pages.$name"
	done <"$T/fields"
	# every sample inside g_pages is in one of its fields
	lo=$(awk '$1 == "first" { print $2 }' "$T/fields")
	inside=$(python3 -c "import sys
lo = int(sys.argv[2], 16)
print(sum(1 for l in open(sys.argv[1]) if lo <= int(l, 16) < lo + 3 * 4096 + 32))" "$T/addrs" $lo)
	assert_eq "$inside" "$(jq_py "$T/pf.json" "sum(f['counts']['samples'] for l in d['lines'] for f in l['fields'] if f['object'] == 'g_pages')")" \
		"$cc: samples in g_pages"
	# the same program recorded into one file: the same report
	rec "$T/pf.data" -e page-faults -d -c 1 -- "$T/td"
	"$HITMAP" report -i "$T/pf.data" --json >"$T/one.json" || fail "$cc: report of the file"
	"$HITMAP" report -i "$T/pf.data" >"$T/one.txt" || fail "$cc: text report of the file"
	"$HITMAP" report -i "$T/pf.d" >"$T/pf.txt" || fail "$cc: text report of the directory"
	for f in one.json one.txt; do
		norm "$T/$f" "$T/pf.data" >"$T/$f.n"
	done
	norm "$T/pf.json" "$T/pf.d" >"$T/pf.json.n"
	norm "$T/pf.txt" "$T/pf.d" >"$T/pf.txt.n"
	assert_files_eq "$T/one.json.n" "$T/pf.json.n" "$cc: --json, one file and --threads"
	assert_files_eq "$T/one.txt.n" "$T/pf.txt.n" "$cc: text, one file and --threads"
	# compressed (-z): each stream is a zstd stream of its own
	[ $cc = gcc ] || continue
	rec "$T/z.d" --threads -z -e page-faults -d -c 1 -- "$T/td"
	"$HITMAP" report -i "$T/z.d" --json >"$T/z.json" || fail "report of the -z directory"
	norm "$T/z.json" "$T/z.d" >"$T/z.json.n"
	assert_files_eq "$T/one.json.n" "$T/z.json.n" "--json, one file and --threads -z"
done

# bad DIR PATTERN WHAT: exit 3, one line matching PATTERN, no report
bad() {
	"$HITMAP" report -i "$1" >"$T/bad.out" 2>"$T/bad.err"
	rc=$?
	echo "$3: exit $rc: $(cat "$T/bad.err")"
	[ $rc = 3 ] && [ "$(wc -l <"$T/bad.err")" = 1 ] && grep -q -- "$2" "$T/bad.err" &&
		[ ! -s "$T/bad.out" ] || fail "$3: want exit 3, one line matching '$2', no report"
}
D=$T/pf.d
n=$(ls "$D" | grep -c '^data\.[0-9]')
big=$(ls -S "$D" | grep '^data\.[0-9]' | head -1)
size=$(stat -c %s "$D/$big")
# cut 4 bytes into the last record: the stream ends inside it
rm -rf "$T/cut" && cp -r "$D" "$T/cut" && truncate -s $((size - 4)) "$T/cut/$big"
bad "$T/cut" "$T/cut/$big: truncated record at offset 0x[0-9a-f]* (need [0-9]* bytes, have [0-9]*)" \
	"$big cut inside a record"
truncate -s 4 "$T/cut/$big"
bad "$T/cut" "$T/cut/$big: truncated record header at offset 0x0 (need 8 bytes, have 4)" \
	"$big cut inside its first header"
if [ $n -ge 2 ]; then
	rm -rf "$T/miss" && cp -r "$D" "$T/miss" && rm "$T/miss/data.0"
	bad "$T/miss" "$T/miss/data.0: missing: the directory holds data.0 to data.$((n - 1))" \
		"data.0 missing"
fi
rm -rf "$T/odd" && cp -r "$D" "$T/odd" && : >"$T/odd/data.old"
bad "$T/odd" "$T/odd/data.old: not a stream of the recording" "data.old beside"
rm -rf "$T/none" && cp -r "$D" "$T/none" && rm "$T/none"/data.[0-9]*
bad "$T/none" "$T/none/data: no data.N stream in the directory, which its DIR_FORMAT feature (version 1 at offset 0x[0-9a-f]*) says holds them" \
	"no data.N"
bad "$D/data" "$D/data: the main file of a perf.data directory (DIR_FORMAT version 1 at offset 0x[0-9a-f]*): the samples are in data.N beside it; read the directory" \
	"the main file alone"
rm -rf "$T/whole" && cp -r "$D" "$T/whole" && cp "$T/pf.data" "$T/whole/data.0"
bad "$T/whole" "$T/whole/data.0: a perf.data file (its header at offset 0x0)" \
	"a perf.data file as data.0"
# Watchpoints on the seed's false sharing, last since they skip where
# watchpoints do not fire: each worker on its CPU, so each CPU's stream holds
# one worker's accesses, whose order across the streams makes the transfers.
require_watchpoints
build_seed gcc "$T/seed"
A=$(hex $(($PIE_BASE + $(sym_addr "$T/seed" g_stats))))
B=$(hex $(($A + 8)))
rec "$T/fs.d" --threads --sample-cpu -e mem:$A:rw -e mem:$B:rw -- "$T/seed" false 2000
"$HITMAP" report -i "$T/fs.d" --json >"$T/fs.json" || fail "report fs.d"
watch_compare "$T/fs.d" "$T/fs.json"
assert_eq "false sharing" "$(jq_py "$T/fs.json" "line('g_stats')[0]['verdict']")" "fs.d verdict"
exit 0
