#!/bin/sh
# bench/html.sh [VMLINUX]: how long hitmap's HTML pages take to draw in
# headless Chromium, against a budget (there is no other tool to compare
# with).  One line per measurement:
#   target measured budget ratio goal PASS|MISS
# measured: from navigation to the first frame after the page's script drew
# everything (the page's own performance.now(), read over the DevTools
# protocol by tests/html/cdp.py); budget 1000 ms; goal ratio <= 1.
#  - task_struct, plain and -E (every nested member), from VMLINUX (DWARF;
#    152 cachelines in Debian's 6.1) and from the running kernel's BTF;
#  - a report of 1000 lines (tests/perf/gen-c2c: 200 000 samples over 1000
#    lines; the page shows 50 lines a page).
# HITMAP overrides ./hitmap; GEN the generator's path.
set -u
here=$(cd "$(dirname "$0")" && pwd)
V=${1:-}
HITMAP=${HITMAP:-./hitmap}
GEN=${GEN:-${top_builddir:-$here/..}/tests/perf/gen-c2c}
BUDGET=1000
command -v chromium >/dev/null 2>&1 || { echo "chromium not installed (chromium)" >&2; exit 77; }
out=$(mktemp -d "${TMPDIR:-/tmp}/hitmap-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT

# page TARGET HTML: open it, print the line
page() {
	python3 "$here/../tests/html/cdp.py" "$(command -v chromium)" "$2" "$out/$1.cdp" ||
		{ echo "$1: chromium failed" >&2; return; }
	python3 - "$out/$1.cdp" "$1" "$BUDGET" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t, b = r["painted_ms"], float(sys.argv[3])
bad = r["console"] + r["requests"]
if not r["ready"] or t is None or bad:
    print("%s: page not drawn cleanly: %s" % (sys.argv[2], bad), file=sys.stderr)
    sys.exit(0)
print("%-34s %10dms %10dms %8.3f %8s %s" % (sys.argv[2], t, b, t / b, "1", "PASS" if t <= b else "MISS"))
print("  %s: script %d ms, page %d bytes" % (sys.argv[2], r["render_ms"], __import__("os").path.getsize(
    sys.argv[1].replace(".cdp", ".html"))))
PY
}

layout() {	# layout TARGET FILE [OPTIONS]
	t=$1 f=$2; shift 2
	HITMAP_NO_CACHE=${HITMAP_NO_CACHE:-} "$HITMAP" layout -C task_struct "$@" --html "$out/$t.html" "$f" \
		>/dev/null 2>&1 || { echo "$t: hitmap layout failed" >&2; return; }
	page "$t" "$out/$t.html"
}

if [ -n "$V" ] && [ -r "$V" ]; then
	layout html-task_struct-dwarf "$V"
	layout html-task_struct-dwarf-E "$V" -E
fi
if [ -r /sys/kernel/btf/vmlinux ]; then
	layout html-task_struct-btf /sys/kernel/btf/vmlinux
	layout html-task_struct-btf-E /sys/kernel/btf/vmlinux -E
fi
if [ -x "$GEN" ]; then
	"$GEN" -o "$out/r.data" -n 200000 --random 1000@0x601000 --cpus 8 \
		lcl-hitm:0:1:0 st-l1hit:0:1:1 rmt-hitm:0:1:2 l1hit:0:1:3 >/dev/null 2>&1 &&
		"$HITMAP" report --top 1000 -i "$out/r.data" --html "$out/html-report-1000.html" \
			>/dev/null 2>&1 &&
		page html-report-1000 "$out/html-report-1000.html"
else
	echo "report-1000: $GEN not built (make check builds it)" >&2
fi
