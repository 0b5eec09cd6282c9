# Sourced: sets VMLINUX to the Debian 6.1 cloud vmlinux, downloading and
# unpacking linux-image-6.1.0-47-cloud-amd64-dbg once into the test cache,
# and VMLINUX2 to the generic flavour of the same source
# (linux-image-6.1.0-47-amd64-dbg: only its vmlinux is unpacked, into a
# folder of its own) for the whole-kernel diff; VMLINUX2 is empty when that
# download is impossible.  Exits 77 (skip) only when the first one is.
HM_TEST_CACHE="${HITMAP_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hitmap-test}"
HM_KPKG=linux-image-6.1.0-47-cloud-amd64-dbg
VMLINUX=$(ls "$HM_TEST_CACHE"/x/usr/lib/debug/boot/vmlinux-* 2>/dev/null | head -1)
if [ -z "$VMLINUX" ]; then
	mkdir -p "$HM_TEST_CACHE" && cd "$HM_TEST_CACHE" || exit 1
	if ! ls ${HM_KPKG}_*.deb >/dev/null 2>&1; then
		apt-get download "$HM_KPKG" >/dev/null 2>&1 ||
			{ [ "$(id -u)" = 0 ] && apt-get update -q >/dev/null 2>&1 &&
			  apt-get download "$HM_KPKG" >/dev/null 2>&1; } ||
			{ echo "SKIP: cannot download $HM_KPKG" >&2; exit 77; }
	fi
	dpkg-deb -x ${HM_KPKG}_*.deb x || exit 1
	cd - >/dev/null || exit 1
	VMLINUX=$(ls "$HM_TEST_CACHE"/x/usr/lib/debug/boot/vmlinux-* | head -1)
fi
export VMLINUX
HM_KPKG2=linux-image-6.1.0-47-amd64-dbg
VMLINUX2=$(ls "$HM_TEST_CACHE"/x-amd64/usr/lib/debug/boot/vmlinux-* 2>/dev/null | head -1)
if [ -z "$VMLINUX2" ]; then
	cd "$HM_TEST_CACHE" || exit 1
	if ls ${HM_KPKG2}_*.deb >/dev/null 2>&1 || apt-get download "$HM_KPKG2" >/dev/null 2>&1; then
		mkdir -p x-amd64 &&
			dpkg-deb --fsys-tarfile ${HM_KPKG2}_*.deb |
			tar -x -C x-amd64 --wildcards './usr/lib/debug/boot/vmlinux-*' || exit 1
		VMLINUX2=$(ls "$HM_TEST_CACHE"/x-amd64/usr/lib/debug/boot/vmlinux-* | head -1)
	else
		echo "note: cannot download $HM_KPKG2: the whole-kernel diff is skipped" >&2
	fi
	cd - >/dev/null || exit 1
fi
export VMLINUX2
