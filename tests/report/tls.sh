#!/bin/sh
# Attribution of __thread variables by instruction, from real recordings:
# hardware watchpoints (hitmap record --watch: the IP is the instruction
# after the access) on fields of the main thread's TLS variables, at the
# addresses a first run without ASLR printed.  tests/report/tls.c writes
# its own variables with local-exec accesses (%fs:-OFF) and the library's
# through an initial-exec GOT slot (%fs:OFF(%reg)); tests/report/tls-lib.c
# reaches its exported variable by general dynamic and its static one by
# local dynamic (__tls_get_addr).  Built with gcc and clang, -O0 and -O2.
# Oracles: the fixture's printout (addresses, offsetof, sizeof) and perf
# script's sample addresses (tests/report/heap-oracle.py); every sample in a
# watched field must be named tls:VARIABLE.FIELD, none misnamed.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require_watchpoints
require setarch util-linux

# watch OUT BIN ADDR/LEN...: record BIN's run with watchpoints on the fields.
watch() {
	out=$1 bin=$2; shift 2
	args=
	for w in "$@"; do args="$args --watch $w:w"; done
	if ! "$HITMAP" record -q $args -o "$out" -- setarch -R "$bin" 40 >"$T/out2" 2>"$T/rec.err"
	then
		grep -q -e "not supported by this kernel" -e "no free debug register" \
			-e "permission denied" "$T/rec.err" &&
			skip "the kernel refuses hardware breakpoint events: $(head -1 "$T/rec.err")"
		cat "$T/rec.err" >&2
		fail "hitmap record --watch failed"
	fi
	assert_eq "$(grep '^tls' "$T/out1")" "$(grep '^tls' "$T/out2")" \
		"$cc $opt: TLS addresses of two runs under setarch -R"
}

# field NAME PATH: the runtime address of tls:NAME's PATH, /its size.
field() {
	base=$(awk -v n="tls:$1" '$1 == "tls" && $4 == n { print $3 }' "$T/out1")
	set -- $(awk -v f="stats.$2" '$1 == "field" && $2 == f { print $3, $4 }' "$T/out1")
	[ -n "$base" ] && [ $# -eq 2 ] || fail "no address for $1 $2 in the printout"
	echo "$(hex $(($base + $1)))/$2"
}

# judge DATA: every sample of the watched fields attributed right.
judge() {
	perf script -i "$1" -F ip,sym,addr,dso 2>/dev/null >"$T/addrs"
	"$HITMAP" report -i "$1" --json --top 100000 >"$T/r.json" 2>"$T/r.err" ||
		{ cat "$T/r.err" >&2; fail "$cc $opt: report"; }
	python3 "$RSRC/heap-oracle.py" "$T/out2" "$T/addrs" "$T/r.json" --bin="$2" ||
		fail "$cc $opt $1: TLS samples attributed wrong"
	# the fixture's own samples: one per iteration and field
	n=$(awk -v f="($2)" '$NF == f' "$T/addrs" | wc -l)
	[ "$n" -ge $((40 * $3)) ] || fail "$cc $opt $1: $n samples in $2, want $((40 * $3))"
	assert_eq "$n" "$(jq_py "$T/r.json" "d['buckets']['tls']")" \
		"$cc $opt $1: samples in the tls bucket"
}

for cc in gcc clang; do
	require $cc $cc
	for opt in -O0 -O2; do
		d="$T/$cc$opt"
		mkdir -p "$d"
		echo "+ $cc -g $opt -fPIC -shared tls-lib.c; $cc -g $opt tls.c" >&2
		$cc -g "$opt" -fPIC -shared -o "$d/libtls.so" "$RSRC/tls-lib.c" ||
			fail "cannot build tls-lib.c with $cc"
		$cc -g "$opt" -o "$d/tls" "$RSRC/tls.c" -L"$d" -ltls -Wl,-rpath,"$d" ||
			fail "cannot build tls.c with $cc"
		setarch -R "$d/tls" 1 >"$T/out1" || fail "tls run"
		# the executable: local exec (st, priv) and initial exec (libst)
		watch "$d/exe.data" "$d/tls" "$(field st misses)" "$(field priv state)" \
			"$(field priv range.hi)" "$(field libst state)"
		judge "$d/exe.data" "$d/tls" 4
		# the library: general dynamic (libst), local dynamic (libpriv)
		watch "$d/lib.data" "$d/tls" "$(field libst misses)" "$(field libpriv hits)"
		judge "$d/lib.data" "$d/libtls.so" 2
	done
done

# --explain names the variable behind a local-exec operand: the first
# %fs:-OFF store of exe_touch (objdump), st.misses += n.
require objdump binutils
off=$(awk '$1 == "field" && $2 == "stats.misses" { print $3 }' "$T/out1")
at=$(objdump -d "$T/gcc-O2/tls" | awk '/<exe_touch>:/ { f = 1 } f && /%fs:0xf/ {
	sub(/:.*/, ""); print "0x" $1; exit }')
[ -n "$at" ] || fail "objdump shows no %fs:-OFF access in exe_touch"
"$HITMAP" report --binary "$T/gcc-O2/tls" --explain "$at" >"$T/explain" 2>"$T/err" ||
	{ cat "$T/err" >&2; fail "explain $at"; }
grep -q "^  field: tls:st.misses (offset $off, 8 bytes), strategy tls$" "$T/explain" ||
	{ cat "$T/explain" >&2; fail "explain exe_touch: no tls:st.misses"; }
exit 0
