#!/bin/sh
# Fuzz smoke run: build the libFuzzer targets with clang in a scratch tree and
# run each for a short time (default 30 s) on a copy of its seed corpus plus
# the reproducers of tests/robust/repro/.  Any crash, hang (20 s per input),
# memory past 2 GiB, leak or sanitizer report fails the run; the offending
# input is kept.
#
#   sh tests/fuzz/smoke.sh [-t SECONDS] [-b BUILDDIR]
#
# -b reuses a tree configured with `CC=clang --enable-fuzzing` (the targets
# are made there); without it the source tree is configured in a scratch
# directory.  A source tree configured in place cannot be configured again
# elsewhere (automake refuses): its files, as git lists them (tracked, and
# untracked ones not ignored, so uncommitted work is fuzzed too), are then
# copied to the scratch directory and bootstrapped there.  Exit 0 ok, 1 a
# finding, 77 clang or libFuzzer missing.
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
targets="perfdata elf rules profile btf answers attr"
command -v clang >/dev/null 2>&1 || { echo "smoke: clang not installed (Debian package clang)" >&2; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/hitmap-fuzz.XXXXXX")
if [ -z "$build" ] && [ -f "$src/config.status" ]; then
	git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || {
		echo "smoke: $src is configured in place and is no git checkout: run make distclean there, or give -b BUILDDIR" >&2
		exit 2
	}
	mkdir -p "$work/src"
	# (a file deleted but not yet committed is listed and skipped)
	(cd "$src" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 -r cp --parents -P -t "$work/src" 2>/dev/null)
	(cd "$work/src" && autoreconf -fi) >"$work/bootstrap.log" 2>&1 ||
		{ cat "$work/bootstrap.log" >&2; exit 1; }
	src_conf=$work/src
else
	src_conf=$src
fi
if [ -z "$build" ]; then
	build="$work/build"
	mkdir -p "$build"
	# -Wno-format-nonliteral: clang's -Wformat=2 flags vprintf wrappers.
	if ! (cd "$build" && "$src_conf/configure" -q CC=clang --enable-fuzzing --disable-shared \
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
	# Limits that hold on a loaded 2-core machine (measured at a load
	# average of 20: two busy loops beside other work).  The slowest seed
	# or reproducer took 2.0 s (fuzz-elf on fx-bits-g4.o; fuzz-btf's
	# slowest 0.7 s: btf-expand-explode, 20-80 s while the layout printer
	# filled its 16 MiB cap, is refused before printing now); in 30 s runs
	# no mutated input took 1 s, and the peak RSS was 122 MiB (perfdata).
	# -timeout=20 is 10 times the slowest input.  -rss_limit_mb=2048,
	# libFuzzer's default made explicit, is 5 times what a run of any
	# length holds: that peak plus ASan's quarantine (256 MiB at most).
	if "$build/tests/fuzz/fuzz-$t" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
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
