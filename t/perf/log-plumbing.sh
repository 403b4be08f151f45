#!/bin/sh
# log-plumbing.sh BRANCH: what a script would do for `git rolling log`'s
# counts: one `git rev-list --count <previous release>..<release>` per
# step of the first-parent chain.  Prints "<release> <count>", newest first.
git log --first-parent --format=%s "$1" | sed -n 's/^Merge //p' >"${TMPDIR:-/tmp}/log-plumbing.$$" &&
base=$(git tag --points-at "$(git rev-list --first-parent --max-parents=1 -1 "$1")" |
	grep -E '^v[0-9]+\.[0-9]+\.[0-9]+$' | sort -V | tail -n 1) &&
{ tail -n +2 "${TMPDIR:-/tmp}/log-plumbing.$$"; echo "$base"; } |
paste -d' ' "${TMPDIR:-/tmp}/log-plumbing.$$" - |
while read release previous
do
	echo "$release $(git rev-list --count "$previous..$release")" || exit 1
done
status=$?
rm -f "${TMPDIR:-/tmp}/log-plumbing.$$"
exit $status
