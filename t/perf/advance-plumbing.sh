#!/bin/sh
# advance-plumbing.sh - what `git rolling advance --dry-run` computes for
# the stable policy, written the obvious way with git plumbing: the
# baseline of t/perf/p2000-advance.sh.
#
#   advance-plumbing.sh <branch>
#
# Reads the tags with for-each-ref and orders them with sort -V, finds
# the release at the tip, the series the stable policy follows and the
# steps to take, and computes each merge's id with hash-object without
# writing it (with the mergetag header git writes for a signed tag).  Prints "<from> -> <to> (<id>)" per step.

branch=${1:?usage: advance-plumbing.sh <branch>}
release_re='^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.[1-9][0-9]*$'
mainline_re='^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-rc[1-9][0-9]*)?$'

tmp=$(mktemp -d) || exit 128
trap 'rm -rf "$tmp"' EXIT

git for-each-ref --format='%(refname:short)' refs/tags >"$tmp/tags" || exit 128
grep -E "$release_re" "$tmp/tags" | sort -V >"$tmp/releases"
newest_mainline=$(grep -E "$mainline_re" "$tmp/tags" | sed 's/-rc[0-9]*$//' | sort -V | tail -n 1)

series_of () { echo "${1%.*}"; }
newest_of () { grep -F "$1." "$tmp/releases" | awk -v p="$1." 'index($0, p) == 1' | tail -n 1; }

# The series the stable policy follows: the newest below mainline's.
sed 's/\.[0-9]*$//' "$tmp/releases" | uniq >"$tmp/series"
{ cat "$tmp/series"; echo "$newest_mainline"; } | sort -V -u |
	awk -v limit="$newest_mainline" '$0 == limit { exit } { print }' >"$tmp/below"
target_series=$(tail -n 1 "$tmp/below")

tip=$(git rev-parse --verify "refs/heads/$branch") || exit 128
current=$(git log -1 --format=%s "$tip" | sed -n 's/^Merge //p')
test -n "$current" || current=$(git tag --points-at "$tip" | grep -E "$release_re" | sort -V | tail -n 1)
test -n "$current" || { echo "tip is neither a rolling merge nor a release" >&2; exit 1; }

steps=
catch_up=$(newest_of "$(series_of "$current")")
test "$catch_up" != "$current" && steps=$catch_up
test "$target_series" != "$(series_of "$current")" && steps="$steps $(newest_of "$target_series")"

name=$(git config user.name) email=$(git config user.email)
from=$current
for release in $steps
do
	dates=$(git log -1 --format='%ad|%cd' --date=raw "$release^{commit}")
	{
		printf 'tree %s\nparent %s\nparent %s\nauthor %s <%s> %s\ncommitter %s <%s> %s\n' \
			"$(git rev-parse "$release^{tree}")" "$tip" "$(git rev-parse "$release^{commit}")" \
			"$name" "$email" "${dates%|*}" "$name" "$email" "${dates#*|}"
		# git merge <tag> embeds a signed tag (gpg-interface.c's armours).
		if test "$(git cat-file -t "$release")" = tag &&
		   git cat-file tag "$release" | grep -q -e '^-----BEGIN PGP SIGNATURE-----' \
			-e '^-----BEGIN PGP MESSAGE-----' -e '^-----BEGIN SIGNED MESSAGE-----' \
			-e '^-----BEGIN SSH SIGNATURE-----'
		then
			git cat-file tag "$release" | sed -e '1s/^/mergetag /' -e '2,$s/^/ /'
		fi
		printf '\nMerge %s\n\nSigned-off-by: %s <%s>\n' "$release" "$name" "$email"
	} >"$tmp/merge"
	id=$(git hash-object -t commit "$tmp/merge")
	echo "$from -> $release ($id)"
	tip=$id
	from=$release
done
