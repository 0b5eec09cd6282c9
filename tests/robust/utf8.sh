#!/bin/sh
# Valid JSON always (issue 30, item 4).  A fixture whose source file name and
# whose struct and field names (its .debug_str bytes patched) hold bytes that
# are not UTF-8, and a perf.data whose file name holds one: layout --json,
# report --json and --save-profile are valid JSON for python3's json (each
# such byte is the escape \udcXX, XX the byte, as Python's surrogateescape
# spells it), a warning says so, and the profile hitmap wrote is read back:
# a load -> save round trip is byte-identical, and layout --profile finds
# the patched names in it (python3 decodes them to the same bytes).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/robust/lib-robust.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require python3
RT="$top_builddir/tests/report/profile-rt"
[ -x "$GEN" ] && [ -x "$RT" ] || fail "gen-c2c / profile-rt not built"
cd "$T" || exit 1
src=$(printf 'n\377u.c')
cat >"$src" <<'C'
struct zzstats {
	long zzhits;
	long misses;
	char zzbuf[40];
};
struct zzstats g_stats;
int main(void) { g_stats.zzhits++; return (int)g_stats.misses; }
C
$CC -g -O1 -fPIE -pie -o prog "$src" || fail "cannot compile a file named n\\377u.c"
# the names in .debug_str: zzstats -> z\377stats, zzhits -> z\376hits
python3 - prog <<'PY' || fail "cannot patch the names"
import sys
b = open(sys.argv[1], "rb").read()
for a, c in ((b"zzstats\0", b"z\xffstats\0"), (b"zzhits\0", b"z\xfehits\0")):
    assert b.count(a) >= 1, a
    b = b.replace(a, c)
open(sys.argv[1], "wb").write(b)
PY
# check_json FILE KEYS...: FILE is JSON; the Python expression holds
check_json() {
	python3 - "$1" "$2" <<'PY' || { head -c 600 "$1" >&2; fail "$1: not valid JSON or $2"; }
import json, sys
with open(sys.argv[1], "rb") as f:
    raw = f.read()
raw.decode("utf-8")                  # strict: every byte is UTF-8
d = json.loads(raw)
name = lambda b: b.decode("utf-8", "surrogateescape")
assert eval(sys.argv[2]), sys.argv[2]
PY
}
warn='^warning: .*strings? of the JSON output hold bytes that are not UTF-8: each such byte written as the escape \\udcXX \(XX the byte\), which hitmap reads back as the byte$'

run_hm layout --json prog
[ "$rc" = 0 ] || { cat err >&2; fail "layout --json: exit $rc"; }
cp out layout.json
check_json layout.json "[s for s in d['structs'] if s['name'] == name(b'z\xffstats') and s['decl_file'].endswith(name(b'n\xffu.c')) and s['members'][0]['name'] == name(b'z\xfehits')]"
grep -Eq "$warn" err || { cat err >&2; fail "layout --json: no warning about the bytes"; }

st=$(($PIE_BASE + $(sym_addr prog g_stats)))
data=$(printf 'c2c\375.data')
gen -o "$data" --pid 4242 --ip $(hex $(($PIE_BASE + 0x1200))) \
	--mmap $(hex $PIE_BASE),0x10000,0,"$T/prog" \
	lcl-hitm:$(hex $st):5:0:101 st-l1hit:$(hex $st):3:0:101 \
	rmt-hitm:$(hex $((st + 8))):4:1:102 st-l1miss:$(hex $((st + 8))):2:1:102 >/dev/null ||
	fail "gen-c2c"
run_hm report -i "$data" --json --save-profile p.json
[ "$rc" = 0 ] || { cat err >&2; fail "report: exit $rc"; }
cp out report.json
check_json report.json "d['input'] == name(b'c2c\xfd.data') and d['samples'] == 14"
check_json p.json "d['source']['input'] == name(b'c2c\xfd.data') and d['structs'][0]['name'] == name(b'z\xffstats') and d['structs'][0]['fields'][0]['path'] == name(b'z\xfehits')"
grep -Eq "$warn" err || { cat err >&2; fail "report: no warning about the bytes"; }

# the profile is read back, and saved again unchanged
"$RT" p.json p2.json || fail "profile-rt: hitmap cannot read its own profile"
assert_files_eq p.json p2.json "profile round trip"
# its names are the binary's: layout --profile shows the heat of z\376hits
run_hm layout --profile p.json prog
[ "$rc" = 0 ] || { cat err >&2; fail "layout --profile: exit $rc"; }
grep -q "$(printf 'heat z\376hits: hitm 5 st 3 cpus 1')" out ||
	{ cat out err >&2; fail "layout --profile: the patched field has no heat"; }
run_hm check --profile p.json prog
[ "$rc" = 0 ] || [ "$rc" = 1 ] || { cat err >&2; fail "check --profile: exit $rc"; }
exit 0
