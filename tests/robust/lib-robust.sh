# Helpers for the error-contract tests.  Sourced after tests/lib.sh.
#
# The contract (issue 8, README "exit status"): malformed input gives exit 3,
# exactly one error line on stderr, "error: FILE: ... at offset 0x..", after
# at most some notes or warnings, nothing on stdout (no partial result that could
# pass for a complete one), and never a crash or a hang: every command runs
# under `timeout`, so a loop that stops consuming input fails the test.
TMO=${HM_ROBUST_TIMEOUT:-10}

# tests/lib.sh has made HITMAP the real binary, not libtool's wrapper.
HM_RUN=$HITMAP

# run_hm CMD...: runs hitmap under timeout; $T/out, $T/err, $rc.
run_hm() {
	set +e
	timeout "$TMO" "$HM_RUN" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	set +e
	[ "$rc" = 124 ] && fail "hitmap $*: no answer within ${TMO}s (a hang)"
	[ "$rc" -ge 128 ] && { cat "$T/err" >&2; fail "hitmap $*: killed by signal $((rc - 128))"; }
	return 0
}

# expect_err3 PATTERN CMD...: exit 3, one stderr line starting "error: " and
# matching PATTERN (an extended regexp), stdout empty.
expect_err3() {
	pat=$1; shift
	run_hm "$@"
	[ "$rc" = 3 ] || { cat "$T/err" >&2; fail "hitmap $*: exit $rc, want 3"; }
	# Notes printed while streaming (a pipe is read once) may come first;
	# the error is one line, and the last.  One awk: this runs hundreds of
	# times.  PATTERN is used as an extended regexp here.
	why=$(awk -v pat="$pat" '
		/^error: / { nerr++ }
		!/^(error|warning|note): / { other = 1 }
		{ last = $0 }
		END {
			if (nerr != 1) print "want one error line"
			else if (other) print "a stderr line that is no diagnostic"
			else if (last !~ /^error: /) print "the error is not the last line"
			else if (last !~ pat) print "the message does not match: " pat
		}' "$T/err")
	[ -z "$why" ] || { cat "$T/err" >&2; fail "hitmap $*: $why"; }
	[ -s "$T/out" ] && { head -5 "$T/out" >&2; fail "hitmap $*: output on stdout despite the error"; }
	return 0
}

# leak_check CMD...: the command under valgrind: no leak, no invalid access.
# Its exit status is not checked here (valgrind's own is 9 on a finding).
leak_check() {
	command -v valgrind >/dev/null 2>&1 || { echo "valgrind not installed (Debian package valgrind): leak check skipped" >&2; return 0; }
	# A sanitizer build cannot run under valgrind.
	if nm "$top_builddir/.libs/libhitmap.so" "$top_builddir/.libs/hitmap" "$top_builddir/hitmap" 2>/dev/null |
	   grep -q __asan_init; then
		echo "sanitizer build: leak check left to ASan" >&2
		return 0
	fi
	set +e
	timeout 120 valgrind -q --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite,indirect --error-exitcode=9 \
		"$HM_RUN" "$@" >/dev/null 2>"$T/vg.err"
	vrc=$?
	set +e
	[ "$vrc" = 9 ] && { head -40 "$T/vg.err" >&2; fail "valgrind: hitmap $*: leak or invalid access"; }
	[ "$vrc" = 124 ] && fail "valgrind: hitmap $*: timed out"
	return 0
}

# put64/put32/put16 FILE OFFSET VALUE: overwrite a little-endian integer.
putn() {
	n=$1 f=$2 off=$3 v=$4 i=0 bytes=""
	while [ $i -lt "$n" ]; do
		bytes="$bytes\\$(printf '%03o' $(( (v >> (8 * i)) & 255 )))"
		i=$((i + 1))
	done
	# shellcheck disable=SC2059
	printf "$bytes" | dd of="$f" bs=1 seek="$off" conv=notrunc 2>/dev/null
}
put64() { putn 8 "$@"; }
put32() { putn 4 "$@"; }
put16() { putn 2 "$@"; }
get64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
get32() { od -An -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }
get16() { od -An -t u2 -j "$2" -N 2 "$1" | tr -d ' '; }
