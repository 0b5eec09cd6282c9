#!/bin/sh
# After `make check` (run as `make check-clean-tree`): the checkout holds no
# file git does not know about and does not ignore, so nothing a build or a
# test writes into the tree can be committed by accident.  Every program
# the build makes in the tree (check_PROGRAMS and noinst_PROGRAMS, the
# fuzzers of --enable-fuzzing included) must be in .gitignore, and tests
# write their files under their scratch directory, never the source tree.
#   tests/house/clean-tree.sh [SRCDIR [BUILDDIR]]
src=${1:-.}
build=${2:-$src}
command -v git >/dev/null 2>&1 || { echo "SKIP: git not installed (Debian package git)"; exit 77; }
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 ||
	{ echo "SKIP: $src is not a git checkout"; exit 77; }
rc=0
left=$(git -C "$src" status --porcelain --untracked-files=all | sed -n 's/^?? //p')
if [ -n "$left" ]; then
	echo "untracked files in the tree (add them to .gitignore or write them elsewhere):"
	echo "$left" | sed 's/^/  /'
	rc=1
fi
# Programs the Makefile can build, whether or not this configuration did.
progs=$(awk '{ while (sub(/\\$/, "") && (getline more) > 0) $0 = $0 " " more }
	/^(check|noinst)_PROGRAMS *\+?=/ { sub(/^[^=]*= */, ""); print }' \
	"$src"/Makefile.am "$src"/mk/*.am | tr ' \t' '\n\n' | grep '^tests/' | sort -u)
for p in $progs; do
	git -C "$src" check-ignore -q "$p" || { echo "not ignored by .gitignore: $p"; rc=1; }
done
exit $rc
