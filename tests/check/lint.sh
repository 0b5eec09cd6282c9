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
require pahole dwarves
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
# lint-union.c: two members of one union are no pair and no neighbours
# (its header derives the warnings from pahole's offsets, checked first).
# pahole_members FILE STRUCT: "member offset size" per line with an offset,
# in pahole's order; a nested type's body that pahole prints again after
# the member (clang's DWARF 4 declares anonymous unions in the struct) has
# no offset on its closing line and is left out.
pahole_members() {
	pahole -C "$2" "$1" | awk '
	function entry(s,  l, w, n) {
		l = s; sub(/[ \t]*\/\*.*$/, "", l); sub(/ __attribute__.*$/, "", l)
		sub(/;$/, "", l); n = split(l, w, /[ \t*]+/)
		return w[n] " " $(NF - 2) " " $(NF - 1) "\n"
	}
	BEGIN { d = -1 }
	/\{$/ { buf[++d] = ""; next }
	/^[ \t]*}/ {
		if (d == 0) { printf "%s", buf[0]; exit }
		b = buf[d--]
		if ($0 ~ /\/\* +[0-9]+ +[0-9]+ \*\/$/) buf[d] = buf[d] b entry($0)
		next
	}
	/\/\* +[0-9]+ +[0-9]+ \*\/$/ { buf[d] = buf[d] entry($0) }'
}
for cc in gcc clang; do
	for dw in 4 5; do
		build_fixture "$S/lint-union.c" "$T/lu" $cc $dw -O0
		pahole_members "$T/lu" U >"$T/lu.pahole" || fail "pahole -C U"
		assert_files_eq "$S/lint-union.pahole" "$T/lu.pahole" "$cc -gdwarf-$dw: pahole -C U"
		assert_exit 0 "$cc -gdwarf-$dw: lint-union" "$HITMAP" lint "$T/lu"
		assert_files_eq "$S/lint-union.expected" "$T/out" "$cc -gdwarf-$dw: lint-union"
	done
done
exit 0
