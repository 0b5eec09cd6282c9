#!/bin/sh
# examples/ci/gate.sh, the plain CI recipe: it builds the kernel-like
# examples/ci/src twice and gates on `hitmap diff`.  Removing has_pinned
# (remove-has_pinned.patch) must fail the gate naming both locks; appending
# a member at the end (add-locked_vm.patch) must pass.  The SARIF it can
# write validates like any other (see sarif.sh).  HITMAP may be relative.
. "$top_srcdir/tests/lib.sh"
require patch patch
E="$top_srcdir/examples/ci"
export HITMAP CC
assert_exit 1 "gate on remove-has_pinned.patch" sh "$E/gate.sh"
grep -q '^error: mm_struct: page_table_lock and mmap_lock now share cacheline 0' "$T/out" ||
	fail "the gate does not name page_table_lock and mmap_lock"
grep -q '^error: mm_struct: regression: mmap_lock and page_table_lock share cacheline 0' \
	"$T/out" || fail "the gate does not report the broken rule"
assert_exit 0 "gate on add-locked_vm.patch" sh "$E/gate.sh" "$E/add-locked_vm.patch"
assert_eq "hitmap diff: 0 errors, 0 warnings, 2 notes" "$(tail -1 "$T/out")" \
	"gate on add-locked_vm.patch"
SARIF="$T/gate.sarif" assert_exit 1 "gate with SARIF" sh "$E/gate.sh"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["version"] == "2.1.0"' \
	"$T/gate.sarif" || fail "gate SARIF"
# HITMAP as a relative path, from the folder it is relative to
hdir=$(dirname "$HITMAP")
(cd "$hdir" && HITMAP=./$(basename "$HITMAP") sh "$E/gate.sh") >"$T/rel.out" 2>&1
[ $? = 1 ] || { cat "$T/rel.out" >&2; fail "gate with a relative HITMAP: want exit 1"; }
grep -q '^error: mm_struct: page_table_lock and mmap_lock now share cacheline 0' \
	"$T/rel.out" || fail "gate with a relative HITMAP: $(cat "$T/rel.out")"
exit 0
