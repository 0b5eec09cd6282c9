#!/bin/sh
# With no FILE, layout reads the running kernel, as pahole does: its vmlinux
# with DWARF when installed (linux-image-RELEASE-dbg), else
# /sys/kernel/btf/vmlinux; one line on stderr says which.  The kernel's
# build-id (from /sys/kernel/notes) is checked against perf's.
. "$top_srcdir/tests/lib.sh"
btf=/sys/kernel/btf/vmlinux
r=$(uname -r)
if [ -r "/usr/lib/debug/boot/vmlinux-$r" ]; then
	want=/usr/lib/debug/boot/vmlinux-$r kind=DWARF
elif [ -r "$btf" ]; then
	want=$btf kind=BTF
else
	skip "neither /usr/lib/debug/boot/vmlinux-$r (linux-image-$r-dbg) nor $btf on this machine"
fi
"$HITMAP" layout -v -C list_head,hlist_node >"$T/default" 2>"$T/err" ||
	{ cat "$T/err" >&2; fail "layout with no FILE"; }
grep -qxF "hitmap: no FILE: the running kernel, $want ($kind)" "$T/err" ||
	fail "stderr does not say which file: $(cat "$T/err")"
"$HITMAP" layout -C list_head,hlist_node "$want" >"$T/explicit" 2>/dev/null ||
	fail "layout $want"
assert_files_eq "$T/explicit" "$T/default" "layout with no FILE vs $want"
if command -v perf >/dev/null 2>&1 && id=$(perf buildid-list -k 2>/dev/null) && [ -n "$id" ]; then
	grep -qF "the running kernel: $r, build-id $id" "$T/err" ||
		fail "kernel build-id differs from perf buildid-list -k ($id): $(cat "$T/err")"
fi
exit 0
