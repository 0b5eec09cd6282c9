# Sourced by the layout tests: build_layout_fixtures DIR [CONFIG...] compiles
# the layout fixtures (tests/layout/fx-*.c linked into one program, the C++
# fixture, and the shared tests/fixtures mm_v1, mm_v2, groups) for every
# CONFIG (compiler:dwarf-version:optimisation, default: gcc and clang x
# -gdwarf-4/-gdwarf-5 x -O0/-O2) into DIR/CONFIG/, two compiles at a time.
# Every command is echoed to stderr.
LAYOUT_CONFIGS="gcc:4:-O0 gcc:4:-O2 gcc:5:-O0 gcc:5:-O2 clang:4:-O0 clang:4:-O2 clang:5:-O0 clang:5:-O2"

build_layout_fixtures() {
	dir=$1; shift
	configs=${*:-$LAYOUT_CONFIGS}
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
