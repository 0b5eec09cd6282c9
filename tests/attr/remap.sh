#!/bin/sh
# A library loaded twice in one process at two addresses (dlopen, dlclose,
# its first range kept taken, dlopen again: tests/attr/remap.c) on a
# page-fault recording: each load has its own bias, from its own mapping
# at file offset 0, and RELRO's read-only remap of a page does not move
# it.  Oracles: the program's printout (objects, offsetof) against perf
# script's addresses (tests/attr/judge.py: every sample of the library
# named right, in both loads), and perf script's symbol for every IP
# hitmap places in the library.
. "$top_srcdir/tests/lib.sh"
require perf linux-perf
require taskset util-linux
ASRC="$top_srcdir/tests/attr"

for cc in gcc clang; do
	require $cc $cc
	lib="$T/libremap-$cc.so"
	build_fixture "$ASRC/remaplib.c" "$lib" $cc 5 -O2 -fPIC -shared
	build_fixture "$ASRC/remap.c" "$T/remap-$cc" $cc 5 -O2 -ldl
	if ! taskset -c 0 perf record -q -d -c 1 -e page-faults -o "$T/pf.data" -- \
		"$T/remap-$cc" "$lib" >"$T/out" 2>"$T/rec.err"; then
		grep -qi "not supported\|permission" "$T/rec.err" &&
			skip "the kernel refuses the page-faults event: $(head -1 "$T/rec.err")"
		cat "$T/rec.err" >&2
		fail "perf record failed"
	fi
	loads=$(grep -c '^load ' "$T/out")
	[ "$loads" = 2 ] || fail "$cc: $loads loads printed, want 2"
	[ "$(grep '^load ' "$T/out" | sort -u | wc -l)" = 2 ] ||
		fail "$cc: the library was loaded twice at one address: nothing to test"
	perf script -i "$T/pf.data" -F addr,ip,sym,symoff,dso >"$T/script" 2>/dev/null
	"$HITMAP" report -i "$T/pf.data" --json --top 100000 >"$T/r.json" 2>"$T/r.err" ||
		{ cat "$T/r.err" >&2; fail "$cc: report"; }
	python3 "$ASRC/judge.py" --out "$T/out" --script "$T/script" --bin "$lib" \
		--hitmap "$T/r.json" --check -v >"$T/judge" ||
		{ cat "$T/judge" >&2; fail "$cc: samples named wrong or left unnamed"; }
	cat "$T/judge"
	n=$(awk '$1 == "hitmap" { print $3 }' "$T/judge")
	[ "$n" -ge 800 ] || fail "$cc: $n samples named right, want 800"
	# every IP of the library's rows: the function perf script names
	python3 - "$T/script" "$T/r.json" "$lib" <<'PY' || fail "$cc: a location differs from perf script's symbol"
import json, re, sys
script, rep, lib = sys.argv[1:]
sym = {}
for line in open(script):
    m = re.match(r"^.*\s([0-9a-f]+)\s+(\S+)\s+\(([^)]*)\)\s*$", line)
    if m and m.group(3) == lib:
        sym[int(m.group(1), 16)] = m.group(2)
seen = bad = 0
for l in json.load(open(rep))["lines"]:
    for f in l["fields"]:
        for loc in f["locations"]:
            want = sym.get(loc["ip"])
            if want is None:
                continue
            seen += 1
            got = loc["location"].split()[0]
            if got != want:
                bad += 1
                print("ip 0x%x: hitmap %s, perf script %s" % (loc["ip"], got, want))
print("locations checked %d, differing %d" % (seen, bad))
sys.exit(1 if bad or seen < 2 else 0)
PY
done
