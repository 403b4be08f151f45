#!/bin/sh
# verify-plumbing.sh - the checks of `git rolling verify`, written the
# obvious way with git plumbing: the baseline of t/perf/p3000-verify.sh.
#
#   verify-plumbing.sh <rev> [<release-tag-ERE>]
#
# Walks the first-parent chain from <rev> with one `git cat-file` per
# commit and one `git rev-parse` per merge (for the merged release's
# tree); the release tags are read once with for-each-ref into shell
# variables.  Each step must have two parents, the subject "Merge <tag>"
# naming a release tag that points to the second parent, and that
# commit's tree; the chain must end at a release commit; versions must
# never decrease.  As in git rolling verify, these establish that nothing
# else is reachable.  Exit 0 verified, 1 failed, 128 on errors.

rev=${1:?usage: verify-plumbing.sh <rev> [<release-tag-ERE>]}
release_re=${2:-'v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.[1-9][0-9]*'}

tmp=$(mktemp -d) || exit 128
trap 'rm -rf "$tmp"' EXIT

# A release tag name as part of a shell variable name: v6.6.4 -> v6_6_4.
mangle () {
	mangle_save=$IFS
	IFS=.
	set -- $1
	IFS=$mangle_save
	mangled=$1
	shift
	for mangle_part
	do
		mangled=${mangled}_$mangle_part
	done
}

# tag_<mangled name>=<commit> and rel_<commit>=<name> for each release tag.
git for-each-ref --format='%(refname:lstrip=2) %(objectname) %(*objectname)' refs/tags \
	>"$tmp/tags" || exit 128
grep -E "^($release_re) " "$tmp/tags" | while read -r name object peeled
do
	mangle "$name"
	commit=${peeled:-$object}
	echo "tag_$mangled=$commit rel_$commit=$name"
done >"$tmp/releases.sh"
. "$tmp/releases.sh"

commit=$(git rev-parse --verify --quiet "$rev^{commit}") || {
	echo "fatal: bad revision '$rev'" >&2
	exit 128
}
failed=0 steps=0 base=
: >"$tmp/merged"
while :
do
	git cat-file commit "$commit" >"$tmp/commit" || exit 128
	tree= parents= nparents=0 subject=
	{
		# Multi-line headers (mergetag) continue on lines starting with a space.
		while IFS= read -r line
		do
			case $line in
			'') break ;;
			'tree '*) tree=${line#tree } ;;
			'parent '*) parents="$parents ${line#parent }" nparents=$((nparents + 1)) ;;
			esac
		done
		read -r subject
	} <"$tmp/commit"
	set -- $parents
	tag=${subject#Merge }
	if test $nparents = 2 && test "$tag" != "$subject"
	then
		mangle "$tag"
		eval "tagged=\${tag_$mangled-}"
		if test "$tagged" = "$2" && test "$(git rev-parse "$2^{tree}")" = "$tree"
		then
			steps=$((steps + 1))
			echo "${tag#v}" >>"$tmp/merged"
			commit=$1
			continue
		fi
	fi
	eval "base=\${rel_$commit-}"
	test -n "$base" && break
	echo "error: $commit: neither a rolling merge nor a release commit" >&2
	failed=1
	test $nparents = 0 && break
	commit=$1
done

# Oldest first, the versions must never decrease.
if test -n "$base"
then
	{ echo "${base#v}" && sed -n '1!G;h;$p' "$tmp/merged"; } >"$tmp/order"
	if ! sort -V -c "$tmp/order" 2>/dev/null
	then
		echo "error: a version goes back: $(sort -V -c "$tmp/order" 2>&1)" >&2
		failed=1
	fi
else
	echo "error: no release commit at the base of the chain" >&2
	failed=1
fi
test $failed = 0 || exit 1
echo "verified: $steps steps from base $base"
