#!/bin/sh
# Fuzz smoke run: build the libFuzzer targets with clang in a scratch tree and
# run each for a short time (default 30 s) on a copy of its seed corpus plus
# the reproducers of tests/robust/repro/.  Any crash, hang (10 s per input),
# leak or sanitizer report fails the run; the offending input is kept.
#
#   sh tests/fuzz/smoke.sh [-t SECONDS] [-b BUILDDIR]
#
# -b reuses a tree configured with `CC=clang --enable-fuzzing` (the targets
# are made there); without it the source tree is configured in a scratch
# directory.  Exit 0 ok, 1 a finding, 77 clang or libFuzzer missing.
set -u
secs=30 build=
while [ $# -gt 0 ]; do
	case $1 in
	-t) secs=$2; shift 2 ;;
	-b) build=$2; shift 2 ;;
	*) echo "usage: smoke.sh [-t SECONDS] [-b BUILDDIR]" >&2; exit 2 ;;
	esac
done
src=$(cd "$(dirname "$0")/../.." && pwd)
targets="perfdata elf rules profile btf"
command -v clang >/dev/null 2>&1 || { echo "smoke: clang not installed (Debian package clang)" >&2; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/hitmap-fuzz.XXXXXX")
if [ -z "$build" ]; then
	build="$work/build"
	mkdir -p "$build"
	# -Wno-format-nonliteral: clang's -Wformat=2 flags vprintf wrappers.
	if ! (cd "$build" && "$src/configure" -q CC=clang --enable-fuzzing --disable-shared \
	      CFLAGS="-g -O1 -Wno-format-nonliteral") >"$work/configure.log" 2>&1; then
		if grep -q "needs clang with libFuzzer" "$work/configure.log"; then
			echo "smoke: clang has no libFuzzer (Debian package libclang-rt-14-dev)" >&2
			exit 77
		fi
		cat "$work/configure.log" >&2
		exit 1
	fi
fi
progs=
for t in $targets; do progs="$progs tests/fuzz/fuzz-$t"; done
# shellcheck disable=SC2086
make -C "$build" -j2 $progs >"$work/make.log" 2>&1 || { tail -30 "$work/make.log" >&2; exit 1; }

export LSAN_OPTIONS="suppressions=$src/tests/fuzz/lsan.supp"
export ASAN_OPTIONS="fast_unwind_on_malloc=0"
bad=0
for t in $targets; do
	mkdir -p "$work/corpus-$t" "$work/art-$t"
	cp "$src/tests/fuzz/corpus/$t"/* "$work/corpus-$t/" 2>/dev/null
	for f in "$src/tests/robust/repro/$t"-*; do
		[ -f "$f" ] && cp "$f" "$work/corpus-$t/"
	done
	# -timeout: the reproducers of exponential input (btf-expand-explode)
	# print up to the 16 MiB cap, about 5 s of CPU under ASan and coverage:
	# twice that on a busy machine must not read as a hang
	if "$build/tests/fuzz/fuzz-$t" -max_total_time="$secs" -timeout=30 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$work/art-$t/" "$work/corpus-$t" \
		>"$work/fuzz-$t.log" 2>&1; then
		echo "smoke: fuzz-$t: $(grep -E '^#[0-9]+.*(DONE|cov:)' "$work/fuzz-$t.log" | tail -1 |
			sed 's/^#\([0-9]*\).*cov: \([0-9]*\) ft: \([0-9]*\).*/\1 runs, cov \2, ft \3/')"
	else
		bad=1
		echo "smoke: fuzz-$t FAILED; input and log kept in $work" >&2
		grep -E 'ERROR|SUMMARY|runtime error|#[0-9]+ 0x' "$work/fuzz-$t.log" | head -20 >&2
		ls "$work/art-$t" >&2
	fi
done
[ $bad = 0 ] && rm -rf "$work"
exit $bad
