#!/bin/sh
# The option layer every command parses with (src/cli/options.c): one error
# for each mistake, the same everywhere, with did-you-mean; --opt=val,
# abbreviations, bundled short options, `--`; record's pass-through of
# COMMAND's arguments; --help listing every option of each command's table
# (the list read from the source tables, not from hitmap), and no option
# that a command accepted before the table-driven parser lost.
. "$top_srcdir/tests/lib.sh"
require python3
fix=$TESTS_SRC/fixtures
build_fixture "$fix/mm_v1.c" "$T/mm" "${CC:-gcc}" 5 -O0
printf 'struct mm_struct {\n\tapart mm_users mm_count\n}\n' >"$T/mm.rules"

# err CMD ARGS...: exit 2, nothing on stdout; $T/err holds stderr.
err() {
	assert_exit 2 "hitmap $*" "$HITMAP" "$@"
	[ ! -s "$T/out" ] || fail "hitmap $*: output on stdout despite the error"
}
# err_is EXPECTED-STDERR CMD ARGS...
err_is() {
	expected=$1; shift
	err "$@"
	assert_eq "$expected" "$(cat "$T/err")" "stderr of hitmap $*"
}

# A mistyped option: git's form, the closest option as a hint.
err_is "error: unknown option '--jsn'
hint: did you mean '--json'?
try 'hitmap layout --help'" layout --jsn "$T/mm"
err_is "error: unknown option '--class-name'
hint: did you mean '--class_name'?
try 'hitmap check --help'" check --class-name=mm_struct "$T/mm"
err_is "error: unknown option '--bogus'
try 'hitmap report --help'" report --bogus
err_is "error: unknown option '-s'
hint: did you mean '--sarif'?
try 'hitmap lint --help'" lint -sarif "$T/mm"
# -j is --jobs, so -json is a number expected
err_is "error: option '-j' expects a number from 1 to 256, not 'son'
try 'hitmap lint --help'" lint -json "$T/mm"
# Every command says it the same way (suggest used to let getopt speak).
for c in layout report suggest check lint diff record; do
	err $c --no-such-option
	assert_eq "error: unknown option '--no-such-option'" "$(head -1 "$T/err")" "$c: unknown option"
done

# A mistyped command.
err_is "hitmap: 'layuot' is not a hitmap command
hint: did you mean 'layout'?
try 'hitmap --help'" layuot "$T/mm"
err_is "hitmap: 'sugest' is not a hitmap command
hint: did you mean 'suggest'?
try 'hitmap --help'" help sugest
err_is "hitmap: 'frobnicate' is not a hitmap command
try 'hitmap --help'" frobnicate

# -c: one range, one message wherever it is pahole's cacheline size.
for c in layout check lint suggest diff; do
	for v in 48 4 131072 0x30 -64 x; do
		err $c -c $v --lint "$T/mm"
		assert_eq "error: option '-c' expects a power of two from 8 to 65536, not '$v'" \
			"$(head -1 "$T/err")" "$c -c $v"
	done
	err $c --cacheline-size=48 "$T/mm"
	assert_eq "error: option '--cacheline-size' expects a power of two from 8 to 65536, not '48'" \
		"$(head -1 "$T/err")" "$c --cacheline-size=48"
done
# ... and every command takes both ends of it: 8-byte lines split a 296-byte
# mm_struct into 37, 65536-byte lines hold it in one.
"$HITMAP" layout -c 8 -C mm_struct "$T/mm" >"$T/out" || fail "layout -c 8"
grep -q 'size: 296, cachelines: 37,' "$T/out" || fail "layout -c 8: cachelines"
"$HITMAP" suggest -c 8 --rules "$T/mm.rules" "$T/mm" >"$T/out" || fail "suggest -c 8"
grep -q '^today: 296 bytes, 37 cachelines' "$T/out" || fail "suggest -c 8: cachelines"
"$HITMAP" check --json -c 65536 --rules "$T/mm.rules" "$T/mm" >"$T/out"
[ $? -le 1 ] || fail "check -c 65536"
"$HITMAP" suggest -c 65536 --rules "$T/mm.rules" "$T/mm" >"$T/out" || fail "suggest -c 65536"
grep -q '^today: 296 bytes, 1 cacheline' "$T/out" || fail "suggest -c 65536: cachelines"
# record -c is perf record's sample period, a count
err record -c 48x --dry-run
assert_eq "error: option '-c' expects a number of at least 1, not '48x'" "$(head -1 "$T/err")" \
	"record -c"

# Other mistakes.
err_is "error: option '--top' needs an argument
try 'hitmap report --help'" report --top
err_is "error: option '--top' expects a number from 1 to 100000, not '0'
try 'hitmap report --help'" report --top=0
err_is "error: option '--json' takes no value
try 'hitmap layout --help'" layout --json=yes "$T/mm"
err_is "error: option '--style' expects one of kernel, gnu, c11, cxx, not 'kernl'
hint: did you mean 'kernel'?
try 'hitmap suggest --help'" suggest --lint --style kernl "$T/mm"
err_is "error: option '--fail-on' expects one of error, warn, warning, not 'note'
try 'hitmap check --help'" check --fail-on=note "$T/mm"
err_is "error: ambiguous option '--pro' (could be --profile, --proposal)
try 'hitmap suggest --help'" suggest --pro x "$T/mm"
err_is "error: option '-C' needs a value
try 'hitmap lint --help'" lint -C , "$T/mm"

# The forms of one option give one result: --opt=val, --opt val, an
# abbreviation, -cN, -c N, bundled flags, options after the operand, `--`.
# The oracle is arithmetic: 296 bytes on 128-byte lines are 3 of them.
for form in "--cacheline-size=128" "--cacheline-size 128" "--cacheline=128" "-c128" "-c 128"; do
	# shellcheck disable=SC2086
	"$HITMAP" layout $form --class_name=mm_struct "$T/mm" >"$T/out" || fail "layout $form"
	grep -q 'size: 296, cachelines: 3,' "$T/out" || fail "layout $form: not 128-byte lines"
done
"$HITMAP" layout "$T/mm" -EC mm_struct -c 128 >"$T/out" || fail "layout FILE -EC NAME"
grep -q 'size: 296, cachelines: 3,' "$T/out" || fail "options after the operand"
"$HITMAP" layout -E -C mm_struct -c 128 "$T/mm" >"$T/e.out" || fail "layout -E -C NAME"
assert_files_eq "$T/e.out" "$T/out" "-EC NAME and -E -C NAME"
"$HITMAP" layout --expand --no-expand -C mm_struct "$T/mm" >"$T/out" || fail "--no-expand"
"$HITMAP" layout -C mm_struct "$T/mm" >"$T/plain.out" || fail "layout -C"
assert_files_eq "$T/plain.out" "$T/out" "--no-expand undoes --expand"
cp "$T/mm" "$T/-mm"
"$HITMAP" layout --list -C mm_struct -- "$T/-mm" >"$T/out" || fail "layout -- FILE"
assert_eq "mm_struct	296	2	5" "$(cut -f1-4 "$T/out")" "--list after -- (296 bytes on 64-byte lines)"

# record: the first operand is COMMAND, and what follows it is COMMAND's.
LIBPFM_FORCE_PMU=skx "$HITMAP" record --dry-run true -c x --bogus >"$T/out" 2>"$T/err" ||
	{ cat "$T/err" >&2; fail "record: options after COMMAND were parsed as record's"; }
LIBPFM_FORCE_PMU=skx "$HITMAP" record --dry-run -- true -c x >"$T/out" 2>"$T/err" ||
	{ cat "$T/err" >&2; fail "record -- COMMAND: options after it were parsed"; }

# --help lists every option of the command's table.  The list comes from the
# source: each table's entries, the shared declarations expanded.
python3 - "$top_srcdir/src/cli" >"$T/tables" <<'EOF' || fail "cannot read the option tables"
import re, sys, os
src = sys.argv[1]
prim = r'OPT_(FLAG|SET_INT|BOOL|UINT|POW2|STRING|LIST|NAMES|CHOICE|CALLBACK)'
defs = {}
for h in ("options.h", "check-cli.h"):
    text = open(os.path.join(src, h)).read().replace("\\\n", " ")
    for m in re.finditer(r'^#define\s+([A-Z0-9_]+)(\([^)]*\))?\s+(.*)$', text, re.M):
        if not re.fullmatch(prim, m.group(1)):
            defs[m.group(1)] = m.group(3)
def expand(text, out):
    for m in re.finditer(r"\b(" + prim + r")\(\s*('(.)'|0)\s*,\s*\"([^\"]+)\"|\b([A-Z][A-Z0-9_]+)\b", text):
        if m.group(1):
            out.append((m.group(4) or "", m.group(5)))
        elif m.group(6) in defs:
            expand(defs[m.group(6)], out)
for f in sorted(os.listdir(src)):
    if not (f.startswith("cmd-") and f.endswith(".c")):
        continue
    text = open(os.path.join(src, f)).read()
    t = re.search(r'struct cli_option options\[\] = \{(.*?)OPT_END\(\)', text, re.S)
    cmd = f[4:-2]
    if not t:
        print(cmd, "-", "-")
        continue
    out = []
    expand(t.group(1), out)
    for s, l in out:
        print(cmd, s or "-", l)
EOF
[ "$(wc -l <"$T/tables")" -gt 80 ] || fail "only $(wc -l <"$T/tables") options read from the tables"
# Each command's help once (both spellings), then every table entry in it.
for cmd in $(cut -d' ' -f1 "$T/tables" | sort -u); do
	"$HITMAP" "$cmd" --help >"$T/help.$cmd" 2>&1 || fail "$cmd --help"
	"$HITMAP" help "$cmd" >"$T/help2" || fail "help $cmd"
	assert_files_eq "$T/help.$cmd" "$T/help2" "hitmap help $cmd and hitmap $cmd --help"
done
while read -r cmd short long; do
	[ "$long" != - ] || fail "$cmd: no option table in src/cli/cmd-$cmd.c"
	grep -Eq -- "--(\[no-\])?$long( |\$)" "$T/help.$cmd" || fail "$cmd --help does not list --$long"
	[ "$short" = - ] || grep -Eq -- "^  -$short, --" "$T/help.$cmd" ||
		fail "$cmd --help does not list -$short"
done <"$T/tables"
# No line of --help is wider than 80 columns.
for f in "$T"/help.*; do
	awk -v f="$f" 'length($0) > 80 { print f ": " $0; bad = 1 } END { exit bad }' "$f" >&2 ||
		fail "--help wider than 80 columns"
done
# hitmap --help lists every command of main.c's table.
"$HITMAP" --help >"$T/out" || fail "hitmap --help"
grep -o '&hm_cmd_[a-z]*' "$top_srcdir/src/cli/main.c" | sed 's/&hm_cmd_//' | while read -r cmd; do
	grep -q "^  $cmd " "$T/out" || fail "hitmap --help does not list $cmd"
done || exit 1

# Every option each command accepted with its getopt_long tables is still in
# its table (these lists are those tables, before the option layer).
while read -r cmd opts; do
	for o in $opts; do
		case $o in
		--*) grep -q "^$cmd [^ ]* ${o#--}\$" "$T/tables" || fail "$cmd lost $o" ;;
		-?) grep -q "^$cmd ${o#-} " "$T/tables" || fail "$cmd lost $o" ;;
		esac
	done
done <<'EOF'
layout -C --class_name -c --cacheline-size -E --expand --list --json --btf --profile --heat --binary --vmlinux --object --no-cache
report -i --input --binary --vmlinux --sysroot --object -d --display --json --save-profile --top --no-cache
check --rules --profile --lint --fail-on --json --sarif --pair-lines --assume-aligned --contended-type --no-groups --no-cache -c --cacheline-size -C --class_name -v --verbose
lint --rules --fail-on --json --sarif --pair-lines --assume-aligned --contended-type --no-cache -c --cacheline-size -C --class_name
diff --rules --profile --fail-on --json --sarif --pair-lines --assume-aligned --contended-type --no-lint --no-cache -c --cacheline-size -C --class_name
suggest -C -i --input -c --cacheline-size --profile --rules --lint --style --max-growth --keep-size --patch --source-root --json --proposal --layout-only --assume-aligned --binary --vmlinux --object --no-cache
record -o --output --ldlat -F --freq -c --count -a --all-cpus -p --pid -e --event -w --watch --binary --dry-run --mmap-pages --user-only -q --quiet
EOF
exit 0
