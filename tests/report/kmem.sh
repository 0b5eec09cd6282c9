#!/bin/sh
# Kernel allocations: `hitmap record --kmem` around tests/report/kmem-prog.c
# (files, a pipe, sockets) on the running kernel, per task and CPU-wide, and
# the same with the real `perf record -e kmem:...`.  Oracles: perf script of each recording (which
# objects were live when, their cache, ptr and call_site) and pahole on the
# running kernel's BTF (the member at each offset).  The machine has no
# memory-sampling PMU, so tests/report/kmem-inject writes HITM load samples
# at addresses inside those objects, at times they were live, among the
# recorded samples; report must name them TYPE.field through the cache's
# name (filp: struct file, sock_inode_cache: struct socket_alloc) and
# --type-of-cache (names_cache=filename), and leave an address in no live
# object unattributed.  Then bad input: a format whose field lies outside
# the raw data, a cut TRACING_DATA, --type-of-cache without '=' or with an
# unknown struct.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require pahole dwarves
require python3
BTF=/sys/kernel/btf/vmlinux
[ -r "$BTF" ] || skip "$BTF missing (a kernel without BTF)"
require_tracefs
for e in kmem_cache_alloc kmalloc kmem_cache_free kfree; do
	[ -r "$TRACEFS/events/kmem/$e/format" ] || skip "tracepoint kmem:$e missing (no tracefs?)"
done
INJECT="$top_builddir/tests/report/kmem-inject"
ORACLE="$RSRC/kmem-oracle.py"
inject() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$INJECT" "$@"; }

build_fixture "$RSRC/kmem-prog.c" "$T/prog" gcc 4 -O1
mkdir "$T/pahole"
for ty in file socket filename; do
	pahole -C "$ty" "$BTF" >"$T/pahole/$ty" 2>/dev/null
	grep -q "^struct $ty {" "$T/pahole/$ty" || skip "pahole cannot read struct $ty from $BTF"
done

# run NAME [early]: inject samples into $T/NAME.data by its perf script,
# report, check.  early: each sample is written before its object's
# allocation record (or, outside any object, before the freed object's free
# record), its time after it, as perf leaves samples of different CPUs:
# liveness is by time, not by file order.
run() {
	perf script -i "$T/$1.data" -F time,event,trace --ns >"$T/$1.script" 2>"$T/err" ||
		{ cat "$T/err" >&2; fail "$1: perf script cannot read the recording"; }
	grep -q 'kmem:kmem_cache_alloc:.* name=filp ' "$T/$1.script" ||
		fail "$1: perf script shows no filp allocation"
	python3 "$ORACLE" pick "$T/$1.script" "$T/pahole" "$T/$1.plan" ${2:-} >"$T/$1.specs" ||
		fail "$1: oracle"
	# shellcheck disable=SC2046
	inject -i "$T/$1.data" -o "$T/$1-inj.data" $(cat "$T/$1.specs") || fail "$1: inject"
	if [ -n "${2:-}" ]; then
		perf report -D -i "$T/$1-inj.data" >"$T/$1.dump" 2>/dev/null ||
			fail "$1: perf report -D cannot read the injected file"
		python3 "$ORACLE" order "$T/$1.plan" "$T/$1.dump" ||
			fail "$1: the injected samples are not before their records in the file"
	fi
	n=$(perf script -i "$T/$1-inj.data" -F event 2>/dev/null | grep -c 'mem-loads')
	assert_eq 8 "$n" "$1: perf script reads the injected file's load samples"
	"$HITMAP" report -i "$T/$1-inj.data" --vmlinux "$BTF" --type-of-cache names_cache=filename \
		--json >"$T/$1.json" 2>"$T/err" || { cat "$T/err" >&2; fail "$1: report"; }
	python3 "$ORACLE" check "$T/$1.plan" "$T/$1.json" || fail "$1: report against perf script"
	# the text report says where the object came from
	"$HITMAP" report -i "$T/$1-inj.data" --vmlinux "$BTF" --type-of-cache names_cache=filename \
		>"$T/$1.txt" 2>"$T/err" || { cat "$T/err" >&2; fail "$1: text report"; }
	grep -q 'allocated at .* by kmem_cache_alloc from filp, 192 bytes at 0x' "$T/$1.txt" ||
		{ cat "$T/$1.txt" >&2; fail "$1: no allocation line for the filp object"; }
}

# hitmap's own recording.  --kmem comes with the access samples of the
# machine (its PMU's, else timer samples): the samples here are the injected
# ones, so a period of an hour (of CPU time, or of events) leaves none.
NOSAMPLES="-c 3600000000000"
# shellcheck disable=SC2086
"$HITMAP" record --kmem $NOSAMPLES -q -o "$T/hm.data" -- "$T/prog" >/dev/null 2>"$T/err" ||
	{ cat "$T/err" >&2; grep -q 'permission denied' "$T/err" &&
		skip "the kmem tracepoints are not permitted here"; fail "hitmap record --kmem"; }
run hm
cp "$T/hm.data" "$T/hm-early.data"
run hm-early early

# CPU-wide: every CPU's allocations, a file larger than the reader's
# buffer, so the kmem records are read as they come, not after the
# samples that follow them.
# shellcheck disable=SC2086
"$HITMAP" record --kmem $NOSAMPLES -a -q -o "$T/all.data" -- "$T/prog" >/dev/null 2>"$T/err" ||
	{ cat "$T/err" >&2; fail "hitmap record --kmem -a"; }
run all

# --dry-run shows the four events, config the ids tracefs gives them.
"$HITMAP" record --kmem --dry-run >"$T/plan" 2>"$T/err" || { cat "$T/err" >&2; fail "--kmem --dry-run"; }
for e in kmem_cache_alloc kmalloc kmem_cache_free kfree; do
	id=$(cat "$TRACEFS/events/kmem/$e/id")
	grep -q "kmem:$e: type=2 config=$(hex "$id") " "$T/plan" ||
		{ cat "$T/plan" >&2; fail "--dry-run: kmem:$e with config $id"; }
done

# perf's own recording of the same tracepoints
perf record -q -o "$T/perf.data" -e kmem:kmem_cache_alloc -e kmem:kmalloc \
	-e kmem:kmem_cache_free -e kmem:kfree -- "$T/prog" >/dev/null 2>"$T/err" ||
	{ cat "$T/err" >&2; fail "perf record -e kmem:..."; }
run perf

# perf's pipe mode: the formats come in a TRACING_DATA record; the kmem
# samples are allocations, not memory samples without an address.
perf record -q -o - -e kmem:kmem_cache_alloc -e kmem:kmem_cache_free -- "$T/prog" \
	2>/dev/null >"$T/pipe.data" || fail "perf record -o -"
"$HITMAP" report -i - --json <"$T/pipe.data" >"$T/pipe.json" 2>"$T/err" ||
	{ cat "$T/err" >&2; fail "report of a pipe"; }
assert_eq "0 0" "$(jq_py "$T/pipe.json" "d['samples'], d['buckets']['no-addr']" | tr -d '(),')" \
	"pipe mode: kmem samples read as allocations"

# Without --type-of-cache names_cache has no type: its samples are untyped.
"$HITMAP" report -i "$T/hm-inj.data" --vmlinux "$BTF" --json >"$T/untyped.json" 2>"$T/err" ||
	{ cat "$T/err" >&2; fail "report without --type-of-cache"; }
assert_eq "4 2" "$(jq_py "$T/untyped.json" "d['buckets']['kmem-cache'], d['buckets']['kmem-untyped']" | tr -d '(),')" \
	"names_cache without --type-of-cache: kmem-cache and kmem-untyped samples"

# Bad input: a field outside the raw record (the format's ptr offset 16
# made 96, past every kmem record), a cut TRACING_DATA.
python3 - "$T/hm-inj.data" "$T/badfield.data" "$T/badtd.data" <<'EOF'
import sys
d = open(sys.argv[1], 'rb').read()
a = d.replace(b'ptr;\toffset:16;', b'ptr;\toffset:96;')
assert a != d
open(sys.argv[2], 'wb').write(a)
b = d.replace(b'header_page\0', b'header_pagX\0', 1)
assert b != d
open(sys.argv[3], 'wb').write(b)
EOF
assert_exit 3 "field outside the raw data" "$HITMAP" report -i "$T/badfield.data" --vmlinux "$BTF"
grep -q "badfield.data: kmem:.* sample at offset 0x[0-9a-f]*: field 'ptr' (offset 96, size 8) is not in its [0-9]* bytes of raw data" "$T/err" ||
	{ cat "$T/err" >&2; fail "message for a field outside the raw data"; }
assert_eq 1 "$(wc -l <"$T/err")" "one line for a field outside the raw data"
assert_exit 3 "cut TRACING_DATA" "$HITMAP" report -i "$T/badtd.data" --vmlinux "$BTF"
grep -q "badtd.data: TRACING_DATA feature: no header_page at offset 0x" "$T/err" ||
	{ cat "$T/err" >&2; fail "message for a bad TRACING_DATA"; }

# Bad --type-of-cache: usage errors, one line each.
assert_exit 2 "--type-of-cache without =" "$HITMAP" report -i "$T/hm-inj.data" --vmlinux "$BTF" \
	--type-of-cache names_cache
grep -q "type of cache 'names_cache': not CACHE=TYPE" "$T/err" || { cat "$T/err" >&2; fail "message: no ="; }
assert_eq 1 "$(wc -l <"$T/err")" "one line for --type-of-cache without ="
assert_exit 2 "--type-of-cache with an unknown struct" "$HITMAP" report -i "$T/hm-inj.data" \
	--vmlinux "$BTF" --type-of-cache names_cache=no_such_struct_xyz
grep -q "the kernel's types have no struct no_such_struct_xyz" "$T/err" ||
	{ cat "$T/err" >&2; fail "message: unknown struct"; }
assert_eq 1 "$(wc -l <"$T/err")" "one line for an unknown struct"
exit 0
