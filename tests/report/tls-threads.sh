#!/bin/sh
# Per-thread identity of __thread objects, from real recordings: two
# threads each write their own copy of one __thread struct
# (tests/report/tls-threads.c), hardware watchpoints on both copies at the
# addresses a first run without ASLR printed.  Every sample must be named
# tls:st.hits (gcc's -O2 code reaches it as lea -0x10,%rdx; add %rax,%fs:(%rdx),
# so the constant is tracked), the two copies must be two lines, and each a
# private line: one thread's private copies are never called shared.
# Oracles: the fixture's printout (addresses, offsetof) and perf script's
# sample addresses.  gcc and clang, -O0 and -O2.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require_watchpoints
require setarch util-linux

n=2000
for cc in gcc clang; do
	require $cc $cc
	for opt in -O0 -O2; do
		d="$T/$cc$opt"
		mkdir -p "$d"
		echo "+ $cc -g $opt -pthread tls-threads.c" >&2
		$cc -g "$opt" -pthread -o "$d/t" "$RSRC/tls-threads.c" ||
			fail "cannot build tls-threads.c with $cc"
		setarch -R "$d/t" 1 >"$d/out1" || fail "first run"
		a0=$(awk '$1 == "thread" && $2 == 0 { print $3 }' "$d/out1")
		a1=$(awk '$1 == "thread" && $2 == 1 { print $3 }' "$d/out1")
		[ -n "$a0" ] && [ -n "$a1" ] && [ "$a0" != "$a1" ] ||
			fail "$cc $opt: two threads' addresses expected, got '$a0' '$a1'"
		if ! "$HITMAP" record -q --watch "$a0/8:w" --watch "$a1/8:w" -o "$d/w.data" \
			-- setarch -R "$d/t" $n >"$d/out2" 2>"$d/rec.err"; then
			grep -q -e "not supported by this kernel" -e "no free debug register" \
				-e "permission denied" "$d/rec.err" &&
				skip "the kernel refuses hardware breakpoint events: $(head -1 "$d/rec.err")"
			cat "$d/rec.err" >&2
			fail "hitmap record --watch failed"
		fi
		# raw addresses need no names: setarch's missing debug info is
		# no error
		[ ! -s "$d/rec.err" ] || fail "$cc $opt: record -q said: $(head -1 "$d/rec.err")"
		assert_eq "$(sort "$d/out1")" "$(sort "$d/out2")" \
			"$cc $opt: addresses of two runs under setarch -R"
		# the fixture's own samples (ld.so's memset of a new thread's
		# TLS block writes the copies too)
		perf script -i "$d/w.data" -F addr,ip,sym,dso 2>/dev/null |
			awk -v f="($d/t)" '$NF == f { print $1 }' |
			sort | uniq -c | awk '{ print $2, $1 }' >"$d/per-addr"
		"$HITMAP" report -i "$d/w.data" --json --top 100000 >"$d/r.json" 2>"$d/r.err" ||
			{ cat "$d/r.err" >&2; fail "$cc $opt: report"; }
		python3 - "$d/r.json" "$d/per-addr" "$a0" "$a1" "$n" <<'PY' ||
import json, sys
r = json.load(open(sys.argv[1]))
per = {int(a, 16): int(c) for a, c in (l.split() for l in open(sys.argv[2]))}
want = {int(sys.argv[3], 16), int(sys.argv[4], 16)}
n = int(sys.argv[5])
bad = []
for a in want:
    if per.get(a, 0) < n:
        bad.append("perf script: %d samples at %#x, want >= %d" % (per.get(a, 0), a, n))
lines = {}
for l in r["lines"]:
    for f in l["fields"]:
        if f["address"] in want:
            lines[f["address"]] = (l["address"], l["verdict"], f["object"] + "." + f["path"],
                                   f["strategy"],
                                   f["counts"]["samples"])
for a in sorted(want):
    if a not in lines:
        bad.append("no row for %#x" % a)
        continue
    la, verdict, path, strategy, samples = lines[a]
    if path != "tls:st.hits" or strategy != "tls":
        bad.append("%#x named %s by %s, want tls:st.hits by tls" % (a, path, strategy))
    if samples != per.get(a):
        bad.append("%#x: %d samples, perf script has %d" % (a, samples, per.get(a)))
    if verdict != "private":
        bad.append("%#x: line %#x is '%s', want private" % (a, la, verdict))
if len({v[0] for v in lines.values()}) != 2:
    bad.append("the two copies are not two lines")
if r["buckets"]["tls"] != sum(per.get(a, 0) for a in want):
    bad.append("tls bucket %d, want %d" % (r["buckets"]["tls"], sum(per.get(a, 0) for a in want)))
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
			fail "$cc $opt: per-thread TLS copies attributed wrong"
	done
done
exit 0
