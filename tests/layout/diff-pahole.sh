#!/bin/sh
# Differential test: for every struct, union and class of every layout fixture
# binary (gcc and clang x DWARF 4 and 5, each compiler at -O0 and -O2: the
# four builds compile-back.sh and json-text.sh use; the optimisation level
# changes code, not types: the other four builds' text, hitmap's and
# pahole's, is the same but for pahole's faults below), hitmap's text body
# equals pahole's (`pahole -F dwarf -M --suppress_force_paddings`) once
# hitmap's own "/* hitmap: " lines are removed (those that say what pahole
# 1.26 adds, member types' holes, carry pahole 1.24's counts of those types:
# member-holes.py), and `hitmap layout --list`
# agrees with `pahole --sizes` on names, order, sizes and holes.  -E (expand)
# and other line sizes (-c 32, -c 128) are compared on the DWARF 5 builds.  Types pahole prints wrong are listed
# in pahole-exceptions.txt and checked by pahole-faults.sh instead.
. "$top_srcdir/tests/lib.sh"
. "$TESTS_SRC/layout/build-fixtures.sh"
require pahole dwarves
build_layout_fixtures "$T" gcc:4:-O0 gcc:5:-O2 clang:4:-O2 clang:5:-O0
m=$T/manifest
printf '%s\n' "$TESTS_SRC/layout/pahole-exceptions.txt" >"$m"
for bin in "$T"/*/fx "$T"/*/fxcxx "$T"/*/mm_v1 "$T"/*/mm_v2 "$T"/*/groups; do
	label=${bin#"$T"/}
	modes="-M"
	case $label in *-5-O*/*) modes="-M -E -c32 -c128" ;; esac
	for mode in $modes; do
		case $mode in
		-E) paopt=-E; hmopt=-E ;;
		-c*) paopt=--cacheline_size=${mode#-c}; hmopt="-c ${mode#-c}" ;;
		*) paopt=; hmopt= ;;
		esac
		pahole -F dwarf -M --suppress_force_paddings $paopt "$bin" >"$bin.pa$mode" 2>/dev/null
		"$HITMAP" layout $hmopt "$bin" >"$bin.hm$mode" ||
			fail "$label: hitmap layout $mode failed"
		printf 'body\t%s\t%s\t%s\n' "$bin.pa$mode" "$bin.hm$mode" "$label $mode" >>"$m"
	done
	# pahole 1.26's member-type holes, hitmap lines here: pahole 1.24's
	# counts of the member types (C only: pahole loses C++ base classes)
	case $label in */fxcxx) ;; *)
		python3 "$TESTS_SRC/layout/member-holes.py" "$bin.pa-M" "$bin.hm-M" "$label" ||
			fail "$label: member type holes differ from pahole's counts"
	esac
	pahole -F dwarf --sizes "$bin" >"$bin.sizes" 2>/dev/null
	"$HITMAP" layout --list "$bin" >"$bin.list" || fail "$label: hitmap layout --list failed"
	printf 'list\t%s\t%s\t%s\t64\n' "$bin.sizes" "$bin.list" "$label" >>"$m"
done
# -C with typedef names, as pahole takes them: the typedefs of the fixtures
n=0
for cfg in gcc-5-O2 clang-4-O2; do
	for name in counters_t cmp_fn handler_t counter_t cvint anon_typedef_t ulong_t \
		    fx:atomic_t fx:spinlock_t fx:u64 fx:pgd_t fx:raw_spinlock_t; do
		bin=$T/$cfg/fx
		case $name in fx:*) name=${name#fx:}; bin=$T/$cfg/mm_v1 ;; esac
		pahole -F dwarf -M --suppress_force_paddings -C "$name" "$bin" >"$T/td.pa" 2>/dev/null
		"$HITMAP" layout -C "$name" "$bin" >"$T/td.hm" || fail "$cfg: hitmap layout -C $name"
		assert_files_eq "$T/td.pa" "$T/td.hm" "$cfg: -C $name (typedef) differs from pahole"
		n=$((n + 1))
	done
done
echo "$n typedef printouts equal pahole's"
python3 "$TESTS_SRC/layout/compare.py" manifest "$m" || fail "hitmap layout differs from pahole"
