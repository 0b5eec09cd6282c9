#!/bin/sh
# Kernel samples deferred to an irq-enable point: samples of an irqs-off
# section all land on the instruction after sti, popf or a call of an
# irq-enable function (pvm_irq_enable), which must never name that
# instruction's operand.  tests/report/regs-irq.c stands in for a kernel
# (given as --vmlinux); objdump is the oracle for the instruction before each
# IP.  The same IP of a user binary takes the ordinary rule.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/report/lib-report.sh"
require objdump binutils

for cc in gcc clang; do
	require $cc $cc
	bin="$T/kirq-$cc"
	build_fixture "$RSRC/regs-irq.c" "$bin" $cc 5 -O2 -nostdlib -static -fno-pie
	objdump -d --no-show-raw-insn "$bin" >"$T/dis" || fail "objdump -d $bin"
	for f in after_call after_sti after_popf; do
		# the instruction after the irq-enable point, by objdump
		ip=$(awk -v f="<$f>:" '$2 == f { on = 1; next } on && /^$/ { exit }
			on && prev ~ /(call.*pvm_irq_enable|sti|popf)/ { sub(/:.*/, ""); gsub(/ /, ""); print; exit }
			on { prev = $0 }' "$T/dis")
		[ -n "$ip" ] || fail "$cc: objdump shows no irq-enable point in $f"
		"$HITMAP" report --vmlinux "$bin" --explain "0x$ip" >"$T/explain" 2>"$T/err" ||
			{ cat "$T/err" >&2; fail "$cc $f: report --explain"; }
		grep -q '^  unattributed: irq-deferred' "$T/explain" ||
			{ cat "$T/explain" >&2; fail "$cc $f 0x$ip: not irq-deferred"; }
		"$HITMAP" report --binary "$bin" --explain "0x$ip" >"$T/explain" 2>"$T/err" ||
			{ cat "$T/err" >&2; fail "$cc $f: report --binary --explain"; }
		grep -q '^  unattributed: irq-deferred' "$T/explain" &&
			fail "$cc $f 0x$ip: a user binary's sample deferred to an irq-enable point"
	done
done
exit 0
