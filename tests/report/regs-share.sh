#!/bin/sh
# Data addresses and verdicts from sampled registers: real timer recordings
# (perf record -e cpu-clock --user-regs=... --sample-cpu, no memory PMU or
# watchpoint needed) of tests/report/regs-share.c built by gcc and clang
# -O2, in four modes: two threads on two fields of one line (false
# sharing), the same a line apart (none), a lock and its data (true
# sharing), one writer (none).  Oracles: tests/report/regs-oracle.py applies
# the documented rule to objdump's instructions and perf script's
# registers, sample by sample, against report --regs-log; the program's
# own printout (object address, offsetof) names each field.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require perf linux-perf
require objdump binutils
require python3 python3

# The probe: a timer recording with user registers yields samples here.
regs_probe "$RSRC/regs-share.c" one 50

# verdict JSON OBJECT: the verdict of every line holding OBJECT's fields.
verdict() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print(' '.join(sorted(set(l['verdict'] for l in d['lines']
                          if any(f['object'] == sys.argv[2] for f in l['fields'])))))
EOF
}

# fields JSON OBJECT NAME: "NAME.path=samples@offset" of OBJECT's fields.
fields() {
	python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
out = []
for l in d['lines']:
    for f in l['fields']:
        if f['object'] == sys.argv[2]:
            out.append('%s.%s=%d@%d' % (sys.argv[3], f['path'], f['counts']['samples'], f['offset']))
print(' '.join(sorted(out)))
EOF
}

total=0
for cc in gcc clang; do
	require $cc $cc
	bin="$T/regs-$cc"
	build_fixture "$RSRC/regs-share.c" "$bin" $cc 5 -O2 -pthread
	objdump -d "$bin" >"$T/$cc.dis" || fail "objdump -d $bin"
	nm -S "$bin" >"$T/$cc.nm" || fail "nm -S $bin"
done
# Two recordings of each mode, one of each compiler's build: 8 in all.
# (Each recording is checked sample by sample, so a third run of a mode
# adds time, not strength.)
for mode in false padded true one; do
	for run in 1 2; do
			cc=gcc
			[ $run = 2 ] && cc=clang
			bin="$T/regs-$cc"
			d="$T/$cc-$mode-$run"
			regs_rec "$d.data" "$bin" $mode 200 >"$d.out" ||
				fail "perf record $cc $mode: $(cat "$T/rec.err")"
			"$HITMAP" report -i "$d.data" --regs-log "$d.log" --json >"$d.json" 2>"$d.err" ||
				{ cat "$d.err" >&2; fail "report $cc $mode"; }
			perf script --ns -i "$d.data" -F tid,time,ip,sym,symoff,dso,uregs \
				>"$d.script" 2>/dev/null || fail "perf script $d.data"
			python3 "$RSRC/regs-oracle.py" "$T/$cc.dis" "$d.script" "$d.log" "$d.out" \
				"regs-$cc" "$T/$cc.nm" >"$d.oracle" || fail "oracle $cc $mode"
			agree=$(awk '$1 == "agree" { print $2 }' "$d.oracle")
			for k in disagree missing offfield; do
				n=$(awk -v k=$k '$1 == k { print $2 }' "$d.oracle")
				[ "$n" = 0 ] || { cat "$d.oracle" >&2; fail "$cc $mode $run: $n $k"; }
			done
			[ "$agree" -gt 100 ] || fail "$cc $mode $run: only $agree samples compared"
			total=$((total + agree))
			# The fields: each sample's field, counted by the oracle
			# from the program's addresses and offsets, is hitmap's.
			name=$(awk '$1 == "object" { print $2 }' "$d.out")
			addr=$(awk '$1 == "object" { print $3 }' "$d.out")
			obj="$name@$(hex $((addr)))"
			want=$(awk '$1 == "fields"' "$d.oracle" | tr ' ' '\n' | grep "^$name\." |
				while IFS== read -r f n; do
					off=$(awk -v f="${f#*.}" '$1 == "field" && $2 == f { print $3 }' "$d.out")
					echo "$f=$n@$off"
				done | sort | tr '\n' ' ' | sed 's/ $//')
			got=$(fields "$d.json" "$obj" "$name")
			assert_eq "$want" "$got" "$cc $mode $run: fields of $obj"
			case $mode in
			false) expect="false sharing" ;;
			true) expect="true sharing" ;;
			*) expect="private" ;;
			esac
			assert_eq "$expect" "$(verdict "$d.json" "$obj")" "$cc $mode $run: verdict of $obj"
			echo "$cc $mode $run: $agree samples agree, fields $got, verdict $expect" >&2
	done
done
echo "$total samples agree with the oracle, 0 disagree" >&2

# --explain shows the rule at an IP: the instruction after bump_a's lock
# add means the add (the previous instruction), its address from its base.
after=$(awk '/<bump_a>:/ { f = 1 } f && /lock add/ { l = 1; next }
	l && /^ *[0-9a-f]+:/ { sub(/:.*/, ""); gsub(/ /, ""); print; exit }' "$T/gcc.dis")
base=$(awk '/<bump_a>:/ { f = 1 } f && /lock add/ { sub(/.*\(%/, ""); sub(/\).*/, ""); print; exit }' \
	"$T/gcc.dis")
[ -n "$after" ] && [ -n "$base" ] || fail "objdump shows no lock add in bump_a"
"$HITMAP" report --binary "$T/regs-gcc" --explain "0x$after" >"$T/explain" ||
	fail "report --explain"
grep -q '^rule sampled-registers' "$T/explain" || fail "explain shows no sampled-register rule"
grep -q '^  chosen: previous, .*lock' "$T/explain" || { cat "$T/explain" >&2; fail "explain: chosen"; }
grep -q "^  registers used: %$base\$" "$T/explain" ||
	{ cat "$T/explain" >&2; fail "explain: registers, want %$base"; }
exit 0
