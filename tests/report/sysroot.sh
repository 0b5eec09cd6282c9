#!/bin/sh
# --sysroot: the files a recording names are looked up under DIR.  A real
# page-fault recording of the seed program (see pagefault.sh) is reported
# three ways; the plain report is the oracle for the counts:
#  - the binary moved under SYSROOT at its recorded path: the same counts;
#  - an empty SYSROOT: no sample is attributed to g_big, they land in the
#    no-binary bucket instead (the mapped file is missing there);
#  - a recorded name with a ".." component is never opened under SYSROOT.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require gcc gcc

build_seed gcc "$T/seed"
if ! perf record -q -d -c 1 -e page-faults -o "$T/pf.data" -- "$T/seed" touch \
	>"$T/rec.out" 2>"$T/rec.err"; then
	grep -qi "not supported\|permission" "$T/rec.err" &&
		skip "the kernel refuses the page-faults event: $(head -1 "$T/rec.err")"
	cat "$T/rec.err" >&2
	fail "perf record failed"
fi
count() {	# count JSON FIELD: samples attributed to the field, 0 if none
	jq_py "$1" "(field('$2') or {'counts': {'samples': 0}})['counts']['samples']"
}
"$HITMAP" report -i "$T/pf.data" --json >"$T/plain.json" 2>/dev/null || fail "plain report"
want=$(count "$T/plain.json" g_big.a)
[ "$want" -ge 1 ] || fail "the plain report attributes no fault to g_big.a"
nobin=$(jq_py "$T/plain.json" "d['buckets']['no-binary']")

mkdir -p "$T/root$T" "$T/empty"
mv "$T/seed" "$T/root$T/seed"
"$HITMAP" report -i "$T/pf.data" --sysroot "$T/root" --json >"$T/root.json" 2>/dev/null ||
	fail "report --sysroot"
assert_eq "$want" "$(count "$T/root.json" g_big.a)" "g_big.a faults with the binary under --sysroot"

"$HITMAP" report -i "$T/pf.data" --sysroot "$T/empty" --json >"$T/empty.json" 2>/dev/null ||
	fail "report --sysroot (empty)"
assert_eq 0 "$(count "$T/empty.json" g_big.a)" "g_big.a with an empty --sysroot"
got=$(jq_py "$T/empty.json" "d['buckets']['no-binary']")
[ "$got" -gt "$nobin" ] || fail "an empty --sysroot moves no sample to no-binary ($got vs $nobin)"

# A recorded name that climbs out of the sysroot: "/x/../seed" would reach
# $T/root$T/seed's twin at $T/root/seed if joined blindly; it must stay unopened.
cp "$T/root$T/seed" "$T/root/seed"
dot=$(python3 - "$T/pf.data" "$T/seed" "$T/dot.data" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
old = sys.argv[2].encode()
new = b'/' + b'x' * (len(old) - 9) + b'/../seed'	# same length as old
assert len(new) == len(old)
open(sys.argv[3], 'wb').write(data.replace(old + b'\0', new + b'\0'))
print(new.decode())
PY
) || fail "cannot rewrite the mmap name"
mkdir -p "$T/root${dot%/../seed}"
[ -f "$T/root$dot" ] || fail "the '..' name does not resolve under the sysroot"
"$HITMAP" report -i "$T/dot.data" --sysroot "$T/root" --json >"$T/dot.json" 2>/dev/null ||
	fail "report --sysroot with a '..' name"
assert_eq 0 "$(count "$T/dot.json" g_big.a)" "a '..' name under --sysroot is not opened"
exit 0
