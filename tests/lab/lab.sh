#!/bin/bash
# The kernel lab: run a workload on Debian's 6.1 kernel under QEMU (TCG, no
# KVM needed) and bring its results back to the host.
#
#   tests/lab/lab.sh [--keep DIR] [--kaslr] [--timeout SEC] GUEST-SCRIPT [FILE...]
#
# The guest is an initramfs: busybox, the host's perf with every library
# ldd lists (at their paths), hitmap and libhitmap with theirs, the virtio
# modules of the same kernel package, and the FILEs given (in /lab, the
# working folder).  GUEST-SCRIPT runs there as root under busybox sh with
# proc, sys, devtmpfs, debugfs and tracefs mounted; what it writes under /out
# comes back to the host through a virtio disk (a tar file) into DIR/out
# (--keep DIR) or ./out.  The kernel boots with nokaslr unless --kaslr.
#
# Why a real kernel: a recording of it joins the -dbg vmlinux's DWARF, and
# QEMU emulates the debug registers, so hardware watchpoints fire in the
# guest even where the host has no PMU.
#
# Exit status: the guest script's (0 ok), 77 when something the lab needs
# cannot be had (the message names it), 1 when the guest fails or hangs
# (the console's tail is printed).  Downloads are cached in
# $HITMAP_TEST_CACHE (default ~/.cache/hitmap-test), shared with
# tests/vmlinux/fetch.sh: the -dbg vmlinux is never downloaded twice.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
keep= kaslr= tmo=${LAB_TIMEOUT:-600}
usage() { echo "usage: lab.sh [--keep DIR] [--kaslr] [--timeout SEC] GUEST-SCRIPT [FILE...]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--keep) [ $# -ge 2 ] || usage; keep=$2; shift 2 ;;
	--kaslr) kaslr=1; shift ;;
	--timeout) [ $# -ge 2 ] || usage; tmo=$2; shift 2 ;;
	-h|--help) usage ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage
script=$1; shift
[ -r "$script" ] || { echo "lab: $script: cannot read" >&2; exit 2; }
for f in "$@"; do [ -r "$f" ] || { echo "lab: $f: cannot read" >&2; exit 2; }; done

skip() { echo "SKIP: $*" >&2; exit 77; }
KVER=6.1.0-47-cloud-amd64
KPKG=linux-image-$KVER
cache="${HITMAP_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hitmap-test}"
mkdir -p "$cache" || exit 1

# --- what the lab needs from Debian ---
need_pkgs=
command -v qemu-system-x86_64 >/dev/null 2>&1 || need_pkgs="$need_pkgs qemu-system-x86"
[ -x /bin/busybox ] && /bin/busybox cpio --help >/dev/null 2>&1 &&
	! ldd /bin/busybox >/dev/null 2>&1 || need_pkgs="$need_pkgs busybox-static"
if [ -n "$need_pkgs" ]; then
	[ "$(id -u)" = 0 ] || skip "no$need_pkgs and not root to install them"
	apt-get install -y -q $need_pkgs >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 && apt-get install -y -q $need_pkgs >/dev/null 2>&1; } ||
		skip "cannot install$need_pkgs"
fi
command -v qemu-system-x86_64 >/dev/null 2>&1 || skip "no qemu-system-x86_64"
PERF=$(command -v perf) || skip "no perf on the host to put in the guest"

# The kernel package (vmlinuz and its modules), unpacked once in the cache.
kroot=$cache/lab-$KVER
if [ ! -e "$kroot/boot/vmlinuz-$KVER" ]; then
	( cd "$cache" &&
	  { ls ${KPKG}_*.deb >/dev/null 2>&1 || apt-get download "$KPKG" >/dev/null 2>&1 ||
	    { [ "$(id -u)" = 0 ] && apt-get update -q >/dev/null 2>&1 &&
	      apt-get download "$KPKG" >/dev/null 2>&1; }; } ) ||
		skip "cannot download $KPKG"
	rm -rf "$kroot.tmp" && mkdir -p "$kroot.tmp" &&
		dpkg-deb -x "$cache"/${KPKG}_*.deb "$kroot.tmp" && mv "$kroot.tmp" "$kroot" || exit 1
fi

# The -dbg vmlinux that goes with it: make check-vmlinux's cache, once.
VMLINUX=$( . "$top/tests/vmlinux/fetch.sh" >/dev/null && echo "$VMLINUX") ||
	skip "cannot get the $KPKG-dbg vmlinux"
bid() { readelf -n "$1" 2>/dev/null | sed -n 's/.*Build ID: *//p' | head -1; }
kbid=$(bid "$VMLINUX")
[ -n "$kbid" ] || { echo "lab: $VMLINUX: no build-id" >&2; exit 1; }

# hitmap: $HITMAP when it is an ELF file, else the build's real binary (the
# libtool wrapper script cannot go into the guest), with libhitmap.
is_elf() { [ "$(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ]; }
HM_BIN=${HITMAP:-}
if [ -z "$HM_BIN" ] || ! is_elf "$HM_BIN"; then
	HM_BIN=$top/hitmap
	[ -x "$top/.libs/hitmap" ] && HM_BIN=$top/.libs/hitmap
fi
is_elf "$HM_BIN" || skip "no hitmap binary at $HM_BIN: build hitmap first"

# --- the initramfs ---
if [ -n "$keep" ]; then
	mkdir -p "$keep" || exit 1
	work=$(cd "$keep" && pwd)
	outdir=$work/out
else
	work=$(mktemp -d /tmp/hitmap-lab.XXXXXX) || exit 1
	trap 'rm -rf "$work"' EXIT
	outdir=$(pwd)/out
fi
root=$work/root
rm -rf "$root" "$work/out.img" && mkdir -p "$root"/{bin,sbin,proc,sys,dev,tmp,out,lab,usr/bin,lib/modules} || exit 1
cp /bin/busybox "$root/bin/busybox" || exit 1

# A binary and every library ldd lists, kept at their paths.
with_libs() {	# SRC DEST
	local lib
	cp -L "$1" "$root/$2" || return 1
	for lib in $(LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-} ldd "$1" | grep -o '/[^ ]*'); do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")" && cp -L "$lib" "$root$lib" || return 1
	done
}
with_libs "$PERF" usr/bin/perf || exit 1
mkdir -p "$root/usr/lib/hitmap"
cp -L "$top"/.libs/libhitmap.so* "$root/usr/lib/hitmap/" 2>/dev/null
LD_LIBRARY_PATH=$top/.libs with_libs "$HM_BIN" usr/bin/hitmap || exit 1
# and the libraries hitmap opens on first use, which ldd does not list
# (config.h names them; debuginfod's client is not needed in the guest)
for so in $(sed -n 's/^#define HM_\(CAPSTONE\|PFM\)_SONAME "\(.*\)"$/\2/p' "$top/config.h"); do
	lib=$(ldconfig -p | awk -v s="$so" '$1 == s && /x86-64/ { print $NF; exit }')
	[ -n "$lib" ] || { echo "lab: $so is not installed" >&2; exit 1; }
	mkdir -p "$root$(dirname "$lib")" && with_libs "$lib" "$lib" || exit 1
done
for m in virtio virtio_ring virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci virtio_blk; do
	ko=$(find "$kroot/lib/modules/$KVER" -name "$m.ko" | head -1)
	[ -n "$ko" ] || { echo "lab: $KPKG has no $m.ko" >&2; exit 1; }
	cp "$ko" "$root/lib/modules/" || exit 1
done
cp "$script" "$root/lab/guest.sh" || exit 1
for f in "$@"; do cp -L "$f" "$root/lab/" || exit 1; done

cat >"$root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin LD_LIBRARY_PATH=/usr/lib/hitmap HOME=/root
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mkdir -p /root
for m in virtio virtio_ring virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci virtio_blk; do
	insmod /lib/modules/$m.ko || echo "lab: insmod $m failed"
done
echo "lab: notes $(hexdump -v -e '1/1 "%02x"' /sys/kernel/notes)"
echo 0 > /proc/sys/kernel/kptr_restrict
echo -1 > /proc/sys/kernel/perf_event_paranoid
cd /lab
echo "lab: guest script starts"
set -o pipefail
sh /lab/guest.sh 2>&1 | tee /out/guest.log
echo "lab: guest script exit $?"
i=0; while [ ! -b /dev/vda ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
cd / && tar cf /dev/vda out && sync && echo "lab: out saved"
poweroff -f
EOF
chmod 755 "$root/init" "$root/lab/guest.sh"
(cd "$root" && find . | /bin/busybox cpio -o -H newc -R 0:0 2>/dev/null) | gzip -1 >"$work/initrd.gz" ||
	exit 1

# --- the boot ---
truncate -s 512M "$work/out.img" || exit 1
# no_timer_check: on a loaded host TCG runs the IO-APIC timer check too
# slowly and the kernel panics ("IO-APIC + timer doesn't work")
append="console=ttyS0 panic=-1 quiet no_timer_check"
[ -n "$kaslr" ] || append="$append nokaslr"
console=$work/console.log
start=$(date +%s)
timeout -k 5 "$tmo" qemu-system-x86_64 -accel tcg,thread=multi -smp 2 -m 1024 -cpu max \
	-nic none -kernel "$kroot/boot/vmlinuz-$KVER" -initrd "$work/initrd.gz" \
	-append "$append" -drive file="$work/out.img",format=raw,if=virtio \
	-nographic -no-reboot </dev/null >"$console" 2>&1
qrc=$?
echo "lab: guest ran $(( $(date +%s) - start )) s" >&2
fail() {
	echo "lab: $*; the guest console's tail ($console):" >&2
	tail -40 "$console" | tr -d '\r' >&2
	exit 1
}
[ $qrc = 124 ] || [ $qrc = 137 ] && fail "the guest hung (no power-off in $tmo s)"
[ $qrc = 0 ] || fail "qemu exited $qrc"
grc=$(tr -d '\r' <"$console" | sed -n 's/.*lab: guest script exit \([0-9]*\)$/\1/p' | tail -1)
# The kernel that ran is the vmlinux's: its build-id note, read in the guest.
gbid=$(tr -d '\r' <"$console" | sed -n 's/.*lab: notes .*040000001400000003000000474e5500\([0-9a-f]\{40\}\).*/\1/p' | head -1)
[ "$gbid" = "$kbid" ] || fail "the guest kernel's build-id '$gbid' is not $VMLINUX's $kbid"
grep -q "lab: out saved" "$console" || fail "the guest did not save /out"
rm -rf "$outdir" && mkdir -p "$(dirname "$outdir")" &&
	(cd "$(dirname "$outdir")" && tar xf "$work/out.img") || fail "cannot read the guest's /out"
[ -n "$grc" ] || fail "the guest script did not finish"
[ "$grc" = 0 ] || fail "the guest script exited $grc"
exit 0
