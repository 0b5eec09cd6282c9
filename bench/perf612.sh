#!/bin/sh
# bench/perf612.sh: perf 6.12 (data-type profiling: `perf report -s
# type,typeoff`) beside the system's perf, without touching the system's
# apt configuration.  bookworm ships perf 6.1; bookworm-backports has
# linux-perf 6.12.  A private apt configuration adds the backports suite of
# the archive the system already uses, its libraries come from bookworm
# (installed with the ordinary apt-get), and the package itself is only
# downloaded and unpacked into a folder of its own.  Idempotent: a second
# run finds the unpacked perf and does nothing else.  Prints the path of the
# perf binary.
#   PERF612_DIR  where to unpack (default ~/.cache/hitmap-test/perf612)
#   PERF612_MIRROR  the archive (default: the first deb.debian.org-like URI
#                   of the system's sources, else http://deb.debian.org/debian)
set -eu
dir=${PERF612_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hitmap-test/perf612}
bin=$dir/usr/bin/perf

works() {
	[ -x "$bin" ] && "$bin" --version 2>/dev/null | grep -q '^perf version 6\.12'
}
if works; then
	echo "$bin"
	exit 0
fi

command -v apt-get >/dev/null 2>&1 || { echo "perf612: apt-get not found" >&2; exit 77; }
command -v dpkg-deb >/dev/null 2>&1 || { echo "perf612: dpkg-deb not found" >&2; exit 77; }

mirror=${PERF612_MIRROR:-}
if [ -z "$mirror" ]; then
	mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
		awk '/^URIs:/ && $2 ~ /\/debian\/?$/ { print $2; exit }')
	[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /\/debian\/?$/ { print $2; exit }' \
		/etc/apt/sources.list 2>/dev/null || true)
	[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
fi

mkdir -p "$dir"
apt=$dir/apt
mkdir -p "$apt/lists/partial" "$apt/archives/partial"
# Only the backports suite: what bookworm has, the system's lists have.
echo "deb $mirror bookworm-backports main" >"$apt/sources.list"
set -- -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
	-o Dir::State::Lists="$apt/lists"
apt-get -q "$@" update >&2

# linux-perf 6.12's libraries, from bookworm: those not installed yet.
missing=
for p in libbabeltrace1 libopencsd1 libtraceevent1 libunwind8 libnuma1 libslang2 \
	libpython3.11 libdw1; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] || apt-get install -y -q --no-install-recommends $missing >&2

deb=$(cd "$apt/archives" && ls linux-perf_6.12*_amd64.deb 2>/dev/null | tail -n 1 || true)
if [ -z "$deb" ]; then
	(cd "$apt/archives" && apt-get -q "$@" download 'linux-perf/bookworm-backports' >&2)
	deb=$(cd "$apt/archives" && ls linux-perf_6.12*_amd64.deb | tail -n 1)
fi
dpkg-deb -x "$apt/archives/$deb" "$dir"
works || { echo "perf612: $bin does not say 6.12: $("$bin" --version 2>&1 | head -n 1)" >&2; exit 1; }
echo "$bin"
