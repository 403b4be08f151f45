#!/bin/sh
#
# Refresh lib/vendor/reftable/ from a git source tree or a git source
# tarball (.tar.gz, .tar.xz, as kernel.org and `git archive` make them):
#
#     lib/vendor/refresh-reftable.sh ../shared/git/git-2.55.0-src.tar.gz
#     lib/vendor/refresh-reftable.sh ~/src/git
#
# git's reftable/ is a library written to be embedded: every file of it
# is copied, LICENSE included, except the two that belong to
# the host project, which git-rolling writes itself:
#
#   reftable-system.h   the platform header ("expected to be changed by
#                       the individual project"): lib/reftable-system.h
#   system.c            git's implementation of system.h on git's own
#                       tempfile and lockfile code: lib/reftable-system.c
#
# Then the patches of lib/vendor/reftable-patches/*.patch are applied in
# order (`patch -p1` in the copy; each says why, and when it can go: a
# fix git's release does not have yet).  A patch that does not apply
# stops the refresh.
#
# UPSTREAM records the version copied (and the commit, when the source
# says which), the patches applied, and the checksum of every file as
# patched, so that a copy edited by hand shows.  Run from anywhere; it
# replaces the whole copy, so a file git removed goes too.

set -eu

die () {
	echo >&2 "refresh-reftable: $*"
	exit 1
}

test $# = 1 || die "usage: $0 GIT-SOURCE-TREE-OR-TARBALL"
src=$1
dest=$(cd "$(dirname "$0")" && pwd)/reftable
tmp=$(mktemp -d "${TMPDIR:-/tmp}/refresh-reftable.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

commit=
if test -d "$src"
then
	tree=$(cd "$src" && pwd)
	# A checkout of git's own (not a directory inside another repository).
	if test "$(git -C "$tree" rev-parse --show-toplevel 2>/dev/null)" = "$tree"
	then
		commit=$(git -C "$tree" rev-parse -q --verify HEAD) || commit=
		! git -C "$tree" status --porcelain -- reftable GIT-VERSION-GEN | grep -q . ||
			die "$tree has changes in reftable/: commit them, or copy from a release"
	fi
elif test -f "$src"
then
	case "$src" in
	*.tar.gz|*.tgz) unpack=gzip ;;
	*.tar.xz) unpack=xz ;;
	*) die "$src: neither a directory nor a .tar.gz or .tar.xz" ;;
	esac
	$unpack -dc <"$src" >"$tmp/src.tar"
	# The tarball's one top directory, as git's tarballs have.
	top=$(tar -tf "$tmp/src.tar" | sed -n '1s|/.*||p')
	tar -xf "$tmp/src.tar" -C "$tmp" "$top/reftable" "$top/GIT-VERSION-GEN" ||
		die "$src holds no $top/reftable"
	# `git archive` records the commit; release tarballs do not.
	commit=$(git get-tar-commit-id <"$tmp/src.tar" 2>/dev/null) || commit=
	tree=$tmp/$top
else
	die "$src: no such file or directory"
fi

test -f "$tree/reftable/reftable-stack.h" || die "$src: no git source (reftable/reftable-stack.h)"
version=$(sed -n 's/^DEF_VER=//p' "$tree/GIT-VERSION-GEN")
test -n "$version" || die "$src: no DEF_VER in GIT-VERSION-GEN"

rm -rf "$dest"
mkdir "$dest"
for f in "$tree"/reftable/*
do
	name=${f##*/}
	case "$name" in
	reftable-system.h|system.c) continue ;;
	esac
	test -f "$f" || die "$f: not a plain file"
	cp "$f" "$dest/$name"
done

patches=$(cd "$dest/../reftable-patches" 2>/dev/null && LC_ALL=C ls -- *.patch 2>/dev/null) || patches=
for p in $patches
do
	patch -p1 -s -N -d "$dest" <"$dest/../reftable-patches/$p" ||
		die "reftable-patches/$p does not apply to git $version's reftable/"
done

{
	echo "git's reftable/ library, copied by lib/vendor/refresh-reftable.sh"
	echo
	echo "version: $version"
	test -z "$commit" || echo "commit: $commit"
	echo "not copied: reftable-system.h, system.c (the host's: lib/reftable-system.[ch])"
	for p in $patches
	do
		echo "patched: reftable-patches/$p"
	done
	echo
	(cd "$dest" && LC_ALL=C ls | grep -v '^UPSTREAM$' | xargs sha256sum)
} >"$tmp/UPSTREAM"
mv "$tmp/UPSTREAM" "$dest/UPSTREAM"
echo "lib/vendor/reftable: git $version${commit:+ ($commit)}, $(ls "$dest" | wc -l) files"
