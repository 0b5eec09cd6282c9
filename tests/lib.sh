# Shared helpers for hitmap's shell tests.  Sourced by every tests/*.sh.
# The automake harness sets top_srcdir, top_builddir, HITMAP and CC.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${HITMAP:=$top_builddir/hitmap}"
# The real binary, not libtool's wrapper script beside it: the wrapper is a
# shell start-up on every run, and the suite runs hitmap thousands of times.
if [ "$HITMAP" = "$top_builddir/hitmap" ] && [ -x "$top_builddir/.libs/hitmap" ] &&
	[ "$(head -c 2 "$HITMAP")" = "#!" ]; then
	HITMAP="$top_builddir/.libs/hitmap"
	LD_LIBRARY_PATH="$top_builddir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
fi
: "${CC:=gcc}"
TESTS_SRC="$top_srcdir/tests"

# No test asks a debuginfod server it did not start itself (a login shell on
# Debian points DEBUGINFOD_URLS at debuginfod.debian.net).
unset DEBUGINFOD_URLS

# One scratch directory per test, removed on success and kept on failure.
T=$(mktemp -d "${TMPDIR:-/tmp}/hitmap-test.XXXXXX")
hm_cleanup() { rc=$?; if [ $rc -eq 0 ] || [ $rc -eq 77 ]; then rm -rf "$T"; else echo "scratch kept: $T" >&2; fi; }
trap hm_cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

# require TOOL [PACKAGE]: skip (77) naming the missing real tool.
require() {
	command -v "$1" >/dev/null 2>&1 || skip "$1 not installed (Debian package ${2:-$1})"
}

# untrapped CMD...: run CMD (a perf record of hardware watchpoints, maybe
# under setarch) again, twice at the most, when it ends by SIGTRAP (status
# 133).  The kernel here now and then delivers a watchpoint's hit to the
# watched workload as a trap, which kills it, and perf record ends the same
# way: that recording is cut, not an input to judge hitmap by.  Each retry
# says so on stderr.
untrapped() {
	for _try in 1 2 3; do
		"$@"
		_rc=$?
		[ $_rc -eq 133 ] || return $_rc
		echo "note: $1 ended by SIGTRAP (a watchpoint trap delivered to the workload), try $_try of 3" >&2
	done
	return $_rc
}

# require_watchpoints: skip (77) unless hardware watchpoints fire here.  An
# event that opens proves nothing: in a paravirtualised guest the breakpoint
# event opens and counts 0, and nothing it watches is ever reported.  So a
# tiny program writes a watched variable 1000 times under the real perf and
# every write must be counted.  User-space writes only (:u): the kernel's own
# write clearing the variable's .bss page at exec is counted where
# watchpoints fire (1004 of 1000 without :u).  The skip names what perf
# counted.
require_watchpoints() {
	require perf linux-perf
	watchpoint_lock
	_wp=$T/.watch-probe
	printf '%s\n' 'volatile long hm_probe_v;' \
		'int main(void) { for (int i = 0; i < 1000; i++) hm_probe_v++; return 0; }' >"$_wp.c"
	"$CC" -O1 -no-pie -o "$_wp" "$_wp.c" || fail "cannot build the watchpoint probe"
	_wa=0x$(nm "$_wp" | awk '$3 == "hm_probe_v" { print $1 }')
	_wn=$(perf stat -x, -e "mem:$_wa:w:u" -- "$_wp" 2>&1 >/dev/null |
		awk -F, '/mem:/ { print $1; exit }')
	[ "$_wn" = 1000 ] ||
		skip "hardware watchpoints do not fire on this machine (perf stat -e mem:$_wa:w:u counted '${_wn:-nothing}' of 1000 watched writes)"
}

# watchpoint_lock: one test that records watchpoints at a time on the
# machine.  With two recording at once in a guest, a debug trap that no
# event claims now and then kills a workload with SIGTRAP (2 of 95
# concurrent recordings here, none of 40 alone).  Held (fd 9) until the
# test exits; given up after 2 minutes rather than hang on a lock a
# stray process kept.
watchpoint_lock() {
	command -v flock >/dev/null 2>&1 || return 0
	exec 9>"${TMPDIR:-/tmp}/hitmap-watchpoint-tests.lock"
	flock -w 120 9 || true
}

# require_tracefs: set TRACEFS to the mounted tracefs.  Where the kernel has
# tracefs but nothing mounted it, mount it (root); skip (77) only where
# the kernel has none or it cannot be mounted, saying which.
require_tracefs() {
	for TRACEFS in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -e "$TRACEFS/events" ] && return 0
	done
	TRACEFS=/sys/kernel/tracing
	grep -qw tracefs /proc/filesystems 2>/dev/null || skip "this kernel has no tracefs"
	[ "$(id -u)" = 0 ] || skip "tracefs is not mounted and mounting it needs root"
	mount -t tracefs nodev "$TRACEFS" 2>"$T/.tracefs.err" ||
		skip "tracefs is not mounted and cannot be mounted: $(head -1 "$T/.tracefs.err")"
	[ -e "$TRACEFS/events" ] || skip "tracefs mounted at $TRACEFS has no events folder"
}

# assert_eq EXPECTED ACTUAL WHAT
assert_eq() {
	[ "$1" = "$2" ] || fail "$3: expected '$1', got '$2'"
}

# assert_files_eq EXPECTED_FILE ACTUAL_FILE WHAT: fails with a unified diff.
assert_files_eq() {
	if ! diff -u "$1" "$2" >"$T/diff.out" 2>&1; then
		head -60 "$T/diff.out" >&2
		fail "$3"
	fi
}

# assert_exit CODE WHAT CMD...: runs CMD, checks the exit status.
assert_exit() {
	want=$1; what=$2; shift 2
	set +e; "$@" >"$T/out" 2>"$T/err"; got=$?; set -e 2>/dev/null; set +e
	[ "$got" = "$want" ] || { cat "$T/err" >&2; fail "$what: exit $got, want $want"; }
}

# build_fixture SRC OUT COMPILER DWARF OPT [extra flags...]: compile a fixture.
# Every fixture build goes through here so the exact command is in the log.
build_fixture() {
	src=$1; out=$2; cc=$3; dw=$4; opt=$5; shift 5
	echo "+ $cc -g -gdwarf-$dw $opt $* -o $out $src" >&2
	"$cc" -g -gdwarf-"$dw" "$opt" "$@" -o "$out" "$src" || fail "cannot build $src with $cc"
}

# The vmlinux cache for kernel integration tests, outside the tree.
HM_TEST_CACHE="${HITMAP_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hitmap-test}"
export XDG_CACHE_HOME="$T/cache"
