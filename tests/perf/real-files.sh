#!/bin/sh
# The reader and the classifier on two real perf.data files (perf 5.4 c2c
# record, Intel; perf 4.4 mem record, an older header generation): every
# sample's tid, cpu, addr, data_src, weight and ip equal perf script's, and
# the c2c counts equal perf c2c report's.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/perf/lib-perf.sh"
require perf linux-perf
C2C="$DATA/c2c-intel-perf5.4.data"
MEM="$DATA/mem-intel-perf4.4.data"

compare_samples "$C2C" tid,cpu,addr,data_src,weight,ip 18
compare_samples "$MEM" tid,addr,data_src,weight,ip 14
compare_c2c "$C2C"
compare_c2c "$MEM"

# The data's README: 18 stores, all L1 hits, no loads.
assert_eq 18 "$(c2c_value "$C2C" "Store L1D Hit")" "c2c file L1 store hits"
assert_eq 0 "$(c2c_value "$C2C" "Load Operations")" "c2c file loads"

# Header: event names (EVENT_DESC) as perf report --header-only shows them.
for f in "$C2C" "$MEM"; do
	perf report -i "$f" --header-only 2>/dev/null |
		sed -n 's/^# event : name = \(.*\), , .*/\1/p' >"$T/names-perf"
	"$PD" --info "$f" | sed -n 's/^event [0-9]* name \([^ ]*\) .*/\1/p' >"$T/names-ours"
	assert_files_eq "$T/names-perf" "$T/names-ours" "$f: event names"
	for k in hostname "os release" arch "perf version" cpudesc cpuid; do
		want=$(perf report -i "$f" --header-only 2>/dev/null | sed -n "s/^# $k : //p")
		key=$(echo "$k" | tr ' ' '_')
		got=$("$PD" --info "$f" | sed -n "s/^$key //p")
		assert_eq "$want" "$got" "$f: $k"
	done
done
# The build-id tables (BUILD_ID feature) as perf buildid-list prints them.
for f in "$C2C" "$MEM"; do
	perf buildid-list -i "$f" 2>/dev/null >"$T/bid-perf"
	"$PD" --info "$f" | sed -n 's/^build_id //p' >"$T/bid-ours"
	[ -s "$T/bid-perf" ] || fail "$f: perf lists no build ids"
	assert_files_eq "$T/bid-perf" "$T/bid-ours" "$f: build-id table"
done
# perf 5.4 wrote the CACHE feature: 64-byte lines.
assert_eq "cacheline_size 64" "$("$PD" --info "$C2C" | grep cacheline_size)" "CACHE feature"
echo "real files: ok"
