#!/bin/sh
# The kcore copy of `perf record --kcore` (a perf.data directory: data,
# kcore_dir/{kcore,kallsyms,modules}), on a program laid out like a
# kernel's patched text (fx-patch.c, its patch-site tables; _stext, _text
# and _etext given to the linker) standing in for the vmlinux.  The copy
# is written by kcore-make.py from readelf and nm, with the alternative
# and the jump label rewritten as a kernel rewrites them at boot.
# - hitmap's kcore reader (tests/elf/kcore-bytes) and `report --explain`
#   find at each address the bytes gdb reads from the copy as a core file;
# - samples at the rewritten sites are decoded from the copy (no longer
#   patched-text), exactly as TEXT_POKE records of the same bytes are;
# - -i DIR reads DIR/data: the report is -i DIR/data's;
# - bad input, one line naming the file, exit 3: a directory without data,
#   a stream (data.0) beside its single file, kcore_dir without kcore or kallsyms, a kcore
#   that is no ELF core or is cut short, a bad kallsyms line, a copy of
#   another build, a copy at another KASLR offset than the recording's.
# The Debian vmlinux's version is tests/vmlinux/kcore.test.
. "$top_srcdir/tests/lib.sh"
require nm binutils
require readelf binutils
require gdb gdb
require python3 python3
GEN="$top_builddir/tests/perf/gen-c2c"
KB="$top_builddir/tests/elf/kcore-bytes"
MK="$top_srcdir/tests/report/kcore-make.py"
[ -x "$GEN" ] && [ -x "$KB" ] || fail "gen-c2c or kcore-bytes is not built (make check builds them)"
# run-time addresses in the kernel's half, as perf's kernel samples are: K
# plus a link address of the fixture (-no-pie, far below 2 GiB), added in
# the low 32 bits, which it cannot carry out of (shell arithmetic is signed
# 64-bit: K itself does not fit).
K=0xffffffff81000000
hex() {
	[ $(($1)) -ge 0 ] && [ $(($1)) -lt $((0x7f000000)) ] || fail "hex: $1 is no low link address"
	printf 'ffffffff%08x' $((0x81000000 + $1))
}

gbytes() {	# KCORE RUNADDR LEN: the bytes gdb reads there
	gdb -nx -batch -ex "core-file $1" -ex "x/$3xb 0x$2" 2>/dev/null |
		sed -n 's/^0x[0-9a-f]*:\t//p' | tr '\t' '\n' | sed 's/^0x//' | tr '\n' ' ' | sed 's/ $//'
}
buckets() {
	python3 -c 'import json, sys; print(" ".join("%s=%d" % (k, v) for k, v in sorted(json.load(open(sys.argv[1]))["buckets"].items()) if v))' "$1"
}
nojson() {	# the report's JSON without its input's name
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d.pop("input"); print(json.dumps(d, sort_keys=True))' "$1"
}

for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || skip "$cc not installed"
	B="$T/fx-$cc"
	build_fixture "$top_srcdir/tests/elf/fx-patch.c" "$B" $cc 5 -O1 -no-pie \
		-Wl,--defsym=_stext=_init -Wl,--defsym=_text=_init -Wl,--defsym=_etext=_fini
	sym() { nm "$B" | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
	SA=$(sym site_alt) EA=$(sym end_alt) SJ=$(sym site_jl) EJ=$(sym end_jl)
	FR=$(sym fx_read) TX=$(sym _text)
	[ $((EA - SA)) = 5 ] && [ $((EJ - SJ)) = 5 ] || fail "$cc: fx-patch's sites are not 5 bytes"
	D="$T/pd-$cc"
	python3 "$MK" "$B" "$D/kcore_dir" --kaslr $K --write "${SA#0x}:9090909090" \
		--write "${SJ#0x}:eb03909090" || fail "$cc: kcore-make"

	# the reader's bytes, gdb's bytes
	for x in "$SA:5:90 90 90 90 90" "$SJ:5:eb 03 90 90 90" "$FR:4:"; do
		a=${x%%:*} r=${x#*:} n=${r%%:*} want=${r#*:}
		got=$("$KB" "$D/kcore_dir" "$(hex "$a")" "$n") || fail "$cc: kcore-bytes $a"
		g=$(gbytes "$D/kcore_dir/kcore" "$(hex "$a")" "$n")
		echo "$cc: $a: kcore-bytes '$got', gdb '$g'"
		[ -n "$g" ] && [ "$got" = "$g" ] || fail "$cc: the reader and gdb differ at $a"
		[ -z "$want" ] || [ "$got" = "$want" ] || fail "$cc: at $a: want $want"
	done
	[ "$("$KB" "$D/kcore_dir" "$(hex 0x10)" 1)" = none ] || fail "$cc: bytes where no segment is"

	# samples at the sites: with the copy, with TEXT_POKEs, with neither
	mmap="0x$(hex "$TX"),0x100000,0x$(hex "$TX"),[kernel.kallsyms]_text"
	printf 'lcl-hitm:0xffff888200000040:1:0:0:0x%s\nlcl-hitm:0xffff888200000080:1:0:0:0x%s\n' \
		"$(hex "$SA")" "$(hex "$SJ")" >"$T/specs"
	"$GEN" -o "$D/data" --specs "$T/specs" --mmap "$mmap" >/dev/null 2>&1 || fail "gen-c2c"
	"$GEN" -o "$T/poke.data" --specs "$T/specs" --mmap "$mmap" \
		--text-poke "0x$(hex "$SA"):cccccccccc:9090909090" \
		--text-poke "0x$(hex "$SJ"):cccccccccc:eb03909090" >/dev/null 2>&1 || fail "gen-c2c poke"
	for x in kcore:"$D" file:"$D/data" poke:"$T/poke.data"; do
		"$HITMAP" report -i "${x#*:}" --vmlinux "$B" --json >"$T/${x%%:*}.json" 2>"$T/err" ||
			{ cat "$T/err" >&2; fail "$cc: report ${x%%:*}"; }
	done
	echo "$cc: with the copy: $(buckets "$T/kcore.json"); TEXT_POKE: $(buckets "$T/poke.json"); the data file alone: $(buckets "$T/file.json")"
	[ "$(buckets "$T/kcore.json")" = "no-mem-operand=2" ] || fail "$cc: the sites are not decoded from the copy"
	[ "$(buckets "$T/file.json")" = "patched-text=2" ] || fail "$cc: without the copy, the sites are patched-text"
	[ "$(nojson "$T/kcore.json")" = "$(nojson "$T/poke.json")" ] || fail "$cc: the copy's report is not the TEXT_POKE one's"
	# a recording without a kernel map: the copy's kallsyms places the kernel
	rm -rf "$T/nm" && mkdir "$T/nm" && ln -s "$D/kcore_dir" "$T/nm/kcore_dir"
	"$GEN" -o "$T/nm/data" --specs "$T/specs" >/dev/null 2>&1 || fail "gen-c2c without a map"
	"$HITMAP" report -i "$T/nm" --vmlinux "$B" --json >"$T/nm.json" 2>"$T/err" || fail "$cc: report without a map"
	echo "$cc: no kernel map, the copy's offset: $(buckets "$T/nm.json") $(cat "$T/err")"
	[ "$(buckets "$T/nm.json")" = "no-mem-operand=2" ] && [ ! -s "$T/err" ] ||
		fail "$cc: without a kernel map, the copy's KASLR offset is not used"
	rm -rf "$T/nk" && mkdir "$T/nk" && cp "$D/data" "$T/nk/data"
	"$HITMAP" report -i "$T/nk" --vmlinux "$B" --json >"$T/nk.json" 2>"$T/err" || fail "$cc: report -i DIR"
	[ "$(nojson "$T/nk.json")" = "$(nojson "$T/file.json")" ] || fail "$cc: -i DIR is not -i DIR/data"

	# explain: the copy's bytes, gdb's
	"$HITMAP" report -i "$D" --vmlinux "$B" --explain "$SJ" >"$T/explain" 2>&1 || fail "$cc: explain"
	got=$(awk '/instruction:/ { sub(/.*instruction: 0x[0-9a-f]*: /, ""); sub(/  .*/, ""); print; exit }' "$T/explain")
	[ "$got" = "$(gbytes "$D/kcore_dir/kcore" "$(hex "$SJ")" 2)" ] && grep -q "bytes: the kcore copy's" "$T/explain" ||
		{ cat "$T/explain"; fail "$cc: explain $SJ decodes '$got'"; }
	echo "$cc: explain $SJ: $got, from the copy"
done

# bad input: exit 3, one line naming the file, no report
bad() {	# WHAT DIR PATTERN
	"$HITMAP" report -i "$2" --vmlinux "$B" >"$T/bad.out" 2>"$T/bad.err"
	rc=$?
	echo "$1: exit $rc: $(cat "$T/bad.err")"
	[ $rc = 3 ] && [ "$(wc -l <"$T/bad.err")" = 1 ] && grep -q -- "$3" "$T/bad.err" && [ ! -s "$T/bad.out" ] ||
		fail "$1: want exit 3, one line matching '$3', no report"
}
newdir() {	# DIR [kcore-make args]: data and a fresh copy
	d=$1
	rm -rf "$d" && mkdir -p "$d" && cp "$D/data" "$d/data" || fail "newdir"
	shift
	python3 "$MK" "$B" "$d/kcore_dir" "$@" || fail "kcore-make $*"
}
mkdir -p "$T/b0"
bad "a directory without data" "$T/b0" "$T/b0: a directory without a perf.data file 'data'"
newdir "$T/b" --kaslr $K && : >"$T/b/data.0"
bad "a stream beside a single-file recording" "$T/b" "$T/b/data.0: a stream beside a single-file recording"
newdir "$T/b" --kaslr $K && rm "$T/b/kcore_dir/kcore"
bad "kcore_dir without kcore" "$T/b" "$T/b/kcore_dir: no kcore"
newdir "$T/b" --kaslr $K && rm "$T/b/kcore_dir/kallsyms"
bad "kcore_dir without kallsyms" "$T/b" "$T/b/kcore_dir: no kallsyms"
newdir "$T/b" --kaslr $K && printf 'not an ELF file\n' >"$T/b/kcore_dir/kcore"
bad "kcore not ELF" "$T/b" "$T/b/kcore_dir/kcore: offset 0: not an ELF core file"
newdir "$T/b" --kaslr $K --truncate 4200
bad "kcore cut short" "$T/b" "$T/b/kcore_dir/kcore: offset 4096: segment of .* goes past the end of the file (4200 bytes)"
newdir "$T/b" --kaslr $K --truncate 100
bad "kcore cut in its headers" "$T/b" "$T/b/kcore_dir/kcore: offset 64: 1 program headers go past the end"
newdir "$T/b" --kaslr $K && printf 'zz T broken\n' >>"$T/b/kcore_dir/kallsyms"
bad "a bad kallsyms line" "$T/b" "$T/b/kcore_dir/kallsyms:[0-9]*:1: not \"ADDRESS TYPE NAME\""
newdir "$T/b" --kaslr $K --move-funcs 0x10
bad "another build's copy" "$T/b" "the text of another kernel than $B"
newdir "$T/b" --kaslr 0xffffffff83000000
bad "another KASLR offset" "$T/b" "not this recording's kernel"
echo "PASS"
