#!/bin/sh
# check, lint, diff and suggest read raw BTF as they read DWARF: the BTF is
# written by pahole (--btf_encode_detached) from the same build, and the
# findings must be the DWARF path's, except where BTF holds less: no symbol
# table (global rules are then skipped, and say so) and no declaration
# files.  Then the running kernel: with no BINARY, the commands read it
# (/sys/kernel/btf/vmlinux here) and say so.
. "$top_srcdir/tests/lib.sh"
require pahole dwarves
S=$TESTS_SRC/check
F=$TESTS_SRC/fixtures

# DWARF 4: pahole 1.24 cannot encode DWARF 5's _Atomic (DW_TAG_atomic_type),
# which DWARF 4 drops as well, so both paths see the same types.
build_fixture "$S/directives.c" "$T/d" gcc 4 -O0
build_fixture "$S/lint.c" "$T/l" gcc 4 -O0 -pthread
build_fixture "$F/mm_v1.c" "$T/v1" gcc 4 -O0
build_fixture "$F/mm_v2.c" "$T/v2" gcc 4 -O0
for b in d l v1 v2; do
	pahole --btf_encode_detached="$T/$b.btf" "$T/$b" >/dev/null 2>&1 ||
		fail "pahole --btf_encode_detached $b"
done

# findings without the global rules' (and the summary, which counts them)
no_globals() {
	awk '/^(error|warning|note): global / { skip = 1; next }
	     skip && /^  / { next }
	     { skip = 0 }
	     !/^hitmap check: /' "$1"
}
run() {	# run WHAT WANT-STATUS OUT ARGS...
	what=$1 want=$2 out=$3; shift 3
	assert_exit "$want" "$what" "$HITMAP" "$@"
	cp "$T/out" "$out"
}
for r in pass fail; do
	want=0; [ $r = fail ] && want=1
	run "check $r.rules (DWARF)" $want "$T/c-dw" check --rules "$S/$r.rules" "$T/d"
	run "check $r.rules (BTF)" $want "$T/c-btf" check --rules "$S/$r.rules" "$T/d.btf"
	no_globals "$T/c-dw" >"$T/c-dw.f"
	no_globals "$T/c-btf" >"$T/c-btf.f"
	assert_files_eq "$T/c-dw.f" "$T/c-btf.f" "check $r.rules: BTF vs DWARF"
	grep -q "^note: global [a-z_]*: not in this binary's symbol table (no symbol table)$" "$T/c-btf" ||
		fail "check $r.rules on BTF: a global rule is not reported skipped"
done
run "lint (DWARF)" 0 "$T/l-dw" lint "$T/l"
run "lint (BTF)" 0 "$T/l-btf" lint "$T/l.btf"
assert_files_eq "$T/l-dw" "$T/l-btf" "lint: BTF vs DWARF"
run "diff (DWARF)" 1 "$T/x-dw" diff "$T/v1" "$T/v2"
run "diff (BTF)" 1 "$T/x-btf" diff "$T/v1.btf" "$T/v2.btf"
python3 - "$T/x-dw" "$T/x-btf" <<'EOP' || fail "diff: BTF vs DWARF"
import re, sys
dw, btf = (open(p).read() for p in sys.argv[1:])
# only the column header names the inputs: 'v1 | v2' against 'v1.btf | v2.btf'
norm = lambda s: re.sub(r'^  \S+ +\| \S+$', 'LABELS', s, flags=re.M)
if norm(dw) != norm(btf):
    import difflib
    sys.stderr.writelines(difflib.unified_diff(norm(dw).splitlines(True), norm(btf).splitlines(True)))
    sys.exit(1)
EOP
run "suggest --lint (DWARF)" 0 "$T/s-dw" suggest -C L --lint "$T/l"
run "suggest --lint (BTF)" 0 "$T/s-btf" suggest -C L --lint "$T/l.btf"

# the running kernel, with no BINARY
k=/sys/kernel/btf/vmlinux
[ -r "/usr/lib/debug/boot/vmlinux-$(uname -r)" ] && k=/usr/lib/debug/boot/vmlinux-$(uname -r)
[ -r "$k" ] || skip "no /sys/kernel/btf/vmlinux on this kernel"
mm=$top_srcdir/rules/linux/mm.rules
set +e
"$HITMAP" check --rules "$mm" >"$T/k-default" 2>"$T/k-err"; a=$?
"$HITMAP" check --rules "$mm" "$k" >"$T/k-explicit" 2>/dev/null; b=$?
set -e 2>/dev/null; set +e
[ $a = $b ] && [ $a -le 1 ] || { cat "$T/k-err" >&2; fail "check with no BINARY: exit $a, explicit $b"; }
grep -q "^hitmap: no FILE: the running kernel, $k (" "$T/k-err" ||
	fail "check with no BINARY does not say which file: $(cat "$T/k-err")"
assert_files_eq "$T/k-explicit" "$T/k-default" "check: no BINARY vs $k"
"$HITMAP" lint -C mm_struct >"$T/kl-default" 2>/dev/null
"$HITMAP" lint -C mm_struct "$k" >"$T/kl-explicit" 2>/dev/null
assert_files_eq "$T/kl-explicit" "$T/kl-default" "lint: no BINARY vs $k"
assert_exit 0 "suggest with no BINARY" "$HITMAP" suggest -C mm_struct --lint
assert_exit 0 "diff of the running kernel with itself" "$HITMAP" diff -C mm_struct "$k"
exit 0
