#!/bin/sh
# Patch sites: a program laid out like a kernel's patched text (fx-patch.c:
# one site of each kind between labels site_KIND / end_KIND, and the tables
# the kernel reads at boot).  Samples at IPs inside a site land in the
# patched-text bucket; at each site's end label (the next instruction) they
# do not.  The oracle is the assembler's placement of the labels (nm), not
# the tables hitmap reads.  Built with gcc and clang; the kernel-scale
# check against gdb is tests/vmlinux/patchsites.test.  Then the same as a
# kernel module, whose tables are read through their relocations
# (tests/vmlinux/module-sites.test does Debian's xfs.ko).
. "$top_srcdir/tests/lib.sh"
require nm binutils
require readelf binutils
require python3 python3
GEN="$top_builddir/tests/perf/gen-c2c"
[ -x "$GEN" ] || fail "tests/perf/gen-c2c is not built (make check builds it)"
FX="$top_srcdir/tests/elf/fx-patch.c"

sym() { nm "$1" | awk -v s="$2" '$3 == s { print "0x" $1 }'; }

for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || skip "$cc not installed"
	B="$T/fx-$cc"
	build_fixture "$FX" "$B" $cc 5 -O1 -no-pie
	load=$(readelf -lW "$B" | awk '$1 == "LOAD" && $8 == "E" { print $2, $3, $5; exit }')
	set -- $load
	[ $# = 3 ] || fail "$cc: no executable PT_LOAD in $B"
	off=$1 va=$2 len=$3
	: >"$T/in.$cc"; : >"$T/out.$cc"
	i=0
	for k in alt pv sc jl rp rt; do
		s=$(sym "$B" site_$k) e=$(sym "$B" end_$k)
		[ -n "$s" ] && [ -n "$e" ] || fail "$cc: no site_$k / end_$k in $B"
		# the first and the last byte of the site, then the next instruction
		for ip in $s $((e - 1)); do
			i=$((i + 1))
			printf 'lcl-hitm:0x%x:1:0:0:0x%x\n' $((0x7f0000000000 + i * 64)) $ip >>"$T/in.$cc"
		done
		i=$((i + 1))
		printf 'lcl-hitm:0x%x:1:0:0:0x%x\n' $((0x7f0000000000 + i * 64)) $e >>"$T/out.$cc"
	done
	for set in in out; do
		"$GEN" -o "$T/$set.$cc.data" --specs "$T/$set.$cc" --mmap "$va,$len,$off,$B" \
			>/dev/null 2>&1 || fail "gen-c2c $set.$cc"
		"$HITMAP" report -i "$T/$set.$cc.data" --json >"$T/$set.$cc.json" 2>"$T/err" ||
			{ cat "$T/err" >&2; fail "$cc: report $set: exit $?"; }
	done
	python3 - "$T/in.$cc.json" "$T/out.$cc.json" <<'PY' || fail "$cc: buckets"
import json, sys
b_in = {k: v for k, v in json.load(open(sys.argv[1]))["buckets"].items() if v}
b_out = {k: v for k, v in json.load(open(sys.argv[2]))["buckets"].items() if v}
print("inside:", b_in, "next instruction:", b_out)
assert b_in == {"patched-text": 12}, b_in
assert "patched-text" not in b_out and sum(b_out.values()) == 6, b_out
PY
done

# A module (fx-patch-mod.c, built -c: ET_REL with .gnu.linkonce.this_module):
# its tables are read through their relocations, the sites at the module's
# load addresses (.text first, at offset 0 of its core); a kernel-mode map
# of the .ko, the executable fixture standing in for the vmlinux.
B=0xffffffffc0a00000
for cc in gcc clang; do
	M="$T/fxm-$cc.ko"
	echo "+ $cc -g -O1 -c -o $M fx-patch-mod.c" >&2
	$cc -g -O1 -c -o "$M" "$top_srcdir/tests/elf/fx-patch-mod.c" || fail "cannot build fx-patch-mod.c with $cc"
	# the loader lays executable sections out first, in index order
	[ "$(readelf -SW "$M" | sed 's/^ *\[ *[0-9]*\] //' | awk '$0 ~ / AX / { print $1; exit }')" = .text ] ||
		fail "$cc: .text is not the module's first executable section"
	# "N IP" per sample, made into specs by one Python run (kernel
	# addresses do not fit the shell's signed arithmetic)
	: >"$T/min.$cc.ips"; : >"$T/mout.$cc.ips"
	i=0
	for k in alt pv sc jl rp rt; do
		s=$(sym "$M" site_$k) e=$(sym "$M" end_$k)
		[ -n "$s" ] && [ -n "$e" ] || fail "$cc: no site_$k / end_$k in $M"
		for ip in $s $((e - 1)); do
			i=$((i + 1))
			echo "$i $ip" >>"$T/min.$cc.ips"
		done
		i=$((i + 1))
		echo "$i $e" >>"$T/mout.$cc.ips"
	done
	for set in min mout; do
		python3 -c 'import sys
for l in open(sys.argv[2]):
    i, ip = l.split()
    print("lcl-hitm:0x%x:1:0:0:0x%x" % (0xffff888100000000 + int(i) * 64, int(sys.argv[1], 0) + int(ip, 0)))' \
			$B "$T/$set.$cc.ips" >"$T/$set.$cc" || fail "$cc: specs $set"
	done
	for set in min mout; do
		"$GEN" -o "$T/$set.$cc.data" --specs "$T/$set.$cc" --mmap "$B,0x100000,0,$M" \
			>/dev/null 2>&1 || fail "gen-c2c $set.$cc"
		"$HITMAP" report -i "$T/$set.$cc.data" --vmlinux "$T/fx-$cc" --json >"$T/$set.$cc.json" 2>"$T/err" ||
			{ cat "$T/err" >&2; fail "$cc: report $set: exit $?"; }
	done
	python3 - "$T/min.$cc.json" "$T/mout.$cc.json" <<'PY' || fail "$cc: module buckets"
import json, sys
b_in = {k: v for k, v in json.load(open(sys.argv[1]))["buckets"].items() if v}
b_out = {k: v for k, v in json.load(open(sys.argv[2]))["buckets"].items() if v}
print("module: inside:", b_in, "next instruction:", b_out)
assert b_in == {"patched-text": 12}, b_in
assert "patched-text" not in b_out and sum(b_out.values()) == 6, b_out
PY
done
echo "PASS"
