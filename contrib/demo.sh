#!/bin/sh
# A demo of git-rolling on a generated sample stable tree: a Linux-style
# history with merge windows, rc tags, weekly stable releases and an LTS
# series.  Tags are revealed week by week, as a maintainer would see
# them arrive, and the rolling branches advance after each week.
#
# Usage: contrib/demo.sh [<directory>]   (default: a new temporary one)
set -e

top=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$top/git-rolling" ] || { echo "fatal: build first: make" >&2; exit 128; }
PATH=$top:$PATH
export PATH

dir=${1:-$(mktemp -d "${TMPDIR:-/tmp}/git-rolling-demo.XXXXXX")}
mkdir -p "$dir"
cd "$dir"

# The fixture generator of the test suite makes the sample tree.  Its
# library functions expect the test environment's variables only loosely.
TEST_DIRECTORY=$top/t
. "$top/t/lib-stable-tree.sh"

if [ -t 1 ]; then
	say () { printf '\n\033[1m== %s\033[0m\n' "$*"; }
else
	say () { printf '\n== %s\n' "$*"; }
fi
run () { printf '$ %s\n' "$*"; "$@"; }

export GIT_CONFIG_NOSYSTEM=1
rm -rf sample
stable_tree_linux sample
cd sample
git config user.name "Demo Maintainer"
git config user.email "demo@example.org"
last=$(stable_tree_weeks .)

say "week 40 of $last: 6.3-rc1 is out, so 6.2 is the stable series"
stable_tree_replay . 40
run git rolling init --preset linux --stable linux-rolling-stable
run git rolling init -q --preset linux --lts --series "5.19 6.1 6.6" linux-rolling-lts

week=41
while [ $week -le $last ]; do
	stable_tree_replay . $week
	out=$(git rolling advance)
	if printf '%s\n' "$out" | grep -q ', series'; then
		say "week $week: a series switch"
		printf '%s\n' "$out"
	fi
	week=$((week + 1))
done

say "after $last weeks"
run git rolling advance --dry-run
run git log --first-parent --format='%h %s (%ad)' --date=short -n 6 linux-rolling-stable
if [ -x "$top/git-rolling-verify" ]; then
	say "verify what was built"
	run git rolling verify linux-rolling-stable
	run git rolling verify linux-rolling-lts
fi

say "the rolling branch is what the maintainers' git CLI recipe makes"
tip=$(git rev-parse linux-rolling-stable)
tag=$(git log -1 --format=%s "$tip" | sed 's/^Merge //')
git worktree add -q --detach ../recipe "$tip^1"
(
	cd ../recipe
	git merge -q -s ours --no-ff --no-commit "$tag" >/dev/null 2>&1
	git read-tree -um "$tag"
	GIT_AUTHOR_DATE=$(git log -1 --format=%ad --date=raw "$tag^{commit}") \
	GIT_COMMITTER_DATE=$(git log -1 --format=%cd --date=raw "$tag^{commit}") \
		git commit -q -s -m "Merge $tag"
	printf 'git rolling: %s\ngit CLI:     %s\n' "$tip" "$(git rev-parse HEAD)"
)
git worktree remove --force ../recipe
echo
echo "The sample repository is in $dir/sample"
