# Sourced by the suggest tests: the oracle for a proposal, and building a
# fixture and checking its proposals (fixture, suggest_built, below).  The
# oracle: apply the proposal's patch to a copy of the source tree, rebuild
# with the same compiler and flags, and `hitmap layout` of the rebuilt binary
# must equal, byte for byte, the layout `hitmap suggest --layout-only`
# predicted from the original binary.
#
# oracle K STRUCT SRCROOT MAIN BINARY "CC FLAGS" SUGGEST-ARGS...
#   SRCROOT: the tree the binary was built from (patch -p1 applies there)
#   MAIN: the file to compile, relative to SRCROOT
oracle() {
	k=$1; st=$2; root=$3; main=$4; bin=$5; ccf=$6; shift 6
	w="$T/oracle-$k"
	rm -rf "$w" && cp -R "$root" "$w" || fail "cannot copy $root"
	"$HITMAP" suggest "$@" --patch --source-root "$root" --proposal "$k" "$bin" \
		>"$w.diff" 2>"$w.err" || { cat "$w.err" >&2; fail "suggest --patch #$k"; }
	[ -s "$w.diff" ] || { cat "$w.err" >&2; fail "proposal #$k: empty patch"; }
	(cd "$w" && patch -s -p1 <"$w.diff") || fail "proposal #$k: patch does not apply"
	echo "+ (cd $w && $ccf -o rebuilt $main)" >&2
	(cd "$w" && $ccf -o rebuilt "$main") || fail "proposal #$k: patched source does not build"
	"$HITMAP" layout -C "$st" "$w/rebuilt" >"$w.actual" || fail "layout of the rebuild"
	"$HITMAP" suggest "$@" --proposal "$k" --layout-only "$bin" >"$w.predicted" ||
		fail "suggest --layout-only #$k"
	assert_files_eq "$w.predicted" "$w.actual" "proposal #$k ($ccf): rebuilt layout differs from the prediction"
}

# Proposal lines of a text report: rank and title, cost, remaining contention.
summary() {
	grep -E '^#[0-9]|^   cost:|^   remaining contention:' "$1"
}

# fixture FILE...: tests/suggest/FILE... copied into $T/src/tests/suggest,
# the tree the fixtures are built in and their patches apply to.
fixture() {
	mkdir -p "$T/src/tests/suggest"
	for f; do
		cp "$TESTS_SRC/suggest/$f" "$T/src/tests/suggest/" || fail "cannot copy $f"
	done
}

# suggest_built BINARY "CC FLAGS" MAIN SUGGEST-ARGS...: MAIN (relative to
# $T/src) built as BINARY, then `hitmap suggest SUGGEST-ARGS BINARY` into
# $T/out, whose proposals must be $T/expected.  Skips without the compiler.
suggest_built() {
	bin=$1 ccf=$2 main=$3; shift 3
	cc=${ccf%% *}
	command -v "$cc" >/dev/null || skip "$cc not installed (Debian package $cc)"
	echo "+ (cd $T/src && $ccf -o $bin $main)" >&2
	(cd "$T/src" && $ccf -o "$bin" "$main") || fail "cannot build $main"
	assert_exit 0 "suggest $main ($cc)" "$HITMAP" suggest "$@" "$bin"
	summary "$T/out" >"$T/summary"
	assert_files_eq "$T/expected" "$T/summary" "proposals of $main ($cc)"
}
