#!/bin/sh
# gen-c2c writes c2c-like perf.data files through libhitmap's writer.  The
# real perf proves them: perf script decodes every sample as intended and
# perf c2c report accepts them; hitmap's counts (totals and per cacheline
# lcl_hitm, rmt_hitm, loads, stores L1 hit/miss, ...) equal perf c2c's.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/perf/lib-perf.sh"
require perf linux-perf

# 1. One sample of each kind; perf's decoding of each names what the kind
#    means (level, snoop result).
"$GEN" -o "$T/kinds.data" l1hit:0x601000 lfb:0x601000 l2hit:0x601000 l3hit:0x601000 \
	lcl-hitm:0x601000 rmt-hitm:0x601000 rmt-hitm-skx:0x601000 peer:0x601000 \
	rmt-peer:0x601000 lcl-dram:0x601000 rmt-dram:0x601000 unc:0x601000 \
	st-l1hit:0x601000 st-l1miss:0x601000 st-na:0x601000 || fail "gen-c2c kinds"
cat >"$T/kinds.want" <<'W'
|OP LOAD|LVL L1 or L1 hit|SNP None|
|OP LOAD|LVL LFB/MAB or LFB/MAB hit|SNP None|
|OP LOAD|LVL L2 or L2 hit|SNP None|
|OP LOAD|LVL L3 or L3 hit|SNP None|
|OP LOAD|LVL L3 or L3 hit|SNP HitM|
|OP LOAD|LVL Remote Cache (1 hop) hit|SNP HitM|
|OP LOAD|LVL Remote Any cache|SNP HitM|
|OP LOAD|LVL L2 or L2 hit|SNP Peer|
|OP LOAD|LVL Remote Cache (1 hop) hit|SNP Peer|
|OP LOAD|LVL Local RAM or RAM hit|SNP Miss|
|OP LOAD|LVL Remote RAM (1 hop) or RAM hit|SNP Hit|
|OP LOAD|LVL Uncached hit|SNP None|
|OP STORE|LVL L1 hit|SNP N/A|
|OP STORE|LVL L1 miss|SNP N/A|
|OP STORE|LVL N/A|SNP N/A|
W
perf script -i "$T/kinds.data" -F data_src 2>/dev/null | sed 's/^ *[0-9a-f]* *\(|OP [^|]*|LVL [^|]*|SNP [^|]*|\).*/\1/' >"$T/kinds.got"
assert_files_eq "$T/kinds.want" "$T/kinds.got" "perf script's decoding of the generated kinds"
compare_samples "$T/kinds.data" tid,cpu,addr,data_src,weight,ip 15
compare_c2c "$T/kinds.data"

# 2. A false-sharing scene: line 0x601000 written by CPU 0 at +0x0 and read
#    with HITMs by CPUs 1-3 at +0x8 (local) and +0x10 (remote, both
#    encodings); line 0x601040 only read; line 0x601080 stores that miss L1.
"$GEN" -o "$T/scene.data" --cpus 4 \
	st-l1hit:0x601000:6:0:4242 lcl-hitm:0x601008:5:1:4243 rmt-hitm:0x601010:3:2:4244 \
	rmt-hitm-skx:0x601018:2:3:4244 l1hit:0x601040:4:1 lfb:0x601048:2:2 \
	st-l1miss:0x601080:3:3 lcl-hitm:0x601090:1:2 || fail "gen-c2c scene"
compare_samples "$T/scene.data" tid,cpu,addr,data_src,weight,ip 26
compare_c2c "$T/scene.data"
# and the per-line numbers are the ones the scene was built from
"$PD" --c2c "$T/scene.data" | awk '{
	lead = $1 == "line" ? $1 " " $2 : $1; out = lead
	split("records loads lcl_hitm rmt_hitm tot_hitm st_l1hit st_l1miss", K, " ")
	for (k = 1; k <= 7; k++)
		for (i = 2; i <= NF; i++)
			if (index($i, K[k] "=") == 1) out = out " " $i
	print out }' >"$T/scene.got"
cat >"$T/scene.want" <<'W'
line 0x601000 records=16 loads=10 lcl_hitm=5 rmt_hitm=5 tot_hitm=10 st_l1hit=6 st_l1miss=0
line 0x601040 records=6 loads=6 lcl_hitm=0 rmt_hitm=0 tot_hitm=0 st_l1hit=0 st_l1miss=0
line 0x601080 records=4 loads=1 lcl_hitm=1 rmt_hitm=0 tot_hitm=1 st_l1hit=0 st_l1miss=3
total records=26 loads=17 lcl_hitm=6 rmt_hitm=5 tot_hitm=11 st_l1hit=6 st_l1miss=3
W
assert_files_eq "$T/scene.want" "$T/scene.got" "scene: per-line counts"

# 3. Every data_src field random (3000 samples over 5 lines, some at address
#    0): perf c2c's rules and hitmap's agree on every counter.
"$GEN" -o "$T/random.data" --random-ds -n 3000 --cpus 2 l1hit:0x601000 \
	l1hit:0x601048 l1hit:0x601090 l1hit:0x6010c8 l1hit:0x601100:1:1 || fail "gen-c2c random"
compare_samples "$T/random.data" tid,cpu,addr,data_src,weight,ip 3000
compare_c2c "$T/random.data"

# 4. Encodings of the same samples: byte-swapped, one event without ids,
#    PERF_SAMPLE_IDENTIFIER, WEIGHT_STRUCT, empty extra fields (CALLCHAIN,
#    RAW, BRANCH_STACK, REGS_USER, STACK_USER, TRANSACTION, REGS_INTR,
#    CGROUP, DATA/CODE_PAGE_SIZE).
SCENE="st-l1hit:0x601000:3:0 lcl-hitm:0x601008:2:1 rmt-hitm-skx:0x601010:2:1 st-l1miss:0x601040"
# (perf 6.1 does not swap MMAP2 prot and flags, and then takes "//anon" for a
# file it runs addr2line on: the swapped file maps the fixture binary instead.)
build_fixture "$top_srcdir/tests/perf/target.c" "$T/target" "$CC" 4 -O1 -no-pie -pthread
for v in "--swap --mmap 0x400000,0x300000,0,$T/target" --one-event --identifier \
	--weight-struct "--extra-bits 0xe63c20"; do
	# shellcheck disable=SC2086
	"$GEN" -o "$T/v.data" $v --cpus 2 $SCENE || fail "gen-c2c $v"
	compare_samples "$T/v.data" tid,cpu,addr,data_src,weight,ip 8
	compare_c2c "$T/v.data"
done
"$GEN" -o "$T/v.data" --swap $SCENE
"$PD" --info "$T/v.data" | grep -q '^mode file byte-swapped$' || fail "--swap file not seen as swapped"

# 5. Many lines (a bench file in small): 4000 samples over 40 lines.
"$GEN" -o "$T/many.data" -n 4000 --random 40@0x7f0000001000 --cpus 2 || fail "gen-c2c many"
compare_c2c "$T/many.data"
echo "gen-c2c: ok"
