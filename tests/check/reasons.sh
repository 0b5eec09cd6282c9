#!/bin/sh
# What check says besides the verdict, on reasons.c (offsets in its header,
# confirmed here by the compiler's own offsetof): each failing rule prints
# the comment block above it (reasons.expected; a comment followed by a blank
# line or above a struct block is no rule's reason); `alone` names the members
# sharing the line at offset 0 first and the worst placement's apart, and
# `placement line-aligned` leaves only offset 0; a group spanning two lines
# says both; SARIF names a declaration from --source-root when the build
# folder (here a -fdebug-prefix-map prefix) is not the source tree.
. "$top_srcdir/tests/lib.sh"
require clang clang
require python3 python3
S="$top_srcdir/tests/check"
cd "$S" || exit 1
gcc -DOFFSETS -o "$T/off" reasons.c || fail "cannot build reasons.c -DOFFSETS"
"$T/off" >"$T/offsets"
printf 'conn 8 96 hits 56 flags 64 stamp 80\nring 128 hot 8-87\n' >"$T/want"
assert_files_eq "$T/want" "$T/offsets" "the compiler's offsets"
for cc in gcc clang; do
	for dw in 4 5; do
		what="$cc -gdwarf-$dw"
		build_fixture "$S/reasons.c" "$T/r" $cc $dw -O0
		assert_exit 1 "$what: reasons.rules" "$HITMAP" check --rules reasons.rules "$T/r"
		assert_files_eq "$S/reasons.expected" "$T/out" "$what: reasons.rules"
		assert_exit 0 "$what: groups" "$HITMAP" check -C ring "$T/r"
		printf '%s\n' 'note: ring: group hot: bytes 8-87 (80), cachelines 0-1' \
			'hitmap check: 0 errors, 0 warnings, 1 note' >"$T/want"
		assert_files_eq "$T/want" "$T/out" "$what: a group over two lines"
	done
done

# The same declaration seen from a build folder that is not the source tree.
mkdir -p "$T/src/lib" "$T/obj"
cp reasons.c "$T/src/lib/" || fail "cannot copy reasons.c"
(cd "$T/src" && gcc -g -O0 -fdebug-prefix-map="$T/src=/build/prefix/obj" \
	-o "$T/obj/r" lib/reasons.c) || fail "cannot build lib/reasons.c"
assert_exit 1 "sarif" "$HITMAP" check --sarif --rules reasons.rules "$T/obj/r"
mv "$T/out" "$T/plain.sarif"
assert_exit 1 "sarif --source-root" "$HITMAP" check --sarif --source-root "$T/src" \
	--rules reasons.rules "$T/obj/r"
mv "$T/out" "$T/root.sarif"
python3 - "$T" <<'PY' || fail "SARIF locations"
import json, os, sys
t = sys.argv[1]
def locs(n):
    with open(os.path.join(t, n)) as f:
        run = json.load(f)["runs"][0]
    return run, [r["locations"][0]["physicalLocation"]["artifactLocation"]
                 for r in run["results"]]
run, plain = locs("plain.sarif")
assert "originalUriBaseIds" not in run
assert all(a == {"uri": "file:///build/prefix/obj/lib/reasons.c"} for a in plain), plain
run, rooted = locs("root.sarif")
assert all(a == {"uri": "lib/reasons.c", "uriBaseId": "SRCROOT"} for a in rooted), rooted
root = "file://" + os.path.realpath(os.path.join(t, "src")) + "/"
assert run["originalUriBaseIds"] == {"SRCROOT": {"uri": root}}, run["originalUriBaseIds"]
rel = run["results"][0]["relatedLocations"][0]["physicalLocation"]["artifactLocation"]
assert rel == {"uri": "reasons.rules"}, rel
reason = run["results"][0]["properties"]["reason"]
assert reason.startswith("hits is written on every request"), reason
PY
exit 0
