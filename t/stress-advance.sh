#!/bin/sh
# stress-advance.sh - kill -9 at random moments and concurrent runs of
# git rolling advance on a checked-out rolling branch (make stress; not
# part of make test).  Each round starts from the same branch tip, clean
# work tree, and makes one of:
#
#   kill    one advance, killed with SIGKILL after a random delay
#   race    two advances at once
#   both    two advances at once, one of them killed at random
#
# then checks, before anything else runs, that the branch is at its old
# tip or at a valid new one (a chain of rolling merges), and after one
# more plain `git rolling advance` (no manual step), that the branch is at
# the target and the index and every file agree with it, with no lock or
# intent file left.  Prints the counts and exits 1 on any inconsistent
# state.  STRESS_RUNS rounds (default 300); STRESS_SEED seeds the delays.

TEST_DIRECTORY=$(cd "$(dirname "$0")" && pwd -P)
BUILD_DIR=$(cd "$TEST_DIRECTORY/.." && pwd -P)
RUNS=${STRESS_RUNS:-300}
for var in $(env | sed -n 's/^\(GIT_[A-Za-z0-9_]*\)=.*/\1/p')
do
	unset "$var"
done
GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C TZ=UTC
PATH=$BUILD_DIR:$PATH
export GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL LC_ALL TZ PATH
test -x "$BUILD_DIR/git-rolling-advance" || { echo "build git-rolling first (make)" >&2; exit 1; }
. "$TEST_DIRECTORY/lib-stable-tree.sh"

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
stable_tree_linux tree >/dev/null && stable_tree_replay tree 44 || exit 1
cd tree || exit 1
git config user.name Stress && git config user.email stress@example.org
git rolling init -q --at v6.1.1 linux-rolling-stable || exit 1
git checkout -q linux-rolling-stable || exit 1
start=$(git rev-parse HEAD)
git-rolling-advance -q || exit 1
target=$(git rev-parse HEAD)
steps=$(git rev-list --count --first-parent "$start..$target")
files=$(git diff --name-only "$start" "$target" | wc -l)

# How long one advance takes, to spread the kills over it.
reset_start () {
	git reset -q --hard "$start" && git clean -q -fdx
}
reset_start
t0=$(date +%s%N)
git-rolling-advance -q
t1=$(date +%s%N)
span_us=$(((t1 - t0) / 1000))
span_us=$((span_us * 3 / 2 + 1))
echo "stress: $RUNS rounds, $steps steps and $files files per advance," \
	"kills spread over ${span_us} us" >&2

seed=${STRESS_SEED:-$$}
# random_below N: a number below N in $rnd (not in a subshell: the seed moves on)
random_below () {
	seed=$(((seed * 1103515245 + 12345) % 2147483648))
	rnd=$(((seed >> 16) % $1))
}

sleep_us () {
	sleep "$(awk -v u="$1" 'BEGIN { printf "%.6f", u / 1e6 }')"
}

# A valid tip: the start, or rolling merges on top of it, each with the
# tree of its release.
valid_tip () {
	for commit in $(git rev-list --first-parent "$start..$1")
	do
		tag=$(git log -1 --format=%s "$commit" | sed -n "s/^Merge //p")
		test -n "$tag" &&
		test "$(git rev-parse "$commit^{tree}")" = "$(git rev-parse "$tag^{tree}")" &&
		test "$(git rev-parse "$commit^2")" = "$(git rev-parse "$tag^{commit}")" ||
			return 1
	done
}

consistent () {
	gitdir=$(git rev-parse --git-dir) &&
	test "$(git rev-parse HEAD)" = "$target" &&
	git diff --quiet HEAD &&
	git diff --cached --quiet HEAD &&
	test -z "$(git status --porcelain --untracked-files=all)" &&
	! test -e "$gitdir/index.lock" &&
	! test -e "$gitdir/ROLLING_ADVANCE" &&
	! test -e "$gitdir/refs/heads/linux-rolling-stable.lock"
}

bad=0 killed=0 raced=0 recovered=0 refused=0 mid=0
round=0
while test $round -lt "$RUNS"
do
	round=$((round + 1))
	reset_start || { echo "round $round: cannot reset" >&2; exit 1; }
	random_below 3
	mode=$rnd
	case $mode in
	0)	git-rolling-advance -q 2>/dev/null &
		pid=$!
		random_below $span_us
		sleep_us $rnd
		kill -9 $pid 2>/dev/null && killed=$((killed + 1))
		wait $pid 2>/dev/null ;;
	1)	git-rolling-advance -q 2>/dev/null &
		a=$!
		git-rolling-advance -q 2>/dev/null &
		b=$!
		wait $a 2>/dev/null; wait $b 2>/dev/null
		raced=$((raced + 1)) ;;
	2)	git-rolling-advance -q 2>/dev/null &
		a=$!
		git-rolling-advance -q 2>/dev/null &
		b=$!
		random_below $span_us
		sleep_us $rnd
		kill -9 $a 2>/dev/null && killed=$((killed + 1))
		wait $a 2>/dev/null; wait $b 2>/dev/null
		raced=$((raced + 1)) ;;
	esac
	if test -e .git/index.lock && ! test -e .git/ROLLING_ADVANCE
	then
		echo "round $round (mode $mode): index.lock without an intent file:" \
			"$(ls .git | grep -e lock -e ROLLING | tr "\n" " ")" >&2
	fi
	tip=$(git rev-parse linux-rolling-stable)
	if ! valid_tip "$tip"
	then
		echo "round $round (mode $mode): invalid branch tip $tip" >&2
		bad=$((bad + 1))
		continue
	fi
	test "$tip" = "$start" || test "$tip" = "$target" || mid=$((mid + 1))
	test -e .git/ROLLING_ADVANCE && recovered=$((recovered + 1))
	# The next advance, with no manual step; a refusal (the killed run's
	# git still finishing) is retried once.
	if ! git-rolling-advance -q 2>"$work/err"
	then
		refused=$((refused + 1))
		sed "s/^/round $round: /" "$work/err" >&2
		git-rolling-advance -q 2>>"$work/err"
	fi
	if ! consistent
	then
		echo "round $round (mode $mode): inconsistent after the next advance" >&2
		{
			git log -1 --format="HEAD %h %s" HEAD &&
			git status --short --untracked-files=all | head -5 &&
			ls "$(git rev-parse --git-dir)" | grep -e lock -e ROLLING
			cat "$work/err"
		} | sed "s/^/    /" >&2
		bad=$((bad + 1))
	fi
done

echo "stress: $RUNS rounds: $killed kills, $raced concurrent pairs;" \
	"$mid branch tips between start and target, $recovered interrupted runs" \
	"finished by the next advance, $refused refusals; $bad inconsistent states"
test $bad = 0
