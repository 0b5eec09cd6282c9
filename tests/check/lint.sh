#!/bin/sh
# hitmap lint on lint.c (its header comment derives every expected warning):
# typedef chains, _Atomic, arrays of atomics, a struct holding a spinlock,
# an array of such structs, pthread_mutex_t, read-mostly pointer neighbours,
# ranking; `contended-type` from the command line or a rule file; std::atomic
# in C++.  Lint findings are warnings: exit 0 unless --fail-on warn.
. "$top_srcdir/tests/lib.sh"
require clang clang
require clang++ clang
require g++ g++
S="$top_srcdir/tests/check"
for cc in gcc clang; do
	for dw in 4 5; do
		what="$cc -gdwarf-$dw"
		build_fixture "$S/lint.c" "$T/lint" $cc $dw -O0 -pthread
		# DWARF 4 has no tag for _Atomic (DW_TAG_atomic_type is DWARF 5):
		# gcc and clang then describe a_counter as a plain int, and the two
		# warnings that need it disappear.
		exp="$S/lint.expected" texp="$S/lint-ticket.expected"
		[ $dw = 4 ] && exp="$S/lint-dwarf4.expected" texp="$S/lint-ticket-dwarf4.expected"
		assert_exit 0 "$what: lint" "$HITMAP" lint "$T/lint"
		assert_files_eq "$exp" "$T/out" "$what: lint"
		assert_exit 1 "$what: lint --fail-on warn" "$HITMAP" lint --fail-on warn "$T/lint"
		if [ $dw = 5 ]; then
			assert_exit 0 "$what: lint --explain" "$HITMAP" lint --explain "$T/lint"
			assert_files_eq "$S/lint-explain.expected" "$T/out" "$what: lint --explain"
			assert_exit 0 "$what: lint --limit 1" "$HITMAP" lint --limit 1 "$T/lint"
			assert_files_eq "$S/lint-limit.expected" "$T/out" "$what: lint --limit 1"
		fi

		assert_exit 0 "$what: --contended-type" "$HITMAP" lint \
			--contended-type 'struct my_ticket' -C L "$T/lint"
		assert_files_eq "$texp" "$T/out" "$what: --contended-type"
		assert_exit 0 "$what: contended-type rule" "$HITMAP" lint \
			--rules "$S/ticket.rules" -C L "$T/lint"
		assert_files_eq "$texp" "$T/out" "$what: contended-type rule"

		assert_exit 0 "$what: no locks" "$HITMAP" lint -C P "$T/lint"
		assert_eq "hitmap lint: 0 errors, 0 warnings, 0 notes" "$(cat "$T/out")" \
			"$what: no locks"
		assert_exit 2 "$what: unknown struct" "$HITMAP" lint -C Nope "$T/lint"
	done
done
for cxx in g++ clang++; do
	build_fixture "$S/lint-cxx.cc" "$T/lcxx" $cxx 5 -O0
	assert_exit 0 "$cxx: std::atomic" "$HITMAP" lint -C Q "$T/lcxx"
	assert_eq "warning: Q: cacheline 0: a and b (0 locks, 2 atomics, 1 pair); score 2" \
		"$(head -1 "$T/out")" "$cxx: std::atomic"
done
# lint-embed.c: a pair is reported at the struct declaring it (its header
# derives every line below).
for cc in gcc clang; do
	build_fixture "$S/lint-embed.c" "$T/le" $cc 5 -O0
	assert_exit 0 "$cc: lint-embed" "$HITMAP" lint "$T/le"
	assert_files_eq "$S/lint-embed.expected" "$T/out" "$cc: lint-embed"
	assert_exit 0 "$cc: lint-embed --assume-aligned" "$HITMAP" lint --assume-aligned "$T/le"
	assert_files_eq "$S/lint-embed-aligned.expected" "$T/out" "$cc: lint-embed --assume-aligned"
	assert_exit 0 "$cc: lint-embed -C outer1" "$HITMAP" lint -C outer1 "$T/le"
	assert_eq "warning: inner: cacheline 0: lock and refs (1 lock, 1 atomic, 1 pair); score 2
hitmap lint: 0 errors, 1 warning, 0 notes" "$(cat "$T/out")" "$cc: lint-embed -C outer1"
done
exit 0
