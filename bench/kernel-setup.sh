# bench/kernel-setup.sh: the generated kernel recording bench/report-kernel.sh
# and bench/kernel-vs-perf.sh share, sourced by them after they set HITMAP
# and GEN and checked their own tools.  The vmlinux is the script's first
# argument, else the Debian one tests/vmlinux/fetch.sh fetches ($V); it
# fails (77) without perf, objdump, nm or python3, sources bench/lib.sh
# (the scratch directory $out, $hm_cmd, measure, median, line), turns the
# type cache off (cold runs), and makes:
#   $out/sites   every memory-operand instruction DISP(%REG) of 1 in 8 of
#                the kernel's functions (tests/vmlinux/insn-sites.py on
#                objdump's listing), in address order
#   $out/specs   one c2c-like gen-c2c sample per site, kinds in turn, each
#                at a slab-like data address of its own, its IP
#                KASLR-shifted by 0x2a000000
#   $rtext, $kmap  the shifted _text and gen-c2c's --mmap of the kernel
#                there, as perf's kernel map has it
V=${1:-}
if [ -z "$V" ]; then
	. "$here/../tests/vmlinux/fetch.sh" || exit 1
	V=$VMLINUX
fi
for t in perf objdump nm python3; do
	command -v $t >/dev/null 2>&1 || { echo "$t not installed" >&2; exit 77; }
done
. "$here/lib.sh"
export HITMAP_NO_CACHE=1

nice objdump -d --no-show-raw-insn "$V" >"$out/listing" || exit 1
python3 "$here/../tests/vmlinux/insn-sites.py" "$out/listing" 8 1000000 >"$out/sites" || exit 1
rm -f "$out/listing"
python3 - "$out/sites" >"$out/specs" <<'PY' || exit 1
import sys
kinds = ["l1hit", "l1hit", "lcl-hitm", "rmt-hitm", "st-l1hit", "st-l1miss"]
for i, line in enumerate(open(sys.argv[1])):
    f = line.split()
    addr = 0xffff888100000000 + i * 0x10000 + int(f[2])
    print("%s:0x%x:1:%d:0:0x%x" % (kinds[i % 6], addr, i % 4, int(f[0], 16) + 0x2a000000))
PY
text=$(nm "$V" | awk '$3 == "_text" { print "0x" $1 }')
rtext=$(python3 -c "import sys; print(hex(int(sys.argv[1], 16) + 0x2a000000))" "$text")
kmap="$rtext,0x2000000,$rtext,[kernel.kallsyms]_text"
