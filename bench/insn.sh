#!/bin/sh
# Attribution by instruction on the user-space fixtures: the share of
# samples inside the fixtures' own objects that hitmap names, and names
# right, from real page-fault recordings (perf record -d -c 1 -e
# page-faults) of tests/report/heap.c (heap, mmap and stack objects, an
# array indexed by a register) built with gcc and clang at -O2 and -O3, and
# watchpoint recordings of tests/report/tls.c (__thread variables).  The
# truth is each fixture's printout (addresses, offsetof, sizeof).  Prints
#   target measured anchor ratio goal PASS|MISS
# (anchor: perf data-type profiling's published 73 % resolution) and, per
# build, the buckets of the fixture's own samples.
#   bench/insn.sh [VMLINUX]     (VMLINUX unused: the user-space fixtures)
set -u
here=$(cd "$(dirname "$0")" && pwd)
src="$here/../tests/report"
HITMAP=${HITMAP:-$here/../hitmap}
for t in perf gcc clang python3 setarch; do
	command -v $t >/dev/null 2>&1 || { echo "bench/insn.sh: $t not installed" >&2; exit 0; }
done
T=$(mktemp -d "${TMPDIR:-/tmp}/hitmap-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

# score OUT ADDRS JSON BIN[,BIN]: "in-objects named-right wrong" for the
# samples of the BINs' code, then the recording's buckets.
score() {
	python3 - "$@" <<'PY'
import json, re, sys
out, addrs, rep, binary = sys.argv[1:5]
fields, sizes, objs = {}, {}, []
for l in open(out):
    w = l.split()
    if w[0] == "field":
        s, f = w[1].split(".", 1)
        fields.setdefault(s, []).append((f, int(w[2]), int(w[3])))
    elif w[0] == "size":
        sizes[w[1]] = int(w[2])
    elif w[0] == "object":
        objs.append((w[1], int(w[2], 16), "%s@0x%x" % (w[1], int(w[2], 16)), None))
    elif w[0] in ("stack", "tls"):
        objs.append((w[1], int(w[2], 16), w[3], w[3].split(":")[0] if w[0] == "stack" else None))
want = {}
for l in open(addrs):
    w = l.split()
    if w[-1].strip("()") not in binary.split(","):
        continue
    a, func = int(w[0], 16), w[-2].split(".")[0]
    for s, base, name, fn in objs:
        if fn and fn != func:
            continue
        if base <= a < base + sizes[s]:
            f = [n for n, o, z in fields[s] if o <= a - base < o + z]
            k = (name, f[0] if f else "(padding)")
            want[k] = want.get(k, 0) + 1
            break
d = json.load(open(rep))
got = {}
for l in d["lines"]:
    for f in l["fields"]:
        if f["strategy"] in ("instruction", "tls", "per-cpu"):
            k = (f["object"], re.sub(r"\[\d+\]", "", f["path"]))
            k = (k[0], k[1].split(".")[0] if k[0].startswith("slot@") else k[1])
            got[k] = got.get(k, 0) + f["counts"]["samples"]
right = sum(min(n, got.get(k, 0)) for k, n in want.items())
wrong = sum(max(0, n - want.get(k, 0)) for k, n in got.items()
            if any(k[0] == o[2] for o in objs))
print(sum(want.values()), right, wrong)
print(" ".join("%s=%d" % (k, v) for k, v in sorted(d["buckets"].items()) if v))
PY
}

tot=0; ok=0; bad=0
for cc in gcc clang; do
	for opt in -O2 -O3; do
		b="$T/heap$cc$opt"
		$cc -g "$opt" -o "$b" "$src/heap.c" "$src/heap-dup.c" 2>/dev/null || continue
		perf record -q -d -c 1 -e page-faults -o "$T/pf.data" -- "$b" >"$T/out" 2>/dev/null ||
			{ echo "bench/insn.sh: perf record refused" >&2; exit 0; }
		perf script -i "$T/pf.data" -F ip,sym,addr,dso >"$T/addrs" 2>/dev/null
		"$HITMAP" report -i "$T/pf.data" --json --top 100000 >"$T/r.json" 2>/dev/null
		score "$T/out" "$T/addrs" "$T/r.json" "$b" >"$T/score"
		set -- $(head -1 "$T/score")
		tot=$((tot + $1)); ok=$((ok + $2)); bad=$((bad + $3))
		echo "# heap $cc $opt: $2 of $1 named right, $3 wrong; buckets $(tail -1 "$T/score")"
	done
	# __thread variables, by watchpoints on the main thread's
	d="$T/tls$cc"
	mkdir -p "$d"
	$cc -g -O2 -fPIC -shared -o "$d/libtls.so" "$src/tls-lib.c" 2>/dev/null &&
		$cc -g -O2 -o "$d/tls" "$src/tls.c" -L"$d" -ltls -Wl,-rpath,"$d" 2>/dev/null || continue
	setarch -R "$d/tls" 1 >"$T/out1"
	at() {
		x=$(awk -v n="tls:$1" '$1 == "tls" && $4 == n { print $3 }' "$T/out1")
		printf '0x%x/8' $((x + $2))
	}
	"$HITMAP" record -q --watch "$(at st 8):w" --watch "$(at libst 8):w" -o "$T/w.data" -- \
		setarch -R "$d/tls" 40 >"$T/out2" 2>/dev/null || continue
	perf script -i "$T/w.data" -F ip,sym,addr,dso >"$T/addrs" 2>/dev/null
	"$HITMAP" report -i "$T/w.data" --json --top 100000 >"$T/r.json" 2>/dev/null
	score "$T/out2" "$T/addrs" "$T/r.json" "$d/tls,$d/libtls.so" >"$T/score"
	set -- $(head -1 "$T/score")
	tot=$((tot + $1)); ok=$((ok + $2)); bad=$((bad + $3))
	echo "# tls $cc -O2 (executable and library): $2 of $1 named right, $3 wrong;" \
		"buckets $(tail -1 "$T/score")"
done
[ "$tot" -gt 0 ] || { echo "bench/insn.sh: no samples in objects" >&2; exit 0; }
python3 -c "import sys
tot, ok, bad = map(int, sys.argv[1:4])
r = 100.0 * ok / tot
print('%-34s %11.1f%% %11.1f%% %8.2f %8s %s' % ('insn: fixture objects named', r, 73.0, r / 73.0,
      '>=95%', 'PASS' if r >= 95 else 'MISS'))
print('%-34s %12d %12s %8s %8s %s' % ('insn: wrong fields', bad, '-', '-', '0', 'PASS' if bad == 0 else 'MISS'))" \
	$tot $ok $bad
