# Sourced by the layout tests: build_layout_fixtures DIR [CONFIG...] compiles
# the layout fixtures (tests/layout/fx-*.c linked into one program, the C++
# fixture, and the shared tests/fixtures mm_v1, mm_v2, groups) for every
# CONFIG (compiler:dwarf-version:optimisation, default: LAYOUT_CONFIGS)
# into DIR/CONFIG/, two compiles at a time.  Every command is echoed to
# stderr.
#
# LAYOUT_CONFIGS: gcc and clang with DWARF 4 and 5, each compiler at -O0 and
# -O2 (the optimisation level changes code, not types).  `make check` builds
# them once, before the tests (mk/layout.am: tests/layout/fixtures/), and
# every test that asks for some of them copies that build instead of
# compiling its own: four tests compiled the same forty programs.
LAYOUT_CONFIGS="gcc:4:-O0 gcc:5:-O2 clang:4:-O2 clang:5:-O0"
LAYOUT_FIXTURE_SOURCES="layout/fx-main.c layout/fx-basic.c layout/fx-bits.c layout/fx-nest.c
	layout/fx-align.c layout/fx-faults.c layout/fx-cxx.cc fixtures/mm_common.h
	fixtures/mm_v1.c fixtures/mm_v2.c fixtures/groups.c layout/build-fixtures.sh"

build_layout_fixtures() {
	dir=$1; shift
	configs=${*:-$LAYOUT_CONFIGS}
	layout_fixtures_copy "$dir" $configs && return 0
	src=$TESTS_SRC/layout
	fix=$TESTS_SRC/fixtures
	: >"$dir/build.cmds"
	for cfg in $configs; do
		cc=${cfg%%:*}; rest=${cfg#*:}; dw=${rest%%:*}; opt=${rest#*:}
		cxx=g++; [ "$cc" = clang ] && cxx=clang++
		out="$dir/$cc-$dw$opt"
		mkdir -p "$out"
		flags="-g -gdwarf-$dw $opt"
		echo "$cc $flags -o $out/fx $src/fx-main.c $src/fx-basic.c $src/fx-bits.c $src/fx-nest.c $src/fx-align.c $src/fx-faults.c" >>"$dir/build.cmds"
		echo "$cxx $flags -o $out/fxcxx $src/fx-cxx.cc" >>"$dir/build.cmds"
		for f in mm_v1 mm_v2 groups; do
			echo "$cc $flags -o $out/$f $fix/$f.c" >>"$dir/build.cmds"
		done
	done
	sed 's/^/+ /' "$dir/build.cmds" >&2
	tr '\n' '\0' <"$dir/build.cmds" | xargs -0 -P 2 -I{} sh -c '{}' ||
		fail "cannot build the layout fixtures"
}

# layout_fixtures_copy DIR CONFIG...: copy the CONFIGs' builds that make
# check made into DIR; false when there is none, or one of its sources is
# newer than it (a test run by hand after an edit).
layout_fixtures_copy() {
	[ -n "${top_builddir:-}" ] || return 1
	lf_pre=$top_builddir/tests/layout/fixtures
	[ -f "$lf_pre/stamp" ] || return 1
	for lf_f in $LAYOUT_FIXTURE_SOURCES; do
		[ "$TESTS_SRC/$lf_f" -nt "$lf_pre/stamp" ] && return 1
	done
	lf_d=$1; shift
	set -- $(for lf_c in "$@"; do
		lf_r=${lf_c#*:}
		echo "$lf_pre/${lf_c%%:*}-${lf_r%%:*}${lf_r#*:}"
	done)
	for lf_c; do [ -d "$lf_c" ] || return 1; done
	echo "+ cp -R $* $lf_d/" >&2
	cp -R "$@" "$lf_d/"
}
