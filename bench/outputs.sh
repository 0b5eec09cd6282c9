#!/bin/sh
# bench/outputs.sh: record what a hitmap binary prints for a fixed list of
# commands, to show that a change leaves the analysis output byte-identical.
#
#   bench/outputs.sh [-k VMLINUX] [-f FIXDIR] [-s SHARED] HITMAP OUTDIR
#   bench/outputs.sh --compare DIR1 DIR2
#
# The first form runs every command of the list below with HITMAP and writes
# one file per command into OUTDIR, named after the command, holding its
# command line, exit status, stdout and stderr (and a file it wrote).  The
# commands cover layout (text, --list, --json, -E, -c, --profile/--heat),
# check, lint, diff (text, --json, --sarif), report (text, --json,
# --save-profile) and suggest (--profile, --rules, --lint, perf.data,
# --patch, --json) on the test fixtures, and with -k the same kinds of
# command on a kernel image with DWARF (the Debian vmlinux of make
# check-vmlinux), with the type cache and without; plus usage and input
# errors.  No command records: every output is a function of the inputs.
#
# The inputs are built once into FIXDIR (default: OUTDIR/../fixtures): the
# fixtures compiled with gcc and clang, DWARF 4 and 5, as the test suite
# compiles them (sources copied under FIXDIR/src and compiled there with
# relative names), perf.data files written by the test generators
# tests/perf/gen-c2c and tests/report/gen-watch (taken from the build tree of
# HITMAP or of this checkout, or made there), profiles and rule files, and a
# copy of the real perf.data files of SHARED/data (default: the checkout's
# tests/data).  A later
# run reuses FIXDIR, so two builds recorded with the same FIXDIR read the
# very same files: every command runs in FIXDIR with relative paths (the
# kernel image through a link named scratch/vmlinux), a fresh private
# XDG_CACHE_HOME and the C locale; the absolute paths left in the outputs are
# FIXDIR's, which the compilers wrote into the fixtures' DWARF.
# OUTDIR/00-inputs.sha256 lists the inputs' checksums and the kernel's
# build-id, so a comparison also says when the inputs were not the same.
#
# The second form compares two OUTDIRs file by file: it prints the diff of
# each file that differs (the first 200 lines) and `N same, M differ`, and
# exits 1 if any differ.
#
# Typical use, before and after a change:
#   bench/outputs.sh -k VMLINUX ../old/hitmap ../out/old
#   bench/outputs.sh -k VMLINUX ./hitmap ../out/new
#   bench/outputs.sh --compare ../out/old ../out/new
# (the inputs then go to ../out/fixtures; a second run takes a minute)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# Bump when the inputs change: a FIXDIR of another version is built anew.
FIXTURES_VERSION="hitmap-outputs-fixtures 1"

usage() {
	echo "usage: bench/outputs.sh [-k VMLINUX] [-f FIXDIR] [-s SHARED] HITMAP OUTDIR" >&2
	echo "       bench/outputs.sh --compare DIR1 DIR2" >&2
	exit 2
}

# ---- --compare DIR1 DIR2 ----
compare() {
	[ -d "$1" ] && [ -d "$2" ] || { echo "outputs.sh: $1 and $2 must be directories" >&2; exit 2; }
	same=0 differ=0
	d=$(mktemp "${TMPDIR:-/tmp}/outputs-cmp.XXXXXX") || exit 2
	names=$( (ls -A "$1"; ls -A "$2") | LC_ALL=C sort -u)
	for f in $names; do
		if [ ! -f "$1/$f" ] || [ ! -f "$2/$f" ]; then
			differ=$((differ + 1))
			[ -f "$1/$f" ] && echo "=== $f: only in $1" || echo "=== $f: only in $2"
		elif cmp -s "$1/$f" "$2/$f"; then
			same=$((same + 1))
		else
			differ=$((differ + 1))
			echo "=== $f differs"
			diff -u "$1/$f" "$2/$f" >"$d"
			head -n 200 "$d"
			n=$(wc -l <"$d")
			[ "$n" -le 200 ] || echo "... ($n lines of diff in all)"
		fi
	done
	rm -f "$d"
	echo "$same same, $differ differ"
	[ "$differ" = 0 ]
}

if [ "${1:-}" = --compare ]; then
	[ $# = 3 ] || usage
	compare "$2" "$3"
	exit
fi

# the real perf.data files are SHARED/data: the checkout's tests/data
SHARED=$top/tests
VMLINUX= FIX=
while getopts k:f:s: o; do
	case $o in
	k) VMLINUX=$OPTARG ;;
	f) FIX=$OPTARG ;;
	s) SHARED=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 2 ] || usage
case $1 in /*) HITMAP=$1 ;; *) HITMAP=$(pwd)/$1 ;; esac
[ -x "$HITMAP" ] || { echo "outputs.sh: $HITMAP is not executable" >&2; exit 2; }
mkdir -p "$2" || exit 1
OUT=$(cd "$2" && pwd)
[ -n "$FIX" ] || FIX=$(dirname "$OUT")/fixtures
mkdir -p "$FIX" || exit 1
FIX=$(cd "$FIX" && pwd)
case $OUT/ in "$FIX"/*) echo "outputs.sh: OUTDIR must not be inside FIXDIR" >&2; exit 2 ;; esac
# Both are emptied and refilled: refuse directories that hold anything else.
[ -z "$(ls -A "$OUT")" ] || [ -f "$OUT/00-inputs.sha256" ] ||
	{ echo "outputs.sh: $OUT is not empty and holds no recorded outputs" >&2; exit 2; }
for f in $(ls -A "$FIX"); do
	case $f in src|bin|data|scratch|build.log|inputs.sha256|.complete) ;;
	*) echo "outputs.sh: $FIX holds $f: not a fixture directory" >&2; exit 2 ;;
	esac
done
if [ -n "$VMLINUX" ]; then
	[ -f "$VMLINUX" ] || { echo "outputs.sh: $VMLINUX: no such file" >&2; exit 2; }
	case $VMLINUX in /*) ;; *) VMLINUX=$(pwd)/$VMLINUX ;; esac
fi
export LC_ALL=C TZ=UTC
unset HITMAP_NO_CACHE
start=$(date +%s)

# ---- the inputs ----
die() { echo "outputs.sh: $*" >&2; exit 1; }
# build CMD...: run a build command in FIXDIR/src, logged in FIXDIR/build.log.
build() { echo "+ $*" >>"$FIX/build.log"; (cd "$FIX/src" && "$@") >>"$FIX/build.log" 2>&1 ||
	die "build failed: $* (see $FIX/build.log)"; }

# tool NAME (tests/perf/gen-c2c, tests/report/gen-watch): the generator from
# HITMAP's build tree or this checkout's, made in this checkout if need be.
tool() {
	for d in "$(dirname "$HITMAP")" "$top"; do
		[ -x "$d/$1" ] && { echo "$d/$1"; return; }
	done
	[ -f "$top/Makefile" ] && make -C "$top" "$1" >&2 && [ -x "$top/$1" ] &&
		{ echo "$top/$1"; return; }
	die "$1 is not built (make check, or make $1, in $top)"
}

# sym BIN NAME: link-time address of a symbol, as a number.
sym() {
	a=$(nm "$1" | awk -v n="$2" '$3 == n { print $1 }')
	[ -n "$a" ] || die "nm: no symbol $2 in $1"
	echo $((0x$a))
}
hex() { printf '0x%x' "$1"; }

build_fixtures() {
	echo "outputs.sh: building the inputs in $FIX" >&2
	for f in c2c-intel-perf5.4.data mem-intel-perf4.4.data; do
		[ -f "$SHARED/data/$f" ] ||
			die "$SHARED/data/$f is absent (give the folder holding data/ with -s)"
	done
	rm -rf "$FIX/src" "$FIX/bin" "$FIX/data" "$FIX/build.log" "$FIX/.complete" "$FIX/inputs.sha256"
	mkdir -p "$FIX/src/tests" "$FIX/src/rules" "$FIX/bin" "$FIX/data" || exit 1
	for d in layout fixtures check suggest report; do
		mkdir -p "$FIX/src/tests/$d"
		for f in "$top/tests/$d"/*.c "$top/tests/$d"/*.cc "$top/tests/$d"/*.h \
			"$top/tests/$d"/*.rules "$top/tests/$d"/*.json; do
			[ -f "$f" ] && cp "$f" "$FIX/src/tests/$d/"
		done
	done
	cp -R "$top/rules/linux" "$FIX/src/rules/" || exit 1
	{ gcc --version | head -1; clang --version | head -1; } >"$FIX/build.log"

	# The layout tests' builds (tests/layout/build-fixtures.sh), every
	# compiler, DWARF version and optimisation level.
	L=tests/layout
	for cfg in gcc:4:-O0 gcc:4:-O2 gcc:5:-O0 gcc:5:-O2 clang:4:-O0 clang:4:-O2 \
		clang:5:-O0 clang:5:-O2; do
		cc=${cfg%%:*}; rest=${cfg#*:}; dw=${rest%%:*}; opt=${rest#*:}
		cxx=g++; [ "$cc" = clang ] && cxx=clang++
		b=../bin/$cc-$dw$opt
		mkdir -p "$FIX/bin/$cc-$dw$opt"
		build $cc -g -gdwarf-$dw $opt -o $b/fx $L/fx-main.c $L/fx-basic.c $L/fx-bits.c \
			$L/fx-nest.c $L/fx-align.c $L/fx-faults.c
		build $cxx -g -gdwarf-$dw $opt -o $b/fxcxx $L/fx-cxx.cc
		for f in mm_v1 mm_v2 groups; do
			build $cc -g -gdwarf-$dw $opt -o $b/$f tests/fixtures/$f.c
		done
		[ "$opt" = -O0 ] || continue
		# The check tests' builds (-O0, gcc and clang, DWARF 4 and 5).
		build $cc -g -gdwarf-$dw -O0 -pthread -o $b/lint tests/check/lint.c
		build $cc -g -gdwarf-$dw -O0 -o $b/dir tests/check/directives.c
		build $cc -g -gdwarf-$dw -O0 -o $b/df1 tests/check/diff-facts.c
		build $cc -g -gdwarf-$dw -O0 -DV2 -o $b/df2 tests/check/diff-facts.c
		build $cc -g -gdwarf-$dw -O0 -o $b/heat $L/fx-heat.c
	done
	for cxx in g++ clang++; do
		build $cxx -g -gdwarf-5 -O0 -o ../bin/lcxx-$cxx tests/check/lint-cxx.cc
	done
	# The report tests' seed program: PIE, -O1 (lib-report.sh), and not PIE
	# for the watchpoint file (order.sh).
	for cc in gcc clang; do
		build $cc -g -gdwarf-4 -O1 -pthread -fPIE -pie -o ../bin/seed-$cc tests/report/seed.c
	done
	build gcc -g -gdwarf-4 -O1 -pthread -fno-pie -no-pie -o ../bin/seed-nopie tests/report/seed.c
	# The suggest tests' builds.
	build gcc -g -gdwarf-5 -O2 -o ../bin/mm-gcc tests/fixtures/mm_v2.c
	build clang -g -gdwarf-4 -O0 -o ../bin/mm-clang tests/fixtures/mm_v2.c
	build gcc -g -O2 -o ../bin/mm1-gcc tests/fixtures/mm_v1.c
	build gcc -g -gdwarf-4 -O2 -o ../bin/anon-gcc tests/suggest/anon.c
	build clang -g -gdwarf-5 -O0 -o ../bin/anon-clang tests/suggest/anon.c
	for cc in gcc clang; do
		build $cc -g -gdwarf-5 -O2 -o ../bin/counters-$cc tests/suggest/counters4.c
		build $cc -g -O2 -o ../bin/bits-$cc tests/suggest/bits.c
	done
	for cxx in g++ clang++; do
		build $cxx -g -O2 -o ../bin/pair-$cxx tests/suggest/pair.cc
	done

	# perf.data from the generators, as tests/report/hitm.sh writes them:
	# HITM loads and stores on g_stats and blocked_lock_lock of the PIE seed
	# loaded at 0x555555554000.
	GEN=$(tool tests/perf/gen-c2c) || exit 1
	GENW=$(tool tests/report/gen-watch) || exit 1
	export ASAN_OPTIONS=detect_leaks=0
	base=$((0x555555554000))
	for cc in gcc clang; do
		bin=$FIX/bin/seed-$cc
		st=$((base + $(sym "$bin" g_stats)))
		lk=$((base + $(sym "$bin" blocked_lock_lock)))
		ip=$((base + $(sym "$bin" main)))
		"$GEN" -o "$FIX/data/c2c-$cc.data" --pid 4242 --ip $(hex $ip) \
			--mmap $(hex $base),0x10000,0,"$bin" \
			lcl-hitm:$(hex $st):5:0:101 st-l1hit:$(hex $st):3:0:101 \
			rmt-hitm:$(hex $((st + 8))):4:1:102 st-l1miss:$(hex $((st + 8))):2:1:102 \
			l1hit:$(hex $((st + 16))):6:1:102 \
			lcl-hitm:$(hex $lk):3:0:101 lcl-hitm:$(hex $lk):2:1:102 \
			st-l1hit:$(hex $lk):4:0:101 st-l1hit:$(hex $lk):1:1:102 ||
			die "gen-c2c failed"
	done
	# An explicit object on the heap, no mapping (tests/report/cli.sh).
	obj=$((0x7f0000001000))
	"$GEN" -o "$FIX/data/obj.data" rmt-hitm:$(hex $((obj + 8))):4:1 \
		st-l1hit:$(hex $((obj + 8))):2:0 l1hit:0x7f0000100000:3:0 || die "gen-c2c failed"
	# Watchpoint samples in per-CPU chunks (tests/report/order.sh).
	bin=$FIX/bin/seed-nopie
	A=$(hex $(sym "$bin" g_stats))
	set -- $(readelf -lW "$bin" | awk '$1 == "LOAD" { print $2, $3; exit }')
	{
		echo "event $A w"
		echo "event $(hex $((A + 8))) w"
		echo "comm 100 seed"
		for r in 0 1 2 3; do
			for cpu in 0 1; do
				i=$((r * 25))
				while [ $i -lt $(((r + 1) * 25)) ]; do
					t=$((5000000000000 + i * 1000 + cpu * 500))
					[ $cpu = 1 ] && [ $i = 10 ] && t=$((5000000000000 + i * 1000))
					echo "sample $cpu 100 $((101 + cpu)) $cpu $t 0x401136"
					i=$((i + 1))
				done
				[ $r = 0 ] && [ $cpu = 0 ] && echo "mmap 100 $2 0x200000 $1 $bin"
			done
			echo round
		done
	} | "$GENW" -o "$FIX/data/watch.data" || die "gen-watch failed"
	# The real recordings of the shared data.
	for f in c2c-intel-perf5.4.data mem-intel-perf4.4.data; do
		cp "$SHARED/data/$f" "$FIX/data/" || exit 1
	done

	# Profiles and rules of the tests (tests/layout/heat.sh,
	# tests/suggest/seed.sh, evidence.sh, counters.sh, model.sh, cxx.sh).
	cat >"$FIX/data/pt.json" <<'EOP'
{"schema":"hitmap-profile/1",
 "source":{"input":"hand","kind":"hitm","samples":45,"attributed":45},
 "cacheline_size":64,
 "structs":[{"name":"heated","kind":"struct","size":128,"objects":["g_heated"],
  "fields":[
   {"path":"a","offset":0,"size":8,"samples":5,"loads":3,"stores":2,"lcl_hitm":1,"cpus":[0]},
   {"path":"u1","offset":8,"size":4,"samples":4,"loads":3,"stores":1,"rmt_hitm":3,"cpus":[1]},
   {"path":"s2","offset":10,"size":2,"samples":4,"loads":4,"lcl_hitm":2,"cpus":[0,1]},
   {"path":"in.y","offset":16,"size":4,"samples":10,"loads":5,"stores":5,"lcl_hitm":5,"cpus":[2]},
   {"path":"named.d","offset":32,"size":8,"samples":7,"stores":7,"cpus":[0,3]},
   {"path":"f2","offset":40,"size":4,"samples":1,"loads":1,"cpus":[3]},
   {"path":"arr[0]","offset":112,"size":4,"samples":1,"stores":1,"cpus":[0,1]},
   {"path":"arr[2]","offset":120,"size":4,"samples":4,"stores":4,"cpus":[1]},
   {"path":"removed","offset":124,"size":4,"samples":9,"loads":9,"cpus":[5]}]}]}
EOP
	cat >"$FIX/data/mm.profile" <<'JSON'
{"schema": "hitmap-profile/1",
 "source": {"input": "synthetic", "kind": "hitm", "samples": 1000, "attributed": 1000},
 "cacheline_size": 64,
 "structs": [{"name": "mm_struct", "kind": "struct", "size": 288, "objects": ["init_mm"],
   "fields": [
     {"path": "page_table_lock", "offset": 52, "size": 4, "samples": 400, "loads": 100,
      "stores": 300, "lcl_hitm": 150, "rmt_hitm": 50, "cpus": [1], "threads": [11]},
     {"path": "mmap_lock.count", "offset": 56, "size": 8, "samples": 600, "loads": 200,
      "stores": 400, "lcl_hitm": 250, "rmt_hitm": 50, "cpus": [0], "threads": [10]}],
   "pairs": [{"a": "page_table_lock", "b": "mmap_lock.count", "samples": 1000,
              "hitm": 500, "transfers": 0, "lines": 1, "cpus": [0, 1]}],
   "true_shared": []}]}
JSON
	cat >"$FIX/data/empty.profile" <<'JSON'
{"schema": "hitmap-profile/1", "source": {"input": "x", "kind": "hitm", "samples": 0,
 "attributed": 0}, "cacheline_size": 64,
 "structs": [{"name": "mm_struct", "kind": "struct", "size": 288, "fields": [],
   "pairs": [], "true_shared": []}]}
JSON
	python3 - >"$FIX/data/c.profile" <<'PY' || die "cannot write c.profile"
import itertools, json
fields = [{"path": "name", "offset": 0, "size": 8, "loads": 400, "stores": 0,
           "cpus": [0, 1, 2, 3]},
          {"path": "shift", "offset": 40, "size": 4, "loads": 400, "stores": 0,
           "cpus": [0, 1, 2, 3]}]
fields += [{"path": "c%d" % i, "offset": 8 + 8 * i, "size": 8, "loads": 0,
            "stores": 100, "cpus": [i]} for i in range(4)]
names = ["name", "c0", "c1", "c2", "c3", "shift"]
pairs = [{"a": a, "b": b, "samples": 20, "hitm": 10, "lines": 1, "cpus": [0, 1, 2, 3]}
         for a, b in itertools.combinations(names, 2)
         if not (a in ("name", "shift") and b in ("name", "shift"))]
print(json.dumps({"schema": "hitmap-profile/1",
                  "source": {"input": "synthetic", "kind": "hitm", "samples": 1000,
                             "attributed": 1000},
                  "cacheline_size": 64,
                  "structs": [{"name": "pcpu_counters", "kind": "struct", "size": 48,
                               "fields": fields, "pairs": pairs, "true_shared": []}]}))
PY
	printf 'struct mm_struct {\n\tapart mmap_lock page_table_lock\n}\n' >"$FIX/data/mm.rules"
	printf 'struct mm_struct {\n\tapart start_code end_code\n}\n' >"$FIX/data/se.rules"
	printf 'struct bf {\n\tapart a lock\n}\nstruct pk {\n\tapart v lock\n}\nstruct nd {\n\tapart a lock\n}\nstruct al {\n\tapart lock hot\n}\n' >"$FIX/data/bits.rules"
	printf 'struct pair_counters {\n\tapart produced consumed\n}\n' >"$FIX/data/p.rules"
	printf 'struct d {\n    warn apart next in.b\n}\n' >"$FIX/data/warn.rules"
	printf 'struct u {\n    apart b c\n}\n' >"$FIX/data/u.rules"
	printf 'struct d {\n    apart hot next\n}\n' >"$FIX/data/lines.rules"
	# Broken inputs.
	printf 'PERFILE2 but not really' >"$FIX/data/bad.data"
	head -c 3000 "$FIX/data/c2c-gcc.data" >"$FIX/data/trunc.data"
	printf '{"schema":"hitmap-profile/1",\n "structs": [}' >"$FIX/data/bad.json"
	head -c 4096 "$FIX/bin/gcc-5-O0/fx" >"$FIX/data/trunc-elf"
	echo 'not an ELF file' >"$FIX/data/notelf"
	: >"$FIX/data/empty"
	mkdir -p "$FIX/data/nosrc"

	(cd "$FIX" && find src bin data -type f | LC_ALL=C sort | xargs sha256sum) \
		>"$FIX/inputs.sha256" || exit 1
	echo "$FIXTURES_VERSION" >"$FIX/.complete"
}

if [ "$(cat "$FIX/.complete" 2>/dev/null)" = "$FIXTURES_VERSION" ]; then
	echo "outputs.sh: reusing the inputs in $FIX" >&2
else
	build_fixtures
fi

# ---- recording ----
S=$FIX/scratch		# what commands write; the same path in every run
rm -rf "$S" && mkdir -p "$S/cache" || exit 1
export XDG_CACHE_HOME=$S/cache
rm -f "$OUT"/* 2>/dev/null
cp "$FIX/inputs.sha256" "$OUT/00-inputs.sha256"
if [ -n "$VMLINUX" ]; then
	ln -s "$VMLINUX" "$S/vmlinux" || exit 1
	readelf -n "$VMLINUX" | sed -n 's/^ *Build ID: /vmlinux build-id /p' >>"$OUT/00-inputs.sha256"
fi
n=0

# run NAME [-o FILE] ARGS...: `hitmap ARGS` in FIXDIR; FILE (a path under
# FIXDIR the command writes) is recorded too.
run() {
	name=$1; shift
	file=
	if [ "${1:-}" = -o ]; then file=$2; shift 2; rm -f "$FIX/$file"; fi
	(cd "$FIX" && "$HITMAP" "$@" >"$S/stdout" 2>"$S/stderr" </dev/null)
	rc=$?
	{
		printf '$ hitmap'
		for a; do
			case $a in *[!A-Za-z0-9_./:,=@+-]*) printf " '%s'" "$a" ;; *) printf ' %s' "$a" ;; esac
		done
		printf '\n[exit %d]\n[stdout]\n' $rc
		cat "$S/stdout"
		echo '[stderr]'
		cat "$S/stderr"
		if [ -n "$file" ]; then
			echo "[file $file]"
			cat "$FIX/$file" 2>&1
		fi
	} >"$OUT/$name"
	n=$((n + 1))
}

CONFIGS="gcc-4 gcc-5 clang-4 clang-5"

# layout: every layout build; whole files and selected structs.
for c in gcc-4-O0 gcc-4-O2 gcc-5-O0 gcc-5-O2 clang-4-O0 clang-4-O2 clang-5-O0 clang-5-O2; do
	b=bin/$c
	run layout-$c-fx layout $b/fx
	run layout-list-$c-fx layout --list $b/fx
	run layout-json-$c-fx layout --json $b/fx
	run layout-list-json-$c-fx layout --list --json $b/fx
	run layout-E-$c-fx layout -E $b/fx
	run layout-C-$c-fx layout -C lines,bits_mixed,embeds,anon,packed_member,line_aligned $b/fx
	run layout-E-C-$c-fx layout -E -C embeds,with_typedefs,inline_kinds $b/fx
	run layout-c128-$c-fx layout -c 128 -C lines,holds_aligned $b/fx
	run layout-$c-fxcxx layout $b/fxcxx
	run layout-json-$c-fxcxx layout --json $b/fxcxx
	run layout-list-$c-fxcxx layout --list $b/fxcxx
	for f in mm_v1 mm_v2 groups; do
		run layout-$c-$f layout $b/$f
	done
	run layout-json-$c-mm_v2 layout --json -C mm_struct $b/mm_v2
done

# layout --profile / --heat (tests/layout/heat.sh)
for c in $CONFIGS; do
	b=bin/$c-O0
	run heat-profile-$c layout --profile data/pt.json -C heated $b/heat
	run heat-profile-E-$c layout -E --profile data/pt.json -C heated $b/heat
	run heat-profile-json-$c layout --json --profile data/pt.json -C heated $b/heat
done
for cc in gcc clang; do
	run heat-c2c-$cc layout --heat data/c2c-$cc.data -C stats bin/seed-$cc
	run heat-c2c-json-$cc layout --json --heat data/c2c-$cc.data -C stats bin/seed-$cc
	run heat-c2c-all-$cc layout --heat data/c2c-$cc.data bin/seed-$cc
done
run heat-watch layout --heat data/watch.data -C stats bin/seed-nopie

# report
for cc in gcc clang; do
	run report-c2c-$cc report -i data/c2c-$cc.data
	run report-c2c-json-$cc report -i data/c2c-$cc.data --json
	run report-c2c-rmt-$cc report -i data/c2c-$cc.data -d rmt --top 1
	run report-c2c-lcl-$cc report -i data/c2c-$cc.data -d lcl
	run report-c2c-peer-$cc report -i data/c2c-$cc.data -d peer
	run report-save-profile-$cc -o scratch/c2c-$cc.json report -i data/c2c-$cc.data \
		--save-profile scratch/c2c-$cc.json
	run heat-saved-profile-$cc layout --profile scratch/c2c-$cc.json -C stats bin/seed-$cc
	run check-saved-profile-$cc check --profile scratch/c2c-$cc.json bin/seed-$cc
done
run report-object report -i data/obj.data --binary bin/seed-gcc --object 'struct stats@0x7f0000001000'
run report-object-json report -i data/obj.data --binary bin/seed-gcc \
	--object 'struct stats@0x7f0000001000' --json
run report-watch report -i data/watch.data
run report-watch-json report -i data/watch.data --json
run report-save-profile-watch -o scratch/watch.json report -i data/watch.data \
	--save-profile scratch/watch.json
for f in c2c-intel-perf5.4 mem-intel-perf4.4; do
	run report-$f report -i data/$f.data
	run report-json-$f report -i data/$f.data --json
	run report-save-profile-$f -o scratch/$f.json report -i data/$f.data \
		--save-profile scratch/$f.json
done

# check (tests/check/groups.sh, directives.sh, profile.sh, sarif.sh)
for c in $CONFIGS; do
	b=bin/$c-O0
	run check-groups-$c check $b/groups
	run check-groups-c128-$c check -c 128 -C netdev_like $b/groups
	run check-groups-sarif-$c check --sarif $b/groups
	run check-no-groups-$c check --no-groups $b/groups
	run check-pass-$c check -v --rules src/tests/check/pass.rules $b/dir
	run check-fail-$c check --rules src/tests/check/fail.rules $b/dir
	run check-fail-json-$c check --json --rules src/tests/check/fail.rules $b/dir
	run check-fail-sarif-$c check --sarif --rules src/tests/check/fail.rules $b/dir
	run check-warn-$c check --rules data/warn.rules $b/dir
	run check-warn-fail-on-$c check --fail-on warn --rules data/warn.rules $b/dir
	run check-u-$c check --rules data/u.rules $b/dir
	run check-u-aligned-$c check --assume-aligned --rules data/u.rules $b/dir
	run check-lines-$c check --rules data/lines.rules $b/dir
	run check-pair-lines-$c check --pair-lines --rules data/lines.rules $b/dir
	run check-profile-$c check --profile src/tests/check/profile.json $b/dir
	run check-lint-$c check --lint $b/lint
	run check-seed-$c check --rules src/tests/check/seed.rules $b/mm_v2
done
run check-bad-rules check --rules src/tests/check/bad.rules bin/gcc-5-O0/dir

# lint (tests/check/lint.sh, sarif.sh)
for c in $CONFIGS; do
	b=bin/$c-O0
	run lint-$c lint $b/lint
	run lint-fail-on-$c lint --fail-on warn $b/lint
	run lint-json-$c lint --json $b/lint
	run lint-sarif-$c lint --sarif $b/lint
	run lint-contended-$c lint --contended-type 'struct my_ticket' -C L $b/lint
	run lint-contended-rule-$c lint --rules src/tests/check/ticket.rules -C L $b/lint
	run lint-P-$c lint -C P $b/lint
	run lint-pair-lines-$c lint --pair-lines $b/lint
	run lint-aligned-$c lint --assume-aligned $b/lint
	run lint-mm_v2-$c lint $b/mm_v2
	run lint-mm_v2-sarif-$c lint --sarif $b/mm_v2
done
for cxx in g++ clang++; do
	run lint-cxx-$cxx lint -C Q bin/lcxx-$cxx
done

# diff (tests/check/seed-diff.sh, diff-facts.sh, sarif.sh)
for c in $CONFIGS; do
	b=bin/$c-O0
	run diff-$c diff $b/mm_v1 $b/mm_v2
	run diff-json-$c diff --json $b/mm_v1 $b/mm_v2
	run diff-sarif-$c diff --sarif $b/mm_v1 $b/mm_v2
	run diff-rule-$c diff --no-lint --rules src/tests/check/seed.rules $b/mm_v1 $b/mm_v2
	run diff-profile-$c diff --no-lint --profile src/tests/check/seed-profile.json $b/mm_v1 $b/mm_v2
	run diff-reverse-$c diff --no-lint --rules src/tests/check/seed.rules $b/mm_v2 $b/mm_v1
	run diff-same-$c diff --rules src/tests/check/seed.rules \
		--profile src/tests/check/seed-profile.json $b/mm_v1 $b/mm_v1
	run diff-facts-$c diff --fail-on warn $b/df1 $b/df2
	run diff-facts-json-$c diff --json $b/df1 $b/df2
done
run diff-gcc-clang diff bin/gcc-5-O0/mm_v2 bin/clang-4-O2/mm_v2

# suggest (tests/suggest/*.sh)
ev="--profile data/mm.profile --assume-aligned"
for cc in gcc clang; do
	run suggest-profile-$cc suggest $ev bin/mm-$cc
	run suggest-profile-json-$cc suggest $ev --json bin/mm-$cc
	run suggest-patch-$cc suggest $ev --patch --source-root src bin/mm-$cc
	run suggest-counters-$cc suggest --profile data/c.profile bin/counters-$cc
	run suggest-counters-patch2-$cc suggest --profile data/c.profile --patch --proposal 2 \
		--source-root src bin/counters-$cc
	run suggest-anon-$cc suggest --rules data/mm.rules --assume-aligned bin/anon-$cc
	for s in bf pk nd al; do
		run suggest-bits-$s-$cc suggest --rules data/bits.rules -C $s bin/bits-$cc
	done
	run suggest-c2c-$cc suggest -C stats -i data/c2c-$cc.data bin/seed-$cc
done
for k in 1 2 3 4 5 6; do
	run suggest-patch$k-gcc suggest $ev --patch --source-root src --proposal $k bin/mm-gcc
	run suggest-layout$k-gcc suggest $ev --proposal $k --layout-only bin/mm-gcc
done
for st in kernel c11 cxx; do
	run suggest-style-$st suggest $ev --style $st --patch --source-root src --proposal 6 bin/mm-gcc
done
run suggest-keep-size suggest $ev --keep-size bin/mm-gcc
run suggest-max-growth suggest $ev --max-growth 8 bin/mm-gcc
run suggest-rules suggest --rules data/mm.rules bin/mm-gcc
run suggest-rules-json suggest --rules data/mm.rules --json bin/mm-gcc
run suggest-lint suggest --lint -C mm_struct --assume-aligned bin/mm-gcc
run suggest-v1 suggest --rules data/mm.rules --assume-aligned bin/mm1-gcc
run suggest-empty suggest --profile data/empty.profile bin/mm-gcc
run suggest-empty-json suggest --profile data/empty.profile --json bin/mm-gcc
run suggest-refused suggest --rules data/se.rules --assume-aligned --patch --source-root src bin/mm-gcc
run suggest-nosrc suggest --rules data/mm.rules --patch --source-root data/nosrc bin/mm-gcc
run suggest-saved-profile suggest --profile scratch/c2c-gcc.json bin/seed-gcc
for cxx in g++ clang++; do
	run suggest-pair-$cxx suggest --rules data/p.rules --style cxx bin/pair-$cxx
	run suggest-pair-patch-$cxx suggest --rules data/p.rules --style cxx --patch \
		--source-root src bin/pair-$cxx
done

# usage errors and bad input: their stderr and exit status
b=bin/gcc-5-O0
run err-no-command
run err-unknown-command frobnicate
run help --help
run err-layout-unknown-option layout --bogus $b/fx
run err-layout-unknown-struct layout -C nope $b/fx
run err-layout-missing layout data/nope
run err-layout-notelf layout data/notelf
run err-layout-empty layout data/empty
run err-layout-trunc-elf layout data/trunc-elf
run err-layout-profile-heat layout --profile data/pt.json --heat data/c2c-gcc.data $b/fx
run err-layout-binary layout --binary $b/fx $b/fx
run err-layout-list-profile layout --list --profile data/pt.json $b/fx
run err-layout-missing-profile layout --profile data/nope.json $b/fx
run err-layout-bad-profile layout --profile data/bad.json $b/fx
run err-layout-bad-heat layout --heat data/bad.data $b/fx
run err-layout-cacheline layout -c 3 $b/fx
run err-report-missing report -i data/nope.data
run err-report-bad report -i data/bad.data
run err-report-trunc report -i data/trunc.data
run err-report-display report -i data/c2c-gcc.data -d bogus
run err-report-top report -i data/c2c-gcc.data --top 0
run err-report-object-type report -i data/obj.data --binary bin/seed-gcc --object 'struct nope@0x1000'
run err-report-object-syntax report -i data/obj.data --binary bin/seed-gcc --object stats
run err-check-missing-rules check --rules data/nope.rules $b/dir
run err-check-bad-profile check --profile data/bad.json $b/dir
run err-check-missing-profile check --profile data/nope.json $b/dir
run err-check-fail-on check --fail-on bogus $b/dir
run err-check-notelf check data/notelf
run err-lint-unknown-struct lint -C Nope $b/lint
run lint-json-then-sarif lint --json --sarif $b/lint
run err-lint-missing lint data/nope
run err-diff-one-arg diff $b/mm_v1
run err-diff-unknown-struct diff -C nope $b/mm_v1 $b/mm_v2
run err-diff-missing diff $b/mm_v1 data/nope
run err-diff-trunc diff $b/mm_v1 data/trunc-elf
run err-suggest-no-evidence suggest bin/mm-gcc
run err-suggest-unknown-struct suggest --rules data/mm.rules -C mm_strukt bin/mm-gcc
run err-suggest-style suggest --rules data/mm.rules --style k bin/mm-gcc
run err-suggest-patch-no-root suggest --rules data/mm.rules --patch bin/mm-gcc
run err-suggest-missing-profile suggest --profile data/nope.json bin/mm-gcc
run err-suggest-bad-profile suggest --profile data/bad.json bin/mm-gcc
run err-suggest-bad-perf suggest -i data/bad.data bin/mm-gcc
for c in layout report suggest check lint diff record; do
	run help-$c $c --help
done

# the kernel image: every command with the type cache (the first one
# writes it) and the loading ones again without it.
if [ -n "$VMLINUX" ]; then
	V=scratch/vmlinux
	R=$(cd "$FIX" && echo src/rules/linux/*.rules)
	K=mm_struct,task_struct,tcp_sock,sock,net_device,rq,page,file,inode,address_space
	run vmlinux-layout-list layout --list "$V"	# cold, writes the cache
	run vmlinux-layout-list-json layout --list --json "$V"
	run vmlinux-layout layout "$V"
	run vmlinux-layout-json layout --json "$V"
	run vmlinux-layout-C layout -C $K "$V"
	run vmlinux-layout-json-C layout --json -C $K "$V"
	run vmlinux-layout-E-C layout -E -C mm_struct,net_device,sk_buff "$V"
	run vmlinux-layout-c128-C layout -c 128 -C mm_struct,net_device "$V"
	run vmlinux-layout-btf-C layout --btf -C $K "$V"
	run vmlinux-layout-btf-list layout --btf --list "$V"
	# as rules/README.md records it: a glob after one --rules
	run vmlinux-check-rules check --rules $R "$V"
	run vmlinux-check-rules-json check --json --rules src/rules/linux/mm.rules \
		--rules src/rules/linux/net.rules "$V"
	run vmlinux-check-rules-sarif check --sarif --rules src/rules/linux/mm.rules \
		--rules src/rules/linux/net.rules "$V"
	run vmlinux-check-lint-C check --lint -C mm_struct,net_device "$V"
	run vmlinux-check-groups check "$V"
	run vmlinux-lint lint "$V"
	run vmlinux-lint-mm_struct lint -C mm_struct "$V"
	run vmlinux-lint-net_device lint -C net_device "$V"
	run vmlinux-lint-json-C lint --json -C mm_struct,net_device "$V"
	run vmlinux-lint-sarif-C lint --sarif -C mm_struct,net_device "$V"
	run vmlinux-suggest-lint suggest -C mm_struct --lint --assume-aligned "$V"
	run vmlinux-suggest-lint-json suggest -C mm_struct --lint --assume-aligned --json "$V"
	run vmlinux-suggest-rules suggest -C mm_struct --rules data/mm.rules --assume-aligned "$V"
	run vmlinux-suggest-layout-only suggest -C mm_struct --rules data/mm.rules --assume-aligned \
		--proposal 1 --layout-only "$V"
	run vmlinux-suggest-patch-nosrc suggest -C mm_struct --rules data/mm.rules \
		--assume-aligned --patch --source-root data/nosrc "$V"
	run vmlinux-diff-C diff -C mm_struct,net_device "$V" "$V"
	run vmlinux-err-unknown-struct layout -C no_such_struct "$V"
	# without the cache: the same output from a fresh load
	run vmlinux-nocache-layout-list layout --no-cache --list "$V"
	run vmlinux-nocache-layout-C layout --no-cache -C $K "$V"
	run vmlinux-nocache-check-rules check --no-cache --rules $R "$V"
	run vmlinux-nocache-lint lint --no-cache "$V"
	run vmlinux-nocache-suggest-lint suggest --no-cache -C mm_struct --lint --assume-aligned "$V"
	for p in layout-list layout-C check-rules lint suggest-lint; do
		tail -n +2 "$OUT/vmlinux-$p" >"$S/a"
		tail -n +2 "$OUT/vmlinux-nocache-$p" >"$S/b"
		cmp -s "$S/a" "$S/b" ||
			echo "outputs.sh: warning: vmlinux-$p differs with and without the cache" >&2
	done
fi
rm -rf "$S"
echo "outputs.sh: $n commands recorded in $OUT ($(($(date +%s) - start)) s)" >&2
