# Helpers for the report tests.  Sourced after lib.sh.
RSRC="$top_srcdir/tests/report"
GEN="$top_builddir/tests/perf/gen-c2c"
# With ASLR off (setarch -R) the kernel loads a PIE executable at this base;
# the tests that need runtime addresses before the run use it.
PIE_BASE=0x555555554000

# build_seed CC OUT: the seed program, PIE (Debian's default), -O1.
build_seed() {
	build_fixture "$RSRC/seed.c" "$2" "$1" 4 -O1 -pthread -fPIE -pie
}

# sym_addr BIN NAME: link-time address of a symbol, from nm, as 0x...
sym_addr() {
	a=$(nm "$1" | awk -v n="$2" '$3 == n { print $1 }')
	[ -n "$a" ] || fail "nm: no symbol $2 in $1"
	printf '0x%x' $((0x$a))
}

hex() { printf '0x%x' "$1"; }

# jq_py FILE EXPR: evaluate a Python expression over the JSON document `d`.
jq_py() {
	python3 -c "import json,sys
d = json.load(open(sys.argv[1]))
def line(obj):
    return [l for l in d['lines'] if any(f['object'] == obj for f in l['fields'])]
def field(name):
    out = [f for l in d['lines'] for f in l['fields']
           if f['object'] is not None and (f['object'] + ('.' + f['path'] if f['path'] else '')) == name]
    return out[0] if out else None
print($2)" "$1"
}

# gen ARGS: the generator; leak checking is off for it (a short-lived test
# tool) so that sanitizer builds judge hitmap, not the tool.
gen() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$GEN" "$@"
}

# watch_compare DATA JSON: hitmap's samples, reads, writes and transfers per
# field (JSON, its report of DATA) equal watch-oracle.py's over perf script.
watch_compare() {
	perf script -i "$1" -F tid,cpu,time,event,ip 2>/dev/null |
		python3 "$RSRC/watch-oracle.py" >"$T/oracle"
	[ -s "$T/oracle" ] || fail "no watchpoint samples in $1"
	jq_py "$2" "'\n'.join('%s %d %d %d %d' % (hex(f['address']), f['counts']['samples'], f['counts']['reads'], f['counts']['writes'], f['counts']['transfers']) for l in d['lines'] for f in l['fields'])" |
		sort >"$T/ours"
	assert_files_eq "$T/oracle" "$T/ours" "$1: samples reads writes transfers per field"
}

# Timer recordings that carry the general user registers: evidence that
# needs no memory PMU and no watchpoint.
REGS=AX,BX,CX,DX,SI,DI,BP,SP,IP,R8,R9,R10,R11,R12,R13,R14,R15

# regs_rec OUT CMD...: CMD recorded with cpu-clock every 50 us, its user
# registers and CPU; perf's messages in $T/rec.err.
regs_rec() {
	out=$1; shift
	perf record -q -o "$out" -e cpu-clock -c 50000 --user-regs=$REGS --sample-cpu -- "$@" \
		2>"$T/rec.err"
}

# regs_probe SRC ARGS...: skip unless a timer recording of SRC (built by
# gcc, run with ARGS) yields samples with user registers here.
regs_probe() {
	build_fixture "$1" "$T/probe" gcc 5 -O2 -pthread
	shift
	regs_rec "$T/probe.data" "$T/probe" "$@" >/dev/null ||
		skip "perf record -e cpu-clock --user-regs fails here: $(head -1 "$T/rec.err")"
	perf script -i "$T/probe.data" -F ip,uregs 2>/dev/null | grep -q 'AX:0x' ||
		skip "perf record -e cpu-clock --user-regs records no user registers here"
}
