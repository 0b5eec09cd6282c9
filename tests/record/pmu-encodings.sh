#!/bin/sh
# PMU mode: the attrs `hitmap record` builds for Haswell, Skylake-X, Ice Lake-X
# and Sapphire Rapids, checked without opening any event (--dry-run with
# LIBPFM_FORCE_PMU).  Expected values come from two places:
#  - libpfm4 itself: tests/record/pfm-oracle.c, compiled now, encodes the
#    same event strings; every type/config/config1/precise_ip must agree;
#  - the facts in docs/facts.md ("Recording"): load latency = 0x1cd with ldlat in
#    config1, all stores = 0x82d0, mem-loads-aux = 0x8203 leading the loads
#    on Sapphire Rapids, which report WEIGHT_STRUCT instead of WEIGHT.
. "$top_srcdir/tests/lib.sh"

$CC -o "$T/pfm-oracle" "$TESTS_SRC/record/pfm-oracle.c" -lpfm ||
	fail "cannot build the libpfm4 oracle (libpfm4-dev)"

# sample_type from the PERF_SAMPLE_* bit numbers (uapi perf_event.h):
# IP 0, TID 1, TIME 2, ADDR 3, ID 6, CPU 7, PERIOD 8, DATA_SRC 15,
# PHYS_ADDR 19, plus WEIGHT 14 or WEIGHT_STRUCT 24.
base=$(( (1<<0)|(1<<1)|(1<<2)|(1<<3)|(1<<6)|(1<<7)|(1<<8)|(1<<15)|(1<<19) ))
st_weight=$(printf '%#x' $(( base | (1<<14) )))
st_wstruct=$(printf '%#x' $(( base | (1<<24) )))

# field LINE KEY: the value of KEY=VALUE in a --dry-run line.
field() {
	echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# check_event MODEL OUTFILE INDEX NAME: line INDEX names NAME and agrees with
# the oracle on every encoded field.
check_event() {
	line=$(sed -n "s/^$3 //p" "$2")
	[ -n "$line" ] || fail "$1: no event $3"
	name=${line%%: *}
	assert_eq "$4" "$name" "$1 event $3 name"
	want=$(LIBPFM_FORCE_PMU=$1 "$T/pfm-oracle" $oracle_flags "$name") ||
		fail "$1: libpfm4 cannot encode $name"
	for k in type config config1 precise_ip exclude_kernel; do
		assert_eq "$(field "$want" $k)" "$(field "$line" $k)" "$1 $name $k (libpfm4)"
	done
}

oracle_flags=
for model in hsw skx icx spr; do
	out="$T/$model.out"
	LIBPFM_FORCE_PMU=$model "$HITMAP" record --dry-run >"$out" ||
		fail "$model: record --dry-run failed"
	head -1 "$out" | grep -q "^pmu: $model " || fail "$model: wrong PMU: $(head -1 "$out")"
	case $model in
	hsw) stores=MEM_UOPS_RETIRED:ALL_STORES ;;	# Haswell's name for 0x82d0
	*) stores=MEM_INST_RETIRED:ALL_STORES ;;
	esac
	loads=MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30:precise=2
	if [ $model = spr ]; then
		assert_eq 3 "$(grep -c "^[0-9]" "$out")" "spr: event count"
		aux=$(sed -n 's/^0 //p' "$out")
		assert_eq mem-loads-aux "${aux%%: *}" "spr: group leader"
		assert_eq 4 "$(field "$aux" type)" "spr aux type"
		assert_eq 0x8203 "$(field "$aux" config)" "spr aux config"
		assert_eq - "$(field "$aux" leader)" "spr aux leads its group"
		assert_eq "$st_wstruct" "$(field "$aux" sample_type)" "spr aux sample_type"
		li=1 si=2 st=$st_wstruct lead=0
	else
		assert_eq 2 "$(grep -c "^[0-9]" "$out")" "$model: event count"
		li=0 si=1 st=$st_weight lead=-
	fi
	check_event $model "$out" $li "$loads"
	check_event $model "$out" $si "$stores:precise=2"
	l=$(sed -n "s/^$li //p" "$out")
	s=$(sed -n "s/^$si //p" "$out")
	# docs/facts.md: load latency 0x1cd, ldlat 30 = 0x1e in config1, stores 0x82d0.
	assert_eq 0x1cd "$(field "$l" config)" "$model loads config"
	assert_eq 0x1e "$(field "$l" config1)" "$model loads config1 (ldlat 30)"
	assert_eq 2 "$(field "$l" precise_ip)" "$model loads precise_ip"
	assert_eq 0x82d0 "$(field "$s" config)" "$model stores config"
	assert_eq 2 "$(field "$s" precise_ip)" "$model stores precise_ip"
	assert_eq "$st" "$(field "$l" sample_type)" "$model loads sample_type"
	assert_eq "$st" "$(field "$s" sample_type)" "$model stores sample_type"
	assert_eq "$lead" "$(field "$l" leader)" "$model loads group leader"
	assert_eq - "$(field "$s" leader)" "$model stores own group"
	# Frequency mode by default (4000 Hz, perf's default); side-band
	# tracking (mmap/comm/task) on the first event only.
	assert_eq 4000 "$(field "$l" freq)" "$model default frequency"
	assert_eq 1 "$(grep -c 'track=1' "$out")" "$model tracking events"
	assert_eq 1 "$(field "$(sed -n 's/^0 //p' "$out")" track)" "$model tracks on event 0"
done

# --ldlat 50 → config1 = 50 = 0x32; -c 20000 → a fixed period.
l=$(LIBPFM_FORCE_PMU=skx "$HITMAP" record --dry-run --ldlat 50 -c 20000 | sed -n 's/^0 //p')
assert_eq 0x32 "$(field "$l" config1)" "--ldlat 50"
assert_eq 20000 "$(field "$l" period)" "-c 20000"

# --user-only: exclude_kernel, as libpfm4 encodes user level only (-u).
LIBPFM_FORCE_PMU=icx "$HITMAP" record --dry-run --user-only >"$T/icx-u.out" || fail "--user-only"
oracle_flags=-u
check_event icx "$T/icx-u.out" 0 MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30:precise=2
assert_eq 1 "$(field "$(sed -n 's/^1 //p' "$T/icx-u.out")" exclude_kernel)" "--user-only stores"
oracle_flags=

# -e replaces the pair; docs/facts.md: MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM = 0x4d2.
LIBPFM_FORCE_PMU=skx "$HITMAP" record --dry-run -e MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM \
	>"$T/e.out" || fail "-e"
assert_eq 1 "$(grep -c '^[0-9]' "$T/e.out")" "-e event count"
assert_eq 0x4d2 "$(field "$(sed -n 's/^0 //p' "$T/e.out")" config)" "-e XSNP_HITM config"
assert_exit 2 "-e unknown event" env LIBPFM_FORCE_PMU=skx "$HITMAP" record --dry-run -e NO_SUCH_EVENT
grep -q "NO_SUCH_EVENT" "$T/err" || fail "-e error does not name the event"

# Usage errors.
assert_exit 2 "-F with -c" "$HITMAP" record --dry-run -F 100 -c 100
assert_exit 2 "-p with -a" "$HITMAP" record -a -p 1
assert_exit 2 "nothing to record" "$HITMAP" record

# A machine without a memory-sampling PMU (this is checked only where sysfs
# shows none, e.g. a VM): timer samples with registers, and a note saying so.
d=/sys/bus/event_source/devices
if [ ! -e $d/cpu ] && [ ! -e $d/cpu_core ] && [ ! -e $d/ibs_op ]; then
	unset LIBPFM_FORCE_PMU
	assert_exit 0 "no PMU" "$HITMAP" record -o "$T/none.data" -- true
	grep -q "^note: no memory-sampling PMU and no --watch: recording timer samples with registers (task-clock, [0-9]* Hz, user space)$" \
		"$T/err" || { cat "$T/err" >&2; fail "no-PMU note"; }
	[ -s "$T/none.data" ] || fail "no PMU: no recording"
fi
exit 0
